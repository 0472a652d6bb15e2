"""The states' recording pass (``Replay.record_all``): CPU time on long logs and on the library's corpus.

    python bench/states.py                              # this tree
    python bench/states.py --against /tmp/base --pairs 4   # paired with another tree, interleaved

Measures, in a child process of each tree (``--against``: A B, B A, …):

* ``bench/gui.py``'s 100,000-event Yu-Gi-Oh! log and ``bench/logs.py``'s 100,000-line Duel Masters
  log: ``record_all`` of a fresh replay of the checked match, ``time.process_time``, median of
  ``--repeat``; and the same with the young collections it leaves (``gc.collect(1)``) in the timed span;
* ``bench/library.py``'s corpus (``--count`` logs, its seed): each log read and checked, untimed, then
  ``states.changes()`` timed (what ``replayer import`` asks), summed over the logs; best of 2.

Prints each child's figures, then the medians and the ratio other ÷ this of each pair (> 1: this tree
is faster). Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(count: int, repeat: int, corpus: Path) -> dict:
    sys.path.insert(0, str(HERE))
    from gui import generate_log
    from logs import dm_log
    from replayer.check import check_match, read_text
    out = {}
    for name, text in (("ygo 100k", generate_log(100_000)), ("dm 100k", dm_log(100_000))):
        r = check_match(read_text(text)).states
        alone, young = [], []
        for _ in range(repeat):
            x = type(r)(r.match, r.game, r._catalog)
            gc.collect()
            t = time.process_time()
            x.record_all()
            t1 = time.process_time()
            gc.collect(1)
            alone.append(t1 - t)
            young.append(time.process_time() - t)
        out[name] = statistics.median(alone) * 1e3
        out[name + " + young collections"] = statistics.median(young) * 1e3
    texts = [p.read_text(encoding="utf-8") for p in sorted(corpus.glob("*/*.duel"))[:count]]
    best = float("inf")
    for _ in range(2):
        total = 0.0
        for text in texts:
            states = check_match(read_text(text)).states
            t = time.process_time()
            states.changes()
            total += time.process_time() - t
        best = min(best, total)
    out[f"corpus {len(texts)} logs, changes()"] = best * 1e3
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", type=Path, metavar="TREE", help="another checkout to pair with")
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--count", type=int, default=5000, help="logs of the corpus (default 5000)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.count, args.repeat, args.child)))
        return
    sys.path.insert(0, str(HERE))
    from library import make_corpus
    trees = {"this": HERE.parent, **({"other": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp)
        make_corpus(corpus, args.count)
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        runs: dict[str, list[dict]] = {k: [] for k in trees}
        for n in range(args.pairs if args.against else 1):
            order = list(trees.items()) if n % 2 == 0 else list(trees.items())[::-1]
            for label, tree in order:
                env = {**os.environ, "PYTHONPATH": str(tree)}
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(corpus),
                                       "--count", str(args.count), "--repeat", str(args.repeat)],
                                      capture_output=True, text=True, env=env, cwd=str(tree), check=True)
                r = json.loads(proc.stdout.strip().splitlines()[-1])
                runs[label].append(r)
                print(f"  {n + 1} {label:5s} " + "  ".join(f"{k}: {v:.1f} ms" for k, v in r.items()), flush=True)
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for key in runs["this"][0]:
        line = f"{key:40s} this {statistics.median(r[key] for r in runs['this']):7.1f} ms"
        if args.against:
            ratios = [o[key] / t[key] for t, o in zip(runs["this"], runs["other"])]
            line += (f"  other {statistics.median(r[key] for r in runs['other']):7.1f} ms  other ÷ this "
                     f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}–{max(ratios):.2f})")
        print(line)


if __name__ == "__main__":
    main()
