"""The small items of issue 14 (point 12), each tested the way it was found."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from replayer import check_text, importing, store
from replayer.cli import cli
from replayer.diagnostics import render_text
from replayer.check import read_bytes

ROOT = Path(__file__).resolve().parent.parent
HONEST = """[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
turn 3 A
phase battle
A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing calc
A: activate "Honest" from hand
resolve
"""


def test_check_shows_a_window_of_a_very_long_line_around_the_caret(tmp_path):
    text = '[Game "ygo"]\nturn 1 A\nA: draw ' + "x" * 20_000 + " 2\n"
    result = check_text(text)
    out = render_text("long.duel", result.findings, result.match.lines)
    assert max(len(line) for line in out.splitlines()) < 200
    source, caret = out.splitlines()[1:3]
    assert source.lstrip().startswith("A: draw x") and source.endswith("…")
    assert caret.index("^") == source.index("x")  # the caret still points at the bad word
    # far into the line: the window is cut on both sides and the caret is inside it
    text = '[Game "ygo"]\nturn 1 A\nA: activate "' + "y" * 5_000 + '" zz\n'
    result = check_text(text)
    source, caret = render_text("f", result.findings, result.match.lines).splitlines()[1:3]
    assert source.lstrip().startswith("…") and len(source) < 200
    assert source[caret.index("^"):].startswith("zz")


def test_a_shift_jis_file_is_named_as_such():
    data = '[Game "ygo"]\nturn 1 A\nA: activate 《オネスト》\n'.encode("cp932")
    (finding,) = read_bytes(data, "sjis.duel").findings
    assert finding.rule == "syntax.encoding"
    assert "looks like Shift-JIS" in finding.message and "iconv -f CP932 -t UTF-8" in finding.hint
    # and a file that is just broken is not called Japanese
    (finding,) = read_bytes(b'[Game "ygo"]\nturn 1 A\nA: draw \xff\n', "broken.duel").findings
    assert "Shift-JIS" not in finding.message


def test_the_rules_page_points_at_nothing_a_user_does_not_have():
    text = (ROOT / "docs" / "rules-ygo.md").read_text(encoding="utf-8")
    assert "issue 3" not in text and "shared/seeds" not in text and "Must have" not in text


def test_search_text_finds_a_reviewers_verdict_note(tmp_path):
    db = store.open_library(tmp_path / "lib.db")
    log = tmp_path / "honest.duel"
    log.write_text(HONEST, encoding="utf-8")
    assert [o.status for o in importing.import_paths(db, [log])] == ["new"]
    store.save_review(db, log, "ygo.ds.atk-mod-after-calc", 9, "confirmed", "clearly visible on the replay",
                      "Judge Lena")
    found = store.search(db, text="visible")
    assert [m["path"] for m in found.matches] == [str(log.resolve())]
    assert any("clearly visible on the replay" in n["text"] and n["line"] == 9 for n in found.notes)
    assert store.search(db, text="invisible").matches == []
    db.close()
    result = CliRunner().invoke(cli, ["search", "--db", str(tmp_path / "lib.db"), "--text", "replay"])
    assert result.exit_code == 0 and "clearly visible on the replay" in result.output
