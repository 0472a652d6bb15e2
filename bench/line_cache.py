"""What the reader's line cache holds after many distinct bad lines (issue 13, point 10).

    python bench/line_cache.py [--lines 200000]

Reads one log of N distinct lines that do not parse, then prints the memory the process gained
(traced by tracemalloc, and the peak), the entries of the line cache, and the time a full
garbage collection takes with that cache alive.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replayer.games import get  # noqa: E402
from replayer.check import read_text  # noqa: E402
from replayer.reader import line_reader  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=200_000)
    args = ap.parse_args()
    line_reader(get("ygo")).parse("A: draw", 1)  # the parser is built outside the measure
    text = '[Game "ygo"]\nturn 1 A\n' + "".join(f"A: drow {i} cards\n" for i in range(args.lines))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    t = time.perf_counter()
    match = read_text(text, "bad.duel")
    read_s = time.perf_counter() - t
    findings = len(match.findings)
    del match
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    t = time.perf_counter()
    gc.collect()
    gc_s = time.perf_counter() - t
    cache = line_reader(get("ygo")).cache
    print(f"{args.lines:,} distinct bad lines: {findings:,} findings, read in {read_s:.1f} s")
    print(f"held after the read (the line cache): {(held - before) / 2**20:,.1f} MiB "
          f"in {len(cache):,} cache entries; peak {(peak - before) / 2**20:,.1f} MiB")
    print(f"a full garbage collection: {gc_s:.2f} s")


if __name__ == "__main__":
    main()
