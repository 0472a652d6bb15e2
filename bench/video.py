"""Benchmark of reviewing with the footage (issue 15): seeking after a selection, and re-checking
while typing.

    QT_QPA_PLATFORM=offscreen python bench/video.py [--lines 5000] [--seeks 40] [--keys 20] [--write]

* **seek after a selection**: a generated 2-minute video (640×360, 25 fps, a key frame every
  2 s as in streamed footage, every frame showing its number: tests/gui/footage.py) beside a log
  whose events carry timecodes; from ``window.select_event(i)`` to the video pane holding the
  frame at that event's timecode (target: at most 150 ms);
* **re-check while typing**: a generated Yu-Gi-Oh! log of ``--lines`` lines in the editor; from
  one key typed on a line in the middle of the log to the window showing (and painting) the
  findings of the new text (target: at most 100 ms); the process's CPU time over the same span
  is reported too (both threads: the machine's load does not change it).

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


def time_typing(app, window, path: str, keys: int, cpu: list[float] | None = None,
                at: float = 0.5, parts: dict[str, list[float]] | None = None) -> tuple[list[float], int]:
    """Wall milliseconds from each key to its findings shown (and, into ``cpu``, the process's CPU
    milliseconds over the same span: both threads, what the machine's load does not change).
    The keys are typed at the end of a ``phase`` line at fraction ``at`` of the log (0.5: its
    middle; 1.0: its last such line, where a transcriber types). Into ``parts``: the CPU
    milliseconds of each key on the ``worker`` (its re-check) and on the ``gui`` thread."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    window.open_path(path)
    assert _pump(app, lambda: window.doc is not None, 60)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    n = view.document().blockCount()
    block = view.document().findBlockByNumber(min(int(n * at), n - 1))
    while block.isValid() and not block.text().strip().startswith("phase"):
        block = block.next() if at < 1 else block.previous()
    cursor = QTextCursor(block)
    cursor.movePosition(QTextCursor.EndOfBlock)
    view.setTextCursor(cursor)
    out = []
    cpu = cpu if cpu is not None else []
    for k in range(keys + 2):
        key = Qt.Key_X if k % 2 == 0 else Qt.Key_Backspace  # a bad line, then good again
        asked = ed.last_recheck
        t0, c0, g0 = time.perf_counter(), time.process_time(), time.thread_time()
        QTest.keyClick(view, key)
        # cheap to ask while the worker runs (no copy of the text): the re-check of this key is shown
        if not _pump(app, lambda: ed.last_recheck != asked and ed.applied == ed.last_recheck
                     and not ed.timer.isActive(), 20):
            raise RuntimeError("a re-check did not finish")
        app.processEvents()  # and painted
        out.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        if parts is not None and k >= 2:
            parts.setdefault("gui", []).append((time.thread_time() - g0) * 1000)
            parts.setdefault("worker", []).append(ed.rechecker.last_cost * 1000)
        if not ed.idle():
            raise RuntimeError("the findings shown are not those of the text")
        _pump(app, lambda: False, 0.05)
    del cpu[:2]
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

    from replayer.gui.video import pane as video_mod
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
        cpu: list[float] = []
        parts: dict[str, list[float]] = {}
        keys, n_lines = time_typing(app, window, str(typed), args.keys, cpu, parts=parts)
        window.close()
        window = MainWindow(theme="light")
        window.resize(1600, 1000)
        window.show()
        end_cpu: list[float] = []
        end_parts: dict[str, list[float]] = {}
        end_keys, _ = time_typing(app, window, str(typed), args.keys, end_cpu, at=1.0, parts=end_parts)
        window.close()
    from replayer.gui.log.editor import RECHECK_DELAY_MS

    s_med, s_p95, s_max = _fmt(seeks)
    k_med, k_p95, k_max = _fmt(keys)
    c_med, c_p95, c_max = _fmt(cpu)
    e_med, e_p95, e_max = _fmt(end_keys)
    ec_med, ec_p95, ec_max = _fmt(end_cpu)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        f"`python bench/video.py --lines {args.lines}` (offscreen, {platform.python_implementation()} "
        f"{platform.python_version()}, PySide6 {__import__('PySide6').__version__} with its FFmpeg backend, "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at the end of the run).",
        "",
        "| measure | median | 95th percentile | worst | target |",
        "| --- | --- | --- | --- | --- |",
        f"| seek after a selection ({len(seeks)} random events of a {seconds} s 640×360 video, key frame "
        f"every 2 s) | **{s_med}** | {s_p95} | {s_max} | ≤ 150 ms |",
        f"| re-check while typing ({len(keys)} keys on line ~{n_lines // 2:,} of a {n_lines:,}-line log, "
        f"from the key to the findings shown and painted) | **{k_med}** | {k_p95} | {k_max} | ≤ 100 ms |",
        f"| the same re-checks, CPU time of the process (both threads: what the machine's load does not "
        f"change) | {c_med} | {c_p95} | {c_max} | — |",
        f"| re-check while typing at the end of the same log (its last `phase` line: where a transcriber "
        f"types) | **{e_med}** | {e_p95} | {e_max} | ≤ 100 ms |",
        f"| the same re-checks, CPU time of the process | {ec_med} | {ec_p95} | {ec_max} | — |",
        "",
        f"CPU a key (median): in the middle, {statistics.median(parts['worker']):.0f} ms on the worker and "
        f"{statistics.median(parts['gui']):.0f} ms on the GUI thread; at the end, "
        f"{statistics.median(end_parts['worker']):.0f} ms and {statistics.median(end_parts['gui']):.0f} ms.",
        "",
        "- A seek runs from `MainWindow.select_event` to the video pane holding the frame at the event's "
        "timecode (the frame's start time within one frame of it). The window asks for the seek first and "
        "its panes follow while the decoder works (Qt decodes from the key frame before the position); "
        "the frame is taken when the GUI thread is done painting them. The worst seeks before "
        "(151 ms, median 122 ms) were those whose frame waited for that work: the seek was asked for "
        "after the panes had updated, the State pane rebuilt and re-expanded its tree on every "
        "selection, and the findings table's `data()` spent 165 µs a call on PySide6's short enum "
        "names (`Qt.DisplayRole`: a compatibility lookup of ~20 µs each); now the tree is updated in "
        "place and `data()` compares with members looked up once (20 µs a call).",
        "- A re-check runs from the key press to the window showing and painting the findings of the "
        f"new text. A key starts its re-check at once when none is running ({RECHECK_DELAY_MS} ms; "
        "keys typed while one runs are checked together right after it), on a worker thread. "
        "`check.check_edit` reads again only the changed lines (about 3 ms), and both replays start "
        "from a restart kept at the line being typed (`replayer/restart.py`: a copy of the rules "
        "model's state, and of the states' recording, before the first changed event): the copy costs "
        "about 2 ms, and only the events after the line are replayed — some 2,480 in the middle of "
        "this log (about 12 ms for the rules, 9 ms for the recording), none at its end. Laying out "
        "the document, the state at the cursor and the State pane's rows are done on the worker too. "
        "Then the window updates its panes in place (the log's colours on the changed lines only, "
        "the findings table kept when its findings are the same, the state tree row by row) and "
        "repaints them. On the GUI thread the largest parts are the findings table's repaint when its "
        "findings changed (~8.5 ms, every key here: PySide's cost a cell; a `QStandardItemModel` of "
        "the same texts paints in 2 ms), Qt's own text layout and painting, the timeline (~6 ms) and "
        "the log view (~5 ms, painted once for the key and once for the re-check).",
        "- The history of this measure (medians, quiet machine unless said): 1,314 ms before any of "
        "this work (a full re-check, every pane rebuilt); 104 ms after the incremental reading, the "
        "re-check on a worker and the panes updated in place (the rules and the states still replayed "
        "every event, and the GUI thread spent ~62 ms a key); then the restarts (worker 50 → 36 ms "
        "CPU a key in the middle of the log) and the GUI thread's work cut to ~45 ms (the overview's "
        "bins found as runs, one log-view paint after a re-check instead of two, the labels' widths "
        "kept, the findings model's `index()` in one call, the cursor's state built on the worker).",
    ]
    if max(statistics.median(keys), statistics.median(end_keys)) > 100:
        lines.append("- **The re-check target is not met** on this run.")
    if statistics.median(seeks) > 150:
        lines.append("- **The seek target is not met** on this run.")
    print("\n".join(lines))
    if args.write:
        write_docs(lines)
        print(f"\nwritten to {ROOT / 'docs' / 'performance.md'}", file=sys.stderr)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
