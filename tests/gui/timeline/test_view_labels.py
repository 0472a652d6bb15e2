"""Timeline labels never overlap and stay in their lane, at laptop sizes and up (issue 14, point 9):
the rectangles the timeline really painted are checked, for every top-level sample of both games.
Band labels (turn, phase, step, timing) take the game's shorter forms before they are elided,
stay inside their band, and say their long form in a tooltip; the window fits the screen and
the timeline's rows fit the timeline."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF

from replayer.games import get as get_game
from replayer.gui.app import MainWindow

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "samples" / "ygo").glob("*.duel")) + sorted((ROOT / "samples" / "dm").glob("*.duel"))
SIZES = [(1280, 720), (1366, 768), (1600, 1000)]


def _check_bands(view, name, size) -> int:
    """Every band text is inside its band, and elided only when none of the game's forms fits."""
    forms = get_game(view.doc.match.game).band_forms
    for text_rect, shown, band, room in view.painted_bands:
        assert band.left() <= text_rect.left() and text_rect.right() <= band.right() + 0.5, (name, size, shown)
        assert text_rect.width() <= room + 0.5, (name, size, shown)
    # (the bands of this paint, with their segment: the longest form that fits was taken)
    elided = [shown for _, shown, _, _ in view.painted_bands if shown.endswith("…")]
    for shown in elided:
        stem = shown[:-1]
        candidates = [f for fs in forms.values() for f in fs if f.startswith(stem)]
        assert candidates, (name, size, shown)
    return len(view.painted_bands)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_painted_labels_do_not_overlap_and_stay_in_their_lane(qtbot, qapp, size):
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.resize(*size)
    window.show()
    qapp.processEvents()
    painted = bands = 0
    for path in SAMPLES:
        window.open_path_now(str(path))
        for _ in range(3):
            qapp.processEvents()
        # the window fits the screen it was sized for (the video pane too), and every row of
        # the timeline fits the timeline (the axis is not cut off at 720 px)
        assert window.width() <= size[0] and window.height() <= size[1], (path.name, window.size())
        view = window.timeline
        assert view.rows.height <= view.viewport().height() + 0.5, (path.name, size)
        view.render_image()
        rects = list(view.painted_labels)
        painted += len(rects)
        for a, b in combinations(rects, 2):
            assert not a.intersects(b), (path.name, size, a, b)
        lanes = [view.rows.lane_bounds(lane) for lane in ("A", "M", "B")]
        for r in rects:
            assert any(top <= r.top() and r.bottom() <= bottom for top, bottom in lanes), (path.name, size, r)
        bands += _check_bands(view, path.name, size)
        # the Damage Step's timing bands, one event wide at these sizes, are never elided
        timing_top = view.rows.timing[0] if view.rows.timing else None
        assert not [s for r, s, _, _ in view.painted_bands if r.top() == timing_top and s.endswith("…")], \
            (path.name, size)
    assert painted > 3 * len(SAMPLES)  # labels were painted, not all dropped
    assert bands > 3 * len(SAMPLES)
    window.close()


def test_band_labels_take_a_short_form_before_eliding_and_tell_the_long_one(qtbot, qapp):
    """A one-event timing band at the least zoom that shows labels writes "pre", not "be…", and
    its tooltip says "before damage calculation"."""
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.resize(1280, 720)
    window.show()
    window.open_path_now(str(ROOT / "samples" / "ygo" / "honest-in-calc.duel"))
    view = window.timeline
    from replayer.gui.timeline.view import LABELS_PPE

    view.set_pixels_per_event(LABELS_PPE)
    timings = view.doc.replay.timings
    before = next(s for s in timings if s.name == "before-calc")
    assert before.end - before.start == 1
    view.center_on(before.start)
    qapp.processEvents()
    view.render_image()
    x_event = view.x_of(before.start)
    shown = [s for _, s, band, _ in view.painted_bands
             if band.top() == view.rows.timing[0] and band.left() <= x_event <= band.right()]
    assert "pre" in shown, view.painted_bands
    assert not any(s.endswith("…") for s in shown)
    # the tooltip: the long form, from the game's vocabulary
    x = int(view.mapFromScene(QPointF(x_event, 0)).x())
    y = int(view.mapFromScene(QPointF(0, view.rows.timing[0] + 5)).y())
    band = view.band_at(QPoint(x, y))
    assert band is not None and band.name == "before-calc"
    assert view.band_tooltip(band) == "before damage calculation"
    window.close()


def test_the_game_names_the_forms_of_its_band_labels_longest_first():
    from PySide6.QtGui import QFont, QFontMetricsF

    fm = QFontMetricsF(QFont())
    for game in ("ygo", "dm"):
        forms = get_game(game).band_forms
        assert forms, game
        for key, fs in forms.items():
            widths = [fm.horizontalAdvance(f) for f in fs]
            assert widths[0] == max(widths), (game, key, fs)
    assert get_game("ygo").band_forms[("timing", "before-calc")][:2] == ("before damage calculation", "before calc")


def test_a_label_does_not_pass_under_its_neighbours_marker_when_it_has_room_not_to(qtbot, qapp):
    """honest-in-calc at 1280x720: "… ATK 4700" sat under Honest's marker and read as its label."""
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.resize(1280, 720)
    window.show()
    doc = window.open_path_now(str(ROOT / "samples" / "ygo" / "honest-in-calc.duel"))
    for _ in range(3):
        qapp.processEvents()
    view = window.timeline
    honest = next(i for i, e in enumerate(doc.events) if "Honest" in doc.label(i))
    atk = next(i for i, e in enumerate(doc.events) if "ATK 4700" in doc.label(i))
    view.render_image()
    x_honest, x_atk = view.x_of(honest), view.x_of(atk)
    label_top = view.rows.label_y("A", 0)
    under = [r for r in view.painted_labels if r.top() == label_top and r.left() <= x_honest <= r.right()]
    assert not under, under
    assert any(r.left() <= x_atk <= r.right() for r in view.painted_labels)
    window.close()


def test_the_legend_is_wide_enough_for_every_line(qtbot):
    from PySide6.QtGui import QFontMetricsF

    from replayer.gui.legend.dialog import LegendCanvas
    from replayer.gui.shared.theme import THEMES

    canvas = LegendCanvas(THEMES["light"])
    qtbot.add_widget(canvas)
    fm = QFontMetricsF(canvas.font_)
    marker_col, x2, width = canvas._columns()
    assert all(38 + fm.horizontalAdvance(text) <= x2 for text in canvas.LEFT_TEXTS)  # the line the issue saw cut
    assert all(x2 + 34 + fm.horizontalAdvance(text) <= width for text in canvas.BAND_TEXTS)
    assert all(14 + marker_col + 24 + fm.horizontalAdvance(name) <= width for _, name in canvas._entries())
    assert canvas.sizeHint().width() >= width
