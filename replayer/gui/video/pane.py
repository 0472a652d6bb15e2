"""The video pane: the match's footage beside the timeline, kept in step with the selection.

* The file named by the log's ``[Video "…"]`` (relative to the log, or absolute) plays here with
  QtMultimedia (the optional extra ``replayer[video]``: the ``PySide6-Addons`` wheel of the same
  version as ``PySide6-Essentials``, with its FFmpeg backend). Without it the pane says how to
  get it; the rest of the window works as before.
* Selecting an event seeks to its timecode plus ``[VideoOffset]`` (an event without a timecode:
  the last one before it); while the video plays, the window's selection follows the footage
  (the last event whose position has passed).
* Keys (View ▸ Video, each with its tooltip; ``gui/window/video.py``): Space play/pause, J/K/L
  shuttle (J slower or back 2 s, K pause, L play/faster), Shift+←/→ one frame, ``<`` / ``>``
  speed one step down / up (0.25× to 2×, as in YouTube), Alt+S Sync here; the slider carries a
  tick for every timecode. While the log is being edited the keys that type a character are
  the text's; F7 / F8 / F9 (back 2 s, play / pause, on 2 s), Shift+F7 / Shift+F9 (slower /
  faster) and Ctrl+Shift+F7 / F9 (one frame) type nothing and work there too.
* "Sync here" stores ``[VideoOffset]`` so that the selected event's timecode lands on the frame
  shown; File ▸ Attach video… writes ``[Video]``. A URL (YouTube, Twitch) cannot play inside:
  "Open at timecode" opens the browser at the second (``t=``).

Frames are drawn by the pane itself from a ``QVideoSink`` (not a ``QVideoWidget``), so that
a grab of the window and ``--screenshot`` show the frame at the selected event.

The pieces around the player (QtMultimedia's import, the frame view, the slider) are in
:mod:`.parts`. The pane is handed the document (:meth:`VideoPane.set_document`) and the
selection (:meth:`VideoPane.on_selected`, which the window calls first, so that the footage
decodes while the other panes follow); it emits ``follow(index)`` (while it plays, the event the
footage reached), ``headerWanted(key, value)`` (Sync here, Attach Video: a tag for the log) and
``message(text)``. Its actions, keys and menu entries, and its tab beside the State pane, are
the window's (``gui/window/video.py``).
"""

from __future__ import annotations

import bisect
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...safe import shorten, visible
from ..shared.language import M, live, tr
from ...timecodes import format_offset, is_url, parse_offset, seconds, url_at, url_problem
from .parts import (INSTALL_HINT, FrameView, TickSlider, fmt_ms, missing_text,  # noqa: F401  (re-exported)
                    multimedia, multimedia_error, quiet_ffmpeg, reset_multimedia, resolve_video)

if TYPE_CHECKING:
    from ..document import Document

log = logging.getLogger("replayer.gui")

SPEEDS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
VIDEO_FILTER = "Videos (*.mp4 *.mkv *.webm *.mov *.avi *.m4v *.ts);;All files (*)"
DEFAULT_FPS = 25.0
JUMP_BACK_MS = 2000
SKIP_MS = JUMP_BACK_MS  # F7 / F9 (keys that work while typing): back / on as far as J goes back


class VideoPane(QWidget):
    """The footage of the open log. ``follow(index)`` asks the window to select an event."""

    follow = Signal(int)
    headerWanted = Signal(str, str)  # key, value: the pane wants this tag in the log
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("VideoPane")
        self.doc: Document | None = None
        self.log_path: str | None = None
        self.source = ""  # the [Video] value
        self.url = ""  # set when the video is a web address
        self.bad_url: str | None = None  # why the [Video] web address is not opened
        self.file = ""  # the local file playing
        self.offset = 0.0  # seconds
        self.event_tc: list[float | None] = []  # per event: its timecode (or the last before), seconds
        self.own_ms: list[int] = []  # video positions of the events with their own timecode, sorted
        self.own_index: list[int] = []  # ... and those events
        self.current = -1  # the event the window has selected
        self.target_ms: int | None = None  # the last seek asked for
        self.frame_ms = -1  # start time of the frame shown
        self.frame_count = 0
        self.seek_frames = 0  # frame_count when the last seek was asked for
        self.seek_started = 0.0
        self.seek_ms = -1.0  # how long the last seek took until its frame came (bench)
        self.fps = DEFAULT_FPS
        self._followed = -1
        self.player = None
        self.sink = None
        self.audio = None
        self.mm = None  # QtMultimedia, imported when the first video file is opened
        self._build()
        self._update_controls()

    # ---- construction -------------------------------------------------------------------------------
    def _build(self) -> None:
        self.title = QLabel(tr("Video"))
        self.title.setTextFormat(Qt.PlainText)  # a file or host name from the log's [Video] tag
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.title.setContentsMargins(8, 5, 8, 4)
        self.view = FrameView()
        self.slider = TickSlider()
        self.slider.sliderMoved.connect(self._on_slider)
        self.slider.sliderPressed.connect(lambda: self._on_slider(self.slider.value()))
        live(self.slider, M("The video's position: click or drag; a tick for each event's timecode (Shift+←/→ "
                            "one frame, also while typing Ctrl+Shift+F7 / Ctrl+Shift+F9; F7 / F9 2 s back / on)"),
             "setToolTip")
        self.time_label = QLabel("")
        live(self.time_label, M("The frame shown / the video's length"), "setToolTip")
        self.time_label.setMinimumWidth(130)
        self.play_button = QPushButton("▶")
        live(self.play_button, M("Play / pause the video (Space; J back or slower, K pause, L play or faster; "
                                 "Shift+←/→ one frame). Also while typing in the log: F8 play / pause, F7 / F9 "
                                 "2 s back / on, Shift+F7 / Shift+F9 slower / faster, Ctrl+Shift+F7 / "
                                 "Ctrl+Shift+F9 one frame"), "setToolTip")
        self.play_button.setFocusPolicy(Qt.NoFocus)
        self.play_button.clicked.connect(self.toggle)
        self.speed = QComboBox()
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}×", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setFocusPolicy(Qt.NoFocus)
        live(self.speed, M("Playback speed, 0.25× to 2× (< slower, > faster; while playing also J / L; "
                           "Shift+F7 / Shift+F9 also while typing)"), "setToolTip")
        self.speed.currentIndexChanged.connect(lambda *_: self._apply_rate())
        self.sync_button = live(QPushButton(), M("Sync here"))
        self.sync_button.setFocusPolicy(Qt.NoFocus)
        live(self.sync_button, M("The selected event happens at the frame shown: store the offset "
                                 "([VideoOffset]) so that every seek uses it (Alt+S)"), "setToolTip")
        self.sync_button.clicked.connect(self.sync_here)
        self.browser_button = live(QPushButton(), M("Open at timecode"))
        self.browser_button.setFocusPolicy(Qt.NoFocus)
        live(self.browser_button, M("Open the footage in the web browser at the selected event"), "setToolTip")
        self.browser_button.clicked.connect(self.open_in_browser)
        self.attach_button = live(QPushButton(), M("Attach video…"))
        self.attach_button.setFocusPolicy(Qt.NoFocus)
        live(self.attach_button, M("Choose the video file of this log: written into its [Video] header "
                                   "(File ▸ Attach Video…)"), "setToolTip")
        self.attach_button.clicked.connect(self.attach_dialog)
        row = QHBoxLayout()
        row.setContentsMargins(6, 2, 6, 4)
        row.addWidget(self.play_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.time_label)
        row2 = QHBoxLayout()
        row2.setContentsMargins(6, 0, 6, 4)
        row2.addWidget(self.speed)
        row2.addWidget(self.sync_button)
        row2.addWidget(self.browser_button)
        row2.addStretch(1)
        row2.addWidget(self.attach_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)
        layout.addLayout(row2)

    def _make_player(self) -> None:
        mm = self.mm
        self.player = mm.QMediaPlayer(self)
        quiet_ffmpeg()  # (the backend, loaded with the first player, set FFmpeg's log level)
        self.sink = mm.QVideoSink(self)
        self.player.setVideoSink(self.sink)
        if os.environ.get("QT_QPA_PLATFORM") not in ("offscreen", "minimal"):
            try:
                if not mm.QMediaDevices.defaultAudioOutput().isNull():
                    self.audio = mm.QAudioOutput(self)
                    self.player.setAudioOutput(self.audio)
            except Exception:  # no sound is not a reason to have no pictures
                log.debug("no audio output", exc_info=True)
        self.sink.videoFrameChanged.connect(self._on_frame)
        self.player.positionChanged.connect(self._on_position)
        self.player.durationChanged.connect(self._on_duration)
        self.player.playbackStateChanged.connect(lambda *_: self._update_controls())
        self.player.mediaStatusChanged.connect(self._on_status)
        self.player.errorOccurred.connect(self._on_error)

    # ---- the log's video ----------------------------------------------------------------------------
    def wanted(self) -> bool:
        """Whether the pane has anything to show (a [Video] header, or a video attached)."""
        return bool(self.source)

    def has_media(self) -> bool:
        return self.player is not None and bool(self.file) and not self.view.message

    def set_document(self, doc: Document | None, log_path: str | None = None) -> None:
        """Take the log's [Video] and [VideoOffset]; (re)open the file when it changed."""
        self.doc = doc
        self.log_path = log_path or (doc.path if doc is not None else None)
        header = doc.match.header if doc is not None else {}
        source = header.get("Video", "").strip()
        self.offset = parse_offset(header.get("VideoOffset", "")) or 0.0 if "VideoOffset" in header else 0.0
        self._index_events()
        if source != self.source or (source and not is_url(source)
                                     and resolve_video(source, self.log_path) != self.file):
            self._open_source(source)
        self._update_ticks()
        self._update_controls()

    def _index_events(self) -> None:
        self.event_tc = []
        own: list[tuple[int, int]] = []
        last: float | None = None
        has_video = self.doc is not None and bool(self.doc.match.header.get("Video", "").strip())
        for i, e in enumerate(self.doc.events if has_video else ()):  # nothing to seek without a video
            tc = seconds(e.timecode) if e.timecode else None
            if tc is not None:
                last = tc
                own.append((self.video_ms(tc), i))
            self.event_tc.append(last)
        own.sort()
        self.own_ms = [m for m, _ in own]
        self.own_index = [i for _, i in own]

    def video_ms(self, timecode_s: float) -> int:
        return int(round((timecode_s + self.offset) * 1000))

    def _open_source(self, source: str) -> None:
        self.source = source
        self.url = ""
        self.bad_url: str | None = None  # why the [Video] web address is not opened
        self.file = ""
        self.target_ms = None
        self.frame_ms = -1
        self.view.set_image(None)
        if self.player is not None:
            self.player.stop()
            self.player.setSource(QUrl())
        if not source:
            self.view.set_message(tr("This log names no video.\n\nFile ▸ Attach Video… chooses the match's "
                                     "video and writes it into the log's header ([Video \"…\"])."))
            self.title.setText(tr("Video"))
            return
        if is_url(source) and url_problem(source) is not None:
            why = url_problem(source)
            self.title.setText(tr("Video  (not a web address)"))
            self.view.set_message(tr("The log's [Video] is not a web address that can be opened:\n{source}\n({why})"
                                     "\n\nCorrect it in the log's header, or use File ▸ Attach video… to name the "
                                     "match's video.", source=visible(shorten(source, 200)), why=visible(why)))
            self.bad_url = why
            return
        if is_url(source):
            self.url = source
            host = QUrl(source if "://" in source else "https://" + source).host() or source
            self.title.setText(tr("Video  ({name})", name=host))
            self.view.set_message(tr("This match's video is on the web ({host}).\n\nA web page's video cannot be "
                                     "played inside replayer: \"Open at timecode\" opens it in your browser at "
                                     "the selected event's second.\n\nTo review it here, download the file and "
                                     "use File ▸ Attach video….", host=host))
            return
        path = resolve_video(source, self.log_path)
        self.title.setText(tr("Video  ({name})", name=Path(path).name))
        if self.mm is None:
            self.mm = multimedia()
        if self.mm is None:
            self.view.set_message(missing_text(multimedia_error() or "QtMultimedia is missing"))
            return
        if not Path(path).is_file():
            self.view.set_message(tr("The video {source} is not there:\n{path}\n\nFile ▸ Attach video… names "
                                     "another file.", source=repr(source), path=path))
            return
        self.file = path
        self.view.set_message("")
        if self.player is None:
            self._make_player()
        self.player.setSource(QUrl.fromLocalFile(path))
        self.player.pause()  # a paused player shows the frame at each seek

    def _on_status(self, status) -> None:
        mm = self.mm
        if status == mm.QMediaPlayer.MediaStatus.LoadedMedia:
            rate = self.player.metaData().value(mm.QMediaMetaData.Key.VideoFrameRate)
            try:
                self.fps = float(rate) if rate and float(rate) > 0 else DEFAULT_FPS
            except (TypeError, ValueError):
                self.fps = DEFAULT_FPS
            if self.target_ms is not None:
                self._set_position(self.target_ms)
        elif status == mm.QMediaPlayer.MediaStatus.InvalidMedia:
            self.view.set_message(tr("The video cannot be played:\n{file}\n\n{error}", file=self.file,
                                     error=self.player.errorString()))

    def _on_error(self, error, text: str = "") -> None:
        if error != self.mm.QMediaPlayer.Error.NoError:
            self.view.set_message(tr("The video cannot be played:\n{file}\n\n{error}", file=self.file,
                                     error=text or self.player.errorString()))
            self._update_controls()

    # ---- frames and positions -----------------------------------------------------------------------
    def _on_frame(self, frame) -> None:
        if not frame.isValid():
            return
        image = frame.toImage()
        if image.isNull():
            return
        self.frame_ms = frame.startTime() // 1000
        self.frame_count += 1
        if self.seek_started and self.seek_done():
            self.seek_ms = (time.perf_counter() - self.seek_started) * 1000
            self.seek_started = 0.0
        self.view.set_image(image)

    def _on_duration(self, ms: int) -> None:
        self.slider.setRange(0, max(int(ms), 0))
        self._update_ticks()
        self._update_time()

    def _on_position(self, ms: int) -> None:
        if not self.slider.isSliderDown():
            self.slider.blockSignals(True)
            self.slider.setValue(int(ms))
            self.slider.blockSignals(False)
        self._update_time()
        if self.playing():
            self._follow(int(ms))

    def _follow(self, ms: int) -> None:
        k = bisect.bisect_right(self.own_ms, ms) - 1
        if k < 0:
            return
        index = self.own_index[k]
        if index != self._followed and index != self.current:
            self._followed = index
            self.follow.emit(index)

    def _on_slider(self, ms: int) -> None:
        self._set_position(int(ms))

    def _update_time(self) -> None:
        if self.player is None or not self.file:
            self.time_label.setText("")
            return
        self.time_label.setText(f"{fmt_ms(self.player.position())} / {fmt_ms(self.player.duration())}")

    def _update_ticks(self) -> None:
        self.slider.set_ticks(self.own_ms)

    def seek_done(self) -> bool:
        """Whether a frame came since the last seek, within a frame of where it was asked to go."""
        # the frame that holds the instant asked for: it starts at most one frame before it
        return (self.target_ms is not None and self.frame_count > self.seek_frames
                and self.target_ms - self.frame_step_ms() < self.frame_ms <= self.target_ms + 1)

    def frame_step_ms(self) -> int:
        return max(int(round(1000 / (self.fps or DEFAULT_FPS))), 1)

    def position_ms(self) -> int:
        """The position of the frame shown (the player's position when no frame came yet)."""
        if self.frame_ms >= 0 and not self.playing():
            return self.frame_ms
        return int(self.player.position()) if self.player is not None else 0

    def position_s(self) -> float:
        return self.position_ms() / 1000

    def log_position_s(self) -> float:
        """The video position as a log timecode (the offset taken off)."""
        return max(self.position_s() - self.offset, 0.0)

    def _set_position(self, ms: int) -> None:
        if self.player is None or not self.file:
            return
        self.target_ms = ms
        self.seek_frames = self.frame_count
        self.seek_started = time.perf_counter()
        # a frame spans [start, start + 1/fps); Qt shows the frame before an exact frame boundary,
        # so the seek goes a millisecond into the frame that starts at ms
        self.player.setPosition(max(ms + 1, 0))

    # ---- the window's selection ---------------------------------------------------------------------
    def on_selected(self, index: int, origin: str = "") -> None:
        """The window selected event ``index``: seek to it (not when the footage chose it)."""
        self.current = index
        if origin in ("video", "editor", "reload") or index < 0 or index >= len(self.event_tc):
            return
        self._followed = index
        tc = self.event_tc[index]
        if tc is None:
            return
        if self.playing() and origin in ("step",):
            return
        self._set_position(self.video_ms(tc))
        self._update_controls()

    def event_timecode(self, index: int) -> float | None:
        return self.event_tc[index] if 0 <= index < len(self.event_tc) else None

    # ---- playing ------------------------------------------------------------------------------------
    def playing(self) -> bool:
        return self.player is not None and self.player.playbackState() == self.mm.QMediaPlayer.PlaybackState.PlayingState

    def play(self) -> None:
        if self.has_media():
            self._apply_rate()
            self.target_ms = None
            self.player.play()

    def pause(self) -> None:
        if self.player is not None and self.file:
            self.player.pause()

    def toggle(self) -> None:
        if self.playing():
            self.pause()
        else:
            self.play()

    def _apply_rate(self) -> None:
        if self.player is not None:
            self.player.setPlaybackRate(float(self.speed.currentData() or 1.0))

    def set_speed(self, speed: float) -> None:
        i = min(range(len(SPEEDS)), key=lambda k: abs(SPEEDS[k] - speed))
        self.speed.setCurrentIndex(i)

    def speed_step(self, steps: int) -> None:
        """``<`` / ``>``: the speed one step down / up (0.25× to 2×), playing or paused."""
        if not self.has_media():
            return
        i = max(0, min(self.speed.currentIndex() + steps, len(SPEEDS) - 1))
        self.speed.setCurrentIndex(i)
        self.message.emit(tr("Video speed {speed}×", speed=f"{SPEEDS[i]:g}"))

    def shuttle(self, key: str) -> None:
        """J/K/L: L plays (again: faster, up to 2×), K pauses, J slows down (paused or at 0.25×:
        back two seconds; QtMultimedia does not play backwards)."""
        if not self.has_media():
            return
        i = self.speed.currentIndex()
        if key == "K":
            self.pause()
        elif key == "L":
            if self.playing():
                self.speed.setCurrentIndex(min(i + 1, len(SPEEDS) - 1))
            else:
                self.set_speed(1.0)
                self.play()
        elif key == "J":
            if self.playing() and i > 0:
                self.speed.setCurrentIndex(i - 1)
            else:
                base = self.target_ms if self.target_ms is not None and not self.playing() else self.position_ms()
                self._set_position(max(base - JUMP_BACK_MS, 0))

    def skip(self, ms: int) -> None:
        """F7 / F9: ``ms`` back (negative) or on; playing, it plays on from there, paused it stays."""
        if not self.has_media():
            return
        playing = self.playing()
        # paused: from where the last seek went (keys pressed quickly add up), else from the footage
        base = self.target_ms if self.target_ms is not None and not playing else self.position_ms()
        end = self.player.duration() - self.frame_step_ms()  # not past the last frame
        self._set_position(max(min(base + ms, end) if end > 0 else base + ms, 0))
        if playing:  # the position moves on: no seek is left to wait for (nor to start the next from)
            self.target_ms, self.seek_started = None, 0.0

    def frame_step(self, frames: int) -> None:
        """Shift+←/→: pause and move by whole frames."""
        if not self.has_media():
            return
        was_playing = self.playing()
        self.pause()
        # from where the last seek went (its frame may not have come yet: keys pressed quickly add up)
        base = self.target_ms if self.target_ms is not None and not was_playing else self.position_ms()
        self._set_position(max(base + frames * self.frame_step_ms(), 0))

    # ---- sync, attach, browser -------------------------------------------------------------------
    def sync_offset(self) -> float | None:
        """The offset that puts the selected event on the frame shown (None: no timecode)."""
        if self.doc is None or not (0 <= self.current < len(self.doc.events)):
            return None
        e = self.doc.events[self.current]
        tc = seconds(e.timecode) if e.timecode else None
        if tc is None:
            return None
        return round(self.position_s() - tc, 3)

    def sync_here(self) -> None:
        if not self.has_media():
            self.message.emit(tr("Open a video first"))
            return
        offset = self.sync_offset()
        if offset is None:
            self.message.emit(tr("Select an event with its own timecode, then Sync here"))
            return
        self.offset = offset
        self._index_events()
        self._update_ticks()
        self.headerWanted.emit("VideoOffset", format_offset(offset))
        self.message.emit(tr("Video offset {offset}: the selected event is at {position}", offset=format_offset(offset),
                             position=fmt_ms(self.position_ms())))

    def attach_dialog(self) -> None:
        start = str(Path(self.log_path).parent) if self.log_path else ""
        path, _ = QFileDialog.getOpenFileName(self, tr("Attach a video to this log"), start,
                                              tr("Videos (*.mp4 *.mkv *.webm *.mov *.avi *.m4v *.ts);;All files (*)"))
        if path:
            self.attach(path)

    def attach(self, path: str) -> str:
        """Name ``path`` in the log's [Video] (relative to the log where it is below its folder)."""
        value = str(Path(path).resolve())
        if self.log_path:
            folder = Path(self.log_path).resolve().parent
            try:
                value = Path(value).relative_to(folder).as_posix()
            except ValueError:
                pass
        self.headerWanted.emit("Video", value)
        return value

    def browser_url(self) -> str | None:
        if not self.url:
            return None
        tc = self.event_timecode(self.current)
        return url_at(self.url, (tc or 0.0) + self.offset)

    def open_in_browser(self) -> None:
        """"Open at timecode": the web address at the selected event's second, in the browser;
        never an address that is not a good one (:func:`replayer.timecodes.url_problem`)."""
        if self.bad_url is not None:
            self.message.emit(tr("Not opened: the log's [Video] is not a web address ({why})", why=visible(self.bad_url)))
            return
        url = self.browser_url()
        if url:
            qurl = QUrl(url, QUrl.StrictMode)
            if not qurl.isValid() or not qurl.host() or qurl.scheme() not in ("http", "https"):
                self.message.emit(tr("Not opened: {url} is not a web address", url=visible(shorten(url, 200))))
                return
            if QDesktopServices.openUrl(qurl):
                self.message.emit(tr("Opened {url}", url=visible(qurl.toString())))
            else:
                self.message.emit(tr("Could not open {url}: no browser answered", url=visible(qurl.toString())))
        elif self.source:
            self.message.emit(tr("This video is a file: it plays in the pane (Open at timecode is for a web address)"))

    # ---- bits ---------------------------------------------------------------------------------------
    def _update_controls(self) -> None:
        media = self.has_media()
        for w in (self.play_button, self.slider, self.speed, self.sync_button):
            w.setEnabled(media)
        self.browser_button.setVisible(bool(self.url))
        self.attach_button.setEnabled(self.log_path is not None)
        self.play_button.setText("⏸" if self.playing() else "▶")
        sep = tr("  ·  offset {offset}", offset="")
        off = tr("  ·  offset {offset}", offset=format_offset(self.offset)) if self.offset and self.source else ""
        base = self.title.text().split(sep)[0]
        self.title.setText(base + off)

    def retranslate(self) -> None:
        """The window's language changed: the pane's title and what it says in place of a frame."""
        if self.file:
            self.title.setText(tr("Video  ({name})", name=Path(self.file).name))
        else:
            self._open_source(self.source)
        self._update_controls()

    def set_theme(self, theme) -> None:
        self.slider.tick_color = QColor(getattr(theme, "dim", "#808080"))
        self.slider.update()

    def wait_for_frame(self, timeout_ms: int = 5000, process: Callable[[], None] | None = None) -> bool:
        """Process events until the frame of the last seek is shown (screenshots, tests)."""
        from PySide6.QtWidgets import QApplication

        if not self.has_media() or self.target_ms is None:
            return False
        end = time.perf_counter() + timeout_ms / 1000
        while time.perf_counter() < end:
            (process or QApplication.processEvents)()
            if self.seek_done():
                return True
            time.sleep(0.002)
        return False

    def shutdown(self) -> None:
        if self.player is not None:
            self.player.stop()
