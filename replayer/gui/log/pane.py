"""The log pane: the log's text, highlighted, with findings underlined and marked in the gutter.

* :class:`LogHighlighter` (:mod:`.highlight`) colours keywords, players, cards, numbers, timecodes and notes, and
  underlines the column range of each finding with a wavy line in its severity colour. It is
  lazy: only blocks that have been on screen are formatted, so a 100,000-line log costs
  nothing to open beyond Qt's own text layout (see the class for why it is not a
  ``QSyntaxHighlighter``).
* :class:`LogView` is a read-only ``QPlainTextEdit`` with a gutter of line numbers and severity
  dots; clicking a line asks the window to select the event there. A long log comes in by
  parts (:meth:`LogView.set_text` with ``progressive``): its first screens at once, the rest
  from the event loop after the window is painted; ``filling(percent)`` says how far.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from PySide6.QtCore import Q_ARG, QEvent, QMetaObject, QPoint, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QTextBlock, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from ...safe import html_text
from ..document import SEVERITY_RANK, Document
from .highlight import LogHighlighter, syntax_runs  # noqa: F401 (the pane's colours: there)
from ..shared.language import label, lang, severity, tr
from ..shared.theme import LIGHT, Theme, mono_font

log = logging.getLogger("replayer.gui")

_NO_PEN = Qt.NoPen
_RIGHT_VCENTER = Qt.AlignRight | Qt.AlignVCenter

#: the characters ``setPlainText`` does not give back as they were (``toPlainText`` turns them into
#: others): a text with none of them is the view's text as it was handed to :meth:`LogView.set_text`
_NOT_KEPT = ("\r", "\u00a0", "\u2028", "\u2029", "\ufdd0", "\ufdd1")

#: a long log set with ``progressive``: the lines set at once (its first screens), and the lines
#: each later step of the event loop appends (some 25 ms of Qt's text layout)
HEAD_LINES = 1_000
CHUNK_LINES = 10_000
#: lines filled beyond one that is asked for (:meth:`LogView.fill_to`): a screen below it
FILL_MARGIN = 200
#: a check that takes long: the rest of a text set with ``progressive`` comes in once the check has
#: worked this many seconds (its thread's CPU, :attr:`LogView.check_work`; wall time where that is
#: not known), or once it has waited :data:`FILL_AFTER_MOST` seconds of wall time, whatever the check did
FILL_AFTER = 1.5
FILL_AFTER_MOST = 6.0


def _cut(text: str, start: int, lines: int) -> tuple[int, int]:
    """Where ``lines`` lines of ``text`` from ``start`` end, and where the next line starts
    (``len(text)`` twice when fewer are left). The cut is a line separator as
    ``QTextCursor.insertText`` reads them: a ``\r\n`` is one, left out whole."""
    p = start - 1
    find = text.find
    for _ in range(lines):
        p = find("\n", p + 1)
        if p < 0:
            return len(text), len(text)
    return (p - 1 if p > start and text[p - 1] == "\r" else p), p + 1




class _Gutter(QWidget):
    def __init__(self, view: "LogView"):
        super().__init__(view)
        self.view = view

    def sizeHint(self) -> QSize:
        return QSize(self.view.gutter_width(), 0)

    def paintEvent(self, event) -> None:
        try:
            self.view.paint_gutter(event)
        except Exception:  # never into Qt's paint loop; REPLAYER_DEBUG=1 shows it
            log.debug("gutter paint failed", exc_info=True)

    def mousePressEvent(self, event) -> None:
        cursor = self.view.cursorForPosition(QPoint(0, int(event.position().y())))
        self.view.lineActivated.emit(cursor.blockNumber() + 1)


class LogView(QPlainTextEdit):
    """The log text. ``lineActivated(line)`` when the user clicks a line."""

    lineActivated = Signal(int)
    #: how much of a text set with ``progressive`` is in, in percent (100: all of it)
    filling = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme: Theme = LIGHT
        self.doc: Document | None = None
        self.selected_line = 0
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard)
        self.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.setFont(mono_font(9.5))
        self.setCenterOnScroll(False)
        # a text coming in by parts: the whole of it, where its next part starts, its lines
        self._full: str | None = None
        self._next = 0
        self._total_lines = 0
        self.gutter = _Gutter(self)
        self.highlighter = LogHighlighter(self.document(), self.theme)
        self.blockCountChanged.connect(self._update_margins)
        self.updateRequest.connect(self._on_update_request)
        self._update_margins()
        self._pending_highlight = False
        self._visible: tuple | None = None  # (key, (first, last)) of _visible_blocks
        self._selection: QTextCursor | None = None  # where the selected line's highlight is
        self._text_set: tuple[str, int] | None = None  # (the text set_text was given, the revision then)
        self._may_fill = False  # the rest may come in (the document is shown, or it takes long)
        self._fill_queued = False
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.timeout.connect(self._fill_due)  # a check that takes long: the text comes in meanwhile
        self._fill_since = 0.0  # (time.monotonic() when the text was set)
        #: the seconds of CPU the check of the text shown has worked so far (None: not known, then
        #: the wall time since the text was set counts): the window hands the loader's
        self.check_work: Callable[[], float | None] | None = None

    # ---- feeding ------------------------------------------------------------------------------
    def set_text(self, text: str, *, progressive: bool = False) -> None:
        """Show the raw log text (before it is checked).

        Two things make this cheap for a long log. The gutter and the vertical scroll bar take
        their room before the text comes in: either one appearing afterwards narrows the text,
        and Qt lays every block out again for the new width (some 70 ms for 100,000 lines, each
        time). And Qt builds the text's blocks without holding Python's lock (the slot is
        invoked through the meta-object system, which lets go of the lock; a direct call does
        not): the worker thread that checks the log meanwhile goes on.

        ``progressive`` (opening a file): of a text longer than :data:`HEAD_LINES` lines, only
        those are set now; the rest is appended by :data:`CHUNK_LINES` lines from the event
        loop once the checked document is shown and painted (:meth:`set_document`), or once the
        check has worked 1.5 s (:data:`FILL_AFTER`, of its thread's CPU: on a loaded machine a
        check is not cut into by the text before it has done that much). Meanwhile the view is read-only (:meth:`finish` completes it at
        once, e.g. to edit), :meth:`plain_text` is the whole text, the gutter is as wide as
        for the whole text, and a line asked for beyond those in (:meth:`select_line`) is
        filled first. (The parts are inserted with a cursor, holding Python's lock: by then the
        check is done. Once in, the text is laid out as the whole set at once would be: the
        window's picture is the same.)"""
        self._stop_filling()
        self.highlighter.reset()
        self.highlighter.doc = None
        self.doc = None
        self.selected_line = 0
        self._selection = None
        lines = text.count("\n") + 1
        head_end = len(text)
        if progressive and lines > HEAD_LINES + CHUNK_LINES // 2:
            head_end, self._next = _cut(text, 0, HEAD_LINES)
            if head_end > 0:  # (a head of no text: Qt's append would not begin a new line)
                self._full, self._total_lines = text, lines
        self.setViewportMargins(self.gutter_width(lines), 0, 0, 0)
        needs_bar = lines * self.fontMetrics().lineSpacing() > self.viewport().height()
        if needs_bar:  # (it would appear anyway; Qt decides again once the text is in)
            self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        # while the text comes in, Qt's vertical scroll bar must not lay out the last screen of each
        # part (those lines' widths would count in the text's, and so in the horizontal scroll bar,
        # as the whole text's would not): its centring mode has no last screen. It is left when the
        # text is all in, which lays out the whole text's last screen, as setPlainText does.
        self.setCenterOnScroll(self._full is not None)
        # and the horizontal scroll bar is there from the start if the whole text's last screen
        # would have brought it (as setPlainText of the whole does): where the first finding is
        # centred depends on the view's height
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOn if self._full is not None and self._last_screen_wide(text)
                                          else Qt.ScrollBarAsNeeded)
        head = text if self._full is None else text[:head_end]
        if not QMetaObject.invokeMethod(self, "setPlainText", Qt.DirectConnection, Q_ARG(str, head)):
            self.setPlainText(head)
        if needs_bar:
            self.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self._update_margins()
        if self._full is not None:
            # (setPlainText laid out the part's last lines even so, and their widths count: forget
            # them; QPlainTextDocumentLayout.setTextWidth, which does, is not in PySide6, but a change
            # of the wrap mode and back calls it)
            self._forget_widths()
            self._text_set = None
            self.document().setUndoRedoEnabled(False)
            self._fill_since = time.monotonic()
            self._fill_timer.start(int(FILL_AFTER * 1000))
            self.filling.emit(self._percent())
        else:
            self._text_set = None if any(c in text for c in _NOT_KEPT) else (text, self.document().revision())

    # ---- a text coming in by parts ------------------------------------------------------------
    def filled(self) -> bool:
        """Whether the whole text is in (see ``progressive`` in :meth:`set_text`)."""
        return self._full is None

    def filling_percent(self) -> int:
        """How much of the text is in, in percent (100: all of it)."""
        return self._percent()

    def _percent(self) -> int:
        full = self._full
        return 100 if full is None else min(99, 100 * self._next // max(len(full), 1))

    def _append(self, lines: int) -> None:
        """Append the next ``lines`` lines of the text coming in (all that is left, when fewer)."""
        full = self._full
        end, nxt = _cut(full, self._next, lines)
        bar = self.verticalScrollBar()
        value = bar.value()
        # (a cursor, not appendPlainText: that lays out the last line, whose width would count)
        # (and placed inside its edit block: a cursor moved outside one lays out the line it is on)
        document = self.document()
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        cursor.setPosition(document.characterCount() - 1)
        cursor.insertBlock()
        cursor.insertText(full[self._next:end])
        cursor.endEditBlock()
        if bar.value() != value:
            bar.setValue(value)
        if end >= len(full):
            self._end_filling()
            self._text_set = None if any(c in full for c in _NOT_KEPT) else (full, self.document().revision())
        else:
            self._next = nxt
        self.filling.emit(self._percent())

    def _last_screen_wide(self, text: str) -> bool:
        """Whether a line of the last screen of ``text`` (the lines Qt lays out for the vertical
        scroll bar: a view's height, from the end) is wider than the view."""
        fm = self.fontMetrics()
        margin = self.document().documentMargin()
        n = int((self.viewport().height() - margin - 1) // max(fm.height(), 1)) + 1
        width = self.viewport().width() - 2 * margin
        return any(fm.horizontalAdvance(line.rstrip("\r")) > width for line in text.rsplit("\n", n)[-n:])

    def _forget_widths(self) -> None:
        mode = self.lineWrapMode()
        self.setLineWrapMode(QPlainTextEdit.WidgetWidth if mode == QPlainTextEdit.NoWrap else QPlainTextEdit.NoWrap)
        self.setLineWrapMode(mode)

    def _end_filling(self) -> None:
        self._full = None
        self._fill_timer.stop()
        self._may_fill = False
        self.document().setUndoRedoEnabled(True)  # (as setPlainText leaves it: no steps to undo)
        bar = self.verticalScrollBar()
        value = bar.value()
        self.setCenterOnScroll(False)  # (which lays out the last screen: the horizontal bar as it is then)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        bar.setValue(value)
        self._update_margins()

    def fill_to(self, line: int) -> None:
        """Have line ``line`` (1-based) and a screen below it in, now."""
        while self._full is not None and self.blockCount() < line + FILL_MARGIN:
            self._append(max(CHUNK_LINES, line + FILL_MARGIN - self.blockCount()))

    def finish(self) -> None:
        """Have the whole text in, now (before anything that edits or reads all of the blocks)."""
        while self._full is not None:
            self._append(len(self._full))

    def _stop_filling(self) -> None:
        if self._full is not None:
            self._end_filling()

    def _fill_due(self) -> None:
        """The fill timer: the rest comes in if the check has worked :data:`FILL_AFTER` seconds
        (or the wait is :data:`FILL_AFTER_MOST`); else the timer waits for what is left of it."""
        if self._full is None or self._may_fill:
            return
        waited = time.monotonic() - self._fill_since
        worked = self.check_work() if self.check_work is not None else None
        if worked is None:
            worked = waited
        if worked >= FILL_AFTER or waited >= FILL_AFTER_MOST:
            self.allow_fill()
        else:  # (the check's CPU comes no faster than the wall clock: this is the earliest it can be due)
            self._fill_timer.start(max(int(1000 * min(FILL_AFTER - worked, FILL_AFTER_MOST - waited)), 20))

    def allow_fill(self) -> None:
        """Let the rest of the text come in, after the next paint (the document is shown, the
        check failed, or it takes long)."""
        if self._full is not None and not self._may_fill:
            self._may_fill = True
            if self.isVisible():
                self.viewport().update()  # the next part comes after the next paint
            else:
                self._queue_fill()  # (no paint will come: the pane is hidden)

    def _queue_fill(self) -> None:
        if self._full is not None and self._may_fill and not self._fill_queued:
            self._fill_queued = True
            QTimer.singleShot(0, self, self._fill_step)

    def _fill_step(self) -> None:
        self._fill_queued = False
        if self._full is not None:
            self._append(CHUNK_LINES)
            self._queue_fill()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._full is not None and self._may_fill:
            self._queue_fill()  # after the frame that shows the document: the window is painted first

    def plain_text(self) -> str:
        """The view's text, as ``toPlainText`` gives it: while the document is as :meth:`set_text`
        left it (the same revision; any change of the text makes a new one), the text it was
        given, not read back from Qt (some 50 ms for 100,000 lines); while the text comes in by
        parts, the whole of it."""
        full = self._full
        if full is not None:
            if "\r" in full and not any(c in full for c in _NOT_KEPT[1:]):
                return full.replace("\r\n", "\n").replace("\r", "\n")  # (Qt reads each as a line's end)
            if not any(c in full for c in _NOT_KEPT):
                return full
            self.finish()  # (what Qt makes of the others: read back)
        kept = self._text_set
        if kept is not None and kept[1] == self.document().revision():
            return kept[0]
        return self.toPlainText()

    def set_document(self, doc: Document | None) -> None:
        """The checked document: findings to underline and mark."""
        self.doc = doc
        self.highlighter.doc = doc
        self._rehighlight_visible(force=True)
        self.gutter.update()
        self.allow_fill()

    def update_document(self, doc: Document, old: Document, change) -> None:
        """``doc`` is the re-check of an edit of ``old``'s text (a :class:`replayer.check.Change`):
        colour again only the lines of the edit and the lines whose findings changed."""
        self.doc = doc
        h = self.highlighter
        h.doc = doc
        first, d = change.first_line, change.delta
        end_old = first + change.old_lines  # the first line after the edit, numbered as before it

        def moved(line: int) -> int | None:  # an old line's number now (None: it was edited)
            return line if line < first else line + d if line >= end_old else None

        # block numbers are 0-based lines: those of the edit are coloured again; when lines were added
        # or removed, so are those after it (the view colours lines as they come into sight while
        # the text changes, numbered as they are then: the set mixes the old and new numbering)
        if d:
            h.done = {n for n in h.done if n < first - 1}
        else:
            h.done = {n for n in h.done if not first - 1 <= n < end_old - 1}

        def marks(d_: Document, line: int) -> tuple:
            fs = d_.findings
            return tuple(sorted((fs[k].span.column, fs[k].span.end_column,
                                 (fs[k].span.end_line - fs[k].span.line) if fs[k].span.end_line else None,
                                 fs[k].severity.value) for k in d_.line_findings.get(line, ())))

        lines = {m for m in map(moved, old.line_findings) if m is not None} | set(doc.line_findings)
        for line in lines:
            back = line if line < first else line - d
            if marks(doc, line) != (marks(old, back) if moved(back) == line else ()):
                h.done.discard(line - 1)
        self._rehighlight_visible()
        self.gutter.update()

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.highlighter.set_theme(theme)
        self._rehighlight_visible(force=True)
        self._apply_selection()
        self.gutter.update()

    # ---- the lazy highlighting ----------------------------------------------------------------
    def _visible_blocks(self) -> tuple[int, int]:
        """The numbers of the first and last blocks on screen (asked several times a key while
        typing: kept until the text, its formats, the scroll position or the view's height change)."""
        block = self.firstVisibleBlock()
        first = block.blockNumber()
        height = self.viewport().height()
        offset = self.contentOffset()
        key = (first, offset.x(), offset.y(), height, self.document().revision(), self.highlighter.generation)
        if self._visible is not None and self._visible[0] == key:
            return self._visible[1]
        top = self.blockBoundingGeometry(block).translated(offset).top()
        last = number = first
        while block.isValid() and top <= height:
            last = number
            top += self.blockBoundingRect(block).height()
            block = block.next()
            number += 1
        self._visible = (key, (first, last))
        return first, last

    def _rehighlight_visible(self, force: bool = False) -> None:
        first, last = self._visible_blocks()
        if force:
            self.highlighter.reset()
        self.highlighter.highlight(first - 20, last + 40)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._update_margins()
        if not self._pending_highlight:
            self._pending_highlight = True
            QTimer.singleShot(0, self, self._deferred_highlight)  # not after the view is gone

    def _deferred_highlight(self) -> None:
        self._pending_highlight = False
        first, last = self._visible_blocks()
        if any(n not in self.highlighter.done for n in range(first, last + 1)):
            self._rehighlight_visible()

    # ---- gutter -------------------------------------------------------------------------------
    def gutter_width(self, lines: int | None = None) -> int:
        """The gutter's width for ``lines`` lines (default: the lines shown now)."""
        if lines is None:
            lines = self._total_lines if self._full is not None else self.blockCount()
        digits = max(3, len(str(max(1, lines))))
        return 18 + self.fontMetrics().horizontalAdvance("9") * digits

    def _update_margins(self, *_args) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))

    def paint_gutter(self, event) -> None:
        t = self.theme
        p = QPainter(self.gutter)
        rect = event.rect()
        p.fillRect(rect, QColor(t.window))
        p.setRenderHint(QPainter.Antialiasing)
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
        bottom = top + self.blockBoundingRect(block).height()
        width = self.gutter.width()
        fh = self.fontMetrics().height()
        p.setFont(self.font())
        # what every line uses, made once (a colour from its name, an enum member looked up by
        # PySide6: each costs microseconds, and a screen has some sixty lines)
        text_color, dim, selected = QColor(t.text), QColor(t.dim), self.selected_line
        doc = self.doc
        line_findings = doc.line_findings if doc is not None else {}
        rect_top, rect_bottom = rect.top(), rect.bottom()
        while block.isValid() and top <= rect_bottom:
            if block.isVisible() and bottom >= rect_top:
                line = number + 1
                if line == selected:
                    p.fillRect(QRectF(0, top, width, bottom - top), QColor(t.selection))
                ks = line_findings.get(line)
                if ks:
                    worst = max(ks, key=lambda k: SEVERITY_RANK[doc.findings[k].severity.value])
                    color = QColor(t.severity[doc.findings[worst].severity.value])
                    p.setPen(_NO_PEN)
                    p.setBrush(color)
                    p.drawEllipse(QRectF(4, top + fh / 2 - 4, 8, 8))
                p.setPen(text_color if line == selected else dim)
                p.drawText(QRectF(0, top, width - 5, fh), _RIGHT_VCENTER, str(line))
            block = block.next()
            top = bottom
            bottom = top + self.blockBoundingRect(block).height()
            number += 1
        p.end()

    # ---- selection ----------------------------------------------------------------------------
    def select_line(self, line: int, *, center: bool = True) -> None:
        """Highlight ``line`` (1-based) and scroll it into view."""
        # the same line, its highlight still on it (a cursor follows the edits): nothing to repaint
        self.fill_to(line)
        same = (line == self.selected_line and self._selection is not None
                and self._selection.blockNumber() == line - 1)
        self.selected_line = line
        block = self.document().findBlockByNumber(line - 1)
        if block.isValid():
            if self.isReadOnly():  # while editing, the typing cursor stays where it is (the view still scrolls)
                cursor = QTextCursor(block)
                self.blockSignals(True)
                if self._full is None:
                    self.setTextCursor(cursor)
                else:
                    self._set_cursor_while_filling(cursor)
                self.blockSignals(False)
            if center:
                self._center_block(block)
        if not same:
            self._apply_selection()
            self.gutter.update()

    def _set_cursor_while_filling(self, cursor: QTextCursor) -> None:
        """``setTextCursor`` while the text comes in, as it is once it is all in: there Qt scrolls
        the cursor's line to the nearest edge of the view (laying out the lines a screen above it,
        which count in the text's width); in the centring mode of the filling it would centre it."""
        bar = self.verticalScrollBar()
        value = bar.value()
        block = cursor.block()
        top = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
        height = self.viewport().height()
        self.setTextCursor(cursor)
        bar.setValue(value)
        if top + self.blockBoundingRect(block).height() > height:  # below the view: the screen above it
            h = self.blockBoundingRect(block).height()
            while h < height and block.previous().isValid():
                block = block.previous()
                h += self.blockBoundingRect(block).height()

    def recenter(self) -> None:
        """Bring the selected line into view again, measured on the lines as laid out now."""
        self.fill_to(self.selected_line)
        block = self.document().findBlockByNumber(self.selected_line - 1)
        if self.selected_line > 0 and block.isValid():
            self._center_block(block)

    def _center_block(self, block: QTextBlock) -> None:
        """Scroll ``block`` to the middle of the view unless it is on screen already, clear of the edges.

        The scroll bar counts lines of text; how many fit is measured on the lines laid out on screen
        (Japanese lines, in a fallback font, are taller than Latin ones), and estimated from the font
        where nothing is laid out yet (a window just opened)."""
        bar = self.verticalScrollBar()
        height = self.viewport().height()
        n = block.firstLineNumber()
        first_block = self.firstVisibleBlock()
        line_h = self.blockBoundingRect(first_block).height() if first_block.isValid() else 0.0
        lines = max(first_block.lineCount(), 1) if first_block.isValid() else 1
        per_line = line_h / lines if line_h > 0 else float(max(self.fontMetrics().lineSpacing(), 1))
        visible = max(int(height / per_line), 1)
        laid_out = self.blockBoundingRect(block).height() > 0
        if laid_out and first_block.isValid():
            top = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
            bottom = top + self.blockBoundingRect(block).height()
            margin = 2 * per_line
            if top >= margin and bottom <= height - margin:
                return
        elif visible > 4 and bar.value() + 2 <= n <= bar.value() + visible - 3:
            return
        bar.setValue(max(n - visible // 2, 0))

    def _apply_selection(self) -> None:
        self._selection = None
        if self.selected_line <= 0:
            self.setExtraSelections([])
            return
        block = self.document().findBlockByNumber(self.selected_line - 1)
        if not block.isValid():
            self.setExtraSelections([])
            return
        self._selection = QTextCursor(block)
        sel = QTextEdit.ExtraSelection()
        sel.format.setBackground(QColor(self.theme.selection))
        sel.format.setProperty(QTextFormat.FullWidthSelection, True)
        sel.cursor = QTextCursor(block)
        sel.cursor.clearSelection()
        self.setExtraSelections([sel])

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.LeftButton and not self.textCursor().hasSelection():
            self.lineActivated.emit(self.cursorForPosition(event.position().toPoint()).blockNumber() + 1)

    def event(self, e) -> bool:
        # Left/Right/Home/End step through the events (window actions), even with the log focused
        if e.type() == QEvent.ShortcutOverride and e.key() in (Qt.Key_Left, Qt.Key_Right, Qt.Key_Home, Qt.Key_End) \
                and not (e.modifiers() & (Qt.ControlModifier | Qt.ShiftModifier)) and self.isReadOnly():
            e.ignore()
            return False
        return super().event(e)


class LogPane(QWidget):
    """The log view with, under it, what the findings on the selected line say."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = LogView(self)
        self.explain = QLabel(self)
        self.explain.setWordWrap(True)
        self.explain.setTextFormat(Qt.RichText)
        self.explain.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.explain.setContentsMargins(8, 4, 8, 6)
        self.explain.setMinimumHeight(20)
        self.explain.setObjectName("explain")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.explain, 0)

    def show_line(self, doc: Document | None, line: int, theme: Theme) -> None:
        self._set_explain(self._explain_html(doc, line, theme))

    def _set_explain(self, html: str) -> None:
        if html != self.explain.text():
            self.explain.setText(html)

    def lay_out_now(self) -> None:
        """Lay the pane out now rather than on Qt's next layout request: after a re-check while
        typing, an explanation of another height resizes the log view, which would otherwise be
        painted once at its old height and again at the new one."""
        self.layout().activate()

    def _explain_html(self, doc: Document | None, line: int, theme: Theme) -> str:
        if doc is None:
            return ""
        ks = doc.line_findings.get(line, [])
        if not ks:
            said = html_text(tr("line {line}: no findings", line=line))
            return f"<span style='color:{theme.dim}'>{said}</span>" if line else ""
        parts = []
        for k in ks:
            f = doc.finding_in(k, lang())  # in the window's language
            c = theme.severity[f.severity.value]
            parts.append(
                f"<div style='margin-bottom:3px'><span style='color:{c}'><b>{f.span.line}:{f.span.column}: "
                f"{html_text(severity(f.severity.value))}[{html_text(f.rule)}]</b> {html_text(f.message)}</span>"
                + (f"<br><span style='color:{theme.dim}'>{html_text(label('hint'))}: {html_text(f.hint)}</span>"
                   if f.hint else "")
                + (f"<span style='color:{theme.dim}'> &nbsp; {html_text(label('cite'))}: {html_text(f.cite)}</span>"
                   if f.cite else "")
                + "</div>")
        return "".join(parts)
