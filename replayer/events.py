"""Typed, immutable events: one per log line that says something happened.

Every event has a :class:`~replayer.diagnostics.Span`, the line's timecode (``"@21:05"`` or
``None``), the notes attached to it, the player (``"A"``/``"B"`` or ``None``) and, for an
activation written ``CL2 A: ...``, the chain link the log expects.
"""

from __future__ import annotations

from dataclasses import fields

from .diagnostics import Span
from .records import record

NO_SPAN = Span(0, 0)


@record
class CardRef:
    """A mention of a card: its name as written (quotes removed), copy suffix, stats, properties."""

    name: str
    copy: int | None = None
    atk: int | None = None
    def_: int | None = None
    power: int | None = None
    props: tuple[str, ...] = ()
    column: int = 0  # 1-based columns on the event's line; end_column is exclusive
    end_column: int = 0

    @property
    def label(self) -> str:
        return self.name if self.copy is None else f"{self.name}#{self.copy}"


@record(kw_only=True)
class Event:
    span: Span = NO_SPAN
    timecode: str | None = None
    notes: tuple[str, ...] = ()
    player: str | None = None
    chain_link: int | None = None

    kind = "event"

    @property
    def line(self) -> int:
        return self.span.line

    def cards(self) -> tuple[CardRef, ...]:
        """Every card the line mentions, in order."""
        names = _CARD_FIELDS.get(type(self))
        if names is None:
            names = _card_fields(type(self))
        out: list[CardRef] = []
        for name in names:
            value = getattr(self, name)
            if isinstance(value, CardRef):
                out.append(value)
            elif value:
                out.extend(value)
        return tuple(out)


_CARD_FIELDS: dict[type, tuple[str, ...]] = {}


def _card_fields(cls: type) -> tuple[str, ...]:
    names = _CARD_FIELDS[cls] = tuple(f.name for f in fields(cls) if "CardRef" in str(f.type))
    return names


def card_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields of an event class that hold cards (a card, or a tuple of them), in the
    order :meth:`Event.cards` reads them."""
    names = _CARD_FIELDS.get(cls)
    return names if names is not None else _card_fields(cls)


def names_cards(cls: type) -> bool:
    """Whether events of this class can mention cards at all."""
    names = _CARD_FIELDS.get(cls)
    return bool(names if names is not None else _card_fields(cls))


# ---- structure (both games) ---------------------------------------------------------------
@record(kw_only=True)
class Turn(Event):
    number: int
    kind = "turn"


@record(kw_only=True)
class Phase(Event):
    name: str  # draw standby main1 battle main2 end (ygo); start untap draw charge main attack end (dm)
    kind = "phase"


@record(kw_only=True)
class Step(Event):
    name: str  # start battle damage end
    kind = "step"


@record(kw_only=True)
class Timing(Event):
    name: str  # ds-start before-calc calc after-calc ds-end
    kind = "timing"


@record(kw_only=True)
class ResolveAll(Event):
    kind = "resolve"


@record(kw_only=True)
class AttackEnds(Event):
    kind = "attack-ends"


# ---- actor lines shared by both games -------------------------------------------------------
@record(kw_only=True)
class Attack(Event):
    attacker: CardRef
    target: CardRef | None  # None: a direct attack (ygo) / the player (dm)
    target_position: str = "attack"  # attack | set | defense | direct | player
    kind = "attack"


@record(kw_only=True)
class Destroy(Event):
    card: CardRef
    by_battle: bool = False
    kind = "destroy"


@record(kw_only=True)
class Move(Event):
    """A card moves: to gy / banished / hand (ygo: send, banish, return, discard; dm: return, put)."""

    card: CardRef
    to: str  # gy | banished | hand | mana | shields
    how: str  # send | banish | return | discard | put
    kind = "move"


# ---- Yu-Gi-Oh! ------------------------------------------------------------------------------
@record(kw_only=True)
class Draw(Event):
    count: int = 1
    kind = "draw"


@record(kw_only=True)
class Summon(Event):
    """ygo: normal/tribute/special/flip/... summon; dm: summon (also charge and cast, see DMAction)."""

    method: str
    card: CardRef
    from_zone: str | None = None
    kind = "summon"


@record(kw_only=True)
class SetCard(Event):
    card: CardRef
    kind = "set"


@record(kw_only=True)
class Activate(Event):
    card: CardRef
    effect: int | None = None
    flip_effect: bool = False
    trigger: bool = False
    from_zone: str | None = None
    targets: tuple[CardRef, ...] = ()
    cost: str | None = None  # discard | send | tribute
    cost_card: CardRef | None = None
    kind = "activate"


@record(kw_only=True)
class Flip(Event):
    card: CardRef
    kind = "flip"


@record(kw_only=True)
class ChangePosition(Event):
    card: CardRef
    position: str  # attack | defense
    kind = "change"


@record(kw_only=True)
class Negate(Event):
    card: CardRef
    kind = "negate"


@record(kw_only=True)
class Damage(Event):
    amount: int
    kind = "damage"


@record(kw_only=True)
class LifePoints(Event):
    value: int
    kind = "lp"


@record(kw_only=True)
class AtkChange(Event):
    card: CardRef
    value: int
    relative: bool = False
    kind = "atk"


@record(kw_only=True)
class Pass(Event):
    kind = "pass"


@record(kw_only=True)
class EndBattlePhase(Event):
    kind = "end-battle-phase"


# ---- Duel Masters ---------------------------------------------------------------------------
@record(kw_only=True)
class MainAction(Event):
    verb: str  # charge | summon | cast
    card: CardRef
    kind = "main"


@record(kw_only=True)
class Tap(Event):
    card: CardRef
    tapped: bool = True
    kind = "tap"


@record(kw_only=True)
class TriggerAbility(Event):
    card: CardRef
    kind = "trigger"


@record(kw_only=True)
class ResolveAbility(Event):
    card: CardRef
    kind = "resolve-ability"


@record(kw_only=True)
class Declare(Event):
    what: str  # ninja-strike | revolution-0 | invade | revolution-change
    card: CardRef
    kind = "declare"


@record(kw_only=True)
class Block(Event):
    card: CardRef
    guardman: bool = False
    kind = "block"


@record(kw_only=True)
class Redirect(Event):
    card: CardRef
    target: CardRef
    kind = "redirect"


@record(kw_only=True)
class Battle(Event):
    first: CardRef
    second: CardRef
    kind = "battle"


@record(kw_only=True)
class Break(Event):
    count: int
    kind = "break"


@record(kw_only=True)
class STrigger(Event):
    triggers: tuple[CardRef, ...]  # the S-Triggers used, all named at once (not ``cards``: see Event.cards())
    kind = "s-trigger"


@record(kw_only=True)
class DirectAttack(Event):
    kind = "direct-attack"


@record(kw_only=True)
class Win(Event):
    kind = "win"


@record
class Note:
    """A note: its text (without ``#``) and its line."""

    text: str
    line: int
