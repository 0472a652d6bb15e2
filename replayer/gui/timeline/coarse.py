"""Painting the zoomed-out timeline and the fixed gutter (a part of :class:`~replayer.gui.timeline.view.TimelineView`).

Below ``MARKERS_PPE`` the timeline draws per-pixel aggregates from the document's pyramid
(density per lane, worst finding per bin, Battle Phase / Damage Step bands).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QLineF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from ..document import F_BATTLE, F_CHAIN, F_DAMAGE, F_NOTE, LANES
from ...games import get as get_game
from ..shared.language import tr
from ..shared.words import word
from .layout import LEFT, RANK_NAME

log = logging.getLogger("replayer.gui")


class CoarsePaintMixin:
    """The zoomed-out levels (bins of the pyramid) and the gutter with the row names."""

    # ---- the zoomed-out levels --------------------------------------------------------------------
    def _bins(self, i0: int, i1: int):
        """The pyramid's bins for events [i0, i1) at the current zoom (at least 1.5 px each)."""
        pyr = self.doc.pyramid
        size = pyr.size_for(self.ppe)
        key = (pyr, size, i0 // size, i1 // size + 1)  # (the pyramid itself: compared by identity)
        last = getattr(self, "_last_bins", None)
        if last is not None and last[0] == key:  # the bands and the lanes of one paint ask alike
            return last[1]
        level = pyr.bins(size, key[2], key[3])
        self._last_bins = (key, level)
        return level

    def _level_key(self, i0: int, i1: int) -> tuple:
        """What the rectangles of the zoomed-out level for events [i0, i1) depend on: the bin
        size and the bins (as :meth:`_bins` gives them), the zoom and the rows' geometry."""
        pyr = self.doc.pyramid
        size = pyr.size_for(self.ppe)
        return size, max(i0 // size, 0), min(i1 // size + 1, pyr.nbins(size)), self.ppe, self.rows.key

    def _paint_bands_coarse(self, p: QPainter, i0: int, i1: int, vis_left: float, exposed: QRectF) -> None:
        t, r, doc = self.theme, self.rows, self.doc
        width = exposed.width()
        j0, j1 = self._segment_range(doc.replay.turns, i0, i1)
        key = self._level_key(i0, i1)
        size, b0, b1 = key[:3]
        bw = size * self.ppe
        if j1 - j0 <= width / 6:
            for s in doc.replay.turns[j0:j1]:
                self._band(p, s, r.turn[0], r.turn[1], QColor(t.turn.get(s.player, t.turn[None])),
                           vis_left, self._bold, self._fm_bold, QColor(t.turn_text), QColor(t.grid))
        else:
            # turns too thin to draw one by one: whose turns fill each bin, merged into runs
            y, h = int(r.turn[0]), int(r.turn[1])
            rects = self._coarse_kept(("turns",) + key, lambda: self._turn_runs(self._bins(i0, i1), b0, b1, bw, y, h))
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
                    p.drawText(QRectF(x + 3, y, 104, h), Qt.AlignVCenter | Qt.AlignLeft, tr("Turn {n}", n=s.name))
                x += 110
        # phases, steps, timings: bands where the flags say so
        bands = self._coarse_kept(("bands",) + key, lambda: self._flag_bands(self._bins(i0, i1), b0, b1, bw))
        p.setPen(Qt.NoPen)
        for (flag, y, h, off), rects in bands.items():
            if off:
                p.setBrush(QColor(t.phase))
                p.drawRect(QRect(int(LEFT + b0 * bw), y, int((b1 - b0) * bw) + 1, h))
            if rects:
                p.setBrush(QColor(t.phase_battle if off else t.substep if flag == F_BATTLE else t.timing))
                p.drawRects(rects)
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        lx = max(vis_left, LEFT) + 4
        p.drawText(QRectF(lx, r.phase[0], 220, r.phase[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   word(doc.match.game, get_game(doc.match.game).label("battle-phases")))
        p.drawText(QRectF(lx, r.step[0], 220, r.step[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   word(doc.match.game, get_game(doc.match.game).label("battles")))

    @staticmethod
    def _turn_runs(level, b0: int, b1: int, bw: float, y: int, h: int) -> dict[bool, list[QRect]]:
        """Whose turns fill each bin (A's: True), merged into runs of bins, as rectangles."""
        turn_a = level.turn_a
        half = level.size / 2
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
        return rects

    def _flag_bands(self, level, b0: int, b1: int, bw: float) -> dict[tuple[int, int, int, bool], list[QRect]]:
        """The band rows drawn where the bins' flags say so: (flag, top, height, with the phase row's
        background) -> the runs of flagged bins as rectangles, in drawing order. The Battle Phase on
        the phase row; below it the Damage Step (Duel Masters: the attack sub-steps) on the step
        row, and on the timing row when there is one."""
        r = self.rows
        rows = [(F_BATTLE, r.phase, True)]
        if self.doc.replay.step_kind == "substep":
            rows.append((F_BATTLE, r.step, False))
        else:
            rows.append((F_DAMAGE, r.step, False))
            if r.timing is not None:
                rows.append((F_DAMAGE, r.timing, False))
        return {(flag, int(y), int(h), off): self._flag_runs(level, b0, b1, bw, flag, int(y), int(h))
                for flag, (y, h), off in rows}

    @staticmethod
    def _flag_runs(level, b0: int, b1: int, bw: float, flag: int, y: int, h: int) -> list[QRect]:
        flags = level.flags  # indexed from b0
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
        return rects

    def _paint_coarse(self, p: QPainter, i0: int, i1: int) -> None:
        """Per-bin aggregates: event density per lane, the worst finding, chains and notes."""
        t = self.theme
        density, chain_rects, note_rects, sev_rects = self._coarse_kept(
            ("coarse",) + self._level_key(i0, i1), lambda: self._coarse_rects(self._bins(i0, i1)))
        p.setPen(Qt.NoPen)
        for lane in LANES:
            if density[lane]:
                p.setBrush(self._density_colour(lane))
                p.drawRects(density[lane])
        # chains and notes as thin marks in the table lane
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

    def _coarse_kept(self, key: tuple, make):
        """``make()``, kept for ``key`` (the rectangles of a zoomed-out level, in scene coordinates:
        a repaint at the same zoom, height and range draws them again without making them)."""
        cache = self._coarse_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= 16:
                cache.clear()
            hit = cache[key] = make()
        return hit

    def _coarse_rects(self, level) -> tuple[dict[str, list[QRect]], list[QRect], list[QRect],
                                            dict[int, list[QRect]]]:
        """The rectangles of :meth:`_paint_coarse` for ``level``'s bins: density per lane, chains,
        notes, and the worst finding per bin by severity rank."""
        rows = self.rows
        b0, b1 = level.b0, level.b0 + len(level.flags)
        size = level.size
        bw = size * self.ppe
        w = max(int(bw + 0.5), 1)
        sev_rects: dict[int, list[QRect]] = {1: [], 2: [], 3: []}
        xs = [int(LEFT + b * bw) for b in range(b0, b1)]
        density: dict[str, list[QRect]] = {}
        for lane in LANES:
            top, h = rows.lanes[lane]
            base = int(top + h - 6)
            scale = (h - 24) / size
            heights = [max(int(c * scale + 0.5), 2) if c else 0 for c in level.count[lane]]
            density[lane] = [QRect(x, base - bh, w, bh) for x, bh in zip(xs, heights) if bh]
            stop = int(top + 4)
            for b, s in level.sev[lane].items():
                if b0 <= b < b1:
                    sev_rects[s].append(QRect(int(LEFT + b * bw) - 1, stop, max(w, 3) + 1, 9))
        top, h = rows.lanes["M"]
        flags = level.flags
        by = int(rows.bracket_y()) - 1
        chain_rects = [QRect(x, by, w, 3) for x, f in zip(xs, flags) if f & F_CHAIN]
        note_top, note_w = int(top) + 2, max(w, 2)
        note_rects = [QRect(x, note_top, note_w, 4) for x, f in zip(xs, flags) if f & F_NOTE]
        return density, chain_rects, note_rects, sev_rects

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
        gid = self.doc.match.game if self.doc else ""
        rows = [(tr("Turn"), r.turn), (tr("Phase"), r.phase),
                (word(gid, game.label("step-row")) if game else tr("Step"), r.step)]
        if r.timing is not None:
            rows.append((tr("DS timing"), r.timing))
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
                           word(gid, game.label("middle-lane")) if game else tr("Chains"))
                continue
            p.setFont(self._bold)
            p.setPen(QColor(t.text))
            p.drawText(QRectF(8, top + 6, LEFT - 16, 18), Qt.AlignTop | Qt.AlignLeft, tr("Player {player}", player=lane))
            p.setFont(self._font)
            name = names.get(lane, lane)
            if name != lane:
                p.drawText(QRectF(8, top + 24, LEFT - 16, 18), Qt.AlignTop | Qt.AlignLeft,
                           self._fm.elidedText(name, Qt.ElideRight, LEFT - 16))
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        p.drawText(QRectF(8, r.axis[0], LEFT - 16, r.axis[1]), Qt.AlignVCenter | Qt.AlignLeft, tr("line"))
        p.restore()
