"""The log pane: findings underlined at their columns, highlighting only what is shown."""

from __future__ import annotations

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
