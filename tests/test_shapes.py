"""The start-up's kept things (replayer.shapes, replayer.cache, the catalog's JSON copy, the lazy
games and commands): a warm run reads as a cold one does, without lark; a damaged, planted or
stale file is never trusted and never breaks a check."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from replayer import cache
from replayer import events as ev
from replayer import shapes
from replayer.check import check_text
from replayer.games import ALL as GAMES, get
from replayer.lines import _TAG, LineReader

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").rglob("*.duel"))


def _run(code: str, cache: Path, **env: str) -> str:
    full = dict(os.environ, XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), REPLAYER_CARDS_DB="")
    full.pop(shapes.ENV, None)
    full.update(env)
    out = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    return out.stdout


_CHECK_ALL = (
    "import json, sys\n"
    "from replayer.check import check_file\n"
    "out = []\n"
    "for p in sys.argv[1:] or {samples!r}:\n"
    "    r = check_file(p)\n"
    "    out.append([p, [[f.rule, repr(f)] for f in r.findings],\n"
    "                [repr(e) for e in r.match.events]])\n"
    "print(json.dumps({{'lark': 'lark' in sys.modules, 'out': out}}))\n"
)


def test_a_warm_run_reads_every_sample_as_a_cold_run_and_without_lark(tmp_path):
    code = _CHECK_ALL.format(samples=[str(p) for p in SAMPLES])
    cold = json.loads(_run(code, tmp_path))
    kept = sorted(p.name for p in (tmp_path / "replayer").glob("*-shapes-*.json"))
    assert len(kept) == 2  # one file a game
    warm = json.loads(_run(code, tmp_path))
    assert cold["out"] == warm["out"]
    assert cold["lark"]
    # the samples have bad lines on purpose (syntax findings need the parser): a log of good lines
    good = [p for p, findings, _ in cold["out"] if not any(rule.startswith("syntax.") for rule, _ in findings)]
    assert len(good) > 100
    warm_good = json.loads(_run(_CHECK_ALL.format(samples=good), tmp_path))
    assert not warm_good["lark"], "a warm run of logs without a bad line parses nothing"
    # and with the kept shapes off, the same again, nothing kept
    off = tmp_path / "off"
    assert json.loads(_run(code, off, REPLAYER_SHAPES="off"))["out"] == cold["out"]
    assert not list((off / "replayer").glob("*-shapes-*.json"))


def _reader_with(tmp_path, monkeypatch, entries: dict) -> LineReader:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(shapes.ENV, raising=False)
    game = get("ygo")
    probe = shapes.Shapes.open(game)
    assert probe.path is not None
    probe.path.write_text(json.dumps({"kept": entries}), encoding="utf-8")
    probe.path.chmod(0o600)
    return LineReader(game)


LINES = ['A: attack "Lyla" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500', "turn 3 A", "timing calc",
         'B: activate "Mirror Force"', "A: draw", 'A: normal summon "Kuriboh" 300/200']


def _events(reader: LineReader) -> list:
    return [reader.read(line, 1) for line in LINES]


def test_lying_or_damaged_entries_are_not_believed(tmp_path, monkeypatch):
    monkeypatch.setenv(shapes.ENV, "off")
    fresh = _events(LineReader(get("ygo")))
    monkeypatch.delenv(shapes.ENV)
    attack = 'A: attack "\x000" 900000000/900000001 -> "\x001" 900000002/900000003'
    hostile = {
        # another class than the line's, the right arity: the template check refuses its placeholders
        attack: ["Draw", "A", None, 1],
        "turn 900000000 A": ["Nope", 1, 2],  # no such class
        "timing calc": ["Timing", None, None],  # too few values
        'B: activate "\x000"': ["Activate", {"card": [1, 2]}, "x"],  # a damaged card
        "A: draw": "not a list",
        'A: normal summon "\x000" 900000000/900000001': ["Summon", {"eval": "os.system('x')"}],
    }
    reader = _reader_with(tmp_path, monkeypatch, hostile)
    assert _events(reader) == fresh


def test_a_file_that_is_not_json_or_not_ours_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv(shapes.ENV, "off")
    fresh = _events(LineReader(get("ygo")))
    monkeypatch.delenv(shapes.ENV)
    reader = _reader_with(tmp_path, monkeypatch, {})
    path = reader.shapes.path
    path.write_bytes(b"\x80\x03not json")
    assert _events(LineReader(get("ygo"))) == fresh
    # a good file others may write is refused
    reader = _reader_with(tmp_path, monkeypatch, {"timing calc": ["Timing", None, None, "ds-end"]})
    path.chmod(0o666)
    assert cache.read_json(path) is None
    path.chmod(0o600)
    assert cache.read_json(path) == {"kept": {"timing calc": ["Timing", None, None, "ds-end"]}}
    # believed when it is ours and says a shape is some event: this is what keeping them means
    assert LineReader(get("ygo")).read("timing calc", 1).name == "ds-end"


def test_what_is_kept_is_what_was_parsed_and_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(shapes.ENV, raising=False)
    monkeypatch.setattr(shapes, "LIMIT", 5)
    game = get("ygo")
    reader = LineReader(game)
    for i, line in enumerate(LINES + [f"A: draw {n}" for n in range(1, 4)] + ["step damage", "phase battle"]):
        reader.read(line, 1)
    cache.save_all()
    data = json.loads(reader.shapes.path.read_text(encoding="utf-8"))
    assert len(data["kept"]) == 5
    assert reader.shapes.path.stat().st_mode & 0o777 == 0o600
    # every entry decodes to the event its shape parses to
    monkeypatch.setenv(shapes.ENV, "off")
    plain = LineReader(game)
    for text, entry in data["kept"].items():
        event = shapes.decode_event(entry, __import__("replayer.templates", fromlist=["own_fields"]).own_fields)
        assert isinstance(event, ev.Event)
        assert type(plain._parse_shape(text)) is type(event)


def test_a_stale_file_is_replaced_by_the_new_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(shapes.ENV, raising=False)
    reader = LineReader(get("ygo"))
    old = reader.shapes.path.with_name("ygo-shapes-0000000000000000.json")
    old.write_text("{}", encoding="utf-8")
    reader.read("timing calc", 1)
    cache.save_all()
    assert reader.shapes.path.is_file() and not old.exists()


def test_the_header_tag_fast_path_reads_as_the_grammar(monkeypatch):
    monkeypatch.setenv(shapes.ENV, "off")
    reader = LineReader(get("ygo"))
    alphabet = ["[", "]", " ", '"', "A", "b", "1", "-", "_", "《", "》", "「", "」", "„", "“", "”", "\t", "\u3000",
                "x", "é", "\u00a0"]
    rng = random.Random(7)
    cases = ['[Game "ygo"]', '[ A "x" ]', '[A"x"]', "[Event 「全日本」]", "[E „Turnier“]", '[E "a  b\t c"]',
             '[9 "x"]', '[A "x" "y"]', '[_A "x"]', "[\u3000A\u00a0\"x\"\t]"]
    cases += ["[" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9))) for _ in range(5000)]
    for body in {c.rstrip() for c in cases if c.rstrip()}:
        by_grammar = reader.parse(body, 1)
        m = _TAG.match(body)
        if isinstance(by_grammar, tuple):
            assert m is not None and reader.entry(body, 1) == (None, by_grammar), body
        else:
            assert m is None, body


def test_the_catalog_copy(tmp_path, monkeypatch):
    from replayer.catalog import read_catalog

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    toml = tmp_path / "catalog.toml"
    toml.write_text('[[card]]\nen = "Kuriboh"\nkind = "monster"\n', encoding="utf-8")
    first = read_catalog("ygo", toml)
    copies = list((tmp_path / "replayer").glob("catalog-ygo-*.json"))
    assert len(copies) == 1 and copies[0].stat().st_mode & 0o777 == 0o600
    assert read_catalog("ygo", toml).cards == first.cards
    copies[0].write_text('{"card": [{"en": 5}]}', encoding="utf-8")  # damaged: read from the TOML
    assert read_catalog("ygo", toml).cards == first.cards
    toml.write_text('[[card]]\nen = "Winged Kuriboh"\nkind = "monster"\n', encoding="utf-8")
    assert [c.id for c in read_catalog("ygo", toml).cards] == ["Winged Kuriboh"]
    assert len(list((tmp_path / "replayer").glob("catalog-ygo-*.json"))) == 1  # the old copy is gone


def test_a_game_may_name_where_its_model_is():
    import dataclasses

    from replayer.games.base import Game

    game = Game(id="t", title="T", aliases=("t",), revisions=("current",), counter_tag="LP", counter_default=1,
                grammar="", model="replayer.games.ygo.model:YgoModel", states_class="replayer.states:Replay")
    from replayer.games.ygo.model import YgoModel
    from replayer.states import Replay

    assert game.model is YgoModel and game.states is Replay
    assert dataclasses.replace(game).model is YgoModel
    with pytest.raises(AttributeError):
        game.nothing  # noqa: B018


def test_check_loads_only_what_it_needs(tmp_path):
    code = (
        "import sys\n"
        "from replayer.cli import main\n"
        "sys.argv = ['replayer', 'check', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('replayer', 'wcwidth', 'tomllib'))))\n"
    )
    log = ROOT / "samples" / "ygo" / "honest-in-calc.duel"
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT), REPLAYER_CARDS_DB="")
    for _ in range(2):  # the second run is warm
        out = subprocess.run([sys.executable, "-c", code, str(log)], env=env, capture_output=True, text=True,
                             timeout=120)
    loaded = out.stdout
    for module in ("replayer.cli.library", "replayer.cli.doctor", "replayer.cli.report", "replayer.store",
                   "replayer.games.dm.model", "replayer.games.dm.states", "wcwidth", "tomllib"):
        assert f"'{module}'" not in loaded, module
    assert "'replayer.games.ygo.model'" in loaded


def test_check_text_still_gives_findings_of_each_game():
    assert check_text('[Game "dm"]\nturn 1 A\nA: attack "Bolshack Dragon" -> player\n').findings is not None


def test_did_you_mean_is_kept_per_card_database_and_made_afresh_when_it_changes(tmp_path, monkeypatch):
    from replayer import cache as cache_module
    from replayer.cards.db import CardDB
    from replayer.cards.importer import import_cards
    from replayer.cards.layers import LayeredCatalog

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cards = tmp_path / "cards.json"

    def write(names):
        cards.write_text(json.dumps({"cards": [
            {"name": n, "type": "Creature", "civilizations": ["Fire"], "cost": 2, "power": "1000", "text": "",
             "printings": [{"set": "X", "id": str(i), "rarity": "C", "illustrator": "-"}]}
            for i, n in enumerate(names)]}), encoding="utf-8")

    write(["Quarnel Zzyxal", "Vorpal Quintex"])
    db_path = tmp_path / "cards.db"
    import_cards([cards], CardDB(db_path), games=GAMES, jobs=1)
    dm = get("dm")

    def suggest(name):
        return LayeredCatalog(dm.catalog, CardDB(db_path)).suggest(name)

    assert suggest("Quarnel Zzixal") == ["Quarnel Zzyxal"]
    cache_module.save_all()
    files = list((tmp_path / "cache" / "replayer").glob("suggest-dm-*.json"))
    assert len(files) == 1
    # kept: a second catalog answers from the file (made to lie here, to see that it is read)
    data = json.loads(files[0].read_text(encoding="utf-8"))
    data["kept"]["3\x1fQuarnel Zzixal"] = ["Kept Answer"]
    data["kept"]["3\x1fVorpal Quintx"] = [5]  # not a list of names: not believed
    files[0].write_text(json.dumps(data), encoding="utf-8")
    assert suggest("Quarnel Zzixal") == ["Kept Answer"]
    assert suggest("Vorpal Quintx") == ["Vorpal Quintex"]
    cache_module.save_all()
    # the card database imported again: its suggestions are made afresh, in a file that replaces the old
    write(["Quarnel Zzyxal", "Vorpal Quintex", "Quarnel Zzixall"])
    import_cards([cards], CardDB(db_path), games=GAMES, jobs=1)
    os.utime(db_path, ns=(1, 1))  # (a new time of change, even on a coarse clock)
    assert sorted(suggest("Quarnel Zzixal")[:2]) == ["Quarnel Zzixall", "Quarnel Zzyxal"]
    cache_module.save_all()
    assert len(list((tmp_path / "cache" / "replayer").glob("suggest-dm-*.json"))) == 1
