"""The review window: timeline, log, findings and state, kept in step.

Entry points for other parts of replayer (the match library among them):

* :func:`open_match` — show a :class:`~replayer.reader.Match` or a
  :class:`~replayer.validator.CheckResult` in a window (a new one, or the one given);
* :func:`register_extension` — a function called with every new :class:`MainWindow`, e.g. to
  put the library's action into the File menu (``window.library_menu`` is kept for it);
* :func:`replayer.reviews.set_store` — where verdicts are kept.
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtCore import QFileSystemWatcher, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QFileDialog, QFrame, QLabel, QMainWindow,
                               QMessageBox, QProgressBar, QSplitter, QToolBar, QVBoxLayout, QWidget)

from ..reader import Match
from ..check import CheckResult, check_match
from . import theme as themes
from . import editor as log_editor
from . import video as video_pane
from .document import SEVERITY_RANK, Document, build_document
from ..export import write_html, write_pdf
from .legend import LegendDialog
from .loader import Loader, load_now
from .logpane import LogPane
from .panes import FindingsPane, StatePane
from ..reviews import CONFIRMED, DISMISSED, Reviews, ReviewStoreError
from .timeline import DEFAULT_PPE, LABELS_PPE, OverviewStrip, TimelineView

log = logging.getLogger("replayer.gui")

MAX_RECENT = 10
SPEEDS = (0.5, 1, 2, 4, 8, 16, 32)
LOG_FILTER = "Match logs (*.duel);;Text files (*.txt);;All files (*)"

#: functions called with each new window (see :func:`register_extension`)
EXTENSIONS: list[Callable[["MainWindow"], None]] = []


def register_extension(fn: Callable[["MainWindow"], None]) -> Callable[["MainWindow"], None]:
    """Call ``fn(window)`` for every window created from now on (usable as a decorator)."""
    EXTENSIONS.append(fn)
    return fn


def settings() -> QSettings:
    """The window's settings (recent files, theme), in an INI file in the user's config dir."""
    return QSettings(QSettings.IniFormat, QSettings.UserScope, "replayer", "replayer")


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _panel(title: QWidget | None, body: QWidget, *extra: QWidget) -> QFrame:
    frame = QFrame()
    frame.setFrameShape(QFrame.StyledPanel)
    layout = QVBoxLayout(frame)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    if title is not None:
        layout.addWidget(title)
    layout.addWidget(body, 1)
    for w in extra:
        layout.addWidget(w)
    return frame


def _pane_title(text: str) -> QLabel:
    label = QLabel(text)
    f = label.font()
    f.setBold(True)
    label.setFont(f)
    label.setContentsMargins(8, 5, 8, 4)
    return label


class MainWindow(QMainWindow):
    """One review window. ``loaded`` is emitted each time a document is shown."""

    loaded = Signal()
    failed = Signal(str)
    #: (event index, origin) after every selection; the video pane seeks on it
    eventSelected = Signal(int, str)

    def __init__(self, theme: str | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("ReplayerWindow")
        self.doc: Document | None = None
        self.reviews: Reviews | None = None
        self.path: str | None = None
        self.data: bytes | None = None
        self.current = -1
        self._syncing = False
        self._keep_line: int | None = None
        self.loader = Loader(self)
        self.loader.progress.connect(self._on_progress)
        self.loader.loaded.connect(self._on_loaded)
        self.loader.failed.connect(self._on_failed)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_file_changed)
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(300)
        self._reload_timer.timeout.connect(self.reload)
        self.play_timer = QTimer(self)
        self.play_timer.timeout.connect(self._play_step)
        self.settings = settings()
        name = theme or str(self.settings.value("view/theme", "system"))
        self.theme_name = name if name in ("light", "dark", "system") else "system"
        self.theme = self._resolve_theme(self.theme_name)

        self._build_widgets()
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_status()
        self.setAcceptDrops(True)
        self.resize(1600, 1000)
        self.apply_theme(self.theme)
        self._update_title()
        self._update_actions()
        # the footage beside the timeline, and the log pane as an editor (their own modules)
        self.video = None
        self.editor = None
        video_pane.install(self)
        log_editor.install(self)
        for ext in list(EXTENSIONS):
            try:
                ext(self)
            except Exception:
                log.debug("window extension %r failed", ext, exc_info=True)

    # ---- construction -------------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.timeline = TimelineView()
        self.timeline.eventActivated.connect(lambda i: self.select_event(i, origin="timeline"))
        self.timeline.problem.connect(lambda msg: self.statusBar().showMessage(msg, 15000))
        self.overview = OverviewStrip(self.timeline)
        self.timeline_title = _pane_title("Timeline")
        self.timeline.viewChanged.connect(self._update_timeline_title)
        timeline_panel = _panel(self.timeline_title, self.timeline, self.overview)

        self.findings = FindingsPane()
        self.findings.findingActivated.connect(self.select_finding)
        self.findings.verdictChanged.connect(self._on_verdict_changed)
        self.findings.storeFailed.connect(lambda msg: self.show_error("Could not save the verdict", msg))
        findings_panel = _panel(None, self.findings)

        self.log_pane = LogPane()
        self.log_pane.view.lineActivated.connect(self.select_line)
        self.log_title = _pane_title("Log")
        log_panel = _panel(self.log_title, self.log_pane)

        self.state = StatePane()
        state_panel = _panel(None, self.state)

        top = QSplitter(Qt.Horizontal)
        top.addWidget(timeline_panel)
        top.addWidget(findings_panel)
        top.setStretchFactor(0, 7)
        top.setStretchFactor(1, 3)
        bottom = QSplitter(Qt.Horizontal)
        bottom.addWidget(log_panel)
        bottom.addWidget(state_panel)
        bottom.setStretchFactor(0, 7)
        bottom.setStretchFactor(1, 3)
        main = QSplitter(Qt.Vertical)
        main.addWidget(top)
        main.addWidget(bottom)
        main.setStretchFactor(0, 5)
        main.setStretchFactor(1, 4)
        main.setChildrenCollapsible(False)
        self.splitters = (main, top, bottom)
        self.setCentralWidget(main)

    def _action(self, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                a.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.WindowShortcut)
        if tip:
            a.setToolTip(tip)
            a.setStatusTip(tip)
        a.setCheckable(checkable)
        a.triggered.connect(lambda checked=False: self._guard(slot))
        self.addAction(a)
        return a

    def _guard(self, slot) -> None:
        """Run an action; an unexpected error becomes a message, never a traceback on stderr."""
        try:
            slot()
        except OSError as e:
            self.show_error("Could not complete the action", e.strerror or str(e))
        except Exception as e:
            log.debug("action failed:\n%s", traceback.format_exc())
            self.show_error("Something went wrong", f"{type(e).__name__}: {e}")

    def _build_actions(self) -> None:
        A = self._action
        self.act_open = A("&Open…", self.open_dialog, "Ctrl+O", "Open a match log")
        self.act_close = A("&Close Window", self.close, "Ctrl+W", "Close this window")
        self.act_quit = A("&Quit", QApplication.quit, "Ctrl+Q")
        self.act_reload = A("&Reload", self.reload, "F5", "Read and check the log again")
        self.act_export_png = A("Timeline as &PNG…", lambda: self.export("png"))
        self.act_export_html = A("Report as &HTML…", lambda: self.export("html"))
        self.act_export_pdf = A("Report as P&DF…", lambda: self.export("pdf"))
        self.act_prev = A("Previous Event", lambda: self.step(-1), Qt.Key_Left, "Previous event (←)")
        self.act_next = A("Next Event", lambda: self.step(1), Qt.Key_Right, "Next event (→)")
        self.act_first = A("First Event", self.first, Qt.Key_Home, "First event (Home)")
        self.act_last = A("Last Event", self.last, Qt.Key_End, "Last event (End)")
        self.act_play = A("Play", self.toggle_play, Qt.Key_Space, "Play / pause (Space)", checkable=True)
        self.act_next_finding = A("Next Finding", self.next_finding, Qt.Key_N, "Next finding (N)")
        self.act_prev_finding = A("Previous Finding", self.prev_finding, QKeySequence(Qt.SHIFT | Qt.Key_N),
                                  "Previous finding (Shift+N)")
        self.act_copy_tc = A("Copy &Timecode", self.copy_timecode, "Ctrl+Shift+C",
                             "Copy the selected event's timecode (to jump to it in the video)")
        self.act_fit = A("&Fit Match", self.timeline_fit, "Ctrl+0", "Show the whole match")
        self.act_zoom_in = A("Zoom &In", lambda: self.timeline.zoom(1.5), [QKeySequence.ZoomIn, "Ctrl+="])
        self.act_zoom_out = A("Zoom &Out", lambda: self.timeline.zoom(1 / 1.5), QKeySequence.ZoomOut)
        self.act_confirm = A("&Confirm Finding", lambda: self.set_verdict(CONFIRMED), "Alt+C")
        self.act_dismiss = A("&Dismiss Finding", lambda: self.set_verdict(DISMISSED), "Alt+D")
        self.act_clear_verdict = A("C&lear Verdict", lambda: self.set_verdict(None))
        self.act_legend = A("&Legend", self.show_legend, "F1", "What the marks mean (F1)")
        self.act_about = A("&About replayer", self.show_about)
        self.theme_group = QActionGroup(self)
        self.theme_actions = {}
        for name, label in (("system", "&System"), ("light", "&Light"), ("dark", "&Dark")):
            a = QAction(label, self, checkable=True)
            a.setChecked(name == self.theme_name)
            a.triggered.connect(lambda checked=False, n=name: self.set_theme(n))
            self.theme_group.addAction(a)
            self.theme_actions[name] = a

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        m.addAction(self.act_reload)
        m.addSeparator()
        # the match library puts its entries here (see register_extension)
        self.library_menu = m.addMenu("Match &Library")
        placeholder = self.library_menu.addAction("(the match library is not installed)")
        placeholder.setEnabled(False)
        m.addSeparator()
        export = m.addMenu("&Export")
        export.addAction(self.act_export_png)
        export.addAction(self.act_export_html)
        export.addAction(self.act_export_pdf)
        m.addSeparator()
        m.addAction(self.act_close)
        m.addAction(self.act_quit)
        v = bar.addMenu("&View")
        for a in (self.act_fit, self.act_zoom_in, self.act_zoom_out):
            v.addAction(a)
        v.addSeparator()
        for a in (self.act_first, self.act_prev, self.act_play, self.act_next, self.act_last):
            v.addAction(a)
        v.addAction(self.act_copy_tc)
        v.addSeparator()
        tm = v.addMenu("&Theme")
        for a in self.theme_actions.values():
            tm.addAction(a)
        r = bar.addMenu("&Review")
        for a in (self.act_next_finding, self.act_prev_finding):
            r.addAction(a)
        r.addSeparator()
        for a in (self.act_confirm, self.act_dismiss, self.act_clear_verdict):
            r.addAction(a)
        h = bar.addMenu("&Help")
        h.addAction(self.act_legend)
        h.addAction(self.act_about)

    def _build_toolbar(self) -> None:
        tb = QToolBar("Playback")
        tb.setObjectName("playback")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.act_first.setIconText("|◀")
        self.act_prev.setIconText("◀")
        self.act_play.setIconText("▶ Play")
        self.act_next.setIconText("▶")
        self.act_last.setIconText("▶|")
        for a in (self.act_first, self.act_prev, self.act_play, self.act_next, self.act_last):
            tb.addAction(a)
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g} ev/s", s)
        self.speed.setCurrentIndex(SPEEDS.index(2))
        self.speed.setToolTip("Playback speed, in events per second")
        self.speed.setFocusPolicy(Qt.NoFocus)
        self.speed.currentIndexChanged.connect(self._update_speed)
        tb.addWidget(self.speed)
        tb.addSeparator()
        self.position = QLabel("")
        self.position.setMinimumWidth(120)
        self.position.setContentsMargins(6, 0, 6, 0)
        tb.addWidget(self.position)
        self.timecode = QLabel("")
        self.timecode.setMinimumWidth(80)
        self.timecode.setToolTip("The video position of the selected event (its own, or the last one before it)")
        tb.addWidget(self.timecode)
        self.act_copy_tc.setIconText("Copy timecode")
        tb.addAction(self.act_copy_tc)
        tb.addSeparator()
        self.act_fit.setIconText("Fit match")
        self.act_zoom_out.setIconText("−")
        self.act_zoom_in.setIconText("+")
        for a in (self.act_fit, self.act_zoom_out, self.act_zoom_in):
            tb.addAction(a)
        tb.addSeparator()
        self.act_prev_finding.setIconText("◀ finding")
        self.act_next_finding.setIconText("finding ▶")
        tb.addAction(self.act_prev_finding)
        tb.addAction(self.act_next_finding)
        tb.addSeparator()
        self.act_legend.setIconText("Legend (F1)")
        tb.addAction(self.act_legend)
        self.addToolBar(tb)
        self.toolbar = tb

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(260)
        self.progress.setRange(0, 100)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.file_label = QLabel("")
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.file_label)

    # ---- theme --------------------------------------------------------------------------------------
    def _resolve_theme(self, name: str) -> themes.Theme:
        if name == "system":
            app = QApplication.instance()
            return themes.DARK if app is not None and themes.system_prefers_dark(app) else themes.LIGHT
        return themes.THEMES.get(name, themes.LIGHT)

    def set_theme(self, name: str) -> None:
        self.theme_name = name
        self.settings.setValue("view/theme", name)
        if name in self.theme_actions:
            self.theme_actions[name].setChecked(True)
        self.apply_theme(self._resolve_theme(name))

    def apply_theme(self, theme: themes.Theme) -> None:
        self.theme = theme
        app = QApplication.instance()
        if app is not None:
            themes.apply(app, theme)
        self.setStyleSheet(f"QLabel#dim {{ color: {theme.dim}; }} QLabel#explain {{ background: {theme.alt_base}; }}")
        self.timeline.set_theme(theme)
        self.overview.invalidate()
        self.findings.set_theme(theme)
        self.state.set_theme(theme)
        self.log_pane.view.set_theme(theme)
        if getattr(self, "video", None) is not None:
            self.video.set_theme(theme)
        if self.doc is not None and self.current >= 0:
            self._show_line_findings(self._current_line())

    # ---- opening ------------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(Path(self.path).parent) if self.path else str(self.settings.value("recent/dir", ""))
        path, _ = QFileDialog.getOpenFileName(self, "Open a match log", start, LOG_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str | os.PathLike, *, keep_view: bool = False) -> bool:
        """Open a log: its text shows at once, the check runs on a worker thread."""
        path = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            self.show_error("Could not open the log", f"{path}: {e.strerror or e}")
            self._forget_recent(path)
            return False
        self.stop_play()
        if not keep_view:
            self._keep_line = None
        self._set_watch(path)
        self.path = path
        self.data = data
        # the check starts first: Qt lays out the text (without holding Python's lock) meanwhile
        self.loader.request(path, data)
        self.progress.setValue(0)
        self.progress.setFormat("Reading…")
        self.progress.show()
        self.statusBar().showMessage(f"Checking {Path(path).name}…")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = ""
        if b"\x00" in data[:8192]:
            text = ""
        self.log_title.setText(f"Log  ({Path(path).name})")
        self.log_pane.view.set_text(text)
        if self.editor is not None:
            self.editor.on_opened(data)
        self._add_recent(path)
        self._update_title()
        return True

    def open_path_now(self, path: str | os.PathLike) -> Document:
        """Open and check on this thread (for ``--screenshot``); returns the document shown."""
        path = str(path)
        data = Path(path).read_bytes()
        self.path, self.data = path, data
        self._set_watch(path)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = ""
        self.log_title.setText(f"Log  ({Path(path).name})")
        self.log_pane.view.set_text(text)
        doc = load_now(path, data)
        self.show_document(doc)
        return doc

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
                self.show_error("Verdicts not loaded", str(e), modal=False)
        self.reviews = reviews
        if self.log_pane.view.document().isEmpty() and doc.match.lines:
            self.log_pane.view.set_text("\n".join(doc.match.lines))
        self.log_title.setText(f"Log  ({Path(doc.path).name})")
        self.log_pane.view.set_document(doc)
        self.findings.set_document(doc, reviews)
        self.timeline.set_document(doc, reviews, keep_view=same)
        self.overview.invalidate()
        self.progress.hide()
        counts = doc.counts()
        self.statusBar().showMessage(
            f"{_plural(len(doc.events), 'event')} · {_plural(counts['error'], 'error')} · "
            f"{_plural(counts['warning'], 'warning')} · {counts['info']} info", 8000)
        self._update_title()
        self._update_actions()
        from .fonts import warn_once

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
        self.loaded.emit()

    def _initial_zoom(self) -> None:
        tl = self.timeline
        if tl.fit_ppe() >= LABELS_PPE or tl.n == 0:
            tl.fit_match()
        else:
            tl.set_pixels_per_event(DEFAULT_PPE)
            if self.current >= 0:
                tl.center_on(self.current)

    def _default_finding(self) -> int:
        doc = self.doc
        if doc is None or not doc.findings:
            return -1
        worst = max(SEVERITY_RANK[f.severity.value] for f in doc.findings)
        for k, f in enumerate(doc.findings):
            if SEVERITY_RANK[f.severity.value] == worst:
                return k
        return 0

    def reload(self) -> None:
        """Read and check the file again, keeping the selected line."""
        if not self.path:
            return
        if not Path(self.path).exists():
            self.statusBar().showMessage(f"{Path(self.path).name} is gone from the disk; waiting for it", 5000)
            self._reload_timer.start(1000)
            return
        self._keep_line = self._current_line() or None
        self.open_path(self.path, keep_view=True)

    def _on_file_changed(self, path: str) -> None:
        # editors that save by renaming drop the watch: take it again, and check again shortly
        QTimer.singleShot(50, lambda: self._set_watch(path))
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

    def _on_loaded(self, generation: int, doc: Document) -> None:
        self.show_document(doc)

    def _on_failed(self, generation: int, message: str) -> None:
        self.progress.hide()
        self.statusBar().showMessage("Could not check the log", 10000)
        self.show_error("Could not check the log", message, modal=False)
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
            a = m.addAction("(no recent files)")
            a.setEnabled(False)
            return
        for k, p in enumerate(files, 1):
            a = m.addAction(f"&{k % 10}  {Path(p).name}  —  {Path(p).parent}")
            a.setToolTip(p)
            a.triggered.connect(lambda checked=False, p=p: self._guard(lambda: self.open_path(p)))
        m.addSeparator()
        clear = m.addAction("Clear the list")
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

    # ---- selection, kept in step across the panes ---------------------------------------------------
    def _current_line(self) -> int:
        return self.log_pane.view.selected_line

    def select_event(self, index: int, origin: str = "", line: int | None = None) -> None:
        """Select event ``index`` in every pane (``line``: a finding's line, if not the event's)."""
        doc = self.doc
        if doc is None or not doc.events or self._syncing:
            return
        index = max(0, min(index, len(doc.events) - 1))
        self._syncing = True
        try:
            self.current = index
            event = doc.events[index]
            line = line or event.span.line
            self.timeline.set_selected(index)
            self.log_pane.view.select_line(line)
            self._show_line_findings(line)
            state = doc.replay.state_at(index)
            self.state.set_state(state, doc.players, doc.source(event.span.line))
            if origin != "findings":
                ks = doc.line_findings.get(line) or doc.event_findings.get(index) or []
                shown = [k for k in ks if self.findings.proxy.proxy_row_of(k) >= 0]
                self.findings.select_finding(shown[0] if shown else -1)
            self._update_position(state)
        finally:
            self._syncing = False
        self.eventSelected.emit(index, origin)

    def select_finding(self, row: int) -> None:
        doc = self.doc
        if doc is None or not 0 <= row < len(doc.findings):
            return
        f = doc.findings[row]
        i = doc.finding_event[row]
        if i < 0:  # a finding before the first event (the header)
            self.log_pane.view.select_line(f.span.line)
            self._show_line_findings(f.span.line)
            self.findings.select_finding(row)
            return
        self.findings.select_finding(row)
        self.select_event(i, origin="findings", line=f.span.line)

    def select_line(self, line: int, origin: str = "log") -> None:
        """The user picked a log line: the event there, or the last before it."""
        doc = self.doc
        if doc is None:
            return
        if not doc.events:
            self.log_pane.view.select_line(line)
            self._show_line_findings(line)
            ks = doc.line_findings.get(line, [])
            self.findings.select_finding(ks[0] if ks else -1)
            return
        i = doc.replay.event_for_line(line)
        if line < doc.events[0].span.line:
            i = 0
        self.select_event(i, origin=origin, line=line)

    def _show_line_findings(self, line: int) -> None:
        self.log_pane.show_line(self.doc, line, self.theme)

    def _update_position(self, state) -> None:
        doc = self.doc
        n = len(doc.events) if doc else 0
        if n and self.current >= 0:
            self.position.setText(f"event {self.current + 1:,} / {n:,} · line {doc.events[self.current].span.line}")
        else:
            self.position.setText("")
        tc = state.timecode if state is not None else None
        if tc:
            self.timecode.setText(tc if state.timecode_own else f"{tc} (earlier)")
        else:
            self.timecode.setText("no timecode")
        self.act_copy_tc.setEnabled(bool(tc))

    # ---- stepping and playing ----------------------------------------------------------------------
    def step(self, delta: int) -> None:
        if self.doc is None or not self.doc.events:
            return
        self.select_event((self.current if self.current >= 0 else -1) + delta, origin="step")

    def first(self) -> None:
        self.select_event(0, origin="step")

    def last(self) -> None:
        if self.doc is not None and self.doc.events:
            self.select_event(len(self.doc.events) - 1, origin="step")

    def toggle_play(self) -> None:
        if self.video is not None and self.video.has_media():  # Space plays the footage when there is one
            self.stop_play()
            self.video.toggle()
            return
        if self.play_timer.isActive():
            self.stop_play()
        else:
            self.start_play()

    def start_play(self) -> None:
        if self.doc is None or not self.doc.events:
            self.act_play.setChecked(False)
            return
        if self.current >= len(self.doc.events) - 1:
            self.select_event(0, origin="step")
        self._update_speed()
        self.play_timer.start()
        self.act_play.setChecked(True)
        self.act_play.setIconText("⏸ Pause")

    def stop_play(self) -> None:
        self.play_timer.stop()
        self.act_play.setChecked(False)
        self.act_play.setIconText("▶ Play")

    def _update_speed(self, *_args) -> None:
        speed = self.speed.currentData() or 2
        self.play_timer.setInterval(max(int(1000 / float(speed)), 15))

    def _play_step(self) -> None:
        if self.doc is None or self.current >= len(self.doc.events) - 1:
            self.stop_play()
            return
        self.step(1)

    def copy_timecode(self) -> str:
        if self.doc is None or self.current < 0:
            return ""
        state = self.doc.replay.state_at(self.current)
        if not state.timecode:
            self.statusBar().showMessage("This event has no timecode (nor any event before it)", 4000)
            return ""
        QGuiApplication.clipboard().setText(state.timecode)
        self.statusBar().showMessage(f"Copied {state.timecode}", 3000)
        return state.timecode

    def next_finding(self) -> None:
        self._jump_finding(1)

    def prev_finding(self) -> None:
        self._jump_finding(-1)

    def _jump_finding(self, direction: int) -> None:
        if self.doc is None:
            return
        row = self.findings.step(direction, self._current_line())
        if row < 0:
            self.statusBar().showMessage("No more findings " + ("after" if direction > 0 else "before")
                                         + " this line", 3000)
            return
        self.select_finding(row)

    def timeline_fit(self) -> None:
        self.timeline.fit_match()

    # ---- verdicts -----------------------------------------------------------------------------------
    def set_verdict(self, status: str | None, note: str | None = None) -> None:
        if self.findings.current_row() < 0:
            self.statusBar().showMessage("Select a finding first", 3000)
            return
        self.findings.set_verdict(status, note)

    def _on_verdict_changed(self, row: int) -> None:
        self.timeline.refresh()
        self.overview.invalidate()

    # ---- exports ------------------------------------------------------------------------------------
    def export(self, kind: str, path: str | None = None) -> str | None:
        if self.doc is None:
            self.statusBar().showMessage("Open a log first", 3000)
            return None
        stem = Path(self.doc.path).with_suffix("")
        default = {"png": f"{stem}.timeline.png", "html": f"{stem}.review.html", "pdf": f"{stem}.review.pdf"}[kind]
        if path is None:
            filters = {"png": "PNG image (*.png)", "html": "HTML page (*.html)", "pdf": "PDF document (*.pdf)"}
            path, _ = QFileDialog.getSaveFileName(self, "Export", default, filters[kind])
            if not path:
                return None
        if kind == "png":
            image = self.timeline.render_image()  # the visible range, with its gutter
            if not image.save(str(path), "PNG"):
                raise OSError(f"could not write {path}")
        elif kind == "html":
            write_html(self.doc.result, self.reviews, path)
        else:
            write_pdf(self.doc.result, self.reviews, path)
        self.statusBar().showMessage(f"Exported {path}", 5000)
        return str(path)

    # ---- messages -----------------------------------------------------------------------------------
    def show_error(self, title: str, message: str, modal: bool = True) -> None:
        """Tell the user; offscreen (screenshots, tests) only the status bar says it."""
        self.statusBar().showMessage(f"{title}: {message}", 15000)
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not self.isVisible():
            return
        box = QMessageBox(QMessageBox.Warning, title, message, QMessageBox.Ok, self)
        if modal:
            box.exec()
        else:
            box.setAttribute(Qt.WA_DeleteOnClose)
            box.show()

    def show_legend(self) -> None:
        dlg = LegendDialog(self.theme, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        dlg.show()
        self._legend = dlg

    def show_about(self) -> None:
        from .. import __version__

        QMessageBox.about(self, "About replayer",
                          f"<b>replayer {__version__}</b><br>Replays trading card game match logs and checks "
                          "them against the timing rules.<br>Press F1 for the legend.")

    # ---- bits ---------------------------------------------------------------------------------------
    def _update_title(self) -> None:
        # The application's display name ("replayer") is added to the title by Qt itself
        # ("match.duel … — replayer"); writing it here too showed it twice.
        if self.doc is None and not self.path:
            self.setWindowTitle("")
            self.file_label.setText("")
            return
        name = Path(self.path or (self.doc.path if self.doc else "")).name
        if self.doc is not None:
            m = self.doc.match
            players = m.players
            self.setWindowTitle(f"{name}  [Game {m.game} · Rules {m.rules} · A: {players['A']}  "
                                f"B: {players['B']}]")
            self.file_label.setText(f"{name} · {m.game} · rules {m.rules}")
            self._update_timeline_title()
        else:
            self.setWindowTitle(name)

    def _update_timeline_title(self) -> None:
        if self.doc is None:
            self.timeline_title.setText("Timeline")
            return
        m = self.doc.match
        detail = f"  ·  {self.timeline.detail_level()}" if m.events else ""
        self.timeline_title.setText(
            f"Timeline  ·  {_plural(len(m.events), 'event')}  ·  A: {m.players['A']}  ·  B: {m.players['B']}"
            + detail)

    def _update_actions(self) -> None:
        has = self.doc is not None and bool(self.doc.events)
        for a in (self.act_prev, self.act_next, self.act_first, self.act_last, self.act_play, self.act_fit,
                  self.act_zoom_in, self.act_zoom_out):
            a.setEnabled(has)
        for a in (self.act_export_png, self.act_export_html, self.act_export_pdf, self.act_reload):
            a.setEnabled(self.doc is not None)
        if not has:
            self.act_copy_tc.setEnabled(False)

    def closeEvent(self, event) -> None:
        if self.editor is not None and not self.editor.confirm_close():
            event.ignore()
            return
        self.stop_play()
        if self.video is not None:
            self.video.shutdown()
        # a note being typed is kept
        if self.findings.note.hasFocus():
            self.findings._save_note()
        super().closeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(1600, 1000)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_sized", False):
            self._sized = True
            main, top, bottom = self.splitters
            h = max(main.height(), 400)
            main.setSizes([int(h * 0.55), int(h * 0.45)])
            w = max(top.width(), 600)
            top.setSizes([int(w * 0.64), int(w * 0.36)])
            bottom.setSizes([int(w * 0.64), int(w * 0.36)])
            if self.video is not None:  # the video pane sits between the timeline and the findings
                video_pane.share_space(self)


# ---- the application ------------------------------------------------------------------------------------
def make_app(argv: Iterable[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    app.setApplicationName("replayer")
    app.setOrganizationName("replayer")
    app.setApplicationDisplayName("replayer")
    return app  # type: ignore[return-value]


def install_excepthook(window: MainWindow) -> None:
    """Errors escaping a slot become a message to the user; the traceback goes to the debug log."""

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        log.debug("uncaught error:\n%s", "".join(traceback.format_exception(exc_type, exc, tb)))
        try:
            window.show_error("Something went wrong", f"{exc_type.__name__}: {exc}", modal=False)
        except Exception:
            print(f"replayer: {exc_type.__name__}: {exc}", file=sys.stderr)

    sys.excepthook = hook


def open_match(item: Match | CheckResult | Document, path: str | None = None,
               window: MainWindow | None = None) -> MainWindow:
    """Show a match in ``window`` (or a new one). For the match library and other callers."""
    make_app()
    if window is None:
        window = MainWindow()
        window.show()
    window.open_match(item, path)
    return window


def run(path: str | None = None, theme: str | None = None) -> int:
    """``replayer view [FILE]``: the window, until it is closed.

    Tracebacks go to the debug log only; ``REPLAYER_DEBUG=1`` prints it on stderr."""
    if os.environ.get("REPLAYER_DEBUG"):
        logging.basicConfig(level=logging.DEBUG, format="%(name)s: %(message)s")
    app = make_app()
    window = MainWindow(theme)
    install_excepthook(window)
    window.show()
    if path:
        QTimer.singleShot(0, lambda: window.open_path(path))
    return app.exec()


def screenshot(path: str, out: str, *, size: tuple[int, int] = (1600, 1000), theme: str | None = "light",
               select_line: int | None = None) -> str:
    """Render the window on ``path`` to the PNG ``out`` (offscreen) and return ``out``."""
    app = make_app()
    window = MainWindow(theme or "light")
    window.resize(*size)
    window.show()
    app.processEvents()
    window.open_path_now(path)
    if select_line:
        window.select_line(select_line)
        if window.timeline.fit_ppe() < LABELS_PPE:
            window.timeline.center_on(window.current)
    if window.video is not None and window.video.has_media():
        window.video.wait_for_frame(8000)  # the still of the footage at the selected event
    for _ in range(3):
        app.processEvents()
    image = window.grab()
    if not image.save(out, "PNG"):
        raise OSError(f"cannot write {out}")
    window.close()
    return out
