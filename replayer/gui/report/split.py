"""A table row taller than a page, cut into rows that each fit a page (a part of :mod:`.pdf`).

Qt breaks such a row between two lines of its text wherever the page ends, with no rule at the
page's foot or top and the column headings not repeated: the page showed a row cut in two. Here
the row's text is cut instead, between two lines, into pieces that each fit a page under the
column headings: each piece is a row of its own (a copy of the row's table, the same column
widths), the pieces after the first begin with "(continued)" in the cells they continue, and
:func:`replayer.gui.report.pdf.keep_tables_whole` then places them as any other rows (each at the top
of a page, under a copy of the column headings). Only the rows of a long table are cut (a table
of one row, as the report for paper writes them); a table of several rows taller than a page
(never in the report) is left to Qt.
"""

from __future__ import annotations

from . import elements as parts

CONTINUED = "(continued) "
SLACK = 24.0  # document units kept free under each piece: a table ending within a cell's padding of a
# page's foot makes Qt turn the page itself, and the break before the next one turned another (pdf.TIGHT)


def _headings_of(elements: list, k: int):
    """The column-heading table of the row table ``elements[k]``: the nearest before it with only
    row tables of the same number of columns between; None for a table of its own."""
    table = elements[k]
    for j in range(k - 1, -1, -1):
        e = elements[j]
        if not (parts.is_table(e) and e.columns() == table.columns()):
            return None
        if parts.is_column_headings(e):
            return e
    return None


def _lines(doc, start: int, end: int):
    """(position, top, bottom) of every line of text between two positions (a cell), in
    document units, top to bottom."""
    layout = doc.documentLayout()
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= end:
        top = layout.blockBoundingRect(block).top()
        text = block.layout()
        for i in range(text.lineCount()):
            line = text.lineAt(i)
            yield block.position() + line.textStart(), top + line.y(), top + line.y() + line.height()
        block = block.next()


def _cuts(doc, table, limit: float, first_limit: float | None = None) -> list[tuple[int, int, list[int]]]:
    """For each cell of a one-row table: its start and end (relative to the table's first
    position) and where its pieces after the first begin, each piece at most ``limit`` high
    (the first at most ``first_limit``)."""
    base = table.firstPosition()
    out = []
    for column in range(table.columns()):
        cell = table.cellAt(0, column)
        start, end = cell.firstCursorPosition().position(), cell.lastCursorPosition().position()
        splits: list[int] = []
        piece_top = None
        for position, top, bottom in _lines(doc, start, end):
            if piece_top is None:
                piece_top = top
            elif bottom - piece_top > (limit if splits or first_limit is None else first_limit) and position > start:
                splits.append(position - base)
                piece_top = top
        out.append((start - base, end - base, splits))
    return out


def _keep_piece(doc, table, cuts: list[tuple[int, int, list[int]]], k: int, continued: str = CONTINUED) -> None:
    """Leave in ``table`` (a copy of the row) only its ``k``-th piece of each cell's text."""
    from PySide6.QtGui import QColor, QTextCursor

    base = table.firstPosition()
    for start, end, splits in reversed(cuts):  # from the last cell: the earlier keep their places
        bounds = [start, *splits, end]
        keep_from, keep_to = (bounds[k], bounds[k + 1]) if k + 1 < len(bounds) else (end, end)
        cursor = QTextCursor(doc)
        if keep_to < end:
            cursor.setPosition(base + keep_to)
            cursor.setPosition(base + end, QTextCursor.KeepAnchor)
            cursor.removeSelectedText()
        if keep_from > start:
            cursor.setPosition(base + start)
            cursor.setPosition(base + keep_from, QTextCursor.KeepAnchor)
            cursor.removeSelectedText()
            if keep_to > keep_from:  # it goes on from the piece before
                cursor.setPosition(base + start)
                fmt = cursor.charFormat()
                fmt.setFontItalic(True)
                fmt.setForeground(QColor("#6b7385"))
                fmt.setAnchor(False)
                cursor.insertText(continued, fmt)


def split_tall_rows(doc, width: float, height: float, continued: str = CONTINUED) -> int:
    """Cut every row table of ``doc`` taller than a page of ``width`` × ``height`` into pieces that
    each fit a page under their column headings (see the module). Returns the rows cut.
    ``continued``: the mark of a piece after the first (the report's language: its ``paper_words``)."""
    from PySide6.QtCore import QSizeF

    doc.setPageSize(QSizeF(width, -1))  # no pages: each row's own height
    try:
        return _split(doc, width, height, continued)
    finally:
        # no page size at all (a null one: not laid out, as a new document is in effect): else
        # the changes made to the document next (the rows closed up) are each laid out again,
        # 0.7 s more in a 69-page report
        doc.setPageSize(QSizeF(0, 0))


def _split(doc, width: float, height: float, continued: str) -> int:
    elements = parts.elements(doc)
    todo = []
    for k, e in enumerate(elements):
        if not parts.is_table(e) or e.rows() != 1 or parts.is_column_headings(e):
            continue
        r = parts.rect(doc, e)
        if r.height() <= height:
            continue
        headings = _headings_of(elements, k)
        room = height - (parts.rect(doc, headings).height() if headings is not None else 0.0) - SLACK
        tallest = max((bottom - top for top, bottom in
                       (_span(doc, e.cellAt(0, c)) for c in range(e.columns()))), default=0.0)
        limit = room - max(r.height() - tallest, 0.0)  # the row's padding and rules
        # the first row of a table after its heading: the first piece leaves room for the heading,
        # which goes with it to the top of a page
        first_limit = None
        j = k - 1
        if headings is not None and j >= 1 and elements[j] is headings and not parts.is_table(elements[j - 1]) \
                and elements[j - 1].blockFormat().headingLevel() > 0:
            block = elements[j - 1]
            first_limit = limit - parts.rect(doc, block).height() - block.blockFormat().topMargin() \
                - block.blockFormat().bottomMargin()
        cuts = _cuts(doc, e, limit, first_limit)
        pieces = 1 + max(len(splits) for _, _, splits in cuts)
        if pieces > 1:
            todo.append((e, cuts, pieces))
    for table, cuts, pieces in reversed(todo):  # from the end: the rows before keep their places
        for _ in range(pieces - 1):
            parts.copy_table_before(doc, table, table)  # the copies before the row, the row the last piece
        elements = parts.elements(doc)
        at = next(i for i, e in enumerate(elements) if e is table)
        for k in range(pieces - 1, -1, -1):
            _keep_piece(doc, elements[at - (pieces - 1) + k], cuts, k, continued)
    return len(todo)


def _span(doc, cell) -> tuple[float, float]:
    """The top of a cell's first line and the bottom of its last."""
    lines = list(_lines(doc, cell.firstCursorPosition().position(), cell.lastCursorPosition().position()))
    return (lines[0][1], lines[-1][2]) if lines else (0.0, 0.0)
