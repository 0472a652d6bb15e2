"""The long fuzz run: many grammar-made and mutated logs through the whole check (issue 13).

    python bench/fuzz.py --logs 100000 [--seed 1] [--jobs 2]

Half the logs are made from the grammar (both games, the three keyword languages, every quote
style; ``bench/fuzzing.py``), half are the samples mutated byte by byte. Each log is read,
checked, rendered as text and JSON, and its states read as the window reads them; it counts as an
exception if any of that raises, and as a miss if a line the grammar rejects has no finding.
Printed: logs, lines, exceptions, misses, the median time per line, the slowest logs per line
(and how many times the median that is), the peak memory of a worker. The figures in
docs/robustness.md come from this script.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import random
import resource
import statistics
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fuzzing import bad_lines, grammar_log, mutate  # noqa: E402

from replayer.diagnostics import render_json, render_text  # noqa: E402
from replayer.check import read_bytes  # noqa: E402
from replayer.check import check_match  # noqa: E402

LONG_LINE = 1000  # bytes
SAMPLES = [p.read_bytes() for p in sorted((ROOT / "samples").rglob("*.duel"))]


def make(seed: int) -> bytes:
    rng = random.Random(seed)
    if seed % 2:
        return grammar_log(rng).encode("utf-8")
    return mutate(rng.choice(SAMPLES), rng, SAMPLES)


def run_one(seed: int) -> tuple[int, int, float, str | None, int, int, int]:
    """(seed, lines, seconds of the check, the exception or None, lines without their finding,
    bytes, the longest line's bytes)."""
    data = make(seed)
    size, longest = len(data), max(map(len, data.split(b"\n")))
    try:
        # CPU time (a busy machine's scheduling is not the log's doing), without the garbage
        # collector's pauses (they come from the logs before: collected between logs instead)
        if seed % 100 == 0:
            gc.collect()
        gc.disable()
        t = time.process_time()
        result = check_match(read_bytes(data, f"fuzz-{seed}.duel"))
        elapsed = time.process_time() - t
        gc.enable()
        match = result.match
        render_text("fuzz.duel", result.findings, match.lines)
        render_json(result.to_dict())
        states = result.states  # the State pane rebuilds a state from the replay's checkpoints
        for i in {0, len(states) // 2, len(states) - 1} if len(states) else ():
            states.state_at(i)
    except Exception:
        return seed, data.count(b"\n") + 1, 0.0, traceback.format_exc(limit=3), 0, size, longest
    missed = 0
    if not result.unreadable:
        found = {f.span.line for f in result.findings}
        missed = sum(1 for k in bad_lines(data.decode("utf-8-sig"), match.game) if k not in found)
    return seed, max(len(match.lines), 1), elapsed, None, missed, size, longest


def _warm() -> None:
    """lark builds its lexer's scanners lazily, state by state: a first log pays for that."""
    for seed in range(500):
        check_match(read_bytes(make(-1 - seed)))


def summary(rows: list, wall: float, jobs: int, peak_kib: int, min_lines: int) -> str:
    """The figures of a run (so far)."""
    out = []
    errors = [(r[0], r[3]) for r in rows if r[3]]
    lines = sum(r[1] for r in rows)
    missed = sum(r[4] for r in rows)
    grammar = sum(1 for r in rows if r[0] % 2)
    # per line: logs of ordinary lines (a line of megabytes is one line: it is compared per byte)
    timed = [(t / n, s, n) for s, n, t, e, _, size, longest in rows
             if not e and n >= min_lines and longest <= LONG_LINE]
    per_byte = sorted((t / size, s, size) for s, n, t, e, _, size, longest in rows if not e and size >= 10_000)
    per_line = sorted(x[0] for x in timed)
    median = statistics.median(per_line) if per_line else 0.0
    out.append(f"logs: {len(rows):,} ({grammar:,} grammar-made, {len(rows) - grammar:,} mutated samples); "
               f"lines: {lines:,}; {sum(r[5] for r in rows) / 2**20:,.0f} MiB; wall time {wall:,.0f} s with "
               f"{jobs} process(es)")
    out.append(f"exceptions: {len(errors)}; bad lines without a finding: {missed}")
    if per_line:
        slow = sorted(timed, reverse=True)[:5]
        out.append(f"time per line (logs of {min_lines}+ lines under {LONG_LINE} bytes a line, {len(per_line):,} logs): "
                   f"median {median * 1e6:,.0f} µs, 99th percentile {per_line[int(len(per_line) * 0.99)] * 1e6:,.0f} µs, "
                   f"99.9th {per_line[int(len(per_line) * 0.999)] * 1e6:,.0f} µs, slowest {slow[0][0] * 1e6:,.0f} µs "
                   f"= {slow[0][0] / median:.1f}× the median")
        for t, s, n in slow:
            out.append(f"  seed {s}: {n:,} lines, {t * 1e6:,.0f} µs a line ({t / median:.1f}×)")
    if per_byte:
        mb = statistics.median(x[0] for x in per_byte)
        t, s, size = per_byte[-1]
        out.append(f"time per byte (logs of 10 KB+, {len(per_byte):,} logs, up to {max(x[2] for x in per_byte) / 2**20:,.1f} "
                   f"MiB): median {mb * 1e9:,.0f} ns, slowest {t * 1e9:,.0f} ns = {t / mb:.1f}× the median (seed {s}, "
                   f"{size / 1024:,.0f} KiB)")
    ok = [r for r in rows if not r[3]]
    if ok:
        slowest = max(ok, key=lambda r: r[2])
        out.append(f"slowest log: seed {slowest[0]}, {slowest[2]:.2f} s of CPU for {slowest[1]:,} lines, "
                   f"{slowest[5] / 2**20:,.1f} MiB")
    out.append(f"peak memory (max RSS of a {'worker' if jobs > 1 else 'process'}): {peak_kib / 1024:,.0f} MiB")
    for s, e in errors[:10]:
        out.append(f"--- seed {s}\n{e}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--min-lines", type=int, default=10,
                    help="logs shorter than this are left out of the per-line comparison (their time is "
                         "the fixed cost of a check, not of their lines)")
    ap.add_argument("--progress", metavar="FILE", help="rewrite FILE with the figures so far every 2,000 logs")
    args = ap.parse_args()
    seeds = range(args.seed * 10_000_000, args.seed * 10_000_000 + args.logs)
    start = time.perf_counter()
    rows: list = []

    def peak() -> int:
        who = resource.RUSAGE_CHILDREN if args.jobs > 1 else resource.RUSAGE_SELF
        return resource.getrusage(who).ru_maxrss

    def progress() -> None:
        if args.progress and len(rows) % 2000 == 0:
            text = summary(rows, time.perf_counter() - start, args.jobs, peak(), args.min_lines)
            Path(args.progress).write_text(text + "\n", encoding="utf-8")

    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, initializer=_warm) as pool:
            for row in pool.imap_unordered(run_one, seeds, chunksize=64):
                rows.append(row)
                progress()
        peak_kib = peak()
    else:
        _warm()
        for seed in seeds:
            rows.append(run_one(seed))
            progress()
        peak_kib = peak()
    text = summary(rows, time.perf_counter() - start, args.jobs, peak_kib, args.min_lines)
    if args.progress:
        Path(args.progress).write_text(text + "\n", encoding="utf-8")
    print(text)
    sys.exit(1 if any(r[3] for r in rows) or any(r[4] for r in rows) else 0)


if __name__ == "__main__":
    main()
