"""Selection, stepping, playing and verdicts in the review window (a part of :class:`~replayer.gui.app.MainWindow`).

One event (or log line, or finding) is selected at a time; :meth:`NavigationMixin.select_event`
keeps the timeline, the log, the findings and the state pane in step.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from ..shared.language import tr


class NavigationMixin:
    """The selection kept in step across the panes; stepping, playing, jumping between findings."""

    # ---- selection, kept in step across the panes ---------------------------------------------------
    def _current_line(self) -> int:
        return self.log_pane.view.selected_line

    def select_event(self, index: int, origin: str = "", line: int | None = None) -> None:
        """Select event ``index`` in every pane (``line``: a finding's line, if not the event's)."""
        doc = self.doc
        if doc is None or not doc.events or self._syncing:
            return
        index = max(0, min(index, len(doc.events) - 1))
        if self.video is not None:  # the seek first: the footage decodes while the panes follow
            self.video.on_selected(index, origin)
        self._syncing = True
        try:
            self.current = index
            event = doc.events[index]
            line = line or event.span.line
            self.timeline.set_selected(index)
            self.log_pane.view.select_line(line)
            self._show_line_findings(line)
            state = doc.state_at(index)
            self.state.set_state(state, doc.players, doc.source(event.span.line), tree=doc.state_tree(index))
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
            self.position.setText(tr("event {i} / {n} · line {line}", i=f"{self.current + 1:,}", n=f"{n:,}",
                                     line=doc.events[self.current].span.line))
        else:
            self.position.setText("")
        tc = state.timecode if state is not None else None
        if tc:
            self.timecode.setText(tc if state.timecode_own else tr("{timecode} (earlier)", timecode=tc))
        else:
            self.timecode.setText(tr("no timecode"))
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
        self.act_play.setIconText(tr("⏸ Pause"))

    def stop_play(self) -> None:
        self.play_timer.stop()
        self.act_play.setChecked(False)
        self.act_play.setIconText(tr("▶ Play"))

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
        state = self.doc.state_at(self.current)
        if not state.timecode:
            self.statusBar().showMessage(tr("This event has no timecode (nor any event before it)"), 4000)
            return ""
        QGuiApplication.clipboard().setText(state.timecode)
        self.statusBar().showMessage(tr("Copied {timecode}", timecode=state.timecode), 3000)
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
            self.statusBar().showMessage(tr("No more findings after this line") if direction > 0
                                         else tr("No more findings before this line"), 3000)
            return
        self.select_finding(row)

    def timeline_fit(self) -> None:
        self.timeline.fit_match()

    # ---- verdicts -----------------------------------------------------------------------------------
    def set_verdict(self, status: str | None, note: str | None = None) -> None:
        if self.findings.current_row() < 0:
            self.statusBar().showMessage(tr("Select a finding first"), 3000)
            return
        self.findings.set_verdict(status, note)

    def _on_verdict_changed(self, row: int) -> None:
        self.timeline.refresh()
        self.overview.invalidate()
