"""What the Duel Masters model keeps of a match: the creatures (tapped, where, since when), the
abilities waiting to resolve, the current attack with its sub-step, the battle's result.

Plain records; :mod:`replayer.games.dm.model` changes them as it replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import events as ev
from .rules import step_label
from .vocabulary import AttackStep

class Creature:
    """A creature as far as the log tells. Whether it is tapped is kept in a set of keys the model
    shares with every creature (``taps``): a turn untaps the turn player's tapped creatures without
    walking every creature ever seen, and sub-step 4 copies only the tapped ones."""

    __slots__ = ("key", "name_key", "label", "owner", "in_play", "entered", "born", "taps")

    def __init__(self, key: str, name_key: str, label: str, owner: str | None, in_play: bool = True,
                 tapped: bool = False, entered: int | None = None, *, taps: set[str] | None = None,
                 born: int = 0):
        self.key = key  # one physical card (copy suffix included)
        self.name_key = name_key  # its card, whatever the copy: where its facts are kept
        self.label = label
        self.owner = owner
        self.in_play = in_play  # in the battle zone
        self.entered = entered  # the turn (counted by `turn` lines) it entered the battle zone, if the log shows it
        self.born = born  # how many creatures the model had seen before this card's first mention
        self.taps = taps if taps is not None else set()
        if tapped:
            self.taps.add(key)

    @property
    def tapped(self) -> bool:
        return self.key in self.taps

    @tapped.setter
    def tapped(self, value: bool) -> None:
        if value:
            self.taps.add(self.key)
        else:
            self.taps.discard(self.key)

    def __repr__(self) -> str:
        return (f"Creature({self.key!r}, owner={self.owner!r}, in_play={self.in_play}, tapped={self.tapped}, "
                f"entered={self.entered})")


@dataclass
class Waiting:
    """An ability waiting to resolve."""

    id: int
    owner: str | None
    key: str
    label: str
    source: str = "ability"  # ability | cip | s-trigger spell | s-trigger creature
    batch: int | None = None  # the line of the s-trigger that brought it
    named: bool = True  # False: waiting because of an entering, s-trigger or revolution 0 line; a later
    # `trigger` line for it names it instead of adding another
    at_end: bool = False  # an "at the end of the attack" ability (triggered in sub-step 7)


@dataclass
class Deferred:
    """A possible ordering mistake: it is one if one of ``ids`` resolves in ``slot``."""

    rule: str
    event: ev.Event
    ids: set[int]
    slot: tuple
    message: str
    hint: str


@dataclass
class Breaks:
    event: ev.Break
    allowed: frozenset[int] | None  # None: the attacker's breakers are not known
    shields: int
    total: int = 0
    first: int = 0  # what the first `break` line of the attack broke (a second line is its own finding)


@dataclass
class AttackState:
    event: ev.Attack
    player: str | None
    defender: str | None
    attacker: str
    target: str | None  # as declared; None: the player
    aims_at: str | None  # after sub-step 4; None: the player
    substep: AttackStep = AttackStep.DECLARATION
    blocked: bool = False  # a sub-step 4 declaration was made
    aborted_by: str | None = None  # the creature whose leaving aborted the attack
    goes: dict[str, int] = field(default_factory=dict)  # showing name -> how many goes so far
    #: before sub-step 4's declarations: the tapped creatures, how many creatures were known, the aim
    before_batch: tuple[frozenset[str], int, str | None] | None = None
    breaks: Breaks | None = None  # this attack's shield break
    ended: bool = False  # `attack ends` was written: sub-step 7
    closed: bool = False
    blocks: int = 0  # `block with` declarations so far (one blocker blocks an attack)
    break_written: bool = False  # a `break` line was written in this attack (even one that did not count)
    nonturn_declared: ev.Event | None = None  # the non-turn player's sub-step 3 ninja strike / revolution 0
    block_abilities_resolved: ev.Event | None = None  # the blocking player's sub-step 5 ability that resolved
    slain: set[str] = field(default_factory=set)  # destroyed by a slayer after the battle (docs/rules-dm.md §12)
    battle_event: ev.Battle | None = None  # the battle of a slayer

    @property
    def aborted(self) -> bool:
        return self.aborted_by is not None

    @property
    def case(self) -> str | None:
        """The letter of sub-step 6 once the attack is there: A (battle), B (break), C (direct)."""
        return self.substep.case

    @property
    def label(self) -> str:
        return step_label(self.substep)


@dataclass
class Window:
    """The lines right after a `battle` line: the battle's result."""

    event: ev.Battle
    winners: frozenset[str]
    losers: set[str]


def other(player: str | None) -> str | None:
    return {"A": "B", "B": "A"}.get(player or "")
