"""Issue 24: File ▸ Export ▸ Report as PDF in the report's language (the window hands its language
to ``export_report_pdf(..., lang=)``): the pages, their numbers, the dialog and the child process's
progress in German, whatever the process's own language is."""

from __future__ import annotations

import pytest

from replayer import i18n
from replayer.gui.report import job as pdf_job

from export.test_report_pdf import _log

from ..conftest import open_and_wait
from ..pdftext import pdf_text
from .test_job import _watch


@pytest.mark.parametrize("findings", [40, 2])  # a long report: the child process; a short one: in the window's
def test_the_pdf_export_is_in_the_language_the_window_asks_for(qtbot, window, tmp_path, monkeypatch, findings):
    monkeypatch.setenv(i18n.ENV, "en")
    open_and_wait(qtbot, window, _log(tmp_path, findings))
    seen: list = []
    watcher = _watch(window, seen)
    out = pdf_job.export_report_pdf(window, window.doc.result, window.reviews, str(tmp_path / "bericht.pdf"),
                                     lang="de")
    watcher.stop()
    job = pdf_job.last
    assert job.in_process == (findings == 2)
    text = pdf_text(str(out))
    assert "Prüfbericht: many.duel" in text and "Seite 1 von" in text and "Befunde" in text
    assert "page 1 of" not in text and "Review report" not in text
    assert job.dialog.windowTitle() == "Bericht als PDF exportieren"
    assert all("Laying out" not in label and "Writing page" not in label for _, label in seen), seen
    if findings == 40:
        assert any("Seiten werden gesetzt" in label or "wird geschrieben" in label for _, label in seen), seen
