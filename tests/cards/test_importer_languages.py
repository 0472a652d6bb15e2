"""Card names in German (and French, Italian, Portuguese) from the localized card data users can get
(issue 23, point 11): YGOProDeck's card info in that language (`cards import --lang de FILE`, or told
by the file's name) and EDOPro's language packs. The fixtures are made here: no card data is copied."""

from __future__ import annotations

import json

from click.testing import CliRunner

from replayer.cli import cli

ENTRY = {"id": 4_711, "type": "Effect Monster", "race": "Warrior", "atk": 1200, "def": 800, "level": 4}


def _cardinfo(path, name: str, desc: str):
    path.write_text(json.dumps({"data": [{**ENTRY, "name": name, "desc": desc}]}), encoding="utf-8")
    return path


def _import(db, *args):
    result = CliRunner().invoke(cli, ["cards", "import", "--cards-db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result


def test_a_german_cardinfo_with_lang_de_gives_the_german_name(tmp_path):
    db = tmp_path / "cards.db"
    _import(db, str(_cardinfo(tmp_path / "cardinfo.json", "Test Warrior Zeta", "A test card.")))
    _import(db, "--lang", "de", str(_cardinfo(tmp_path / "karten.json", "Testkrieger Zeta", "Eine Testkarte.")))
    shown = CliRunner().invoke(cli, ["cards", "ygo", "Testkrieger Zeta", "--cards-db", str(db)])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0].startswith("Test Warrior Zeta")
    assert any(x.split()[:3] == ["de:", "Testkrieger", "Zeta"] and "[karten.json #1]" in x for x in lines), lines
    assert any(x.split()[:1] == ["en:"] for x in lines)


def test_the_language_told_by_the_file_name_and_french(tmp_path):
    db = tmp_path / "cards.db"
    _import(db, str(_cardinfo(tmp_path / "cardinfo.json", "Test Warrior Zeta", "A test card.")))
    _import(db, str(_cardinfo(tmp_path / "cardinfo_de.json", "Testkrieger Zeta", "Eine Testkarte.")))
    _import(db, "--lang", "fr", str(_cardinfo(tmp_path / "infos.json", "Guerrier Test Zêta", "Une carte.")))
    for name in ("Testkrieger Zeta", "Guerrier Test Zêta"):
        shown = CliRunner().invoke(cli, ["cards", "ygo", name, "--cards-db", str(db)])
        assert shown.exit_code == 0 and shown.output.startswith("Test Warrior Zeta"), (name, shown.output)
    log = tmp_path / "m.duel"
    log.write_text('[Game "ygo"]\nZug 1 A\nA: setzt „Testkrieger Zeta“\n', encoding="utf-8")
    checked = CliRunner().invoke(cli, ["check", str(log), "--cards-db", str(db), "--format", "json"])
    assert [f["rule"] for f in json.loads(checked.output)["findings"]] == []  # the German name is known
