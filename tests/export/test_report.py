"""``replayer report``: the review report from the command line, with the verdicts kept for the log."""

from __future__ import annotations

import html
from pathlib import Path

from click.testing import CliRunner

from replayer.cli import cli
from replayer.reviews import DISMISSED, Entry, SidecarStore, Verdict

from gui.pdftext import page_count, pdf_text

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "ygo" / "honest-in-calc.duel"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _copy(tmp_path: Path) -> Path:
    log = tmp_path / "honest-in-calc.duel"
    log.write_bytes(SAMPLE.read_bytes())
    return log


def test_report_writes_html_with_the_findings_and_the_kept_verdict(tmp_path):
    log = _copy(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    SidecarStore().save(str(log), [Entry("ygo.ds.atk-mod-after-calc", 15, lines[14].strip(), "",
                                         Verdict(DISMISSED, "the judge <saw> it"))])
    out = tmp_path / "report.html"
    result = _run("report", str(log), "-o", str(out), "--db", str(tmp_path / "no-library.db"))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "ygo.ds.atk-mod-after-calc" in text
    assert "15:13" in text
    assert "dismissed" in text and html.escape("the judge <saw> it") in text
    assert "<saw>" not in text


def test_report_writes_a_pdf(tmp_path):
    log = _copy(tmp_path)
    out = tmp_path / "report.pdf"
    result = _run("report", str(log), "-o", str(out), "--db", str(tmp_path / "no-library.db"))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")
    assert page_count(out) >= 1
    assert "ygo.ds.atk-mod-after-calc" in pdf_text(out)


def test_report_refuses_an_unknown_format_and_an_unreadable_log(tmp_path):
    log = _copy(tmp_path)
    bad = _run("report", str(log), "-o", str(tmp_path / "report.txt"))
    assert bad.exit_code == 2 and ".html or .pdf" in bad.output
    missing = _run("report", str(tmp_path / "nope.duel"), "-o", str(tmp_path / "r.html"))
    assert missing.exit_code == 2 and "cannot read" in missing.output
    assert not (tmp_path / "r.html").exists()
