"""Opening, re-checking and exporting logs in the review window (a part of :class:`~replayer.gui.app.MainWindow`).

Opening shows the text at once and checks on a worker thread (:mod:`replayer.gui.window.loader`);
the file is watched and checked again when it changes. Also: the recent files, drag and drop,
the match library's entry point and the exports.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QFileDialog

from ...reader import Match
from ...check import CheckResult, check_match
from ...safe import tooltip, visible
from ..document import SEVERITY_RANK, Document, build_document
from ...export import write_html
from .loader import load_now
from ..report.job import cancelled_text, export_report_pdf
from ..shared.savefile import remove_stale, write_atomically
from ...reviews import Reviews, ReviewStoreError
from ..shared import language
from ..shared.language import M, plural, text, tr
from ..timeline.view import DEFAULT_PPE, LABELS_PPE

MAX_RECENT = 10
#: the open dialog's file types (:func:`log_filter`: in the window's language)
LOG_FILTER = "Match logs (*.duel);;Text files (*.txt);;All files (*)"


def log_filter() -> str:
    """:data:`LOG_FILTER` in the window's language."""
    return tr("Match logs (*.duel);;Text files (*.txt);;All files (*)")


def png_bytes(image) -> bytes:
    """A QImage as PNG bytes (written by :func:`write_atomically`, every write checked)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("the image could not be made")
    buffer.close()
    return bytes(data)


def export_error_text(path: str | os.PathLike, error: OSError) -> str:
    """Why an export was not written, and that an older file of that name is as it was."""
    import errno

    why = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        why = tr("the disk is full ({why})", why=why)
    said = tr("{path}: {why}.", path=visible(str(path)), why=visible(why))
    if Path(path).exists():
        said = tr("{said} An older file of that name is as it was.", said=said)
    return said


def events_count(n: int) -> str:
    return plural(n, M("{n} event"), M("{n} events"))


class FilesMixin:
    """Opening logs (in the background or at once), watching them, recent files, exports."""

    # ---- opening ------------------------------------------------------------------------------------
    def _start_opening(self, path: str) -> None:
        """Start checking ``path`` now (``MainWindow(opening=path)``: before the window's parts are
        built); the next :meth:`open_path` of the same file, its bytes unchanged, takes this request
        instead of making one. (A file that cannot be read: nothing started, open_path says why.)"""
        try:
            data = Path(path).read_bytes()
        except OSError:
            return
        self._opening = (path, data, self.loader.request(path, data, first=True))

    def open_dialog(self) -> None:
        start = str(Path(self.path).parent) if self.path else str(self.settings.value("recent/dir", ""))
        path, _ = QFileDialog.getOpenFileName(self, tr("Open a match log"), start, log_filter())
        if path:
            self.open_path(path)

    def open_path(self, path: str | os.PathLike, *, keep_view: bool = False) -> bool:
        """Open a log: its text shows at once, the check runs on a worker thread."""
        path = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            self.show_error(tr("Could not open the log"), f"{path}: {e.strerror or e}")
            self._forget_recent(path)
            return False
        self.stop_play()
        remove_stale(path)  # what a save killed half-way left beside the log
        if not keep_view:
            self._keep_line = None
        self._set_watch(path)
        self.path = path
        self.data = data
        # the check starts first (or started when the window was made: the same file, the same bytes)
        early, self._opening = self._opening, None
        if early is None or early[:2] != (path, data) or keep_view or early[2] != self.loader.generation:
            self.loader.request(path, data, first=not keep_view)
        self.progress.setValue(0)
        self.progress.setFormat(tr("Reading…"))
        self.progress.show()
        self.statusBar().showMessage(tr("Checking {name}…", name=Path(path).name))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = ""
        if b"\x00" in data[:8192]:
            text = ""
        self.log_title.setText(tr("Log  ({name})", name=Path(path).name))
        # a long log comes in by parts after the window is painted; whole at once while editing
        editing = self.editor is not None and self.editor.editing()
        self.log_pane.view.set_text(text, progressive=not editing)
        if self.editor is not None:
            self.editor.on_opened(path, data)
        self._add_recent(path)
        self._update_title()
        return True

    def open_path_now(self, path: str | os.PathLike) -> Document:
        """Open and check on this thread (for ``--screenshot``); returns the document shown."""
        path = str(path)
        data = Path(path).read_bytes()
        remove_stale(path)
        self.path, self.data = path, data
        self._set_watch(path)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = ""
        self.log_title.setText(tr("Log  ({name})", name=Path(path).name))
        self.log_pane.view.set_text(text)
        doc = load_now(path, data)
        self.show_document(doc)
        return doc

    def hold_message(self, text: str, ms: int) -> None:
        """Show ``text`` in the status bar for ``ms`` milliseconds, not replaced meanwhile by the
        summary of a re-check (:meth:`show_counts`): what a save says (where the copies it kept
        are) stays to be read."""
        self._held = (text, time.monotonic() + ms / 1000)
        self.statusBar().showMessage(text, ms)

    def show_counts(self, doc) -> None:
        """The status bar's summary of ``doc``: its events and findings by severity (unless a
        message is held: :meth:`hold_message`)."""
        held = getattr(self, "_held", None)
        if held is not None and time.monotonic() < held[1] and self.statusBar().currentMessage() == held[0]:
            return
        self._held = None
        counts = doc.counts()
        self.statusBar().showMessage(
            " · ".join((events_count(len(doc.events)), plural(counts["error"], M("{n} error"), M("{n} errors")),
                        plural(counts["warning"], M("{n} warning"), M("{n} warnings")),
                        tr("{n} info", n=counts["info"]))), 8000)

    def show_document(self, doc: Document, reviews: Reviews | None = None) -> None:
        """Show a checked document (the worker's result, or one built elsewhere)."""
        keep_line = self._keep_line
        same = self.doc is not None and doc.path == getattr(self.doc, "path", None) and keep_line is not None
        self.doc = doc
        if doc.path and doc.path != self.path and Path(doc.path).exists():
            self.path = doc.path
        if reviews is None:
            try:
                reviews = Reviews.open(doc.path, doc.match.lines)
            except ReviewStoreError as e:
                reviews = None
                self.show_error(tr("Verdicts not loaded"), str(e), modal=False)
        self.reviews = reviews
        if self.log_pane.view.document().isEmpty() and doc.match.lines:
            self.log_pane.view.set_text("\n".join(doc.match.lines))
        self.log_title.setText(tr("Log  ({name})", name=Path(doc.path).name))
        self.log_pane.view.set_document(doc)
        self.findings.set_document(doc, reviews)
        self.timeline.set_document(doc, reviews, keep_view=same)
        self.overview.invalidate()
        self.progress.hide()
        self._on_filling(self.log_pane.view.filling_percent())
        self.show_counts(doc)
        self._update_title()
        self._update_actions()
        from ..shared.fonts import warn_once

        warn_once(doc.match.lines, lambda msg: self.statusBar().showMessage(msg, 30000))
        # what to select: the same line after a re-check, else the first of the worst findings
        if same and keep_line is not None:
            self.select_line(keep_line, origin="reload")
        else:
            row = self._default_finding()
            if row >= 0:
                self.select_finding(row)
            elif doc.events:
                self.select_event(0)
            else:
                self.current = -1
                self.state.set_state(None, doc.players)
                self._update_position(None)
        if not same:
            self._initial_zoom()
        self._settle_layout()
        self.loaded.emit()

    def _settle_layout(self) -> None:
        """Lay the window out for the document now, not from the event loop: the findings' rows
        (a view's layout waits for a timer, and their scroll bar narrows it) and the layouts asked
        for meanwhile (the log's scroll bars, the panes' titles). Otherwise the first frame is
        painted at the old geometry and then the whole window again at the new one."""
        self.findings.view.executeDelayedItemsLayout()
        QCoreApplication.sendPostedEvents(None, QEvent.LayoutRequest)

    def _initial_zoom(self) -> None:
        tl = self.timeline
        if tl.fit_ppe() >= LABELS_PPE or tl.n == 0:
            tl.fit_match()
        else:
            tl.set_pixels_per_event(DEFAULT_PPE)
            if self.current >= 0:
                tl.center_on(self.current)

    def _default_finding(self) -> int:
        return self.doc.first_finding() if self.doc is not None else -1

    def reload(self) -> None:
        """Read and check the file again, keeping the selected line."""
        if not self.path:
            return
        if not Path(self.path).exists():
            self.statusBar().showMessage(tr("{name} is gone from the disk; waiting for it", name=Path(self.path).name), 5000)
            self._reload_timer.start(1000)
            return
        self._keep_line = self._current_line() or None
        self.open_path(self.path, keep_view=True)

    def _on_file_changed(self, path: str) -> None:
        # editors that save by renaming drop the watch: take it again, and check again shortly
        QTimer.singleShot(50, self, lambda: self._set_watch(path))  # not after the window is gone
        if self.editor is not None and self.editor.handles_file_change(path):
            return  # our own save, or unsaved text the user keeps
        self._reload_timer.start()

    def _set_watch(self, path: str) -> None:
        old = self.watcher.files()
        if old and old != [path]:
            self.watcher.removePaths(old)
        if path not in self.watcher.files() and Path(path).exists():
            self.watcher.addPath(path)

    def _on_progress(self, generation: int, text: str, pct: int) -> None:
        self.progress.show()
        self.progress.setValue(pct)
        self.progress.setFormat(f"{text} %p%")

    def _on_filling(self, percent: int) -> None:
        """The log's text coming in by parts (the check is done): how far, in the progress bar."""
        if self.doc is None or self.loader.pending():
            return  # (the check's progress is shown)
        if percent >= 100:
            self.progress.hide()
            return
        self.progress.setFormat(tr("Reading the log…") + " %p%")
        self.progress.setValue(percent)
        self.progress.show()

    def _on_loaded(self, generation: int, doc: Document) -> None:
        self.show_document(doc)

    def _on_failed(self, generation: int, message: str) -> None:
        self.progress.hide()
        self.log_pane.view.allow_fill()  # the text is what there is to show
        self.statusBar().showMessage(tr("Could not check the log"), 10000)
        self.show_error(tr("Could not check the log"), message, modal=False)
        self.failed.emit(message)

    # ---- the library's entry point ------------------------------------------------------------------
    def open_match(self, item: Match | CheckResult | Document, path: str | None = None,
                   reviews: Reviews | None = None) -> None:
        """Show a match that was read (and perhaps checked) elsewhere, e.g. in the match library."""
        if isinstance(item, Document):
            doc = item
        else:
            result = item if isinstance(item, CheckResult) else check_match(item)
            doc = build_document(result, path or result.match.path)
        self.path = path or doc.path
        if self.path and Path(self.path).exists():
            self._set_watch(self.path)
        self.log_pane.view.set_text("\n".join(doc.match.lines))
        self.show_document(doc, reviews)

    # ---- recent files -------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        files = [p for p in self.recent_files() if p != path]
        files.insert(0, path)
        self.settings.setValue("recent/files", files[:MAX_RECENT])
        self.settings.setValue("recent/dir", str(Path(path).parent))

    def _forget_recent(self, path: str) -> None:
        resolved = str(Path(path).resolve())
        self.settings.setValue("recent/files", [p for p in self.recent_files() if p not in (path, resolved)])

    def _fill_recent(self) -> None:
        m = self.recent_menu
        m.clear()
        files = self.recent_files()
        if not files:
            a = m.addAction(tr("(no recent files)"))
            a.setEnabled(False)
            return
        for k, p in enumerate(files, 1):
            a = m.addAction(f"&{k % 10}  {Path(p).name}  —  {Path(p).parent}")
            a.setToolTip(tooltip(p))
            a.triggered.connect(lambda checked=False, p=p: self._guard(lambda: self.open_path(p)))
        m.addSeparator()
        clear = m.addAction(tr("Clear the list"))
        clear.triggered.connect(lambda: self.settings.setValue("recent/files", []))

    # ---- drag and drop ------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self._guard(lambda: self.open_path(files[0]))

    # ---- exports ------------------------------------------------------------------------------------
    def export(self, kind: str, path: str | None = None) -> str | None:
        if self.doc is None:
            self.statusBar().showMessage(tr("Open a log first"), 3000)
            return None
        stem = Path(self.doc.path).with_suffix("")
        default = {"png": f"{stem}.timeline.png", "html": f"{stem}.review.html", "pdf": f"{stem}.review.pdf"}[kind]
        if path is None:
            filters = {"png": M("PNG image (*.png)"), "html": M("HTML page (*.html)"), "pdf": M("PDF document (*.pdf)")}
            path, _ = QFileDialog.getSaveFileName(self, tr("Export"), default, text(filters[kind]))
            if not path:
                return None
        try:
            if kind == "png":
                image = self.timeline.render_image()  # the visible range, with its gutter
                write_atomically(path, png_bytes(image))
            elif kind == "html":
                write_html(self.doc.result, self.reviews, path, lang=language.lang())
            elif export_report_pdf(self, self.doc.result, self.reviews, path, lang=language.lang()) is None:
                # (in a process of its own, with progress and Cancel)
                self.statusBar().showMessage(cancelled_text(language.lang()), 5000)
                return None
        except OSError as e:
            self.show_error(tr("The export was not written"), export_error_text(path, e))
            return None
        self.statusBar().showMessage(tr("Exported {path}", path=visible(str(path))), 5000)
        return str(path)

