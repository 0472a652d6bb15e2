"""Reading speed: replayer's reader against a bare lark LALR parse and against python-chess.

    python bench/parse.py [--events 100000] [--replayer DIR]

Prints, from one run: events/s read into events (both games), the same lines through a bare lark
LALR parse (no tree transform, no cache: the floor's floor), and python-chess reading PGN games
with the same number of moves; each by wall time and by CPU time (``time.process_time``: on a
loaded machine wall time mostly measures the neighbours). ``--replayer DIR`` reads with the
replayer of another checkout instead of this one's, also one from before ``replayer/lines.py``,
so that two versions can be compared with the same script (run them in turn: A B A B).
Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
_CHECKOUT = sys.argv[sys.argv.index("--replayer") + 1] if "--replayer" in sys.argv[:-1] else None
sys.path.insert(0, str(Path(_CHECKOUT or Path(__file__).resolve().parent.parent).resolve()))

from logs import dm_log, ygo_log  # noqa: E402

from replayer import check, games, reader  # noqa: E402
from replayer.grammar import parser  # noqa: E402

try:
    from replayer import lines  # noqa: E402
except ImportError:  # a replayer from before the split: the line reader was in reader.py
    lines = reader

#: "wall" or "cpu": which clock the figures are printed by (both are measured)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def time_reader(text: str) -> tuple[dict[str, float], int]:
    lines._READERS.clear()  # a cold cache, as for a fresh process
    t = {k: c() for k, c in CLOCKS.items()}
    match = check.read_text(text)
    return {k: c() - t[k] for k, c in CLOCKS.items()}, len(match.events)


def time_bare_lark(text: str, game: str) -> tuple[dict[str, float], int]:
    p = parser(games.get(game))
    bodies = [lines.split_line(l)[2] for l in text.splitlines()]
    bodies = [b for b in bodies if b]
    t = {k: c() for k, c in CLOCKS.items()}
    for b in bodies:
        p.parse(b)
    return {k: c() - t[k] for k, c in CLOCKS.items()}, len(bodies)


def pgn_games(n_moves: int, seed: int = 3) -> tuple[str, int]:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    games, total = [], 0
    while total < n_moves:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randrange(40, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            total += 1
            if total >= n_moves:
                break
        games.append(str(game))
    return "\n\n".join(games) + "\n", total


def time_chess(pgn: str) -> tuple[dict[str, float], int]:
    import chess.pgn

    stream = io.StringIO(pgn)
    moves = 0
    t = {k: c() for k, c in CLOCKS.items()}
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        moves += sum(1 for _ in game.mainline_moves())
    return {k: c() - t[k] for k, c in CLOCKS.items()}, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--replayer", metavar="DIR", help="the checkout whose replayer reads (default: this one)")
    args = ap.parse_args()
    n = args.events
    half = n // 2
    texts = {"ygo": ygo_log(half), "dm": dm_log(n - half)}
    total_events = lark_lines = 0
    total_time = {k: 0.0 for k in CLOCKS}
    lark_time = {k: 0.0 for k in CLOCKS}
    for game, text in texts.items():
        dt, events = time_reader(text)
        lt, lines_ = time_bare_lark(text, game)
        print(f"{game}: {events:,} events read in {dt['wall']:.3f} s ({dt['cpu']:.3f} s CPU) = "
              f"{events / dt['wall']:,.0f} events/s ({events / dt['cpu']:,.0f} by CPU); bare lark {lines_:,} lines "
              f"in {lt['wall']:.3f} s = {lines_ / lt['wall']:,.0f} lines/s ({lines_ / lt['cpu']:,.0f} by CPU)")
        total_events += events
        lark_lines += lines_
        for k in CLOCKS:
            total_time[k] += dt[k]
            lark_time[k] += lt[k]
    pgn, moves = pgn_games(int(total_events))
    ct, cmoves = time_chess(pgn)
    for k in CLOCKS:
        ours = total_events / total_time[k]
        floor = lark_lines / lark_time[k]
        peer = cmoves / ct[k]
        print(f"[{k}] replayer reader : {ours:,.0f} events/s")
        print(f"[{k}] bare lark LALR  : {floor:,.0f} lines/s   ratio {ours / floor:.2f}x (target >= 0.8x)")
        print(f"[{k}] python-chess PGN: {peer:,.0f} moves/s   ratio {ours / peer:.2f}x (target >= 1.0x)")


if __name__ == "__main__":
    main()
