"""A short test video in which every frame shows its own number (written with PyAV).

Frame ``n`` is eight vertical bands, black or white: the bits of ``n``, the highest first
(so up to 255 frames). :func:`frame_number` reads the number back from a ``QImage`` of a frame
(the video pane's, or a screenshot's crop), which survives the codec's loss easily.
"""

from __future__ import annotations

from pathlib import Path

FPS = 25
BANDS = 8


def make_video(path: str | Path, seconds: int = 8, fps: int = FPS, size: tuple[int, int] = (320, 180),
               gop: int = 12) -> Path:
    import av

    w, h = size
    band = w // BANDS
    out = av.open(str(path), "w")
    try:
        stream = out.add_stream("mpeg4", rate=fps)
        stream.width, stream.height = w, h
        stream.pix_fmt = "yuv420p"
        stream.codec_context.gop_size = gop  # seeks land between key frames, as in real footage
        stream.codec_context.bit_rate = 600_000
        white, black = b"\xff\xff\xff\xff", b"\x00\x00\x00\xff"
        for n in range(seconds * fps):
            row = b"".join(white if (n >> (BANDS - 1 - min(x // band, BANDS - 1))) & 1 else black
                           for x in range(w))
            frame = av.VideoFrame.from_bytes(row * h, w, h, format="rgba")
            frame.pts = n
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    finally:
        out.close()
    return Path(path)


def frame_number(image) -> int:
    """The number a frame of :func:`make_video` shows (``image``: a QImage of the frame)."""
    w, h = image.width(), image.height()
    band = w / BANDS
    n = 0
    for b in range(BANDS):
        n = n * 2 + (image.pixelColor(int(b * band + band / 2), h // 2).lightness() > 128)
    return n
