"""What the Yu-Gi-Oh! model keeps of a match: each card (zone, controller, position, battle fate,
ATK/DEF), the links of the chain being built, the battle under way.

Plain records; :mod:`replayer.games.ygo.model` changes them as it replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import events as ev
from ...replay import CardFacts

@dataclass
class Card:
    key: str
    zone: str | None = None  # hand, field, gy, banished, deck, extra
    controller: str | None = None
    face_down: bool = False
    position: str | None = None  # attack / defense
    destroyed_by_battle: bool = False
    battle_fate: str | None = None  # "sent" after a battle destruction, "pre-empted" if it left another way
    atk: int | None = None
    def_: int | None = None
    facts: CardFacts | None = None


@dataclass
class Link:
    event: ev.Activate
    key: str
    player: str | None
    props: frozenset[str]
    speed: int | None


@dataclass
class BattleState:
    attacker: str
    attacker_player: str
    target: str | None  # None: a direct attack
    target_face_down: bool
    target_position: str  # attack / defense
    line: int
    left_field: set[str] = field(default_factory=set)
    uncertain: bool = False  # an ATK/DEF change resolved that no `atk` line has stated yet
    continuous: bool = False  # a battling monster has a continuous effect (it may change the damage)
    piercing: bool = False  # the attacker inflicts piercing battle damage
    expected_damage: dict[str, int] | None = None  # player -> battle damage, once computed
    expected_destroyed: set[str] | None = None


_OTHER = {"A": "B", "B": "A"}


def other(player: str | None) -> str | None:
    return _OTHER.get(player or "")
