"""The review window: timeline, log, findings and state, kept in step.

Entry points for other parts of replayer (the match library among them):

* :func:`open_match` — show a :class:`~replayer.reader.Match` or a
  :class:`~replayer.validator.CheckResult` in a window (a new one, or the one given);
* :func:`register_extension` — a function called with every new :class:`MainWindow`, e.g. to
  put the library's action into the File menu (``window.library_menu`` is kept for it);
* :func:`replayer.reviews.set_store` — where verdicts are kept.

The window is made of parts, each a widget or QObject in its own package that is handed what
it shows and emits what the user did: the timeline (:mod:`~replayer.gui.timeline`), the log and
its editor (:mod:`~replayer.gui.log`), the findings (:mod:`~replayer.gui.findings`), the state
(:mod:`~replayer.gui.state`), the video (:mod:`~replayer.gui.video`), the library
(:mod:`~replayer.gui.library`), the legend (:mod:`~replayer.gui.legend`) and the PDF export
(:mod:`~replayer.gui.report`). :class:`MainWindow` builds them and wires their signals; its own
code is in :mod:`replayer.gui.window` (actions and menus, files, navigation, and each part's place
in the window). No part imports this module or takes the window.
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Callable, Iterable

from PySide6.QtCore import QFileSystemWatcher, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QApplication, QFrame, QLabel, QMainWindow, QMessageBox, QSplitter, QTabWidget,
                               QVBoxLayout, QWidget)

from ..reader import Match
from ..check import CheckResult
from ..safe import visible
from .shared import theme as themes
from .window import editing as window_editing
from .window import video as window_video
from .document import Document
from .legend.dialog import LegendDialog
from .window.loader import Loader
from .log.pane import LogPane
from .findings.pane import FindingsPane
from .state.pane import StatePane
from ..reviews import Reviews
from .timeline.view import LABELS_PPE, OverviewStrip, TimelineView
from .window.actions import SPEEDS, ActionsMixin
from .shared import language
from .shared.language import M, live, tr
from .window.files import LOG_FILTER, MAX_RECENT, FilesMixin, events_count
from .shared.widgets import ElidedLabel
from .window.navigation import NavigationMixin

__all__ = ["EXTENSIONS", "LOG_FILTER", "MAX_RECENT", "SPEEDS", "MainWindow", "install_excepthook", "make_app",
           "open_match", "register_extension", "run", "screenshot", "settings"]

log = logging.getLogger("replayer.gui")

#: functions called with each new window (see :func:`register_extension`)
EXTENSIONS: list[Callable[["MainWindow"], None]] = []


def register_extension(fn: Callable[["MainWindow"], None]) -> Callable[["MainWindow"], None]:
    """Call ``fn(window)`` for every window created from now on (usable as a decorator)."""
    EXTENSIONS.append(fn)
    return fn


def settings() -> QSettings:
    """The window's settings (recent files, theme, language), in an INI file in the user's config dir."""
    return QSettings(QSettings.IniFormat, QSettings.UserScope, "replayer", "replayer")


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
    label = ElidedLabel(text)  # plain text (file and player names: never as markup), elided when narrow
    f = label.font()
    f.setBold(True)
    label.setFont(f)
    label.setContentsMargins(8, 5, 8, 4)
    return label


class MainWindow(ActionsMixin, FilesMixin, NavigationMixin, QMainWindow):
    """One review window. ``loaded`` is emitted each time a document is shown."""

    loaded = Signal()
    failed = Signal(str)
    #: (event index, origin) after every selection; the video pane seeks on it
    eventSelected = Signal(int, str)

    def __init__(self, theme: str | None = None, parent: QWidget | None = None, *, opening: str | None = None):
        """``opening``: a log the window will open first (``open_path``): its check starts on the
        loader's thread now, before the window's parts are built, and runs while they are."""
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
        self._opening: tuple[str, bytes, int] | None = None  # a log whose check started here (open_path takes it)
        if opening is not None:
            self._start_opening(str(opening))
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
        # the language: --lang / REPLAYER_LANG, else View ▸ Language's choice, else the locale (the
        # process's: a second window speaks as the first)
        language.start(self.settings)

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
        window_video.install(self)
        window_editing.install(self)
        for ext in list(EXTENSIONS):
            try:
                ext(self)
            except Exception:
                log.debug("window extension %r failed", ext, exc_info=True)
        language.NOTIFIER.changed.connect(self.retranslate)

    # ---- construction -------------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.timeline = TimelineView()
        self.timeline.eventActivated.connect(lambda i: self.select_event(i, origin="timeline"))
        self.timeline.problem.connect(lambda msg: self.statusBar().showMessage(msg, 15000))
        self.overview = OverviewStrip(self.timeline)
        self.timeline_title = _pane_title(tr("Timeline"))
        self.timeline.viewChanged.connect(self._update_timeline_title)
        timeline_panel = _panel(self.timeline_title, self.timeline, self.overview)
        self.timeline_panel = timeline_panel

        self.findings = FindingsPane()
        self.findings.findingActivated.connect(self.select_finding)
        self.findings.verdictChanged.connect(self._on_verdict_changed)
        self.findings.storeFailed.connect(lambda msg: self.show_error(tr("Could not save the verdict"), msg))
        findings_panel = _panel(None, self.findings)

        self.log_pane = LogPane()
        self.log_pane.view.lineActivated.connect(self.select_line)
        self.log_pane.view.filling.connect(self._on_filling)
        self.log_pane.view.check_work = self.loader.worked  # (how long the check has worked: the text's fallback)
        self.log_title = _pane_title(tr("Log"))
        log_panel = _panel(self.log_title, self.log_pane)

        self.state = StatePane()
        state_panel = _panel(None, self.state)

        # Two columns (docs/gui.md § Layout): on the left what runs along the match, the timeline over
        # the log; on the right the findings over a tab holder, the State pane and (with footage) the
        # Video pane. Reviewing shows timeline, findings and state together; transcribing video, log
        # and findings (the Video tab comes forward while the log is edited). At 1280×720 each pane
        # keeps room for its job instead of three panes sharing one row.
        self.side = QTabWidget()
        self.side.setDocumentMode(True)
        self.side.addTab(state_panel, "")
        live(self.side, M("State"), "setTabText", 0)
        self.side.tabBar().setVisible(False)  # one tab: no tab bar (the Video tab shows it)
        left = QSplitter(Qt.Vertical)
        left.addWidget(timeline_panel)
        left.addWidget(log_panel)
        left.setStretchFactor(0, 5)
        left.setStretchFactor(1, 4)
        left.setChildrenCollapsible(False)
        right = QSplitter(Qt.Vertical)
        right.addWidget(findings_panel)
        right.addWidget(self.side)
        right.setStretchFactor(0, 5)
        right.setStretchFactor(1, 4)
        right.setChildrenCollapsible(False)
        main = QSplitter(Qt.Horizontal)
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(0, 7)
        main.setStretchFactor(1, 3)
        main.setChildrenCollapsible(False)
        self.splitters = (main, left, right)
        self.setCentralWidget(main)

    def fold_timeline(self, folded: bool | None = None) -> None:
        """Fold the timeline away (the log takes the left column) or unfold it; ``None``: as the action says."""
        if folded is None:
            folded = self.act_fold_timeline.isChecked()
        self.act_fold_timeline.setChecked(folded)
        self.timeline_panel.setVisible(not folded)

    def show_side(self, widget: QWidget, label: str, visible: bool = True, *, forward: bool = True) -> None:
        """Put ``widget`` into the right column's tabs and bring it forward (``forward=False``: only when
        it is new there, so that a re-check leaves the tab the user chose), or take it out."""
        tabs = self.side
        i = tabs.indexOf(widget)
        if visible:
            if i < 0:
                i = tabs.addTab(widget, label)
                forward = True
            if forward:
                tabs.setCurrentIndex(i)
        elif i >= 0:
            tabs.removeTab(i)
            widget.setVisible(False)
        tabs.tabBar().setVisible(tabs.count() > 1)

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

    # ---- messages -----------------------------------------------------------------------------------
    def show_error(self, title: str, message: str, modal: bool = True) -> None:
        """Tell the user; offscreen (screenshots, tests) only the status bar says it."""
        self.statusBar().showMessage(f"{title}: {message}", 15000)
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not self.isVisible():
            return
        box = QMessageBox(QMessageBox.Warning, title, message, QMessageBox.Ok, self)
        box.setTextFormat(Qt.PlainText)  # the message may quote a path or a log
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

        QMessageBox.about(self, tr("About replayer"),
                          f"<b>replayer {__version__}</b><br>"
                          + tr("Replays trading card game match logs and checks them against the timing rules.")
                          + "<br>" + tr("Press F1 for the legend."))

    # ---- the language -------------------------------------------------------------------------------
    def set_language(self, code: str) -> None:
        """View ▸ Language: the window's language, at once (the open log, the editor's text and the
        selection stay), kept for the next start."""
        self.settings.setValue(language.SETTING, code)
        language.set_language(code)

    def retranslate(self, code: str | None = None) -> None:
        """Say again in the window's language what the window computes (the texts set once follow by
        themselves: :func:`~replayer.gui.shared.language.live`)."""
        if code is None:
            code = language.lang()
        if code in getattr(self, "language_actions", {}):
            self.language_actions[code].setChecked(True)
        self.act_play.setIconText(tr("⏸ Pause") if self.play_timer.isActive() else tr("▶ Play"))
        self._update_title()
        if self.path:
            self.log_title.setText(tr("Log  ({name})", name=Path(self.path).name))
        else:
            self.log_title.setText(tr("Log"))
        self.findings.retranslate()
        self.state.retranslate()
        self.timeline.retranslate()
        self.overview.invalidate()
        self.log_pane.view.viewport().update()
        if self.doc is not None:
            self.show_counts(self.doc)  # the status bar's summary (unless a message is held)
            self.doc.trees.clear()  # (the State pane's rows are words)
            if 0 <= self.current < len(self.doc.events):
                i = self.current
                self._show_line_findings(self._current_line())
                state = self.doc.state_at(i)
                self.state.set_state(state, self.doc.players, self.doc.source(self.doc.events[i].span.line),
                                     tree=self.doc.state_tree(i))
                self._update_position(state)
        if getattr(self, "video", None) is not None and hasattr(self.video, "retranslate_tab"):
            self.video.retranslate_tab()
        if getattr(self, "editor", None) is not None and hasattr(self.editor, "retranslate"):
            self.editor.retranslate()

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
            self.setWindowTitle(visible(tr("{name}  [Game {game} · Rules {rules} · A: {a}  B: {b}]", name=name,
                                           game=m.game, rules=m.rules, a=players["A"], b=players["B"])))
            self.file_label.setText(visible(tr("{name} · {game} · rules {rules}", name=name, game=m.game,
                                               rules=m.rules)))
            self._update_timeline_title()
        else:
            self.setWindowTitle(name)

    def _update_timeline_title(self) -> None:
        if self.doc is None:
            self.timeline_title.setText(tr("Timeline"))
            return
        m = self.doc.match
        detail = f"  ·  {self.timeline.detail_level()}" if m.events else ""
        self.timeline_title.setText(visible(
            tr("Timeline  ·  {events}  ·  A: {a}  ·  B: {b}", events=events_count(len(m.events)), a=m.players["A"],
               b=m.players["B"]) + detail))

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
            self.share_space()

    def share_space(self) -> None:
        """The columns' and panes' first sizes: the right column about 36 % of the width (never less
        than the findings need, at most 42 %); the timeline and the findings a little over half the height."""
        main, left, right = self.splitters
        w = max(main.width(), 600)
        f = min(max(int(w * 0.36), self.findings.minimumSizeHint().width() + 8), int(w * 0.42))
        main.setSizes([w - f, f])
        h = max(main.height(), 400)
        # (Japanese and German lines are taller or longer: the log's explanation of a finding takes
        # more lines, the video's controls a taller row; the log and the tabs get a little more)
        wide = language.lang() != "en"
        top = int(h * (0.5 if wide else 0.55))
        left.setSizes([top, h - top])
        # the tabs (State, Video) about 42 % and never less than a video frame of 180 px with its controls
        side = max(int(h * (0.44 if wide else 0.42)), 270)
        right.setSizes([h - side, side])


# ---- the application ------------------------------------------------------------------------------------
def make_app(argv: Iterable[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    app.setApplicationName("replayer")
    app.setOrganizationName("replayer")
    app.setApplicationDisplayName("replayer")
    return app  # type: ignore[return-value]


#: Qt's messages (of no category) that are not problems: the software video path, the offscreen platform
QUIET_MESSAGES = ("No RHI backend. Using CPU conversion", "This plugin does not support propagateSizeHints")


def quiet_qt_messages() -> None:
    """Drop :data:`QUIET_MESSAGES` from Qt's messages on the terminal; every other one goes on as before."""
    if os.environ.get("REPLAYER_DEBUG"):
        return
    from PySide6.QtCore import qFormatLogMessage, qInstallMessageHandler

    previous = None

    def handler(mode, context, message):
        if any(q in message for q in QUIET_MESSAGES):
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            sys.stderr.write(qFormatLogMessage(mode, context, message) + "\n")

    previous = qInstallMessageHandler(handler)


def install_excepthook(window: MainWindow) -> None:
    """Errors escaping a slot become a message to the user; the traceback goes to the debug log."""

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        log.debug("uncaught error:\n%s", "".join(traceback.format_exception(exc_type, exc, tb)))
        try:
            window.show_error(tr("Something went wrong"), f"{exc_type.__name__}: {exc}", modal=False)
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


def run(path: str | None = None, theme: str | None = None, *, select_line: int | None = None,
        select_column: int | None = None) -> int:
    """``replayer view [FILE[:LINE[:COL]]] [--select LINE]``: the window, until it is closed.

    Tracebacks go to the debug log only; ``REPLAYER_DEBUG=1`` prints it on stderr."""
    if os.environ.get("REPLAYER_DEBUG"):
        logging.basicConfig(level=logging.DEBUG, format="%(name)s: %(message)s")
    app = make_app()
    quiet_qt_messages()
    # the log's check starts first, on the loader's thread, while the window is built and shown
    window = MainWindow(theme, opening=path or None)
    install_excepthook(window)
    window.show()
    if path:
        if select_line:
            select_once(window, select_line, select_column)
        # at once, before the event loop can hand over the check's answer (open_path takes its request)
        window.open_path(path)
    elif window.editor is not None:  # no log: the window is an editor on a new one
        QTimer.singleShot(0, lambda: window.editor.new_log())
    return app.exec()


def select_once(window: MainWindow, line: int, column: int | None = None) -> None:
    """Select ``line`` (the cursor at ``column``, 1-based) when the next document is shown, once."""

    def go() -> None:
        window.loaded.disconnect(go)
        window.select_line(line)
        view = window.log_pane.view
        block = view.document().findBlockByNumber(line - 1)
        if column and block.isValid():
            cursor = view.textCursor()
            cursor.setPosition(block.position() + min(max(column - 1, 0), max(block.length() - 1, 0)))
            view.setTextCursor(cursor)
        if window.timeline.fit_ppe() < LABELS_PPE and window.current >= 0:
            window.timeline.center_on(window.current)

    window.loaded.connect(go)


def screenshot(path: str, out: str, *, size: tuple[int, int] = (1600, 1000), theme: str | None = "light",
               select_line: int | None = None) -> str:
    """Render the window on ``path`` to the PNG ``out`` (offscreen) and return ``out``."""
    app = make_app()
    quiet_qt_messages()
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
    window.log_pane.view.recenter()  # (the first scroll was estimated before the lines were laid out)
    app.processEvents()
    image = window.grab()
    if not image.save(out, "PNG"):
        raise OSError(f"cannot write {out}")
    window.close()
    return out
