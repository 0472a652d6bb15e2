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

The view is put together from parts, each in its own module: :mod:`~replayer.gui.timeline.layout`
(rows and zoom constants), :mod:`~replayer.gui.shared.marks` (markers, badges, pins),
:mod:`~replayer.gui.timeline.detail` (painting with markers and labels) and
:mod:`~replayer.gui.timeline.coarse` (the zoomed-out levels and the gutter).
"""

from __future__ import annotations

import logging
import math

from PySide6.QtCore import QEvent, QLineF, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import (QFrame, QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem,
                               QToolTip, QWidget)

from ..document import F_BATTLE, F_DAMAGE, LANES, Document
from ...games import get as get_game
from ...states import Segment
from ..shared.theme import LIGHT, Theme, ui_font
from ..shared.marks import MARKERS, draw_badge, draw_marker, draw_pin, marker_color  # noqa: F401  (re-exported)
from .coarse import CoarsePaintMixin
from .detail import DetailPaintMixin
from ..shared.language import M, lang, live, severity, tr
from .layout import (DEFAULT_PPE, LABELS_PPE, LEFT, MARKERS_PPE, MAX_PPE, RANK_NAME,  # noqa: F401
                              RIGHT, Rows)

log = logging.getLogger("replayer.gui")


def _band_words(doc: Document | None) -> dict:
    """The game's forms of its band labels (:attr:`~replayer.games.base.Game.band_forms`)."""
    if doc is None:
        return {}
    try:
        return dict(get_game(doc.match.game).band_forms)
    except Exception:  # a game this build does not know: its bands elide their labels
        return {}


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
            self.view.report_problem(tr("the timeline could not be drawn ({error})", error=f"{type(e).__name__}: {e}"))


class TimelineView(DetailPaintMixin, CoarsePaintMixin, QGraphicsView):
    """The timeline widget. Signals: ``eventActivated(int)`` when the user picks an event."""

    eventActivated = Signal(int)
    viewChanged = Signal()
    problem = Signal(str)  # something could not be drawn (said once per document)
    #: the keys and mouse moves this view handles itself (wheelEvent, keyPressEvent, the mouse
    #: events), for the legend (F1)
    LEGEND_GROUP = M("Timeline")
    LEGEND_KEYS = ((M("Ctrl+wheel, + / −"), M("zoom the timeline")),
                   (M("wheel, drag"), M("pan the timeline")), (M("click"), M("select the event")))

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc: Document | None = None
        self.reviews = None
        #: the label rectangles of the last paint (scene coordinates), and what they may not meet
        self.painted_labels: list[QRectF] = []
        self._taken: list[tuple[float, float, float, float]] = []  # left, top, right, bottom
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
        # tall enough for every row at its least (a laptop's 720 px leaves no more): nothing is cut off
        self.setMinimumHeight(int(math.ceil(Rows(True, 0).height)) + self.horizontalScrollBar().sizeHint().height())
        self._font = ui_font(8.5)
        self._small = ui_font(7.5)
        self._bold = QFont(ui_font(8.5))
        self._bold.setBold(True)
        self._fm = QFontMetricsF(self._font)
        self._fm_small = QFontMetricsF(self._small)
        self._fm_bold = QFontMetricsF(self._bold)
        self._widths: dict[str, float] = {}
        #: the game's forms of band labels (long to short), and those measured: (text, width)s by band
        self._band_words: dict = {}
        self._form_cache: dict[tuple, tuple[tuple[str, float], ...]] = {}
        #: the rectangles of the zoomed-out levels last drawn, by level (see CoarsePaintMixin)
        self._coarse_cache: dict[tuple, object] = {}
        #: the band texts of the last paint: (text rect, text shown, band rect, room), for the tests
        self.painted_bands: list[tuple[QRectF, str, QRectF, float]] = []
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
        old = self.doc
        self.doc = doc
        self.reviews = reviews
        self._coarse_cache.clear()  # (they are the old document's)
        # a re-check of the same log (keep_view) keeps the labels' widths and the bands' forms:
        # they depend on the texts, the game's words and the players' names only
        if not (keep_view and old is not None and doc is not None and old.match.game == doc.match.game
                and old.players == doc.players) or len(self._widths) > 50_000:
            self._widths.clear()
            self._form_cache.clear()
            self._band_words = _band_words(doc)
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

    def retranslate(self) -> None:
        """The window's language changed: the bands' words are measured again."""
        self._form_cache.clear()
        self._coarse_cache.clear()
        self.viewport().update()

    def detail_level(self) -> str:
        """What the timeline draws at the current zoom, in words."""
        if self.ppe >= LABELS_PPE:
            return tr("markers and labels")
        if self.ppe >= MARKERS_PPE:
            return tr("markers")
        return tr("{n} events per pixel", n=f"{1 / self.ppe:,.0f}")

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

    # ---- interaction ------------------------------------------------------------------------------
    def event_at(self, pos: QPoint) -> int:
        if self.n == 0 or pos.x() < LEFT - 4:
            return -1
        scene = self.mapToScene(pos)
        i = self.index_at(scene.x())
        if abs(scene.x() - self.x_of(i)) > max(self.ppe / 2, 8):
            return -1
        return i

    def band_at(self, pos: QPoint) -> Segment | None:
        """The band (turn, phase, step, timing) under ``pos`` in the viewport, if any."""
        doc = self.doc
        if doc is None or self.n == 0 or pos.x() < LEFT - 4:
            return None
        scene = self.mapToScene(pos)
        y, r, replay = scene.y(), self.rows, doc.replay
        steps = replay.substeps if replay.step_kind == "substep" else replay.steps
        for row, seq in ((r.turn, replay.turns), (r.phase, replay.phases), (r.step, steps),
                         (r.timing, replay.timings)):
            if row is not None and row[0] <= y < row[0] + row[1]:
                i = math.floor((scene.x() - LEFT) / self.ppe)
                for s in self._segments(seq, i, i + 1):
                    if s.start <= i < s.end:
                        return s
                return None
        return None

    def help_text(self, index: int) -> str:
        """The tooltip of an event: its line, notes and findings (HTML, user text escaped)."""
        from ...safe import html_text

        doc = self.doc
        if doc is None or not 0 <= index < self.n:
            return ""
        e = doc.events[index]
        line = e.span.line
        where = html_text(tr("line {line}", line=line))
        parts = [f"<b>{where}</b>"
                 + (f" &nbsp;{html_text(e.timecode)}" if e.timecode else ""),
                 f"<code>{html_text(doc.source(line).strip())}</code>"]
        for note in e.notes:
            parts.append(f"📌 <i>{html_text(note)}</i>")
        for k in doc.event_findings.get(index, []) + doc.gap_findings.get(index, []):
            f = doc.finding_in(k, lang())
            color = self.theme.severity[f.severity.value]
            parts.append(f"<span style='color:{color}'><b>{html_text(severity(f.severity.value))}</b></span> "
                         f"[{html_text(f.rule)}] " + html_text(tr("line {line}: {message}", line=f.span.line,
                                                                  message=f.message)))
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
        band = self.band_at(pos)
        if band is not None:  # a band's tooltip: its label's long form ("before damage calculation")
            if band != self._hover:
                self._hover = band
                QToolTip.showText(event.globalPosition().toPoint(), self.band_tooltip(band), self.viewport())
            super().mouseMoveEvent(event)
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
        self._rects: dict[tuple, tuple] = {}  # the bins' rectangles, by geometry (see _bin_rects)
        view.viewChanged.connect(self.update)
        live(self, M("The whole match: click or drag to move the timeline there"), "setToolTip")

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
        p.drawText(QRectF(8, 0, LEFT - 12, h), Qt.AlignVCenter | Qt.AlignLeft, tr("overview"))
        if doc is not None and doc.events:
            n = len(doc.events)
            pyr = doc.pyramid
            size = pyr.size_for(w / n, 1.0)  # bins of at least one pixel
            nb = pyr.nbins(size)
            bw = w * size / n
            # a rectangle a bin, as a bin's aggregates would give them one by one: a bin's flags
            # are runs of bins found in the flag bytes, its rectangles taken from those made once
            # for this geometry (QRectF objects cost more than the rest of the strip)
            battle, damage, dens = self._bin_rects(n, size, nb, x0, bw, h)
            rects_battle: list[QRectF] = []
            for b0, b1 in pyr.flag_runs(F_BATTLE, size):
                rects_battle += battle[b0:b1 + 1]
            rects_damage: list[QRectF] = []
            for b0, b1 in pyr.flag_runs(F_DAMAGE, size):
                rects_damage += damage[b0:b1 + 1]
            sev = {1: [], 2: [], 3: []}
            level_sev = pyr.sev(size)
            for lane in LANES:
                for b, s in level_sev[lane].items():
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

    def _bin_rects(self, n: int, size: int, nb: int, x0: float, bw: float,
                   h: int) -> tuple[list[QRectF], list[QRectF], list[QRectF]]:
        """Every bin's Battle Phase, Damage Step and density rectangles for this geometry; the
        density is the events in the bin (all its ``size`` but in the last one)."""
        key = (n, size, x0, bw, h)
        hit = self._rects.get(key)
        if hit is None:
            side = max(bw, 1.0)
            xs = [x0 + b * bw for b in range(nb)]
            battle = [QRectF(x, 3, side, h - 7) for x in xs]
            damage = [QRectF(x, h - 9, side, 4) for x in xs]
            dens = []
            for b, x in enumerate(xs):
                bh = (h - 10) * (min((b + 1) * size, n) - b * size) / size
                dens.append(QRectF(x, h - 5 - bh, side, bh))
            if len(self._rects) > 8:
                self._rects.clear()
            hit = self._rects[key] = (battle, damage, dens)
        return hit

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
