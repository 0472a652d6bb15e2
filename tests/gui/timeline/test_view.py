"""The timeline: geometry, zoom, level of detail, painting at every level."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor

from replayer.gui.document import document_from_text
from replayer.gui.shared.theme import LIGHT
from replayer.gui.timeline.view import LABELS_PPE, LEFT, MARKERS_PPE, TimelineView

from ..conftest import YGO_LOG


def long_log(turns: int) -> str:
    lines = ['[Game "ygo"]']
    for t in range(1, turns + 1):
        me, opp = ("A", "B") if t % 2 else ("B", "A")
        lines += [f"turn {t} {me}", "phase main1", f'{me}: normal summon "M{t}" 1000/1000', "phase battle",
                  f'{me}: attack "M{t}" -> direct', "step damage", "timing ds-start", "timing before-calc",
                  "timing calc", f"{opp}: damage 10", "timing after-calc", "timing ds-end", "step battle",
                  f'{me}: activate "Q" {{quick}}', f'{opp}: activate "R" {{quick}}', "resolve"]
        if t % 50 == 0:
            lines.append(f"{me}: oops")  # a syntax error every 50 turns
    return "\n".join(lines) + "\n"


def make_view(qtbot, doc, width=1000, height=420):
    view = TimelineView()
    qtbot.add_widget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    view.set_theme(LIGHT)
    view.set_document(doc)
    return view


def count_colour(image, colour: str, tol: int = 30) -> int:
    c = QColor(colour)
    n = 0
    for x in range(0, image.width(), 2):
        for y in range(0, image.height(), 2):
            p = QColor(image.pixel(x, y))
            if abs(p.red() - c.red()) + abs(p.green() - c.green()) + abs(p.blue() - c.blue()) <= tol:
                n += 1
    return n


def test_fit_zoom_and_anchor(qtbot):
    doc = document_from_text(YGO_LOG)
    view = make_view(qtbot, doc)
    view.fit_match()
    a, b = view.visible_range()
    assert (a, b) == (0, len(doc.events) - 1)
    assert view.ppe >= LABELS_PPE  # a short log shows every label
    # Ctrl+wheel zooms around the cursor: the event under it stays under it
    view.set_pixels_per_event(100)
    i = 7
    view.center_on(i)
    x = view.mapFromScene(QPointF(view.x_of(i), 10)).x()
    qtbot.wait(10)
    from PySide6.QtGui import QWheelEvent
    ev = QWheelEvent(QPointF(x, 200), QPointF(view.mapToGlobal(QPoint(x, 200))), QPoint(0, 0), QPoint(0, 120),
                     Qt.NoButton, Qt.ControlModifier, Qt.NoScrollPhase, False)
    view.wheelEvent(ev)
    assert abs(view.ppe - 125) < 1e-6
    assert abs(view.mapFromScene(QPointF(view.x_of(i), 10)).x() - x) <= 2
    # a plain wheel pans
    before = view.horizontalScrollBar().value()
    ev = QWheelEvent(QPointF(x, 200), QPointF(view.mapToGlobal(QPoint(x, 200))), QPoint(0, 0), QPoint(0, -120),
                     Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    view.wheelEvent(ev)
    assert view.horizontalScrollBar().value() > before


def test_drag_pans_and_click_selects(qtbot):
    doc = document_from_text(YGO_LOG)
    view = make_view(qtbot, doc)
    view.set_pixels_per_event(120)
    bar = view.horizontalScrollBar()
    bar.setValue(200)
    picked = []
    view.eventActivated.connect(picked.append)
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, pos=QPoint(500, 200))
    qtbot.mouseMove(vp, QPoint(420, 200))
    qtbot.mouseMove(vp, QPoint(400, 200))
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=QPoint(400, 200))
    assert bar.value() == 300 and picked == []  # a drag pans, it does not select
    # a click on the turn band selects the turn's first event
    qtbot.mouseClick(vp, Qt.LeftButton, pos=QPoint(600, int(view.rows.turn[0] + 5)))
    assert picked == [0]


def test_level_of_detail_for_a_long_log(qtbot):
    doc = document_from_text(long_log(400))
    assert len(doc.events) > 6000
    view = make_view(qtbot, doc)
    view.fit_match()
    assert view.ppe < MARKERS_PPE and "events per pixel" in view.detail_level()
    image = view.render_image()
    # the aggregated view still shows the syntax errors (red) and the Damage Steps (their band colour)
    assert count_colour(image, LIGHT.severity["error"]) > 5
    assert count_colour(image, LIGHT.timing, tol=8) > 100
    # zoom into markers, then labels: painting works at every level (a paint error is caught and
    # said once through ``problem``; none may be), the zoomed-out turns drawn one by one included
    problems: list[str] = []
    view.problem.connect(problems.append)
    for ppe in (0.5, 2, 4, 8, 30, 80):
        view.set_pixels_per_event(ppe)
        view.center_on(len(doc.events) // 2)
        img = view.render_image()
        assert not img.isNull()
        assert problems == [], (ppe, problems)
    assert view.detail_level() == "markers and labels"
    a, b = view.visible_range()
    assert 0 < a < b < len(doc.events) - 1


def test_badges_sit_on_their_events(qtbot):
    doc = document_from_text(YGO_LOG)
    view = make_view(qtbot, doc)
    for k in range(len(doc.findings)):
        c = view.badge_center(k)
        i = doc.finding_event[k]
        assert abs(c.x() - view.x_of(i)) <= view.ppe  # on (or just after) its event
        assert LEFT <= c.x() <= view.sceneRect().right()


def test_lane_neighbours_are_lane_neighbour_in_one_scan():
    doc = document_from_text(long_log(12))
    n = len(doc.events)
    for i in range(n):
        expect = (doc.lane_neighbour(i, -2), doc.lane_neighbour(i, -1), doc.lane_neighbour(i, 1),
                  doc.lane_neighbour(i, 2))
        assert doc.lane_neighbours(i) == expect, i
        assert doc.lane_neighbours(i, limit=3) == (doc.lane_neighbour(i, -2, 3), doc.lane_neighbour(i, -1, 3),
                                                   doc.lane_neighbour(i, 1, 3), doc.lane_neighbour(i, 2, 3)), i


def test_zoomed_out_level_of_a_new_document_is_its_own(qtbot):
    """The zoomed-out levels' rectangles are kept between repaints; a document of the same
    length shown next (a re-check) is drawn from its own bins, as a fresh view draws it."""
    first = document_from_text(long_log(400))
    # the same number of events, other players' lanes: A's and B's turns swapped
    second = document_from_text(long_log(400).replace("turn 1 A", "turn 1 B", 1).replace(" A\n", " X\n")
                                .replace(" B\n", " A\n").replace(" X\n", " B\n"))
    assert len(first.events) == len(second.events)
    view = make_view(qtbot, first)
    view.fit_match()
    assert view.ppe < MARKERS_PPE
    before = view.render_image()
    view.set_document(second)
    view.fit_match()
    shown = view.render_image()
    fresh = make_view(qtbot, second)
    fresh.fit_match()
    assert shown == fresh.render_image()
    assert shown != before


def test_a_new_zoom_of_the_same_bin_size_draws_the_kept_rectangles(qtbot):
    """The zoomed-out level's rectangles are kept in bin coordinates: another zoom of the same
    bin size makes none, and draws what a fresh view at that zoom draws."""
    doc = document_from_text(long_log(400))
    view = make_view(qtbot, doc)
    view.fit_match()
    view.render_image()
    size = doc.pyramid.size_for(view.ppe)
    kept = dict(view._coarse_cache)
    assert kept and all(key[1] == size for key in kept)
    ppe = view.ppe * 1.1
    assert doc.pyramid.size_for(ppe) == size
    view.set_pixels_per_event(ppe)
    view.center_on(len(doc.events) // 3)
    shown = view.render_image()
    assert view._coarse_cache.keys() == kept.keys()  # none made again
    assert all(view._coarse_cache[key] is rects for key, rects in kept.items())
    fresh = make_view(qtbot, doc)
    fresh.set_pixels_per_event(ppe)
    fresh.center_on(len(doc.events) // 3)
    assert shown == fresh.render_image()
    assert count_colour(shown, LIGHT.timing, tol=8) > 100
