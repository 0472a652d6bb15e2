"""Yu-Gi-Oh!'s states: the position (phase, Battle Phase step, Damage Step timing), the chains,
Life Points and the field after every event (the machinery is :mod:`replayer.states`)."""

from __future__ import annotations

from dataclasses import replace

from ... import events as ev
from ...i18n import COMMA, Said, card_name, join
from ...states import PLAYERS, Chain, CardState, GameState, Link, Position, Replay, Work, _new, header_int
from .vocabulary import PHASE_BY_WORD, STEP_BY_WORD, TIMING_BY_WORD, Phase, Step
from .words import M

#: the words of a chain link's detail in the State pane ("effect 2, from hand, negated"), each a message
_FLIP_EFFECT = M.term("chain link", "flip effect")
_TRIGGER = M.term("chain link", "trigger")
_NEGATED = M.term("chain link", "negated")
_FROM = {"hand": M.term("chain link", "from hand"), "gy": M.term("chain link", "from gy"),
         "deck": M.term("chain link", "from deck"), "banished": M.term("chain link", "from banished"),
         "extra": M.term("chain link", "from extra")}
_COSTS = {"discard": M.term("cost", "discard"), "send": M.term("cost", "send"), "tribute": M.term("cost", "tribute")}


def _detail(parts) -> Said:
    """A link's detail: its words joined by ", " (the English as before), in the reader's language."""
    return Said(join(parts, COMMA))

#: Spell/Trap cards that go to the GY once their chain has resolved (continuous ones stay)
_LEAVE_AFTER_RESOLVING = frozenset({"normal-spell", "quick-play", "normal-trap", "counter-trap", "ritual-spell"})
_INFERRED_BP = Phase.BATTLE.short + " (inferred)"
_BATTLE, _DAMAGE, _BATTLE_STEP = Phase.BATTLE, Step.DAMAGE, Step.BATTLE
_ONLY_BP = ("Battle Phase",)
#: word -> (the member, its short label): looked up once a line, not built
_STEPS = {w: (s, s.short) for w, s in STEP_BY_WORD.items()}
_TIMINGS = {w: (t, t.short) for w, t in TIMING_BY_WORD.items()}
_PHASE, _STEP, _TIMING, _ACTIVATE, _RESOLVE_ALL = ev.Phase, ev.Step, ev.Timing, ev.Activate, ev.ResolveAll
_ATTACK = ev.Attack


def _put_open(opened: dict, timing: tuple | None, step: tuple | None, phase: tuple | None) -> None:
    """The open timing, step and phase (None: none) back in the replay's ``_open``."""
    for kind, item in (("timing", timing), ("step", step), ("phase", phase)):
        if item is None:
            opened.pop(kind, None)
        else:
            opened[kind] = item


class YgoReplay(Replay):
    step_kind = "step"
    has_timings = True
    shows_chain = True
    RECORDING = Replay.RECORDING + ("_chain",)

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self._chain: Chain | None = None  # the chain being built

    # ---- the position and the outline (recorded while the rules model replays) -----------------
    def phase_value(self, word: str) -> str:
        return PHASE_BY_WORD.get(word, word)

    def turn_started(self, i: int, e: ev.Turn) -> None:
        self._chain = None

    def _record(self, first: int, last: int, recorders: dict) -> None:
        """Record events ``first .. last - 1``: one loop, the recording's state in its locals, for the
        lines of a Yu-Gi-Oh! log most often met (phases, Battle Phase steps, Damage Step timings,
        attacks, activations and resolves); the others go through their ``record_<EventClass>`` method
        (turns, the end of the Battle Phase) as in :meth:`Replay._record`, with the state
        back on the replay for them. The open timing, step and phase are locals too (None: none
        open), the open segments of ``self._open`` (:meth:`Replay.open`, :meth:`Replay.close`,
        inlined: a structure line is the commonest line)."""
        events = self.events[first:last]
        for cls in set(map(type, events)).difference(recorders):
            recorders[cls] = self.recorder(cls)
        get = recorders.__getitem__
        opened, out = self._open, self._out
        out_timing, out_step, out_phase = out["timing"], out["step"], out["phase"]
        o_timing, o_step, o_phase = opened.get("timing"), opened.get("step"), opened.get("phase")
        pos_at, positions = self._pos_at, self._pos
        chains = self._chains
        phase_words = self._phase_words
        pos, chain = self.pos, self._chain
        # (Position fields by index: 0 turn, 1 turn player, 2 phase, 3 step, 4 timing, 5 sub-step,
        # 6 inferred; an open segment's: 0 name, 1 label, 2 start, 3 player)
        for i, e in zip(range(first, last), events):
            cls = type(e)
            if cls is _TIMING:
                name = e.name
                timing, short = _TIMINGS.get(name) or (name, name)
                if o_timing is not None and i > o_timing[2]:
                    out_timing += (o_timing[0], o_timing[1], o_timing[2], i, o_timing[3])
                o_timing = (timing, short, i, None)
                if o_phase is None:
                    o_phase = (_BATTLE, _INFERRED_BP, i, None)
                phase, inferred = pos[2], pos[6]
                if phase != _BATTLE:
                    phase, inferred = _BATTLE, _ONLY_BP
                new = _new(Position, (pos[0], pos[1], phase, _DAMAGE, timing, pos[5], inferred))
            elif cls is _PHASE:
                if o_timing is not None:  # (Replay.record_Phase: the timing, step and sub-step end)
                    if i > o_timing[2]:
                        out_timing += (o_timing[0], o_timing[1], o_timing[2], i, o_timing[3])
                    o_timing = None
                if o_step is not None:
                    if i > o_step[2]:
                        out_step += (o_step[0], o_step[1], o_step[2], i, o_step[3])
                    o_step = None
                if "substep" in opened:
                    self.close("substep", i)
                hit = phase_words.get(e.name) or self.phase_words(e.name)
                phase = hit[0]
                if o_phase is not None and i > o_phase[2]:
                    out_phase += (o_phase[0], o_phase[1], o_phase[2], i, o_phase[3])
                o_phase = (phase, hit[1], i, None)
                new = _new(Position, (pos[0], pos[1], phase, None, None, pos[5] if hit[2] else None, ()))
            elif cls is _STEP:
                name = e.name
                step, short = _STEPS.get(name) or (name, name)
                if o_timing is not None:
                    if i > o_timing[2]:
                        out_timing += (o_timing[0], o_timing[1], o_timing[2], i, o_timing[3])
                    o_timing = None
                if o_step is not None and i > o_step[2]:
                    out_step += (o_step[0], o_step[1], o_step[2], i, o_step[3])
                o_step = (step, short, i, None)
                if o_phase is None:
                    o_phase = (_BATTLE, _INFERRED_BP, i, None)
                inferred = pos[6]
                if inferred:
                    inferred = tuple(x for x in inferred if x != "Battle Step")
                phase = pos[2]
                if phase != _BATTLE:
                    phase, inferred = _BATTLE, _ONLY_BP
                new = _new(Position, (pos[0], pos[1], phase, step, None, pos[5], inferred))
            elif cls is _ATTACK:  # (an attack is in the Battle Step of the Battle Phase, inferred if not said)
                if o_phase is None:
                    o_phase = (_BATTLE, _INFERRED_BP, i, None)
                phase, inferred = pos[2], pos[6]
                if phase != _BATTLE:
                    phase, inferred = _BATTLE, _ONLY_BP
                if pos[3] != _BATTLE_STEP and "Battle Step" not in inferred:
                    inferred = inferred + ("Battle Step",)
                new = _new(Position, (pos[0], pos[1], phase, _BATTLE_STEP, None, pos[5], inferred))
            elif cls is _ACTIVATE:
                if chain is None:
                    chain = Chain()
                    chains.append(chain)
                chain.links.append(i)
                self._link_of[i] = (len(chains) - 1, len(chain.links))
                continue
            elif cls is _RESOLVE_ALL:
                if chain is not None:
                    chain.resolves.append(i)
                    chain.order = list(range(len(chain.links), 0, -1))
                    self._resolve_of[i] = len(chains) - 1
                    chain = None
                continue
            else:
                record = get(cls)
                if record is not None:  # (turns, the end of the Battle Phase: the state back on the replay for it)
                    self.pos, self._chain = pos, chain
                    _put_open(opened, o_timing, o_step, o_phase)
                    record(self, i, e)
                    pos, chain = self.pos, self._chain
                    o_timing, o_step, o_phase = opened.get("timing"), opened.get("step"), opened.get("phase")
                continue
            if new != pos:  # (Replay.move, inlined)
                if pos_at and pos_at[-1] == i:
                    positions[-1] = new
                else:
                    pos_at.append(i)
                    positions.append(new)
                pos = new
        self.pos, self._chain = pos, chain
        _put_open(opened, o_timing, o_step, o_phase)

    def record_EndBattlePhase(self, i: int, e: ev.EndBattlePhase) -> None:
        self.close("timing", i + 1)
        self.close("step", i + 1)
        pos = self.pos
        self.place(i, pos[0], pos[1], pos[2], None, None, pos[5], pos[6])

    # ---- words ---------------------------------------------------------------------------------
    @staticmethod
    def where_parts(state: GameState) -> str:
        parts = [getattr(x, "label", x) for x in (state.phase, state.step, state.timing) if x]
        return " › ".join(p for p in parts if p)

    @staticmethod
    def describe_card(card: CardState) -> str:
        bits: list[str] = []
        if card.atk is not None or card.def_ is not None:
            a = "?" if card.atk is None else str(card.atk)
            d = "?" if card.def_ is None else str(card.def_)
            bits.append(f"ATK {a} / DEF {d}")
        if card.position:
            bits.append({"set": "face-down", "defense": "defense position",
                         "attack": "attack position"}.get(card.position, card.position))
        bits.extend(card.flags)
        return " · ".join(bits)

    # ---- the state (on demand) ------------------------------------------------------------------
    def new_work(self) -> Work:
        return Work(lp=header_int(self.match.header.get("LP"), 8000))

    def on_phase(self, w: Work, i: int, e: ev.Phase) -> None:
        if e.name not in ("battle", "attack"):
            self.end_battle(w)
        w.after_ds = False

    def on_step(self, w: Work, i: int, e: ev.Step) -> None:
        if (w.pos.step == "damage" and e.name != "damage") or e.name == "end":
            self.end_battle(w)  # the battle is over

    def on_end_battle_phase(self, w: Work, i: int, e: ev.Event) -> None:
        self.end_battle(w)

    def on_resolve(self, w: Work, i: int, e: ev.ResolveAll) -> None:
        w.resolved = tuple(reversed(w.chain))
        for link in w.chain:  # what the rules say happens to the cards once the chain has resolved
            act = self.events[link.index] if 0 <= link.index < len(self.events) else None
            if not isinstance(act, ev.Activate) or link.player not in PLAYERS:
                continue
            if self.words(act.card) & _LEAVE_AFTER_RESOLVING:
                self.remove(w, link.player, act.card)
                self.leave_hand(w, link.player, act.card)
                self.to_gy(w, link.player, act.card)
            elif act.from_zone == "hand":
                self.leave_hand(w, link.player, act.card)  # it left the hand; the log says no more
        w.chain = ()

    def on_summon(self, w: Work, i: int, e: ev.Summon) -> None:
        self.card(w, e.player, e.card, position="attack", summoned_turn=w.pos.turn)

    def on_set(self, w: Work, i: int, e: ev.SetCard) -> None:
        self.card(w, e.player, e.card, position="set")

    def on_attack(self, w: Work, i: int, e: ev.Attack) -> None:
        pos = {"set": "set", "defense": "defense"}.get(e.target_position)
        self.start_battle(w, e, target_changes={"position": pos} if pos else None)

    def on_activate(self, w: Work, i: int, e: ev.Activate) -> None:
        p = e.player
        key = self.key(e.card)
        detail: list = []
        if e.effect:
            detail.append(M("effect {n}", n=e.effect))
        if e.flip_effect:
            detail.append(_FLIP_EFFECT)
        if e.trigger:
            detail.append(_TRIGGER)
        if e.from_zone and e.from_zone != "field":
            detail.append(_FROM.get(e.from_zone) or M("from {zone}", zone=e.from_zone))
        if e.targets:
            detail.append(M("targeting {cards}", cards=join((self._name(t) for t in e.targets), COMMA)))
        if e.cost_card is not None:
            detail.append(M("cost: {cost} {card}", cost=_COSTS.get(e.cost or "", e.cost), card=self._name(e.cost_card)))
        on_field = p in PLAYERS and key in w.field[p]
        if e.from_zone == "hand":
            if p in PLAYERS and e.card.label not in w.hand[p]:
                w.hand[p] = w.hand[p] + (e.card.label,)
        elif e.from_zone in (None, "field") and p in PLAYERS:
            if not on_field:
                self.card(w, p, e.card, position="")
        if e.cost_card is not None and p in PLAYERS:
            if e.cost == "tribute" or self.key(e.cost_card) in w.field[p]:
                self.remove(w, p, e.cost_card)
            else:
                self.leave_hand(w, p, e.cost_card)
            self.to_gy(w, p, e.cost_card)
        number = len(w.chain) + 1
        w.chain = w.chain + (Link(number, p, e.card.label, _detail(detail) if detail else "", i),)

    def on_flip(self, w: Work, i: int, e: ev.Flip) -> None:
        card = w.field.get(e.player or "", {}).get(self.key(e.card))
        position = "defense" if card is not None and card.position == "set" else (card.position if card else "")
        self.card(w, e.player, e.card, position=position or "defense")

    def on_change(self, w: Work, i: int, e: ev.ChangePosition) -> None:
        self.card(w, e.player, e.card, position=e.position)

    def on_negate(self, w: Work, i: int, e: ev.Negate) -> None:
        key = self.key(e.card)
        w.chain = tuple(replace(l, detail=_negated(l.detail))
                        if self.key(ev.CardRef(l.card)) == key and "negated" not in l.detail else l
                        for l in w.chain)
        w.resolved = tuple(replace(l, detail=_negated(l.detail))
                           if self.key(ev.CardRef(l.card)) == key and "negated" not in l.detail else l
                           for l in w.resolved)

    def on_destroy(self, w: Work, i: int, e: ev.Destroy) -> None:
        if e.by_battle:
            card = self.card(w, e.player, e.card)
            if card is not None:
                self.set_flags(w, e.player, card.name, add=("destroyed by battle",))
            return
        self.remove(w, e.player, e.card)
        self.to_gy(w, e.player, e.card)

    def on_damage(self, w: Work, i: int, e: ev.Damage) -> None:
        p = e.player
        if w.lp is None or p not in PLAYERS:
            return
        w.lp[p] = max(w.lp[p] - e.amount, 0)
        w.lp_expected[p] = w.lp[p]

    def on_lp(self, w: Work, i: int, e: ev.LifePoints) -> None:
        p = e.player
        if w.lp is None or p not in PLAYERS:
            return
        expected = w.lp_expected[p]
        if expected != e.value:
            w.arithmetic = (Said(M("line {line}: {player} lp {value}, but the damage written gives {expected}",
                                   line=e.span.line, player=p, value=e.value, expected=expected)),)
        else:
            w.arithmetic = ()
        w.lp[p] = e.value  # follow the log from here on
        w.lp_expected[p] = e.value

    def _name(self, ref: ev.CardRef):
        """A card of a link's detail: as the log wrote it, and the catalog's names (its copy kept)."""
        info = self._catalog.find(ref.name) if self._catalog is not None else None
        names = info.names if info is not None else {}
        if ref.copy is not None:
            names = {lang: f"{n}#{ref.copy}" for lang, n in names.items()}
        return card_name(ref.label, names)

    def on_atk(self, w: Work, i: int, e: ev.AtkChange) -> None:
        p = e.player
        card = w.field.get(p or "", {}).get(self.key(e.card))
        if e.relative:
            base = card.atk if card is not None else e.card.atk
            value = None if base is None else base + e.value
        else:
            value = e.value
        self.card(w, p, e.card, atk=value)


def _negated(detail: str) -> Said:
    """A link's detail with "negated" after its words."""
    parts = detail.msg.items if isinstance(detail, Said) else tuple(p for p in (detail,) if p)
    return _detail(parts + (_NEGATED,))


__all__ = ["Position", "YgoReplay"]
