"""The log pane: findings underlined at their columns, highlighting only what is shown."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCharFormat

from ..conftest import YGO_LOG, line_of, open_and_wait
from ..timeline.test_view import long_log


def underlined(view, line: int) -> set[int]:
    block = view.document().findBlockByNumber(line - 1)
    cols = set()
    for r in block.layout().formats():
        if r.format.underlineStyle() == QTextCharFormat.WaveUnderline:
            cols.update(range(r.start + 1, r.start + r.length + 1))
    return cols


def test_findings_are_underlined_at_their_columns(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    view = window.log_pane.view
    qtbot.waitUntil(lambda: bool(underlined(view, doc.findings[0].span.line)), timeout=3000)
    for f in doc.findings:
        cols = underlined(view, f.span.line)
        assert f.span.column in cols, f
    assert not underlined(view, line_of(YGO_LOG, "timing calc"))


def test_highlighting_is_lazy_on_a_long_log(qtbot, window, tmp_path):
    text = long_log(300)
    path = tmp_path / "long.duel"
    path.write_text(text, encoding="utf-8")
    doc = open_and_wait(qtbot, window, path)
    view = window.log_pane.view
    far = len(text.splitlines()) - 5
    block = view.document().findBlockByNumber(far - 1)
    assert far - 1 not in view.highlighter.done and not block.layout().formats()
    window.select_line(far)
    qtbot.waitUntil(lambda: bool(view.document().findBlockByNumber(far - 1).layout().formats()), timeout=3000)
    assert len(view.highlighter.done) < len(text.splitlines()) / 4


def test_a_long_text_then_a_short_one(qtbot):
    """The text is all there; the scroll bar the long text needs is taken before it comes in and
    decided by Qt again after (a short text next has none), and the gutter fits the numbers."""
    from PySide6.QtCore import Qt

    from replayer.gui.log.pane import LogView

    view = LogView()
    qtbot.add_widget(view)
    view.resize(600, 300)
    view.show()
    qtbot.waitExposed(view)
    text = "\n".join(f"A: lp {8000 - k}" for k in range(12_000))
    view.set_text(text)
    assert view.blockCount() == 12_000 and view.toPlainText() == text
    assert view.verticalScrollBarPolicy() == Qt.ScrollBarAsNeeded
    assert view.verticalScrollBar().isVisible()
    assert view.viewportMargins().left() == view.gutter_width() == view.gutter_width(12_000)
    view.set_text("turn 1 A\nphase main1")
    qtbot.wait(10)
    assert view.blockCount() == 2 and not view.verticalScrollBar().isVisible()
    assert view.viewportMargins().left() == view.gutter_width(2)


def test_plain_text_is_the_views_text_without_reading_it_back(qtbot):
    """``plain_text`` gives what ``toPlainText`` gives: the text set while it is unchanged (not
    read back from Qt), what Qt holds once it changed or when Qt does not keep the text as given."""
    from PySide6.QtGui import QTextCursor

    from replayer.gui.log.pane import LogView

    view = LogView()
    qtbot.addWidget(view)
    for text in ("", "a\nb", "a\nb\n", YGO_LOG, "x\r\ny\n", "a\u00a0b\n", "a\u2028b\u2029c", "\ufdd0\ufdd1"):
        view.set_text(text)
        assert view.plain_text() == view.toPlainText(), repr(text)
        assert (view.plain_text() is text) == (view._text_set is not None)
    view.set_text(YGO_LOG)
    assert view.plain_text() is YGO_LOG  # kept, not read back
    view.setReadOnly(False)
    cursor = QTextCursor(view.document())
    cursor.insertText("# edited\n")
    assert view.plain_text() == "# edited\n" + YGO_LOG == view.toPlainText()
    view.document().undo()  # back to the same text, a new revision: read from Qt
    assert view.plain_text() == view.toPlainText()


def _long(n: int, end: str = "\n") -> str:
    return end.join(f"A: lp {100_000 - k}" + (" # ½" if k % 7 == 0 else "") for k in range(n)) + end


def test_a_long_text_comes_in_by_parts_and_is_the_same_text(qtbot):
    """``progressive``: the first screens at once, the rest after ``allow_fill`` and a paint, from
    the event loop; meanwhile ``plain_text`` is the whole text and the gutter is as wide as for it;
    once in, the blocks are those ``setPlainText`` makes of the whole (line ends of every kind)."""
    from replayer.gui.log.pane import CHUNK_LINES, HEAD_LINES, LogView

    whole = LogView()
    qtbot.addWidget(whole)
    view = LogView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    qtbot.waitExposed(view)
    n = HEAD_LINES + 2 * CHUNK_LINES + 17
    for text in (_long(n), _long(n).rstrip("\n"), _long(n, "\r\n"), "\r\n" + _long(n, "\r\n"),
                 _long(n).replace("\n", "\u2029", 3)):
        whole.set_text(text)
        seen: list[int] = []
        view.filling.connect(seen.append)
        view.set_text(text, progressive=True)
        assert not view.filled() and view.blockCount() == HEAD_LINES + text.count("\u2029")  # (a line's end too)
        assert view.plain_text() == whole.toPlainText()  # (the \u2029 text: completed to read it back)
        if "\u2029" in text:
            assert view.filled()
        else:
            assert view.gutter_width() == whole.gutter_width()
            qtbot.wait(50)
            assert view.blockCount() == HEAD_LINES  # nothing more before the window says so
            view.allow_fill()
            qtbot.waitUntil(view.filled, timeout=10_000)
            assert seen[-1] == 100 and seen == sorted(seen) and len(seen) >= 3
        view.filling.disconnect(seen.append)
        assert view.blockCount() == whole.blockCount()
        assert view.toPlainText() == whole.toPlainText() == view.plain_text()
        assert view.verticalScrollBar().value() == 0
        assert not view.document().isUndoAvailable()


def test_a_line_asked_for_beyond_what_is_in_is_filled_first(qtbot):
    from replayer.gui.log.pane import HEAD_LINES, LogView

    view = LogView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    text = _long(HEAD_LINES * 20)
    view.set_text(text, progressive=True)
    far = HEAD_LINES * 15
    view.select_line(far)
    assert not view.filled() and view.blockCount() > far
    assert view.textCursor().block().text() == text.split("\n")[far - 1]
    view.finish()
    assert view.filled() and view.toPlainText() == text


def test_opening_a_long_log_paints_first_then_fills_in(qtbot, window, tmp_path):
    """The window: the findings shown point at their lines while the text comes in; editing
    waits for the whole text; the progress bar says how far and goes."""
    from replayer.gui.log.pane import HEAD_LINES

    from ..timeline.test_view import long_log

    text = long_log(1_200)
    path = tmp_path / "long.duel"
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    view = window.log_pane.view
    with qtbot.waitSignal(window.loaded, timeout=20_000):
        assert window.open_path(path)
        assert view.blockCount() == HEAD_LINES
    doc = window.doc
    far = [k for k, f in enumerate(doc.findings) if f.span.line > view.blockCount() + 1000]
    assert far
    window.select_finding(far[-1])
    line = doc.findings[far[-1]].span.line
    assert view.selected_line == line and view.textCursor().block().text() == lines[line - 1]
    window.editor.start()
    assert view.filled() and view.toPlainText() == text
    window.editor.stop()
    window.open_path(path)  # again: this time it fills in from the event loop
    qtbot.waitUntil(lambda: window.progress.isVisible(), timeout=20_000)
    qtbot.waitUntil(lambda: view.filled() and not window.progress.isVisible(), timeout=20_000)
    assert view.toPlainText() == text


def test_a_hidden_view_fills_in_without_a_paint(qtbot):
    from replayer.gui.log.pane import HEAD_LINES, LogView

    view = LogView()
    qtbot.addWidget(view)
    text = _long(HEAD_LINES * 12)
    view.set_text(text, progressive=True)
    view.allow_fill()
    qtbot.waitUntil(view.filled, timeout=10_000)
    assert view.toPlainText() == text


@pytest.mark.parametrize("wide", ["the first part's last screen", "the text's last screen"])
def test_a_log_filled_in_by_parts_looks_as_one_set_at_once(qtbot, tmp_path, monkeypatch, wide):
    """The log pane of a window that opened a long log by parts, once the text is in, is the one
    of a window that set it at once, pixel for pixel (the scroll bars and the first finding's
    place too); and so after selecting its last finding. Lines wider than the pane are where
    Qt lays out lines on the way (``wide``)."""
    from replayer.gui import log as _log  # noqa: F401
    from replayer.gui.app import MainWindow
    from replayer.gui.log import pane

    from ..timeline.test_view import long_log

    path = tmp_path / "long.duel"
    lines = long_log(1_200).split("\n")
    for k in range(985, 1000) if wide.startswith("the first") else range(len(lines) - 16, len(lines) - 1):
        lines[k] += "   # a note long enough to be wider than the log pane of a window this size, at its end"
    path.write_text("\n".join(lines), encoding="utf-8")

    def pictures(by_parts: bool):
        monkeypatch.setattr(pane, "HEAD_LINES", 1_000 if by_parts else 10**9)
        w = MainWindow(theme="light")
        qtbot.add_widget(w)
        w.resize(1280, 720)
        w.show()
        qtbot.waitExposed(w)
        with qtbot.waitSignal(w.loaded, timeout=20_000):
            w.open_path(path)
        view = w.log_pane.view
        assert view.filled() != by_parts or not by_parts
        qtbot.waitUntil(lambda: view.filled() and not w.progress.isVisible(), timeout=20_000)
        qtbot.wait(50)
        first = w.log_pane.grab().toImage()
        w.select_finding(len(w.doc.findings) - 1)
        qtbot.wait(50)
        last = w.log_pane.grab().toImage()
        bars = (view.horizontalScrollBar().maximum(), view.verticalScrollBar().value())
        w.close()
        w.settings.clear()  # (what the window keeps on closing, e.g. its panes' sizes: not for the next)
        return first, last, bars

    pictures(False)  # (the first window of a test is laid out a little apart from the next ones)
    at_once, by_parts = pictures(False), pictures(True)
    assert by_parts[2] == at_once[2]
    assert by_parts[0] == at_once[0] and by_parts[1] == at_once[1]


def test_the_fallback_waits_for_the_checks_work_not_the_wall_clock(qtbot, monkeypatch):
    """A check that takes long lets the rest of the text in once it has *worked* ``FILL_AFTER``
    seconds (the loader's thread's CPU, handed as ``check_work``), not after that much wall time:
    on a loaded machine the text does not cut into a check half done."""
    from replayer.gui.log import pane
    from replayer.gui.log.pane import HEAD_LINES, LogView

    monkeypatch.setattr(pane, "FILL_AFTER", 0.05)
    monkeypatch.setattr(pane, "FILL_AFTER_MOST", 60.0)
    view = LogView()
    qtbot.addWidget(view)
    work = [0.0]
    view.check_work = lambda: work[0]
    view.set_text(_long(HEAD_LINES * 12), progressive=True)
    qtbot.wait(300)  # six times FILL_AFTER of wall time: the check has done nothing yet
    assert not view.filled() and view.blockCount() == HEAD_LINES
    work[0] = 0.06
    qtbot.waitUntil(view.filled, timeout=10_000)


def test_the_fallback_without_a_measure_of_work_goes_by_the_wall_clock(qtbot, monkeypatch):
    from replayer.gui.log import pane
    from replayer.gui.log.pane import HEAD_LINES, LogView

    monkeypatch.setattr(pane, "FILL_AFTER", 0.05)
    for check_work in (None, lambda: None):
        view = LogView()
        qtbot.addWidget(view)
        view.check_work = check_work
        view.set_text(_long(HEAD_LINES * 12), progressive=True)
        qtbot.waitUntil(view.filled, timeout=10_000)


def test_the_fallback_comes_at_last_whatever_the_check_did(qtbot, monkeypatch):
    """A check that never gets the CPU (a thread stuck behind another request): the text comes in
    after ``FILL_AFTER_MOST`` seconds of waiting."""
    from replayer.gui.log import pane
    from replayer.gui.log.pane import HEAD_LINES, LogView

    monkeypatch.setattr(pane, "FILL_AFTER", 0.05)
    monkeypatch.setattr(pane, "FILL_AFTER_MOST", 0.3)
    view = LogView()
    qtbot.addWidget(view)
    view.check_work = lambda: 0.0
    view.set_text(_long(HEAD_LINES * 12), progressive=True)
    qtbot.wait(150)
    assert not view.filled()
    qtbot.waitUntil(view.filled, timeout=10_000)
