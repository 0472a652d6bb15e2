"""The parts of the video pane around the player: QtMultimedia's import (optional: the
``replayer[video]`` extra) and what the pane says without it, the frame view, the position
slider with a tick for each timecode, times in words and the file a ``[Video]`` value names."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QSlider, QStyle, QStyleOptionSlider, QWidget

from ..shared.language import tr

INSTALL_HINT = "pip install 'replayer[video]'"


def _import_multimedia():
    """QtMultimedia, or ImportError (kept apart so tests can make it fail)."""
    from PySide6 import QtMultimedia

    return QtMultimedia


_MM: object | None = None
_MM_ERROR: str | None = None


def multimedia():
    """The QtMultimedia module, or None (then :func:`multimedia_error` says why)."""
    global _MM, _MM_ERROR
    if _MM is None and _MM_ERROR is None:
        quiet_multimedia()  # (its import already says which optional libraries it did not find)
        try:
            _MM = _import_multimedia()
        except ImportError as e:
            _MM_ERROR = str(e) or type(e).__name__
    return _MM


#: what QtMultimedia says on opening a video that tells the user nothing (optional libraries it did
#: not find, the FFmpeg version, no hardware decoder): off unless REPLAYER_DEBUG is set. Its real
#: problems (a file that does not play, a missing codec) stay on: they are other categories, or
#: warnings of these, and the pane says them too. QT_LOGGING_RULES still overrides these.
QUIET_RULES = "\n".join([
    "qt.multimedia.symbolsresolver.warning=false",   # "Couldn't load pipewire-0.3 library", VA-API
    "qt.multimedia.ffmpeg.info=false",               # "Using Qt multimedia with FFmpeg version …"
    "qt.multimedia.playbackengine.codec.info=false",  # "No HW decoder found"
])
#: FFmpeg's own log (its "Input #0, mov,mp4…" dump of every file opened) from errors up
AV_LOG_ERROR = 16


def quiet_multimedia() -> list[str]:
    """Keep the terminal clean when the video pane opens a file (issue 23, point 7); returns what it set."""
    if os.environ.get("REPLAYER_DEBUG"):
        return []
    from PySide6.QtCore import QLoggingCategory

    done = ["qt logging rules"]
    QLoggingCategory.setFilterRules(QUIET_RULES)
    done += quiet_ffmpeg()
    return done


def quiet_ffmpeg() -> list[str]:
    """FFmpeg's log from errors up; called again once a player exists (Qt's backend sets its level then)."""
    if os.environ.get("REPLAYER_DEBUG"):
        return []
    done = []
    lib = _qt_avutil()
    if lib is not None:
        import ctypes

        try:
            ctypes.CDLL(str(lib)).av_log_set_level(AV_LOG_ERROR)  # the very library Qt's FFmpeg plugin uses
            done.append(f"FFmpeg log level (error) in {lib.name}")
        except (OSError, AttributeError):
            pass
    return done


def _qt_avutil() -> Path | None:
    """FFmpeg's libavutil as Qt's wheel ships it (the one QtMultimedia's FFmpeg backend loads)."""
    import PySide6

    base = Path(PySide6.__file__).parent
    for folder, pattern in ((base / "Qt" / "lib", "libavutil.so.*"), (base / "Qt" / "lib", "libavutil.*.dylib"),
                            (base, "avutil-*.dll"), (base / "Qt" / "bin", "avutil-*.dll")):
        found = sorted(folder.glob(pattern), key=lambda p: len(p.name)) if folder.is_dir() else []
        if found:
            return found[0]
    return None


def multimedia_error() -> str | None:
    multimedia()
    return _MM_ERROR


def reset_multimedia() -> None:
    """Forget the outcome of the import (tests)."""
    global _MM, _MM_ERROR
    _MM = _MM_ERROR = None


def missing_text(error: str) -> str:
    """What the pane says when QtMultimedia cannot be imported."""
    text = tr("The video pane needs QtMultimedia, which is not installed with replayer by default.\n"
              "Install it with:  {command}\n"
              "(that is the PySide6-Addons wheel of the same version as your PySide6-Essentials).",
              command=INSTALL_HINT)
    if ".so" in error:  # the wheel is there but a system library is not
        text += tr("\n\nQtMultimedia is installed but a system library is missing: {error}.\nOn Debian or "
                   "Ubuntu: apt install libpulse0", error=error)
    else:
        text += f"\n\n({error})"
    return text


def fmt_ms(ms: int) -> str:
    s, ms = divmod(max(int(ms), 0), 1000)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return (f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}") + f".{ms // 10:02d}"


class FrameView(QWidget):
    """Draws the current video frame (kept aspect, on black), or a message."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.image: QImage | None = None
        self.message = ""
        self.setMinimumSize(160, 90)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(480, 270)

    def set_image(self, image: QImage | None) -> None:
        self.image = image
        self.update()

    def set_message(self, text: str) -> None:
        self.message = text
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#000000"))
        if self.image is not None and not self.image.isNull() and not self.message:
            size = self.image.size().scaled(self.size(), Qt.KeepAspectRatio)
            x = (self.width() - size.width()) / 2
            y = (self.height() - size.height()) / 2
            p.setRenderHint(QPainter.SmoothPixmapTransform)
            p.drawImage(QRectF(x, y, size.width(), size.height()), self.image)
        elif self.message:
            p.setPen(QColor("#e0e0e0"))
            p.drawText(self.rect().adjusted(14, 10, -14, -10), Qt.AlignCenter | Qt.TextWordWrap, self.message)
        p.end()


class TickSlider(QSlider):
    """The position slider, with a tick for each event's timecode."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Horizontal, parent)
        self.ticks: list[int] = []
        self.tick_color = QColor("#808080")
        self.setFocusPolicy(Qt.NoFocus)

    def set_ticks(self, ticks: list[int]) -> None:
        self.ticks = ticks
        self.update()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self.ticks or self.maximum() <= self.minimum():
            return
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        groove = self.style().subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderHandle, self)
        x0 = groove.left() + handle.width() / 2
        span = max(groove.width() - handle.width(), 1)
        p = QPainter(self)
        p.setPen(QPen(self.tick_color, 1))
        lo, hi = self.minimum(), self.maximum()
        y1, y2 = self.height() - 5, self.height() - 1
        for t in self.ticks:
            if lo <= t <= hi:
                x = x0 + span * (t - lo) / (hi - lo)
                p.drawLine(QPointF(x, y1), QPointF(x, y2))
        p.end()


def resolve_video(value: str, log_path: str | None) -> str:
    """The file a ``[Video]`` value names: absolute, or relative to the log's folder."""
    v = value.strip()
    if v.startswith("file://"):
        v = QUrl(v).toLocalFile()
    p = Path(os.path.expanduser(v))
    if not p.is_absolute() and log_path:
        p = Path(log_path).resolve().parent / p
    return str(p)
