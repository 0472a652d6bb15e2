"""Benchmark of the review window on a long generated log (issue 5, "Scale").

    QT_QPA_PLATFORM=offscreen python bench/gui.py [--events 100000] [--runs 3] [--write]

From one run it reports:

* parse+validate alone (``read_text`` + ``check_match``), the best of ``--runs``;
* opening the same log in the window, from the open request to the first painted frame with
  every pane filled (parsing and validating happen on a worker thread), as a ratio to the above
  (target: at most 1.5x);
* the timeline's repaint time after a pan and after a full zoom-out (target: at most 16 ms each),
  the median of many repaints of the whole timeline viewport.

``--write`` replaces the "## Window" section of docs/performance.md with the figures (the other
sections of that file belong to other benchmarks and are kept as they are).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MONSTERS = [
    ("Lyla, Lightsworn Sorceress", "1700/200"), ("Blue-Eyes White Dragon", "3000/2500"),
    ("Dark Magician", "2500/2100"), ("Gemini Elf", "1900/900"), ("Mystic Tomato", "1400/1100"),
    ("Airknight Parshath", "1900/1400"), ("Morphing Jar", "700/600"), ("Man-Eater Bug", "450/600"),
    ("Gravekeeper's Spy", "1200/2000"), ("Neo-Spacian Grand Mole", "900/300"),
    ("Stardust Dragon", "2500/2000"), ("Drillroid", "1600/1600"), ("Dandylion", "300/300"),
    ("ブラック・マジシャン", "2500/2100"), ("„Ehrliche Haut“", None), ("Vorse Raider", "1900/1200"),
]
QUICK = ["Honest", "Kuriboh", "Rush Recklessly", "Forbidden Chalice", "Rising Energy", "Divine Wrath",
         "オネスト", "Drastic Drop Off", "Bottomless Trap Hole", "Mirror Force"]


def _card(name: str) -> str:
    return name if name.startswith("„") else f'"{name}"'


def generate_log(events: int = 100_000, seed: int = 5) -> str:
    """A realistic Yu-Gi-Oh! log of about ``events`` events: turns, main phases with summons
    and chains, Battle Phases with full Damage Steps, Life Point arithmetic, notes, timecodes
    and a sprinkling of mistakes (a bad line now and then)."""
    rnd = random.Random(seed)
    out = ['[Game "ygo"]', '[A "Yuki"]', '[B "海馬"]', '[Event "Bench Regional"]', ""]
    n = 0
    turn = 0
    lp = {"A": 8000, "B": 8000}
    seconds = 0

    def emit(line: str, *, note: str | None = None, timecode: bool = False) -> None:
        nonlocal n, seconds
        seconds += rnd.randint(2, 9)
        prefix = ""
        if timecode:
            h, rem = divmod(seconds, 3600)
            m, s = divmod(rem, 60)
            prefix = f"@{h}:{m:02d}:{s:02d} "
        out.append(prefix + line + (f"   # {note}" if note else ""))
        n += 1

    while n < events:
        turn += 1
        me, opp = ("A", "B") if turn % 2 else ("B", "A")
        if lp[me] < 3000 or lp[opp] < 3000:
            lp = {"A": 8000, "B": 8000}
            out.append(f"# game {turn}: Life Points reset for the next duel of the bench")
        emit(f"turn {turn} {me}", timecode=True)
        emit("phase draw")
        emit(f"{me}: draw")
        emit("phase standby")
        emit("phase main1")
        name, stats = rnd.choice(MONSTERS)
        copy = f"#{rnd.randint(2, 3)}" if rnd.random() < 0.1 else ""
        mon = f"{_card(name)}{copy}"
        emit(f"{me}: normal summon {mon}" + (f" {stats}" if stats else ""))
        if rnd.random() < 0.5:
            emit(f'{me}: set "Set Card {rnd.randint(1, 40)}"')
        if rnd.random() < 0.4:
            q1, q2 = rnd.sample(QUICK, 2)
            emit(f"{me}: activate {_card(q1)}", note="chain opens" if rnd.random() < 0.2 else None)
            emit(f"{opp}: activate {_card(q2)}")
            emit("resolve")
        emit("phase battle")
        emit("step start")
        emit("step battle")
        target_name, tstats = rnd.choice(MONSTERS)
        emit(f"{me}: attack {mon} -> {_card(target_name)}" + (f" {tstats}" if tstats else ""), timecode=True)
        emit("step damage")
        emit("timing ds-start")
        emit("timing before-calc")
        if rnd.random() < 0.3:
            emit(f'{me}: activate "Honest" from hand', note="Honest before calc")
            emit("resolve")
        emit("timing calc")
        dmg = rnd.choice([100, 200, 300, 500, 800, 1000])
        emit(f"{opp}: damage {dmg}")
        lp[opp] -= dmg
        shown = lp[opp] if rnd.random() > 0.02 else lp[opp] + 100  # a transcription mistake
        emit(f"{opp}: lp {shown}")
        emit(f"{opp}: destroy {_card(target_name)} by battle")
        emit("timing after-calc")
        emit("timing ds-end")
        emit(f"{opp}: send {_card(target_name)} to gy")
        emit("step battle")
        emit("step end")
        if rnd.random() < 0.01:
            out.append(f"{me}: atack {mon} -> direct")  # a syntax error the window must show
        emit("phase main2")
        emit(f"{me}: send {mon} to gy")
        emit("phase end")
    return "\n".join(out) + "\n"


# ---- measuring -------------------------------------------------------------------------------
def time_parse_validate(text: str, path: str, runs: int) -> tuple[float, int, int]:
    from replayer import check_match, read_text

    best = float("inf")
    events = findings = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        result = check_match(read_text(text, path))
        best = min(best, time.perf_counter() - t0)
        events, findings = len(result.match.events), len(result.findings)
    return best, events, findings


def time_open(path: str, runs: int) -> tuple[float, object]:
    """Open the file in a fresh window the way File > Open does, until the first full paint."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from replayer.gui.app import MainWindow

    app = QApplication.instance()
    best = float("inf")
    window = None
    for _ in range(runs):
        if window is not None:
            window.close()
            window.deleteLater()
            app.processEvents()
        window = MainWindow()
        window.resize(1600, 1000)
        window.show()
        app.processEvents()
        loop = QEventLoop()
        window.loaded.connect(loop.quit)
        QTimer.singleShot(120_000, loop.quit)
        t0 = time.perf_counter()
        window.open_path(path)
        loop.exec()
        window.repaint()  # the first full frame with every pane filled
        app.processEvents()
        best = min(best, time.perf_counter() - t0)
    return best, window


def time_repaints(window, repeats: int = 40) -> dict[str, float]:
    """Median milliseconds of a full repaint of the timeline viewport after a pan / a zoom-out."""
    view = window.timeline
    vp = view.viewport()
    bar = view.horizontalScrollBar()
    out: dict[str, float] = {}

    def measure(prepare) -> float:
        samples = []
        for i in range(repeats):
            prepare(i)
            t0 = time.perf_counter()
            vp.repaint()
            samples.append((time.perf_counter() - t0) * 1000)
        return statistics.median(samples)

    view.set_pixels_per_event(40.0)  # the default detail level: markers, labels, badges
    mid = bar.maximum() // 2
    bar.setValue(mid)
    out["pan (detail, 40 px/event)"] = measure(lambda i: bar.setValue(mid + (i % 2 * 2 - 1) * 300 + i))
    view.set_pixels_per_event(4.0)
    mid = bar.maximum() // 2
    out["pan (overview, 4 px/event)"] = measure(lambda i: bar.setValue(mid + (i % 2 * 2 - 1) * 300 + i))
    view.fit_match()
    out["full zoom-out (fit match)"] = measure(lambda i: view.fit_match())
    return out


def write_docs(lines: list[str]) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    section = "## Window\n\n" + "\n".join(lines).rstrip() + "\n"
    start = text.find("\n## Window\n")
    if text.startswith("## Window\n"):
        start = 0
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        begin = start + (0 if start == 0 else 1)
        nxt = text.find("\n## ", begin + 1)
        rest = text[nxt + 1:] if nxt != -1 else ""
        text = text[:begin] + section + ("\n" + rest if rest else "")
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="write the figures to docs/performance.md")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))

    from PySide6.QtWidgets import QApplication

    from replayer.gui.app import make_app

    text = generate_log(args.events)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench-100k.duel")
        Path(path).write_text(text, encoding="utf-8")
        pv, events, findings = time_parse_validate(text, path, args.runs)
        app = make_app([])
        opened, window = time_open(path, args.runs)
        repaints = time_repaints(window)
        size = window.timeline.viewport().size()
        window.close()
    ratio = opened / pv
    lines = [
        f"`python bench/gui.py --events {args.events}` (offscreen, {platform.python_implementation()} "
        f"{platform.python_version()}, PySide6 {__import__('PySide6').__version__}, "
        f"{os.cpu_count()} CPUs); a generated Yu-Gi-Oh! log of {events:,} events "
        f"({len(text.splitlines()):,} lines, {findings:,} findings). Best of {args.runs} runs.",
        "",
        "| measure | time | target |",
        "| --- | --- | --- |",
        f"| parse + validate alone (`read_text` + `check_match`) | {pv * 1000:,.0f} ms | — |",
        f"| open in the window (worker thread, models, log pane, first frame) | {opened * 1000:,.0f} ms "
        f"(**{ratio:.2f}×**) | ≤ 1.5× |",
    ]
    for name, ms in repaints.items():
        lines.append(f"| timeline repaint, {name}, {size.width()}×{size.height()} px | **{ms:.1f} ms** | ≤ 16 ms |")
    lines += ["", "Repaint times are the median of 40 synchronous repaints of the whole timeline viewport; "
              "the timeline paints only the visible range and, below 6 px per event, draws per-pixel "
              "aggregates from a precomputed pyramid instead of single events."]
    print("\n".join(lines))
    if args.write:
        write_docs(lines)
        print(f"\nwritten to {ROOT / 'docs' / 'performance.md'}", file=sys.stderr)
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
