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

from ..reviews import CONFIRMED, DISMISSED

log = logging.getLogger("replayer.gui")

SPEEDS = (0.5, 1, 2, 4, 8, 16, 32)


class ActionsMixin:
    """The window's commands: actions with their shortcuts, the menus, the toolbar, the status bar."""

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

    def _reload_key(self) -> None:
        """F5 / File ▸ Reload: the file read again, but never over unsaved typing (F5 sits beside
        the video's F7 / F8 / F9, pressed while typing)."""
        ed = self.editor
        if ed is not None and ed.editing() and ed.view.document().isModified():
            self.statusBar().showMessage("Not read again: the log has unsaved changes (Ctrl+S saves them; to "
                                         "drop them, leave File ▸ Edit Log without saving)", 8000)
            return
        self.reload()

    def _build_actions(self) -> None:
        A = self._action
        self.act_open = A("&Open…", self.open_dialog, "Ctrl+O", "Open a match log")
        self.act_close = A("&Close Window", self.close, "Ctrl+W", "Close this window")
        self.act_quit = A("&Quit", QApplication.quit, "Ctrl+Q")
        self.act_reload = A("&Reload", self._reload_key, "F5", "Read and check the log again")
        self.act_export_png = A("Timeline as &PNG…", lambda: self.export("png"))
        self.act_export_html = A("Report as &HTML…", lambda: self.export("html"))
        self.act_export_pdf = A("Report as P&DF…", lambda: self.export("pdf"))
        self.act_prev = A("Previous Event", lambda: self.step(-1), Qt.Key_Left, "Previous event (←)")
        self.act_next = A("Next Event", lambda: self.step(1), Qt.Key_Right, "Next event (→)")
        self.act_first = A("First Event", self.first, Qt.Key_Home, "First event (Home)")
        self.act_last = A("Last Event", self.last, Qt.Key_End, "Last event (End)")
        self.act_play = A("Play", self.toggle_play, Qt.Key_Space, "Play / pause: the video, or the events (Space)",
                          checkable=True)
        self.act_next_finding = A("Next Finding", self.next_finding, Qt.Key_N, "Next finding (N)")
        self.act_prev_finding = A("Previous Finding", self.prev_finding, QKeySequence(Qt.SHIFT | Qt.Key_N),
                                  "Previous finding (Shift+N)")
        self.act_copy_tc = A("Copy &Timecode", self.copy_timecode, "Ctrl+Shift+C",
                             "Copy the selected event's timecode (to jump to it in the video)")
        self.act_fit = A("&Fit Match", self.timeline_fit, "Ctrl+0", "Show the whole match")
        self.act_fold_timeline = A("Fold the &Timeline", self.fold_timeline, "Ctrl+Shift+T",
                                   "Fold the timeline away: the log takes its column (transcribing on a "
                                   "laptop); again to unfold it (Ctrl+Shift+T)", checkable=True)
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
        v.addAction(self.act_fold_timeline)
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

