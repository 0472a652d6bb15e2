"""Timeline labels never overlap and stay in their lane, at laptop sizes and up (issue 14, point 9):
the rectangles the timeline really painted are checked, for every top-level sample of both games."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from replayer.gui.app import MainWindow

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples" / "ygo").glob("*.duel")) + sorted((ROOT / "samples" / "dm").glob("*.duel"))
SIZES = [(1280, 720), (1366, 768), (1600, 1000)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_painted_labels_do_not_overlap_and_stay_in_their_lane(qtbot, qapp, size):
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.resize(*size)
    window.show()
    qapp.processEvents()
    painted = 0
    for path in SAMPLES:
        window.open_path_now(str(path))
        for _ in range(3):
            qapp.processEvents()
        view = window.timeline
        view.render_image()
        rects = list(view.painted_labels)
        painted += len(rects)
        for a, b in combinations(rects, 2):
            assert not a.intersects(b), (path.name, size, a, b)
        lanes = [view.rows.lane_bounds(lane) for lane in ("A", "M", "B")]
        for r in rects:
            assert any(top <= r.top() and r.bottom() <= bottom for top, bottom in lanes), (path.name, size, r)
    assert painted > 3 * len(SAMPLES)  # labels were painted, not all dropped
    window.close()


def test_band_labels_use_a_short_form_before_eliding():
    from PySide6.QtGui import QFont, QFontMetricsF

    from replayer.gui.timeline import SHORT_BAND_LABELS

    fm = QFontMetricsF(QFont())
    room = fm.horizontalAdvance("pre-calc") + 1
    forms = SHORT_BAND_LABELS["before calc"]
    assert next(f for f in forms if fm.horizontalAdvance(f) <= room) == "pre-calc"


def test_the_legend_is_wide_enough_for_every_line(qtbot):
    from PySide6.QtGui import QFontMetricsF

    from replayer.gui.legend import LegendCanvas
    from replayer.gui.theme import THEMES

    canvas = LegendCanvas(THEMES["light"])
    qtbot.add_widget(canvas)
    fm = QFontMetricsF(canvas.font_)
    marker_col, x2, width = canvas._columns()
    assert all(38 + fm.horizontalAdvance(text) <= x2 for text in canvas.LEFT_TEXTS)  # the line the issue saw cut
    assert all(x2 + 34 + fm.horizontalAdvance(text) <= width for text in canvas.BAND_TEXTS)
    assert all(14 + marker_col + 24 + fm.horizontalAdvance(name) <= width for _, name in canvas._entries())
    assert canvas.sizeHint().width() >= width
