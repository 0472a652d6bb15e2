"""The video pane: seeking to an event's timecode (± one frame, with and without [VideoOffset]),
the selection following the footage, Sync here, a URL video, the keys, the screenshot's still,
and the window without QtMultimedia.

The video is made by the test (tests/gui/footage.py, PyAV): every frame shows its own number.
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage

from replayer.cli import cli
from replayer.gui.video import pane as video_mod
from replayer.timecodes import parse_offset

from ..conftest import line_of, open_and_wait
from ..footage import FPS, frame_number, make_video

if os.environ.get("CI"):  # CI installs what these tests need (.ci/run): a skip there would hide a missing step
    import av  # noqa: F401
    assert video_mod.multimedia() is not None, f"QtMultimedia is not usable: {video_mod.multimedia_error()}"
pytest.importorskip("av")
if video_mod.multimedia() is None:  # the "not installed" path has its own test below
    pytest.skip(f"QtMultimedia is not usable here: {video_mod.multimedia_error()}", allow_module_level=True)

LOG = """\
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
[Video "{video}"]
{offset}
@0:01 turn 3 A
phase battle
@0:02 A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
@0:03 timing ds-start
timing before-calc
@0:05 A: activate "Honest" {{quick, atk-mod}} from hand
resolve
@0:06 timing calc
B: damage 1700
"""


@pytest.fixture(scope="module")
def footage(tmp_path_factory):
    folder = tmp_path_factory.mktemp("footage")
    return make_video(folder / "match.mp4", seconds=9)


def write_log(tmp_path, footage, offset: str = "", video: str | None = None):
    path = tmp_path / "match.duel"
    tag = f'[VideoOffset "{offset}"]\n' if offset else "\n"
    path.write_text(LOG.format(video=video or str(footage), offset=tag), encoding="utf-8")
    return path


def shown_frame(pane) -> int:
    assert pane.view.image is not None
    return frame_number(pane.view.image)


def seek_and_read(qtbot, window, index: int) -> int:
    window.select_event(index)
    assert window.video.wait_for_frame(8000), "no frame came after the seek"
    return shown_frame(window.video)


def event_at(doc, timecode: str) -> int:
    return next(i for i, e in enumerate(doc.events) if e.timecode == timecode)


@pytest.mark.parametrize("offset, shift", [("", 0.0), ("+0:01.5", 1.5), ("-0:01", -1.0)])
def test_selecting_an_event_seeks_to_its_timecode_within_a_frame(qtbot, window, tmp_path, footage, offset, shift):
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage, offset))
    pane = window.video
    assert pane.isVisible() and pane.has_media()
    qtbot.waitUntil(lambda: pane.player.duration() > 0, timeout=8000)
    for tc, s in (("@0:02", 2), ("@0:05", 5), ("@0:03", 3), ("@0:06", 6)):
        expected = round((s + shift) * FPS)
        got = seek_and_read(qtbot, window, event_at(doc, tc))
        assert abs(got - expected) <= 1, f"{tc} with offset {offset!r}: frame {got}, expected {expected}"
    # an event without a timecode of its own: the last timecode before it
    got = seek_and_read(qtbot, window, event_at(doc, "@0:02") + 1)
    assert abs(got - round((2 + shift) * FPS)) <= 1


def test_playing_moves_the_selection(qtbot, window, tmp_path, footage):
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    first = event_at(doc, "@0:01")
    seek_and_read(qtbot, window, first)
    pane.set_speed(2.0)
    qtbot.keyClick(window, Qt.Key_Space)  # Space plays the footage when there is one
    assert pane.playing()
    target = event_at(doc, "@0:03")
    qtbot.waitUntil(lambda: window.current >= target, timeout=8000)
    # the selection is the last event whose timecode has passed, never one ahead of the footage
    assert pane.player.position() >= 3000
    assert window.timeline.selected == window.current
    qtbot.keyClick(window, Qt.Key_K)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)


def test_sync_here_writes_the_offset_and_every_seek_uses_it(qtbot, window, tmp_path, footage):
    path = write_log(tmp_path, footage)
    doc = open_and_wait(qtbot, window, path)
    pane = window.video
    i = event_at(doc, "@0:02")
    seek_and_read(qtbot, window, i)
    # the reviewer finds the attack 1.2 s later in this cut: 30 frames on
    for _ in range(30):
        pane.frame_step(1)
        assert pane.wait_for_frame(4000)
    assert abs(shown_frame(pane) - 80) <= 1
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        pane.sync_here()
    text = path.read_text(encoding="utf-8")
    assert '[VideoOffset "' in text
    offset = parse_offset(window.doc.match.header["VideoOffset"])
    assert abs(offset - 1.2) <= 1 / FPS + 1e-9
    assert text.index("[Video ") < text.index("[VideoOffset ")  # written next to [Video]
    assert window.doc.match.findings == [] or all(f.rule != "syntax.header" for f in window.doc.match.findings)
    got = seek_and_read(qtbot, window, event_at(window.doc, "@0:05"))
    assert abs(got - round((5 + offset) * FPS)) <= 1


def test_attach_video_writes_the_header_relative_to_the_log(qtbot, window, tmp_path, footage):
    import shutil

    path = tmp_path / "plain.duel"
    path.write_text('[Game "ygo"]\n\n@0:04 turn 1 A\n', encoding="utf-8")
    shutil.copy(footage, tmp_path / "clip.mp4")
    open_and_wait(qtbot, window, path)
    assert not window.video.isVisible()
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        assert window.video.attach(str(tmp_path / "clip.mp4")) == "clip.mp4"
    assert '[Video "clip.mp4"]' in path.read_text(encoding="utf-8")
    assert window.video.isVisible()
    assert abs(seek_and_read(qtbot, window, 0) - 4 * FPS) <= 1


def test_frame_keys_and_shuttle(qtbot, window, tmp_path, footage):
    doc = open_and_wait(qtbot, window, write_log(tmp_path, footage))
    pane = window.video
    start = seek_and_read(qtbot, window, event_at(doc, "@0:05"))
    qtbot.keyClick(window, Qt.Key_Right, Qt.ShiftModifier)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start + 1
    qtbot.keyClick(window, Qt.Key_Left, Qt.ShiftModifier)
    qtbot.keyClick(window, Qt.Key_Left, Qt.ShiftModifier)
    assert pane.wait_for_frame(4000) and shown_frame(pane) == start - 1
    qtbot.keyClick(window, Qt.Key_J)  # paused: back two seconds
    assert pane.wait_for_frame(4000) and abs(shown_frame(pane) - (start - 1 - 2 * FPS)) <= 1
    qtbot.keyClick(window, Qt.Key_L)
    assert pane.playing() and pane.speed.currentData() == 1.0
    qtbot.keyClick(window, Qt.Key_L)
    assert pane.speed.currentData() == 1.25
    qtbot.keyClick(window, Qt.Key_J)
    assert pane.speed.currentData() == 1.0
    qtbot.keyClick(window, Qt.Key_K)
    qtbot.waitUntil(lambda: not pane.playing(), timeout=3000)
    assert [pane.speed.itemData(k) for k in range(pane.speed.count())] == [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]
    assert len(pane.slider.ticks) == 5  # one tick for each timecode


def test_a_url_video_opens_the_browser_at_the_timecode(qtbot, window, tmp_path, footage, monkeypatch):
    opened = []
    monkeypatch.setattr(video_mod.QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    path = write_log(tmp_path, footage, "+0:10", video="https://www.youtube.com/watch?v=abc123")
    doc = open_and_wait(qtbot, window, path)
    pane = window.video
    assert pane.isVisible() and not pane.has_media()
    assert "cannot be" in pane.view.message and "Open at timecode" in pane.view.message
    assert pane.browser_button.isVisibleTo(pane)
    window.select_event(event_at(doc, "@0:05"))
    qtbot.mouseClick(pane.browser_button, Qt.LeftButton)
    assert opened == ["https://www.youtube.com/watch?v=abc123&t=15"]


def _video_rect(window) -> QRect:
    view = window.video.view
    image = view.image
    size = image.size().scaled(view.size(), Qt.KeepAspectRatio)
    x = (view.width() - size.width()) // 2
    y = (view.height() - size.height()) // 2
    top_left = view.mapTo(window, view.rect().topLeft())
    return QRect(top_left.x() + x + 2, top_left.y() + y + 2, size.width() - 4, size.height() - 4)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_is_a_still_of_the_footage_at_the_selected_event(qtbot, tmp_path, footage, theme):
    from replayer.gui.app import MainWindow

    path = write_log(tmp_path, footage, "+0:01")
    line = line_of(path.read_text(encoding="utf-8"), "@0:05")
    out = tmp_path / f"shot-{theme}.png"
    result = CliRunner().invoke(cli, ["view", str(path), "--select", str(line), "--screenshot", str(out),
                                      "--size", "1600x1000", "--theme", theme])
    assert result.exit_code == 0, result.output
    shot = QImage(str(out))
    assert (shot.width(), shot.height()) == (1600, 1000)
    # where the frame is drawn: the same window at the same size, laid out the same way
    w = MainWindow(theme=theme)
    qtbot.add_widget(w)
    w.resize(1600, 1000)
    w.show()
    w.open_path_now(str(path))
    w.select_line(line)
    assert w.video.wait_for_frame(8000)
    rect = _video_rect(w)
    assert abs(frame_number(w.video.view.image) - 6 * FPS) <= 1
    assert abs(frame_number(shot.copy(rect)) - 6 * FPS) <= 1  # 0:05 + 0:01 of offset
    w.close()
