"""Issue 24, the rest: what `replayer cards import` and `replayer import` say of what they could not
use, the errors of errors.py, and the State pane's Life Points arithmetic and chain-link details are
messages, in the chosen language (the English as before, byte for byte).

(tests/test_i18n.py: every message of the catalogs, these included, is translated with the same
placeholders; here: that these messages reach the user in that language.)
"""

from __future__ import annotations

import json
import pickle
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer import i18n, read_text
from replayer.check import check_match
from replayer.cli import cli

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch):
    monkeypatch.setenv(i18n.ENV, "en")
    yield
    i18n.use(None)


# ---- the card import ------------------------------------------------------------------------------
def _bad_card_data(root: Path) -> Path:
    """A folder of card data none of whose files is whole: every kind of problem the import reports."""
    root.mkdir()
    (root / "cardinfo.json").write_text('{"data": 3}', encoding="utf-8")  # not a list of cards
    (root / "cardinfo_de.json").write_text("not json", encoding="utf-8")  # not JSON: not card data
    (root / "cards_dm.json").write_text('{"cards": [{"name": 5}]}', encoding="utf-8")  # an entry of the wrong shape
    conn = sqlite3.connect(root / "bad.cdb")
    conn.execute("CREATE TABLE datas (id, ot, alias, setcode, type, atk, def, level, race, attribute, category)")
    conn.execute("CREATE TABLE texts (id, name, desc)")
    conn.execute("INSERT INTO datas VALUES (1, 0, 0, 0, x'00', 0, 0, 1.5, 0, 0, 0)")  # type is a BLOB
    conn.execute("INSERT INTO texts VALUES (1, 'A', 'x')")
    conn.commit()
    conn.close()
    script = root / "script"
    script.mkdir()
    (script / "c1234.lua").write_text(
        "local s,id=GetID()\nfunction s.initial_effect(c)\n  local e1=Effect.CreateEffect(c)\n"
        "  e1:SetType(EFFECT_TYPE_WEIRD)\n  c:RegisterEffect(e1)\n  Mystery.AddSomething(c)\nend\n", encoding="utf-8")
    return root


def _import_cards(tmp_path: Path, name: str, jobs: int = 1):
    from replayer.cards.db import CardDB
    from replayer.cards.importer import import_cards

    return import_cards([tmp_path / "data"], CardDB(tmp_path / f"{name}.db"), jobs=jobs)


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_every_problem_of_the_card_import_is_in_the_chosen_language(tmp_path, monkeypatch, lang):
    _bad_card_data(tmp_path / "data")
    english = _import_cards(tmp_path, "en").problems
    assert len(english) >= 5
    assert any("type is a BLOB (b'\\x00'), not an integer or NULL; the row is skipped" in p for p in english)
    assert any(p.endswith("c1234.lua:6: helper Mystery.AddSomething (its effects are not read)") for p in english)
    monkeypatch.setenv(i18n.ENV, lang)
    summary = _import_cards(tmp_path, lang)
    assert summary.problems == english  # the API's strings stay the English ones
    out = summary.to_dict(lang)
    assert out["problems_en"] == english
    for said, en in zip(out["problems"], english):
        assert (JAPANESE.search(said) if lang == "ja" else said != en), said
    assert "problems_en" not in summary.to_dict()  # English JSON as it was
    joined = "\n".join(out["problems"])
    if lang == "ja":
        assert "この行は飛ばします" in joined and "ヘルパーMystery.AddSomething" in joined
    else:
        assert "die Zeile wird übersprungen" in joined and "Hilfsfunktion Mystery.AddSomething" in joined


def test_the_card_import_says_its_problems_in_the_language_of_lang(tmp_path):
    _bad_card_data(tmp_path / "data")
    runner = CliRunner()
    args = ["cards", "import", "--cards-db", str(tmp_path / "c.db"), "--no-progress", str(tmp_path / "data")]
    en = runner.invoke(cli, args)
    de = runner.invoke(cli, ["--lang", "de"] + args[:3] + [str(tmp_path / "d.db")] + args[4:])
    ja = runner.invoke(cli, ["--lang", "ja"] + args[:3] + [str(tmp_path / "j.db")] + args[4:] + ["--format", "json"])
    assert "things could not be read:" in en.stdout and "is a JSON int, not a list of cards" in en.stdout
    assert "Dinge konnten nicht gelesen werden:" in de.stdout and "ist ein JSON-int, keine Liste von Karten" in de.stdout
    assert "1 Yu-Gi-Oh! Karten" in de.stdout  # (the game's title as its catalog names it)
    assert "カード（遊戯王OCG 1枚）" in runner.invoke(cli, ["--lang", "ja"] + args[:3] + [str(tmp_path / "k.db")]
                                              + args[4:]).stdout
    out = json.loads(ja.stdout)
    assert any("JSONのintで、カードのリストではありません" in p for p in out["problems"])
    assert any("is a JSON int, not a list of cards" in p for p in out["problems_en"])


def test_a_script_read_in_a_worker_process_keeps_its_problems_messages(tmp_path, monkeypatch):
    """Scripts are read in worker processes (``--jobs``): their problems come back as messages."""
    _bad_card_data(tmp_path / "data")
    for n in range(2, 6):  # enough scripts for the workers to be used
        (tmp_path / "data" / "script" / f"c{n}.lua").write_text(
            (tmp_path / "data" / "script" / "c1234.lua").read_text(encoding="utf-8"), encoding="utf-8")
    summary = _import_cards(tmp_path, "jobs", jobs=2)
    helpers = [p for p in summary.problems if "Mystery.AddSomething" in p]
    assert len(helpers) == 5
    assert all(JAPANESE.search(i18n.render(p, "ja")) for p in helpers)


def test_the_sandbox_says_its_own_limits_in_the_language():
    from replayer.cards.luarun import SandboxError, _stopped

    said = i18n.Said(_stopped(SandboxError("instruction limit (in c600.lua:3)")))
    assert said == "stopped: instruction limit (in c600.lua:3)"
    assert said.render("ja") == "停止しました：命令数の上限（c600.lua:3）"
    assert i18n.Said(_stopped(SandboxError("c9.lua:3: boom"))).render("de") == "angehalten: c9.lua:3: boom"  # Lua's own


def test_said_is_its_english_text_and_keeps_its_message_across_processes():
    said = i18n.Said(i18n.M("cannot read {error}", error="x.duel: gone"))
    assert said == "cannot read x.duel: gone" and isinstance(said, str) and "gone" in said
    back = pickle.loads(pickle.dumps(said))
    assert type(back) is i18n.Said and back.render("de") == "x.duel: gone kann nicht gelesen werden"
    assert i18n.M("replayer: skipped {path}: {why}", path="p", why=said).render("ja") == \
        "replayer: p を飛ばしました：x.duel: gone を読み込めません"  # a parameter in the same language


# ---- the log import --------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, words", [("en", ["not a match log (no header tags, no events)", "cannot read"]),
                                         ("ja", ["対戦ログではありません", "を読み込めません"]),
                                         ("de", ["kein Match-Log", "kann nicht gelesen werden"])])
def test_the_import_says_why_it_skipped_a_file_in_the_chosen_language(tmp_path, lang, words):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "empty.duel").write_text("# only a comment\n", encoding="utf-8")
    (logs / "locked.duel").symlink_to(tmp_path / "nowhere.duel")  # found, and cannot be opened
    r = CliRunner().invoke(cli, ["--lang", lang, "import", "--db", str(tmp_path / "lib.db"), "--no-progress",
                                 str(logs / "empty.duel"), str(logs / "locked.duel")])
    assert r.exit_code == 2
    for w in words:
        assert w in r.stderr, r.stderr


def test_an_undecodable_log_is_reported_by_the_import_as_check_reports_it(tmp_path):
    log = tmp_path / "latin1.duel"
    log.write_bytes('[Game "ygo"]\n[A "Jürgen"]\nturn 1 A\n'.encode("latin-1"))
    runner = CliRunner()
    r = runner.invoke(cli, ["--lang", "de", "import", "--db", str(tmp_path / "lib.db"), "--no-progress", str(log)])
    c = runner.invoke(cli, ["--lang", "de", "check", "--color", "never", str(log)])
    assert r.exit_code == 2 and c.stdout.strip() and c.stdout.strip() in r.stderr


# ---- errors.py -------------------------------------------------------------------------------------
def test_a_damaged_library_is_said_in_the_chosen_language():
    from replayer.errors import LibraryDamaged

    en = str(LibraryDamaged("lib.db", "database disk image is malformed", "row 3 missing"))
    assert en == ("lib.db: the library is damaged (database disk image is malformed); PRAGMA integrity_check says: "
                  "row 3 missing. Restore it from a backup, or import the logs again into a new library")
    i18n.use("de")
    de = str(LibraryDamaged("lib.db", "database disk image is malformed", "row 3 missing"))
    assert de.startswith("lib.db: die Bibliothek ist beschädigt (database disk image is malformed)")
    assert "Stelle sie aus einer Sicherung wieder her" in de


def test_an_error_raised_with_a_message_says_it_in_any_language(tmp_path):
    """The command line prints an error in its language; the window asks for its own (in_language)."""
    from replayer.errors import ReviewStoreError
    from replayer.reviews import SidecarStore

    (tmp_path / "match.duel.review.json").write_text('{"reviews": 3}', encoding="utf-8")
    with pytest.raises(ReviewStoreError) as raised:
        SidecarStore().load(str(tmp_path / "match.duel"))
    e = raised.value
    assert str(e) == "match.duel.review.json is not a replayer review file"  # English: as before
    assert e.in_language("de") == "match.duel.review.json ist keine Prüfungsdatei von replayer"
    assert e.in_language("ja") == "match.duel.review.json は replayer の審査ファイルではありません"
    i18n.use("ja")
    assert str(ReviewStoreError(i18n.M("{file} is not a replayer review file", file="x"))) == \
        "x は replayer の審査ファイルではありません"
    assert ReviewStoreError("plain").in_language("ja") == "plain"


def test_a_static_ability_of_imported_duel_masters_data_is_said_in_the_language():
    from replayer.cards.commands import _describe_static

    st = {"who": "yours", "other": True, "civs": ["fire"], "gives": ["power-attacker 2000"]}
    assert str(_describe_static(st)) == "your other fire creatures: power-attacker 2000"
    assert _describe_static(st).render("ja") == "自分の他の fireクリーチャー：power-attacker 2000"
    st = {"who": "all", "needs": "speed-attacker", "gives": ["cannot-attack-turn-entered"]}
    assert _describe_static(st).render("de") == "alle Kreaturen mit speed-attacker: cannot-attack-turn-entered"


# ---- the State pane's words from the games -----------------------------------------------------------
STATE_LOG = """\
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
[LP "4000"]

turn 3 A
phase battle
A: attack "Blue-Eyes White Dragon" -> direct
step damage
timing calc
B: damage 3000
B: lp 2000
timing ds-end
phase main2
A: activate "Monster Reborn" {normal-spell, targets} targeting "Kuriboh"
CL2 B: activate "Kuriboh" effect 1 from hand cost discard "Honest" {quick}
A: negate "Kuriboh"
"""


def test_the_life_points_arithmetic_and_the_chain_links_are_in_the_readers_language():
    r = check_match(read_text(STATE_LOG)).states
    s = r.state_at(len(r.match.events) - 1)
    (arith,) = s.arithmetic
    cl1, cl2 = s.chain
    # English as before
    assert arith == "line 12: B lp 2000, but the damage written gives 1000"
    assert cl1.detail == "targeting Kuriboh"
    assert cl2.detail == "effect 1, from hand, cost: discard Honest, negated"
    # in Japanese and German, the cards as the catalog names them there
    assert i18n.render(arith, "ja") == "12行目：BのLPは2000ですが、記録されたダメージからは1000になります"
    assert i18n.render(arith, "de") == "Zeile 12: B LP 2000, aber der notierte Schaden ergibt 1000"
    assert i18n.render(cl1.detail, "ja") == "対象：クリボー"
    assert i18n.render(cl2.detail, "ja") == "効果 1、手札から、コスト：オネストを捨てる、無効"
    assert i18n.render(cl2.detail, "de") == "Effekt 1, aus der Hand, Kosten: Ehrliche Haut abwerfen, annulliert"


def test_a_duel_masters_ability_waits_in_the_readers_language():
    log = ('[Game "dm"]\n[A "Ren"]\n[B "Kai"]\nturn 3 A\nphase attack\nA: attack "Bolshack Dragon" -> player\n'
           'A: trigger "Bolshack Dragon"\nB: break 1\nB: s-trigger "Holy Awe"\n')
    r = check_match(read_text(log)).states
    pending = [s.pending for s in map(r.state_at, range(len(r.match.events))) if s.pending]
    assert pending, "the log should leave an ability waiting"
    waiting, link = pending[-1]
    assert waiting.detail == "waiting"
    assert i18n.render(waiting.detail, "ja") == "待機中" and i18n.render(waiting.detail, "de") == "wartet"
    assert link.detail == "S-Trigger"
    assert i18n.render(link.detail, "ja") == "S・トリガー" and i18n.render(link.detail, "de") == "S-Trigger"


def test_the_chain_links_rules_words_are_the_glossarys():
    from replayer.games.ygo import states as ygo_states
    from replayer.games.ygo.words import GLOSSARY

    rows = {en: (ja, de) for _w, en, ja, de, _src in GLOSSARY}
    for term, en in ((ygo_states._COSTS["discard"], "discard (as a cost)"),
                     (ygo_states._COSTS["send"], "send to the GY (as a cost)"),
                     (ygo_states._NEGATED, "negated (a chain link)"), (ygo_states._FLIP_EFFECT, "Flip effect"),
                     (ygo_states._TRIGGER, "Trigger Effect")):
        assert rows[en] == (term.render("ja"), term.render("de")), en


def test_an_incomplete_card_database_is_said_in_the_language(tmp_path):
    db = tmp_path / "cards.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE meta (key, value)")
    conn.commit()
    conn.close()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cardinfo.json").write_text('{"data": []}', encoding="utf-8")
    r = CliRunner().invoke(cli, ["--lang", "de", "cards", "import", "--cards-db", str(db), "--no-progress",
                                 str(tmp_path / "data")])
    assert "war unvollständig (es fehlen cards, files, names)" in r.stderr, r.stderr
