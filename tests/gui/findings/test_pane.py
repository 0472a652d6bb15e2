"""The findings list says when it is empty, and picking a finding brings its line into the log's view
(issue 23, point 4)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from ..conftest import open_and_wait


def _long_log(tmp_path, findings_at=(46, 120)):
    lines = ['[Game "ygo"]', '[A "Yuki"]', '[B "Kaiba"]', ""]
    t = 0
    while len(lines) < 160:
        t += 1
        p = "AB"[t % 2]
        lines += [f"turn {t} {p}", f"{p}: draw", "phase main1", f'{p}: set "Sangan"']
    for n in findings_at:
        lines[n - 1] = 'A: atack "Lyla" -> direct'  # a syntax finding on line n
    path = tmp_path / "long.duel"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _visible_lines(view) -> range:
    first, last = view._visible_blocks()
    return range(first + 1, last + 1)


def test_an_empty_findings_list_says_no_findings(qtbot, window, tmp_path):
    path = tmp_path / "clean.duel"
    path.write_text('[Game "ygo"]\nturn 1 A\nA: draw\n', encoding="utf-8")
    assert window.findings.view.empty_text == "no log open"
    doc = open_and_wait(qtbot, window, path)
    assert doc.findings == []
    view = window.findings.view
    assert view.empty_text == "no findings"
    image = view.viewport().grab().toImage()
    assert len({image.pixel(x, y) for x in range(0, image.width(), 3) for y in range(0, 40)}) > 1  # text drawn


def test_a_list_emptied_by_the_filters_says_so(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, _long_log(tmp_path))
    for box in window.findings.sev_boxes.values():
        box.setChecked(False)
    assert window.findings.view.empty_text == "no findings match the filters"
    window.findings.sev_boxes["error"].setChecked(True)
    assert window.findings.view.empty_text == ""


@pytest.mark.parametrize("editing", [False, True], ids=["reading", "editing"])
def test_picking_a_finding_scrolls_the_log_to_its_line(qtbot, window, tmp_path, editing):
    window.resize(1280, 720)
    doc = open_and_wait(qtbot, window, _long_log(tmp_path))
    if editing:
        window.editor.start()
    view = window.log_pane.view
    table = window.findings.view
    for line in (120, 46, 120):
        k = next(k for k, f in enumerate(doc.findings) if f.span.line == line)
        row = window.findings.proxy.proxy_row_of(k)
        index = window.findings.proxy.index(row, 1)
        table.scrollTo(index)
        qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualRect(index).center())
        qtbot.waitUntil(lambda: view.selected_line == line, timeout=3000)
        assert line in _visible_lines(view), (line, _visible_lines(view))
        assert line - 1 in _visible_lines(view) and line + 1 in _visible_lines(view)  # not at the very edge
