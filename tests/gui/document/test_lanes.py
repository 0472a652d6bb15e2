"""The events' lanes and the level-of-detail pyramid's flags, against what they are defined as."""

from __future__ import annotations

from pathlib import Path

import pytest

from replayer.gui.document import F_BATTLE, F_DAMAGE, STRUCTURE, document_from_text
from replayer import games

ROOT = Path(__file__).resolve().parents[3]
LOGS = [ROOT / "samples/ygo/goat-format-feature-match.duel", ROOT / "samples/dm/spec-example.duel",
        ROOT / "samples/ygo/stardust-and-battle-fader.duel"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_lanes_and_flags_are_what_the_events_and_segments_say(path):
    doc = document_from_text(path.read_text(encoding="utf-8"))
    events = doc.events
    # a structure line is the table's even with a player (a turn line); the others their player's
    assert doc.lane == [("M" if e.kind in STRUCTURE else e.player) if e.player in ("A", "B") else "M" for e in events]
    assert any(e.kind == "turn" and e.player in ("A", "B") for e in events)
    game = games.get(doc.match.game)
    r = doc.replay
    for bit, marks in ((F_BATTLE, game.in_battle), (F_DAMAGE, game.in_damage_step)):
        want = bytearray(len(events))
        for kind in ("phase", "step", "substep", "timing"):
            for s in r.segments(kind):
                if marks(kind, s.name):
                    want[s.start:s.end] = b"\x01" * (s.end - s.start)
        assert doc.pyramid.flag_bytes[bit] == bytes(want)
