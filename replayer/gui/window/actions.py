"""The review window's actions, menus, toolbar and status bar (a part of :class:`~replayer.gui.app.MainWindow`).

Every command of the window is a ``QAction`` made here by :meth:`ActionsMixin._action`, with
its shortcut; the menus and the playback toolbar show them.
"""

from __future__ import annotations

import logging
import traceback

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QProgressBar, QToolBar

from ...i18n import Msg
from ...reviews import CONFIRMED, DISMISSED
from ..shared import language
from ..shared.language import LANGUAGES, NAMES, M, live, tr

log = logging.getLogger("replayer.gui")

SPEEDS = (0.5, 1, 2, 4, 8, 16, 32)


class ActionsMixin:
    """The window's commands: actions with their shortcuts, the menus, the toolbar, the status bar."""

    def _action(self, text: Msg | str, slot, shortcut=None, tip: Msg | str = "", checkable: bool = False) -> QAction:
        """An action of the window; ``text`` and ``tip`` (messages: in the window's language, again
        after each switch of it)."""
        a = live(QAction(self), text)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                a.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.WindowShortcut)
        if tip:
            live(a, tip, "setToolTip")
            live(a, tip, "setStatusTip")
        a.setCheckable(checkable)
        a.triggered.connect(lambda checked=False: self._guard(slot))
        self.addAction(a)
        return a

    def _guard(self, slot) -> None:
        """Run an action; an unexpected error becomes a message, never a traceback on stderr."""
        try:
            slot()
        except OSError as e:
            self.show_error(tr("Could not complete the action"), e.strerror or str(e))
        except Exception as e:
            log.debug("action failed:\n%s", traceback.format_exc())
            self.show_error(tr("Something went wrong"), f"{type(e).__name__}: {e}")

    def _reload_key(self) -> None:
        """F5 / File ▸ Reload: the file read again, but never over unsaved typing (F5 sits beside
        the video's F7 / F8 / F9, pressed while typing)."""
        ed = self.editor
        if ed is not None and ed.editing() and ed.view.document().isModified():
            self.statusBar().showMessage(tr("Not read again: the log has unsaved changes (Ctrl+S saves them; to "
                                            "drop them, leave File ▸ Edit Log without saving)"), 8000)
            return
        self.reload()

    def _build_actions(self) -> None:
        A = self._action
        self.act_open = A(M("&Open…"), self.open_dialog, "Ctrl+O", M("Open a match log"))
        self.act_close = A(M("&Close Window"), self.close, "Ctrl+W", M("Close this window"))
        self.act_quit = A(M("&Quit"), QApplication.quit, "Ctrl+Q")
        self.act_reload = A(M("&Reload"), self._reload_key, "F5", M("Read and check the log again"))
        self.act_export_png = A(M("Timeline as &PNG…"), lambda: self.export("png"))
        self.act_export_html = A(M("Report as &HTML…"), lambda: self.export("html"))
        self.act_export_pdf = A(M("Report as P&DF…"), lambda: self.export("pdf"))
        self.act_prev = A(M("Previous Event"), lambda: self.step(-1), Qt.Key_Left, M("Previous event (←)"))
        self.act_next = A(M("Next Event"), lambda: self.step(1), Qt.Key_Right, M("Next event (→)"))
        self.act_first = A(M("First Event"), self.first, Qt.Key_Home, M("First event (Home)"))
        self.act_last = A(M("Last Event"), self.last, Qt.Key_End, M("Last event (End)"))
        self.act_play = A(M("Play"), self.toggle_play, Qt.Key_Space,
                          M("Play / pause: the video, or the events (Space)"), checkable=True)
        self.act_next_finding = A(M("Next Finding"), self.next_finding, Qt.Key_N, M("Next finding (N)"))
        self.act_prev_finding = A(M("Previous Finding"), self.prev_finding, QKeySequence(Qt.SHIFT | Qt.Key_N),
                                  M("Previous finding (Shift+N)"))
        self.act_copy_tc = A(M("Copy &Timecode"), self.copy_timecode, "Ctrl+Shift+C",
                             M("Copy the selected event's timecode (to jump to it in the video)"))
        self.act_fit = A(M("&Fit Match"), self.timeline_fit, "Ctrl+0", M("Show the whole match"))
        self.act_fold_timeline = A(M("Fold the &Timeline"), self.fold_timeline, "Ctrl+Shift+T",
                                   M("Fold the timeline away: the log takes its column (transcribing on a "
                                     "laptop); again to unfold it (Ctrl+Shift+T)"), checkable=True)
        self.act_zoom_in = A(M("Zoom &In"), lambda: self.timeline.zoom(1.5), [QKeySequence.ZoomIn, "Ctrl+="])
        self.act_zoom_out = A(M("Zoom &Out"), lambda: self.timeline.zoom(1 / 1.5), QKeySequence.ZoomOut)
        self.act_confirm = A(M("&Confirm Finding"), lambda: self.set_verdict(CONFIRMED), "Alt+C")
        self.act_dismiss = A(M("&Dismiss Finding"), lambda: self.set_verdict(DISMISSED), "Alt+D")
        self.act_clear_verdict = A(M("C&lear Verdict"), lambda: self.set_verdict(None))
        self.act_legend = A(M("&Legend"), self.show_legend, "F1", M("What the marks mean (F1)"))
        self.act_about = A(M("&About replayer"), self.show_about)
        self.theme_group = QActionGroup(self)
        self.theme_actions = {}
        for name, label in (("system", M("&System")), ("light", M("&Light")), ("dark", M("&Dark"))):
            a = live(QAction(self, checkable=True), label)
            a.setChecked(name == self.theme_name)
            a.triggered.connect(lambda checked=False, n=name: self.set_theme(n))
            self.theme_group.addAction(a)
            self.theme_actions[name] = a
        # View ▸ Language: each language in its own name (as every program writes it), applied at once
        self.language_group = QActionGroup(self)
        self.language_actions = {}
        for code in LANGUAGES:
            a = QAction(NAMES[code], self, checkable=True)
            a.setChecked(code == language.lang())
            a.triggered.connect(lambda checked=False, c=code: self.set_language(c))
            self.language_group.addAction(a)
            self.language_actions[code] = a

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = live(bar.addMenu(""), M("&File"), "setTitle")
        #: the menu bar's menus by their English names (their titles are in the window's language)
        self.menus = {"File": m}
        m.addAction(self.act_open)
        self.recent_menu = live(m.addMenu(""), M("Open &Recent"), "setTitle")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        m.addAction(self.act_reload)
        m.addSeparator()
        # the match library puts its entries here (see register_extension)
        self.library_menu = live(m.addMenu(""), M("Match &Library"), "setTitle")
        placeholder = live(self.library_menu.addAction(""), M("(the match library is not installed)"))
        placeholder.setEnabled(False)
        m.addSeparator()
        export = live(m.addMenu(""), M("&Export"), "setTitle")
        export.addAction(self.act_export_png)
        export.addAction(self.act_export_html)
        export.addAction(self.act_export_pdf)
        m.addSeparator()
        m.addAction(self.act_close)
        m.addAction(self.act_quit)
        v = self.menus["View"] = live(bar.addMenu(""), M("&View"), "setTitle")
        for a in (self.act_fit, self.act_zoom_in, self.act_zoom_out):
            v.addAction(a)
        v.addSeparator()
        for a in (self.act_first, self.act_prev, self.act_play, self.act_next, self.act_last):
            v.addAction(a)
        v.addAction(self.act_copy_tc)
        v.addSeparator()
        v.addAction(self.act_fold_timeline)
        tm = live(v.addMenu(""), M("&Theme"), "setTitle")
        for a in self.theme_actions.values():
            tm.addAction(a)
        # (its title in the window's language and, so that it is found in any, "Language" beside it)
        self.language_menu = live(v.addMenu(""), lambda: tr("&Language") if language.lang() == "en"
                                  else tr("&Language") + " (Language)", "setTitle")
        for a in self.language_actions.values():
            self.language_menu.addAction(a)
        r = self.menus["Review"] = live(bar.addMenu(""), M("&Review"), "setTitle")
        for a in (self.act_next_finding, self.act_prev_finding):
            r.addAction(a)
        r.addSeparator()
        for a in (self.act_confirm, self.act_dismiss, self.act_clear_verdict):
            r.addAction(a)
        h = self.menus["Help"] = live(bar.addMenu(""), M("&Help"), "setTitle")
        h.addAction(self.act_legend)
        h.addAction(self.act_about)

    def _build_toolbar(self) -> None:
        tb = live(QToolBar(), M("Playback"), "setWindowTitle")
        tb.setObjectName("playback")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.act_first.setIconText("|◀")
        self.act_prev.setIconText("◀")
        self.act_play.setIconText(tr("▶ Play"))  # (⏸ Pause while playing: start_play; retranslate says it again)
        self.act_next.setIconText("▶")
        self.act_last.setIconText("▶|")
        for a in (self.act_first, self.act_prev, self.act_play, self.act_next, self.act_last):
            tb.addAction(a)
        self.speed = QComboBox()
        for i, s in enumerate(SPEEDS):
            self.speed.addItem("", s)
            live(self.speed, M("{speed} ev/s", speed=f"{s:g}"), "setItemText", i)
        self.speed.setCurrentIndex(SPEEDS.index(2))
        live(self.speed, M("Playback speed, in events per second"), "setToolTip")
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
        live(self.timecode, M("The video position of the selected event (its own, or the last one before it)"),
             "setToolTip")
        tb.addWidget(self.timecode)
        live(self.act_copy_tc, M("Copy timecode"), "setIconText")
        tb.addAction(self.act_copy_tc)
        tb.addSeparator()
        live(self.act_fit, M("Fit match"), "setIconText")
        self.act_zoom_out.setIconText("−")
        self.act_zoom_in.setIconText("+")
        for a in (self.act_fit, self.act_zoom_out, self.act_zoom_in):
            tb.addAction(a)
        tb.addSeparator()
        live(self.act_prev_finding, M("◀ finding"), "setIconText")
        live(self.act_next_finding, M("finding ▶"), "setIconText")
        tb.addAction(self.act_prev_finding)
        tb.addAction(self.act_next_finding)
        tb.addSeparator()
        live(self.act_legend, M("Legend (F1)"), "setIconText")
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
        self.file_label.setTextFormat(Qt.PlainText)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.file_label)

    def _update_actions(self) -> None:
        has = self.doc is not None and bool(self.doc.events)
        for a in (self.act_prev, self.act_next, self.act_first, self.act_last, self.act_play, self.act_fit,
                  self.act_zoom_in, self.act_zoom_out):
            a.setEnabled(has)
        for a in (self.act_export_png, self.act_export_html, self.act_export_pdf, self.act_reload):
            a.setEnabled(self.doc is not None)
        if not has:
            self.act_copy_tc.setEnabled(False)

