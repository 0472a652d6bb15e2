"""Duel Masters' states: the position (step of the turn, attack sub-step), the waiting abilities,
shields, mana and the battle zone after every event (the machinery is :mod:`replayer.states`)."""

from __future__ import annotations

from dataclasses import replace

from ... import events as ev
from ...i18n import Said
from ...states import (PLAYERS, CardState, Chain, GameState, Link, Position, Replay, Work, _new, cards_of, ended,
                       header_int, other)
from .vocabulary import ATTACK_STEP_LABELS, PHASE_BY_WORD, AttackStep, Phase
from .words import M

#: a waiting ability's state in the State pane, as a message
_WAITING = Said(M.term("ability", "waiting"))
_RESOLVED = Said(M.term("ability", "resolved"))
_S_TRIGGER = Said(M.term("ability", "S-Trigger"))

#: lines that may still belong to sub-step 7 after `attack ends`
_END_OF_ATTACK = frozenset({"trigger", "resolve-ability", "resolve", "destroy", "move", "tap"})
_SUBSTEP_OF = {"block": AttackStep.BLOCK, "redirect": AttackStep.BLOCK, "battle": AttackStep.BATTLE,
               "break": AttackStep.BREAK, "s-trigger": AttackStep.BREAK, "direct-attack": AttackStep.DIRECT,
               "win": AttackStep.DIRECT, "attack-ends": AttackStep.END}
_ATTACK_PHASES = frozenset({"battle", "attack"})
#: the lines that may move the position, the outline or the sub-step while an attack is on
_RECORDED = frozenset({"turn", "phase", "attack", "trigger", "s-trigger", "resolve-ability", "resolve",
                       "declare"}) | frozenset(_SUBSTEP_OF)


def attack_step(e: ev.Event, sub: AttackStep | None, active: bool, ended: bool) -> tuple[AttackStep | None, bool, bool]:
    """The attack sub-step after ``e``: (sub-step, an attack is on, it has ended).

    Inferred from the lines (notation §5): an attack declaration is 1; triggers and declarations
    wait at 3 before blocking and at 5 after it; block/redirect 4; battle 6A; breaks and
    S-Triggers 6B; a direct attack 6C; ``attack ends`` 7, whose abilities may follow.
    """
    kind = e.kind
    if active and ended and kind not in _END_OF_ATTACK:
        sub, active, ended = None, False, False
    if kind == "turn" or (kind == "phase" and getattr(e, "name", "") not in _ATTACK_PHASES):
        return None, False, False
    if kind == "attack":
        return AttackStep.DECLARATION, True, False
    if not active or ended:
        return sub, active, ended
    if kind in ("trigger", "declare", "resolve-ability"):
        if kind == "resolve-ability":
            return sub, active, ended
        order = sub.number if sub is not None else 1
        return (AttackStep.ATTACK_TRIGGERS if order <= 3 else AttackStep.BLOCK_TRIGGERS if order <= 5 else sub), \
            active, ended
    new = _SUBSTEP_OF.get(kind)
    if new is not None:
        return new, active, kind == "attack-ends"
    return sub, active, ended


class DmReplay(Replay):
    step_kind = "substep"
    has_timings = False
    shows_chain = False
    RECORDING = Replay.RECORDING + ("_chain", "_pending", "_sub", "_active", "_ended", "_attacker")

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self._chain: Chain | None = None  # the abilities waiting together
        self._pending: dict[str, int] = {}  # card key -> link number of its waiting ability
        self._sub: AttackStep | None = None
        self._active = self._ended = False
        self._attacker: str | None = None

    # ---- the position and the outline (recorded while the rules model replays) -----------------
    @classmethod
    def recorder(cls, event_cls: type):
        if getattr(event_cls, "kind", None) in _RECORDED:
            return cls.record
        return cls.record_other  # any other line ends an attack that has ended

    def record_other(self, i: int, e: ev.Event) -> None:
        if self._ended:
            self.record(i, e)

    def phase_value(self, word: str) -> str:
        return PHASE_BY_WORD.get(word, word)

    def keeps_attack(self, phase: str) -> bool:
        return phase in _ATTACK_PHASES

    def record(self, i: int, e: ev.Event) -> None:
        kind = e.kind
        chain = self._chain
        if kind == "turn":
            self.record_Turn(i, e)
            self._chain = None
        elif kind == "phase":
            self.record_Phase(i, e)
        # the abilities waiting to resolve
        elif kind == "trigger" or kind == "s-trigger":
            if chain is None:
                chain = self._chain = Chain()
                self._chains.append(chain)
                self._pending = {}
            for ref in (cards_of(e) if kind == "s-trigger" else (e.card,)):
                chain.links.append(i)
                number = len(chain.links)
                self._link_of.setdefault(i, (len(self._chains) - 1, number))
                self._pending.setdefault(self.key(ref), number)
        elif kind == "resolve-ability":
            if chain is not None:
                number = self._pending.pop(self.key(e.card), None)
                chain.resolves.append(i)
                self._resolve_of[i] = len(self._chains) - 1
                if number is not None:
                    chain.order.append(number)
                if not self._pending:
                    self._chain = None
        elif kind == "resolve":
            if chain is not None:
                chain.resolves.append(i)
                self._resolve_of[i] = len(self._chains) - 1
                chain.order.extend(sorted(self._pending.values()))
                self._pending = {}
                self._chain = None
        elif kind == "attack":
            self._chain = None
        # the attack's sub-steps (Position fields by index: 2 phase, 5 sub-step)
        pos = self.pos
        if kind == "attack":
            self._attacker = e.player
            if pos[2] is None:
                pos = _new(Position, (pos[0], pos[1], Phase.ATTACK, pos[3], pos[4], pos[5], pos[6]))
        sub, self._active, self._ended = attack_step(e, self._sub, self._active, self._ended)
        self._sub = sub
        opened = self._open
        current = opened.get("substep")  # (Replay.close and open, inlined: most lines of a match)
        if sub is None:
            if current is not None:
                del opened["substep"]
                if i > current[2]:
                    self._out["substep"] += (current[0], current[1], current[2], i, current[3])
        elif current is None or current[0] is not sub or kind == "attack":  # (members: one of each)
            if current is not None and i > current[2]:
                self._out["substep"] += (current[0], current[1], current[2], i, current[3])
            opened["substep"] = (sub, ATTACK_STEP_LABELS[sub], i, self._attacker)
        if pos[5] is not sub:
            pos = _new(Position, (pos[0], pos[1], pos[2], pos[3], pos[4], sub, pos[6]))
        if pos != self.pos:  # (Replay.move, inlined)
            at = self._pos_at
            if at and at[-1] == i:
                self._pos[-1] = pos
            else:
                at.append(i)
                self._pos.append(pos)
            self.pos = pos

    # ---- words ---------------------------------------------------------------------------------
    @staticmethod
    def where_parts(state: GameState) -> str:
        parts = [getattr(state.phase, "label", state.phase)] if state.phase else []
        if state.substep:
            parts.append("attack sub-step " + getattr(state.substep, "label", state.substep))
        return " › ".join(p for p in parts if p)

    @staticmethod
    def describe_card(card: CardState) -> str:
        bits: list[str] = []
        if card.power is not None:
            bits.append(f"power {card.power}")
        bits.append("tapped" if card.tapped else "untapped")
        bits.extend(card.flags)
        return " · ".join(bits)

    # ---- the state (on demand) ------------------------------------------------------------------
    def new_work(self) -> Work:
        return Work(shields=header_int(self.match.header.get("Shields"), 5))

    def apply(self, w: Work, i: int, event: ev.Event, pos) -> None:
        if w.battle is not None and w.battle.ended and event.kind not in _END_OF_ATTACK:
            self.end_battle(w)  # the lines after `attack ends` that are not its abilities
        super().apply(w, i, event, pos)

    def on_turn(self, w: Work, i: int, e: ev.Turn) -> None:
        super().on_turn(w, i, e)
        if e.player in w.field:  # the active player's creatures untap
            w.field[e.player] = {k: replace(c, tapped=False) for k, c in w.field[e.player].items()}

    def on_phase(self, w: Work, i: int, e: ev.Phase) -> None:
        if e.name not in _ATTACK_PHASES:
            self.end_battle(w)
        w.after_ds = False

    def on_resolve(self, w: Work, i: int, e: ev.ResolveAll) -> None:
        w.resolved = w.pending
        w.pending = ()

    def on_attack_ends(self, w: Work, i: int, e: ev.AttackEnds) -> None:
        w.battle = ended(w.battle)
        self.clear_battle_flags(w)

    def on_summon(self, w: Work, i: int, e: ev.Summon) -> None:
        self.card(w, e.player, e.card, tapped=False, summoned_turn=w.pos.turn)

    def on_attack(self, w: Work, i: int, e: ev.Attack) -> None:
        self.start_battle(w, e, attacker_changes={"tapped": True})

    def on_destroy(self, w: Work, i: int, e: ev.Destroy) -> None:
        self.remove(w, e.player, e.card)
        self.to_gy(w, e.player, e.card)

    def on_main(self, w: Work, i: int, e: ev.MainAction) -> None:
        p = e.player
        if e.verb == "charge":
            if w.mana is not None and p in PLAYERS:
                w.mana[p] += 1
        elif e.verb == "summon":
            self.card(w, p, e.card, tapped=False, summoned_turn=w.pos.turn)
        elif e.verb == "cast":
            self.to_gy(w, p, e.card)

    def on_tap(self, w: Work, i: int, e: ev.Tap) -> None:
        self.card(w, e.player, e.card, tapped=e.tapped)

    def on_trigger(self, w: Work, i: int, e: ev.TriggerAbility) -> None:
        w.pending = w.pending + (Link(len(w.pending) + 1, e.player, e.card.label, _WAITING, i),)

    def on_resolve_ability(self, w: Work, i: int, e: ev.ResolveAbility) -> None:
        key = self.key(e.card)
        for n, link in enumerate(w.pending):
            if self.key(ev.CardRef(link.card)) == key:
                w.resolved = (replace(link, detail=_RESOLVED),)
                w.pending = w.pending[:n] + w.pending[n + 1:]
                return
        w.resolved = (Link(0, e.player, e.card.label, _RESOLVED, i),)

    def on_declare(self, w: Work, i: int, e: ev.Declare) -> None:
        if e.what in ("ninja-strike", "invade", "revolution-change"):
            self.card(w, e.player, e.card, tapped=False, summoned_turn=w.pos.turn)

    def on_block(self, w: Work, i: int, e: ev.Block) -> None:
        card = self.card(w, e.player, e.card, tapped=True)
        if w.battle is not None and card is not None:
            w.battle = replace(w.battle, blocker=card.name, target=card.name, target_player=e.player,
                               target_position="attack")
            self.set_flags(w, e.player, card.name, add=("blocking",))

    def on_redirect(self, w: Work, i: int, e: ev.Redirect) -> None:
        self.card(w, e.player, e.card, tapped=False)
        target = self.card(w, e.player, e.target)
        if w.battle is not None and target is not None:
            w.battle = replace(w.battle, target=target.name, target_player=e.player)

    def on_break(self, w: Work, i: int, e: ev.Break) -> None:
        opp = other(e.player)
        if w.shields is not None and opp in w.shields:
            w.shields[opp] = max(w.shields[opp] - e.count, 0)

    def on_s_trigger(self, w: Work, i: int, e: ev.STrigger) -> None:
        for ref in cards_of(e):
            w.pending = w.pending + (Link(len(w.pending) + 1, e.player, ref.label, _S_TRIGGER, i),)
