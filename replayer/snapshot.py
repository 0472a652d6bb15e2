"""The records of a replay's states: the position after an event, the outline's segments and
chains, the State pane's snapshot (:class:`GameState`) and the mutable state it is taken from.

They are plain values (named tuples, frozen dataclasses) so that a long log can keep many of them;
:mod:`replayer.states` records and rebuilds them. Nothing here knows a game by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from . import events as ev
from .numbers import whole_number
from .records import record

PLAYERS = ("A", "B")


def cards_of(event: ev.Event) -> tuple[ev.CardRef, ...]:
    """Every card an event mentions, in order (robust to fields named like methods)."""
    out: list[ev.CardRef] = []
    for name in getattr(event, "__dataclass_fields__", {}):
        value = getattr(event, name, None)
        if isinstance(value, ev.CardRef):
            out.append(value)
        elif isinstance(value, tuple) and value and isinstance(value[0], ev.CardRef):
            out.extend(value)
    return tuple(out)


# ---- the position -------------------------------------------------------------------------------
class Position(NamedTuple):
    """Where the match is after one event. Phase, step, timing and sub-step are the game's enums
    (strings: the notation's words), or a word the game has no member for, or None."""

    turn: int | None = None
    turn_player: str | None = None
    phase: str | None = None
    step: str | None = None
    timing: str | None = None
    substep: str | None = None
    inferred: tuple[str, ...] = ()  # which of phase/step were inferred, not written


START = Position()
_new = tuple.__new__  # builds a Position or a Segment without NamedTuple's keyword machinery (hot path)


# ---- the outline ----------------------------------------------------------------------------------
class Segment(NamedTuple):
    """A span of events ``[start, end)`` (indices into ``match.events``) with a label.

    (A named tuple: a long log has tens of thousands of them.)"""

    kind: str  # turn | phase | step | timing | substep
    name: str  # the canonical value: "3", "battle", "damage", "calc", "6B"
    label: str  # what the timeline writes
    start: int
    end: int
    player: str | None = None


@dataclass
class Chain:
    """A chain (ygo) or a group of waiting abilities (dm): its links and how they resolved."""

    links: list[int] = field(default_factory=list)  # event indices, link 1 first
    resolves: list[int] = field(default_factory=list)  # event indices of the resolve lines
    order: list[int] = field(default_factory=list)  # link numbers in the order they resolved

    @property
    def start(self) -> int:
        return self.links[0]

    @property
    def end(self) -> int:
        return max(self.links + self.resolves)


# ---- the state ----------------------------------------------------------------------------------
@record
class CardState:
    """One card as far as the log tells."""

    name: str
    player: str
    atk: int | None = None
    def_: int | None = None
    power: int | None = None
    position: str = ""  # attack | defense | set (ygo)
    tapped: bool = False  # dm
    summoned_turn: int | None = None
    flags: tuple[str, ...] = ()  # "destroyed by battle", "attacking", "blocking", ...

    def describe(self, game) -> str:
        """The card in words, as ``game`` (the caller's Game) describes its cards (ATK/DEF, power, tapped…)."""
        return game.states.describe_card(self)


@record
class Link:
    number: int
    player: str | None
    card: str
    detail: str = ""  # "from hand", "effect 2", "negated"
    index: int = -1  # the event


@record
class BattleState:
    attacker: str
    attacker_player: str | None
    target: str | None  # None: a direct attack / the player
    target_player: str | None
    target_position: str = "attack"
    blocker: str | None = None
    ended: bool = False


@record(slots=False)
class GameState:
    """The state after one event (an immutable snapshot)."""

    game: str
    index: int  # the event; -1 before the first
    line: int
    timecode: str | None  # the event's own timecode, or the latest before it
    timecode_own: bool
    turn: int | None
    turn_player: str | None
    phase: str | None
    step: str | None
    timing: str | None
    substep: str | None
    inferred: tuple[str, ...]  # which of phase/step were inferred, not written
    lp: dict[str, int] | None  # ygo
    shields: dict[str, int] | None  # dm
    mana: dict[str, int] | None  # dm (cards put into mana, as far as the log tells)
    arithmetic: tuple[str, ...]  # disagreements between the log's lp lines and its damage lines
    chain: tuple[Link, ...]
    resolved: tuple[Link, ...]  # the chain that resolved last, in resolution order
    pending: tuple[Link, ...]  # dm: abilities waiting to resolve
    battle: BattleState | None
    field: dict[str, tuple[CardState, ...]]  # player -> cards on the field / in the battle zone
    hand: dict[str, tuple[str, ...]]  # cards known to be in hand (revealed)
    gy: dict[str, int]  # how many cards the log put in each graveyard
    gy_last: dict[str, tuple[str, ...]]  # the latest few
    banished: dict[str, int]
    winner: str | None

    def where(self, game) -> str:
        """Phase, step and timing (or sub-step) in words, as ``game`` (the caller's Game) names them."""
        text = game.states.where_parts(self)
        if self.inferred and text:
            text += "  (" + " and ".join(self.inferred) + " inferred)"
        return text or "—"


class Work:
    """The mutable state while replaying; ``copy`` is cheap (records are immutable).

    ``pos`` is the position after the previous event while an event is applied."""

    __slots__ = ("pos", "lp", "shields", "mana", "arithmetic", "chain", "resolved", "pending", "battle", "field",
                 "hand", "gy", "gy_last", "banished", "winner", "timecode", "after_ds", "lp_expected")

    def __init__(self, lp: int | None = None, shields: int | None = None):
        self.pos = START
        self.lp = {"A": lp, "B": lp} if lp is not None else None
        self.lp_expected = dict(self.lp) if self.lp else None
        self.shields = {"A": shields, "B": shields} if shields is not None else None
        self.mana = {"A": 0, "B": 0} if shields is not None else None
        self.arithmetic: tuple[str, ...] = ()
        self.chain: tuple[Link, ...] = ()
        self.resolved: tuple[Link, ...] = ()
        self.pending: tuple[Link, ...] = ()
        self.battle: BattleState | None = None
        self.field: dict[str, dict[str, CardState]] = {"A": {}, "B": {}}
        self.hand: dict[str, tuple[str, ...]] = {"A": (), "B": ()}
        self.gy = {"A": 0, "B": 0}
        self.gy_last: dict[str, tuple[str, ...]] = {"A": (), "B": ()}
        self.banished = {"A": 0, "B": 0}
        self.winner: str | None = None
        self.timecode: str | None = None
        self.after_ds = False

    def copy(self) -> "Work":
        w = Work.__new__(Work)
        for name in Work.__slots__:
            setattr(w, name, getattr(self, name))
        w.lp = dict(self.lp) if self.lp is not None else None
        w.lp_expected = dict(self.lp_expected) if self.lp_expected is not None else None
        w.shields = dict(self.shields) if self.shields is not None else None
        w.mana = dict(self.mana) if self.mana is not None else None
        w.field = {p: dict(cards) for p, cards in self.field.items()}
        w.hand = dict(self.hand)
        w.gy = dict(self.gy)
        w.gy_last = dict(self.gy_last)
        w.banished = dict(self.banished)
        return w

    def snapshot(self, game: str, index: int, event: ev.Event | None) -> GameState:
        own = event is not None and event.timecode is not None
        p = self.pos
        return GameState(
            game=game, index=index, line=event.span.line if event is not None else 0,
            timecode=self.timecode, timecode_own=own, turn=p.turn, turn_player=p.turn_player,
            phase=p.phase, step=p.step, timing=p.timing, substep=p.substep,
            inferred=p.inferred, lp=dict(self.lp) if self.lp is not None else None,
            shields=dict(self.shields) if self.shields is not None else None,
            mana=dict(self.mana) if self.mana is not None else None, arithmetic=self.arithmetic,
            chain=self.chain, resolved=self.resolved, pending=self.pending, battle=self.battle,
            field={p: tuple(cards.values()) for p, cards in self.field.items()}, hand=dict(self.hand),
            gy=dict(self.gy), gy_last=dict(self.gy_last), banished=dict(self.banished), winner=self.winner,
        )


def header_int(text: str | None, default: int) -> int:
    n = whole_number(text)
    return default if n is None else n


def other(player: str | None) -> str | None:
    """The opponent of ``A`` or ``B`` (None for anything else)."""
    return _OTHER.get(player or "")


_OTHER = {"A": "B", "B": "A"}


def ended(battle: BattleState | None) -> BattleState | None:
    return replace(battle, ended=True) if battle is not None else None
