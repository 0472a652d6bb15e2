"""The window without QtMultimedia (the optional extra replayer[video] not installed): the pane
says how to get it and everything else works. The import failure is simulated, so this runs
whether or not the extra is installed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from replayer.gui.video import pane as video_mod
from replayer.gui.video import parts as video_parts

from ..conftest import open_and_wait

LOG = """\
[Game "ygo"]
[Video "match.mp4"]

@0:01 turn 3 A
phase battle
@0:05 A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> direct
"""


def write_log(tmp_path):
    path = tmp_path / "match.duel"
    path.write_text(LOG, encoding="utf-8")
    return path


def event_at(doc, timecode: str) -> int:
    return next(i for i, e in enumerate(doc.events) if e.timecode == timecode)


def test_without_qtmultimedia_the_pane_says_how_to_get_it(qtbot, tmp_path, monkeypatch):
    from replayer.gui.app import MainWindow

    def missing():
        raise ImportError("No module named 'PySide6.QtMultimedia'")

    monkeypatch.setattr(video_parts, "_import_multimedia", missing)
    video_mod.reset_multimedia()
    try:
        w = MainWindow(theme="light")
        qtbot.add_widget(w)
        w.resize(1400, 900)
        w.show()
        doc = open_and_wait(qtbot, w, write_log(tmp_path))
        pane = w.video
        assert pane.isVisible() and not pane.has_media() and pane.player is None
        assert video_mod.INSTALL_HINT in pane.view.message
        assert "PySide6-Addons" in pane.view.message
        w.select_event(event_at(doc, "@0:05"))  # the rest of the window works as before
        assert w.current == event_at(doc, "@0:05")
        qtbot.keyClick(w, Qt.Key_Space)  # Space plays the events, as without a video
        assert w.play_timer.isActive()
        w.stop_play()
        assert not pane.sync_button.isEnabled()
        w.close()
    finally:
        monkeypatch.undo()
        video_mod.reset_multimedia()


def test_a_missing_system_library_is_named():
    text = video_mod.missing_text("libpulse.so.0: cannot open shared object file")
    assert video_mod.INSTALL_HINT in text and "libpulse0" in text
