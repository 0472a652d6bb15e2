"""The timeline: the match left to right, one lane per player, findings as badges.

A :class:`TimelineView` (a ``QGraphicsView``) shows one :class:`TimelineItem` whose ``paint``
draws only the exposed range of events. Rows, top to bottom: turns (coloured by turn player),
phases, Battle Phase steps and Damage Step timings (Duel Masters: attack sub-steps), lane A,
the table lane (lines with no player: ``resolve``, ``battle``, chains as brackets), lane B, and
an axis of line numbers. The row names stay in a fixed gutter on the left.

Level of detail, by pixels per event (``ppe``):

* ``ppe >= LABELS_PPE``: markers, labels (placed so they never overlap), badges, note pins,
  chain brackets with link numbers and the resolution order;
* ``MARKERS_PPE <= ppe < LABELS_PPE``: markers, badges and brackets, no labels;
* below: per-pixel aggregates from the document's pyramid (density per lane, worst finding
  per bin, Battle Phase / Damage Step bands), so a full zoom-out of 100,000 events costs as
  much as a few thousand rectangles.
"""

from __future__ import annotations

import logging
import math
from bisect import bisect_left, bisect_right

from PySide6.QtCore import QEvent, QLineF, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen,
                           QPolygonF)
from PySide6.QtWidgets import (QFrame, QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem,
                               QToolTip, QWidget)

from .document import CATEGORY, F_BATTLE, F_CHAIN, F_DAMAGE, F_NOTE, LANES, SEVERITY_RANK, Document
from ..reviews import DISMISSED
from ..games import get as get_game
from ..states import Segment
from .theme import LIGHT, Theme, ui_font

log = logging.getLogger("replayer.gui")

LEFT = 96  # the gutter with the row names
RIGHT = 24
LABELS_PPE = 24.0
MARKERS_PPE = 6.0
MAX_PPE = 240.0
DEFAULT_PPE = 44.0
RANK_NAME = {3: "error", 2: "warning", 1: "info"}

#: marker category -> (legend name, shape)
MARKERS = {
    "summon": ("summon / charge", "square"),
    "set": ("set (face-down)", "square-hollow"),
    "attack": ("attack declaration", "triangle"),
    "activate": ("activation / trigger / declaration", "circle"),
    "resolved": ("ability resolves (dm)", "circle-hollow"),
    "damage": ("damage / shield break", "diamond"),
    "lp": ("Life Points stated", "diamond-hollow"),
    "stat": ("ATK / position / flip", "triangle-up"),
    "destroy": ("destroyed", "cross"),
    "move": ("card moves (GY, hand, banished…)", "small-square"),
    "negate": ("negated", "slash"),
    "block": ("block / guardman / redirect", "shield"),
    "tap": ("tap / untap", "bar"),
    "draw": ("draw", "dot-hollow"),
    "pass": ("pass", "dot"),
    "resolve": ("chain resolves", "resolve"),
    "battle": ("battle (dm)", "battle"),
    "end": ("attack ends / Battle Phase ended", "end"),
    "win": ("direct attack / win", "star"),
    "structure": ("turn / phase / step / timing line", "tick"),
}


#: short forms of band labels, used before eliding when the full one does not fit
SHORT_BAND_LABELS = {
    "start of the Damage Step": ("DS start", "start"), "before damage calculation": ("before calc", "pre-calc", "pre"),
    "damage calculation": ("calc",), "after damage calculation": ("after calc", "post-calc", "post"),
    "end of the Damage Step": ("DS end", "end"), "Damage Step": ("Damage",),
    "DS start": ("start",), "before calc": ("pre-calc", "pre"), "after calc": ("post-calc", "post"),
    "DS end": ("end",), "Battle Step": ("Battle",),
    "Start Step": ("Start",), "End Step": ("End",), "Battle Phase": ("Battle",), "Main Phase 1": ("Main 1",),
    "Main Phase 2": ("Main 2",), "Draw Phase": ("Draw",), "Standby Phase": ("Standby",), "End Phase": ("End",),
}


def marker_color(theme: Theme, category: str) -> QColor:
    key = {"set": "summon", "resolved": "activate", "lp": "damage", "negate": "destroy", "tap": "block",
           "win": "damage", "end": "structure", "battle": "attack"}.get(category, category)
    return QColor(theme.marker.get(key, theme.marker["structure"]))


def draw_marker(p: QPainter, category: str, x: float, y: float, r: float, theme: Theme) -> None:
    """Draw one event marker centred on (x, y) with radius ``r`` (shared with the legend)."""
    shape = MARKERS.get(category, ("", "dot"))[1]
    c = marker_color(theme, category)
    pen = QPen(c, max(1.2, r / 4))
    pen.setJoinStyle(Qt.MiterJoin)
    if shape.endswith("hollow") or shape in ("cross", "slash", "end", "tick", "resolve", "battle"):
        p.setBrush(Qt.NoBrush)
        p.setPen(pen)
    else:
        p.setBrush(c)
        p.setPen(Qt.NoPen)
    if shape in ("square", "square-hollow"):
        p.drawRect(QRectF(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7))
    elif shape == "small-square":
        p.drawRect(QRectF(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2))
    elif shape == "triangle":
        p.drawPolygon(QPolygonF([QPointF(x - r * 0.8, y - r), QPointF(x + r, y), QPointF(x - r * 0.8, y + r)]))
    elif shape == "triangle-up":
        p.drawPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y + r * 0.8), QPointF(x - r, y + r * 0.8)]))
    elif shape in ("circle", "circle-hollow"):
        p.drawEllipse(QPointF(x, y), r * 0.9, r * 0.9)
    elif shape in ("diamond", "diamond-hollow"):
        p.drawPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y), QPointF(x, y + r), QPointF(x - r, y)]))
    elif shape == "cross":
        pen.setWidthF(max(1.6, r / 3))
        p.setPen(pen)
        d = r * 0.75
        p.drawLine(QLineF(x - d, y - d, x + d, y + d))
        p.drawLine(QLineF(x - d, y + d, x + d, y - d))
    elif shape == "slash":
        p.drawEllipse(QPointF(x, y), r * 0.8, r * 0.8)
        p.drawLine(QLineF(x - r * 0.55, y + r * 0.55, x + r * 0.55, y - r * 0.55))
    elif shape == "shield":
        path = QPainterPath()
        path.moveTo(x - r * 0.8, y - r * 0.8)
        path.lineTo(x + r * 0.8, y - r * 0.8)
        path.lineTo(x + r * 0.8, y + r * 0.1)
        path.quadTo(x + r * 0.6, y + r * 0.8, x, y + r)
        path.quadTo(x - r * 0.6, y + r * 0.8, x - r * 0.8, y + r * 0.1)
        path.closeSubpath()
        p.drawPath(path)
    elif shape == "bar":
        p.drawRect(QRectF(x - r * 0.3, y - r, r * 0.6, r * 2))
    elif shape in ("dot", "dot-hollow"):
        p.drawEllipse(QPointF(x, y), r * 0.45, r * 0.45)
    elif shape == "resolve":
        p.drawArc(QRectF(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6), 40 * 16, 280 * 16)
        p.setBrush(c)
        p.setPen(Qt.NoPen)
        p.drawPolygon(QPolygonF([QPointF(x + r * 0.55, y - r * 0.95), QPointF(x + r * 1.0, y - r * 0.35),
                                 QPointF(x + r * 0.25, y - r * 0.35)]))
    elif shape == "battle":
        pen.setWidthF(max(1.8, r / 3))
        p.setPen(pen)
        p.drawLine(QLineF(x - r, y - r, x + r, y + r))
        p.drawLine(QLineF(x - r, y + r, x + r, y - r))
        p.drawLine(QLineF(x - r, y - r * 0.4, x - r * 0.4, y - r))
        p.drawLine(QLineF(x + r, y - r * 0.4, x + r * 0.4, y - r))
    elif shape == "end":
        p.drawLine(QLineF(x, y - r, x, y + r))
        p.drawLine(QLineF(x - r * 0.5, y - r, x + r * 0.5, y - r))
        p.drawLine(QLineF(x - r * 0.5, y + r, x + r * 0.5, y + r))
    elif shape == "star":
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append(QPointF(x + rr * math.cos(a), y + rr * math.sin(a)))
        p.drawPolygon(QPolygonF(pts))
    elif shape == "tick":
        p.drawLine(QLineF(x, y - r * 0.6, x, y + r * 0.6))


def draw_badge(p: QPainter, x: float, y: float, r: float, severity: str, theme: Theme, *,
               dismissed: bool = False, count: int = 1) -> None:
    """A finding badge: a disc in the severity colour with a glyph (a ring once dismissed)."""
    c = QColor(theme.severity.get(severity, theme.severity["info"]))
    if dismissed:
        p.setBrush(QColor(theme.base))
        p.setPen(QPen(QColor(theme.dismissed), 1.5))
    else:
        p.setBrush(c)
        p.setPen(QPen(QColor(theme.base), 1.2))
    p.drawEllipse(QPointF(x, y), r, r)
    if r >= 5:
        glyph = "i" if severity == "info" else "!"
        if count > 1:
            glyph = str(min(count, 9))
        p.setFont(_badge_font(int(r * 1.5)))
        p.setPen(QColor(theme.dismissed) if dismissed else QColor("#ffffff"))
        p.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignCenter, glyph)


_BADGE_FONTS: dict[int, QFont] = {}


def _badge_font(pixels: int) -> QFont:
    f = _BADGE_FONTS.get(pixels)
    if f is None:
        f = QFont(ui_font())
        f.setPixelSize(max(pixels, 6))
        f.setBold(True)
        _BADGE_FONTS[pixels] = f
    return f


def draw_pin(p: QPainter, x: float, y: float, theme: Theme, size: float = 5.0) -> None:
    """A note pin: a stem with a round head."""
    p.setPen(QPen(QColor(theme.note_text), 1.2))
    p.drawLine(QLineF(x, y, x, y - size * 1.6))
    p.setBrush(QColor(theme.note))
    p.setPen(QPen(QColor(theme.note_text), 1))
    p.drawEllipse(QPointF(x, y - size * 1.6 - size * 0.6), size * 0.75, size * 0.75)


class TimelineItem(QGraphicsItem):
    """The one scene item: paints the exposed part of the timeline."""

    def __init__(self, view: "TimelineView"):
        super().__init__()
        self.view = view
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self._rect = QRectF(0, 0, 100, 100)

    def set_rect(self, rect: QRectF) -> None:
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = QRectF(rect)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        try:
            self.view.paint_timeline(painter, QRectF(option.exposedRect))
        except Exception as e:  # a paint error must not escape into Qt (it would repeat every frame)
            log.debug("timeline paint failed", exc_info=True)
            self.view.report_problem(f"the timeline could not be drawn ({type(e).__name__}: {e})")


class Rows:
    """Vertical layout of the timeline, recomputed when the view's height changes."""

    def __init__(self, timings: bool, height: float):
        y = 4.0
        self.turn = (y, 22.0)
        y += 22 + 1
        self.phase = (y, 18.0)
        y += 18 + 1
        self.step = (y, 18.0)  # ygo steps / dm sub-steps
        y += 18 + 1
        if timings:  # the game has a row of Damage Step timings
            self.timing = (y, 18.0)
            y += 18 + 1
        else:
            self.timing = None
        y += 4
        axis = 18.0
        avail = max(height - y - axis - 2, 150.0)
        # the table lane needs room for a chain bracket, its markers and a label row (72 px)
        m = max(avail * 0.24, 72.0)
        a = max((avail - m) / 2, 60.0)
        self.lanes = {"A": (y, a), "M": (y + a, m), "B": (y + a + m, a)}
        self.axis = (y + a + m + a, axis)
        self.height = self.axis[0] + axis + 2
        self.bands_bottom = self.lanes["A"][0] - 4

    def marker_y(self, lane: str) -> float:
        top, h = self.lanes[lane]
        if lane == "M":
            return self.bracket_y() + 24
        # pins, the marker and two label rows (about 64 px), centred in the lane
        return top + max(22.0, (h - 64) / 2 + 22)

    def lane_bounds(self, lane: str) -> tuple[float, float]:
        """Top and bottom of ``lane``: its labels stay inside (B's lane never shows the table's)."""
        top, h = self.lanes[lane]
        return top, top + h

    def label_y(self, lane: str, row: int) -> float:
        """Top of the label row ``row`` (0 or 1) under the markers of ``lane``."""
        return self.marker_y(lane) + 10 + row * 14

    def bracket_y(self) -> float:
        top, h = self.lanes["M"]
        return top + max(16.0, (h - 70) / 2 + 16)


class TimelineView(QGraphicsView):
    """The timeline widget. Signals: ``eventActivated(int)`` when the user picks an event."""

    eventActivated = Signal(int)
    viewChanged = Signal()
    problem = Signal(str)  # something could not be drawn (said once per document)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.reviews = None
        #: the label rectangles of the last paint (scene coordinates), and what they may not meet
        self.painted_labels: list[QRectF] = []
        self._taken: list[QRectF] = []
        self.theme: Theme = LIGHT
        self.ppe = DEFAULT_PPE
        self.selected = -1
        self.fit_mode = True
        self.rows = Rows(True, 300)
        self._scene = QGraphicsScene(self)
        self.item = TimelineItem(self)
        self._scene.addItem(self.item)
        self.setScene(self._scene)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setViewportUpdateMode(QGraphicsView.FullViewportUpdate)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setOptimizationFlags(QGraphicsView.DontSavePainterState | QGraphicsView.DontAdjustForAntialiasing)
        self.setCacheMode(QGraphicsView.CacheNone)
        self.setFrameShape(QFrame.NoFrame)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMinimumHeight(240)
        self._font = ui_font(8.5)
        self._small = ui_font(7.5)
        self._bold = QFont(ui_font(8.5))
        self._bold.setBold(True)
        self._fm = QFontMetricsF(self._font)
        self._fm_small = QFontMetricsF(self._small)
        self._fm_bold = QFontMetricsF(self._bold)
        self._widths: dict[str, float] = {}
        self._seg_cache: dict[int, tuple] = {}
        self._problem_said = False
        self._press: QPoint | None = None
        self._press_scroll = 0
        self._dragging = False
        self._hover = -2
        self.horizontalScrollBar().valueChanged.connect(lambda _: self.viewChanged.emit())
        self._update_scene()

    # ---- feeding --------------------------------------------------------------------------------
    def set_document(self, doc: Document | None, reviews=None, *, keep_view: bool = False) -> None:
        old_center = self.center_index() if keep_view and self.doc is not None else None
        self.doc = doc
        self.reviews = reviews
        self._widths.clear()
        self._seg_cache.clear()
        self._problem_said = False
        self.rows = Rows(doc.replay.has_timings if doc else True, self.viewport().height())
        self.selected = min(self.selected, len(doc.events) - 1) if doc and keep_view else -1
        if keep_view and old_center is not None and doc is not None:
            self._update_scene()
            self.center_on(min(old_center, max(len(doc.events) - 1, 0)))
        else:
            self.fit_mode = True
            self._update_scene()
        self.viewport().update()
        self.viewChanged.emit()

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.setBackgroundBrush(QColor(theme.base))
        self.viewport().update()

    def report_problem(self, message: str) -> None:
        if not self._problem_said:
            self._problem_said = True
            self.problem.emit(message)

    def detail_level(self) -> str:
        """What the timeline draws at the current zoom, in words."""
        if self.ppe >= LABELS_PPE:
            return "markers and labels"
        if self.ppe >= MARKERS_PPE:
            return "markers"
        return f"{1 / self.ppe:,.0f} events per pixel"

    def refresh(self) -> None:
        """Repaint (verdicts changed)."""
        self.viewport().update()

    # ---- geometry ---------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.doc.events) if self.doc is not None else 0

    def fit_ppe(self) -> float:
        width = max(self.viewport().width() - LEFT - RIGHT, 50)
        return width / max(self.n, 1)

    def min_ppe(self) -> float:
        return min(self.fit_ppe(), DEFAULT_PPE)

    def x_of(self, index: int) -> float:
        """Scene x of the centre of event ``index``."""
        return LEFT + (index + 0.5) * self.ppe

    def index_at(self, scene_x: float) -> int:
        if self.n == 0:
            return -1
        return max(0, min(self.n - 1, int((scene_x - LEFT) // self.ppe)))

    def _update_scene(self) -> None:
        if self.fit_mode:
            self.ppe = min(self.fit_ppe(), MAX_PPE) if self.n else DEFAULT_PPE
        height = max(self.viewport().height(), 1)
        self.rows = Rows(self.doc.replay.has_timings if self.doc else True, height)
        width = LEFT + self.n * self.ppe + RIGHT
        rect = QRectF(0, 0, max(width, self.viewport().width()), height)
        self.item.set_rect(rect)
        self._scene.setSceneRect(rect)

    def visible_range(self) -> tuple[int, int]:
        """First and last event index (inclusive) in view."""
        left = self.horizontalScrollBar().value() + LEFT
        right = self.horizontalScrollBar().value() + self.viewport().width()
        return self.index_at(left), self.index_at(right)

    def center_index(self) -> int:
        a, b = self.visible_range()
        return (a + b) // 2

    def set_pixels_per_event(self, ppe: float, anchor_x: float | None = None) -> None:
        """Zoom; keeps the event under viewport x ``anchor_x`` (default: the centre) in place."""
        if self.n == 0:
            return
        ppe = max(self.min_ppe(), min(MAX_PPE, ppe))
        bar = self.horizontalScrollBar()
        if anchor_x is None:
            anchor_x = LEFT + (self.viewport().width() - LEFT) / 2
        scene_x = bar.value() + anchor_x
        pos = (scene_x - LEFT) / self.ppe  # in events
        self.ppe = ppe
        self.fit_mode = abs(ppe - self.fit_ppe()) < 1e-6
        self._update_scene()
        bar.setValue(int(round(LEFT + pos * ppe - anchor_x)))
        self.viewport().update()
        self.viewChanged.emit()

    def zoom(self, factor: float, anchor_x: float | None = None) -> None:
        self.set_pixels_per_event(self.ppe * factor, anchor_x)

    def fit_match(self) -> None:
        self.fit_mode = True
        self._update_scene()
        self.horizontalScrollBar().setValue(0)
        self.viewport().update()
        self.viewChanged.emit()

    def center_on(self, index: int) -> None:
        bar = self.horizontalScrollBar()
        target = self.x_of(index) - LEFT - (self.viewport().width() - LEFT) / 2
        bar.setValue(int(round(target)))

    def ensure_visible(self, index: int, margin: float = 60) -> None:
        bar = self.horizontalScrollBar()
        x = self.x_of(index)
        left = bar.value() + LEFT + margin
        right = bar.value() + self.viewport().width() - margin
        if x < left or x > right:
            self.center_on(index)

    def set_selected(self, index: int, *, ensure_visible: bool = True) -> None:
        self.selected = index
        if ensure_visible and index >= 0:
            self.ensure_visible(index)
        self.viewport().update()

    def resizeEvent(self, event) -> None:
        center = self.center_index() if self.n and not self.fit_mode else None
        super().resizeEvent(event)
        self._update_scene()
        if center is not None:
            self.center_on(center)
        self.viewChanged.emit()

    # ---- badges (also used by tests and exports) -----------------------------------------------
    def badge_center(self, finding: int) -> QPointF | None:
        """Scene position of the badge that shows finding ``finding`` (at the detailed levels)."""
        doc = self.doc
        if doc is None or not 0 <= finding < len(doc.findings):
            return None
        i = doc.finding_event[finding]
        if doc.finding_exact[finding]:
            lane = doc.lane[i]
            r = self._marker_r()
            return QPointF(self.x_of(i) + r * 0.9, self.rows.marker_y(lane) - r - 3)
        x = self.x_of(i) + self.ppe / 2 if i >= 0 else LEFT + 8
        return QPointF(x, self.rows.marker_y("M"))

    def _marker_r(self) -> float:
        return 7.0 if self.ppe >= LABELS_PPE else max(3.0, min(6.0, self.ppe * 0.4))

    # ---- painting ---------------------------------------------------------------------------------
    def paint_timeline(self, p: QPainter, exposed: QRectF) -> None:
        t = self.theme
        rows = self.rows
        full_w = exposed.right() + 2
        left = exposed.left() - 2
        # backgrounds of the rows
        p.setPen(Qt.NoPen)
        for lane in LANES:
            top, h = rows.lanes[lane]
            p.setBrush(QColor(t.lane_alt if lane == "M" else t.lane))
            p.drawRect(QRectF(left, top, full_w - left, h))
        p.setPen(QPen(QColor(t.grid), 1))
        for lane in ("M", "B"):
            y = rows.lanes[lane][0]
            p.drawLine(QLineF(left, y, full_w, y))
        if self.doc is None or self.n == 0:
            p.setPen(QColor(t.dim))
            p.setFont(self._font)
            p.drawText(QRectF(LEFT, rows.lanes["M"][0], max(exposed.width(), 400), 30), Qt.AlignLeft | Qt.AlignVCenter,
                       "  No events." if self.doc is not None else "  Open a .duel log (Ctrl+O) or drop one here.")
            return
        i0 = max(0, int((exposed.left() - LEFT) // self.ppe) - 1)
        i1 = min(self.n, int((exposed.right() - LEFT) // self.ppe) + 2)
        # the visible scene rect, for labels that stick to the left edge
        vis_left = self.horizontalScrollBar().value() + LEFT
        if self.ppe >= MARKERS_PPE:
            self._paint_bands(p, i0, i1, vis_left, exposed)
            self._paint_selection(p)
            self._paint_detail(p, i0, i1)
        else:
            p.setRenderHint(QPainter.Antialiasing, False)  # whole-pixel rectangles: no need, and far faster
            self._paint_bands_coarse(p, i0, i1, vis_left, exposed)
            self._paint_selection(p)
            self._paint_coarse(p, i0, i1)
            p.setRenderHint(QPainter.Antialiasing, True)
        self._paint_axis(p, i0, i1)

    def _text_w(self, text: str, fm: QFontMetricsF | None = None) -> float:
        key = text if fm is None else f"\x00{id(fm)}{text}"
        w = self._widths.get(key)
        if w is None:
            w = self._widths[key] = (fm or self._fm).horizontalAdvance(text)
        return w

    def _bounds(self, seq: list[Segment]) -> tuple[list[int], list[int]]:
        """Starts and ends of a segment list (cached per list: bisect needs them)."""
        key = id(seq)
        hit = self._seg_cache.get(key)
        if hit is None or hit[0] is not seq:
            hit = (seq, [x.start for x in seq], [x.end for x in seq])
            self._seg_cache[key] = hit
        return hit[1], hit[2]

    def _segment_range(self, seq: list[Segment], i0: int, i1: int) -> tuple[int, int]:
        """Indices [j0, j1) of the segments that overlap events [i0, i1)."""
        if not seq:
            return 0, 0
        starts, ends = self._bounds(seq)
        return bisect_right(ends, i0), bisect_left(starts, i1)

    def _segments(self, seq: list[Segment], i0: int, i1: int) -> list[Segment]:
        j0, j1 = self._segment_range(seq, i0, i1)
        return seq[j0:j1]

    def _band(self, p: QPainter, s: Segment, y: float, h: float, fill: QColor, text: str, vis_left: float,
              font: QFont, fm: QFontMetricsF, text_color: QColor, border: QColor) -> None:
        x0 = LEFT + s.start * self.ppe
        x1 = LEFT + s.end * self.ppe
        rect = QRectF(x0 + 0.5, y, max(x1 - x0 - 1.0, 0.8), h)
        p.setPen(QPen(border, 1) if rect.width() > 4 else Qt.NoPen)
        p.setBrush(fill)
        p.drawRect(rect)
        lx = max(x0 + 5, vis_left + 5)
        room = x1 - 4 - lx
        if room >= 14:
            if fm.horizontalAdvance(text) > room:  # "before calc" reads better than "before…"
                forms = SHORT_BAND_LABELS.get(text, ())
                text = next((f for f in forms if fm.horizontalAdvance(f) <= room), forms[-1] if forms else text)
            shown = fm.elidedText(text, Qt.ElideRight, room)
            if shown and shown != "…":
                p.setFont(font)
                p.setPen(text_color)
                p.drawText(QRectF(lx, y, room, h), Qt.AlignVCenter | Qt.AlignLeft, shown)

    def _turn_label(self, s: Segment) -> str:
        name = self.doc.players.get(s.player or "", s.player or "") if self.doc else ""
        who = s.player or "?"
        if name and name != who:
            who = f"{who} {name}"
        return f"Turn {s.name} · {who}"

    def _paint_bands(self, p: QPainter, i0: int, i1: int, vis_left: float, exposed: QRectF) -> None:
        t, r, doc = self.theme, self.rows, self.doc
        border = QColor(t.grid)
        text = QColor(t.text)
        y, h = r.turn
        for s in self._segments(doc.replay.turns, i0, i1):
            self._band(p, s, y, h, QColor(t.turn.get(s.player, t.turn[None])), self._turn_label(s), vis_left,
                       self._bold, self._fm_bold, QColor(t.turn_text), border)
        y, h = r.phase
        for s in self._segments(doc.replay.phases, i0, i1):
            fill = QColor(t.phase_battle if s.name in ("battle", "attack") else t.phase)
            self._band(p, s, y, h, fill, s.label or s.name, vis_left, self._small, self._fm_small, text, border)
        y, h = r.step
        if doc.replay.step_kind == "substep":
            for s in self._segments(doc.replay.substeps, i0, i1):
                label = s.label if (s.end - s.start) * self.ppe > 110 else s.name
                self._band(p, s, y, h, QColor(t.substep), label, vis_left, self._small, self._fm_small, text, border)
        else:
            for s in self._segments(doc.replay.steps, i0, i1):
                fill = QColor(t.timing if s.name == "damage" else t.step)
                self._band(p, s, y, h, fill, s.label, vis_left, self._small, self._fm_small,
                           QColor(t.timing_text) if s.name == "damage" else text, border)
            if r.timing is not None:
                y, h = r.timing
                for s in self._segments(doc.replay.timings, i0, i1):
                    self._band(p, s, y, h, QColor(t.timing), s.label, vis_left, self._small, self._fm_small,
                               QColor(t.timing_text), border)
        # faint separators at turn starts across the lanes
        p.setPen(QPen(border, 1, Qt.DashLine))
        top = r.lanes["A"][0]
        bottom = r.lanes["B"][0] + r.lanes["B"][1]
        for s in self._segments(doc.replay.turns, i0, i1):
            x = LEFT + s.start * self.ppe
            p.drawLine(QLineF(x, top, x, bottom))

    def _paint_selection(self, p: QPainter) -> None:
        if self.selected < 0 or self.doc is None:
            return
        x = self.x_of(self.selected)
        w = max(self.ppe, 3.0)
        p.setPen(Qt.NoPen)
        sel = QColor(self.theme.selection)
        p.setBrush(sel)
        top = self.rows.lanes["A"][0]
        bottom = self.rows.lanes["B"][0] + self.rows.lanes["B"][1]
        p.drawRect(QRectF(x - w / 2, top, w, bottom - top))
        edge = QColor(self.theme.highlight)
        p.setPen(QPen(edge, 1.5))
        p.drawLine(QLineF(x, self.rows.turn[0], x, top))
        p.drawLine(QLineF(x, bottom, x, bottom + 4))

    def _verdict_dismissed(self, k: int) -> bool:
        if self.reviews is None or self.doc is None:
            return False
        return self.reviews.get(self.doc.findings[k]).status == DISMISSED

    def _badge_severity(self, ks: list[int]) -> tuple[str, bool]:
        """The badge of a group of findings: the worst open one; dismissed if all are."""
        open_ = [k for k in ks if not self._verdict_dismissed(k)]
        pool = open_ or ks
        worst = max(pool, key=lambda k: SEVERITY_RANK[self.doc.findings[k].severity.value])
        return self.doc.findings[worst].severity.value, not open_

    def _paint_detail(self, p: QPainter, i0: int, i1: int) -> None:
        t, rows, doc = self.theme, self.rows, self.doc
        events = doc.events
        r = self._marker_r()
        labels = self.ppe >= LABELS_PPE
        # labels never overlap one another nor another event's marker: markers are taken first
        self._taken = []
        self.painted_labels = []
        if labels:
            for i in range(i0, i1):
                if CATEGORY.get(events[i].kind, "structure") != "structure":
                    x, y = self.x_of(i), rows.marker_y(doc.lane[i])
                    self._taken.append(QRectF(x - r - 1, y - r - 1, 2 * r + 2, 2 * r + 2))
        # chains: brackets in the table lane
        self._paint_chains(p, i0, i1, labels)
        p.setFont(self._small)
        text_color = QColor(t.text)
        for i in range(i0, i1):
            e = events[i]
            lane = doc.lane[i]
            cat = CATEGORY.get(e.kind, "structure")
            x = self.x_of(i)
            y = rows.marker_y(lane)
            if cat == "structure":
                # the band shows it; a small tick on the table lane keeps every event steppable
                p.setPen(QPen(QColor(t.marker["structure"]), 1))
                p.drawLine(QLineF(x, rows.lanes["M"][0] + rows.lanes["M"][1] - 6, x,
                                  rows.lanes["M"][0] + rows.lanes["M"][1] - 2))
                continue
            draw_marker(p, cat, x, y, r, t)
            if i == self.selected:
                p.setBrush(Qt.NoBrush)
                p.setPen(QPen(QColor(t.highlight), 2))
                p.drawEllipse(QPointF(x, y), r + 4, r + 4)
            if e.notes:
                draw_pin(p, x - r - 3, y - r + 2, t, 4.0 if labels else 3.0)
            if labels:
                self._paint_label(p, i, x, lane, text_color)
        # badges last, over everything
        for i in range(i0, i1):
            ks = doc.event_findings.get(i)
            if ks:
                sev, dismissed = self._badge_severity(ks)
                y = rows.marker_y(doc.lane[i])
                draw_badge(p, self.x_of(i) + r * 0.9, y - r - 3, 6.5 if labels else 4.5, sev, t,
                           dismissed=dismissed, count=len(ks) if labels else 1)
            gs = doc.gap_findings.get(i)
            if gs:
                sev, dismissed = self._badge_severity(gs)
                x = self.x_of(i) + self.ppe / 2 if i >= 0 else LEFT + 8
                draw_badge(p, x, rows.marker_y("M"), 6.5 if labels else 4.5, sev, t, dismissed=dismissed,
                           count=len(gs) if labels else 1)
        gs = doc.gap_findings.get(-1)
        if gs and i0 == 0:
            sev, dismissed = self._badge_severity(gs)
            draw_badge(p, LEFT + 8, rows.marker_y("M"), 6.5 if labels else 4.5, sev, t, dismissed=dismissed)

    def _paint_label(self, p: QPainter, i: int, x: float, lane: str, color: QColor) -> None:
        """Label under a marker; alternate rows within a lane, width bounded by the neighbours."""
        doc = self.doc
        row = doc.lane_rank(i) % 2
        prev2, next2 = doc.lane_neighbour(i, -2), doc.lane_neighbour(i, 2)
        room_r = (next2 - i) * self.ppe if next2 < self.n else 400.0
        room_l = (i - prev2) * self.ppe if prev2 >= 0 else 400.0
        width = min(room_l, room_r, 320.0) - 6
        if lane == "M":
            width = min(width, 200.0)
        if width < 16:
            return
        text = doc.label(i)
        gutter = self.horizontalScrollBar().value() + LEFT + 2
        # its own row first, then the other, each time in the room the labels placed so far leave
        # there (elided to fit); a label that fits in neither is left to the tooltip
        for r in (row, 1 - row):
            y = self.rows.label_y(lane, r)
            lo, hi = gutter, x + width
            for o in self._taken:
                if o.bottom() <= y or o.top() >= y + 14:
                    continue
                if o.center().x() <= x:
                    lo = max(lo, o.right() + 8)
                else:
                    hi = min(hi, o.left() - 8)
            room = min(width, hi - lo - 2)
            if room < 24:
                continue
            shown = self._fm_small.elidedText(text, Qt.ElideRight, room)
            if not shown or shown == "…":
                continue
            w = self._text_w(shown, self._fm_small)
            # centred under the marker where the room allows, never under the fixed gutter
            left = min(max(x - w / 2, lo), hi - w - 2)
            rect = QRectF(left, y, w + 2, 14)
            if self._place(rect, lane):
                p.setPen(color)
                p.drawText(rect, Qt.AlignLeft | Qt.AlignVCenter, shown)
                return

    def _place(self, rect: QRectF, lane: str | None = None) -> bool:
        """Take ``rect`` for a label if it is inside its lane and meets no label or marker placed
        in this paint (:attr:`painted_labels`, kept for the tests)."""
        if lane is not None:
            top, bottom = self.rows.lane_bounds(lane)
            if rect.top() < top or rect.bottom() > bottom:
                return False
        if any(rect.intersects(other) for other in self._taken):
            return False
        self._taken.append(rect)
        self.painted_labels.append(rect)
        return True

    def _paint_chains(self, p: QPainter, i0: int, i1: int, labels: bool) -> None:
        doc, t, rows = self.doc, self.theme, self.rows
        chains = doc.replay.chains
        if not chains:
            return
        # chains are in order and do not overlap: bisect for those in view
        key = ("chains", id(chains))
        starts = self._seg_cache.get(key)
        if starts is None or len(starts) != len(chains):
            starts = self._seg_cache[key] = [c.start for c in chains]
        j = bisect_right(starts, i1)
        color = QColor(t.chain)
        pen = QPen(color, 1.6)
        y = rows.bracket_y()
        for ci in range(j - 1, -1, -1):
            c = chains[ci]
            if c.end < i0 - 1:
                break
            x0 = self.x_of(c.links[0])
            x1 = self.x_of(c.end)
            p.setPen(pen)
            p.setBrush(Qt.NoBrush)
            if x1 - x0 < 2:
                x1 = x0 + 2
            p.drawLine(QLineF(x0, y, x1, y))
            numbers: dict[int, list[int]] = {}  # several links on one line (S-Triggers named together)
            for n, li in enumerate(c.links, 1):
                numbers.setdefault(li, []).append(n)
            for li, ns in numbers.items():
                x = self.x_of(li)
                lane = doc.lane[li]
                # a tick toward the lane of the player who activated it
                dy = -7 if lane == "A" else 7 if lane == "B" else 0
                p.setPen(pen)
                p.drawLine(QLineF(x, y, x, y + dy if dy else y - 5))
                if labels:
                    p.setFont(self._small)
                    p.setPen(color)
                    ty = y - 15 if dy <= 0 else y + 2
                    text = ",".join(map(str, ns))
                    rect = QRectF(x + 2, ty, self._text_w(text, self._fm_small) + 2, 13)
                    if self._place(rect, "M"):
                        p.drawText(rect, Qt.AlignLeft | Qt.AlignVCenter, text)
            for k, ri in enumerate(c.resolves):
                x = self.x_of(ri)
                p.setPen(pen)
                p.drawLine(QLineF(x, y - 4, x, y + 4))
                if labels and c.order:
                    order = c.order if len(c.resolves) == 1 else c.order[k:k + 1]
                    text = "⟲ " + "→".join(str(o) for o in order)
                    room = max(self.ppe * 1.8, 40)
                    p.setFont(self._small)
                    p.setPen(color)
                    shown = self._fm_small.elidedText(text, Qt.ElideRight, room)
                    w = self._text_w(shown, self._fm_small) + 2
                    rect = QRectF(x - w / 2, y - 16, w, 13)
                    if shown and self._place(rect, "M"):
                        p.drawText(rect, Qt.AlignCenter, shown)

    def _paint_axis(self, p: QPainter, i0: int, i1: int) -> None:
        t, doc = self.theme, self.doc
        y, h = self.rows.axis
        p.setPen(QPen(QColor(t.grid), 1))
        p.drawLine(QLineF(LEFT, y, LEFT + self.n * self.ppe, y))
        # a line number every `step` events, at least 56 px apart
        step = 1
        for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000):
            step = s
            if s * self.ppe >= 56:
                break
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        start = (i0 // step) * step
        lines = doc.replay.lines
        for i in range(start, i1, step):
            if i < 0 or i >= self.n:
                continue
            x = self.x_of(i)
            p.drawLine(QLineF(x, y, x, y + 3))
            p.drawText(QRectF(x - 28, y + 2, 56, h - 2), Qt.AlignCenter, f"{lines[i]}")

    # ---- the zoomed-out levels --------------------------------------------------------------------
    def _bins(self, i0: int, i1: int):
        """The pyramid's bins for events [i0, i1) at the current zoom (at least 1.5 px each)."""
        pyr = self.doc.pyramid
        size = pyr.size_for(self.ppe)
        return pyr.bins(size, i0 // size, i1 // size + 1)

    def _paint_bands_coarse(self, p: QPainter, i0: int, i1: int, vis_left: float, exposed: QRectF) -> None:
        t, r, doc = self.theme, self.rows, self.doc
        width = exposed.width()
        j0, j1 = self._segment_range(doc.replay.turns, i0, i1)
        level = self._bins(i0, i1)
        size = level.size
        b0, b1 = level.b0, level.b0 + len(level.flags)
        bw = size * self.ppe
        if j1 - j0 <= width / 6:
            for s in doc.replay.turns[j0:j1]:
                self._band(p, s, r.turn[0], r.turn[1], QColor(t.turn.get(s.player, t.turn[None])),
                           self._turn_label(s), vis_left, self._bold, self._fm_bold, QColor(t.turn_text),
                           QColor(t.grid))
        else:
            # turns too thin to draw one by one: whose turns fill each bin, merged into runs
            y, h = int(r.turn[0]), int(r.turn[1])
            turn_a = level.turn_a
            half = size / 2
            rects: dict[bool, list[QRect]] = {True: [], False: []}
            b = b0
            while b < b1:
                v = turn_a[b - b0] >= half
                e = b + 1
                while e < b1 and (turn_a[e - b0] >= half) == v:
                    e += 1
                x0 = int(LEFT + b * bw)
                rects[v].append(QRect(x0, y, max(int(LEFT + e * bw) - x0, 1), h))
                b = e
            p.setPen(Qt.NoPen)
            for v, items in rects.items():
                if items:
                    p.setBrush(QColor(t.turn["A" if v else "B"]))
                    p.drawRects(items)
            # a turn number every ~110 px
            p.setFont(self._bold)
            p.setPen(QColor(t.turn_text))
            x = max(vis_left, LEFT)
            right = exposed.right()
            while x < right - 40:
                s = doc.replay.segments_at(int((x - LEFT) / self.ppe), "turn")
                if s is not None:
                    p.drawText(QRectF(x + 3, y, 104, h), Qt.AlignVCenter | Qt.AlignLeft, f"Turn {s.name}")
                x += 110
        # phases, steps, timings: bands where the flags say so
        y, h = r.phase
        self._flag_band(p, level, b0, b1, bw, F_BATTLE, QColor(t.phase_battle), y, h, QColor(t.phase))
        y, h = r.step
        if doc.replay.step_kind == "substep":
            self._flag_band(p, level, b0, b1, bw, F_BATTLE, QColor(t.substep), y, h, None)
        else:
            self._flag_band(p, level, b0, b1, bw, F_DAMAGE, QColor(t.timing), y, h, None)
            if r.timing is not None:
                self._flag_band(p, level, b0, b1, bw, F_DAMAGE, QColor(t.timing), r.timing[0], r.timing[1], None)
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        lx = max(vis_left, LEFT) + 4
        p.drawText(QRectF(lx, r.phase[0], 220, r.phase[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   get_game(doc.match.game).label("battle-phases"))
        p.drawText(QRectF(lx, r.step[0], 220, r.step[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   get_game(doc.match.game).label("battles"))

    def _flag_band(self, p: QPainter, level, b0: int, b1: int, bw: float, flag: int, on: QColor, y: float,
                   h: float, off: QColor | None) -> None:
        flags = level.flags  # indexed from b0
        y, h = int(y), int(h)
        p.setPen(Qt.NoPen)
        if off is not None:
            p.setBrush(off)
            p.drawRect(QRect(int(LEFT + b0 * bw), y, int((b1 - b0) * bw) + 1, h))
        rects = []
        b = b0
        while b < b1:
            if flags[b - b0] & flag:
                e = b + 1
                while e < b1 and flags[e - b0] & flag:
                    e += 1
                x0 = int(LEFT + b * bw)
                rects.append(QRect(x0, y, max(int(LEFT + e * bw) - x0, 1), h))
                b = e
            else:
                b += 1
        if rects:
            p.setBrush(on)
            p.drawRects(rects)

    def _paint_coarse(self, p: QPainter, i0: int, i1: int) -> None:
        """Per-bin aggregates: event density per lane, the worst finding, chains and notes."""
        t, rows = self.theme, self.rows
        level = self._bins(i0, i1)
        size = level.size
        b0, b1 = level.b0, level.b0 + len(level.flags)
        bw = size * self.ppe
        w = max(int(bw + 0.5), 1)
        sev_rects: dict[int, list[QRect]] = {1: [], 2: [], 3: []}
        bins = range(b0, b1)
        xs = [int(LEFT + b * bw) for b in bins]
        for lane in LANES:
            top, h = rows.lanes[lane]
            base = int(top + h - 6)
            scale = (h - 24) / size
            counts = level.count[lane]
            sevs = level.sev[lane]
            rects = [QRect(x, base - max(int(c * scale + 0.5), 2), w, max(int(c * scale + 0.5), 2))
                     for x, c in zip(xs, counts) if c]
            stop = int(top + 4)
            for b, s in sevs.items():
                if b0 <= b < b1:
                    sev_rects[s].append(QRect(int(LEFT + b * bw) - 1, stop, max(w, 3) + 1, 9))
            if rects:
                p.setPen(Qt.NoPen)
                p.setBrush(self._density_colour(lane))
                p.drawRects(rects)
        # chains and notes as thin marks in the table lane
        top, h = rows.lanes["M"]
        flags = level.flags
        by = int(rows.bracket_y()) - 1
        chain_rects = [QRect(x, by, w, 3) for x, f in zip(xs, flags) if f & F_CHAIN]
        note_rects = [QRect(x, int(top) + 2, max(w, 2), 4) for x, f in zip(xs, flags) if f & F_NOTE]
        p.setPen(Qt.NoPen)
        if chain_rects:
            p.setBrush(QColor(t.chain))
            p.drawRects(chain_rects)
        if note_rects:
            p.setBrush(QColor(t.note))
            p.drawRects(note_rects)
        for s in (1, 2, 3):  # worst last, on top
            if sev_rects[s]:
                p.setBrush(QColor(t.severity[RANK_NAME[s]]))
                p.drawRects(sev_rects[s])

    def _density_colour(self, lane: str) -> QColor:
        """An opaque mix of the marker colour and the lane background (no alpha blending)."""
        t = self.theme
        fg = QColor(t.marker["activate"] if lane != "M" else t.marker["resolve"])
        bg = QColor(t.lane_alt if lane == "M" else t.lane)
        a = 0.6
        return QColor(int(fg.red() * a + bg.red() * (1 - a)), int(fg.green() * a + bg.green() * (1 - a)),
                      int(fg.blue() * a + bg.blue() * (1 - a)))

    # ---- the fixed gutter -------------------------------------------------------------------------
    def drawForeground(self, p: QPainter, rect: QRectF) -> None:
        try:
            self._paint_gutter(p)
        except Exception:
            log.debug("gutter paint failed", exc_info=True)

    def _paint_gutter(self, p: QPainter) -> None:
        t, r = self.theme, self.rows
        p.save()
        p.resetTransform()
        h = self.viewport().height()
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(t.window))
        p.drawRect(QRectF(0, 0, LEFT - 4, h))
        p.setPen(QPen(QColor(t.grid), 1))
        p.drawLine(QLineF(LEFT - 4, 0, LEFT - 4, h))
        game = get_game(self.doc.match.game) if self.doc else None
        names = self.doc.players if self.doc else {"A": "A", "B": "B"}
        rows = [("Turn", r.turn), ("Phase", r.phase), (game.label("step-row") if game else "Step", r.step)]
        if r.timing is not None:
            rows.append(("DS timing", r.timing))
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        for text, (y, hh) in rows:
            p.drawText(QRectF(8, y, LEFT - 16, hh), Qt.AlignVCenter | Qt.AlignLeft, text)
        for lane in LANES:
            top, hh = r.lanes[lane]
            if lane == "M":
                p.setFont(self._small)
                p.setPen(QColor(t.dim))
                p.drawText(QRectF(8, top + 4, LEFT - 16, 28), Qt.AlignTop | Qt.AlignLeft,
                           game.label("middle-lane") if game else "Chains")
                continue
            p.setFont(self._bold)
            p.setPen(QColor(t.text))
            p.drawText(QRectF(8, top + 6, LEFT - 16, 18), Qt.AlignTop | Qt.AlignLeft, f"Player {lane}")
            p.setFont(self._font)
            name = names.get(lane, lane)
            if name != lane:
                p.drawText(QRectF(8, top + 24, LEFT - 16, 18), Qt.AlignTop | Qt.AlignLeft,
                           self._fm.elidedText(name, Qt.ElideRight, LEFT - 16))
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        p.drawText(QRectF(8, r.axis[0], LEFT - 16, r.axis[1]), Qt.AlignVCenter | Qt.AlignLeft, "line")
        p.restore()

    # ---- interaction ------------------------------------------------------------------------------
    def event_at(self, pos: QPoint) -> int:
        if self.n == 0 or pos.x() < LEFT - 4:
            return -1
        scene = self.mapToScene(pos)
        i = self.index_at(scene.x())
        if abs(scene.x() - self.x_of(i)) > max(self.ppe / 2, 8):
            return -1
        return i

    def help_text(self, index: int) -> str:
        """The tooltip of an event: its line, notes and findings (HTML, user text escaped)."""
        from ..safe import html_text

        doc = self.doc
        if doc is None or not 0 <= index < self.n:
            return ""
        e = doc.events[index]
        line = e.span.line
        parts = [f"<b>line {line}</b>" + (f" &nbsp;{html_text(e.timecode)}" if e.timecode else ""),
                 f"<code>{html_text(doc.source(line).strip())}</code>"]
        for note in e.notes:
            parts.append(f"📌 <i>{html_text(note)}</i>")
        for k in doc.event_findings.get(index, []) + doc.gap_findings.get(index, []):
            f = doc.findings[k]
            color = self.theme.severity[f.severity.value]
            parts.append(f"<span style='color:{color}'><b>{f.severity.value}</b></span> "
                         f"[{html_text(f.rule)}] line {f.span.line}: {html_text(f.message)}")
        return "<br>".join(parts)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self._press = event.position().toPoint()
            self._press_scroll = self.horizontalScrollBar().value()
            self._dragging = False
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        pos = event.position().toPoint()
        if self._press is not None and event.buttons() & Qt.LeftButton:
            dx = pos.x() - self._press.x()
            if self._dragging or abs(dx) > 4:
                self._dragging = True
                self.setCursor(Qt.ClosedHandCursor)
                self.horizontalScrollBar().setValue(self._press_scroll - dx)
            event.accept()
            return
        i = self.event_at(pos)
        if i != self._hover:
            self._hover = i
            if i >= 0:
                QToolTip.showText(event.globalPosition().toPoint(), self.help_text(i), self.viewport())
            else:
                QToolTip.hideText()
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.LeftButton and self._press is not None:
            pos = event.position().toPoint()
            if not self._dragging:
                i = self._pick(pos)
                if i >= 0:
                    self.eventActivated.emit(i)
            self._press = None
            self._dragging = False
            self.unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _pick(self, pos: QPoint) -> int:
        """The event a click means: on a band, the band's first event; elsewhere the nearest."""
        if self.n == 0 or pos.x() < LEFT - 4:
            return -1
        scene = self.mapToScene(pos)
        i = self.index_at(scene.x())
        y = scene.y()
        r = self.rows
        for kind, row in (("turn", r.turn), ("phase", r.phase), ("step", r.step), ("timing", r.timing)):
            if row is not None and row[0] <= y < row[0] + row[1]:
                if kind == "step":
                    kind = self.doc.replay.step_kind
                s = self.doc.replay.segments_at(i, kind)
                return s.start if s is not None else i
        return i

    def wheelEvent(self, event) -> None:
        delta = event.angleDelta()
        if event.modifiers() & Qt.ControlModifier:
            steps = delta.y() / 120.0
            if steps:
                self.zoom(1.25 ** steps, event.position().x())
            event.accept()
            return
        amount = delta.x() if abs(delta.x()) > abs(delta.y()) else delta.y()
        if event.pixelDelta().manhattanLength():
            px = event.pixelDelta()
            amount = px.x() if abs(px.x()) > abs(px.y()) else px.y()
        bar = self.horizontalScrollBar()
        bar.setValue(bar.value() - int(amount))
        event.accept()

    def leaveEvent(self, event) -> None:
        self._hover = -2
        super().leaveEvent(event)

    def event(self, e) -> bool:
        # arrows, Home/End step through events (window shortcuts), not the scroll bar
        if e.type() == QEvent.ShortcutOverride and e.key() in (Qt.Key_Left, Qt.Key_Right, Qt.Key_Home, Qt.Key_End):
            e.ignore()
            return False
        return super().event(e)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Left, Qt.Key_Right, Qt.Key_Home, Qt.Key_End, Qt.Key_Up, Qt.Key_Down):
            event.ignore()  # the window's actions handle these
            return
        if event.key() in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom(1.25)
            return
        if event.key() == Qt.Key_Minus:
            self.zoom(0.8)
            return
        super().keyPressEvent(event)

    def render_image(self, size: QSize | None = None) -> QImage:
        """The timeline as an image, as it is on screen (for the PNG export)."""
        vp = self.viewport()
        img = QImage(size or vp.size(), QImage.Format_ARGB32)
        img.fill(QColor(self.theme.base))
        painter = QPainter(img)
        self.render(painter, QRectF(img.rect()), vp.rect())
        painter.end()
        return img


class OverviewStrip(QWidget):
    """The whole match in a thin strip: density, findings, and the range in view (click to go)."""

    def __init__(self, view: TimelineView, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = view
        self.setFixedHeight(26)
        self.setMouseTracking(False)
        self._cache: QImage | None = None
        self._key = None
        view.viewChanged.connect(self.update)
        self.setToolTip("The whole match: click or drag to move the timeline there")

    def invalidate(self) -> None:
        self._cache = None
        self.update()

    def _geometry(self) -> tuple[float, float]:
        return float(LEFT), max(self.width() - LEFT - 8.0, 10.0)

    def _render(self) -> QImage:
        view, doc, t = self.view, self.view.doc, self.view.theme
        img = QImage(self.size(), QImage.Format_ARGB32_Premultiplied)
        img.fill(QColor(t.window))
        p = QPainter(img)
        x0, w = self._geometry()
        h = self.height()
        p.setPen(QPen(QColor(t.grid), 1))
        p.setBrush(QColor(t.base))
        p.drawRect(QRectF(x0, 2, w, h - 5))
        p.setFont(view._small)
        p.setPen(QColor(t.dim))
        p.drawText(QRectF(8, 0, LEFT - 12, h), Qt.AlignVCenter | Qt.AlignLeft, "overview")
        if doc is not None and doc.events:
            n = len(doc.events)
            pyr = doc.pyramid
            size = pyr.size_for(w / n, 1.0)  # bins of at least one pixel
            level = pyr.bins(size, 0, pyr.nbins(size))
            bw = w * size / n
            rects_battle, rects_damage, sev = [], [], {1: [], 2: [], 3: []}
            dens = []
            ca, cb, cm = level.count["A"], level.count["B"], level.count["M"]
            for b, f in enumerate(level.flags):
                x = x0 + b * bw
                if f & F_BATTLE:
                    rects_battle.append(QRectF(x, 3, max(bw, 1.0), h - 7))
                if f & F_DAMAGE:
                    rects_damage.append(QRectF(x, h - 9, max(bw, 1.0), 4))
                c = ca[b] + cb[b] + cm[b]
                if c:
                    bh = (h - 10) * c / size
                    dens.append(QRectF(x, h - 5 - bh, max(bw, 1.0), bh))
            for lane in LANES:
                for b, s in level.sev[lane].items():
                    sev[s].append(QRectF(x0 + b * bw - 1, 3, max(bw, 2.0) + 1, 7))
            p.setPen(Qt.NoPen)
            if rects_battle:
                p.setBrush(QColor(t.phase_battle))
                p.drawRects(rects_battle)
            if dens:
                c = QColor(t.dim)
                c.setAlpha(90)
                p.setBrush(c)
                p.drawRects(dens)
            if rects_damage:
                p.setBrush(QColor(t.timing))
                p.drawRects(rects_damage)
            for s in (1, 2, 3):
                if sev[s]:
                    p.setBrush(QColor(t.severity[RANK_NAME[s]]))
                    p.drawRects(sev[s])
        p.end()
        return img

    def paintEvent(self, event) -> None:
        view = self.view
        key = (self.size().width(), self.size().height(), id(view.doc), view.theme.name,
               id(view.reviews))
        if self._cache is None or self._key != key:
            self._cache = self._render()
            self._key = key
        p = QPainter(self)
        p.drawImage(0, 0, self._cache)
        if view.doc is not None and view.n:
            x0, w = self._geometry()
            a, b = view.visible_range()
            n = view.n
            rx0 = x0 + w * a / n
            rx1 = x0 + w * (b + 1) / n
            p.setPen(QPen(QColor(view.theme.highlight), 1.5))
            p.setBrush(Qt.NoBrush)
            p.drawRect(QRectF(rx0, 1.5, max(rx1 - rx0, 3.0), self.height() - 4))
            if view.selected >= 0:
                xs = x0 + w * (view.selected + 0.5) / n
                p.drawLine(QLineF(xs, 2, xs, self.height() - 3))
        p.end()

    def _go(self, x: float) -> None:
        view = self.view
        if view.n == 0:
            return
        x0, w = self._geometry()
        frac = min(max((x - x0) / w, 0.0), 1.0)
        view.fit_mode = False
        view.center_on(int(frac * (view.n - 1)))

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self._go(event.position().x())

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.LeftButton:
            self._go(event.position().x())
