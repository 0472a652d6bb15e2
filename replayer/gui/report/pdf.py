"""HTML to PDF with Qt's text engine (A4, text kept as text): the report's PDF writer.

Paper needs one thing Qt's text engine lacks: QTextDocument breaks pages between lines, so a table
row that does not fit at a page's foot was split across two pages, and there is no keep-together
for rows. So the HTML for paper (``report_html(..., for_pdf=True)``) gives each row of a long table
a table of its own (the same column widths, so the columns line up), with the column headings in
a table of their own (``<thead>``) before the first, and :func:`lay_out` lays the document out and
moves every top-level table that would cross a page boundary to the next page
(``PageBreak_AlwaysBefore``), top to bottom until none does. A heading or a column-heading table
right before it goes with it; a row that starts a page after the first of its table gets a copy of
its column headings above it. A row taller than a page is first cut, between two lines of its
text, into rows that each fit a page (:mod:`.pdf_split`, "(continued)"); only a table of several
rows taller than a page (the report writes none) stays where it is and Qt breaks it between two
lines of text (:attr:`PaperLayout.too_tall` names it).

Three things Qt does that the code works around, each found on the page images: the rectangle
``frameBoundingRect`` gives a table starts at its first cell's text, not at its top rule
(:func:`_rect`); two tables one under the other have a sliver of white between them
(:func:`_close_up`); and a table that ends within a cell's padding of a page's foot makes Qt turn
the page itself, so that a break after it turned a second one (``TIGHT`` in :func:`_plan`, and a
new start from the HTML if it happens anyway). ``tests/export/test_report_pdf.py`` checks the layout's
rectangles and every page's image.
"""

from __future__ import annotations

import errno
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

from ..shared.savefile import write_atomically
from .elements import (copy_table_before as _copy_table_before, elements as _elements,  # the document's parts
                       is_column_headings as _is_column_headings, is_table as _is_table, rect as _rect)

MARGIN_MM = 15.0  # every side of the A4 page
FOOTER = 22.0  # the footer's band at each page's foot, in the document's units
_EPS = 0.01
TIGHT = 6.0  # a table ending this near a page's foot makes Qt turn the page itself (see _plan)
LAYOUT_SHARE = 0.9  # of the progress: laying out (the pages' drawing is the rest)

#: ``progress(fraction, what)``: called now and then while a report is laid out and drawn, the
#: fraction done (0 to 1, never going back) and what is being done; it may raise
#: :class:`Cancelled` to stop (the file is then not written)
Progress = Callable[[float, str], None]


#: the writer's own words, in English; the report hands them in its language
#: (:func:`replayer.export.report.paper_words`: ``{page}``, ``{pages}`` filled in here)
WORDS = {"page": "page {page} of {pages}", "continued": "(continued) ", "laying_out": "Laying out the pages",
         "writing": "Writing page {page} of {pages}", "written": "Written"}


def _word(words: dict[str, str] | None, key: str, **params: object) -> str:
    text = (words or {}).get(key) or WORDS[key]
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


class Cancelled(Exception):
    """The export was cancelled (raised by a :data:`Progress` callback; nothing is written)."""


class _Steps:
    """The progress of one export, kept from going back (a new start of the layout begins again)."""

    def __init__(self, callback: Progress | None, words: dict[str, str] | None = None):
        self.callback = callback
        self.words = words
        self.fraction = 0.0
        self.text = _word(words, "laying_out")

    def __call__(self, fraction: float | None = None, text: str | None = None) -> None:
        if self.callback is None:
            return
        if fraction is not None:
            self.fraction = max(self.fraction, min(fraction, 1.0))
        if text:
            self.text = text
        self.callback(self.fraction, self.text)


@dataclass
class PaperLayout:
    """The report laid out for A4: the document and where its tables fell (document units, the
    screen's logical pixels: y = 0 is the top of the first page's text area)."""

    document: Any  # QTextDocument
    width: float  # of the text area
    page_height: float  # of a page's text area (above the footer): page k is [k·h, (k+1)·h)
    pages: int
    tables: list[Any] = field(default_factory=list)  # QRectF of every top-level table, in order
    too_tall: list[int] = field(default_factory=list)  # indices into tables: taller than a page
    kinds: list[str] = field(default_factory=list)  # of each table: "headings" (column headings only),
    # "row" (a row of a table after the first, not right under its headings), or "table"
    blank_pages: list[int] = field(default_factory=list)  # pages nothing is drawn on (0: the first)
    moved: int = 0  # tables (or their heading) moved to the next page
    headings_repeated: int = 0  # column headings copied to the top of a page
    rows_cut: int = 0  # rows taller than a page, cut into rows that fit (:mod:`.pdf_split`)

    def page_of(self, y: float) -> int:
        return math.floor(y / self.page_height)

    def crosses(self, rect: Any) -> bool:
        """Whether a rectangle of the document runs over a page boundary."""
        return self.page_of(rect.top() + _EPS) != self.page_of(rect.bottom() - _EPS)


def _application() -> None:
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:  # the command line: fonts need an application object
        from PySide6.QtWidgets import QApplication  # (a widget made later in the process needs this kind)

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _application.app = QApplication([])  # type: ignore[attr-defined]  # kept alive


def _writer(device, title: str):
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter

    writer = QPdfWriter(device)
    writer.setTitle(title)
    writer.setCreator("replayer")
    writer.setPageSize(QPageSize(QPageSize.A4))
    writer.setPageMargins(QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Millimeter)
    writer.setResolution(300)
    return writer


_FIXED_UNITS: float | None = None  # set in the window's export process: the window's screen (use_units)


def use_units(units: float | None) -> None:
    """Lay out with ``units`` document units per point instead of this process's screen's (the
    window's export process lays out for the window's screen)."""
    global _FIXED_UNITS
    _FIXED_UNITS = units


def _units_per_point() -> float:
    """Document units (the screen's logical pixels, so that point sizes keep their size) per point."""
    from PySide6.QtGui import QGuiApplication

    if _FIXED_UNITS is not None:
        return _FIXED_UNITS
    screen = QGuiApplication.primaryScreen()
    return (screen.logicalDotsPerInch() if screen is not None else 96.0) / 72.0


def _a4_text_area() -> tuple[float, float]:
    """The width and height of an A4 page inside its margins, in document units."""
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize

    layout = QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait,
                         QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Millimeter)
    area = layout.paintRect(QPageLayout.Point)
    k = _units_per_point()
    return area.width() * k, area.height() * k


# --- keeping tables whole -----------------------------------------------------------------------

def _keeps_with_next(element) -> bool:
    return _is_column_headings(element) or (not _is_table(element) and element.blockFormat().headingLevel() > 0)


def _series_headings(elements: list, k: int):
    """The column headings of the row table ``elements[k]`` when it continues a table (the rows
    after the first), else None: the nearest column-heading table before it, with only row
    tables of the same number of columns between."""
    table = elements[k]
    j = k - 1
    while j >= 0 and _is_table(elements[j]) and elements[j].columns() == table.columns():
        if _is_column_headings(elements[j]):
            return elements[j] if j < k - 1 else None  # right before it: it is the first row
        j -= 1
    return None


def _open_top(table) -> bool:
    """Whether a table's first row has no top rule (a row of a long table: the one above draws it)."""
    from PySide6.QtGui import QTextFrameFormat

    return table.cellAt(0, 0).format().toTableCellFormat().topBorderStyle() == QTextFrameFormat.BorderStyle_None


def _close_up(elements: list) -> None:
    """Each row table right under another table one unit higher: Qt leaves a sliver of white
    between two tables, which broke the rows' side rules at every row."""
    for k, e in enumerate(elements):
        if k and _is_table(e) and _is_table(elements[k - 1]) and _open_top(e):
            fmt = e.frameFormat()
            fmt.setTopMargin(-1.0)
            e.setFrameFormat(fmt)


def _break_before(element, on: bool = True) -> None:
    from PySide6.QtGui import QTextCursor, QTextFormat, QTextFrameFormat

    policy = QTextFormat.PageBreak_AlwaysBefore if on else QTextFormat.PageBreak_Auto
    if _is_table(element):
        fmt = element.frameFormat()
        fmt.setPageBreakPolicy(policy)
        if on:
            fmt.setTopMargin(0.0)  # at a page's top: nothing above to close up to
        element.setFrameFormat(fmt)
        for column in range(element.columns()):  # a row at a page's top draws its own top rule
            cell = element.cellAt(0, column)
            cf = cell.format().toTableCellFormat()
            if on and cf.topBorderStyle() == QTextFrameFormat.BorderStyle_None:
                cf.setTopBorderStyle(QTextFrameFormat.BorderStyle_Solid)
                cell.setFormat(cf)
    else:
        fmt = element.blockFormat()
        fmt.setPageBreakPolicy(policy)
        QTextCursor(element).setBlockFormat(fmt)


def _has_break_before(element) -> bool:
    from PySide6.QtGui import QTextFormat

    fmt = element.frameFormat() if _is_table(element) else element.blockFormat()
    return bool(fmt.pageBreakPolicy() & QTextFormat.PageBreak_AlwaysBefore)


def _places(doc, elements: list, tick: Callable[[int], None] | None = None) -> list[tuple[float, float, float]]:
    """Each element's top (where a page break puts it: a block's top margin included, none at the
    document's start), the top of its text, and its bottom. ``tick(k)`` every 64 elements."""
    out = []
    for k, e in enumerate(elements):
        if tick is not None and not k % 64:
            tick(k)  # (progress, and a cancel is heard within a fraction of a second)
        r = _rect(doc, e)
        outer = r.top() if _is_table(e) else max(r.top() - e.blockFormat().topMargin(), 0.0)
        out.append((outer, r.top(), r.bottom()))
    return out


def _plan(elements: list, natural: list, real: list, height: float, forced: set[int] = frozenset()) -> list[tuple]:
    """The page breaks that keep the tables whole, top to bottom: ("break", element) or
    ("headings", row, column headings to copy above it).

    The elements' places are the real ones (``real``, the current layout) up to the first break
    planned; after it they are predicted from the layout without pages (``natural``: each
    element's height and its gap to the one before). A table taller than a page after a planned
    break ends the plan: where Qt breaks its lines cannot be predicted, so the next round starts
    from the real layout again."""
    def page(y: float) -> int:
        return math.floor(y / height)

    def next_page(y: float) -> float:
        return (page(y + _EPS) + 1) * height

    places: list[list[float]] = []  # [top, top of the text, bottom], as for _places
    plan: list[tuple] = []

    def tight(i: int) -> bool:
        """Whether table ``i`` ends so near its page's foot that Qt turns the page after it itself,
        so that a break after it would leave a page blank (Qt does so within a cell's padding)."""
        if i < 0 or not _is_table(elements[i]) or _is_column_headings(elements[i]):
            return False
        return not _has_break_before(elements[i]) and next_page(places[i][2] - _EPS) - places[i][2] < TIGHT

    def send_on(i: int) -> tuple:
        headings = _series_headings(elements, i)
        return ("headings", elements[i], headings) if headings is not None else ("break", elements[i])

    def j_of(headings, k: int) -> int:
        return next(i for i in range(k - 1, -1, -1) if elements[i] is headings)

    def put(k: int, top: float) -> None:  # element k at ``top``, keeping its own height
        places[k] = [top, top + natural[k][1] - natural[k][0], top + natural[k][2] - natural[k][0]]

    for k, e in enumerate(elements):
        if not plan:
            places.append(list(real[k]))
            if k and _has_break_before(e) and page(real[k][0] + _EPS) > page(real[k - 1][2] - _EPS) + 1:
                # Qt had already turned the page at the foot of the one before (it ended that close
                # to the foot), so the break turned another: a blank page. Start again, with the one
                # before sent to the next page (``forced``) so that this one follows it there.
                return [("jump", elements[k - 1])]
        else:
            places.append([0.0, 0.0, 0.0])
            after = places[k - 1][2] + natural[k][0] - natural[k - 1][2]
            put(k, next_page(after - 2 * _EPS) if _has_break_before(e) else after)
        top, text, bottom = places[k]
        if _is_column_headings(e):
            continue
        if id(e) in forced and not _has_break_before(e) and not (k and _is_column_headings(elements[k - 1])):
            headings = _series_headings(elements, k) if _is_table(e) else None
            plan.append(("headings", e, headings) if headings is not None else ("break", e))
            put(k, next_page(top))  # (under the headings: the rows below are placed again next round)
            break
        tall = bottom - text > height
        crosses = page(text + _EPS) != page(bottom - _EPS)
        if not _is_table(e):
            if crosses and not tall:  # a heading or paragraph at a page's foot: whole to the next
                plan.append(("break", e))
                put(k, next_page(top))
            continue
        headings = _series_headings(elements, k)
        starts_page = k > 0 and page(top + _EPS) != page(places[k - 1][2] - _EPS)
        fits = headings is not None and (natural[k][2] - natural[k][0]) + natural[j_of(headings, k)][2] \
            - natural[j_of(headings, k)][0] <= height
        if fits and ((crosses and not tall) or starts_page) and tight(k - 1):
            plan.append(send_on(k - 1))  # the one before ends at the very foot: it goes too
            break
        if fits and ((crosses and not tall) or starts_page):
            # a row after the first of its table: to the top of a page, under a copy of its headings
            j = next(i for i in range(k - 1, -1, -1) if elements[i] is headings)
            at = page(top + _EPS) * height if not crosses or starts_page else next_page(top)
            plan.append(("headings", e, headings))
            put(k, at + natural[j + 1][0] - natural[j][0])  # where the first row sits under them
            if tall:
                break
            continue
        if tall:
            if plan:
                break
            continue
        if not crosses:
            continue
        # the heading (and column headings) before it go with it, unless they would not fit
        first = k
        while first > 0 and _keeps_with_next(elements[first - 1]) and \
                bottom - places[first - 1][0] <= height and page(places[first - 1][0] + _EPS) < page(bottom - _EPS):
            first -= 1
        if _has_break_before(elements[first]):
            continue  # at the top of a page already: it cannot do better
        if first > 0 and tight(first - 1):
            plan.append(send_on(first - 1))  # the one before ends at the very foot: it goes too
            break
        plan.append(("break", elements[first]))
        shift = next_page(places[first][0]) - places[first][0]
        for i in range(first, k + 1):
            places[i] = [y + shift for y in places[i]]
    return plan


def keep_tables_whole(doc, width: float, height: float, *, forced: set[int] = frozenset(),
                      max_rounds: int = 50, progress: _Steps | None = None) -> tuple[int, int, Any]:
    """Lay ``doc`` out in pages of ``width`` × ``height`` and move every top-level table that would
    cross a page boundary to the next page, with the heading or column headings before it; a row
    of a table that then starts a page gets its column headings repeated above it. Tables taller
    than a page stay (Qt breaks them between lines). ``forced``: the ids of elements to send to
    the next page whatever their place. Returns (tables moved, headings repeated, None), or, when
    a break made a blank page, (…, the element before it) to start again with that one forced.

    Each round plans the breaks of the whole document from one layout (:func:`_plan`) and makes
    them in one edit (Qt lays the document out again after every change otherwise: a round per
    break took 25 s for a 70-page report); a round that finds nothing to move ends it. A round
    settles the document down to its last break: ``progress`` hears how far that is."""
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QTextCursor

    moved = repeated = 0
    # the progress: a round settles the document down to the last element it moves; while it
    # measures (two passes over the elements) it is guessed to settle as much of the rest as the
    # round before did (the first: half)
    settled, share = 0.0, 0.5

    def tick(sweep: int, n: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda k: progress(LAYOUT_SHARE * (settled + (1 - settled) * share * (sweep + k / n) / 2))

    for _ in range(max_rounds):
        elements = _elements(doc)
        n = max(len(elements), 1)
        doc.setPageSize(QSizeF(width, -1))  # no pages: each element's own height
        natural = _places(doc, elements, tick(0, n))
        doc.setPageSize(QSizeF(width, height))
        plan = _plan(elements, natural, _places(doc, elements, tick(1, n)), height, forced)
        if not plan:
            return moved, repeated, None
        if plan[0][0] == "jump":
            return moved, repeated, plan[0][1]
        if progress is not None:
            at = {id(e): k for k, e in enumerate(elements)}
            now = max(at.get(id(step[1]), 0) for step in plan) / n
            share = min(max((now - settled) / max(1 - settled, 1e-6), 0.05), 1.0)
            settled = max(settled, now)
            progress(LAYOUT_SHARE * settled)
        edit = QTextCursor(doc)
        edit.beginEditBlock()
        rows = []
        for step in plan:
            if step[0] == "break":
                _break_before(step[1])
                moved += 1
            else:
                _copy_table_before(doc, step[2], step[1])
                rows.append(step[1])
        edit.endEditBlock()
        if rows:  # the copies exist now: each goes to the top of a page
            elements = _elements(doc)
            before = {id(e): elements[i - 1] for i, e in enumerate(elements) if i and _is_table(e)}
            edit.beginEditBlock()
            for row in rows:
                copy = before.get(id(row))
                if copy is not None and _is_column_headings(copy):  # (always: a copy is a table)
                    _break_before(copy)
                    repeated += 1
            edit.endEditBlock()
    return moved, repeated, None  # not settled (never seen): printed as it is, a table may cross a page


def lay_out(html: str, *, progress: Progress | None = None, words: dict[str, str] | None = None) -> PaperLayout:
    """The HTML laid out on A4 pages (less the footer's band), its tables kept whole.
    ``progress``: see :data:`Progress` (or a :class:`_Steps`); ``words``: see :data:`WORDS`."""
    from PySide6.QtGui import QTextDocument

    from .split import split_tall_rows
    from ..shared.theme import ui_font

    steps = progress if isinstance(progress, _Steps) else _Steps(progress, words)
    words = words if words is not None else steps.words
    _application()
    width, height = _a4_text_area()
    body = math.floor(height - FOOTER)  # whole units: Qt's layout counts in 1/64ths, so no rounding
    forced: list[int] = []  # indices into the document's elements as read: sent to the next page
    for _ in range(20):
        doc = QTextDocument()
        doc.setDefaultFont(ui_font(9))
        doc.setHtml(html)
        # Lay the text out for the page: the page's printable area, less a footer line; without it
        # Qt laid the report out at a width of its own and the tables filled two thirds of the page.
        doc.setDocumentMargin(0)
        doc.setUndoRedoEnabled(False)
        rows_cut = split_tall_rows(doc, width, body, _word(words, "continued"))  # a row taller than a page: cut into rows that fit
        read = _elements(doc)
        _close_up(read)
        steps(text=_word(words, "laying_out"))
        moved, repeated, jump = keep_tables_whole(doc, width, body, forced={id(read[k]) for k in forced},
                                                  progress=steps)
        at = next((k for k, e in enumerate(read) if e is jump), None) if jump is not None else None
        if at is None or at in forced:
            break
        forced.append(at)
    out = PaperLayout(doc, width, body, doc.pageCount(), moved=moved, headings_repeated=repeated, rows_cut=rows_cut)
    used: set[int] = set()
    elements = _elements(doc)
    for k, element in enumerate(elements):
        r = _rect(doc, element)
        used.update(range(out.page_of(r.top() + _EPS), out.page_of(r.bottom() - _EPS) + 1))
        if _is_table(element):
            if r.height() > out.page_height:
                out.too_tall.append(len(out.tables))
            out.tables.append(r)
            out.kinds.append("headings" if _is_column_headings(element)
                             else "row" if _series_headings(elements, k) is not None else "table")
    out.blank_pages = [k for k in range(out.pages) if k not in used]
    return out


def draw_pdf(paper: PaperLayout, title: str, footer_text: str, steps: _Steps | None = None,
             words: dict[str, str] | None = None) -> bytes:
    """The laid-out report drawn page by page with the footer: the PDF's bytes (in memory: the
    caller writes them, checked, where they go). ``words``: see :data:`WORDS`."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QPainter

    from ..shared.theme import ui_font

    steps = steps or _Steps(None, words)
    words = words if words is not None else steps.words
    out = QByteArray()
    buffer = QBuffer(out)
    buffer.open(QIODevice.WriteOnly)
    writer = _writer(buffer, title)
    text, width, body = paper.document, paper.width, paper.page_height
    scale = writer.resolution() / (72.0 * _units_per_point())  # document units -> the writer's pixels
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(errno.EIO, "the PDF could not be drawn")
    try:
        footer_font = ui_font(7.5)
        for i in range(paper.pages):
            steps(LAYOUT_SHARE + (1 - LAYOUT_SHARE) * i / paper.pages,
                  _word(words, "writing", page=i + 1, pages=paper.pages))
            if i:
                writer.newPage()
            painter.save()
            painter.scale(scale, scale)
            painter.translate(0, -i * body)
            text.drawContents(painter, QRectF(0, i * body, width, body))
            painter.restore()
            # the footer in the writer's own pixels (a font's points are the writer's there)
            painter.setFont(footer_font)
            painter.setPen(QColor("#6b7385"))
            top, w = (body + 4) * scale, width * scale
            painter.drawLine(QPointF(0, top), QPointF(w, top))
            painter.drawText(QRectF(0, top + 2 * scale, w * 0.78, (FOOTER - 6) * scale), Qt.AlignLeft | Qt.AlignVCenter,
                             footer_text or title)
            painter.drawText(QRectF(w * 0.78, top + 2 * scale, w * 0.22, (FOOTER - 6) * scale),
                             Qt.AlignRight | Qt.AlignVCenter, _word(words, "page", page=i + 1, pages=paper.pages))
    finally:
        painter.end()
    del writer  # finishes the PDF (its trailer) in the buffer
    buffer.close()
    data = bytes(out)
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-64:]:
        raise OSError(errno.EIO, "the PDF was not made whole")
    return data


def html_to_pdf(html: str, path: str | os.PathLike, *, title: str = "", footer_text: str = "",
                progress: Progress | None = None, words: dict[str, str] | None = None) -> Path:
    """Write the HTML as an A4 PDF at ``path``: laid out (:func:`lay_out`), then drawn page by page
    with the footer. The file is written beside ``path`` and renamed over it at the end, so that a
    failed or cancelled export (``progress`` raising :class:`Cancelled`) leaves no half file and
    an older file of that name as it was.

    The window runs this in a process of its own (:mod:`.pdf_job`, which says why not a thread).
    ``words``: the writer's words in the report's language (:data:`WORDS`; default English)."""
    steps = _Steps(progress, words)
    p = Path(path)
    if not p.parent.is_dir():  # said before the layout's seconds, and before Qt's painter complains
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(p.parent))
    paper = lay_out(html, progress=steps, words=words)
    data = draw_pdf(paper, title, footer_text, steps, words)
    # the file: every write checked, its size on the disk too, renamed over an older one only when
    # whole (Qt's own file writing drops its errors: a full disk left a 4 KB PDF for a 26 KB one)
    write_atomically(p, data)
    steps(1.0, _word(words, "written"))
    return p
