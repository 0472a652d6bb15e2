"""The video pane's keys (issue 15: "the keys people know from video tools"): ``<`` / ``>`` step the
speed through 0.25× … 2×, Alt+S is Sync here, every control's tooltip names its key, and while
the log is being edited the keys that type a character type it and do nothing else.

The video is the one tests/gui/test_video.py makes (every frame shows its own number).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from replayer.timecodes import parse_offset

from .conftest import open_and_wait
from .footage import FPS, make_video
from .test_video import event_at, seek_and_read, shown_frame, write_log

SPEEDS = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]


@pytest.fixture(scope="module")
def footage(tmp_path_factory):
    return make_video(tmp_path_factory.mktemp("footage") / "match.mp4", seconds=9)


def _speed(pane) -> float:
    return pane.speed.currentData()


def test_the_speed_keys_step_through_a_quarter_to_twice(qtbot, window, tmp_path, footage):
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    seek_and_read(qtbot, window, event_at(doc, "@0:02"))
    assert [pane.speed.itemData(k) for k in range(pane.speed.count())] == SPEEDS
    assert _speed(pane) == 1.0
    got = []
    for _ in range(5):  # paused: the speed changes, the video stays paused
        qtbot.keyClick(window, ">")
        got.append(_speed(pane))
    assert got == [1.25, 1.5, 2.0, 2.0, 2.0] and not pane.playing()
    assert window.statusBar().currentMessage() == "Video speed 2×"
    got = []
    for _ in range(8):
        qtbot.keyClick(window, "<")
        got.append(_speed(pane))
    assert got == [1.5, 1.25, 1.0, 0.75, 0.5, 0.25, 0.25, 0.25]
    # playing: the player's rate follows at once
    qtbot.keyClick(window, Qt.Key_Space)
    assert pane.playing() and pane.player.playbackRate() == 0.25
    qtbot.keyClick(window, ">")
    assert pane.player.playbackRate() == 0.5 and pane.playing()
    qtbot.keyClick(window, Qt.Key_L)  # L while playing: faster, through the same steps
    assert _speed(pane) == 0.75
    qtbot.keyClick(window, Qt.Key_J)
    assert _speed(pane) == 0.5
    qtbot.keyClick(window, Qt.Key_K)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)


def test_the_speed_keys_work_with_the_log_pane_focused(qtbot, window, tmp_path, footage):
    open_and_wait(qtbot, window, write_log(tmp_path, footage))
    view = window.log_pane.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    qtbot.keyClick(view, ">")
    assert _speed(window.video) == 1.25
    qtbot.keyClick(view, "<")
    qtbot.keyClick(view, "<")
    assert _speed(window.video) == 0.75


def test_alt_s_syncs_here(qtbot, window, tmp_path, footage):
    path = write_log(tmp_path, footage)
    doc = open_and_wait(qtbot, window, path)
    pane = window.video
    seek_and_read(qtbot, window, event_at(doc, "@0:03"))
    for _ in range(10):  # the event happens 10 frames later in this cut
        qtbot.keyClick(window, Qt.Key_Right, Qt.ShiftModifier)
        assert pane.wait_for_frame(4000)
    assert abs(shown_frame(pane) - (3 * FPS + 10)) <= 1
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        qtbot.keyClick(window, Qt.Key_S, Qt.AltModifier)
    offset = parse_offset(window.doc.match.header["VideoOffset"])
    assert abs(offset - 10 / FPS) <= 1 / FPS + 1e-9
    assert '[VideoOffset "' in path.read_text(encoding="utf-8")


def test_typing_in_the_editor_types_the_video_keys(qtbot, window, tmp_path, footage):
    """While the log is edited, Space, J, K, L, < and > are letters of the text: the video keeps
    its speed, position and state; Shift+← selects text. Alt+S still syncs (into the text)."""
    path = write_log(tmp_path, footage)
    doc = open_and_wait(qtbot, window, path)
    pane = window.video
    start = seek_and_read(qtbot, window, event_at(doc, "@0:05"))
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    cursor = view.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    view.setTextCursor(cursor)
    target = pane.target_ms
    qtbot.keyClicks(view, "# J K L <> jkl")
    assert view.toPlainText().endswith("# J K L <> jkl")
    qtbot.keyClick(view, Qt.Key_Left, Qt.ShiftModifier)
    assert view.textCursor().selectedText() == "l"
    assert _speed(pane) == 1.0 and not pane.playing() and pane.target_ms == target
    assert shown_frame(pane) == start
    # a key with a modifier is no letter: Sync here goes into the text being edited (undoable);
    # once the re-check of the typing is in (it selects the event at the typing cursor)
    qtbot.waitUntil(ed.idle, timeout=10_000)
    window.select_event(event_at(doc, "@0:05"))
    assert window.video.current == event_at(doc, "@0:05")
    assert pane.wait_for_frame(4000)
    qtbot.keyClick(view, Qt.Key_S, Qt.AltModifier)
    assert '[VideoOffset "' in view.toPlainText()
    assert '[VideoOffset "' not in path.read_text(encoding="utf-8")  # not saved yet


@pytest.mark.parametrize("control, key", [("play_button", "Space"), ("play_button", "J"), ("play_button", "K"),
                                          ("play_button", "L"), ("play_button", "Shift+←"),
                                          ("slider", "Shift+←/→"), ("speed", "<"), ("speed", ">"),
                                          ("sync_button", "Alt+S")])
def test_every_video_control_names_its_key(window, control, key):
    assert key in getattr(window.video, control).toolTip()


def test_the_video_keys_are_in_the_menu_with_their_names(window):
    acts = {a.shortcut().toString(): a for a in window.actions() if not a.shortcut().isEmpty()}
    for key, words in (("J", "back"), ("K", "pause"), ("L", "faster"), ("<", "slower"), (">", "faster"),
                       ("Alt+S", "sync"), ("Shift+Left", "frame"), ("Shift+Right", "frame")):
        assert key in acts, key
        assert words in acts[key].toolTip().lower(), (key, acts[key].toolTip())
        assert f"({key.replace('Left', '←').replace('Right', '→')})" in acts[key].toolTip()
