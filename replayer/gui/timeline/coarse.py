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
    # The rectangles of a level are made in bin coordinates (x: the bin's number, width: bins; y in
    # pixels), a chunk of the pyramid's bins at a time, and kept: they do not depend on the zoom, only
    # on the bin size and the rows. A paint draws the chunks it exposes through a transform that puts
    # bin b at LEFT + b * (size * ppe), so a new zoom of the same bin size (Ctrl+wheel) makes no
    # rectangle at all. (Antialiasing is off here: a scaled rectangle fills the pixels whose centres
    # it covers, so the bins of a row meet without gaps or overlaps.)

    def _bins(self, i0: int, i1: int):
        """The pyramid's bins for events [i0, i1) at the current zoom (at least 1.5 px each)."""
        pyr = self.doc.pyramid
        size = pyr.size_for(self.ppe)
        key = (pyr, size, i0 // size, i1 // size + 1)  # (the pyramid itself: compared by identity)
        last = getattr(self, "_last_bins", None)
        if last is not None and last[0] == key:
            return last[1]
        level = pyr.bins(size, key[2], key[3])
        self._last_bins = (key, level)
        return level

    def _level_key(self, i0: int, i1: int) -> tuple:
        """The bin size and the bins [b0, b1) for events [i0, i1) at the current zoom."""
        pyr = self.doc.pyramid
        size = pyr.size_for(self.ppe)
        return size, max(i0 // size, 0), min(i1 // size + 1, pyr.nbins(size))

    def _chunks(self, kind: str, size: int, b0: int, b1: int, make) -> list:
        """The kept rectangles (bin coordinates) of ``kind`` for the pyramid's chunks that hold
        bins [b0, b1): ``make(level)`` of each chunk's bins, once per bin size and rows."""
        pyr = self.doc.pyramid
        chunk = pyr.CHUNK
        out = []
        for c in range(b0 // chunk, (b1 - 1) // chunk + 1 if b1 > b0 else 0):
            out.append(self._coarse_kept((kind, size, c, self.rows.key),
                                         lambda c=c: make(pyr.bins(size, c * chunk, (c + 1) * chunk))))
        return out

    def _in_bins(self, p: QPainter, size: int) -> None:
        """Paint in bin coordinates from here on (until ``p.restore()``)."""
        p.save()
        p.translate(LEFT, 0)
        p.scale(size * self.ppe, 1)

    def _paint_bands_coarse(self, p: QPainter, i0: int, i1: int, vis_left: float, exposed: QRectF) -> None:
        t, r, doc = self.theme, self.rows, self.doc
        width = exposed.width()
        j0, j1 = self._segment_range(doc.replay.turns, i0, i1)
        size, b0, b1 = self._level_key(i0, i1)
        bw = size * self.ppe
        if j1 - j0 <= width / 6:
            for s in doc.replay.turns[j0:j1]:
                self._band(p, s, r.turn[0], r.turn[1], QColor(t.turn.get(s.player, t.turn[None])),
                           vis_left, self._bold, self._fm_bold, QColor(t.turn_text), QColor(t.grid))
        else:
            # turns too thin to draw one by one: whose turns fill each bin, merged into runs
            y, h = int(r.turn[0]), int(r.turn[1])
            chunks = self._chunks("turns", size, b0, b1, lambda level: self._turn_runs(level, y, h))
            p.setPen(Qt.NoPen)
            self._in_bins(p, size)
            for v in (True, False):
                p.setBrush(QColor(t.turn["A" if v else "B"]))
                for rects in chunks:
                    if rects[v]:
                        p.drawRects(rects[v])
            p.restore()
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
        rows = self._band_rows()
        p.setPen(Qt.NoPen)
        for flag, y, h, off in rows:
            if off:
                p.setBrush(QColor(t.phase))
                p.drawRect(QRect(int(LEFT + b0 * bw), y, int((b1 - b0) * bw) + 1, h))
        chunks = self._chunks("bands", size, b0, b1, lambda level: self._flag_bands(level, rows))
        self._in_bins(p, size)
        for k, (flag, y, h, off) in enumerate(rows):
            p.setBrush(QColor(t.phase_battle if off else t.substep if flag == F_BATTLE else t.timing))
            for bands in chunks:
                if bands[k]:
                    p.drawRects(bands[k])
        p.restore()
        p.setFont(self._small)
        p.setPen(QColor(t.dim))
        lx = max(vis_left, LEFT) + 4
        p.drawText(QRectF(lx, r.phase[0], 220, r.phase[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   word(doc.match.game, get_game(doc.match.game).label("battle-phases")))
        p.drawText(QRectF(lx, r.step[0], 220, r.step[1]), Qt.AlignVCenter | Qt.AlignLeft,
                   word(doc.match.game, get_game(doc.match.game).label("battles")))

    @staticmethod
    def _turn_runs(level, y: int, h: int) -> dict[bool, list[QRect]]:
        """Whose turns fill each of ``level``'s bins (A's: True), merged into runs of bins, as
        rectangles in bin coordinates."""
        turn_a = level.turn_a
        half = level.size / 2
        rects: dict[bool, list[QRect]] = {True: [], False: []}
        b0 = level.b0
        b, b1 = 0, len(turn_a)
        while b < b1:
            v = turn_a[b] >= half
            e = b + 1
            while e < b1 and (turn_a[e] >= half) == v:
                e += 1
            rects[v].append(QRect(b0 + b, y, e - b, h))
            b = e
        return rects

    def _band_rows(self) -> list[tuple[int, int, int, bool]]:
        """The band rows drawn where the bins' flags say so: (flag, top, height, with the phase row's
        background), in drawing order. The Battle Phase on the phase row; below it the Damage Step
        (Duel Masters: the attack sub-steps) on the step row, and on the timing row when there is one."""
        r = self.rows
        rows = [(F_BATTLE, r.phase, True)]
        if self.doc.replay.step_kind == "substep":
            rows.append((F_BATTLE, r.step, False))
        else:
            rows.append((F_DAMAGE, r.step, False))
            if r.timing is not None:
                rows.append((F_DAMAGE, r.timing, False))
        return [(flag, int(y), int(h), off) for flag, (y, h), off in rows]

    def _flag_bands(self, level, rows) -> list[list[QRect]]:
        """For each of ``rows`` (:meth:`_band_rows`), the runs of ``level``'s flagged bins as
        rectangles in bin coordinates."""
        return [self._flag_runs(level, flag, y, h) for flag, y, h, _ in rows]

    @staticmethod
    def _flag_runs(level, flag: int, y: int, h: int) -> list[QRect]:
        flags = level.flags
        b0 = level.b0
        rects = []
        b, b1 = 0, len(flags)
        while b < b1:
            if flags[b] & flag:
                e = b + 1
                while e < b1 and flags[e] & flag:
                    e += 1
                rects.append(QRect(b0 + b, y, e - b, h))
                b = e
            else:
                b += 1
        return rects

    def _paint_coarse(self, p: QPainter, i0: int, i1: int) -> None:
        """Per-bin aggregates: event density per lane, the worst finding, chains and notes."""
        t = self.theme
        size, b0, b1 = self._level_key(i0, i1)
        chunks = self._chunks("coarse", size, b0, b1, self._coarse_rects)
        p.setPen(Qt.NoPen)
        self._in_bins(p, size)
        for lane in LANES:
            p.setBrush(self._density_colour(lane))
            for density, _, _ in chunks:
                if density[lane]:
                    p.drawRects(density[lane])
        # chains and notes as thin marks in the table lane
        p.setBrush(QColor(t.chain))
        for _, chain_rects, _ in chunks:
            if chain_rects:
                p.drawRects(chain_rects)
        p.setBrush(QColor(t.note))
        for _, _, note_rects in chunks:
            if note_rects:
                p.drawRects(note_rects)
        p.restore()
        # the worst finding per bin, at least 3 px wide whatever the zoom (a few: made each paint)
        bw = size * self.ppe
        w = max(int(bw + 0.5), 1)
        sev = self.doc.pyramid.sev(size)
        sev_rects: dict[int, list[QRect]] = {1: [], 2: [], 3: []}
        for lane in LANES:
            stop = int(self.rows.lanes[lane][0] + 4)
            for b, s in sev[lane].items():
                if b0 <= b < b1:
                    sev_rects[s].append(QRect(int(LEFT + b * bw) - 1, stop, max(w, 3) + 1, 9))
        for s in (1, 2, 3):  # worst last, on top
            if sev_rects[s]:
                p.setBrush(QColor(t.severity[RANK_NAME[s]]))
                p.drawRects(sev_rects[s])

    def _coarse_kept(self, key: tuple, make):
        """``make()``, kept for ``key`` (rectangles of a zoomed-out level in bin coordinates: any
        zoom of the same bin size and rows draws them again without making them)."""
        cache = self._coarse_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= 1024:
                cache.clear()
            hit = cache[key] = make()
        return hit

    def _coarse_rects(self, level) -> tuple[dict[str, list[QRect]], list[QRect], list[QRect]]:
        """The rectangles of :meth:`_paint_coarse` for ``level``'s bins, in bin coordinates:
        density per lane, chains, notes."""
        rows = self.rows
        b0 = level.b0
        size = level.size
        xs = range(b0, b0 + len(level.flags))
        density: dict[str, list[QRect]] = {}
        for lane in LANES:
            top, h = rows.lanes[lane]
            base = int(top + h - 6)
            scale = (h - 24) / size
            density[lane] = [QRect(x, base - bh, 1, bh) for x, c in zip(xs, level.count[lane])
                             if c and (bh := max(int(c * scale + 0.5), 2))]
        top, h = rows.lanes["M"]
        # (runs of adjacent bins, one rectangle a run: the same pixels as one a bin)
        chain_rects = self._flag_runs(level, F_CHAIN, int(rows.bracket_y()) - 1, 3)
        note_rects = self._flag_runs(level, F_NOTE, int(top) + 2, 4)
        return density, chain_rects, note_rects

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
