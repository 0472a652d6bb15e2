"""File ▸ Export ▸ Report as PDF in the window: a long report written by a child process under a
progress dialog with Cancel, the window's event loop running all along; a short one in the
window's process with the same dialog; a cancelled export writes nothing and keeps an older
file; an error of the export is said as any action's is; both ways give the same PDF."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QPushButton

from replayer.export.report import pdf_parts
from replayer.gui.report import job as pdf_job

from export.test_report_pdf import _log

from ..conftest import open_and_wait
from ..pdftext import page_count, pdf_text


def _ticking(window, every_ms: int = 20) -> list[float]:
    """A timer on the GUI thread: when the event loop ran it."""
    ticks: list[float] = []
    timer = QTimer(window)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(every_ms)
    window._test_timer = timer
    return ticks


def _watch(window, seen: list) -> QTimer:
    """What the progress dialog shows, read on the GUI thread while the export runs."""
    def watch():
        job = pdf_job.last
        if job is not None:
            seen.append((job.dialog.value(), job.dialog.labelText()))

    timer = QTimer(window)
    timer.timeout.connect(watch)
    timer.start(15)
    return timer


def _cancel_after(window, reports: int) -> QTimer:
    """Press the dialog's Cancel once the export has reported ``reports`` times."""
    def cancel():
        job = pdf_job.last
        if job is not None and job.reports >= reports:
            job.dialog.findChild(QPushButton).click()  # the dialog's Cancel button
            clicker.stop()

    clicker = QTimer(window)
    clicker.timeout.connect(cancel)
    clicker.start(5)
    return clicker


def test_a_long_report_is_written_by_a_child_process_with_its_progress(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, _log(tmp_path, 40))
    seen: list = []
    watcher = _watch(window, seen)
    start = time.perf_counter()
    ticks = _ticking(window)
    out = window.export("pdf", str(tmp_path / "report.pdf"))
    end = time.perf_counter()
    watcher.stop()
    window._test_timer.stop()
    assert out == str(tmp_path / "report.pdf")
    job = pdf_job.last
    assert not job.in_process and job.process is not None
    assert page_count(out) >= 8 and "Review report: many.duel" in pdf_text(out)
    # the GUI thread ran its event loop all along (an export on it lets no timer fire), and
    # nothing but the report is left in the folder
    assert len(ticks) >= 10, (end - start, ticks)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.duel", "report.pdf"]
    values = [v for v, _ in seen]
    assert values == sorted(values) and max(values) > 0
    assert any("Laying out the pages" in text for _, text in seen)
    assert job.reports >= 5 and not job.dialog.isVisible()
    assert window.statusBar().currentMessage() == f"Exported {out}"


@pytest.mark.parametrize("in_process", [False, True])
def test_cancel_stops_the_export_and_writes_nothing(qtbot, window, tmp_path, in_process):
    doc = open_and_wait(qtbot, window, _log(tmp_path, 40))
    target = tmp_path / "report.pdf"
    target.write_bytes(b"kept")
    html, title, footer = pdf_parts(doc.result, window.reviews)
    clicker = _cancel_after(window, 3)
    assert pdf_job.export_pdf(window, html, target, title=title, footer_text=footer, in_process=in_process) is None
    clicker.stop()
    assert pdf_job.last.cancelled and pdf_job.last.in_process == in_process
    assert target.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.duel", "report.pdf"]
    # and the window says so, and the next export goes through
    clicker = _cancel_after(window, 3)
    assert window.export("pdf", str(target)) is None
    clicker.stop()
    assert window.statusBar().currentMessage() == "Export cancelled: no file written"
    assert window.export("pdf", str(target)) == str(target)
    assert target.read_bytes().startswith(b"%PDF-")


def test_a_short_report_is_written_here_with_the_same_dialog(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, _log(tmp_path, 3))
    out = window.export("pdf", str(tmp_path / "short.pdf"))
    assert pdf_job.last.in_process and pdf_job.last.reports >= 3
    assert page_count(out) >= 1 and "Review report: many.duel" in pdf_text(out)


@pytest.mark.parametrize("findings", [2, 40])
def test_an_export_error_is_said_not_raised(qtbot, window, tmp_path, monkeypatch, findings):
    open_and_wait(qtbot, window, _log(tmp_path, findings))
    said = []
    monkeypatch.setattr(window, "show_error", lambda title, text: said.append((title, text)))
    window._guard(lambda: window.export("pdf", str(tmp_path / "no such folder" / "report.pdf")))
    assert said and said[0][0] == "The export was not written" and "no such folder" in said[0][1], said
    assert pdf_job.last.error is not None and not pdf_job.last.cancelled


def test_the_child_process_writes_the_same_report(qtbot, window, tmp_path):
    doc = open_and_wait(qtbot, window, _log(tmp_path, 40))
    html, title, footer = pdf_parts(doc.result, window.reviews)
    here = pdf_job.export_pdf(window, html, tmp_path / "here.pdf", title=title, footer_text=footer, in_process=True)
    child = pdf_job.export_pdf(window, html, tmp_path / "child.pdf", title=title, footer_text=footer, in_process=False)
    assert page_count(here) == page_count(child) >= 8
    assert pdf_text(here) == pdf_text(child)
