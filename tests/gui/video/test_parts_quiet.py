"""Opening the video pane keeps the terminal clean (issue 23, point 7): QtMultimedia's notes about
optional libraries, its FFmpeg version, FFmpeg's dump of every file it opens and the software
video path stay off; a video that does not play is still said."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from replayer.gui.video import pane as video_mod

from ..footage import make_video

pytest.importorskip("av")
if video_mod.multimedia() is None:
    pytest.skip(f"QtMultimedia is not usable here: {video_mod.multimedia_error()}", allow_module_level=True)

NOISE = ("symbolsresolver", "Couldn't load", "Using Qt multimedia with FFmpeg", "Input #0", "Metadata:",
         "No HW decoder", "No RHI backend", "propagateSizeHints")


def _view(tmp_path, video: str, extra_env: dict | None = None) -> subprocess.CompletedProcess:
    log = tmp_path / "match.duel"
    log.write_text(f'[Game "ygo"]\n[Video "{video}"]\n@0:01 turn 1 A\n@0:02 A: draw\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("REPLAYER_DEBUG", "QT_LOGGING_RULES")}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "replayer", "view", str(log), "--screenshot",
                           str(tmp_path / "shot.png"), "--size", "1280x720"],
                          capture_output=True, text=True, env=env, timeout=120)


def test_the_video_pane_opens_without_a_word_on_the_terminal(tmp_path):
    make_video(tmp_path / "clip.mp4", seconds=3)
    done = _view(tmp_path, "clip.mp4")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if any(n in line for n in NOISE)] == []
    assert done.stderr.strip() == ""


def test_a_video_that_does_not_play_is_still_said(tmp_path):
    (tmp_path / "clip.mp4").write_bytes(b"\x00\x01not a video" * 500)
    done = _view(tmp_path, "clip.mp4")
    assert done.returncode == 0
    assert "Could not open media" in done.stderr or "Invalid data" in done.stderr


def test_replayer_debug_shows_everything(tmp_path):
    make_video(tmp_path / "clip.mp4", seconds=3)
    done = _view(tmp_path, "clip.mp4", {"REPLAYER_DEBUG": "1"})
    assert "Input #0" in done.stderr
