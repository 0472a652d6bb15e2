"""The states of a replay (``replayer.states``), read as the window, the library and the report read them."""

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


DM_TEXT = ('[Game "dm"]\nturn 1 A\nphase attack\nA: attack "Bolshack Dragon" -> player\nB: block with "Aqua"\n'
           'battle "Bolshack Dragon" vs "Aqua"\nattack ends\nturn 2 B\nphase main\n')
YGO_TEXT = ('[Game "ygo"]\nturn 1 A\nphase battle\nA: attack "Lyla" -> direct\nstep damage\ntiming calc\n'
            'B: damage 1700\nB: lp 6300\nstep battle\nphase main2\n')


def _outline(states):
    return (states.changes(), list(states.turns), list(states.phases), list(states.steps), list(states.timings),
            list(states.substeps), [(c.links, c.resolves, c.order) for c in states.chains], dict(states.link_of),
            dict(states.resolve_of))


def test_the_states_are_the_same_whichever_is_read_first():
    """The positions and the outline are recorded the first time anything reads them: reading the
    outline, a position or a state first gives the same states."""
    for text in (DM_TEXT, YGO_TEXT):
        by_outline = _outline(check_text(text).states)
        r = check_text(text)
        r.states.state_at(3)
        assert _outline(r.states) == by_outline
        r = check_text(text)
        assert r.states.position(len(r.match.events) - 1) == by_outline[0][1][-1]
        assert _outline(r.states) == by_outline


def test_the_positions_of_the_games_enums():
    r = check_text(DM_TEXT)
    assert [s.name for s in r.states.substeps] == ["1", "4", "6A", "7"]
    assert r.states.position(3).substep.label == "4 block / redirect"
    r = check_text(YGO_TEXT)
    pos = r.states.position(6)
    assert (pos.phase.label, pos.step.label, pos.timing.label) == ("Battle Phase", "Damage Step", "damage calculation")


def test_two_threads_reading_the_states_at_once_see_the_same_states():
    """The window reads the states on a worker thread and on the GUI thread: one records them, the
    other waits for it."""
    import threading

    want = _outline(check_text(DM_TEXT).states)
    r = check_text(DM_TEXT)
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(_outline(r.states))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 4


def test_the_positions_of_a_range_are_what_positions_gives_and_the_states_follow_them():
    """``Replay._positions_of`` (what the states on demand are applied with) gives each event's
    position from the run-length changes, for any range, and a state is the one applying every
    event from the first gives."""
    import random

    turn = ('turn {t} {p}\nphase draw\nphase battle\n{p}: attack "Lyla" -> direct\nstep damage\ntiming calc\n'
            '{o}: damage 100\nstep battle\nphase main2\n{p}: draw\nphase end\n')
    text = '[Game "ygo"]\n[LP "80000"]\n' + "".join(turn.format(t=t, p="AB"[t % 2], o="BA"[t % 2])
                                                    for t in range(1, 90))
    for r in (check_text(text).states, check_text(YGO_TEXT).states, check_text('[Game "ygo"]\nA: draw\n').states):
        every = list(r.positions())
        n = len(every)
        rng = random.Random(n)
        ranges = [(0, n), (0, 0), (n, n), (max(n - 1, 0), n), (0, 1), (5, 5), (max(n - 3, 0), n + 10)]
        ranges += [tuple(sorted(rng.sample(range(n + 1), 2))) for _ in range(100)]
        for first, last in ranges:
            assert r._positions_of(first, last) == every[first:last], (first, last)
        w = r.new_work()
        for i, (e, p) in enumerate(zip(r.events, every)):
            r.apply(w, i, e, p)
            if i % 37 == 0 or i == n - 1:
                assert repr(r.state_at(i)) == repr(w.copy().snapshot(r.game.id, i, e)), i


def test_the_outline_is_made_as_it_is_read_and_is_the_list_of_its_segments():
    """``segments(kind)`` is an :class:`~replayer.states.Outline`: a segment is made the first time
    it is read (by index, slice or iteration) and is the one the recording's values give;
    ``spans(kind)`` gives their names, starts and ends without making them."""
    from replayer.states import KINDS, Outline, Segment

    text = open(__file__.replace("tests/test_states.py", "samples/ygo/goat-format-feature-match.duel"),
                encoding="utf-8").read()
    r = check_text(text).states
    for kind in KINDS:
        seq = r.segments(kind)
        assert isinstance(seq, Outline)
        flat = r._out[kind]
        expected = [Segment(kind, *flat[k:k + 5]) for k in range(0, len(flat), 5)]
        assert len(seq) == len(expected)
        if expected:
            assert seq[-1] == expected[-1] and seq[0] == expected[0] and seq[len(seq) // 2] == expected[len(seq) // 2]
            assert seq[1:3] == expected[1:3] and seq[::-1] == expected[::-1]
        fresh = Outline(kind, flat)
        one = fresh[len(fresh) // 2] if expected else None
        assert list(fresh) == expected and (not expected or list(fresh)[len(fresh) // 2] is one)  # (kept when the rest is made)
        assert list(seq) == expected and seq == expected and seq == r.segments(kind) and seq != tuple(expected)
        assert r.spans(kind) == ([s.name for s in expected], [s.start for s in expected], [s.end for s in expected])
        assert seq[0] is seq[0] if expected else True  # (made once)
        try:
            seq[len(seq)]
        except IndexError:
            pass
        else:
            raise AssertionError("an index past the end")
    assert r.turns and all(a.start < b.start for a, b in zip(r.phases, list(r.phases)[1:]))
