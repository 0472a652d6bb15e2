"""The legend (F1) lists every key of the window, read from its actions and shortcuts (issue 15:
the video pane's and the editor's keys were missing from a list kept by hand)."""

from __future__ import annotations

import pytest

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QScrollArea

from replayer.gui.app import MainWindow
from replayer.gui.legend.dialog import key_text


def _keys_of(item) -> list[str]:
    seqs = item.shortcuts() if isinstance(item, QAction) else [item.key()]
    return [key_text(s) for s in seqs if not s.isEmpty()]


def test_every_action_and_shortcut_with_a_key_is_in_the_legend(qtbot, qapp):
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.show()
    # one added later, as an extension would, and a bare QShortcut: listed too
    late = QAction("Frobnicate", window)
    late.setShortcut(QKeySequence("Ctrl+Alt+F"))
    window.addAction(late)
    bare = QShortcut(QKeySequence("Ctrl+Alt+G"), window)
    bare.setWhatsThis("do the other thing")
    window.show_legend()
    dlg = window._legend
    listed = {keys for _, keys, _ in dlg.rows}
    text = dlg.keys.text()
    items = [a for a in window.findChildren(QAction) if a.shortcuts()] + window.findChildren(QShortcut)
    assert len(items) >= 25
    for item in items:
        keys = " / ".join(_keys_of(item))
        assert keys in listed, (keys, item)
        assert keys.split(" / ")[0] in text
    # the video pane's and the editor's keys (issue 15), under the names people know them by
    for key in ("Space", "J", "K", "L", "Shift+←", "Shift+→", "<", ">", "Alt+S", "Ctrl+T", "Ctrl+Space", "Ctrl+S",
                "F1", "Ctrl+Alt+F", "Ctrl+Alt+G", "F7", "F8", "F9", "Shift+F7", "Shift+F9", "Ctrl+Shift+F7",
                "Ctrl+Shift+F9"):
        assert key in listed, key
    whats = {keys: what for _, keys, what in dlg.rows}
    groups = {keys: group for group, keys, _ in dlg.rows}
    # the video keys together under their submenu's name, each saying what it does
    for key, words in (("J", "back"), ("K", "pause"), ("L", "faster"), ("<", "slower"), (">", "faster"),
                       ("Alt+S", "sync"), ("Shift+←", "frame back"), ("Shift+→", "frame on"),
                       ("F7", "back 2 s"), ("F8", "play / pause"), ("F9", "forward 2 s"), ("Shift+F7", "slower"),
                       ("Shift+F9", "faster"), ("Ctrl+Shift+F7", "one frame back"), ("Ctrl+Shift+F9", "one frame on")):
        assert groups[key] == "Video", (key, groups[key])
        assert words in whats[key].lower(), (key, whats[key])
    # the keys that work while typing say so, and come together (back, play / pause, on, slower, faster,
    # a frame back, a frame on)
    video = [keys for group, keys, _ in dlg.rows if group == "Video"]
    typing = [keys for keys in video if "while typing" in whats[keys]]
    assert typing == ["F7", "F8", "F9", "Shift+F7", "Shift+F9", "Ctrl+Shift+F7", "Ctrl+Shift+F9"], typing
    assert video[video.index("F7"):video.index("F7") + len(typing)] == typing
    assert "video" in whats["Space"] and "complete" in whats["Ctrl+Space"].lower()
    assert len(set(whats.values())) == len(whats)  # no two keys are described alike
    assert whats["Ctrl+Alt+G"] == "do the other thing"
    assert whats["←"] == "Previous event"  # the tooltip, less the "(←)" that repeats the key
    # the keys the timeline handles itself (the wheel, drag) are declared by it, and listed
    assert any("wheel" in keys for keys in listed)
    dlg.close()


@pytest.mark.parametrize("room", [(1280, 720), (1366, 768), (800, 600)])
def test_the_legend_fits_a_laptop_screen(qtbot, qapp, room):
    """Issue 23 (6): at 1280×720 the keys were cut on the right behind a horizontal scroll bar. Two
    columns of keys where they fit across, else one that scrolls down; never across."""
    from PySide6.QtCore import QSize

    from replayer.gui.legend.dialog import LegendDialog

    window = MainWindow(theme="dark")
    qtbot.add_widget(window)
    window.show()
    dlg = LegendDialog(window.theme, window, room=QSize(*room))
    qtbot.add_widget(dlg)
    dlg.show()
    assert dlg.width() <= room[0] and dlg.height() <= room[1]
    for page in range(2):
        dlg.tabs.setCurrentIndex(page)
        qapp.processEvents()
        scroll = dlg.findChild(QScrollArea)
        assert not scroll.horizontalScrollBar().isVisible(), (room, page)
        assert scroll.horizontalScrollBar().maximum() == 0, (room, page)
    if room[0] >= 1280:
        assert dlg.keys.text().count("<td valign='top'") == 2  # the keys side by side where they fit
    dlg.close()


def test_no_two_keys_are_the_same(qtbot, qapp):
    """Every action and shortcut of the window has keys of its own (a key given twice makes Qt
    fire neither: "ambiguous shortcut")."""
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    owners: dict[str, str] = {}
    for item in window.findChildren(QAction) + window.findChildren(QShortcut):
        for key in _keys_of(item):
            name = item.text() if isinstance(item, QAction) else item.whatsThis()
            assert key not in owners, f"{key} is both {owners[key]!r} and {name!r}"
            owners[key] = name
    assert {"<", ">", "Alt+S", "J", "K", "L", "Space", "Ctrl+Space", "F7", "F8", "F9", "Shift+F7", "Shift+F9",
            "Ctrl+Shift+F7", "Ctrl+Shift+F9", "Ctrl+T", "Ctrl+S", "Ctrl+Z", "Ctrl+N", "F1", "F5"} <= set(owners)


def test_the_keys_columns_are_balanced():
    """The groups go into the columns in order so that the tallest is as short as it can be (the
    window's groups, with the video's 15 keys: 24 rows and headings on the left, 27 on the right;
    filling the left to half first put 40 there)."""
    from replayer.gui.legend.dialog import keys_html

    sizes = {"File": 7, "Edit": 4, "View": 10, "Video": 15, "Review": 4, "Help": 1, "Timeline": 3}
    rows = [(group, f"{group}{k}", "x") for group, n in sizes.items() for k in range(n)]
    columns = keys_html(rows, "#888").split("<td valign='top'")[1:]
    assert len(columns) == 2
    assert [g for g in sizes if f"<b>{g}</b>" in columns[0]] == ["File", "Edit", "View"]
    assert [g for g in sizes if f"<b>{g}</b>" in columns[1]] == ["Video", "Review", "Help", "Timeline"]
    one = keys_html(rows[:3], "#888").split("<td valign='top'")[1:]
    assert len(one) == 1  # one group: one column
