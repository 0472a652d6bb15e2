"""Checking speed: parse + validate against reading alone, on the long generated logs.

    python bench/validate.py [--events 100000] [--game ygo|dm]

Prints events/s for reading alone and for reading + validating (the rules models), and their
ratio (issue target for Yu-Gi-Oh!: >= 0.9x); then the CPU time of the replay alone (the rules
model on a read match, its states not asked for) per event. Best of ``--repeat``, interleaved.
Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from logs import dm_log, ygo_log  # noqa: E402

from replayer.check import read_text, validate  # noqa: E402


def best_of(n: int, fn, clock=time.perf_counter) -> float:
    times = []
    for _ in range(n):
        t = clock()
        fn()
        times.append(clock() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--game", choices=("ygo", "dm"), help="one game only (default: both)")
    args = ap.parse_args()
    for game, make in (("ygo", ygo_log), ("dm", dm_log)):
        if args.game and game != args.game:
            continue
        text = make(args.events)
        match = read_text(text)  # warm the parser and templates, as a long session has them
        findings = validate(match)
        n = len(match.events)
        # interleaved, best of each: the machine's drift hits both alike
        read_s = both_s = replay_cpu = float("inf")
        for _ in range(args.repeat):
            read_s = min(read_s, best_of(1, lambda: read_text(text)))
            both_s = min(both_s, best_of(1, lambda: validate(read_text(text))))
            replay_cpu = min(replay_cpu, best_of(1, lambda: validate(match), time.process_time))
        print(f"{game}: {n:,} events, {len(findings):,} findings; read {n / read_s:,.0f} events/s; "
              f"read+validate {n / both_s:,.0f} events/s; ratio {read_s / both_s:.2f}x; "
              f"replay {replay_cpu * 1e6 / n:.2f} µs CPU an event ({replay_cpu:.2f} s)")


if __name__ == "__main__":
    main()
