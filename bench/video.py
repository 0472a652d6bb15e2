"""Benchmark of reviewing with the footage (issue 15): seeking after a selection, and re-checking
while typing.

    QT_QPA_PLATFORM=offscreen python bench/video.py [--lines 5000] [--seeks 40] [--keys 20] [--write]

* **seek after a selection**: a generated 2-minute video (640×360, 25 fps, a key frame every
  2 s as in streamed footage, every frame showing its number: tests/gui/footage.py) beside a log
  whose events carry timecodes; from ``window.select_event(i)`` to the video pane holding the
  frame at that event's timecode (target: at most 150 ms);
* **re-check while typing**: a generated Yu-Gi-Oh! log of ``--lines`` lines in the editor; from
  one key typed on a line in the middle of the log to the window showing the findings of the
  new text (the debounce included; target: at most 100 ms).

``--write`` replaces the "## Video" section of docs/performance.md (the other sections are kept).
Needs the ``video`` and ``test`` extras (QtMultimedia, PyAV).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pump(app, until, timeout: float = 10.0) -> bool:
    """Run the event loop until ``until()`` (checked every 2 ms) or the timeout. The loop waits
    in Qt as the window's own loop does, so worker threads are not starved of Python's lock by a
    busy polling loop."""
    from PySide6.QtCore import QEventLoop, QTimer

    if until():
        return True
    loop = QEventLoop()
    end = time.perf_counter() + timeout
    timer = QTimer()
    timer.setInterval(2)
    timer.timeout.connect(lambda: (until() or time.perf_counter() > end) and loop.quit())
    timer.start()
    loop.exec()
    timer.stop()
    return bool(until())


def _video_log(seconds: int, video: str) -> str:
    lines = ['[Game "ygo"]', '[A "Yuki"]', '[B "Kaiba"]', f'[Video "{video}"]', ""]
    t = 1
    turn = 1
    while t < seconds - 2:
        lines.append(f"@{t // 60}:{t % 60:02d} turn {turn} {'A' if turn % 2 else 'B'}")
        lines.append("phase main1")
        t += 3
        lines.append(f"@{t // 60}:{t % 60:02d} phase end")
        t += 2
        turn += 1
    return "\n".join(lines) + "\n"


def time_seeks(app, window, path: str, seeks: int, seed: int = 15) -> list[float]:
    window.open_path(path)
    assert _pump(app, lambda: window.doc is not None and window.video.has_media(), 30)
    pane = window.video
    assert _pump(app, lambda: pane.player.duration() > 0, 30)
    with_tc = [i for i, e in enumerate(window.doc.events) if e.timecode]
    rng = random.Random(seed)
    out = []
    for _ in range(seeks + 3):
        i = rng.choice(with_tc)
        t0 = time.perf_counter()
        window.select_event(i)
        if not _pump(app, pane.seek_done, 10):
            raise RuntimeError("a seek did not finish")
        out.append((time.perf_counter() - t0) * 1000)
    return out[3:]  # the first seeks warm the decoder


def time_typing(app, window, path: str, keys: int) -> tuple[list[float], int]:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    window.open_path(path)
    assert _pump(app, lambda: window.doc is not None, 60)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    n = view.document().blockCount()
    block = view.document().findBlockByNumber(n // 2)
    while block.isValid() and not block.text().strip().startswith("phase"):
        block = block.next()
    cursor = QTextCursor(block)
    cursor.movePosition(QTextCursor.EndOfBlock)
    view.setTextCursor(cursor)
    out = []
    for k in range(keys + 2):
        key = Qt.Key_X if k % 2 == 0 else Qt.Key_Backspace  # a bad line, then good again
        asked = ed.last_recheck
        t0 = time.perf_counter()
        QTest.keyClick(view, key)
        # cheap to ask while the worker runs (no copy of the text): the re-check of this key is shown
        if not _pump(app, lambda: ed.last_recheck != asked and ed.applied == ed.last_recheck
                     and not ed.timer.isActive(), 20):
            raise RuntimeError("a re-check did not finish")
        app.processEvents()  # and painted
        out.append((time.perf_counter() - t0) * 1000)
        if not ed.idle():
            raise RuntimeError("the findings shown are not those of the text")
        _pump(app, lambda: False, 0.05)
    return out[2:], n


def _fmt(values: list[float]) -> tuple[str, str, str]:
    qs = sorted(values)
    p95 = qs[min(len(qs) - 1, int(round(0.95 * (len(qs) - 1))))]
    return f"{statistics.median(qs):.0f} ms", f"{p95:.0f} ms", f"{qs[-1]:.0f} ms"


def write_docs(lines: list[str], path: Path | None = None) -> None:
    """Replace (or append) the "## Video" section of docs/performance.md; keep the others."""
    path = path or ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    section = "## Video\n\n" + "\n".join(lines).rstrip() + "\n"
    start = text.find("\n## Video\n")
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        nxt = text.find("\n## ", start + 1)
        rest = text[nxt + 1:] if nxt != -1 else ""
        text = text[:start + 1] + section + ("\n" + rest if rest else "")
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--seeks", type=int, default=40)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--write", action="store_true", help="write the figures to docs/performance.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))

    from replayer.gui import video as video_mod
    from replayer.gui.app import MainWindow, make_app

    if video_mod.multimedia() is None:
        print(f"bench/video.py needs QtMultimedia: {video_mod.multimedia_error()}", file=sys.stderr)
        return 2
    footage = _load("footage", ROOT / "tests" / "gui" / "footage.py")
    gui_bench = _load("bench_gui", ROOT / "bench" / "gui.py")
    app = make_app([])
    seconds = 120
    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "match.mp4"
        footage.make_video(video, seconds=seconds, size=(640, 360), gop=50)
        log = Path(tmp) / "video.duel"
        log.write_text(_video_log(seconds, video.name), encoding="utf-8")
        window = MainWindow(theme="light")
        window.resize(1600, 1000)
        window.show()
        seeks = time_seeks(app, window, str(log), args.seeks)
        window.close()

        text = gui_bench.generate_log(int(args.lines * 0.99))
        typed = Path(tmp) / "typing.duel"
        typed.write_text(text, encoding="utf-8")
        window = MainWindow(theme="light")
        window.resize(1600, 1000)
        window.show()
        keys, n_lines = time_typing(app, window, str(typed), args.keys)
        window.close()
    from replayer.gui.editor import RECHECK_DELAY_MS

    s_med, s_p95, s_max = _fmt(seeks)
    k_med, k_p95, k_max = _fmt(keys)
    lines = [
        f"`python bench/video.py --lines {args.lines}` (offscreen, {platform.python_implementation()} "
        f"{platform.python_version()}, PySide6 {__import__('PySide6').__version__} with its FFmpeg backend, "
        f"{os.cpu_count()} CPUs).",
        "",
        "| measure | median | 95th percentile | worst | target |",
        "| --- | --- | --- | --- | --- |",
        f"| seek after a selection ({len(seeks)} random events of a {seconds} s 640×360 video, key frame "
        f"every 2 s) | **{s_med}** | {s_p95} | {s_max} | ≤ 150 ms |",
        f"| re-check while typing ({len(keys)} keys on line ~{n_lines // 2:,} of a {n_lines:,}-line log, "
        f"{RECHECK_DELAY_MS} ms debounce included) | **{k_med}** | {k_p95} | {k_max} | ≤ 100 ms |",
        "",
        "- A seek runs from `MainWindow.select_event` to the video pane holding the frame at the event's "
        "timecode (the frame's start time within one frame of it): Qt decodes from the key frame "
        "before the position, so the time grows with the distance between key frames.",
        "- A re-check runs from the key press to the window showing the findings of the new text: "
        f"the editor waits {RECHECK_DELAY_MS} ms after the last key, then reads and checks the whole "
        "log on a worker thread (the reader's per-line caches make the unchanged lines cheap) and the "
        "panes take the new document.",
    ]
    if statistics.median(keys) > 100:
        lines.append(
            "- **The re-check target is not met.** Each re-check reads and checks the whole log again "
            "and the window rebuilds its panes (findings table, timeline, state) from the new document, "
            "then repaints them; on this log that is over a second of Python on two CPUs shared with "
            "the GUI thread (reading alone, `read_text`, takes 130 to 500 ms for these 5,000 lines here, "
            "depending on what else this shared machine runs). Meeting 100 ms needs an incremental re-check: re-read "
            "only the changed lines, re-validate from the turn they are in, and update the panes in "
            "place instead of resetting them.")
    if statistics.median(seeks) > 150:
        lines.append("- **The seek target is not met** on this run (see the note on key frames above).")
    print("\n".join(lines))
    if args.write:
        write_docs(lines)
        print(f"\nwritten to {ROOT / 'docs' / 'performance.md'}", file=sys.stderr)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
