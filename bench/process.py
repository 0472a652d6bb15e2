"""Whole processes: ``replayer check --format json`` on a 100,000-line log against python-chess
reading and validating 100,000 PGN moves, run in pairs (A B A B …); the median of the ratios.

    python bench/process.py [--lines 100000] [--pairs 7] [--game ygo|dm]

A process pays for everything a user waits for: start-up, imports, the grammar cache, reading,
the replay, JSON output. Each side's throughput is lines (moves) per second of wall time.
Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
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


def run(cmd: list[str], cpu: list[float] | None = None) -> float:
    """The wall time of one process; its CPU time (user + system) is appended to ``cpu``."""
    c = _cpu()
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    if cpu is not None:
        cpu.append(_cpu() - c)
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--game", choices=["ygo", "dm"], default="ygo")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "big.duel"
        text = (ygo_log if args.game == "ygo" else dm_log)(args.lines)
        log.write_text(text, encoding="utf-8")
        lines = sum(1 for line in text.splitlines() if line.strip())
        pgn = Path(tmp) / "games.pgn"
        pgn_text, moves = pgn_games(lines)
        pgn.write_text(pgn_text, encoding="utf-8")
        ours_cmd = [sys.executable, "-m", "replayer", "check", "--format", "json", str(log)]
        chess_cmd = [sys.executable, "-c", CHESS, str(pgn)]
        run(ours_cmd), run(chess_cmd)  # warm: the grammar cache, the OS file cache
        ratios, ours_t, chess_t, ours_cpu, chess_cpu = [], [], [], [], []
        for _ in range(args.pairs):
            a = run(ours_cmd, ours_cpu)
            b = run(chess_cmd, chess_cpu)
            ours_t.append(a)
            chess_t.append(b)
            ratios.append((lines / a) / (moves / b))
        cpu_ratios = [(lines / a) / (moves / b) for a, b in zip(ours_cpu, chess_cpu)]
        print(f"replayer check --format json: {lines:,} lines, median {statistics.median(ours_t):.2f} s "
              f"= {lines / statistics.median(ours_t):,.0f} lines/s")
        print(f"python-chess read+validate  : {moves:,} moves, median {statistics.median(chess_t):.2f} s "
              f"= {moves / statistics.median(chess_t):,.0f} moves/s")
        print(f"ratio (median of {args.pairs} pairs): {statistics.median(ratios):.2f}x  "
              f"(all: {', '.join(f'{r:.2f}' for r in ratios)}; target >= 2.0x)")
        # on a loaded machine wall time waits for other processes; CPU time mostly does not
        print(f"CPU time: ours median {statistics.median(ours_cpu):.2f} s, python-chess "
              f"{statistics.median(chess_cpu):.2f} s; ratio (median of pairs) {statistics.median(cpu_ratios):.2f}x")


if __name__ == "__main__":
    main()
