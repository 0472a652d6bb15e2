"""Yu-Gi-Oh!'s recording loop (``YgoReplay._record``: the open timing, step and phase kept in its
locals) against the same events recorded in pieces, and against the recorders one event at a time."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replayer import check_text
from replayer.states import KINDS, Replay

ROOT = Path(__file__).resolve().parents[3]
LOGS = sorted(p for p in (ROOT / "samples").rglob("*.duel") if '[Game "ygo"]' in p.read_text(encoding="utf-8"))

#: a log with what the loop inlines in every order: timings and steps with no phase written (an
#: inferred Battle Phase), a phase after a timing, a turn inside a Damage Step, chains
MIXED = """[Game "ygo"]
turn 1 A
timing ds-start
A: activate "Honest" from hand
resolve
step battle
timing calc
phase main2
step damage
turn 2 B
timing before-calc
A: attack "Dark Magician" -> "Mystical Elf"
step damage
timing calc
end battle phase
phase battle
phase battle
step end
phase end
"""


def _recording(r: Replay) -> tuple:
    return (tuple(tuple(r.segments(k)) for k in KINDS), tuple(r.changes()[0]), tuple(r.changes()[1]),
            tuple((c.links, c.resolves, c.order) for c in r.chains), dict(r.link_of), dict(r.resolve_of))


def _in_pieces(text: str, cuts: list[int]) -> tuple:
    """The recording made by the loop called for the events between ``cuts`` (its locals written
    back to the replay and read again at each call, as a restart and the other recorders need)."""
    r = check_text(text).states
    recorders: dict = {}
    n = len(r.events)
    for a, b in zip([0] + cuts, cuts + [n]):
        r._record(a, b, recorders)
    for k in ("timing", "step", "substep", "phase", "turn"):
        r.close(k, n)
    r._recorded = True
    return _recording(r)


def _one_by_one(text: str) -> tuple:
    """The recording with every event through ``Replay._record`` of one event (the generic loop,
    which the Yu-Gi-Oh! loop's inlined lines must agree with where the game has recorders)."""
    return _in_pieces(text, list(range(1, len(check_text(text).match.events))))


@pytest.mark.parametrize("path", LOGS + ["MIXED"], ids=lambda p: p if isinstance(p, str) else p.name)
def test_the_loop_in_pieces_records_what_it_records_in_one_pass(path):
    text = MIXED if path == "MIXED" else path.read_text(encoding="utf-8")
    whole = _recording(check_text(text).states.record_all())
    n = len(check_text(text).match.events)
    rnd = random.Random(n)
    for _ in range(3):
        cuts = sorted(set(rnd.randrange(1, n) for _ in range(min(5, n - 1)))) if n > 1 else []
        assert _in_pieces(text, cuts) == whole
    assert _one_by_one(text) == whole


def test_the_mixed_log_opens_an_inferred_battle_phase_and_closes_the_open_segments_at_a_phase():
    r = check_text(MIXED).states.record_all()
    phases = [(s.name, s.label, s.start, s.end) for s in r.phases]
    assert phases[0][1].endswith("(inferred)") and phases[0][2] == 1  # (the timing at event 1 opened it)
    timings = r.timings
    assert [s.end for s in timings][:2] == [4, 6]  # (the step at 4 ended the first; the phase at 6 the second)
    assert r.position(2).phase == "battle" and r.position(2).timing == "ds-start"
