"""The fixed cost of ``replayer check``: a whole process on a short log, paired against another tree.

    python bench/startup.py [--log FILE] [--pairs 15] [--against /path/to/other/checkout] [--cold]

Each pair runs ``python -m replayer check LOG`` once with this tree and once with the other (when
``--against`` is given; they alternate which goes first), each in a fresh process, and measures the
process's CPU time (user + system, from ``os.wait4``) and wall time. The medians and the median of
the pairs' ratios are printed; so is the floor, ``python -c pass``. Each tree has a cache folder
of its own (``XDG_CACHE_HOME``, a temporary one: a user has one installation, and two trees
sharing one folder would replace each other's kept shapes at every run): the grammar's tables
and, by default, the kept line shapes and catalogs are warm, as they are on a user's machine from
the second run on. ``--cold``
removes the kept shapes and catalogs before every run (the grammar's tables stay: building them
takes a second once per installation).

Bytecode is written (``PYTHONDONTWRITEBYTECODE`` is unset): a user's installation has it.
The default log is a 24-line sample (samples/ygo/honest-in-calc.duel).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(tree: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one process."""
    env = dict(env, PYTHONPATH=str(tree))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=tree)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall


def forget(cache: Path) -> None:
    for p in (cache / "replayer").glob("*.json"):
        p.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", default=str(HERE / "samples" / "ygo" / "honest-in-calc.duel"))
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--against", type=Path, help="another checkout of replayer, run the same way")
    ap.add_argument("--cold", action="store_true", help="no kept shapes or catalogs before each run")
    a = ap.parse_args()
    log = str(Path(a.log).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base.update(REPLAYER_CARDS_DB="", REPLAYER_LANG="en")
        trees = [("this", HERE)] + ([("against", a.against.resolve())] if a.against else [])
        caches = {name: Path(tmp) / name for name, _ in trees}
        envs = {name: dict(base, XDG_CACHE_HOME=str(caches[name])) for name, _ in trees}
        env = envs["this"]
        args = ["-m", "replayer", "check", log]
        for name, tree in trees:  # warm: bytecode, the grammar's tables, the kept shapes
            caches[name].mkdir()
            for _ in range(2):
                run(tree, args, envs[name])
        cpu: dict[str, list[float]] = {name: [] for name, _ in trees}
        wall: dict[str, list[float]] = {name: [] for name, _ in trees}
        floor: list[float] = []
        for i in range(a.pairs):
            order = trees if i % 2 == 0 else trees[::-1]
            for name, tree in order:
                if a.cold:
                    forget(caches[name])
                c, w = run(tree, args, envs[name])
                cpu[name].append(c)
                wall[name].append(w)
            floor.append(run(HERE, ["-c", "pass"], env)[0])
        print(f"replayer check {Path(log).name}: {a.pairs} runs each ({'cold' if a.cold else 'warm'} kept shapes)")
        for name, tree in trees:
            print(f"  {name:8} {tree}: CPU median {statistics.median(cpu[name]) * 1000:.0f} ms "
                  f"(min {min(cpu[name]) * 1000:.0f}), wall median {statistics.median(wall[name]) * 1000:.0f} ms")
        print(f"  python -c pass: CPU median {statistics.median(floor) * 1000:.0f} ms")
        if a.against:
            ratios = [t / o for t, o in zip(cpu["this"], cpu["against"])]
            print(f"  this / against, CPU, median of pairs: {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
