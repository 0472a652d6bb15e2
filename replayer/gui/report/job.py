"""File ▸ Export ▸ Report as PDF from the window: a long report is laid out in a process of its
own, under a progress dialog with Cancel, while the window goes on repainting.

A long report takes seconds to lay out (69 pages: 8–11 s on the machine of
``docs/performance.md``), nearly all of it in Qt's text engine. Qt allows that off the GUI
thread (its text classes are reentrant, a QPainter may paint a PDF in any thread: "Thread-Support
in Qt Modules"), but not usefully from Python: PySide6 holds Python's lock through every call
into the layout (``setPageSize``, ``pageCount``, ``frameBoundingRect``, ``drawContents``: each a
whole relayout, 0.1–0.5 s, measured with a worker thread beside a ticking GUI thread), so a
worker thread froze the window for most of the export. So the export runs in a child process
(``python -m replayer.gui.report.job``): the window hands it the report's HTML, title, footer and
its screen's resolution (so the child lays out exactly as the window would), the child writes
its progress on stdout, and Cancel kills it; it writes a hidden file beside the target that
replaces the target only when complete, so a cancelled or failed export leaves no half file and
an older file of that name as it was.

A short report (or where no child process can be started) is written in the window's process,
with the same dialog: between the steps of the layout the dialog is updated and Cancel heard.
:func:`export_pdf` returns when the file is written, as the other exports do.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from . import pdf
from ..shared.savefile import real_path

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

log = logging.getLogger("replayer.gui")

STEPS = 1000  # of the progress bar
SHOW_AFTER_MS = 300  # a short export shows no dialog
#: HTML shorter than this (about 20 findings, a few pages: well under a second) is written in the
#: window's process (a child process costs about a second to start)
IN_PROCESS_BELOW = 40_000
#: the dialog's words in English (the report hands them in its language: replayer.export.report.paper_words)
DIALOG_WORDS = {"dialog": "Laying out the report…", "dialog_of": "Laying out the report of {name}…",
                "cancel": "Cancel", "title": "Export report as PDF", "cancelled": "Export cancelled: no file written"}


class Job:
    """One export: the dialog, how it went (``result``, ``error``, ``cancelled``) and what it
    reported (``reports``, for tests)."""

    def __init__(self, parent: QWidget, name: str, words: dict[str, str] | None = None):
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QProgressDialog

        w = {**DIALOG_WORDS, **(words or {})}
        label = w["dialog_of"].replace("{name}", name) if name else w["dialog"]
        self.dialog = QProgressDialog(label, w["cancel"], 0, STEPS, parent)
        self.dialog.setWindowTitle(w["title"])
        self.dialog.setWindowModality(Qt.WindowModal)
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.setValue(0)
        self.result: Path | None = None
        self.error: BaseException | None = None
        self.cancelled = False
        self.in_process = False
        self.reports = 0
        self.process = None

    def show(self, fraction: float, text: str) -> None:
        self.reports += 1
        if self.dialog.wasCanceled() and self.process is not None:
            self.process.kill()  # (Cancel kills it at once; this, should a cancel come some other way)
        elif not self.dialog.wasCanceled():
            self.dialog.setLabelText(text if text.endswith("…") else f"{text}…")
            self.dialog.setValue(max(min(int(fraction * STEPS), STEPS - 1), 0))


#: the export under way, or the last one (its dialog, how it went: for tests and benchmarks)
last: Job | None = None


def export_pdf(parent: QWidget, html: str, path: str | os.PathLike, *, title: str = "", footer_text: str = "",
               in_process: bool | None = None, words: dict[str, str] | None = None) -> Path | None:
    """Write the report's HTML as a PDF at ``path`` under a progress dialog over ``parent`` (the
    export is :data:`last` meanwhile and after); the path, or None
    when cancelled. An error of the export is raised here. ``in_process``: force where (tests);
    by default a long report goes to a child process. ``words``: the writer's and the dialog's
    words in the report's language (:func:`replayer.export.report.paper_words`; default English),
    handed to the child process too."""
    global last
    p = Path(path)
    job = last = Job(parent, p.name, words)
    if in_process is None:
        in_process = len(html) < IN_PROCESS_BELOW or getattr(sys, "frozen", False)
    try:
        if not in_process and _in_child(job, html, p, title, footer_text, words):
            pass
        else:
            _in_this_process(job, html, p, title, footer_text, words)
    finally:
        job.dialog.close()
        job.dialog.deleteLater()
    if job.cancelled:
        return None
    if job.error is not None:
        raise job.error
    return job.result


def _in_this_process(job: Job, html: str, path: Path, title: str, footer_text: str,
                     words: dict[str, str] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    job.in_process = True

    def progress(fraction: float, text: str) -> None:
        job.show(fraction, text)
        QApplication.processEvents()  # repaint, and hear Cancel (the dialog keeps the window's input)
        if job.dialog.wasCanceled():
            raise pdf.Cancelled()

    try:
        job.result = pdf.html_to_pdf(html, path, title=title, footer_text=footer_text, progress=progress, words=words)
    except pdf.Cancelled:
        job.cancelled = True
    except Exception as e:  # raised by export_pdf, once the dialog is closed
        job.error = e


def _in_child(job: Job, html: str, path: Path, title: str, footer_text: str,
              words: dict[str, str] | None = None) -> bool:
    """Run the export in a child process; False when none could be started (then nothing was
    written and the caller writes it here)."""
    from PySide6.QtCore import QEventLoop, QProcess

    real = real_path(path)  # a link to a report: its target is replaced, the link stays
    hidden = real.with_name(f".{real.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")
    proc = QProcess()
    job.process = proc
    proc.setProcessChannelMode(QProcess.SeparateChannels)
    loop = QEventLoop()
    state = {"buffer": b"", "done": None, "error": ""}

    def read() -> None:
        state["buffer"] += bytes(proc.readAllStandardOutput())
        *lines, state["buffer"] = state["buffer"].split(b"\n")
        for raw in lines:
            kind, _, rest = raw.decode("utf-8", "replace").partition(" ")
            if kind == "P":
                fraction, _, text = rest.partition(" ")
                job.show(float(fraction), text)
            elif kind == "OK":
                state["done"] = rest
            elif kind == "ERR":
                state["error"] = rest

    proc.readyReadStandardOutput.connect(read)
    proc.finished.connect(lambda *_: loop.quit())
    job.dialog.canceled.connect(proc.kill)
    proc.start(sys.executable, ["-m", "replayer.gui.report.job"])
    if not proc.waitForStarted(10_000):
        log.debug("no export process: %s", proc.errorString())
        return False
    request = {"html": html, "path": str(hidden), "title": title, "footer": footer_text,
               "units": pdf._units_per_point(), "words": words}
    proc.write(json.dumps(request).encode("utf-8"))
    proc.closeWriteChannel()
    if proc.state() != QProcess.NotRunning:
        loop.exec()  # the window repaints and the dialog answers while the child writes
    proc.waitForFinished(-1)
    read()
    try:
        if job.dialog.wasCanceled() and state["done"] is None:
            job.cancelled = True
        elif state["done"] is not None and proc.exitCode() == 0 and _whole(hidden, state["done"]):
            os.replace(hidden, real)
            job.result = path
        else:
            detail = state["error"] or bytes(proc.readAllStandardError()).decode("utf-8", "replace").strip()
            job.error = OSError(f"could not write {path}: {detail.splitlines()[-1] if detail else 'the export failed'}")
    finally:
        for leftover in [hidden, *hidden.parent.glob(f".{hidden.name}.*.tmp")]:
            try:
                leftover.unlink()
            except OSError:
                pass
    return True


def _whole(hidden: Path, done: str) -> bool:
    """Whether the child's file is there with the size it said it wrote (``OK size path``)."""
    size, _, _ = done.partition(" ")
    try:
        return hidden.stat().st_size == int(size) > 0
    except (OSError, ValueError):
        return False


def export_report_pdf(parent: QWidget, result, reviews, path: str, *, lang: str | None = None) -> Path | None:
    """The report of ``result`` (a :class:`~replayer.check.CheckResult`) with the verdicts of
    ``reviews`` as PDF at ``path`` (File ▸ Export ▸ Report as PDF), under a dialog over ``parent``;
    None when it was cancelled (:func:`cancelled_text` says so). ``lang``: the report's language
    (the window's; None: the process's, :func:`replayer.i18n.current`): its text, its page numbers,
    the dialog and the child process's progress."""
    from ...export.report import paper_words, pdf_parts

    html, title, footer = pdf_parts(result, reviews, lang=lang)
    return export_pdf(parent, html, path, title=title, footer_text=footer, words=paper_words(lang))


def cancelled_text(lang: str | None = None) -> str:
    """What the status bar says after a cancelled export, in the report's language."""
    from ...export.report import paper_words

    return paper_words(lang)["cancelled"]


def _child() -> int:
    """The export process: a request (JSON) on stdin, ``P fraction text`` lines on stdout while it
    works, ``OK size path`` at the end (``ERR message`` and exit status 1 on an error)."""
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    out = sys.stdout
    last = [0.0, ""]

    def progress(fraction: float, text: str) -> None:
        now = time.monotonic()
        if text != last[1] or now - last[0] > 0.05:
            last[:] = [now, text]
            out.write(f"P {fraction:.4f} {text}\n")
            out.flush()

    try:
        pdf._application()
        pdf.use_units(request.get("units"))
        written = pdf.html_to_pdf(request["html"], request["path"], title=request.get("title", ""),
                                  footer_text=request.get("footer", ""), progress=progress,
                                  words=request.get("words"))
    except Exception as e:  # said to the window, which shows it
        out.write("ERR " + f"{type(e).__name__}: {e}".replace("\r", " ").replace("\n", " ") + "\n")
        out.flush()
        return 1
    out.write(f"OK {Path(written).stat().st_size} {written}\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child())
