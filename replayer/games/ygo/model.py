"""Yu-Gi-Oh!: the Battle Phase and the Damage Step, the handlers that apply the rules to a log.

The model replays a log's events, keeps the state the log tells (turn, phase, step, timing, the
battle, the chain, where each card is, Life Points) and reports what the rules do not allow. A
finding does not stop the replay: the event is taken to have happened. The tables and guards it
applies, with their citations, are :mod:`replayer.games.ygo.rules`; the records of the state it
keeps, :mod:`replayer.games.ygo.field`.
"""

from __future__ import annotations

from ... import events as ev
from ...diagnostics import Severity
from ...numbers import whole_number
from ...replay import CardFacts, Model
from . import effects as ygo_effects
from .field import BattleState, Card, Link, other
# ONCE_PER_TIMING, named_timings: re-exported (the registry test and cards/derive.py read the tables here)
from .rules import (ACTIVATION_GUARDS, AFTER_CALC, Act, CALC, CLAUSES, DS_END, DS_RESTRICTIONS, DS_START, Guard,
                    ONCE_PER_TIMING, REVISIONS, R_AFTER_DS, R_ASSUMED, R_BACKWARDS, R_BP_ENDED,
                    R_COUNTER_ONLY, R_DAMAGE, R_DESTROYED_CHANGED, R_DESTROY_NOT_CALC, R_EVENT_ASSUMED, R_FLIP_DS_START,
                    R_LINK, R_LP, R_NOT_ALLOWED, R_NOT_FLIPPED, R_NOT_THERE, R_NO_ATTACK, R_NO_CALC, R_ONCE,
                    R_RESULT, R_SENT_EARLY, R_SPEED, R_TRIGGER_ORDER, R_UNDECIDED, R_UNLISTED,
                    SPELL_TRAP_KINDS, Timing, clause_timings, describe_effect, describe_json, effect_words, describe_table,
                    damage_step_clauses, effect_zones, is_trigger_effect, named_timings, once_per_timing, spell_speed,
                    own_event, waits_for)
from .vocabulary import PHASE_BY_WORD, STEP_BY_WORD, TIMING_BY_WORD, Phase, Step
from .words import ARROW, M, timing, timings, zone_word
from ...i18n import OR, SEMI, Msg, join

# the members on a hot path as module names (reading one off its class costs 60 ns)
BATTLE, MAIN2, DAMAGE, BATTLE_STEP, END_STEP = Phase.BATTLE, Phase.MAIN2, Step.DAMAGE, Step.BATTLE, Step.END
CALC_ON = frozenset((CALC, AFTER_CALC))  # a result of damage calculation is answered there or right after it


class YgoModel(Model):
    game = "ygo"

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self.turn_player: str | None = None
        self.phase: Phase | None = None  # the vocabulary's members (the words of the notation)
        self.step: Step | None = None
        self.timing: Timing | None = None
        self.battle: BattleState | None = None
        self.bp_ended = False  # `end battle phase`: the rest of the Damage Step does not happen
        self.bp_ending = False  # an effect that ends the Battle Phase resolved in this Damage Step
        self.chain: list[Link] = []
        self.resolved_at: set[Timing] = set()
        self.cards: dict[str, Card] = {}
        self.destroyed: set[str] = set()  # keys of monsters destroyed by battle in this Damage Step
        self.atk_changed: set[str] = set()  # keys of monsters whose ATK an `atk` line changed this turn
        lp = whole_number(match.header.get("LP", "8000"))
        if lp is None:
            lp = 8000  # the reader reported the bad tag
        self.lp: dict[str, int | None] = {"A": lp, "B": lp}
        self.damage_since_lp: dict[str, bool] = {"A": False, "B": False}
        self.flipped_in_ds: set[str] = set()
        self.moved: set[str] = set()  # cards moved, flipped or summoned since the last activation (a trigger is likely)
        self.ds_over = False  # a Damage Step of this battle ended (by a step or phase line): no timing goes back
        # the events of this Damage Step that an effect may answer (`on:` words): (word, card key, player,
        # the timings at which the effects that answer it are activated)
        self.happened: list[tuple[str, str | None, str | None, frozenset[Timing]]] = []
        self.ds_in_log = False  # the log shows this Damage Step's start (its attack or `step damage`)

    # ---- helpers --------------------------------------------------------------------------
    def card(self, ref: ev.CardRef) -> Card:
        key = self._name_keys.get(ref.name)  # (self.card_key(ref), its common case written out)
        if key is None:
            key = self.card_name_key(ref)
        if ref.copy is not None:
            key = f"{key}#{ref.copy}"
        c = self.cards.get(key)
        if c is None:
            facts = self.facts_of(ref)
            c = self.cards[key] = Card(key, atk=facts.atk, def_=facts.def_, facts=facts)
        if ref.atk is not None:
            c.atk = ref.atk
        if ref.def_ is not None:
            c.def_ = ref.def_
        return c

    def battle_place(self, key: str) -> str | None:
        """The card's place in this Damage Step's battle: ``attacker``, ``attack-target`` or ``bystander`` (a
        card the log has elsewhere: the hand, the GY, another monster); None when the battle is unknown (an
        excerpt that starts inside the Damage Step)."""
        b = self.battle
        if b is None or not self.in_damage_step:
            return None
        if key == b.attacker:
            return "attacker"
        return "attack-target" if key == b.target else "bystander"

    @property
    def in_damage_step(self) -> bool:
        return self.step is DAMAGE and self.timing is not None

    def starts_the_log(self, e: ev.Event) -> bool:
        """The first event of the log: an excerpt may start anywhere, even inside a Damage Step (spec §3)."""
        return bool(self.match.events) and self.match.events[0] is e

    def happen(self, word: str, key: str | None = None, player: str | None = None,
               at: frozenset[Timing] | None = None) -> None:
        """An event the log shows, that an effect waiting for it (``on:<word>``) may answer: at the timing
        where it happened (a result of damage calculation: after it, too), or at ``at``."""
        if self.step is not DAMAGE:
            return  # before the Damage Step: its answers come there, not in the Damage Step
        if at is None:
            t = self.timing or DS_START
            at = CALC_ON if t is CALC else frozenset((t,))
        self.happened.append((word, key, player, at))

    def event_seen(self, word: str, key: str | None, player: str | None = None) -> bool:
        """Has an event of this kind (to this card, if ``key``; of this player, if ``player``: the damage or
        the gain of LP of that player, an event to a card of that player's) happened where an answer to it is
        activated now?"""
        if word == "chaining":
            return bool(self.chain)
        if word == "targeted":
            return any(self.card_key(t) == key if key else True for link in self.chain for t in link.event.targets)
        t = self.timing
        # (an event whose line names no player: whoever's it was, it may be the one answered)
        return any(w == word and t in at and (key is None or k == key) and (player is None or p is None or p == player)
                   for w, k, p, at in self.happened)

    def leave_damage_step(self) -> None:
        if self.step is DAMAGE:
            self.ds_over = True
        self.happened = []
        if self.timing is None and self.battle is None and not self.chain and not self.destroyed:
            return  # nothing of a Damage Step to forget (the usual case on a structure line)
        self.timing = None
        self.battle = None
        self.resolved_at = set()
        self.flipped_in_ds = set()
        self.chain = []
        for key in self.destroyed:  # the Damage Step is over: nothing is "destroyed, not yet sent" now
            self.cards[key].destroyed_by_battle = False
        self.destroyed = set()

    # ---- structure ------------------------------------------------------------------------
    def handle_Turn(self, e: ev.Turn) -> None:
        # ATK changes may or may not outlast the turn; the log does not say: unknown until restated
        for key in self.atk_changed:
            self.cards[key].atk = None
        self.atk_changed = set()
        self.leave_damage_step()
        self.ds_over = False
        self.turn_player = e.player
        self.ds_in_log = False
        self.phase, self.step, self.bp_ended, self.bp_ending = None, None, False, False

    def handle_Phase(self, e: ev.Phase) -> None:
        # `phase main2` right after a Damage Step implies the return to the Battle Step and its End Step:
        # the only reading there is (spec §3, clarification)
        phase = PHASE_BY_WORD.get(e.name, e.name)
        if self.step is DAMAGE and self.timing is not None and not (self.bp_ended or self.bp_ending) \
                and phase is not BATTLE and phase is not MAIN2:
            self.report(R_AFTER_DS, e, M("phase {phase} follows the Damage Step directly; after the Damage "
                        "Step the game returns to the Battle Step", phase=e.name), M("write `step battle` (and "
                        "`step end`) first, or `A: end battle phase` if an effect ended the Battle Phase"))
        self.leave_damage_step()
        self.phase, self.step, self.bp_ended, self.bp_ending = phase, None, False, False

    def handle_Step(self, e: ev.Step) -> None:
        step = STEP_BY_WORD.get(e.name, e.name)
        if step is DAMAGE:
            self.ds_in_log = self.ds_in_log or self.battle is not None or not self.starts_the_log(e)
            if self.battle is None and not self.starts_the_log(e):
                self.report(R_NO_ATTACK, e, M("a Damage Step with no attack declared before it"),
                            M("write the attack declaration (`A: attack ... -> ...`) before `step damage`"))
            self.phase = BATTLE
            self.step, self.timing = DAMAGE, None
            self.resolved_at, self.flipped_in_ds = set(), set()
            return
        # `step end` right after a Damage Step implies the return to the Battle Step (spec §3, clarification)
        if self.step is DAMAGE and self.timing is not None and step is not BATTLE_STEP and step is not END_STEP \
                and not (self.bp_ended or self.bp_ending):
            self.report(R_AFTER_DS, e, M("step {step} follows the Damage Step directly; after the Damage "
                        "Step the game returns to the Battle Step", step=e.name), M("write `step battle` first"))
        self.leave_damage_step()
        self.step = step

    def handle_Timing(self, e: ev.Timing) -> None:
        new = TIMING_BY_WORD[e.name]  # (Timing.of)
        if self.bp_ended:
            self.report(R_BP_ENDED, e, M("timing {timing} after the Battle Phase was ended by an effect: the "
                        "rest of the Damage Step does not happen", timing=timing(new)), M("remove this timing and "
                        "what follows it in this Damage Step"))
        if self.step is not DAMAGE:
            if self.battle is None and self.ds_over:
                self.report(R_BACKWARDS, e, M("timing {timing} after the Damage Step ended: the game has left it "
                            "and does not go back", timing=timing(new)), M("write the line under its timing, before "
                            "the step or phase line that ended the Damage Step"))
            elif self.battle is None and not self.starts_the_log(e):
                self.report(R_NO_ATTACK, e, M("timing {timing} with no attack: a Damage Step needs an attack",
                            timing=timing(new)), M("write the attack declaration and `step damage` first"))
            self.step, self.phase = DAMAGE, BATTLE
        if self.timing is not None and new < self.timing:
            self.report(R_BACKWARDS, e, M("timing {timing} after {previous}: the Damage Step runs {order} and never "
                        "goes back", timing=timing(new), previous=timing(self.timing),
                        order=join([timing(t) for t in Timing], ARROW)),
                        M("write the events of each timing under its own `timing` line, in order"))
            return  # the replay stays at the later timing
        if self.chain:  # a chain cannot span timings: it resolved
            self.close_chain()
        b = self.battle
        if new >= CALC and b and b.target and b.target_face_down and not b.left_field \
                and (self.timing is None or self.timing < CALC):
            target = self.cards[b.target]
            if target.face_down and target.zone == "field":
                self.report(R_NOT_FLIPPED, e, M('the attacked face-down monster "{card}" was not flipped '
                            "face-up before damage calculation", card=target.key),
                            M("write its `flip` under `timing before-calc`"))
                target.face_down = False  # the flip the log left out happened: what answers it comes after calc
                self.happen("flipped", target.key, target.controller, frozenset((AFTER_CALC,)))
        self.timing = new

    def close_chain(self) -> None:
        if self.chain and self.timing is not None:
            self.resolved_at.add(self.timing)
        if self.battle and any("atk-mod" in link.props for link in self.chain):
            self.battle.uncertain = True
        if any("ends-battle-phase" in link.props for link in self.chain):
            self.bp_ending = True  # the game goes on to the End Phase after this Damage Step
        self.chain = []

    def handle_ResolveAll(self, e: ev.ResolveAll) -> None:
        self.close_chain()

    def handle_EndBattlePhase(self, e: ev.EndBattlePhase) -> None:
        self.bp_ended = True
        self.close_chain()

    # ---- summons and positions --------------------------------------------------------------
    def handle_Summon(self, e: ev.Summon) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        c.zone, c.controller, c.face_down = "field", e.player, False
        c.position = c.position or "attack"
        self.happen("summoned", c.key, e.player)
        if e.method == "flip":
            self.happen("flipped", c.key, e.player)

    def handle_SetCard(self, e: ev.SetCard) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        c.zone, c.controller, c.face_down = "field", e.player, True
        c.position = "defense"

    def handle_ChangePosition(self, e: ev.ChangePosition) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        if c.destroyed_by_battle and c.zone == "field":
            self.report(R_DESTROYED_CHANGED, e, M('"{card}" was destroyed by battle: until it is sent to the '
                        "GY its battle position cannot be changed", card=self.card_name(e.card)),
                        M("remove the change"), card=e.card)
        c.position = e.position
        if c.zone is None:
            c.zone, c.controller = "field", e.player
        self.happen("position", c.key, e.player)

    # ---- the attack and the battle -----------------------------------------------------------
    def handle_Attack(self, e: ev.Attack) -> None:
        attacker = self.card(e.attacker)
        if attacker.zone not in (None, "field"):
            self.report(R_NOT_THERE, e, M('"{card}" attacks but the log put it in the {zone}',
                        card=self.card_name(e.attacker), zone=zone_word(attacker.zone)),
                        M("check the earlier lines that moved it"), card=e.attacker)
        attacker.zone, attacker.controller = "field", e.player
        attacker.position, attacker.face_down = "attack", False
        target_key = None
        if e.target is not None:
            target = self.card(e.target)
            target.zone, target.controller = "field", other(e.player)
            if e.target_position == "set":
                target.face_down, target.position = True, "defense"
            elif e.target_position == "defense":
                target.face_down, target.position = False, "defense"
            elif target.position is None or not target.face_down:
                target.position = target.position or "attack"
            target_key = target.key
        self.leave_damage_step()
        self.ds_over = False
        self.ds_in_log = True
        self.phase, self.step = BATTLE, BATTLE_STEP
        self.battle = BattleState(attacker.key, e.player or "", target_key,
                                  bool(target_key and self.cards[target_key].face_down),
                                  self.cards[target_key].position if target_key else "attack", e.line)
        self.battle.continuous = any("continuous" in self.facts_of_key(k) for k in (attacker.key, target_key) if k)
        self.battle.piercing = "piercing" in self.facts_of_key(attacker.key)

    def handle_Flip(self, e: ev.Flip) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        b = self.battle
        if self.in_damage_step and b and c.key == b.target and b.target_face_down:
            if self.timing == DS_START:
                self.report(R_FLIP_DS_START, e, M('"{card}" is flipped at the start of the Damage Step; '
                            "an attacked face-down monster is flipped face-up at {timing}",
                            card=self.card_name(e.card), timing=timing(Timing.BEFORE_CALC)),
                            M("write the flip under `timing before-calc`"), card=e.card)
            self.flipped_in_ds.add(c.key)
            # what answers the attacked monster's flip activates after damage calculation (Yugipedia:
            # Damage Step § Before damage calculation)
            after = frozenset((AFTER_CALC,)) if self.timing is not None and self.timing < CALC else None
        else:
            after = None
        self.happen("flipped", c.key, e.player, after)
        self.happen("position", c.key, e.player, after)
        c.face_down = False
        c.zone = c.zone or "field"
        c.controller = c.controller or e.player

    def handle_AtkChange(self, e: ev.AtkChange) -> None:
        c = self.card(e.card)
        self.atk_changed.add(c.key)
        if self.battle and c.key in (self.battle.attacker, self.battle.target):
            self.battle.uncertain = False
        if e.relative:
            c.atk = None if c.atk is None else c.atk + e.value
        else:
            c.atk = e.value

    def expected_battle(self) -> tuple[dict[str, int], set[str]] | None:
        """Battle damage per player and the monsters destroyed, from ATK/DEF; None if unknown."""
        b = self.battle
        if b is None or b.uncertain or CALC in self.resolved_at:
            return None  # an effect may have changed the damage (Kuriboh) or the stats: no check
        a = self.cards[b.attacker]
        if a.atk is None:
            return None
        if b.continuous:
            return None  # a continuous effect may change the damage
        me, opp = b.attacker_player, other(b.attacker_player) or ""
        if b.target is None:
            return {opp: a.atk}, set()
        t = self.cards[b.target]
        piercing = b.piercing
        if t.position == "defense":
            if t.def_ is None:
                return None
            if a.atk > t.def_:
                return ({opp: a.atk - t.def_} if piercing else {}), {t.key}
            if a.atk < t.def_:
                return {me: t.def_ - a.atk}, set()
            return {}, set()
        if t.atk is None:
            return None
        if a.atk > t.atk:
            return {opp: a.atk - t.atk}, {t.key}
        if a.atk < t.atk:
            return {me: t.atk - a.atk}, {a.key}
        if a.atk == 0:
            return {}, set()
        return {}, {a.key, t.key}

    def facts_of_key(self, key: str) -> frozenset[str]:
        c = self.cards.get(key)
        return c.facts.effect_props() if c is not None and c.facts is not None else frozenset()

    def handle_Damage(self, e: ev.Damage) -> None:
        if self.timing == CALC and self.battle is not None:
            self.check_battle_damage(e)
        self.happen("damage", None, e.player)
        b = self.battle
        if self.timing == CALC and b is not None and e.amount > 0:
            by = b.attacker if e.player != b.attacker_player else b.target
            self.happen("battle-damage", by, e.player, frozenset((AFTER_CALC,)))
        lp = self.lp.get(e.player or "")
        if lp is not None:
            self.lp[e.player or ""] = max(0, lp - e.amount)
        self.damage_since_lp[e.player or ""] = True

    def check_battle_damage(self, e: ev.Damage) -> None:
        b = self.battle
        assert b is not None
        if b.left_field:
            self.report(R_NO_CALC, e, M("battle damage after a battling monster left the field: there is no "
                        "damage calculation"), M("remove the battle damage and the battle's results"))
            return
        expected = self.expected_battle()
        if expected is None:
            return
        damage, _ = expected
        want = damage.get(e.player or "", 0)
        if want != e.amount:
            self.report(R_DAMAGE, e, M("{player} takes {amount} battle damage, but {sums} gives {want} to {player}",
                        player=e.player, amount=e.amount, sums=self.battle_sums(),
                        want=want if want else M("no damage")),
                        M("write `{player}: damage {amount}`", player=e.player, amount=want) if want
                        else M("remove this line or check the ATK/DEF"))

    def battle_sums(self) -> Msg:
        b = self.battle
        assert b is not None
        a = self.cards[b.attacker]
        if b.target is None:
            return M("a direct attack with ATK {atk}", atk=a.atk)
        t = self.cards[b.target]
        if t.position == "defense":
            if "piercing" in self.facts_of_key(b.attacker):
                return M("ATK {atk} against DEF {def} with piercing", atk=a.atk, **{"def": t.def_})
            return M("ATK {atk} against DEF {def}", atk=a.atk, **{"def": t.def_})
        return M("ATK {atk} against ATK {target_atk}", atk=a.atk, target_atk=t.atk)

    def handle_LifePoints(self, e: ev.LifePoints) -> None:
        # Only damage is recorded as such; an lp line with no damage since the last known Life
        # Points is a change the log does not detail (a cost, a gain) and is taken as written.
        lp = self.lp.get(e.player or "")
        checked = self.damage_since_lp.get(e.player or "", False)
        if lp is not None and e.value > lp:
            self.happen("recover", None, e.player)
        self.damage_since_lp[e.player or ""] = False
        if checked and lp is not None and lp != e.value:
            self.report(R_LP, e, M("{player}'s Life Points are {lp} by the damage the log records, not {written}",
                        player=e.player, lp=lp, written=e.value),
                        M("write `{player}: lp {lp}`, or the damage line that explains {written}", player=e.player,
                          lp=lp, written=e.value))
        self.lp[e.player or ""] = e.value

    def handle_Destroy(self, e: ev.Destroy) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        if c.zone is None:
            c.zone, c.controller = "field", e.player
        if not e.by_battle:
            self.happen("destroyed", c.key, e.player)
            self.leave_field(c, "gy")
            return
        if self.timing != CALC:
            where = M("at {timing}", timing=timing(self.timing)) if self.timing else M("outside the Damage Step")
            self.report(R_DESTROY_NOT_CALC, e, M('"{card}" is written destroyed by battle {where}; '
                        "destruction by battle is decided at damage calculation", card=self.card_name(e.card),
                        where=where), M("write it under `timing calc`"), card=e.card)
        elif self.battle is not None:
            if self.battle.left_field:
                self.report(R_NO_CALC, e, M('"{card}" is destroyed by battle, but a battling monster left '
                            "the field before damage calculation: there was no damage calculation",
                            card=self.card_name(e.card)), M("remove the battle's results"), card=e.card)
            else:
                expected = self.expected_battle()
                if expected is not None and c.key not in expected[1]:
                    self.report(R_RESULT, e, M('"{card}" is not destroyed by this battle: {sums}',
                                card=self.card_name(e.card), sums=self.battle_sums()),
                                M("check the ATK/DEF and the positions"), card=e.card)
        c.destroyed_by_battle = True
        self.destroyed.add(c.key)  # forgotten when the Damage Step ends (leave_damage_step)
        # it is sent to the GY at the end of the Damage Step, and what answers its destruction activates then
        # (Yugipedia: Damage Step § End of the Damage Step), whether or not the log writes the move
        b, end = self.battle, frozenset((DS_END,))
        for word in ("battle-destroyed", "destroyed", "to-grave", "leave-field"):
            self.happen(word, c.key, e.player, end)
        if b is not None and c.key in (b.attacker, b.target):
            self.happen("battle-destroying", b.target if c.key == b.attacker else b.attacker, None, end)

    def handle_Move(self, e: ev.Move) -> None:
        c = self.card(e.card)
        self.moved.add(c.key)
        if c.zone is None:
            c.zone = "field" if e.how != "discard" else "hand"
        if e.how == "discard":
            self.happen("discarded", c.key, e.player)
            c.controller = e.player
        if c.destroyed_by_battle and self.in_damage_step and self.timing is not None \
                and self.timing < DS_END and e.to == "gy":
            self.report(R_SENT_EARLY, e, M('"{card}" was destroyed by battle and is sent to the GY at '
                        "{timing}; it stays on the field until the end of the Damage Step",
                        card=self.card_name(e.card), timing=timing(self.timing)),
                        M("write the move under `timing ds-end`"), card=e.card)
        self.leave_field(c, e.to, by_battle=e.how == "send" and e.to == "gy")

    def handle_Negate(self, e: ev.Negate) -> None:
        self.card(e.card)

    def leave_field(self, c: Card, to: str, *, by_battle: bool = False) -> None:
        if not c.destroyed_by_battle:  # (a monster destroyed by battle: its events are at the end, above)
            if c.zone == "field":
                self.happen("leave-field", c.key, c.controller)
            self.happen({"gy": "to-grave", "banished": "banished", "hand": "to-hand"}.get(to, "moved"), c.key,
                        c.controller)
        b = self.battle
        if b and c.zone == "field" and c.key in (b.attacker, b.target) and not c.destroyed_by_battle \
                and self.timing is not None and self.timing < CALC:
            b.left_field.add(c.key)
        if c.destroyed_by_battle and c.zone == "field":
            c.battle_fate = "sent" if by_battle else "pre-empted"
        elif c.zone == "field":
            c.battle_fate = None
        c.zone = to
        c.destroyed_by_battle = False

    # ---- activations ---------------------------------------------------------------------
    def handle_Activate(self, e: ev.Activate) -> None:
        facts = self.facts_of(e.card)
        c = self.card(e.card)
        just_moved = c.key in self.moved
        self.moved = set()
        reading = self.choose_reading(e, facts, c, just_moved)
        props = reading.props
        if e.flip_effect:
            props |= {"flip"}
        self.place_activated(e, c, props)
        link_no = len(self.chain) + 1
        if e.chain_link is not None and e.chain_link != link_no:
            self.report(R_LINK, e, M("written as chain link {written}, but it is chain link {link}",
                        written=e.chain_link, link=link_no),
                        M("write `CL{link}` (a `resolve` line may be missing before it)", link=link_no)
                        if e.chain_link < link_no else M("write `CL{link}`", link=link_no))
        known = facts.known
        speed = spell_speed(props) if known else None
        if known:
            self.check_chain(e, props, speed)
            if self.in_damage_step and not reading.unlisted:
                self.check_damage_step(e, props, c)
        elif self.in_damage_step and self.timing is not None and not self.amend(
                "card.unknown", e, e.card, M("whether it may be activated at {timing} is not decided",
                                             timing=timing(self.timing))):
            self.report(R_UNDECIDED, e, M('cannot decide whether "{card}" may be activated at '
                        "{timing}: it is not in the catalog and the log gives no properties",
                        card=self.card_name(e.card), timing=timing(self.timing)),
                        M("give its properties inline, e.g. {quick-play, atk-mod}"), card=e.card)
        self.check_targets_and_cost(e, props, c)
        self.chain.append(Link(e, c.key, e.player, props, speed))

    def place_activated(self, e: ev.Activate, c: Card, props: frozenset[str]) -> None:
        """Where an activated card is: the `from` clause, else where the log last put it, else where its
        effect is used from (a Spell/Trap or a flip effect: the field)."""
        if c.zone is None:
            zones = effect_zones(props)
            if e.from_zone:
                c.zone = e.from_zone
            elif len(zones) == 1:  # an effect used only from one place (a hand trap: the hand)
                c.zone = next(iter(zones))
            elif props & SPELL_TRAP_KINDS or props & {"flip"}:
                c.zone = "field"
            c.controller = e.player
        elif e.from_zone:
            c.zone = e.from_zone

    def choose_reading(self, e: ev.Activate, facts: CardFacts, c: Card, just_moved: bool) -> ygo_effects.Reading:
        """The effect the line means: the one it names, or, where it leaves the choice open, the first of the
        readings the log allows that is legal here (the likeliest if none is), named in an info finding."""
        options, open_choice = ygo_effects.readings(facts, effect=e.effect, trigger=e.trigger, flip=e.flip_effect)
        if options[0].unlisted:
            what = M('a {clause} of "{card}"', clause=options[0].unlisted, card=self.card_name(e.card))
            where = (M("neither the catalog nor the log's properties list {what}", what=what) if facts.inline else
                     M("the catalog does not list {what}", what=what))
            if self.in_damage_step:
                said = M("{where}; the line is a fact about the match: it is checked as a {clause} (chain and spell "
                         "speed), not against a Damage Step clause", where=where, clause=options[0].unlisted)
            else:
                said = M("{where}; the line is a fact about the match: it is checked as a {clause} (chain and spell "
                         "speed)", where=where, clause=options[0].unlisted)
            self.report(R_UNLISTED, e, said, M("add the effect to the catalog, or give its properties inline"),
                        card=e.card)
            return options[0]
        if not open_choice:
            return options[0]
        label = self.card_name(e.card)
        zone = e.from_zone or c.zone
        order = ygo_effects.ranked(options, zone=zone, targets=bool(e.targets), just_moved=just_moved)
        chosen = next((r for r in order if not self.would_err(e, r.props, c)), None)
        legal = chosen is not None
        chosen = chosen or order[0]
        others = [r for r in order if r is not chosen]
        why = (M("the first of them that may be activated here") if legal else
               M("none of them may be activated here, so this one is judged"))
        sources = getattr(facts.info, "effect_sources", ()) if not facts.inline else ()

        def named(r: ygo_effects.Reading) -> Msg:  # imported card data: where the effect was read
            source = sources[r.number - 1] if r.number and r.number <= len(sources) else ""
            if source:
                return M("effect {number} ({what}; {source})", number=r.number, what=r.describe(), source=source)
            return M("effect {number} ({what})", number=r.number, what=r.describe())

        said = M('the log does not say which effect of "{card}" is activated; taken as {reading}, {why}',
                 card=label, reading=named(chosen), why=why)
        if others:
            said = M("{message}; the others: {readings}", message=said, readings=join((named(r) for r in others), SEMI))
        self.report(R_ASSUMED, e, said, M("write `effect {number}` (or `trigger`, `flip effect`) to say which",
                                          number=chosen.number), card=e.card)
        return chosen

    def would_err(self, e: ev.Activate, props: frozenset[str], c: Card) -> bool:
        """Would this reading of the line give an error? (A dry run of the checks; nothing is kept.)"""
        findings, reported = self.findings, self._reported
        touched = [c] + ([self.card(e.cost_card)] if e.cost_card is not None else [])
        saved = [(x, x.zone, x.controller, x.destroyed_by_battle, x.battle_fate) for x in touched]
        left = set(self.battle.left_field) if self.battle else None
        self.findings, self._reported = [], set(reported)
        try:
            self.place_activated(e, c, props)
            speed = spell_speed(props)
            self.check_chain(e, props, speed)
            if self.in_damage_step:
                self.check_damage_step(e, props, c)
            self.check_targets_and_cost(e, props, c)
            return any(f.severity is Severity.ERROR for f in self.findings)
        finally:
            self.findings, self._reported = findings, reported
            for x, zone, controller, destroyed, fate in reversed(saved):
                x.zone, x.controller, x.destroyed_by_battle, x.battle_fate = zone, controller, destroyed, fate
            if self.battle and left is not None:
                self.battle.left_field = left

    def check_chain(self, e: ev.Activate, props: frozenset[str], speed: int | None) -> None:
        if not self.chain or speed is None:
            return
        prev = self.chain[-1]
        if prev.speed == 3 and speed != 3:
            self.report(R_COUNTER_ONLY, e, M('"{card}" (spell speed {speed}) responds to a Counter Trap; '
                        "only a Counter Trap (spell speed 3) can", card=self.card_name(e.card), speed=speed),
                        M("activate it in a new chain after this one resolves"), card=e.card)
            return
        all_triggers = all(is_trigger_effect(l.props) for l in self.chain)
        if speed == 1 and all_triggers and is_trigger_effect(props):
            self.check_trigger_order(e, props)
            return
        if prev.speed is not None and speed < prev.speed or speed == 1:
            self.report(R_SPEED, e, M('"{card}" has spell speed {speed} and cannot be chained to '
                        "chain link {link} (spell speed {previous})", card=self.card_name(e.card), speed=speed,
                        link=len(self.chain), previous=prev.speed),
                        M("a spell speed 1 effect can only start a chain (CL1), except triggers that trigger "
                          "at the same time"), card=e.card)

    def check_trigger_order(self, e: ev.Activate, props: frozenset[str]) -> None:
        def rank(player: str | None, p: frozenset[str]) -> int:
            mine = player == self.turn_player
            return (0 if mine else 1) if "mandatory" in p else (2 if mine else 3)

        prev = self.chain[-1]
        if self.turn_player is None:
            return
        if rank(e.player, props) < rank(prev.player, prev.props):
            self.report(R_TRIGGER_ORDER, e, M('"{card}" is chained after "{other}", but '
                        "triggers that trigger together go on the chain turn player's mandatory, opponent's "
                        "mandatory, turn player's optional, then opponent's optional", card=self.card_name(e.card),
                        other=self.card_name(prev.event.card)),
                        M("put it before the other trigger's link"), card=e.card, related=[prev.event])

    def check_damage_step(self, e: ev.Activate, props: frozenset[str], c: Card) -> None:
        """The Damage Step rows: the first restriction that applies decides; else one allowing clause is
        enough (once per specific timing aside); else the clause that fits the effect names the timings."""
        t = self.timing
        assert t is not None
        act = Act(e, props, c, t, e.card)
        for guard in DS_RESTRICTIONS:
            if guard.fails(self, act):
                self.report_guard(guard, act)
                return
        word = waits_for(props)
        if word is not None and not self.ds_in_log and not self.event_seen(word, c.key if own_event(props) else None):
            self.report(R_EVENT_ASSUMED, e, M('"{card}" answers an event ({event}) that the log does not show; the '
                        "log starts inside this Damage Step, after where it could have happened: assumed that it "
                        "happened", card=self.card_name(e.card), event=word),
                        M("write the event before the activation to have it checked"), card=e.card)
        allowing, once = damage_step_clauses(props, t, self.rules)
        if allowing:
            # once per specific timing binds only if every allowing clause is bound by it here
            if once and t in self.resolved_at and not self.chain:
                self.report(R_ONCE, e, M('"{card}" may be activated at {timing} only in the first chain built '
                            "there, and a chain has already resolved at this {timing}", card=self.card_name(e.card),
                            timing=timing(t)),
                            M("it could only have been chained to that chain (before it resolved)"), card=e.card)
            return
        label = self.card_name(e.card)
        applicable = [cl for cl in CLAUSES if cl.applies(props) and cl.late_rule]
        if applicable:
            cl = applicable[0]
            allowed = sorted(clause_timings(cl, props, self.rules))
            lines = join((f"`timing {x.word}`" for x in allowed), OR)
            if cl.name in REVISIONS["mr2"].timings and self.rules == "current":
                hint = M('activate it under {lines} (before Master Rule 3, [Rules "mr2"], damage calculation was '
                         "allowed too)", lines=lines)
            else:
                hint = M("activate it under {lines}", lines=lines)
            self.report(cl.late_rule, e, M('"{card}" {says}: in the Damage Step it may be activated only at '
                        "{allowed}, not at {timing}", card=label, says=cl.says, allowed=timings(allowed),
                        timing=timing(t)), hint if allowed else "", card=e.card)
            return
        what = effect_words(props)
        self.report(R_NOT_ALLOWED, e, M('"{card}" ({what}) cannot be activated in the Damage Step: no clause of '
                    "the Damage Step list allows it", card=label, what=what), M("only counter traps, mandatory "
                    "effects, activation negators, ATK/DEF changers (until before-calc), triggers on the card itself "
                    "or on a battle, and effects that name the timing may be activated; see `replayer rules ygo`"),
                    card=e.card)

    def check_targets_and_cost(self, e: ev.Activate, props: frozenset[str], c: Card) -> None:
        """Every row of :data:`ACTIVATION_GUARDS` is checked (each is its own mistake): those on the targets
        and the cost, then the cost is paid (a card that tributes itself has left the field), then those on
        the activated card."""
        # the guards on the activated card (before and after the cost) look at the same Act: one for them all
        own = Act(e, props, c, self.timing, e.card) if e.card is not None else None
        for guard in ACTIVATION_GUARDS:
            if guard.on != "card":
                self.run_guard(guard, e, props, c, own)
        if e.cost_card is not None:
            cost = self.card(e.cost_card)
            if e.cost == "discard":
                self.happen("discarded", cost.key, e.player)
                self.happen("to-grave", cost.key, e.player)
                cost.zone = "gy"
            elif e.cost in ("send", "tribute"):
                if e.cost == "tribute":
                    self.happen("released", cost.key, e.player)
                self.leave_field(cost, "gy")
        for guard in ACTIVATION_GUARDS:
            if guard.on == "card":
                self.run_guard(guard, e, props, c, own)

    def run_guard(self, guard: "Guard", e: ev.Activate, props: frozenset[str], c: Card,
                  own: Act | None = None) -> None:
        """``own``: the Act of the activated card (``e.card``) at this timing, when the caller has it."""
        on = guard.on
        if on != "target" and on != "cost":
            if e.card is not None:
                act = own if own is not None else Act(e, props, c, self.timing, e.card)
                if guard.fails(self, act):
                    self.report_guard(guard, act)
            return
        for ref in (e.targets if on == "target" else (e.cost_card,)):
            if ref is not None:
                act = Act(e, props, c, self.timing, ref)
                if guard.fails(self, act):
                    self.report_guard(guard, act)

    def report_guard(self, guard: "Guard", act: "Act") -> None:
        message, hint = guard.say(self, act)
        self.report(guard.rule, act.event, message, hint, card=act.ref)

    # ---- the rules table, for `replayer rules ygo` -----------------------------------------------
    @classmethod
    def describe(cls, lang: str = "en") -> str:
        return describe_table(lang)

    @classmethod
    def describe_json(cls) -> dict:
        return describe_json()
