"""Fuzzing on every run: a few thousand logs made from the grammar and mutated byte by byte.

Both games, the three keyword languages and the four quote styles come from walking the lark
grammar itself (``bench/fuzzing.py``); hypothesis draws the seeds of its ``random.Random`` (a
failure prints the seed that makes the log again), the sample to mutate and the log's length. For each log: no exception anywhere (reader, rules, the window's replay, the text
and JSON renderings), every finding well formed, a finding on every line the grammar rejects,
and no escape sequence of the log in the output. Time is linear in the input: a log sixteen
times as long takes about sixteen times as long (a generous factor, no wall-clock limit). The
long run is ``bench/fuzz.py``; its figures are in docs/robustness.md.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replayer import RULES
from replayer.diagnostics import render_json, render_text
from replayer.check import read_bytes
from replayer.check import check_match

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from fuzzing import GAMES, bad_lines, grammar_log, mutate  # noqa: E402

SAMPLES = [p.read_bytes() for p in sorted((ROOT / "samples").rglob("*.duel"))]
FUZZ = dict(deadline=None, derandomize=True, database=None, print_blob=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_log(data: bytes) -> None:
    """Everything a log goes through, with the invariants of issue 13."""
    result = check_match(read_bytes(data, "fuzz.duel"))
    match = result.match
    n = max(len(match.lines), 1)
    for f in result.findings:
        assert f.rule in RULES and f.message, f
        assert 1 <= f.span.line <= n and f.span.column >= 1, f
    if result.unreadable:
        assert [f.rule for f in result.findings] == ["syntax.encoding"]
        return
    text = data.decode("utf-8-sig")
    lines_with_findings = {f.span.line for f in result.findings}
    missing = [k for k in bad_lines(text, match.game) if k not in lines_with_findings]
    assert not missing, [match.lines[k - 1][:200] for k in missing]
    out = render_text("fuzz.duel", result.findings, match.lines) + render_json(result.to_dict())
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    states = result.states  # the State pane rebuilds a state from the replay's checkpoints
    for i in {0, len(states) // 2, len(states) - 1} if len(states) else ():
        states.state_at(i)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=600, **FUZZ)
@given(seed=st.integers(0, 2**64 - 1), lines=st.sampled_from([1, 2, 4, 8, 12]))
def test_grammar_made_logs(game, seed, lines):
    check_log(grammar_log(random.Random(seed), game, lines=lines).encode("utf-8"))


@settings(max_examples=1000, **FUZZ)
@given(seed=st.integers(0, 2**64 - 1), sample=st.sampled_from(SAMPLES))
def test_mutated_logs(seed, sample):
    check_log(mutate(sample, random.Random(seed), SAMPLES))


def _time(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()  # CPU time: a busy machine's scheduling is no part of it
        check_match(read_bytes(text.encode("utf-8")))
        best = min(best, time.process_time() - t)
    return best


def _distinct(text: str, copies: int) -> str:
    """``copies`` of a log's body one after the other, card names and numbers made distinct (so
    that the line cache does not hide the work)."""
    head, _, body = text.partition("\n")
    out = [head]
    for k in range(copies):
        out.append(body.replace('"', f'"{k}', 1).replace(" 1", f" {k + 1}"))
    return "\n".join(out)


@pytest.mark.parametrize("game", GAMES)
def test_time_is_linear_in_the_number_of_lines(game):
    rng = random.Random(13)
    base = grammar_log(rng, game, lines=60)
    check_match(read_bytes(base.encode()))  # the parser is built outside the measure
    small, large = _time(_distinct(base, 2)), _time(_distinct(base, 32))
    assert large < 16 * 3 * small + 0.05, (small, large)  # linear: about 16; quadratic: about 256


@pytest.mark.parametrize("piece", ['"', "„", "《", "{", "#", "9", "A: ", "\u3000", '"X"#1', "{x}", "\x1b[2J"])
def test_time_is_linear_in_the_length_of_a_line(piece):
    def log(n: int) -> str:
        return '[Game "ygo"]\nturn 1 A\nA: activate "X" ' + piece * n + "  # a note at the end\nA: pass\n"

    check_match(read_bytes(log(10).encode()))
    small, large = _time(log(1_000)), _time(log(16_000))
    assert large < 16 * 3 * small + 0.05, (piece, small, large)
