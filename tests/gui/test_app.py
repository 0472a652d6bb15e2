"""The window as a user drives it: opening, keys, selection kept in step, verdicts, files."""

from __future__ import annotations

import time

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication

from replayer.gui.app import MainWindow, open_match, register_extension, EXTENSIONS
from replayer.reviews import CONFIRMED, DISMISSED, sidecar_path

from .conftest import YGO_LOG, line_of, open_and_wait


def finding_row(doc, rule: str) -> int:
    return next(k for k, f in enumerate(doc.findings) if f.rule == rule)


def test_open_checks_off_the_gui_thread_and_shows_everything(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    assert len(doc.events) == len(window.timeline.doc.events) > 10
    assert window.findings.model.rowCount() == len(doc.findings)
    assert not window.progress.isVisible()
    assert "match.duel" in window.windowTitle() and "Yuki" in window.windowTitle()
    # a log with a syntax error still opens, and shows it
    assert any(f.rule == "syntax.line" and f.span.line == line_of(YGO_LOG, "atack") for f in doc.findings)
    # the first of the worst findings is selected on opening, in every pane
    first = window.findings.current_row()
    assert doc.findings[first].severity.value == "error"
    assert window.log_pane.view.selected_line == doc.findings[first].span.line


def test_keyboard_steps_through_events(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    n = len(doc.events)
    window.timeline.setFocus()
    qtbot.keyClick(window.timeline, Qt.Key_Home)
    assert window.current == 0
    assert window.log_pane.view.selected_line == doc.events[0].span.line
    qtbot.keyClick(window.timeline, Qt.Key_Right)
    qtbot.keyClick(window.timeline, Qt.Key_Right)
    assert window.current == 2
    assert window.timeline.selected == 2
    assert window.state.title.text() == f"State after line {doc.events[2].span.line} · @1:00"
    qtbot.keyClick(window.timeline, Qt.Key_Left)
    assert window.current == 1
    qtbot.keyClick(window.timeline, Qt.Key_End)
    assert window.current == n - 1
    qtbot.keyClick(window.timeline, Qt.Key_Right)  # stays at the end
    assert window.current == n - 1
    # the arrows step even when the log pane has the focus
    window.log_pane.view.setFocus()
    qtbot.keyClick(window.log_pane.view, Qt.Key_Home)
    assert window.current == 0
    qtbot.keyClick(window.log_pane.view, Qt.Key_Right)
    assert window.current == 1
    assert window.position.text().startswith("event 2 / ")


def test_n_and_shift_n_jump_between_findings(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    lines = sorted({f.span.line for f in doc.findings})
    assert len(lines) >= 2
    window.first()
    window.timeline.setFocus()
    qtbot.keyClick(window.timeline, Qt.Key_N)
    assert window.log_pane.view.selected_line == lines[0]
    qtbot.keyClick(window.timeline, Qt.Key_N)
    assert window.log_pane.view.selected_line == lines[1]
    qtbot.keyClick(window.timeline, Qt.Key_N, Qt.ShiftModifier)
    assert window.log_pane.view.selected_line == lines[0]
    # typing n in the note field types an n
    window.findings.note.setFocus()
    qtbot.keyClick(window.findings.note, Qt.Key_N)
    assert window.findings.note.text().endswith("n")
    assert window.log_pane.view.selected_line == lines[0]


def test_selecting_a_finding_selects_its_event_and_source_line(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    window.first()
    pane = window.findings
    # the user clicks the finding's row in the findings view
    target = next(k for k, f in enumerate(doc.findings) if doc.finding_exact[k])
    proxy_row = pane.proxy.proxy_row_of(target)
    rect = pane.view.visualRect(pane.proxy.index(proxy_row, 1))
    qtbot.mouseClick(pane.view.viewport(), Qt.LeftButton, pos=rect.center())
    f = doc.findings[target]
    event = doc.finding_event[target]
    assert doc.events[event].span.line == f.span.line
    assert window.current == event
    assert window.timeline.selected == event
    assert window.log_pane.view.selected_line == f.span.line
    assert window.log_pane.view.textCursor().blockNumber() == f.span.line - 1
    assert f.rule in window.log_pane.explain.text()
    assert window.state.title.text().startswith(f"State after line {f.span.line}")
    # a finding on a line with no event (the bad line): the line is selected, the event before it too
    bad = finding_row(doc, "syntax.line")
    window.select_finding(bad)
    assert window.log_pane.view.selected_line == doc.findings[bad].span.line
    assert doc.events[window.current].span.line < doc.findings[bad].span.line


def test_clicks_in_the_timeline_and_the_log_select_events(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    tl = window.timeline
    i = doc.replay.index_of_line[line_of(YGO_LOG, 'activate "Honest"')]
    tl.ensure_visible(i)
    pos = tl.mapFromScene(QPointF(tl.x_of(i), tl.rows.marker_y("A")))
    qtbot.mouseClick(tl.viewport(), Qt.LeftButton, pos=pos)
    assert window.current == i
    assert window.log_pane.view.selected_line == line_of(YGO_LOG, 'activate "Honest"')
    # hovering tells the event's line
    assert "line %d" % line_of(YGO_LOG, 'activate "Honest"') in tl.help_text(i)
    assert "&lt;b&gt;before&lt;/b&gt;" in tl.help_text(i)  # the note is user text: escaped
    # a click on a log line selects its event and its finding
    line = line_of(YGO_LOG, "B: lp 6400")
    view = window.log_pane.view
    block = view.document().findBlockByNumber(line - 1)
    view.centerCursor()
    y = view.blockBoundingGeometry(block).translated(view.contentOffset()).center().y()
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=QPoint(40, int(y)))
    assert window.log_pane.view.selected_line == line
    assert doc.events[window.current].span.line == line


def test_play_pause_and_timecode(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    window.first()
    window.speed.setCurrentIndex(window.speed.findData(32))
    window.act_play.trigger()
    assert window.play_timer.isActive()
    qtbot.waitUntil(lambda: window.current >= 3, timeout=3000)
    window.act_play.trigger()
    assert not window.play_timer.isActive()
    stopped = window.current
    qtbot.wait(120)
    assert window.current == stopped
    # play runs to the end and stops there
    window.select_event(len(doc.events) - 3)
    window.start_play()
    qtbot.waitUntil(lambda: not window.play_timer.isActive(), timeout=3000)
    assert window.current == len(doc.events) - 1
    # the timecode of the event (or of the last one before it) goes to the clipboard
    window.select_line(line_of(YGO_LOG, "B: destroy"))
    assert "@1:42" in window.timecode.text()
    assert window.copy_timecode() == "@1:42"
    assert QGuiApplication.clipboard().text() == "@1:42"


def test_verdict_is_saved_and_shown_when_the_log_is_opened_again(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    row = finding_row(doc, "syntax.line")
    window.select_finding(row)
    pane = window.findings
    pane.note.setText("typo by the transcriber, not a play error")
    qtbot.mouseClick(pane.dismiss, Qt.LeftButton)
    assert sidecar_path(ygo_log).exists()
    assert pane.model.verdict(row).status == DISMISSED
    window.close()

    again = MainWindow(theme="light")
    qtbot.add_widget(again)
    again.show()
    doc2 = open_and_wait(qtbot, again, ygo_log)
    row2 = finding_row(doc2, "syntax.line")
    v = again.findings.model.verdict(row2)
    assert (v.status, v.note) == (DISMISSED, "typo by the transcriber, not a play error")
    again.select_finding(row2)
    assert again.findings.dismiss.isChecked()
    assert again.findings.note.text() == "typo by the transcriber, not a play error"
    assert "1/" in again.findings.counts.text()  # reviewed count
    # confirming through the menu action works too
    again.act_confirm.trigger()
    assert again.findings.model.verdict(row2).status == CONFIRMED


def test_the_window_rechecks_when_the_file_changes(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    assert any(f.rule == "syntax.line" for f in doc.findings)
    window.select_line(line_of(YGO_LOG, "B: damage"))
    fixed = YGO_LOG.replace('A: atack "Lyla" -> direct', "# fixed")
    with qtbot.waitSignal(window.loaded, timeout=20_000):
        time.sleep(0.05)
        ygo_log.write_text(fixed, encoding="utf-8")
    assert not any(f.rule == "syntax.line" for f in window.doc.findings)
    assert window.log_pane.view.selected_line == line_of(fixed, "B: damage")  # the same line stays selected
    assert "# fixed" in window.log_pane.view.toPlainText()


def test_drop_recent_files_and_errors(qtbot, window, ygo_log, dm_log, tmp_path):
    open_and_wait(qtbot, window, ygo_log)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(dm_log))])
    drop = QDropEvent(QPointF(100, 100), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(window.loaded, timeout=20_000):
        window.dropEvent(drop)
    assert window.doc.match.game == "dm"
    recent = window.recent_files()
    assert recent[:2] == [str(dm_log.resolve()), str(ygo_log.resolve())]
    window._fill_recent()
    names = [a.text() for a in window.recent_menu.actions()]
    assert any("dm.duel" in n for n in names)
    # a file that is gone: a message in the status bar, nothing raised, the window keeps its log
    assert not window.open_path(tmp_path / "missing.duel")
    assert "Could not open" in window.statusBar().currentMessage()
    assert window.doc.match.game == "dm"


def test_a_bug_while_checking_is_a_message_not_a_traceback(qtbot, window, ygo_log, monkeypatch, capfd):
    import replayer.gui.window.loader as loader

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(loader, "load_document", broken)
    with qtbot.waitSignal(window.failed, timeout=10_000):
        window.open_path(ygo_log)
    assert "boom" in window.statusBar().currentMessage()
    assert "turn 3 A" in window.log_pane.view.toPlainText()  # the text is still shown
    assert "Traceback" not in capfd.readouterr().err


def test_theme_legend_and_close(qtbot, window, ygo_log):
    open_and_wait(qtbot, window, ygo_log)
    window.set_theme("dark")
    assert QApplication.instance().palette().window().color().lightness() < 80
    assert window.timeline.theme.dark
    window.set_theme("light")
    assert QApplication.instance().palette().window().color().lightness() > 200
    window.timeline.setFocus()
    qtbot.keyClick(window.timeline, Qt.Key_F1)
    assert window._legend.isVisible()
    window._legend.close()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    qtbot.keyClick(window.timeline, Qt.Key_W, Qt.ControlModifier)
    assert not window.isVisible()


def test_library_hooks(qtbot, ygo_log):
    from replayer import check

    seen = []
    fn = register_extension(lambda w: (seen.append(w), w.library_menu.addAction("Browse matches…")))
    try:
        w = open_match(check(ygo_log), str(ygo_log))
        qtbot.add_widget(w)
        assert seen == [w]
        assert "Browse matches…" in [a.text() for a in w.library_menu.actions()]
        assert w.doc is not None and len(w.doc.events) > 10
        assert w.findings.model.rowCount() == len(w.doc.findings)
    finally:
        EXTENSIONS.remove(fn)


def test_file_open_and_export_dialogs(qtbot, window, ygo_log, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(ygo_log), "")))
    with qtbot.waitSignal(window.loaded, timeout=20_000):
        window.act_open.trigger()
    assert window.doc is not None and window.path == str(ygo_log)
    target = tmp_path / "out.html"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    window.act_export_html.trigger()
    assert target.exists() and "Review report" in target.read_text(encoding="utf-8")
    # a failing export is a message, not an exception
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "no" / "such" / "dir.html"), "")))
    window.act_export_html.trigger()
    assert "The export was not written" in window.statusBar().currentMessage()


def test_theme_choice_is_remembered(qtbot, ygo_log):
    first = MainWindow()
    qtbot.add_widget(first)
    first.set_theme("dark")
    second = MainWindow()
    qtbot.add_widget(second)
    assert second.theme_name == "dark" and second.theme.dark
    second.set_theme("light")


def test_a_paint_error_is_said_once_not_printed(qtbot, window, ygo_log, monkeypatch, capfd):
    from replayer.gui.timeline.view import TimelineView

    open_and_wait(qtbot, window, ygo_log)

    def broken(self, *a):
        raise ValueError("bad paint")

    monkeypatch.setattr(TimelineView, "_paint_detail", broken)
    window.timeline.viewport().repaint()
    window.timeline.viewport().repaint()
    assert "timeline could not be drawn" in window.statusBar().currentMessage()
    assert "Traceback" not in capfd.readouterr().err
