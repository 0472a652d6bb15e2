"""Painting the timeline at the detailed zoom levels (a part of :class:`~replayer.gui.timeline.view.TimelineView`).

Bands (turns, phases, steps, timings), event markers with their labels (placed so that they never
overlap: :meth:`DetailPaintMixin._place`), badges, note pins, chain brackets and the axis.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import attrgetter

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from ... import games
from ..document import CATEGORY, LANES, SEVERITY_RANK
from ...reviews import DISMISSED
from ...states import Segment
from ..shared.marks import draw_badge, draw_marker, draw_pin
from ..shared.language import lang, tr
from .layout import LABELS_PPE, LEFT, MARKERS_PPE
from ..shared.words import word

# Qt's enum members bound once: PySide6 looks a short name such as Qt.AlignLeft up at every use
# (a few µs each), and these are used for every marker and label painted
_NO_PEN, _NO_BRUSH = Qt.NoPen, Qt.NoBrush
_ELIDE, _DASH, _CENTER = Qt.ElideRight, Qt.DashLine, Qt.AlignCenter
_LEFT_MID = Qt.AlignLeft | Qt.AlignVCenter
_START, _END = attrgetter("start"), attrgetter("end")


class DetailPaintMixin:
    """What the timeline paints when each event has room: markers, labels, badges, chains."""

    # ---- painting ---------------------------------------------------------------------------------
    def paint_timeline(self, p: QPainter, exposed: QRectF) -> None:
        t = self.theme
        rows = self.rows
        full_w = exposed.right() + 2
        left = exposed.left() - 2
        # backgrounds of the rows
        p.setPen(_NO_PEN)
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
            p.drawText(QRectF(LEFT, rows.lanes["M"][0], max(exposed.width(), 400), 30), _LEFT_MID,
                       "  " + (tr("No events.") if self.doc is not None else
                               tr("Open a .duel log (Ctrl+O) or drop one here.")))
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

    def _segment_range(self, seq: list[Segment], i0: int, i1: int) -> tuple[int, int]:
        """Indices [j0, j1) of the segments that overlap events [i0, i1) (a kind's segments are
        in order and do not overlap: bisected by their ends and starts, no list of them made,
        which a new document after each re-check would make again)."""
        if not seq:
            return 0, 0
        return bisect_right(seq, i0, key=_END), bisect_left(seq, i1, key=_START)

    def _segments(self, seq: list[Segment], i0: int, i1: int) -> list[Segment]:
        j0, j1 = self._segment_range(seq, i0, i1)
        return seq[j0:j1]

    def _band_forms(self, s: Segment, fm: QFontMetricsF) -> tuple[tuple[str, float], ...]:
        """What the band of ``s`` may write, with the widths: its label, then the game's shorter
        forms of it (:attr:`~replayer.games.base.Game.band_forms`), narrowest last."""
        key = (s.kind, s.name, s.label, s.player, id(fm), lang())
        hit = self._form_cache.get(key)
        if hit is None:
            if s.kind == "turn":
                text = self._turn_label(s)
                forms: tuple[str, ...] = (tr("Turn {n} · {player}", n=s.name, player=s.player or "?"),
                                          f"T{s.name} · {s.player or '?'}", f"T{s.name}")
            else:
                game = self.doc.match.game if self.doc else ""
                text = word(game, s.label or s.name)
                forms = tuple(word(game, f) for f in self._band_words.get((s.kind, s.name), ()))
            w = fm.horizontalAdvance(text)
            hit = ((text, w),) + tuple((f, fw) for f in forms if (fw := fm.horizontalAdvance(f)) < w)
            self._form_cache[key] = hit
        return hit

    def band_tooltip(self, s: Segment) -> str:
        """The long form of a band's label (what its tooltip says)."""
        if s.kind == "turn":
            return self._turn_label(s)
        forms = self._band_words.get((s.kind, s.name), ())
        game = self.doc.match.game if self.doc else ""
        return word(game, forms[0] if forms and s.label in forms else (s.label or s.name))

    def _band(self, p: QPainter, s: Segment, y: float, h: float, fill: QColor, vis_left: float,
              font: QFont, fm: QFontMetricsF, text_color: QColor, border: QColor) -> None:
        x0 = LEFT + s.start * self.ppe
        x1 = LEFT + s.end * self.ppe
        rect = QRectF(x0 + 0.5, y, max(x1 - x0 - 1.0, 0.8), h)
        p.setPen(QPen(border, 1) if rect.width() > 4 else _NO_PEN)
        p.setBrush(fill)
        p.drawRect(rect)
        # the text starts 5 px into the band (or past the gutter) and keeps 4 px from its end; a
        # band too narrow for its label that way gives its text all but 2 px and 1 px of it
        forms = self._band_forms(s, fm)
        lx = max(x0 + 5, vis_left + 5)
        room = x1 - 4 - lx
        if forms[0][1] > room:
            lx = max(x0 + 2, vis_left + 2)
            room = x1 - 1 - lx
        if room < 10:
            return
        # the longest form that fits ("before calc", "pre"), elided only when none does
        for shown, w in forms:
            if w <= room:
                break
        else:
            key = ("\x00elided", shown, room, id(fm))  # the same band after a re-check: the same room
            hit = self._form_cache.get(key)
            if hit is None:
                if len(self._form_cache) > 20_000:  # (rooms vary with the zoom: keep it bounded)
                    self._form_cache.clear()
                elided = fm.elidedText(shown, _ELIDE, room)
                hit = self._form_cache[key] = (elided, fm.horizontalAdvance(elided) if elided else 0.0)
            shown, w = hit
            if not shown or shown == "…":
                return
        p.setFont(font)
        p.setPen(text_color)
        p.drawText(QRectF(lx, y, room, h), _LEFT_MID, shown)
        self.painted_bands.append((QRectF(lx, y, w, h), shown, QRectF(x0, y, x1 - x0, h), room))

    def _turn_label(self, s: Segment) -> str:
        name = self.doc.players.get(s.player or "", s.player or "") if self.doc else ""
        who = s.player or "?"
        if name and name != who:
            who = f"{who} {name}"
        return tr("Turn {n} · {player}", n=s.name, player=who)

    def _paint_bands(self, p: QPainter, i0: int, i1: int, vis_left: float, exposed: QRectF) -> None:
        t, r, doc = self.theme, self.rows, self.doc
        border = QColor(t.grid)
        text = QColor(t.text)
        self.painted_bands = []
        y, h = r.turn
        for s in self._segments(doc.replay.turns, i0, i1):
            self._band(p, s, y, h, QColor(t.turn.get(s.player, t.turn[None])), vis_left,
                       self._bold, self._fm_bold, QColor(t.turn_text), border)
        game = games.ALL.get(doc.match.game)
        battle = game.in_battle if game is not None else lambda kind, name: False
        damage = game.in_damage_step if game is not None else lambda kind, name: False
        y, h = r.phase
        for s in self._segments(doc.replay.phases, i0, i1):
            fill = QColor(t.phase_battle if battle("phase", s.name) else t.phase)
            self._band(p, s, y, h, fill, vis_left, self._small, self._fm_small, text, border)
        y, h = r.step
        if doc.replay.step_kind == "substep":
            for s in self._segments(doc.replay.substeps, i0, i1):
                self._band(p, s, y, h, QColor(t.substep), vis_left, self._small, self._fm_small, text, border)
        else:
            for s in self._segments(doc.replay.steps, i0, i1):
                in_damage = damage("step", s.name)
                fill = QColor(t.timing if in_damage else t.step)
                self._band(p, s, y, h, fill, vis_left, self._small, self._fm_small,
                           QColor(t.timing_text) if in_damage else text, border)
            if r.timing is not None:
                y, h = r.timing
                for s in self._segments(doc.replay.timings, i0, i1):
                    self._band(p, s, y, h, QColor(t.timing), vis_left, self._small, self._fm_small,
                               QColor(t.timing_text), border)
        # faint separators at turn starts across the lanes
        p.setPen(QPen(border, 1, _DASH))
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
        p.setPen(_NO_PEN)
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
                    self._taken.append((x - r - 1, y - r - 1, x + r + 1, y + r + 1))
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
                p.setBrush(_NO_BRUSH)
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
        prev2, prev1, next1, next2 = doc.lane_neighbours(i)
        room_r = (next2 - i) * self.ppe if next2 < self.n else 400.0
        room_l = (i - prev2) * self.ppe if prev2 >= 0 else 400.0
        width = min(room_l, room_r, 320.0) - 6
        if lane == "M":
            width = min(width, 200.0)
        if width < 16:
            return
        text = doc.label(i, lang())
        gutter = self.horizontalScrollBar().value() + LEFT + 2
        # where the label may go without passing under the marker of the event before or after it
        # in its lane (under it, it would read as that event's label): preferred where it fits
        clear_lo = self.x_of(prev1) + 14 if prev1 >= 0 else -1e9
        clear_hi = self.x_of(next1) - 14 if next1 < self.n else 1e9
        # its own row first, then the other, each time in the room the labels placed so far leave
        # there (elided to fit); a label that fits in neither is left to the tooltip
        for r in (row, 1 - row):
            y = self.rows.label_y(lane, r)
            lo, hi = gutter, x + width
            bottom = y + 14
            for o_left, o_top, o_right, o_bottom in self._taken:
                if o_bottom <= y or o_top >= bottom:
                    continue
                if o_left + o_right <= 2 * x:  # its centre is left of the marker
                    if o_right + 8 > lo:
                        lo = o_right + 8
                elif o_left - 8 < hi:
                    hi = o_left - 8
            room = min(width, hi - lo - 2)
            if room < 24:
                continue
            shown = self._fm_small.elidedText(text, _ELIDE, room)
            if not shown or shown == "…":
                continue
            w = self._text_w(shown, self._fm_small)
            # centred under the marker where the room allows, never under the fixed gutter, and
            # clear of the neighbours' markers if it can be
            c_lo, c_hi = max(lo, clear_lo), min(hi, clear_hi)
            if c_hi - c_lo >= w + 2:
                left = min(max(x - w / 2, c_lo), c_hi - w - 2)
            else:
                left = min(max(x - w / 2, lo), hi - w - 2)
            rect = QRectF(left, y, w + 2, 14)
            if self._place(rect, lane):
                p.setPen(color)
                p.drawText(rect, _LEFT_MID, shown)
                return

    def _place(self, rect: QRectF, lane: str | None = None) -> bool:
        """Take ``rect`` for a label if it is inside its lane and meets no label or marker placed
        in this paint (:attr:`painted_labels`, kept for the tests)."""
        if lane is not None:
            top, bottom = self.rows.lane_bounds(lane)
            if rect.top() < top or rect.bottom() > bottom:
                return False
        left, top = rect.left(), rect.top()
        right, bottom = left + rect.width(), top + rect.height()
        for o_left, o_top, o_right, o_bottom in self._taken:  # (QRectF.intersects, on floats: faster)
            if left < o_right and o_left < right and top < o_bottom and o_top < bottom:
                return False
        self._taken.append((left, top, right, bottom))
        self.painted_labels.append(rect)
        return True

    def _paint_chains(self, p: QPainter, i0: int, i1: int, labels: bool) -> None:
        doc, t, rows = self.doc, self.theme, self.rows
        chains = doc.replay.chains
        if not chains:
            return
        # chains are in order and do not overlap: bisect for those in view
        j = bisect_right(chains, i1, key=_START)
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
            p.setBrush(_NO_BRUSH)
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
                        p.drawText(rect, _LEFT_MID, text)
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
                    shown = self._fm_small.elidedText(text, _ELIDE, room)
                    w = self._text_w(shown, self._fm_small) + 2
                    rect = QRectF(x - w / 2, y - 16, w, 13)
                    if shown and self._place(rect, "M"):
                        p.drawText(rect, _CENTER, shown)

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
        events = doc.events  # (the few on screen: no list of every event's line made for them)
        for i in range(start, i1, step):
            if i < 0 or i >= self.n:
                continue
            x = self.x_of(i)
            p.drawLine(QLineF(x, y, x, y + 3))
            p.drawText(QRectF(x - 28, y + 2, 56, h - 2), _CENTER, f"{events[i].span.line}")
