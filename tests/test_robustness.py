"""Bad input is normal input: the validators never raise, whatever order the lines come in."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replayer import check_text

ROOT = Path(__file__).resolve().parent.parent


def sample_lines(game: str) -> tuple[list[str], list[str]]:
    header, body = [], []
    for path in sorted((ROOT / "samples" / game).rglob("*.duel")):
        for line in path.read_text(encoding="utf-8").splitlines():
            (header if line.startswith("[") else body).append(line)
    return sorted(set(header)), [l for l in body if l.strip() and not l.lstrip().startswith("#")]


@pytest.mark.parametrize("game", ["ygo", "dm"])
def test_shuffled_and_mutated_logs_never_raise(game):
    header, body = sample_lines(game)
    rng = random.Random(2026)
    for round_ in range(300):
        lines = [f'[Game "{game}"]'] + rng.sample(header, k=min(3, len(header)))
        picked = rng.sample(body, k=rng.randint(1, 60))
        for i, line in enumerate(picked):
            r = rng.random()
            if r < 0.05:
                picked[i] = line[: rng.randint(0, len(line))]  # a line cut short
            elif r < 0.08:
                picked[i] = line.replace("A:", "B:") if "A:" in line else line.replace("B:", "A:")
        result = check_text("\n".join(lines + picked) + "\n", f"fuzz-{game}-{round_}.duel")
        for f in result.findings:
            assert f.span.line >= 1 and f.rule and f.message
