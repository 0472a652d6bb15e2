"""Whole processes: ``replayer check --format json`` on a 100,000-line log against python-chess
reading and validating 100,000 PGN moves, run in pairs (A B A B …); the median of the ratios.

    python bench/process.py [--lines 100000] [--pairs 7] [--game ygo|dm] [--against DIR]

A process pays for everything a user waits for: start-up, imports, the grammar cache, reading,
the replay, JSON output. Each side's throughput is lines (moves) per second of wall time, and of
CPU time (user + system), which a loaded machine disturbs much less.

Each tree has a cache folder of its own (``XDG_CACHE_HOME``, temporary), warmed by the first run.
Both sides run with their bytecode cached, as an installed package has it: the processes write it
to a temporary folder of their own (``PYTHONPYCACHEPREFIX``) in the warm-up run, even where
``PYTHONDONTWRITEBYTECODE`` is set (without it every run of ours compiled replayer's sources
again, ~0.15 s, while python-chess's came from its installation's ``__pycache__``).

``--against DIR`` also runs the replayer of another checkout (``PYTHONPATH=DIR``) in each round,
right after ours: the two versions compared in the same run (A B A B).
Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from logs import dm_log, ygo_log  # noqa: E402
from parse import pgn_games  # noqa: E402

CHESS = """
import sys, chess.pgn
moves = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        moves += sum(1 for _ in game.mainline_moves())
print(moves)
"""


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], cpu: list[float] | None = None, env: dict[str, str] | None = None) -> float:
    """The wall time of one process; its CPU time (user + system) is appended to ``cpu``.

    It runs in the log's folder: ``python -m`` puts the working folder first on the path, which
    would import the checkout the benchmark was started in whatever PYTHONPATH says."""
    c = _cpu()
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env,
                   cwd=Path(cmd[-1]).parent)
    wall = time.perf_counter() - t
    if cpu is not None:
        cpu.append(_cpu() - c)
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--game", choices=["ygo", "dm"], default="ygo")
    ap.add_argument("--against", metavar="DIR", help="also run the replayer of this checkout, paired")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent), env.get("PYTHONPATH")]))
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        # each tree its own cache folder (the grammar's tables, the kept shapes and catalogs): two
        # trees sharing one would replace each other's kept shapes at every run
        env["XDG_CACHE_HOME"] = str(Path(tmp) / "cache-ours")
        other_env = (dict(env, PYTHONPATH=str(Path(args.against).resolve()), XDG_CACHE_HOME=str(Path(tmp) / "cache-other"))
                     if args.against else None)
        log = Path(tmp) / "big.duel"
        text = (ygo_log if args.game == "ygo" else dm_log)(args.lines)
        log.write_text(text, encoding="utf-8")
        lines = sum(1 for line in text.splitlines() if line.strip())
        pgn = Path(tmp) / "games.pgn"
        pgn_text, moves = pgn_games(lines)
        pgn.write_text(pgn_text, encoding="utf-8")
        ours_cmd = [sys.executable, "-m", "replayer", "check", "--format", "json", str(log)]
        chess_cmd = [sys.executable, "-c", CHESS, str(pgn)]
        # warm: the bytecode, the grammar cache, the OS file cache
        run(ours_cmd, env=env), run(chess_cmd, env=env)
        if other_env:
            run(ours_cmd, env=other_env)
        ratios, ours_t, chess_t, ours_cpu, chess_cpu, other_t, other_cpu = [], [], [], [], [], [], []
        for _ in range(args.pairs):
            a = run(ours_cmd, ours_cpu, env)
            b = run(chess_cmd, chess_cpu, env)
            if other_env:
                other_t.append(run(ours_cmd, other_cpu, other_env))
            ours_t.append(a)
            chess_t.append(b)
            ratios.append((lines / a) / (moves / b))
        cpu_ratios = [(lines / a) / (moves / b) for a, b in zip(ours_cpu, chess_cpu)]
        print(f"replayer check --format json: {lines:,} lines, median {statistics.median(ours_t):.2f} s "
              f"= {lines / statistics.median(ours_t):,.0f} lines/s")
        print(f"python-chess read+validate  : {moves:,} moves, median {statistics.median(chess_t):.2f} s "
              f"= {moves / statistics.median(chess_t):,.0f} moves/s")
        print(f"ratio (median of {args.pairs} pairs): {statistics.median(ratios):.2f}x  "
              f"(all: {', '.join(f'{r:.2f}' for r in ratios)}; target >= 3.0x in every pair)")
        # on a loaded machine wall time waits for other processes; CPU time mostly does not
        print(f"CPU time: ours median {statistics.median(ours_cpu):.2f} s, python-chess "
              f"{statistics.median(chess_cpu):.2f} s; ratio (median of pairs) {statistics.median(cpu_ratios):.2f}x")
        if other_env:
            print(f"{args.against}: median {statistics.median(other_t):.2f} s wall, "
                  f"{statistics.median(other_cpu):.2f} s CPU; against python-chess (CPU, median of pairs) "
                  f"{statistics.median((lines / a) / (moves / b) for a, b in zip(other_cpu, chess_cpu)):.2f}x; "
                  f"ours / it (CPU) {statistics.median(o / a for a, o in zip(ours_cpu, other_cpu)):.2f}x faster")


if __name__ == "__main__":
    main()
