"""The states the one replay records, read as the window reads them (``replayer.states``)."""

from __future__ import annotations

from replayer import check_text


def test_an_atk_line_whose_card_carries_stats_sets_the_new_atk():
    # found by the fuzz harness: the card's written stats and the line's change both named `atk`
    r = check_text('[Game "ygo"]\nturn 1 A\nA: normal summon "X" 1000/1000\nA: atk "X" 1000/1000 +500\n'
                   'A: atk "X" 1200/1000 3000\n')
    states = r.states
    (after_relative,) = states.state_at(2).field["A"]
    (after_absolute,) = states.state_at(3).field["A"]
    assert (after_relative.atk, after_relative.def_) == (1500, 1000)
    assert (after_absolute.atk, after_absolute.def_) == (3000, 1000)
