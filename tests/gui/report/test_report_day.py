"""The review report (issue 23, point 12): columns as wide as their content (the "#" of a long
report's 3-digit numbers, a timecode @1:03:40 on one line), the HTML's lang from the log,
`replayer report --cards-db`, and a progress bar on a terminal while a PDF is written."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from replayer import check_text
from replayer.cli import cli
from replayer.export.report import DIGIT_PT, CELL_PT, PAPER_TEXT_PT, fit_columns, report_html

from ..conftest import ROOT


def long_log(findings: int = 120) -> str:
    lines = ['[Game "ygo"]', '[A "十代"]', '[B "万丈目"]', '[Event "全日本選手権"]', "", "@1:03:40 ターン 1 A"]
    for k in range(findings):
        lines.append(f"@1:{3 + k // 60:02d}:{k % 60:02d} A: frobnicate {k}")
    return "\n".join(lines) + "\n"


def _widths(html: str) -> list[int]:
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", html).group(1)
    return [int(w) for w in re.findall(r"width='(\d+)%'", head)]


def test_the_narrow_columns_are_as_wide_as_their_content():
    html = report_html(check_text(long_log()), None, for_pdf=True)
    number, line, finding, verdict = _widths(html)
    assert number * PAPER_TEXT_PT / 100 >= 3 * DIGIT_PT + CELL_PT  # "120"
    assert line * PAPER_TEXT_PT / 100 >= len("@1:03:40") * DIGIT_PT + CELL_PT
    assert number + line + finding + verdict == 100 and finding >= 55
    short = report_html(check_text('[Game "ygo"]\nturn 1 A\nA: frobnicate\n'), None, for_pdf=True)
    assert _widths(short)[0] < number  # one digit: narrower
    assert fit_columns((("Line", 10), ("Note", 90)), {"Line": 2}, "Note")[1][1] > 90


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (Debian: poppler-utils) is not installed")
def test_in_the_pdf_numbers_and_timecodes_are_not_wrapped(tmp_path):
    log = tmp_path / "long.duel"
    log.write_text(long_log(), encoding="utf-8")
    out = tmp_path / "r.pdf"
    result = CliRunner().invoke(cli, ["report", str(log), "-o", str(out), "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 0, result.output
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True).stdout
    for k in (99, 100, 120):
        assert re.search(rf"^\s*{k}\s", text, re.M), k  # the number whole at the start of its row
    assert "@1:03:40" in text and "@1:04:59" in text
    assert not re.search(r"@1:0\d:\d\s*$", text, re.M)  # no timecode cut before its last digit


def test_the_html_says_the_log_s_language():
    html = report_html(check_text(long_log(3)), None)
    assert html.startswith("<!DOCTYPE html>\n<html lang='ja'>")
    en = report_html(check_text('[Game "ygo"]\nturn 1 A\nA: frobnicate\n'), None)
    assert "<html lang='en'>" in en
    de = report_html(check_text('[Game "ygo"]\nZug 1 A\nA: zieht\nA: aktiviert „Ehrliche Haut“\n'), None)
    assert "<html lang='de'>" in de


def test_report_takes_the_card_database(tmp_path):
    cards = tmp_path / "dm.json"
    cards.write_text(json.dumps({"cards": [{"name": "Test Wall", "type": "Creature", "civilizations": ["Water"],
                                            "cost": 2, "power": "2000", "text": "Blocker",
                                            "printings": [{"set": "X", "id": "1"}]}]}), encoding="utf-8")
    db = tmp_path / "cards.db"
    assert CliRunner().invoke(cli, ["cards", "import", "--cards-db", str(db), str(cards)]).exit_code == 0
    log = tmp_path / "m.duel"
    log.write_text('[Game "dm"]\nturn 1 A\nA: summon "Test Wall"\n', encoding="utf-8")
    runner = CliRunner()
    without = runner.invoke(cli, ["report", str(log), "-o", str(tmp_path / "a.html"), "--cards-db", "none",
                                  "--db", str(tmp_path / "none.db")])
    assert without.exit_code == 0, without.output
    assert "card.unknown" in (tmp_path / "a.html").read_text(encoding="utf-8")
    with_db = runner.invoke(cli, ["report", str(log), "-o", str(tmp_path / "b.html"), "--cards-db", str(db),
                                  "--db", str(tmp_path / "none.db")])
    assert with_db.exit_code == 0, with_db.output
    assert "card.unknown" not in (tmp_path / "b.html").read_text(encoding="utf-8")


def test_a_pdf_report_shows_its_progress_on_a_terminal(tmp_path):
    log = tmp_path / "long.duel"
    log.write_text(long_log(40), encoding="utf-8")
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "replayer", "report", str(log), "-o", str(tmp_path / "r.pdf"),
                             "--db", str(tmp_path / "none.db")], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=120)
    os.close(master)
    assert proc.returncode == 0
    text = seen.decode("utf-8", "replace")
    assert "writing the report" in text and "100%" in text
    quiet = subprocess.run([sys.executable, "-m", "replayer", "report", str(log), "-o", str(tmp_path / "q.pdf"),
                            "--db", str(tmp_path / "none.db")], capture_output=True, text=True, env=env)
    assert "writing the report" not in quiet.stderr  # not a terminal: no bar
