"""Issue 24: replayer speaks Japanese and German (replayer/i18n.py, the catalogs in replayer/locale and
replayer/games/<id>/locale), and English exactly as before.

- every message has a translation in ja and de, none is stale, none has other placeholders or other
  `…` spans than its English, and each ``.mo`` is the compile of its ``.po``;
- ``replayer check --lang ja|de`` of every sample gives every message and hint in that language;
- the English output of every sample is byte for byte what it was before the messages became
  messages (tests/i18n_data: hashes of `replayer check` text and JSON; ``--update-golden``
  rewrites them when a change of the rules changes the output on purpose);
- the language comes from ``--lang`` on every command, else REPLAYER_LANG, else the locale.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from replayer import i18n
from replayer.check import check_file, check_text
from replayer.cli import cli
from replayer.locale import catalogs

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").rglob("*.duel"))
GOLDEN = ROOT / "tests" / "i18n_data" / "english-before-issue-24.json"  # (tests/golden: one file a sample)
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@pytest.fixture(autouse=True)
def _english_by_default(monkeypatch):
    monkeypatch.setenv(i18n.ENV, "en")
    yield
    i18n.use(None)


# ---- the catalogs ---------------------------------------------------------------------------------
def test_every_message_is_translated_in_japanese_and_german():
    assert catalogs.problems() == []


def test_the_check_finds_a_missing_a_stale_and_a_wrong_translation(monkeypatch):
    from babel.messages.catalog import Catalog

    real = catalogs.read

    def tampered(domain, lang):
        c = real(domain, lang)
        if domain != "replayer-ygo" or lang != "de":
            return c
        out = Catalog(locale=lang, domain=domain)
        for m in c:
            if not m.id:
                continue
            if m.id == "remove the change":
                continue  # missing
            if m.id == "write `CL{link}`":
                out.add(m.id, "schreibe `CL{glied}`", context=m.context)  # other placeholder
                continue
            if m.id == "choose another target":
                out.add(m.id, "", context=m.context)  # untranslated
                continue
            out.add(m.id, m.string, context=m.context)
        out.add("a message no code has any more", "eine Meldung, die kein Code mehr hat")  # stale
        return out

    monkeypatch.setattr(catalogs, "read", tampered)
    found = "\n".join(catalogs.problems())
    assert "replayer-ygo/de: missing 'remove the change'" in found
    assert "replayer-ygo/de: stale 'a message no code has any more'" in found
    assert "replayer-ygo/de: 'write `CL{link}`' has ['link'], its translation ['glied']" in found
    assert "replayer-ygo/de: untranslated 'choose another target'" in found


def test_each_mo_is_the_compile_of_its_po():
    from babel.messages.mofile import write_mo

    for domain in catalogs.DOMAINS:
        for lang in catalogs.LANGUAGES:
            buf = io.BytesIO()
            write_mo(buf, catalogs.read(domain, lang), use_fuzzy=False)
            mo = catalogs.po_path(domain, lang).with_suffix(".mo")
            assert mo.read_bytes() == buf.getvalue(), f"{mo} is stale: python -m replayer.locale.catalogs compile"


def test_the_installed_package_carries_the_compiled_catalogs():
    """pyproject's wheel target is the whole package: every .mo is in it (and so in an editable
    install, which reads the source folder)."""
    import subprocess
    import sys
    import tempfile

    mos = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "replayer").rglob("*.mo"))
    assert len(mos) == len(catalogs.DOMAINS) * len(catalogs.LANGUAGES)
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                               "-w", out, str(ROOT)], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        (whl,) = Path(out).glob("replayer-*.whl")
        names = set(zipfile.ZipFile(whl).namelist())
    assert set(mos) <= names


# ---- every finding in the chosen language -----------------------------------------------------------
@pytest.mark.parametrize("lang", ["ja", "de"])
def test_every_finding_of_every_sample_is_in_the_chosen_language(lang):
    left = []
    count = 0
    for path in SAMPLES:
        for f in check_file(path).to_dict(lang)["findings"]:
            count += 1
            for key in ("message", "hint"):
                text, en = f[key], f[key + "_en"]
                if not en:
                    continue
                english = not JAPANESE.search(text) if lang == "ja" else text == en
                if english:
                    left.append((path.name, f["rule"], key, text))
    assert count > 200
    assert left == []


def test_the_rules_words_are_the_rulebooks():
    text = check_text('[Game "ygo"]\nturn 1 A\nphase battle\nA: attack "Blue-Eyes White Dragon" -> '
                      '"Kuriboh"\nstep damage\ntiming calc\nB: activate "Honest" from hand\n')
    (f,) = [f for f in text.findings if f.rule == "ygo.ds.atk-mod-after-calc"]
    ja, de = f.in_language("ja"), f.in_language("de")
    assert "《オネスト》" in ja.message
    assert "ダメージステップ開始時またはダメージ計算前にしか発動できず、ダメージ計算時には発動できません" in ja.message
    assert "„Beginn des Damage Steps“ oder „vor der Schadensberechnung“" in de.message
    assert "nicht zum Zeitpunkt „während der Schadensberechnung“" in de.message
    # the lines to write stay the notation's (the log is English)
    assert "`timing ds-start`" in ja.hint and "`timing before-calc`" in de.hint
    # the citation in its source's language, its label translated beside it
    assert f.cite == "Yugipedia: Damage Step § Cards and effects that can be activated"
    assert ja.cite == ("Yugipedia: Damage Step § Cards and effects that can be activated"
                       "（Yugipedia「ダメージステップ」§ 発動できるカードと効果）")


def test_a_japanese_log_keeps_its_keywords_in_a_german_hint():
    log = ('[Game "遊戯王"]\nターン 1 A\nバトルフェイズ\nA: 攻撃 《青眼の白龍》 -> 《クリボー》\nダメージステップ\n'
           'ダメージ計算時\nB: 発動 《オネスト》 手札から\n')
    result = check_text(log)
    assert result.language == "ja"
    (f,) = [f for f in result.findings_in("de") if f.rule == "ygo.ds.atk-mod-after-calc"]
    assert f.hint.startswith("aktiviere sie unter `ダメージステップ開始時` oder `ダメージ計算前`")
    assert "Damage Step" in f.message  # German words, whatever the log's language


def test_a_japanese_source_is_cited_in_japanese():
    assert i18n.cite_in("OCG FAQ 11/01/09 (Damage Step)", "ja") == "遊戯王OCG wiki「ダメージステップ」 § FAQ 11/01/09"
    assert i18n.cite_in("OCG FAQ 11/01/09 (Damage Step)", "de") == \
        "遊戯王OCG wiki「ダメージステップ」 § FAQ 11/01/09 (OCG-FAQ 11/01/09 (Damage Step))"
    assert i18n.cite_in("TCG rulebook: Damage Step table", "de") == "TCG-Regelheft: Regeln für den Damage Step (Tabelle)"
    assert i18n.cite_in("replayer log notation v1 §2", "ja") == "replayer log notation v1 §2"  # our own: as it is


# ---- English as before -----------------------------------------------------------------------------
def _outputs(paths) -> dict[str, str]:
    runner = CliRunner()
    out = {}
    for p in paths:
        rel = p.relative_to(ROOT).as_posix()
        for fmt in ("text", "json"):
            r = runner.invoke(cli, ["check", "--format", fmt, "--color", "never", rel])
            blob = json.dumps([r.exit_code, r.stdout, r.stderr], ensure_ascii=False).encode()
            out[f"{rel}|{fmt}"] = hashlib.sha256(blob).hexdigest()[:16]
    return out


def test_english_output_of_every_sample_is_as_before(update_golden, monkeypatch):
    monkeypatch.chdir(ROOT)
    now = _outputs(SAMPLES)
    if update_golden:
        GOLDEN.write_text(json.dumps(now, indent=0, sort_keys=True))
        return
    before = {k: v for k, v in json.loads(GOLDEN.read_text()).items() if "|" in k and not k.startswith("samples|")}
    assert len(before) > 500
    changed = sorted(k for k, v in before.items() if k in now and now[k] != v)
    assert changed == []


def test_english_json_has_no_message_en_and_other_languages_keep_it(monkeypatch):
    monkeypatch.chdir(ROOT)
    sample = "samples/ygo/rulings/flip-at-ds-start-illegal.duel"
    runner = CliRunner()
    en = json.loads(runner.invoke(cli, ["check", "--format", "json", sample]).stdout)
    ja = json.loads(runner.invoke(cli, ["check", "--format", "json", "--lang", "ja", sample]).stdout)
    (e,), (j,) = en["findings"], ja["findings"]
    assert "message_en" not in e and "hint_en" not in e
    assert j["message_en"] == e["message"] and j["hint_en"] == e["hint"]
    assert {k: j[k] for k in ("rule", "kind", "severity", "line", "column")} == \
        {k: e[k] for k in ("rule", "kind", "severity", "line", "column")}
    assert JAPANESE.search(j["message"]) and "人喰い虫" in j["message"]  # the catalog's Japanese name


# ---- choosing the language -------------------------------------------------------------------------
@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "de"),
    ({"LC_MESSAGES": "ja_JP", "LANG": "de_DE"}, "ja"),
    ({"LANGUAGE": "fr:de", "LANG": "ja_JP.UTF-8"}, "de"),
    ({"LANGUAGE": "fr", "LANG": "ja_JP.UTF-8"}, "ja"),
    ({"REPLAYER_LANG": "en", "LANG": "ja_JP.UTF-8"}, "en"),
    ({"REPLAYER_LANG": "ja", "LC_ALL": "de_DE.UTF-8"}, "ja"),
])
def test_the_language_comes_from_the_environment(environ, lang):
    assert i18n.from_environment(environ) == lang


def _commands(group: click.Group, ctx: click.Context, prefix=()):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        yield prefix + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, click.Context(cmd, parent=ctx), prefix + (name,))


def test_every_command_takes_lang():
    ctx = click.Context(cli)
    found = list(_commands(cli, ctx))
    names = {" ".join(n) for n, _ in found}
    assert {"check", "rules", "report", "view", "import", "search", "stats", "doctor", "cards", "cards import",
            "cards ygo", "cards dm"} <= names
    for name, cmd in found:
        assert any(p.name == "lang" for p in cmd.params), " ".join(name)


def test_lang_chooses_the_output_whatever_the_locale(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv(i18n.ENV, "")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    sample = "samples/ygo/rulings/flip-at-ds-start-illegal.duel"
    runner = CliRunner()
    r = runner.invoke(cli, ["check", sample])
    assert "Fehler[ygo.flip.at-ds-start]" in r.stdout and "1 Datei geprüft" in r.stderr
    r = runner.invoke(cli, ["check", "--lang", "ja", sample])
    assert "エラー[ygo.flip.at-ds-start]" in r.stdout and r.stderr == "1ファイルをチェックしました：エラー1件、警告0件\n"
    r = runner.invoke(cli, ["--lang", "en", "check", sample])
    assert "error[ygo.flip.at-ds-start]" in r.stdout and r.stderr == "1 file checked: 1 error, 0 warnings\n"
    r = runner.invoke(cli, ["cards", "--lang", "ja", "--help"])
    assert r.exit_code == 0


def test_a_language_without_catalogs_falls_back_to_english(tmp_path):
    d = i18n.Domain("nothing-here", tmp_path)
    assert d.translate("ja", "remove the change") == "remove the change"


# ---- the glossary ----------------------------------------------------------------------------------
def test_the_glossary_lists_every_rules_term_as_the_catalogs_translate_them():
    from replayer.games.dm import words as dm_words
    from replayer.games.ygo import words as ygo_words

    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for rows in (ygo_words.GLOSSARY, dm_words.GLOSSARY):
        for word, en, ja, de, source in rows:
            row = f"| {('`' + word + '`') if word else ''} | {en} | {ja} | {de} | {source} |"
            assert row in text, row
    for t, term in ygo_words.TIMING_TERMS.items():
        ja, de = term.render("ja"), term.render("de")
        assert any(r[0] == t.word and r[2] == ja and r[3] == de for r in ygo_words.GLOSSARY), t


def test_english_renderings_kept_are_those_of_each_message(monkeypatch):
    """Msg.render keeps English texts by message: equal messages whose parameters render
    differently (True and 1, 1.0 and 1 are equal) are never given each other's text, and a
    message renders the same kept or not, the cache full or emptied."""
    M = i18n.M
    monkeypatch.setattr(i18n, "ENGLISH_KEPT", 3)
    i18n._ENGLISH.clear()
    one = M("{n} cards", n=1)
    assert one.render("en") == "1 cards"
    assert M("{n} cards", n=True).render("en") == "True cards"
    assert M("{n} cards", n=1.0).render("en") == "1.0 cards"
    assert M("{n} cards", n=1).render("en") == "1 cards"
    nested = M("{card} at {timing}", card=i18n.Name("Honest"), timing=i18n.Join((M.term("t", "calc"), 2), i18n.OR))
    for _ in range(3):
        assert nested.render("en") == "Honest at calc or 2"
    for n in range(10):  # past ENGLISH_KEPT: emptied, and filled again
        assert M("{n} cards", n=n).render("en") == f"{n} cards"
    assert len(i18n._ENGLISH) <= 3
    assert M("{n} cards", n=True).render("en") == "True cards"
    assert M("{x}", x=[1, 2]).render("en") == "(1, 2)"  # (a list is frozen to a tuple, as before)
    assert one.render("ja") == one._render("ja")


def test_a_messages_parameters_keep_their_order_and_only_lists_are_frozen():
    from replayer.i18n import M, Name

    plain = M("{a} {b}", b=2, a=Name("x"))
    assert plain.params == (("b", 2), ("a", Name("x")))
    listed = M("{a} {b} {c}", a="s", b=[1, [2, 3]], c=(4, 5))
    assert listed.params == (("a", "s"), ("b", (1, (2, 3))), ("c", (4, 5)))
    assert type(listed.params[1][1]) is tuple and type(listed.params[1][1][1]) is tuple
    assert listed == M("{a} {b} {c}", a="s", b=(1, (2, 3)), c=(4, 5)) and hash(listed)
