"""The timeline's geometry: the gutter, the zoom levels, and the rows of bands and lanes.

Part of :mod:`replayer.gui.timeline.view`; the painting modules and the view read it.
"""

from __future__ import annotations

LEFT = 96  # the gutter with the row names
RIGHT = 24
LABELS_PPE = 24.0
MARKERS_PPE = 6.0
MAX_PPE = 240.0
DEFAULT_PPE = 44.0
RANK_NAME = {3: "error", 2: "warning", 1: "info"}

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
        #: what the rows' geometry depends on (for caches of things drawn in the rows)
        self.key = (timings, height)

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
