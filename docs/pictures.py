"""Renders docs/transcribe.png: the window transcribing a match from its video, with the video
pane at the current event and the editor's completion list open (offscreen); with ``--lang ja``
or ``--lang de`` the window in Japanese or German (docs/transcribe-ja.png, docs/transcribe-de.png).

    QT_QPA_PLATFORM=offscreen python docs/pictures.py [--out docs/transcribe.png] [--theme light] [--lang en]

The footage is made here (a clock on a green table, PyAV) so the picture needs nothing from
outside the project. The completion list is a popup window of its own; it is painted onto the
window's picture where it is on screen.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LOG = """\
[Game "ygo"]
[Event "Regional Top 8"]
[A "Yuki"]
[B "Kaiba"]
[Video "feature-match.mp4"]
[VideoOffset "+0:02"]

@0:01 turn 3 A
phase battle
@0:02 A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
@0:04 timing before-calc
"""


def make_clock_video(path: Path, seconds: int = 10, fps: int = 25, size=(480, 270)) -> None:
    import av
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    w, h = size
    out = av.open(str(path), "w")
    stream = out.add_stream("mpeg4", rate=fps)
    stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
    stream.codec_context.bit_rate = 900_000
    for n in range(seconds * fps):
        img = QImage(w, h, QImage.Format_RGBA8888)
        img.fill(QColor("#1f5e3a"))
        p = QPainter(img)
        p.setPen(QColor("#d9efe0"))
        p.drawRect(30, 40, w - 60, h - 80)
        p.setPen(QColor("#ffffff"))
        f = QFont("DejaVu Sans", 34)
        f.setBold(True)
        p.setFont(f)
        s = n / fps
        p.drawText(img.rect(), Qt.AlignCenter, f"{int(s) // 60}:{int(s) % 60:02d}.{n % fps * 4:02d}")
        f.setPointSize(11)
        f.setBold(False)
        p.setFont(f)
        p.drawText(img.rect().adjusted(0, 0, 0, -50), Qt.AlignHCenter | Qt.AlignBottom, f"feature match · frame {n}")
        p.end()
        frame = av.VideoFrame.from_bytes(bytes(img.constBits()), w, h, format="rgba")
        frame.pts = n
        for packet in stream.encode(frame):
            out.mux(packet)
    for packet in stream.encode():
        out.mux(packet)
    out.close()


def render(out: str, theme: str = "light", size=(1400, 860), lang: str = "en") -> str:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["REPLAYER_LANG"] = lang  # the window's language (before the window is made)
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QImage, QPainter, QTextCursor
    from PySide6.QtTest import QTest

    from replayer.gui.app import MainWindow, make_app

    app = make_app([])
    with tempfile.TemporaryDirectory() as tmp:
        make_clock_video(Path(tmp) / "feature-match.mp4")
        log = Path(tmp) / "feature-match.duel"
        log.write_text(LOG, encoding="utf-8")
        w = MainWindow(theme=theme)
        w.resize(*size)
        w.show()
        app.processEvents()
        w.open_path_now(str(log))
        w.select_line(12)
        w.video.wait_for_frame(8000)
        ed = w.editor
        ed.start()
        view = w.log_pane.view
        c = QTextCursor(view.document())
        c.movePosition(QTextCursor.End)
        view.setTextCursor(c)
        ed.insert_timecode()
        QTest.keyClicks(view, 'A: activate "Ho')
        import time

        end = time.perf_counter() + 10
        while time.perf_counter() < end and not (ed.idle() and ed.applied == ed.last_recheck):
            app.processEvents()  # the re-check of the line being typed
        ed.complete()
        for _ in range(10):
            app.processEvents()
        picture = w.grab()
        popup = ed.completer.popup()
        if popup.isVisible():
            p = QPainter(picture)
            at = popup.mapToGlobal(QPoint(0, 0)) - w.mapToGlobal(QPoint(0, 0))
            p.drawPixmap(at, popup.grab())
            p.end()
        image = picture.toImage().scaledToWidth(1120, Qt.SmoothTransformation)
        # 256 colours: the picture stays small in the repository, and text stays sharp
        image = image.convertToFormat(QImage.Format_RGB32)
        counts: dict[int, int] = {}
        for y in range(0, image.height(), 2):
            for x in range(0, image.width(), 2):
                c = image.pixel(x, y)
                counts[c] = counts.get(c, 0) + 1
        table = sorted(counts, key=counts.get, reverse=True)[:256]
        image = image.convertToFormat(QImage.Format_Indexed8, table, Qt.ThresholdDither | Qt.AvoidDither)
        if not image.save(out, "PNG", 0):
            raise OSError(f"cannot write {out}")
        w.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None, help="default: docs/transcribe.png (docs/transcribe-LANG.png)")
    ap.add_argument("--theme", default="light", choices=["light", "dark"])
    ap.add_argument("--lang", default="en", choices=["en", "ja", "de"])
    args = ap.parse_args(argv)
    out = args.out or str(ROOT / "docs" / ("transcribe.png" if args.lang == "en" else f"transcribe-{args.lang}.png"))
    print(render(out, args.theme, lang=args.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
