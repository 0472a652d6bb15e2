"""The timeline's level-of-detail pyramid: a re-check's pyramid that reuses the chunks of the one
before it gives the bins a fresh one gives."""
import random

import pytest

from replayer.gui.document import F_BATTLE, F_CHAIN, F_DAMAGE, F_NOTE, Pyramid


def _pyramid(lane: bytes, flags: dict[int, bytes], turn: bytes) -> Pyramid:
    return Pyramid(len(lane), lane, flags, turn, {"A": {}, "B": {}, "M": {}})


def _random(rng: random.Random, n: int):
    lane = bytes(rng.choice(b"ABM") for _ in range(n))
    flags = {bit: bytes(rng.random() < 0.2 for _ in range(n)) for bit in (F_BATTLE, F_DAMAGE, F_CHAIN, F_NOTE)}
    turn = bytes(rng.random() < 0.5 for _ in range(n))
    return lane, flags, turn


def _edit(rng: random.Random, lane, flags, turn):
    """Change, insert or remove a few events somewhere."""
    i = rng.randrange(len(lane))
    k = rng.choice([-3, -1, 0, 0, 1, 2])
    def cut(b: bytes, new: bytes) -> bytes:
        return b[:i] + new + b[i + max(-k, 0) + (1 if k == 0 else 0):]
    add = max(k, 0) + (1 if k == 0 else 0)
    return (cut(lane, bytes(rng.choice(b"ABM") for _ in range(add))),
            {bit: cut(d, bytes(rng.random() < 0.5 for _ in range(add))) for bit, d in flags.items()},
            cut(turn, bytes(rng.random() < 0.5 for _ in range(add))))


@pytest.mark.parametrize("seed", range(6))
def test_an_adopted_pyramid_gives_the_bins_of_a_fresh_one(seed):
    rng = random.Random(seed)
    lane, flags, turn = _random(rng, rng.randrange(300, 6000))
    old = _pyramid(lane, flags, turn)
    for size in (1, 4, 16, 64):
        old.bins(size, 0, old.nbins(size))  # every chunk computed
    reused = 0
    for _ in range(8):
        lane, flags, turn = _edit(rng, lane, flags, turn)
        new, fresh = _pyramid(lane, flags, turn), _pyramid(lane, flags, turn)
        new.adopt(old)
        for size in (1, 4, 16, 64):
            b0 = rng.randrange(new.nbins(size))
            b1 = rng.randrange(b0, new.nbins(size) + 1)
            assert new.bins(size, b0, b1) == fresh.bins(size, b0, b1)
            assert new.bins(size, 0, new.nbins(size)) == fresh.bins(size, 0, fresh.nbins(size))
        reused += sum(1 for key, hit in new._chunks.items() if old._chunks.get(key) is hit)
        old = new
    assert reused  # the edits leave chunks away from them as they were


@pytest.mark.parametrize("which", ["lane", "turn", "flag"])
def test_a_chunk_is_counted_again_when_only_one_of_its_bytes_changed(which):
    rng = random.Random(7)
    lane, flags, turn = _random(rng, 5000)
    old = _pyramid(lane, flags, turn)
    old.bins(1, 0, old.nbins(1))
    i = 3000
    if which == "lane":
        lane = lane[:i] + (b"A" if lane[i:i + 1] != b"A" else b"B") + lane[i + 1:]
    elif which == "turn":
        turn = turn[:i] + bytes([1 - turn[i]]) + turn[i + 1:]
    else:
        flags = dict(flags)
        d = flags[F_NOTE]
        flags[F_NOTE] = d[:i] + bytes([1 - d[i]]) + d[i + 1:]
    new, fresh = _pyramid(lane, flags, turn), _pyramid(lane, flags, turn)
    new.adopt(old)
    assert new.bins(1, 0, new.nbins(1)) == fresh.bins(1, 0, fresh.nbins(1))


@pytest.mark.parametrize("seed", range(4))
def test_flag_runs_are_the_flagged_bins(seed):
    """The overview's runs of flagged bins say what the bins say, bin by bin."""
    rng = random.Random(seed)
    n = rng.randrange(1, 3000)
    density = rng.choice([0.0, 0.01, 0.2, 0.9, 1.0])
    lane = bytes(rng.choice(b"ABM") for _ in range(n))
    flags = {bit: bytes(rng.random() < density for _ in range(n)) for bit in (F_BATTLE, F_DAMAGE)}
    pyr = _pyramid(lane, flags, bytes(n))
    for size in (1, 2, 8, 64, 4096):
        flagged = [b for b, f in enumerate(pyr.bins(size, 0, pyr.nbins(size)).flags) if f & F_BATTLE]
        runs = pyr.flag_runs(F_BATTLE, size)
        assert [b for b0, b1 in runs for b in range(b0, b1 + 1)] == flagged
        assert all(b0 <= b1 and (k == 0 or runs[k - 1][1] + 1 < b0) for k, (b0, b1) in enumerate(runs))
    assert pyr.flag_runs(F_CHAIN, 4) == []


def test_the_games_say_which_segments_are_in_battle_and_in_a_damage_step():
    """build_pyramid marks what the game's ``battle_segments`` / ``damage_segments`` name."""
    from dataclasses import replace

    from replayer import games
    from replayer.gui.document import build_pyramid, document_from_text

    ygo = document_from_text('[Game "ygo"]\nturn 1 A\nphase main1\nphase battle\nstep battle\nA: attack "Lyla" -> direct\n'
                             'step damage\nB: damage 1700\nstep end\nphase main2\n')
    kinds = [e.kind for e in ygo.events]
    battle, damage = ygo.pyramid.flag_bytes[F_BATTLE], ygo.pyramid.flag_bytes[F_DAMAGE]
    assert [k for k, b in zip(kinds, battle) if b] == ["phase", "step", "attack", "step", "damage", "step"]
    assert [k for k, b in zip(kinds, damage) if b] == ["step", "damage"]
    dm = document_from_text('[Game "dm"]\nturn 1 A\nphase main\nphase attack\nA: attack "Bolshack Dragon" -> player\n'
                            'A: break 1\nattack ends\nphase end\n')
    assert [e.kind for e, b in zip(dm.events, dm.pyramid.flag_bytes[F_BATTLE]) if b][:3] == ["phase", "attack", "break"]
    assert not any(dm.pyramid.flag_bytes[F_DAMAGE])
    # the flags are the game's word, not names compared outside games/
    quiet = replace(games.ALL["ygo"], battle_segments={}, damage_segments={})
    saved = games.ALL["ygo"]
    games.ALL["ygo"] = quiet
    try:
        pyr = build_pyramid(ygo)
    finally:
        games.ALL["ygo"] = saved
    assert not any(pyr.flag_bytes[F_BATTLE]) and not any(pyr.flag_bytes[F_DAMAGE])
