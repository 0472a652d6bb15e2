"""The video pane's keys (issue 15: "the keys people know from video tools"): ``<`` / ``>`` step the
speed through 0.25× … 2×, Alt+S is Sync here, every control's tooltip names its key, and while
the log is being edited the keys that type a character type it and do nothing else; the keys
for transcribing (F7 / F8 / F9 back 2 s, play / pause, on 2 s; Shift+F7 / Shift+F9 slower /
faster; Ctrl+Shift+F7 / Ctrl+Shift+F9 pause and one frame back / on) work there, the text
unchanged.

The video is the one tests/gui/video/test_pane.py makes (every frame shows its own number).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from replayer.timecodes import parse_offset

from ..conftest import open_and_wait
from ..footage import FPS, make_video
from .test_pane import event_at, seek_and_read, shown_frame, write_log

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
                                          ("sync_button", "Alt+S"), ("play_button", "F8"),
                                          ("play_button", "F7 / F9"), ("slider", "F7 / F9"),
                                          ("play_button", "Shift+F7 / Shift+F9"), ("speed", "Shift+F7 / Shift+F9"),
                                          ("play_button", "Ctrl+Shift+F7 / Ctrl+Shift+F9"),
                                          ("slider", "Ctrl+Shift+F7 / Ctrl+Shift+F9")])
def test_every_video_control_names_its_key(window, control, key):
    assert key in getattr(window.video, control).toolTip()


def test_the_video_keys_are_in_the_menu_with_their_names(window):
    acts = {a.shortcut().toString(): a for a in window.actions() if not a.shortcut().isEmpty()}
    for key, words in (("J", "back"), ("K", "pause"), ("L", "faster"), ("<", "slower"), (">", "faster"),
                       ("Alt+S", "sync"), ("Shift+Left", "frame"), ("Shift+Right", "frame"), *TYPING_KEYS):
        assert key in acts, key
        assert words in acts[key].toolTip().lower(), (key, acts[key].toolTip())
        assert f"({key.replace('Left', '←').replace('Right', '→')})" in acts[key].toolTip()
    # the keys for transcribing: in View ▸ Video, each with its key beside it
    view = next(a.menu() for a in window.menuBar().actions() if a.menu() and a.menu().title() == "&View")
    video = next(a.menu() for a in view.actions() if a.menu() and a.menu().title().replace("&", "") == "Video")
    shown = {a.shortcut().toString(): a.text() for a in video.actions() if not a.shortcut().isEmpty()}
    for key, words in TYPING_KEYS:
        assert key in shown and "while typing" in shown[key].lower(), (key, shown.get(key))


#: the keys that work while the log is edited, and a word of what their tooltip says
TYPING_KEYS = (("F7", "back 2 s"), ("F8", "play / pause"), ("F9", "forward 2 s"), ("Shift+F7", "slower"),
               ("Shift+F9", "faster"), ("Ctrl+Shift+F7", "one frame back"), ("Ctrl+Shift+F9", "one frame on"))


def _typing(qtbot, window, doc, at: str):
    """The log being edited, a comment typed at its end, the video paused at the event ``at``:
    (the text view, the frame shown)."""
    start = seek_and_read(qtbot, window, event_at(doc, at))
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    cursor = view.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    view.setTextCursor(cursor)
    qtbot.keyClicks(view, "# B's face-down card")
    qtbot.waitUntil(ed.idle, timeout=10_000)  # the re-check of the typing is in (it leaves the footage alone)
    assert shown_frame(window.video) == start
    return view, start


def _unchanged(view, text: str, position: int) -> None:
    assert view.toPlainText() == text and view.textCursor().position() == position
    assert view.hasFocus() and not view.isReadOnly()


@pytest.mark.parametrize("key, at, frames", [(Qt.Key_F7, "@0:06", [6 * FPS - 2 * FPS, 0]),
                                             (Qt.Key_F9, "@0:03", [3 * FPS + 2 * FPS, 9 * FPS - 1])])
def test_f7_and_f9_go_2_s_back_and_on_while_typing(qtbot, window, tmp_path, footage, key, at, frames):
    """Paused, F7 / F9 seek 2 s back / on and stay paused; pressed quickly they add up (from the
    seek asked for, not the frame shown yet), and stop at the first and the last frame."""
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    view, _ = _typing(qtbot, window, doc, at)
    text, position = view.toPlainText(), view.textCursor().position()
    qtbot.keyClick(view, key)
    assert pane.wait_for_frame(8000)
    assert abs(shown_frame(pane) - frames[0]) <= 1 and not pane.playing()
    qtbot.keyClick(view, key)
    qtbot.keyClick(view, key)
    assert pane.wait_for_frame(8000)
    assert abs(shown_frame(pane) - frames[1]) <= 1 and not pane.playing()
    _unchanged(view, text, position)
    assert _speed(pane) == 1.0


def test_f8_plays_and_pauses_while_typing_and_f7_goes_back_while_playing(qtbot, window, tmp_path, footage):
    """The transcriber's loop: play (F8), type while it plays, go back 2 s (F7: it plays on
    from there), pause (F8); every key typed is in the text, no F-key is."""
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    view, _ = _typing(qtbot, window, doc, "@0:02")
    text, position = view.toPlainText(), view.textCursor().position()
    qtbot.keyClick(view, Qt.Key_F8)
    qtbot.waitUntil(pane.playing, timeout=3000)
    _unchanged(view, text, position)
    qtbot.keyClicks(view, " and the attack")  # typing while the footage plays
    assert pane.playing()
    text, position = view.toPlainText(), view.textCursor().position()
    assert text.endswith("# B's face-down card and the attack")
    qtbot.waitUntil(lambda: pane.player.position() >= 3500, timeout=8000)
    before = pane.player.position()
    qtbot.keyClick(view, Qt.Key_F7)
    assert pane.playing()
    assert abs(pane.player.position() - (before - 2000)) <= 250, (before, pane.player.position())
    qtbot.keyClick(view, Qt.Key_F8)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)
    _unchanged(view, text, position)
    # paused after playing: the next F7 goes back from the frame shown, not from the seek before
    shown = pane.position_ms()
    qtbot.keyClick(view, Qt.Key_F7)
    assert pane.wait_for_frame(8000)
    assert abs(pane.frame_ms - max(shown - 2000, 0)) <= 1000 / FPS + 1
    _unchanged(view, text, position)


def test_shift_f7_and_shift_f9_change_the_speed_while_typing(qtbot, window, tmp_path, footage):
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    view, start = _typing(qtbot, window, doc, "@0:02")
    text, position = view.toPlainText(), view.textCursor().position()
    got = []
    for _ in range(2):
        qtbot.keyClick(view, Qt.Key_F7, Qt.ShiftModifier)
        got.append(_speed(pane))
    for _ in range(5):
        qtbot.keyClick(view, Qt.Key_F9, Qt.ShiftModifier)
        got.append(_speed(pane))
    assert got == [0.75, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]
    assert window.statusBar().currentMessage() == "Video speed 2×"
    assert not pane.playing() and shown_frame(pane) == start  # the speed only
    _unchanged(view, text, position)
    qtbot.keyClick(view, Qt.Key_F8)  # playing, the player's rate follows at once
    qtbot.waitUntil(pane.playing, timeout=3000)
    qtbot.keyClick(view, Qt.Key_F7, Qt.ShiftModifier)
    assert pane.player.playbackRate() == 1.5 and pane.playing()
    qtbot.keyClick(view, Qt.Key_F8)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)
    _unchanged(view, text, position)


CTRL_SHIFT = Qt.ControlModifier | Qt.ShiftModifier


def test_ctrl_shift_f7_and_f9_step_one_frame_while_typing(qtbot, window, tmp_path, footage):
    """Paused at an action, Ctrl+Shift+F7 / Ctrl+Shift+F9 (Shift+←/→ select text here) show the
    frame before / after it, exactly, and stay paused; pressed quickly they add up; playing,
    they pause first. Nothing is typed, the cursor stays."""
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    view, start = _typing(qtbot, window, doc, "@0:05")
    text, position = view.toPlainText(), view.textCursor().position()
    qtbot.keyClick(view, Qt.Key_F7, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start - 1 and not pane.playing()
    _unchanged(view, text, position)
    qtbot.keyClick(view, Qt.Key_F9, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start
    for _ in range(3):  # quickly, without waiting for each frame
        qtbot.keyClick(view, Qt.Key_F9, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start + 3
    qtbot.keyClick(view, Qt.Key_F7, CTRL_SHIFT)
    qtbot.keyClick(view, Qt.Key_F7, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start + 1
    _unchanged(view, text, position)
    assert view.textCursor().selectedText() == "" and _speed(pane) == 1.0
    # playing: the key pauses, then steps from the frame it paused at
    qtbot.keyClick(view, Qt.Key_F8)
    qtbot.waitUntil(pane.playing, timeout=3000)
    qtbot.waitUntil(lambda: pane.player.position() >= pane.frame_step_ms() * (start + 10), timeout=8000)
    qtbot.keyClick(view, Qt.Key_F9, CTRL_SHIFT)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)
    assert pane.wait_for_frame(4000)
    paused = shown_frame(pane)
    assert paused >= start + 10
    qtbot.keyClick(view, Qt.Key_F7, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == paused - 1 and not pane.playing()
    _unchanged(view, text, position)


def test_the_typing_keys_work_with_the_completion_list_open(qtbot, window, tmp_path, footage):
    """The completion list takes the keys while it is shown: F8 and Shift+F7 still reach the
    video, and the list stays open over the text as it was."""
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    view, _ = _typing(qtbot, window, doc, "@0:02")
    ed = window.editor
    qtbot.keyClick(view, Qt.Key_Return)
    qtbot.keyClicks(view, 'A: activate "Hon')
    popup = ed.completer.popup()
    qtbot.waitUntil(popup.isVisible, timeout=5000)
    assert QApplication.activePopupWidget() is popup
    text, position = view.toPlainText(), view.textCursor().position()
    qtbot.keyClick(popup, Qt.Key_F7, Qt.ShiftModifier)
    assert _speed(pane) == 0.75
    qtbot.keyClick(popup, Qt.Key_F8)
    qtbot.waitUntil(pane.playing, timeout=3000)
    qtbot.keyClick(popup, Qt.Key_F8)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)
    qtbot.keyClick(popup, Qt.Key_F9, CTRL_SHIFT)  # one frame on, and two back
    assert pane.wait_for_frame(4000)
    frame = shown_frame(pane)
    qtbot.keyClick(popup, Qt.Key_F7, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == frame - 1
    qtbot.keyClick(popup, Qt.Key_F7, CTRL_SHIFT)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == frame - 2 and not pane.playing()
    assert popup.isVisible()
    assert view.toPlainText() == text and view.textCursor().position() == position
    qtbot.keyClick(popup, Qt.Key_Escape)  # Esc is still the list's: it closes, the video stays paused
    assert not popup.isVisible() and not pane.playing() and view.toPlainText() == text


def test_the_typing_keys_without_a_video_say_so(qtbot, window, tmp_path):
    path = tmp_path / "novideo.duel"
    path.write_text('[Game "ygo"]\n[A "Yuki"]\n[B "Kaiba"]\n\nturn 1 A\n', encoding="utf-8")
    open_and_wait(qtbot, window, path)
    window.editor.start()
    view = window.log_pane.view
    qtbot.waitUntil(view.hasFocus, timeout=2000)
    text = view.toPlainText()
    for key, modifier in ((Qt.Key_F8, Qt.NoModifier), (Qt.Key_F7, Qt.NoModifier), (Qt.Key_F9, Qt.NoModifier),
                          (Qt.Key_F9, Qt.ShiftModifier), (Qt.Key_F7, CTRL_SHIFT), (Qt.Key_F9, CTRL_SHIFT)):
        window.statusBar().clearMessage()
        qtbot.keyClick(view, key, modifier)
        assert "No video" in window.statusBar().currentMessage()
    assert view.toPlainText() == text and not window.play_timer.isActive()


def test_no_text_editing_key_is_a_typing_key():
    """None of them is a standard key of Qt's text edits here (F3 would be Find Next, Ctrl+K Delete
    to End of Line on Linux, Alt+←/→ a word move on macOS)."""
    standard = {k.toString() for name, value in vars(QKeySequence.StandardKey).items() if not name.startswith("_")
                and isinstance(value, QKeySequence.StandardKey) for k in QKeySequence.keyBindings(value)}
    assert "Ctrl+C" in standard and "F3" in standard  # the table is read
    assert not {key for key, _ in TYPING_KEYS} & standard


def test_f5_beside_them_does_not_drop_unsaved_typing(qtbot, window, tmp_path, footage):
    """F5 (Reload) is next to the keys pressed while typing: with unsaved changes it says so and
    keeps the text; saved, it reads the file again."""
    path = write_log(tmp_path, footage)
    doc = open_and_wait(qtbot, window, path)
    view, _ = _typing(qtbot, window, doc, "@0:02")
    text = view.toPlainText()
    qtbot.keyClick(view, Qt.Key_F5)
    qtbot.wait(300)
    assert view.toPlainText() == text and "unsaved changes" in window.statusBar().currentMessage()
    assert window.editor.save() == str(path)
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        qtbot.keyClick(view, Qt.Key_F5)
    assert view.toPlainText() == text == path.read_text(encoding="utf-8")
