"""The states of a replay: the State pane and the timeline's outline read them (no Qt)."""

from __future__ import annotations

import pytest

from replayer import read_text
from replayer import states as state_mod
from replayer.check import check_match
from replayer.games import get as get_game

from ..conftest import DM_LOG, YGO_LOG, line_of


def replay(match):
    """The states of the match's replay (the one pipeline's)."""
    return check_match(match).states


def at_line(r, text: str, needle: str):
    return r.state_at(r.index_of_line[line_of(text, needle)])


def test_ygo_phase_step_timing_and_battle():
    r = replay(read_text(YGO_LOG))
    s = at_line(r, YGO_LOG, 'activate "Honest"')
    assert (s.turn, s.turn_player) == (3, "A")
    assert (s.phase, s.step, s.timing) == ("battle", "damage", "before-calc")
    assert "before damage calculation" in s.where(get_game("ygo"))
    assert s.battle.attacker == "Lyla, Lightsworn Sorceress"
    assert s.battle.target == "Blue-Eyes White Dragon"
    assert [(l.number, l.player, l.card) for l in s.chain] == [(1, "A", "Honest")]
    assert "Honest" in s.hand["A"]  # activated from hand: known to have been there


def test_ygo_chain_resolves_and_atk_changes():
    r = replay(read_text(YGO_LOG))
    s = at_line(r, YGO_LOG, 'A: atk "Lyla')
    assert s.chain == ()
    assert [l.card for l in s.resolved] == ["Honest"]
    lyla = next(c for c in s.field["A"] if c.name.startswith("Lyla"))
    assert lyla.atk == 4700 and "attacking" in lyla.flags


def test_ygo_life_points_arithmetic_is_checked_and_followed():
    r = replay(read_text(YGO_LOG))
    s = at_line(r, YGO_LOG, "B: damage 1700")
    assert s.lp == {"A": 8000, "B": 6300}
    s = at_line(r, YGO_LOG, "B: lp 6400")
    assert s.lp == {"A": 8000, "B": 6400}  # the log is followed...
    assert s.arithmetic and "6300" in s.arithmetic[0]  # ...and the disagreement shown
    assert s.timecode == "@1:42" and s.timecode_own


def test_ygo_destroyed_by_battle_stays_until_sent():
    r = replay(read_text(YGO_LOG))
    s = at_line(r, YGO_LOG, "by battle")
    bewd = next(c for c in s.field["B"] if c.name.startswith("Blue-Eyes"))
    assert "destroyed by battle" in bewd.flags
    s = at_line(r, YGO_LOG, "to gy")
    assert not s.field["B"] and s.gy["B"] == 1 and s.gy_last["B"] == ("Blue-Eyes White Dragon",)
    assert s.timecode == "@1:42" and not s.timecode_own  # the last timecode before the event


def test_ygo_outline_segments_and_chains():
    r = replay(read_text(YGO_LOG))
    assert [(s.name, s.player) for s in r.turns] == [("3", "A")]
    assert [s.name for s in r.timings] == ["ds-start", "before-calc", "calc", "after-calc", "ds-end"]
    assert [s.name for s in r.steps] == ["damage", "battle"]
    calc = next(s for s in r.timings if s.name == "calc")
    assert r.events[calc.start].span.line == line_of(YGO_LOG, "timing calc")
    assert len(r.chains) == 1
    chain = r.chains[0]
    assert [r.events[i].span.line for i in chain.links] == [line_of(YGO_LOG, 'activate "Honest"')]
    assert chain.order == [1]
    # segments of one kind never overlap and are in order
    for seq in (r.turns, r.phases, r.steps, r.timings):
        for a, b in zip(seq, seq[1:]):
            assert a.end <= b.start


def test_ygo_chain_resolution_order_is_last_link_first():
    text = '[Game "ygo"]\nturn 1 A\nA: activate "X" {quick}\nB: activate "Y" {quick}\nA: activate "Z" {quick}\nresolve\n'
    r = replay(read_text(text))
    assert r.chains[0].order == [3, 2, 1]
    assert [l.number for l in r.state_at(3).chain] == [1, 2, 3]
    s = r.state_at(4)  # the resolve line
    assert s.chain == () and [l.number for l in s.resolved] == [3, 2, 1]


def test_dm_substeps_shields_and_waiting_abilities():
    r = replay(read_text(DM_LOG))
    s = at_line(r, DM_LOG, "@21:05")
    assert s.substep == "1" and s.battle.attacker == "Gatling Cyclone" and s.battle.target is None
    gatling = next(c for c in s.field["A"] if c.name == "Gatling Cyclone")
    assert gatling.tapped and gatling.power == 3000
    s = at_line(r, DM_LOG, "A: break 1")
    assert s.substep == "6B" and s.shields == {"A": 5, "B": 4}
    s = at_line(r, DM_LOG, "s-trigger")
    assert [l.card for l in s.pending] == ["Terror Pit"]
    s = at_line(r, DM_LOG, 'B: resolve "Terror Pit"')
    assert s.pending == ()
    s = at_line(r, DM_LOG, "A: break 2")
    assert s.shields == {"A": 5, "B": 2}
    s = r.state_at(r.index_of_line[line_of(DM_LOG, "A: break 2")] + 1)
    assert s.substep == "7"
    assert [seg.name for seg in r.substeps] == ["1", "6B", "7", "1", "6B", "7"]


def test_dm_turn_untaps_the_active_players_creatures():
    r = replay(read_text(DM_LOG + "turn 9 A\n"))
    s = r.state_at(len(r.events) - 1)
    bolshack = next(c for c in s.field["A"] if c.name == "Bolshack Dragon")
    assert not bolshack.tapped and s.battle is None and s.substep is None


def test_state_from_checkpoints_equals_a_full_replay(monkeypatch):
    lines = ['[Game "ygo"]', '[LP "4000"]']
    for t in range(1, 80):
        me, opp = ("A", "B") if t % 2 else ("B", "A")
        lines += [f"turn {t} {me}", "phase main1", f'{me}: normal summon "M{t}" 1000/1000',
                  f"{me}: attack \"M{t}\" -> direct", f"{opp}: damage 10", f"{me}: send \"M{t}\" to gy"]
    match = read_text("\n".join(lines) + "\n")
    monkeypatch.setattr(state_mod, "CHECKPOINT_EVERY", 64)
    chunked = replay(match)
    monkeypatch.setattr(state_mod, "CHECKPOINT_EVERY", 10**9)
    whole = replay(match)
    n = len(match.events)
    assert n > 300
    for i in (0, 63, 64, 65, 200, n - 1, 130, 5):  # out of order on purpose
        monkeypatch.setattr(state_mod, "CHECKPOINT_EVERY", 64)
        a = chunked.state_at(i)
        monkeypatch.setattr(state_mod, "CHECKPOINT_EVERY", 10**9)
        b = whole.state_at(i)
        assert a == b, i
    assert whole.state_at(n - 1).lp == {"A": 4000 - 390, "B": 4000 - 400}


def test_event_for_line_between_events():
    r = replay(read_text(YGO_LOG))
    bad = line_of(YGO_LOG, "atack")  # a line with no event
    i = r.event_for_line(bad)
    assert r.events[i].span.line < bad < r.events[i + 1].span.line
    assert r.event_for_line(1) == 0


@pytest.mark.parametrize("text", ["", '[Game "ygo"]\n', "garbage\n"])
def test_empty_or_broken_logs_replay_without_error(text):
    r = replay(read_text(text))
    s = r.state_at(0)
    assert s.index == -1 or s.index == 0


def test_spells_and_traps_leave_the_field_once_their_chain_resolves():
    text = ('[Game "ygo"]\nturn 1 A\nA: set "Trap Hole" {normal-trap}\nA: set "Swords" {continuous-trap}\n'
            'B: activate "Quick" {quick-play}\nA: activate "Trap Hole" {normal-trap}\n'
            'A: activate "Swords" {continuous-trap}\nresolve\n'
            'B: activate "Kuriboh" {quick} from hand\nresolve\n')
    r = replay(read_text(text))
    before = r.state_at(5)  # the chain is built
    assert {c.name for c in before.field["A"]} == {"Trap Hole", "Swords"}
    after = r.state_at(6)  # resolve
    assert {c.name for c in after.field["A"]} == {"Swords"}
    assert after.gy == {"A": 1, "B": 1} and not after.field["B"]
    assert r.state_at(7).hand["B"] == ("Kuriboh",)
    assert r.state_at(8).hand["B"] == ()
