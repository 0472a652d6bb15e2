"""What the log tells at each event: the replay behind the timeline and the State pane.

Pure Python (no Qt), and independent of the validators: it reads the events of a
:class:`~replayer.reader.Match` once and keeps

* the **outline** the timeline draws: turn segments, phases, Battle Phase steps and Damage Step
  timings (Yu-Gi-Oh!) or attack sub-steps (Duel Masters), chains with their links and the order
  they resolve in;
* the **state** after any event, on demand: turn and turn player, phase/step/timing or sub-step,
  Life Points or shields (from the log's ``damage``/``lp``/``break`` lines, with the arithmetic
  checked), the chain, the current battle, and the cards each player has on the field (battle
  zone) as far as the log tells.

>>> from replayer import read_text
>>> r = replay(read_text('[Game "ygo"]\\nturn 1 A\\nB: damage 500\\nB: lp 7500\\n'))
>>> r.state_at(2).lp
{'A': 8000, 'B': 7500}

States are rebuilt from checkpoints (one every :data:`CHECKPOINT_EVERY` events), so asking for
the state at event 99,999 of a long log replays at most that many events, not the whole log.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from threading import RLock
from typing import Callable, Iterable, NamedTuple, Sequence

from .. import events as ev
from ..games import get as get_game
from ..numbers import whole_number
from ..reader import Match

CHECKPOINT_EVERY = 256

PHASE_NAMES = {
    "draw": "Draw Phase", "standby": "Standby Phase", "main1": "Main Phase 1", "battle": "Battle Phase",
    "main2": "Main Phase 2", "end": "End Phase", "start": "Start Phase", "untap": "Untap Step",
    "charge": "Charge Step", "mana": "Charge Step", "main": "Main Step", "attack": "Attack Step",
}
DM_PHASE_NAMES = {"draw": "Draw Step", "end": "End Step", "battle": "Attack Step", "start": "Start of Turn"}
STEP_NAMES = {"start": "Start Step", "battle": "Battle Step", "damage": "Damage Step", "end": "End Step"}
TIMING_NAMES = {
    "ds-start": "start of the Damage Step", "before-calc": "before damage calculation",
    "calc": "damage calculation", "after-calc": "after damage calculation",
    "ds-end": "end of the Damage Step",
}
#: short labels for the timeline bands
PHASE_SHORT = {"draw": "Draw", "standby": "Standby", "main1": "Main 1", "battle": "Battle Phase",
               "main2": "Main 2", "end": "End", "start": "Start", "untap": "Untap", "charge": "Charge",
               "mana": "Charge", "main": "Main", "attack": "Attack"}
STEP_SHORT = {"start": "Start", "battle": "Battle Step", "damage": "Damage Step", "end": "End"}
TIMING_SHORT = {"ds-start": "DS start", "before-calc": "before calc", "calc": "calc",
                "after-calc": "after calc", "ds-end": "DS end"}
SUBSTEPS = {
    "1": "1 declaration", "2": "2 continuous abilities", "3": "3 attack triggers",
    "4": "4 block / redirect", "5": "5 block triggers", "6A": "6A battle", "6B": "6B shield break",
    "6C": "6C direct attack", "7": "7 end of the attack",
}
SUBSTEP_ORDER = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6A": 6, "6B": 6, "6C": 6, "7": 7}


def other(player: str | None) -> str | None:
    return {"A": "B", "B": "A"}.get(player or "")


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


# ---- the outline -------------------------------------------------------------------------------
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


# ---- the state ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
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

    def describe(self, game: str) -> str:
        bits: list[str] = []
        if game == "dm":
            if self.power is not None:
                bits.append(f"power {self.power}")
            bits.append("tapped" if self.tapped else "untapped")
        else:
            if self.atk is not None or self.def_ is not None:
                a = "?" if self.atk is None else str(self.atk)
                d = "?" if self.def_ is None else str(self.def_)
                bits.append(f"ATK {a} / DEF {d}")
            if self.position:
                bits.append({"set": "face-down", "defense": "defense position",
                             "attack": "attack position"}.get(self.position, self.position))
        bits.extend(self.flags)
        return " · ".join(bits)


@dataclass(frozen=True, slots=True)
class Link:
    number: int
    player: str | None
    card: str
    detail: str = ""  # "from hand", "effect 2", "negated"
    index: int = -1  # the event


@dataclass(frozen=True, slots=True)
class BattleState:
    attacker: str
    attacker_player: str | None
    target: str | None  # None: a direct attack / the player
    target_player: str | None
    target_position: str = "attack"
    blocker: str | None = None
    ended: bool = False


@dataclass(frozen=True)
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

    def where(self) -> str:
        """Phase, step and timing (or sub-step) in words."""
        if self.game == "dm":
            parts = [DM_PHASE_NAMES.get(self.phase or "", PHASE_NAMES.get(self.phase or "", self.phase or ""))] \
                if self.phase else []
            if self.substep:
                parts.append("attack sub-step " + SUBSTEPS.get(self.substep, self.substep))
        else:
            parts = [PHASE_NAMES.get(self.phase, self.phase)] if self.phase else []
            if self.step:
                parts.append(STEP_NAMES.get(self.step, self.step))
            if self.timing:
                parts.append(TIMING_NAMES.get(self.timing, self.timing))
        text = " › ".join(p for p in parts if p)
        if self.inferred and text:
            text += "  (" + " and ".join(self.inferred) + " inferred)"
        return text or "—"


class _Work:
    """The mutable state while replaying; ``copy`` is cheap (records are immutable)."""

    __slots__ = ("game", "turn", "turn_player", "phase", "step", "timing", "substep", "inferred", "lp",
                 "shields", "mana", "arithmetic", "chain", "resolved", "pending", "battle", "field", "hand",
                 "gy", "gy_last", "banished", "winner", "timecode", "after_ds", "lp_expected")

    def __init__(self, game: str, header: dict[str, str]):
        self.game = game
        self.turn: int | None = None
        self.turn_player: str | None = None
        self.phase = self.step = self.timing = self.substep = None
        self.inferred: tuple[str, ...] = ()
        start_lp = _int(header.get("LP"), 8000)
        start_shields = _int(header.get("Shields"), 5)
        self.lp = {"A": start_lp, "B": start_lp} if game == "ygo" else None
        self.lp_expected = dict(self.lp) if self.lp else None
        self.shields = {"A": start_shields, "B": start_shields} if game == "dm" else None
        self.mana = {"A": 0, "B": 0} if game == "dm" else None
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

    def copy(self) -> "_Work":
        w = _Work.__new__(_Work)
        for name in _Work.__slots__:
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

    def snapshot(self, index: int, event: ev.Event | None) -> GameState:
        own = event is not None and event.timecode is not None
        return GameState(
            game=self.game, index=index, line=event.span.line if event is not None else 0,
            timecode=self.timecode, timecode_own=own, turn=self.turn, turn_player=self.turn_player,
            phase=self.phase, step=self.step, timing=self.timing, substep=self.substep,
            inferred=self.inferred, lp=dict(self.lp) if self.lp is not None else None,
            shields=dict(self.shields) if self.shields is not None else None,
            mana=dict(self.mana) if self.mana is not None else None, arithmetic=self.arithmetic,
            chain=self.chain, resolved=self.resolved, pending=self.pending, battle=self.battle,
            field={p: tuple(cards.values()) for p, cards in self.field.items()}, hand=dict(self.hand),
            gy=dict(self.gy), gy_last=dict(self.gy_last), banished=dict(self.banished), winner=self.winner,
        )


def _int(text: str | None, default: int) -> int:
    n = whole_number(text)
    return default if n is None else n


class Replay:
    """The outline of a match and its state at any event. Build it with :func:`replay`."""

    def __init__(self, match: Match):
        self.match = match
        self.game = match.game
        self.events: list[ev.Event] = match.events
        self.turns: list[Segment] = []
        self.phases: list[Segment] = []
        self.steps: list[Segment] = []  # ygo Battle Phase steps
        self.timings: list[Segment] = []  # ygo Damage Step timings
        self.substeps: list[Segment] = []  # dm attack sub-steps
        self.chains: list[Chain] = []
        #: event index -> (chain index, link number) for every link
        self.link_of: dict[int, tuple[int, int]] = {}
        #: event index -> chain index, for resolve lines
        self.resolve_of: dict[int, int] = {}
        self.lines: list[int] = [e.span.line for e in self.events]
        self.index_of_line: dict[int, int] = dict(zip(self.lines, range(len(self.lines))))
        self._checkpoints: list[_Work] = []  # state before event k * CHECKPOINT_EVERY
        self._lock = RLock()
        self._names: dict[str, str] = {}
        self._catalog = None
        try:
            from ..games import get

            self._catalog = get(self.game).catalog
        except Exception:  # the catalog is a nicety here: card identity falls back to the name
            self._catalog = None
        self._build()

    # ---- lookups --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.events)

    def event_for_line(self, line: int) -> int:
        """The event on ``line``, or the last one before it (0 if none): where a finding sits."""
        i = self.index_of_line.get(line)
        if i is not None:
            return i
        return max(bisect_right(self.lines, line) - 1, 0) if self.lines else -1

    def segments_at(self, index: int, kind: str) -> Segment | None:
        seq = {"turn": self.turns, "phase": self.phases, "step": self.steps, "timing": self.timings,
               "substep": self.substeps}[kind]
        k = _bisect_segments(seq, index)
        if k >= 0 and seq[k].start <= index < seq[k].end:
            return seq[k]
        return None

    def state_at(self, index: int) -> GameState:
        """The state after event ``index`` (``-1``: before the first event)."""
        if not self.events or index < 0:
            return _Work(self.game, self.match.header).snapshot(-1, None)
        index = min(index, len(self.events) - 1)
        k = index // CHECKPOINT_EVERY
        with self._lock:
            self._extend_checkpoints(k)
            work = self._checkpoints[k].copy()
        for i in range(k * CHECKPOINT_EVERY, index + 1):
            self._apply(work, i, self.events[i])
        return work.snapshot(index, self.events[index])

    def warm(self, stop: Callable[[], bool] | None = None) -> None:
        """Compute every checkpoint now (e.g. on a worker thread), so any state is quick."""
        last = (len(self.events) - 1) // CHECKPOINT_EVERY if self.events else 0
        k = len(self._checkpoints)
        while k <= last:
            if stop is not None and stop():
                return
            with self._lock:
                self._extend_checkpoints(k)
            k += 1

    def _extend_checkpoints(self, k: int) -> None:
        """Make sure checkpoint ``k`` (the state before event ``k * CHECKPOINT_EVERY``) exists."""
        cps = self._checkpoints
        if not cps:
            cps.append(_Work(self.game, self.match.header))
        while len(cps) <= k:
            work = cps[-1].copy()
            first = (len(cps) - 1) * CHECKPOINT_EVERY
            for i in range(first, min(first + CHECKPOINT_EVERY, len(self.events))):
                self._apply(work, i, self.events[i])
            cps.append(work)

    # ---- building ---------------------------------------------------------------------------
    def _build(self) -> None:
        """One quick pass for the outline: segments and chains (the state is built on demand)."""
        ygo = self.game == "ygo"
        open_seg: dict[str, tuple[str, str, int, str | None]] = {}
        out = {"turn": self.turns, "phase": self.phases, "step": self.steps, "timing": self.timings,
               "substep": self.substeps}

        def close(kind: str, at: int) -> None:
            item = open_seg.pop(kind, None)
            if item is not None and at > item[2]:
                out[kind].append(Segment(kind, item[0], item[1], item[2], at, item[3]))

        def close_all(kinds: tuple[str, ...], at: int) -> None:
            for k in kinds:
                if k in open_seg:
                    close(k, at)

        def open_(kind: str, name: str, label: str, at: int, player: str | None = None) -> None:
            close(kind, at)
            open_seg[kind] = (name, label, at, player)

        open_chain: Chain | None = None
        pending_links: dict[str, int] = {}  # dm: card key -> link number of the waiting ability
        sub, active, ended, attacker = None, False, False, None  # dm sub-steps
        chains = self.chains
        for i, e in enumerate(self.events):
            kind = e.kind
            if kind == "turn":
                close_all(("timing", "step", "phase", "substep"), i)
                open_("turn", str(e.number), f"Turn {e.number} · {e.player}", i, e.player)
                open_chain = None
            elif kind == "phase":
                close_all(("timing", "step", "substep"), i)
                names = PHASE_SHORT if ygo or e.name not in ("draw", "end") else {"draw": "Draw", "end": "End"}
                open_("phase", e.name, names.get(e.name, e.name), i)
            elif kind == "step":
                close_all(("timing",), i)
                open_("step", e.name, STEP_SHORT.get(e.name, e.name), i)
                if "phase" not in open_seg:
                    open_("phase", "battle", PHASE_SHORT["battle"] + " (inferred)", i)
            elif kind == "timing":
                open_("timing", e.name, TIMING_SHORT.get(e.name, e.name), i)
                if "phase" not in open_seg:
                    open_("phase", "battle", PHASE_SHORT["battle"] + " (inferred)", i)
            elif kind == "end-battle-phase":
                close("timing", i + 1)
                close("step", i + 1)
            elif kind == "attack" and ygo and "phase" not in open_seg:
                open_("phase", "battle", PHASE_SHORT["battle"] + " (inferred)", i)
            # chains
            if ygo:
                if kind == "activate":
                    if open_chain is None:
                        open_chain = Chain()
                        chains.append(open_chain)
                    open_chain.links.append(i)
                    self.link_of[i] = (len(chains) - 1, len(open_chain.links))
                elif kind == "resolve" and open_chain is not None:
                    open_chain.resolves.append(i)
                    open_chain.order = list(range(len(open_chain.links), 0, -1))
                    self.resolve_of[i] = len(chains) - 1
                    open_chain = None
                continue
            if kind in ("trigger", "s-trigger"):
                if open_chain is None:
                    open_chain = Chain()
                    chains.append(open_chain)
                    pending_links = {}
                for ref in (cards_of(e) if kind == "s-trigger" else (e.card,)):
                    open_chain.links.append(i)
                    number = len(open_chain.links)
                    self.link_of.setdefault(i, (len(chains) - 1, number))
                    pending_links.setdefault(self.key(ref), number)
            elif kind == "resolve-ability" and open_chain is not None:
                number = pending_links.pop(self.key(e.card), None)
                open_chain.resolves.append(i)
                self.resolve_of[i] = len(chains) - 1
                if number is not None:
                    open_chain.order.append(number)
                if not pending_links:
                    open_chain = None
            elif kind == "resolve" and open_chain is not None:
                open_chain.resolves.append(i)
                self.resolve_of[i] = len(chains) - 1
                open_chain.order.extend(sorted(pending_links.values()))
                pending_links = {}
                open_chain = None
            elif kind == "attack":
                open_chain = None
            # dm sub-steps
            if kind == "attack":
                attacker = e.player
            sub, active, ended = dm_substep(e, sub, active, ended)
            current = open_seg.get("substep")
            if sub is None:
                close("substep", i)
            elif current is None or current[0] != sub or kind == "attack":
                open_("substep", sub, sub, i, attacker)
        n = len(self.events)
        for k in ("timing", "step", "substep", "phase", "turn"):
            close(k, n)
        for seq in out.values():
            seq.sort(key=lambda s: s.start)

    def _words(self, ref: ev.CardRef) -> frozenset[str]:
        """The card's kind and properties: the catalog's and the log's inline ``{...}``."""
        info = self._catalog.find(ref.name) if self._catalog is not None else None
        words = frozenset(ref.props)
        if info is not None:
            words |= info.props | ({info.kind} if info.kind else frozenset())
        return words

    def key(self, ref: ev.CardRef) -> str:
        base = self._names.get(ref.name)
        if base is None:
            info = self._catalog.find(ref.name) if self._catalog is not None else None
            base = info.id.casefold() if info is not None else " ".join(ref.name.split()).casefold()
            self._names[ref.name] = base
        return base if ref.copy is None else f"{base}#{ref.copy}"

    # ---- one event ---------------------------------------------------------------------------
    def _apply(self, w: _Work, i: int, event: ev.Event) -> None:
        if event.timecode:
            w.timecode = event.timecode
        if self.game == "dm":
            active = w.battle is not None
            ended = active and w.battle.ended
            if ended and event.kind not in _END_OF_ATTACK:
                self._end_battle(w)  # the lines after `attack ends` that are not its abilities
            w.substep, _, _ = dm_substep(event, w.substep, active, ended)
        handler = getattr(self, "_on_" + event.kind.replace("-", "_"), None)
        if handler is not None:
            handler(w, i, event)

    # structure
    def _on_turn(self, w: _Work, i: int, e: ev.Turn) -> None:
        w.turn, w.turn_player = e.number, e.player
        w.phase = w.step = w.timing = w.substep = None
        w.inferred = ()
        self._end_battle(w)
        w.chain = ()
        w.pending = ()
        w.after_ds = False
        if self.game == "dm" and e.player in w.field:  # the active player's creatures untap
            w.field[e.player] = {k: replace(c, tapped=False) for k, c in w.field[e.player].items()}

    def _on_phase(self, w: _Work, i: int, e: ev.Phase) -> None:
        w.phase = e.name
        w.step = w.timing = None
        w.inferred = ()
        if e.name not in ("battle", "attack"):
            self._end_battle(w)
            w.substep = None
        w.after_ds = False

    def _on_step(self, w: _Work, i: int, e: ev.Step) -> None:
        if (w.step == "damage" and e.name != "damage") or e.name == "end":
            self._end_battle(w)  # the battle is over
        w.step = e.name
        w.timing = None
        w.inferred = tuple(x for x in w.inferred if x != "Battle Step")
        if w.phase != "battle":
            w.phase = "battle"
            w.inferred = ("Battle Phase",)

    def _on_timing(self, w: _Work, i: int, e: ev.Timing) -> None:
        w.timing = e.name
        if w.step != "damage":
            w.step = "damage"
        if w.phase != "battle":
            w.phase = "battle"
            w.inferred = ("Battle Phase",)

    def _on_resolve(self, w: _Work, i: int, e: ev.ResolveAll) -> None:
        if self.game == "dm":
            w.resolved = w.pending
            w.pending = ()
            return
        w.resolved = tuple(reversed(w.chain))
        for link in w.chain:  # what the rules say happens to the cards once the chain has resolved
            act = self.events[link.index] if 0 <= link.index < len(self.events) else None
            if not isinstance(act, ev.Activate) or link.player not in ("A", "B"):
                continue
            if self._words(act.card) & _LEAVE_AFTER_RESOLVING:
                self._remove(w, link.player, act.card)
                self._leave_hand(w, link.player, act.card)
                self._to_gy(w, link.player, act.card)
            elif act.from_zone == "hand":
                self._leave_hand(w, link.player, act.card)  # it left the hand; the log says no more
        w.chain = ()

    def _on_attack_ends(self, w: _Work, i: int, e: ev.AttackEnds) -> None:
        w.battle = _ended(w.battle)
        self._clear_battle_flags(w)

    def _on_end_battle_phase(self, w: _Work, i: int, e: ev.Event) -> None:
        self._end_battle(w)
        w.step = w.timing = None

    # cards: helpers
    def _card(self, w: _Work, player: str | None, ref: ev.CardRef, **changes) -> CardState | None:
        """Put (or keep) ``ref`` on ``player``'s field and apply ``changes``; returns the record."""
        if player not in ("A", "B"):
            return None
        key = self.key(ref)
        for p in ("A", "B"):  # a card the log placed on the other side moves (control change)
            if p != player and key in w.field[p]:
                del w.field[p][key]
        old = w.field[player].get(key)
        if old is None:
            old = CardState(name=ref.label, player=player)
            self._leave_hand(w, player, ref)
        stats = {}
        if ref.atk is not None:
            stats["atk"] = ref.atk
        if ref.def_ is not None:
            stats["def_"] = ref.def_
        if ref.power is not None:
            stats["power"] = ref.power
        for word in ref.props:
            n = get_game(self.game).numbered(word)
            if n is not None and n[0] == "power":
                stats["power"] = n[1]
        new = replace(old, **stats, **changes) if (stats or changes) else old
        w.field[player][key] = new
        return new

    def _remove(self, w: _Work, player: str | None, ref: ev.CardRef) -> CardState | None:
        key = self.key(ref)
        for p in ((player,) if player in ("A", "B") else ()) + ("A", "B"):
            if key in w.field[p]:
                return w.field[p].pop(key)
        return None

    def _leave_hand(self, w: _Work, player: str, ref: ev.CardRef) -> None:
        if ref.label in w.hand.get(player, ()):
            w.hand[player] = tuple(n for n in w.hand[player] if n != ref.label)

    def _to_gy(self, w: _Work, player: str | None, ref: ev.CardRef) -> None:
        if player not in ("A", "B"):
            return
        w.gy[player] += 1
        w.gy_last[player] = (w.gy_last[player] + (ref.label,))[-3:]

    def _end_battle(self, w: _Work) -> None:
        if w.battle is not None:
            self._clear_battle_flags(w)
            w.battle = None

    def _clear_battle_flags(self, w: _Work) -> None:
        for p in ("A", "B"):
            for key, card in list(w.field[p].items()):
                if "attacking" in card.flags or "blocking" in card.flags:
                    w.field[p][key] = replace(card, flags=tuple(f for f in card.flags
                                                                  if f not in ("attacking", "blocking")))

    def _set_flags(self, w: _Work, player: str | None, name: str, *, add: Iterable[str] = (),
                   remove: Iterable[str] = ()) -> None:
        if player not in ("A", "B"):
            return
        for key, card in w.field[player].items():
            if card.name == name:
                flags = tuple(f for f in card.flags if f not in set(remove))
                flags += tuple(f for f in add if f not in flags)
                w.field[player][key] = replace(card, flags=flags)
                return

    def _start_battle(self, w: _Work, e: ev.Attack) -> None:
        p = e.player
        attacker = self._card(w, p, e.attacker, **({"tapped": True} if self.game == "dm" else {}))
        target_player = other(p)
        target_name = None
        if e.target is not None:
            pos = {"set": "set", "defense": "defense"}.get(e.target_position)
            changes = {"position": pos} if pos and self.game == "ygo" else {}
            t = self._card(w, target_player, e.target, **changes)
            target_name = t.name if t else e.target.label
        self._end_battle(w)
        w.battle = BattleState(attacker.name if attacker else e.attacker.label, p, target_name, target_player,
                               e.target_position)
        self._set_flags(w, p, w.battle.attacker, add=("attacking",))

    # ygo actor lines
    def _on_draw(self, w: _Work, i: int, e: ev.Draw) -> None:
        pass

    def _on_summon(self, w: _Work, i: int, e: ev.Summon) -> None:
        if self.game == "dm":
            self._card(w, e.player, e.card, tapped=False, summoned_turn=w.turn)
            return
        position = "attack" if e.method != "flip" else "attack"
        self._card(w, e.player, e.card, position=position, summoned_turn=w.turn)

    def _on_set(self, w: _Work, i: int, e: ev.SetCard) -> None:
        self._card(w, e.player, e.card, position="set")

    def _on_attack(self, w: _Work, i: int, e: ev.Attack) -> None:
        if self.game == "ygo":
            inferred = list(w.inferred)
            if w.phase != "battle":
                w.phase = "battle"
                inferred = ["Battle Phase"]
            if w.step not in ("battle",):
                w.step = "battle"
                if "Battle Step" not in inferred:
                    inferred.append("Battle Step")
            w.timing = None
            w.inferred = tuple(inferred)
        else:
            if w.phase is None:
                w.phase = "attack"
        self._start_battle(w, e)

    def _on_activate(self, w: _Work, i: int, e: ev.Activate) -> None:
        p = e.player
        key = self.key(e.card)
        detail = []
        if e.effect:
            detail.append(f"effect {e.effect}")
        if e.flip_effect:
            detail.append("flip effect")
        if e.trigger:
            detail.append("trigger")
        if e.from_zone and e.from_zone != "field":
            detail.append(f"from {e.from_zone}")
        if e.targets:
            detail.append("targeting " + ", ".join(t.label for t in e.targets))
        if e.cost_card is not None:
            detail.append(f"cost: {e.cost} {e.cost_card.label}")
        on_field = p in ("A", "B") and key in w.field[p]
        if e.from_zone == "hand":
            if p in ("A", "B") and e.card.label not in w.hand[p]:
                w.hand[p] = w.hand[p] + (e.card.label,)
        elif e.from_zone in (None, "field") and p in ("A", "B"):
            if not on_field:
                self._card(w, p, e.card, position="")
        if e.cost_card is not None and p in ("A", "B"):
            if e.cost == "tribute" or self.key(e.cost_card) in w.field[p]:
                self._remove(w, p, e.cost_card)
            else:
                self._leave_hand(w, p, e.cost_card)
            self._to_gy(w, p, e.cost_card)
        number = len(w.chain) + 1
        w.chain = w.chain + (Link(number, p, e.card.label, ", ".join(detail), i),)

    def _on_flip(self, w: _Work, i: int, e: ev.Flip) -> None:
        card = w.field.get(e.player or "", {}).get(self.key(e.card))
        position = "defense" if card is not None and card.position == "set" else (card.position if card else "")
        self._card(w, e.player, e.card, position=position or "defense")

    def _on_change(self, w: _Work, i: int, e: ev.ChangePosition) -> None:
        self._card(w, e.player, e.card, position=e.position)

    def _on_negate(self, w: _Work, i: int, e: ev.Negate) -> None:
        key = self.key(e.card)
        w.chain = tuple(replace(l, detail=(l.detail + ", " if l.detail else "") + "negated")
                        if self.key(ev.CardRef(l.card)) == key and "negated" not in l.detail else l
                        for l in w.chain)
        w.resolved = tuple(replace(l, detail=(l.detail + ", " if l.detail else "") + "negated")
                           if self.key(ev.CardRef(l.card)) == key and "negated" not in l.detail else l
                           for l in w.resolved)

    def _on_destroy(self, w: _Work, i: int, e: ev.Destroy) -> None:
        if e.by_battle and self.game == "ygo":
            card = self._card(w, e.player, e.card)
            if card is not None:
                self._set_flags(w, e.player, card.name, add=("destroyed by battle",))
            return
        self._remove(w, e.player, e.card)
        self._to_gy(w, e.player, e.card)

    def _on_move(self, w: _Work, i: int, e: ev.Move) -> None:
        p = e.player
        was = self._remove(w, p, e.card)
        if was is None and p in ("A", "B"):
            self._leave_hand(w, p, e.card)
        if p not in ("A", "B"):
            return
        if e.to == "gy":
            self._to_gy(w, p, e.card)
        elif e.to == "banished":
            w.banished[p] += 1
        elif e.to == "hand":
            w.hand[p] = w.hand[p] + (e.card.label,)
        elif e.to == "mana" and w.mana is not None:
            w.mana[p] += 1
        elif e.to == "shields" and w.shields is not None:
            w.shields[p] += 1

    def _on_damage(self, w: _Work, i: int, e: ev.Damage) -> None:
        p = e.player
        if w.lp is None or p not in ("A", "B"):
            return
        w.lp[p] = max(w.lp[p] - e.amount, 0)
        w.lp_expected[p] = w.lp[p]

    def _on_lp(self, w: _Work, i: int, e: ev.LifePoints) -> None:
        p = e.player
        if w.lp is None or p not in ("A", "B"):
            return
        expected = w.lp_expected[p]
        if expected != e.value:
            w.arithmetic = (f"line {e.span.line}: {p} lp {e.value}, but the damage written gives {expected}",)
        else:
            w.arithmetic = ()
        w.lp[p] = e.value  # follow the log from here on
        w.lp_expected[p] = e.value

    def _on_atk(self, w: _Work, i: int, e: ev.AtkChange) -> None:
        p = e.player
        card = w.field.get(p or "", {}).get(self.key(e.card))
        if e.relative:
            base = card.atk if card is not None else e.card.atk
            value = None if base is None else base + e.value
        else:
            value = e.value
        self._card(w, p, e.card, atk=value)

    def _on_pass(self, w: _Work, i: int, e: ev.Event) -> None:
        pass

    # dm actor lines
    def _on_main(self, w: _Work, i: int, e: ev.MainAction) -> None:
        p = e.player
        if e.verb == "charge":
            if w.mana is not None and p in ("A", "B"):
                w.mana[p] += 1
        elif e.verb == "summon":
            self._card(w, p, e.card, tapped=False, summoned_turn=w.turn)
        elif e.verb == "cast":
            self._to_gy(w, p, e.card)

    def _on_tap(self, w: _Work, i: int, e: ev.Tap) -> None:
        self._card(w, e.player, e.card, tapped=e.tapped)

    def _on_trigger(self, w: _Work, i: int, e: ev.TriggerAbility) -> None:
        w.pending = w.pending + (Link(len(w.pending) + 1, e.player, e.card.label, "waiting", i),)

    def _on_resolve_ability(self, w: _Work, i: int, e: ev.ResolveAbility) -> None:
        key = self.key(e.card)
        for n, link in enumerate(w.pending):
            if self.key(ev.CardRef(link.card)) == key:
                w.resolved = (replace(link, detail="resolved"),)
                w.pending = w.pending[:n] + w.pending[n + 1:]
                return
        w.resolved = (Link(0, e.player, e.card.label, "resolved", i),)

    def _on_declare(self, w: _Work, i: int, e: ev.Declare) -> None:
        if e.what in ("ninja-strike", "invade", "revolution-change"):
            self._card(w, e.player, e.card, tapped=False, summoned_turn=w.turn)

    def _on_block(self, w: _Work, i: int, e: ev.Block) -> None:
        card = self._card(w, e.player, e.card, tapped=True)
        if w.battle is not None and card is not None:
            w.battle = replace(w.battle, blocker=card.name, target=card.name, target_player=e.player,
                               target_position="attack")
            self._set_flags(w, e.player, card.name, add=("blocking",))

    def _on_redirect(self, w: _Work, i: int, e: ev.Redirect) -> None:
        self._card(w, e.player, e.card, tapped=False)
        target = self._card(w, e.player, e.target)
        if w.battle is not None and target is not None:
            w.battle = replace(w.battle, target=target.name, target_player=e.player)

    def _on_battle(self, w: _Work, i: int, e: ev.Battle) -> None:
        pass

    def _on_break(self, w: _Work, i: int, e: ev.Break) -> None:
        opp = other(e.player)
        if w.shields is not None and opp in w.shields:
            w.shields[opp] = max(w.shields[opp] - e.count, 0)

    def _on_s_trigger(self, w: _Work, i: int, e: ev.STrigger) -> None:
        for ref in cards_of(e):
            w.pending = w.pending + (Link(len(w.pending) + 1, e.player, ref.label, "S-Trigger", i),)

    def _on_direct_attack(self, w: _Work, i: int, e: ev.Event) -> None:
        pass

    def _on_win(self, w: _Work, i: int, e: ev.Event) -> None:
        w.winner = e.player


#: Spell/Trap cards that go to the GY once their chain has resolved (continuous ones stay)
_LEAVE_AFTER_RESOLVING = frozenset({"normal-spell", "quick-play", "normal-trap", "counter-trap", "ritual-spell"})

#: dm lines that may still belong to sub-step 7 after `attack ends`
_END_OF_ATTACK = frozenset({"trigger", "resolve-ability", "resolve", "destroy", "move", "tap"})
_SUBSTEP_OF = {"block": "4", "redirect": "4", "battle": "6A", "break": "6B", "s-trigger": "6B",
               "direct-attack": "6C", "win": "6C", "attack-ends": "7"}


def dm_substep(e: ev.Event, sub: str | None, active: bool, ended: bool) -> tuple[str | None, bool, bool]:
    """The Duel Masters attack sub-step after ``e``: (sub-step, an attack is on, it has ended).

    Inferred from the lines (spec §5): an attack declaration is 1; triggers and declarations
    wait at 3 before blocking and at 5 after it; block/redirect 4; battle 6A; breaks and
    S-Triggers 6B; a direct attack 6C; ``attack ends`` 7, whose abilities may follow.
    """
    kind = e.kind
    if active and ended and kind not in _END_OF_ATTACK:
        sub, active, ended = None, False, False
    if kind == "turn" or (kind == "phase" and getattr(e, "name", "") not in ("battle", "attack")):
        return None, False, False
    if kind == "attack":
        return "1", True, False
    if not active or ended:
        return sub, active, ended
    if kind in ("trigger", "declare", "resolve-ability"):
        order = SUBSTEP_ORDER.get(sub or "1", 1)
        if kind == "resolve-ability":
            return sub, active, ended
        return ("3" if order <= 3 else "5" if order <= 5 else sub), active, ended
    new = _SUBSTEP_OF.get(kind)
    if new is not None:
        return new, active, kind == "attack-ends"
    return sub, active, ended


def _ended(battle: BattleState | None) -> BattleState | None:
    return replace(battle, ended=True) if battle is not None else None


def _bisect_segments(seq: Sequence[Segment], index: int) -> int:
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if seq[mid].start <= index:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def replay(match: Match) -> Replay:
    """Replay a read match: its outline now, its state at any event on demand."""
    return Replay(match)
