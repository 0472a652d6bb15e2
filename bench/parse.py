"""Reading speed: replayer's reader against a bare lark LALR parse and against python-chess.

    python bench/parse.py [--events 100000]

Prints, from one run: events/s read into events (both games), the same lines through a bare lark
LALR parse (no tree transform, no cache: the floor's floor), and python-chess reading PGN games
with the same number of moves. Not a test: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from logs import dm_log, ygo_log  # noqa: E402

from replayer import lines, reader  # noqa: E402
from replayer.grammar import parser  # noqa: E402


def time_reader(text: str) -> tuple[float, int]:
    lines._READERS.clear()  # a cold cache, as for a fresh process
    t = time.perf_counter()
    match = reader.read_text(text)
    return time.perf_counter() - t, len(match.events)


def time_bare_lark(text: str, game: str) -> tuple[float, int]:
    p = parser(game)
    bodies = [lines.split_line(l)[2] for l in text.splitlines()]
    bodies = [b for b in bodies if b]
    t = time.perf_counter()
    for b in bodies:
        p.parse(b)
    return time.perf_counter() - t, len(bodies)


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


def time_chess(pgn: str) -> tuple[float, int]:
    import chess.pgn

    stream = io.StringIO(pgn)
    moves = 0
    t = time.perf_counter()
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        moves += sum(1 for _ in game.mainline_moves())
    return time.perf_counter() - t, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()
    n = args.events
    half = n // 2
    texts = {"ygo": ygo_log(half), "dm": dm_log(n - half)}
    total_events = total_time = lark_time = lark_lines = 0.0
    for game, text in texts.items():
        dt, events = time_reader(text)
        lt, lines = time_bare_lark(text, game)
        print(f"{game}: {events:,} events read in {dt:.3f} s = {events / dt:,.0f} events/s; "
              f"bare lark {lines:,} lines in {lt:.3f} s = {lines / lt:,.0f} lines/s")
        total_events += events
        total_time += dt
        lark_time += lt
        lark_lines += lines
    ours = total_events / total_time
    floor = lark_lines / lark_time
    pgn, moves = pgn_games(int(total_events))
    ct, cmoves = time_chess(pgn)
    peer = cmoves / ct
    print(f"replayer reader : {ours:,.0f} events/s")
    print(f"bare lark LALR  : {floor:,.0f} lines/s   ratio {ours / floor:.2f}x (target >= 0.8x)")
    print(f"python-chess PGN: {peer:,.0f} moves/s   ratio {ours / peer:.2f}x (target >= 1.0x)")


if __name__ == "__main__":
    main()
