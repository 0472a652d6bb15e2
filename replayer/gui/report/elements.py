"""The parts of a laid-out QTextDocument the PDF writer moves and cuts (:mod:`.pdf`, :mod:`.split`):
the root frame's blocks and tables in order, which of them are tables or column headings, where
each is drawn, and a copy of a table put before another."""

from __future__ import annotations


def elements(doc) -> list:
    """The root frame's children in order, without the empty blocks Qt keeps between tables:
    each a QTextBlock or a QTextFrame (a table)."""
    out = []
    it = doc.rootFrame().begin()
    while not it.atEnd():
        frame = it.currentFrame()
        if frame is not None:
            out.append(frame)
        else:
            block = it.currentBlock()
            if block.isValid() and block.text().strip():
                out.append(block)
        it += 1
    return out


def is_table(element) -> bool:
    from PySide6.QtGui import QTextTable

    return isinstance(element, QTextTable)


def is_column_headings(element) -> bool:
    """A table of column headings only (``<thead>``): it belongs with the table after it."""
    return is_table(element) and 0 < element.rows() <= element.format().headerRowCount()


def rect(doc, element):
    """Where an element is drawn, in document units. For a table this is not
    ``frameBoundingRect``'s answer, which starts at the text of its first cell (Qt adds that
    cell's place to the table's); the table starts that cell's padding and border above it."""
    from PySide6.QtCore import QRectF

    layout = doc.documentLayout()
    if not is_table(element):
        return layout.blockBoundingRect(element)
    r = layout.frameBoundingRect(element)
    from PySide6.QtGui import QTextFrameFormat

    cell = element.cellAt(0, 0).format().toTableCellFormat()
    border = cell.topBorder() if cell.topBorderStyle() != QTextFrameFormat.BorderStyle_None else 0.0
    inset = cell.topPadding() + border + 0.5  # (a collapsed border: half of it above)
    return QRectF(r.left(), r.top() - inset, r.width(), r.height())


def copy_table_before(doc, source, before) -> None:
    """Put a copy of the table ``source`` right before the table ``before`` (inside an edit
    block Qt makes the copy's table object only when the block ends)."""
    from PySide6.QtGui import QTextCursor

    select = QTextCursor(doc)
    select.setPosition(source.firstPosition() - 1)
    select.setPosition(source.lastPosition() + 1, QTextCursor.KeepAnchor)
    cursor = QTextCursor(doc)
    cursor.setPosition(before.firstPosition() - 1)  # in the empty block Qt keeps before a table
    cursor.insertFragment(select.selection())
