"""The states of one replay: where the match is after every event, and what the log tells there.

The game's :class:`Replay` of a match's events keeps, once something first asks for them
(:meth:`Replay.record_all`: one pass over the events through the game's ``record_<EventClass>``
methods; the rules model's run does not pay for it),

* the **position** after every event — turn, turn player, phase, step, timing or sub-step, and
  which of them were inferred rather than written — recorded only where it changes (a 100,000
  event log has a few thousand positions);
* the **outline** the timeline draws: segments of turns, phases, steps, timings and sub-steps,
  and the chains with their links and the order they resolved in.

The richer **state** the State pane shows (Life Points or shields, the battle, the chain, the
cards on each side, the graveyards) is rebuilt on demand from checkpoints, one every
:data:`CHECKPOINT_EVERY` events, so that the state at event 99,999 costs at most that many
events and a long log keeps only a few hundred snapshots.

A game's subclass (``replayer/games/<id>/states.py``) says what its lines do; the phase, step,
timing and sub-step values are its own enums (``vocabulary.py``), which are strings: the words of
the notation. Nothing here knows a game by name, nor Qt or SQLite; a replay is handed the
:class:`~replayer.games.Game` of its match, and :mod:`replayer.check` (the pipeline) makes it.

>>> from replayer import check_text
>>> r = check_text('[Game "ygo"]\\nturn 1 A\\nB: damage 500\\nB: lp 7500\\n').states
>>> r.state_at(2).lp
{'A': 8000, 'B': 7500}
"""

from __future__ import annotations

import collections.abc
import gc
from bisect import bisect_right
from dataclasses import replace
from functools import cached_property, partial
from itertools import islice, repeat
from operator import gt, itemgetter
from threading import RLock
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from . import events as ev
from .restart import Restart, copy_state, restart_at
# the records, re-exported: the games' states.py and the window import them from here
from .snapshot import (PLAYERS, START, BattleState, CardState, Chain, GameState, Link, Position, Segment,  # noqa: F401
                       Work, _new, cards_of, ended, header_int, other)

if TYPE_CHECKING:
    from .catalog import Catalog
    from .games import Game
    from .reader import Match

CHECKPOINT_EVERY = 256
#: the outline's kinds of segment
KINDS = ("turn", "phase", "step", "timing", "substep")
_segment_of = partial(_new, Segment)  # (kind, name, label, start, end, player) -> a Segment
_start = itemgetter(3)  # a Segment's start


class Replay:
    """The positions, outline and states of one replay of a match.

    A game subclasses it: ``record_<EventClass>(i, event)`` methods keep the position and the
    outline (:meth:`record_all`; ``on_<kind>`` methods of the richer state run on demand). This
    base knows turns and phases only, so that a game without its own still has a timeline and a
    State pane.
    """

    #: the row of the timeline under the phases: ``"step"`` (with timings) or ``"substep"``
    step_kind = "step"
    #: the timeline has a row of Damage Step timings
    has_timings = False
    #: the State pane shows the chain (else the abilities waiting to resolve)
    shows_chain = True

    def __init__(self, match: "Match", game: "Game", catalog: "Catalog | None" = None):
        self.match = match
        #: the game of the match (the caller's: this module looks none up)
        self.game = game
        self.events: list[ev.Event] = match.events
        #: the outline, kind -> its segments flat, five values each (name, label, start, end, player),
        #: in the order they closed: no record is made while recording (the library never reads the
        #: outline); :meth:`segments` builds the kind's :class:`Segment` records the first time it is read
        self._out: dict[str, list] = {k: [] for k in KINDS}
        self._built: dict[str, list[Segment]] = {}
        self._chains: list[Chain] = []
        self._link_of: dict[int, tuple[int, int]] = {}
        self._resolve_of: dict[int, int] = {}
        #: the positions, run-length: position ``_pos[k]`` holds from event ``_pos_at[k]`` on
        self._pos_at: list[int] = []
        self._pos: list[Position] = []
        self.pos = START  # the position after the latest recorded event
        self._open: dict[str, tuple[str, str, int, str | None]] = {}  # kind -> open segment
        self._checkpoints: list[Work] = []  # state before event k * CHECKPOINT_EVERY
        self._lock = RLock()
        self._names: dict[str, str] = {}
        self._catalog = catalog
        self._appliers: dict[type, Callable | None] = {}
        self._phase_words: dict[str, tuple[str, str, bool]] = {}
        self._recorded = self._recording = False
        #: a restart of the recording for the next edit (:meth:`record_all`), and what :meth:`adopt`
        #: gave: (the restart of the replay adopted from, how many first events are the same)
        self.restart: Restart | None = None
        self._edit_of: tuple[Restart | None, int] = (None, 0)

    # ---- recording (once, when first asked) ---------------------------------------------------
    def record_all(self) -> "Replay":
        """Record the positions and the outline now (every reader of them calls this first).

        One pass over the events through the game's ``record_<EventClass>`` methods, the first time
        anything is asked: a check that only wants the findings (``replayer check``) never pays
        for it, and the window, the library and the report get the same states. A replay of an
        edited text (:meth:`adopt`) starts the pass from a restart of the replay it was adopted
        from, when that one kept a restart before the edit."""
        if self._recorded:
            return self
        with self._lock:
            if self._recorded or self._recording:
                return self  # (a recorder reading the outline while it is being recorded)
            self._recording = True
            recorders = _RECORDERS.get(type(self))
            if recorders is None:
                recorders = _RECORDERS[type(self)] = {}
            events = self.events
            kept, unchanged = self._edit_of
            self._edit_of = (None, 0)
            resume, keep = restart_at(kept, self.restart_key, self._catalog, unchanged) if unchanged > 0 \
                else (None, None)
            start = 0
            if resume is not None:
                self.load(resume)
                start = resume.index
            self.restart = resume
            collecting = gc.isenabled()
            gc.disable()  # as in the reader and the model: the records are not cycles, the collector's passes cost
            try:
                if keep is not None and start <= keep <= len(events):
                    self._record(start, keep, recorders)
                    self.restart = self.save(keep)
                    self._record(keep, len(events), recorders)
                else:
                    self._record(start, len(events), recorders)
            finally:
                if collecting:
                    gc.enable()
            n = len(events)
            for k in ("timing", "step", "substep", "phase", "turn"):
                self.close(k, n)
            self._recorded = True
        return self

    def _record(self, first: int, last: int, recorders: dict) -> None:
        """Record events ``first .. last - 1`` (``recorders``: this class's event class -> recorder, or
        None; filled here)."""
        events = self.events[first:last]
        for cls in set(map(type, events)).difference(recorders):
            recorders[cls] = self.recorder(cls)
        for i, event, record in zip(range(first, last), events, map(recorders.__getitem__, map(type, events))):
            if record is not None:
                record(self, i, event)

    # ---- restarting part-way (replayer.restart) ------------------------------------------------
    #: the recording's state: what a restart copies (a game's subclass adds its own)
    RECORDING = ("_out", "_chains", "_link_of", "_resolve_of", "_pos_at", "_pos", "pos", "_open")

    @property
    def restart_key(self) -> tuple:
        """What the recording depends on besides the events and the card data."""
        return type(self), self.match.rules, tuple(self.match.header.items())

    def save(self, index: int) -> Restart:
        """The recording's state before event ``index`` (it is there now) as a restart."""
        d = vars(self)
        return Restart(index, self.restart_key, self._catalog, copy_state({k: d[k] for k in self.RECORDING}))

    def load(self, restart: Restart) -> None:
        """Take a copy of ``restart``'s recording state (the restart stays as it is, for the next edit)."""
        self.__dict__.update(copy_state(restart.state))

    @classmethod
    def recorder(cls, event_cls: type) -> "Callable[[Replay, int, ev.Event], None] | None":
        """What to call, with the replay, for each event of class ``event_cls`` while recording
        (None: nothing); asked once a process for each class of replay and of event."""
        return getattr(cls, "record_" + event_cls.__name__, None)

    def move(self, i: int, pos: Position) -> None:
        """The position after event ``i`` is ``pos``."""
        if pos != self.pos:
            at = self._pos_at
            if at and at[-1] == i:
                self._pos[-1] = pos
            else:
                at.append(i)
                self._pos.append(pos)
            self.pos = pos

    def place(self, i: int, turn: int | None, turn_player: str | None, phase: str | None, step: str | None,
              timing: str | None, substep: str | None, inferred: tuple[str, ...]) -> None:
        """:meth:`move` to the position of these fields (inlined: it runs for most structure lines)."""
        pos = _new(Position, (turn, turn_player, phase, step, timing, substep, inferred))
        if pos != self.pos:
            at = self._pos_at
            if at and at[-1] == i:
                self._pos[-1] = pos
            else:
                at.append(i)
                self._pos.append(pos)
            self.pos = pos

    def close(self, kind: str, at: int) -> None:
        """The open segment of ``kind`` (if any) ends before event ``at`` (an empty one is dropped)."""
        item = self._open.pop(kind, None)
        if item is not None and at > item[2]:
            self._out[kind] += (item[0], item[1], item[2], at, item[3])

    def close_all(self, kinds: tuple[str, ...], at: int) -> None:
        opened, out = self._open, self._out
        for k in kinds:
            item = opened.pop(k, None)  # (close(), inlined: a turn line closes four kinds)
            if item is not None and at > item[2]:
                out[k] += (item[0], item[1], item[2], at, item[3])

    def open(self, kind: str, name: str, label: str, at: int, player: str | None = None) -> None:
        opened = self._open
        item = opened.get(kind)  # close the open one (as close() does, inlined: a hot path)
        if item is not None and at > item[2]:
            self._out[kind] += (item[0], item[1], item[2], at, item[3])
        opened[kind] = (name, label, at, player)

    def phase_value(self, word: str) -> str:
        """The game's member for a phase word (the word itself if it has none)."""
        return word

    def record_Turn(self, i: int, e: ev.Turn) -> None:
        self.close_all(("timing", "step", "phase", "substep"), i)
        self.open("turn", str(e.number), f"Turn {e.number} · {e.player}", i, e.player)
        self.turn_started(i, e)
        self.place(i, e.number, e.player, None, None, None, None, ())

    def turn_started(self, i: int, e: ev.Turn) -> None:
        """A turn line: what else the outline forgets."""

    def record_Phase(self, i: int, e: ev.Phase) -> None:
        opened = self._open
        if "timing" in opened or "step" in opened or "substep" in opened:
            self.close_all(("timing", "step", "substep"), i)
        hit = self._phase_words.get(e.name) or self.phase_words(e.name)
        phase = hit[0]
        item = opened.get("phase")  # (open(), inlined: a phase line is the commonest structure line)
        if item is not None and i > item[2]:
            self._out["phase"] += (item[0], item[1], item[2], i, item[3])
        opened["phase"] = (phase, hit[1], i, None)
        pos = self.pos
        new = _new(Position, (pos[0], pos[1], phase, None, None, pos[5] if hit[2] else None, ()))
        if new != pos:  # (move(), inlined)
            at = self._pos_at
            if at and at[-1] == i:
                self._pos[-1] = new
            else:
                at.append(i)
                self._pos.append(new)
            self.pos = new

    def phase_words(self, word: str) -> tuple[str, str, bool]:
        """The phase ``word`` names, its short label (for the timeline's band) and whether an attack
        goes on in it (:meth:`keeps_attack`)."""
        hit = self._phase_words.get(word)
        if hit is None:
            phase = self.phase_value(word)
            hit = self._phase_words[word] = (phase, getattr(phase, "short", phase), self.keeps_attack(phase))
        return hit

    def keeps_attack(self, phase: str) -> bool:
        """Does ``phase`` go on with an attack under way (the Battle Phase, the attack step)?"""
        return False

    # ---- lookups --------------------------------------------------------------------------------
    def segments(self, kind: str) -> "Sequence[Segment]":
        """The outline's segments of ``kind`` (``"turn"``, ``"phase"``, ``"step"``, ``"timing"``,
        ``"substep"``) in the order they start: an :class:`Outline`, whose records are made from
        the recording as they are read (the timeline's first frame reads the few on screen)."""
        self.record_all()
        built = self._built.get(kind)
        if built is None:
            flat = self._out[kind]
            starts = flat[2::5]
            if self._recorded and not any(map(gt, starts, islice(starts, 1, None))):
                built = self._built[kind] = Outline(kind, flat)
            else:  # (a part-way read by a recorder, or out of order: the records, sorted)
                it = iter(flat)
                built = list(map(_segment_of, zip(repeat(kind), it, it, it, it, it)))
                built.sort(key=_start)
                if self._recorded:
                    self._built[kind] = built
        return built

    def spans(self, kind: str) -> tuple[list, list[int], list[int]]:
        """The outline's segments of ``kind`` as three lists, their names, starts and ends, in the
        order they start: what :meth:`segments` holds, without making its records (a reader of
        these three only, as the window's level-of-detail pyramid, need not wait for them)."""
        seq = self.segments(kind)
        if isinstance(seq, Outline):
            flat = seq.flat
            return flat[0::5], flat[2::5], flat[3::5]
        return [s.name for s in seq], [s.start for s in seq], [s.end for s in seq]

    @property
    def turns(self) -> list[Segment]:
        return self.segments("turn")

    @property
    def phases(self) -> list[Segment]:
        return self.segments("phase")

    @property
    def steps(self) -> list[Segment]:
        return self.segments("step")

    @property
    def timings(self) -> list[Segment]:
        return self.segments("timing")

    @property
    def substeps(self) -> list[Segment]:
        return self.segments("substep")

    @property
    def chains(self) -> list[Chain]:
        return self.record_all()._chains

    @property
    def link_of(self) -> dict[int, tuple[int, int]]:
        """Event index -> (chain index, link number) for every link."""
        return self.record_all()._link_of

    @property
    def resolve_of(self) -> dict[int, int]:
        """Event index -> chain index, for resolve lines."""
        return self.record_all()._resolve_of

    def __len__(self) -> int:
        return len(self.events)

    @cached_property
    def lines(self) -> list[int]:
        return [e.span.line for e in self.events]

    @cached_property
    def index_of_line(self) -> dict[int, int]:
        return dict(zip(self.lines, range(len(self.lines))))

    def changes(self) -> tuple[list[int], list[Position]]:
        """The positions run-length: ``positions[k]`` holds from event ``at[k]`` until the next."""
        self.record_all()
        return self._pos_at, self._pos

    def position(self, index: int) -> Position:
        """The position after event ``index``."""
        self.record_all()
        k = bisect_right(self._pos_at, index) - 1
        return self._pos[k] if k >= 0 else START

    def positions(self) -> Iterable[Position]:
        """The position after each event, in order (one per event)."""
        self.record_all()
        at, pos = self._pos_at, self._pos
        current, k, nk = START, 0, len(at)
        nxt = at[0] if nk else -1
        for i in range(len(self.events)):
            if i == nxt:
                current = pos[k]
                k += 1
                nxt = at[k] if k < nk else -1
            yield current

    def _positions_of(self, first: int, last: int) -> list[Position]:
        """The positions after events ``first .. last - 1`` (what :meth:`positions` yields there),
        built a run at a time from the run-length changes (no list of every event's position: the
        state after an early event costs only its checkpoint's events)."""
        at, pos = self.changes()
        last = min(last, len(self.events))
        k = bisect_right(at, first) - 1  # the change holding at ``first``
        current = pos[k] if k >= 0 else START
        k += 1
        nk = len(at)
        out: list[Position] = []
        i = first
        while i < last:
            end = min(at[k], last) if k < nk else last
            out += [current] * (end - i)
            i = end
            if k < nk:
                current = pos[k]
                k += 1
        return out

    def event_for_line(self, line: int) -> int:
        """The event on ``line``, or the last one before it (0 if none): where a finding sits."""
        i = self.index_of_line.get(line)
        if i is not None:
            return i
        return max(bisect_right(self.lines, line) - 1, 0) if self.lines else -1

    def segments_at(self, index: int, kind: str) -> Segment | None:
        seq = self.segments(kind)
        k = _bisect_segments(seq, index)
        if k >= 0 and seq[k].start <= index < seq[k].end:
            return seq[k]
        return None

    def key(self, ref: ev.CardRef) -> str:
        """One physical card, whatever language or quote style names it."""
        base = self._names.get(ref.name)
        if base is None:
            info = self._catalog.find(ref.name) if self._catalog is not None else None
            base = info.id.casefold() if info is not None else " ".join(ref.name.split()).casefold()
            self._names[ref.name] = base
        return base if ref.copy is None else f"{base}#{ref.copy}"

    def words(self, ref: ev.CardRef) -> frozenset[str]:
        """The card's kind and properties: the catalog's and the log's inline ``{...}``."""
        info = self._catalog.find(ref.name) if self._catalog is not None else None
        words = frozenset(ref.props)
        if info is not None:
            words |= info.props | ({info.kind} if info.kind else frozenset())
        return words

    # ---- the state on demand --------------------------------------------------------------------
    def new_work(self) -> Work:
        return Work()

    def state_at(self, index: int) -> GameState:
        """The state after event ``index`` (``-1``: before the first event)."""
        if not self.events or index < 0:
            return self.new_work().snapshot(self.game.id, -1, None)
        index = min(index, len(self.events) - 1)
        every = CHECKPOINT_EVERY
        k = index // every
        with self._lock:
            self._extend_checkpoints(k)
            work = self._checkpoints[k].copy()
        first = k * every
        for i, position in zip(range(first, index + 1), self._positions_of(first, index + 1)):
            self.apply(work, i, self.events[i], position)
        return work.snapshot(self.game.id, index, self.events[index])

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

    def adopt(self, other: "Replay", unchanged: int) -> None:
        """This replay is of an edited text of ``other``'s match whose first ``unchanged`` events are
        ``other``'s: take ``other``'s checkpoints of the states before them (checkpoints are never
        changed once made, so the two replays can share them), and let the recording start from
        ``other``'s restart when it is before the edit (and keep one at the edit, for the next)."""
        keep = unchanged // CHECKPOINT_EVERY + 1  # checkpoint k holds the state before event k * EVERY
        with self._lock:
            if len(self._checkpoints) < keep:
                with other._lock:
                    self._checkpoints = list(other._checkpoints[:keep])
            if not self._recorded:
                self._edit_of = (other.restart, unchanged)

    def _extend_checkpoints(self, k: int) -> None:
        """Make sure checkpoint ``k`` (the state before event ``k * CHECKPOINT_EVERY``) exists."""
        cps = self._checkpoints
        every = CHECKPOINT_EVERY
        if not cps:
            cps.append(self.new_work())
        while len(cps) <= k:
            work = cps[-1].copy()
            first = (len(cps) - 1) * every
            last = min(first + every, len(self.events))
            for i, position in zip(range(first, last), self._positions_of(first, last)):
                self.apply(work, i, self.events[i], position)
            cps.append(work)

    def apply(self, w: Work, i: int, event: ev.Event, pos: Position) -> None:
        """Apply event ``i`` to the state (``w.pos`` is the previous position until it is done)."""
        if event.timecode:
            w.timecode = event.timecode
        cls = type(event)
        try:
            handler = self._appliers[cls]
        except KeyError:
            handler = self._appliers[cls] = getattr(self, "on_" + event.kind.replace("-", "_"), None)
        if handler is not None:
            handler(w, i, event)
        w.pos = pos

    # ---- words (the game's subclass says more) --------------------------------------------------
    @staticmethod
    def where_parts(state: GameState) -> str:
        """Phase, step and timing of ``state`` in words (without the "inferred" note)."""
        parts = [getattr(x, "label", x) for x in (state.phase, state.step, state.timing, state.substep) if x]
        return " › ".join(parts)

    @staticmethod
    def describe_card(card: CardState) -> str:
        return " · ".join(card.flags)

    # ---- cards: helpers for the games' handlers --------------------------------------------------
    def card(self, w: Work, player: str | None, ref: ev.CardRef, **changes: Any) -> CardState | None:
        """Put (or keep) ``ref`` on ``player``'s field and apply ``changes``; returns the record."""
        if player not in PLAYERS:
            return None
        key = self.key(ref)
        for p in PLAYERS:  # a card the log placed on the other side moves (control change)
            if p != player and key in w.field[p]:
                del w.field[p][key]
        old = w.field[player].get(key)
        if old is None:
            old = CardState(name=ref.label, player=player)
            self.leave_hand(w, player, ref)
        stats = {}
        if ref.atk is not None:
            stats["atk"] = ref.atk
        if ref.def_ is not None:
            stats["def_"] = ref.def_
        if ref.power is not None:
            stats["power"] = ref.power
        numbered = self.game.numbered
        for word in ref.props:
            n = numbered(word)
            if n is not None and n[0] == "power":
                stats["power"] = n[1]
        # what the line changes wins over the stats written on its card (`atk "X" 1700/200 +500`)
        new = replace(old, **{**stats, **changes}) if (stats or changes) else old
        w.field[player][key] = new
        return new

    def remove(self, w: Work, player: str | None, ref: ev.CardRef) -> CardState | None:
        key = self.key(ref)
        for p in ((player,) if player in PLAYERS else ()) + PLAYERS:
            if key in w.field[p]:
                return w.field[p].pop(key)
        return None

    def leave_hand(self, w: Work, player: str, ref: ev.CardRef) -> None:
        if ref.label in w.hand.get(player, ()):
            w.hand[player] = tuple(n for n in w.hand[player] if n != ref.label)

    def to_gy(self, w: Work, player: str | None, ref: ev.CardRef) -> None:
        if player not in PLAYERS:
            return
        w.gy[player] += 1
        w.gy_last[player] = (w.gy_last[player] + (ref.label,))[-3:]

    def end_battle(self, w: Work) -> None:
        if w.battle is not None:
            self.clear_battle_flags(w)
            w.battle = None

    def clear_battle_flags(self, w: Work) -> None:
        for p in PLAYERS:
            for key, card in list(w.field[p].items()):
                if "attacking" in card.flags or "blocking" in card.flags:
                    w.field[p][key] = replace(card, flags=tuple(f for f in card.flags
                                                                  if f not in ("attacking", "blocking")))

    def set_flags(self, w: Work, player: str | None, name: str, *, add: Iterable[str] = (),
                  remove: Iterable[str] = ()) -> None:
        if player not in PLAYERS:
            return
        for key, card in w.field[player].items():
            if card.name == name:
                flags = tuple(f for f in card.flags if f not in set(remove))
                flags += tuple(f for f in add if f not in flags)
                w.field[player][key] = replace(card, flags=flags)
                return

    def start_battle(self, w: Work, e: ev.Attack, *, attacker_changes: dict | None = None,
                     target_changes: dict | None = None) -> None:
        p = e.player
        attacker = self.card(w, p, e.attacker, **(attacker_changes or {}))
        target_player = other(p)
        target_name = None
        if e.target is not None:
            t = self.card(w, target_player, e.target, **(target_changes or {}))
            target_name = t.name if t else e.target.label
        self.end_battle(w)
        w.battle = BattleState(attacker.name if attacker else e.attacker.label, p, target_name, target_player,
                               e.target_position)
        self.set_flags(w, p, w.battle.attacker, add=("attacking",))

    def on_turn(self, w: Work, i: int, e: ev.Turn) -> None:
        self.end_battle(w)
        w.chain = ()
        w.pending = ()
        w.after_ds = False

    def on_move(self, w: Work, i: int, e: ev.Move) -> None:
        p = e.player
        was = self.remove(w, p, e.card)
        if was is None and p in PLAYERS:
            self.leave_hand(w, p, e.card)
        if p not in PLAYERS:
            return
        if e.to == "gy":
            self.to_gy(w, p, e.card)
        elif e.to == "banished":
            w.banished[p] += 1
        elif e.to == "hand":
            w.hand[p] = w.hand[p] + (e.card.label,)
        elif e.to == "mana" and w.mana is not None:
            w.mana[p] += 1
        elif e.to == "shields" and w.shields is not None:
            w.shields[p] += 1

    def on_win(self, w: Work, i: int, e: ev.Event) -> None:
        w.winner = e.player


class Outline(collections.abc.Sequence):
    """A kind's segments, in the order they start, as the recording keeps them (five values a
    segment, flat: name, label, start, end, player): each :class:`Segment` is made the first time
    it is read, by index, slice or iteration, and kept. A read-only sequence, equal to the list of
    its segments; the recording it reads is done (never changed again)."""

    __slots__ = ("kind", "flat", "_made", "_n")

    def __init__(self, kind: str, flat: list):
        self.kind = kind
        self.flat = flat
        self._n = len(flat) // 5
        self._made: list[Segment | None] = [None] * self._n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(self._n))]
        made = self._made
        s = made[k]  # (an IndexError as a list's)
        if s is None:
            b = 5 * (k if k >= 0 else k + self._n)
            f = self.flat
            s = made[k] = _new(Segment, (self.kind, f[b], f[b + 1], f[b + 2], f[b + 3], f[b + 4]))
        return s

    def __iter__(self):
        made = self._made
        if None in made:  # the rest made at once (a segment read before is kept: the same object)
            it = iter(self.flat)
            fresh = map(_segment_of, zip(repeat(self.kind), it, it, it, it, it))
            made = self._made = [s if s is not None else f for s, f in zip(made, fresh)]
        return iter(made)

    def __eq__(self, other):
        if isinstance(other, Outline):
            return self.kind == other.kind and self.flat == other.flat
        if isinstance(other, list):  # (as a list: not equal to a tuple)
            return list(self) == other
        return NotImplemented

    __hash__ = None  # (as a list's)

    def __repr__(self) -> str:
        return repr(list(self))


#: replay class -> event class -> its recorder (:meth:`Replay.recorder`, asked once a process)
_RECORDERS: dict[type, dict[type, Callable | None]] = {}


def _bisect_segments(seq: Sequence[Segment], index: int) -> int:
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if seq[mid].start <= index:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1
