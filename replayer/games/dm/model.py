"""Duel Masters: the attack procedure, the handlers that apply the rules to a log.

The model replays a log's events, keeps the state the log tells (turn and turn player, each
creature's tapped state, when it entered and where it is, the shields, the current attack and
its sub-step, the abilities waiting to resolve and whose they are) and reports what the rules do
not allow. A finding does not stop the replay: the event is taken to have happened. Everything
is decided from card properties (catalog plus inline ``{...}``); a card whose properties are not
known is never the reason for an error. The tables and guards, with their citations, are
:mod:`replayer.games.dm.rules`; the records of the state it keeps, :mod:`replayer.games.dm.attack`.
"""

from __future__ import annotations

from dataclasses import replace

from ... import events as ev
from ...numbers import whole_number
from ...replay import Model
from .abilities import NOTHING_PRINTED, POWER_ATTACKER, POWER_PLUS, Printed, Static, applies, numbers, printed_of
from .attack import AttackState, Breaks, Creature, Deferred, Waiting, Window, other
from .rules import (ABILITY_OF, ATTACK_GUARDS, DECLARATION_GUARDS, Declaration, Defence, Fighter, LINES,
                    LINE_BY_KIND, Need, R_ABORTED, R_ACTIVE_FIRST, R_BACKWARDS, R_BATTLE_OPPONENT,
                    R_BATTLE_RESULT, R_BREAK_COUNT, R_CANNOT_BE_ATTACKED, R_CANNOT_BLOCK, R_EARLY_TRIGGER,
                    R_END_ABILITY_LEFT, R_END_BEFORE_AFTER, R_ENTERED_THIS_TURN, R_NINJA_AFTER_BLOCK,
                    R_NINJA_BEFORE_TRIGGERS, R_NINJA_NO_BLOCK, R_NOT_PLAYER, R_NOT_READ, R_NOT_TURN_PLAYER,
                    R_ONE_BLOCKER, R_REDIRECT_TARGET, R_SHIELDS_LEFT, R_SPELL_FIRST, R_STRIGGER_MORE,
                    R_STRIGGER_NO_ABILITY, R_STRIGGER_NO_BREAK, R_TURN_PLAYER_FIRST, R_UNBLOCKABLE,
                    R_UNTAPPED_TARGET, SHOWINGS, STATE_WORDS, TAKES_OVER, battle_outcome, describe_table,
                    line_kind, quote, reached_step, row_label, shields_to_break, slain, unblockable)
from .vocabulary import AttackStep
from .words import THE_PLAYER, M, ability_term, line_term
from ...i18n import AND, COMMA, OR, Msg, card_name, join

_END = AttackStep.END
_OUTCOME = AttackStep.BATTLE.number  # sub-step 6, whichever its case


# ---- the model -------------------------------------------------------------------------------
class DmModel(Model):
    game = "dm"
    #: a card's static abilities and unread sentences, by card and properties (derived from the card data: no state)
    NOT_STATE = Model.NOT_STATE | {"_printed"}

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self.turn: int | None = None  # the number the log gives
        self.turn_index = 0  # how many `turn` lines so far: summoning sickness does not trust the numbers
        self.turn_player: str | None = None
        self.creatures: dict[str, Creature] = {}
        self.tapped: set[str] = set()  # the keys of the tapped creatures (Creature.tapped reads it)
        n = whole_number(match.header.get("Shields", "5"))
        if n is None:
            n = 5  # the reader reported the bad tag
        self.shields: dict[str, int] = {"A": n, "B": n}
        self.attack: AttackState | None = None
        self.waiting: list[Waiting] = []
        self.deferred: list[Deferred] = []
        self.window: Window | None = None
        self.early_triggers: dict[str, ev.Event] = {}  # attack triggers written outside an attack of theirs
        self.previous_kind: str | None = None
        self.second_go_reported = False  # the line being placed was reported as a second go
        self._ids = 0
        #: the creatures whose cards have static abilities on other creatures (in the battle zone or not)
        self.static_sources: dict[str, tuple[Static, ...]] = {}
        self._printed: dict[tuple[str, frozenset[str]], Printed] = {}
        self.field_unread: set[str] = set()  # creatures whose text has an unread ability on other creatures
        self.unread_told: set[tuple[str, str]] = set()  # (card, own | field) whose unread abilities an info named

    # ---- cards --------------------------------------------------------------------------
    def props_of(self, ref: ev.CardRef) -> tuple[frozenset[str], bool]:
        """The card's abilities (catalog and inline, state words left out) and whether they are known."""
        facts = self.facts_of(ref)
        return facts.effect_props() - STATE_WORDS, facts.known

    def props_of_creature(self, key: str) -> tuple[frozenset[str], bool]:
        c = self.creatures.get(key)
        facts = self.facts.get(c.name_key) if c is not None else None
        if facts is None:
            return frozenset(), False
        return facts.effect_props() - STATE_WORDS, facts.known

    def abilities_of(self, key: str) -> tuple[frozenset[str], bool]:
        """A creature's abilities now: its own (:meth:`props_of_creature`) and those the static abilities of
        the cards in the battle zone give it (docs/rules-dm.md §12)."""
        props, known = self.props_of_creature(key)
        if not self.static_sources:
            return props, known
        c = self.creatures.get(key)
        if c is None:
            return props, known
        facts = self.facts.get(c.name_key)
        power = facts.power if facts is not None else None
        given: set[str] = set()
        for skey, statics in self.static_sources.items():
            source = self.creatures.get(skey)
            if source is None or not source.in_play:
                continue
            for st in statics:
                if not st.gives <= props and applies(st, skey, source.owner, key, c.owner, props, power,
                                                     self.shields):
                    given |= st.gives
        return (props | given if given else props), known

    def givers(self, key: str, word: str) -> list[Creature]:
        """The creatures in the battle zone whose static abilities give the creature ``key`` the word."""
        c = self.creatures.get(key)
        if c is None:
            return []
        props, _ = self.props_of_creature(key)
        facts = self.facts.get(c.name_key)
        power = facts.power if facts is not None else None
        out = []
        for skey, statics in self.static_sources.items():
            source = self.creatures.get(skey)
            if source is not None and source.in_play and any(
                    word in st.gives and applies(st, skey, source.owner, key, c.owner, props, power, self.shields)
                    for st in statics):
                out.append(source)
        return out

    def names_of(self, creatures: list[Creature]) -> Msg:
        return join((self.quoted(c.label, c.name_key) for c in creatures), AND) if creatures else M("a card")

    def quoted(self, label: str, name_key: str | None = None) -> Msg:
        """A card named in a message, quoted: ``"Bolshack Dragon"`` (the catalog's name in the reader's language)."""
        facts = self.facts.get(name_key if name_key is not None else self._name_keys.get(label, ""))
        return M('"{card}"', card=card_name(label, facts.info.names if facts is not None and facts.info else None))

    def quoted_ref(self, ref: ev.CardRef) -> Msg:
        return M('"{card}"', card=self.card_name(ref))

    def printed(self, name_key: str) -> Printed:
        """The card's static abilities and unread sentences (:func:`~.abilities.printed_of`), read once."""
        facts = self.facts.get(name_key)
        if facts is None or facts.info is None and not facts.props:
            return NOTHING_PRINTED
        hit = self._printed.get((name_key, facts.props))
        if hit is None:
            hit = self._printed[(name_key, facts.props)] = printed_of(facts.info, facts.props)
        return hit

    def note_statics(self, c: Creature) -> None:
        p = self.printed(c.name_key)
        if p.statics:
            self.static_sources[c.key] = p.statics
        elif c.key in self.static_sources:
            del self.static_sources[c.key]
        if p.field_unread:
            self.field_unread.add(c.key)

    def power_in_battle(self, key: str, ref: ev.CardRef, attacking: bool) -> int | None:
        """The power that counts in the battle: the `battle` line's own number, else the card's power with
        its power bonuses (and, for the attacker, its power attacker bonus: sub-step 2)."""
        if ref.power is not None:
            return ref.power
        c = self.creatures.get(key)
        facts = self.facts.get(c.name_key) if c is not None else None
        if facts is None or facts.power is None:
            return None
        props, _ = self.abilities_of(key)
        bonus = sum(numbers(props, POWER_PLUS)) + (sum(numbers(props, POWER_ATTACKER)) if attacking else 0)
        return facts.power + bonus

    def tell_unread(self, e: ev.Event, keys, *, field: bool = False) -> None:
        """An info for each card among ``keys`` (and, with ``field``, each card in the battle zone) whose text has
        an ability about the attack that no pattern reads: nothing is applied for it (once a card)."""
        todo = [(k, "own") for k in keys if k is not None]
        if field and self.field_unread:
            todo += [(k, "field") for k in sorted(self.field_unread) if self.creatures[k].in_play]
        for key, about in todo:
            c = self.creatures.get(key)
            if c is None:
                continue
            p = self.printed(c.name_key)
            lines = p.own_unread if about == "own" else p.field_unread
            if not lines or (c.name_key, about) in self.unread_told:
                continue
            self.unread_told.add((c.name_key, about))
            said = M("{card} has an ability replayer does not read from its text, so this line is judged without "
                     "it: {text}", card=self.quoted(c.label, c.name_key), text=lines[0])
            if len(lines) > 1:
                said = M("{message} (and {n} more)", message=said, n=len(lines) - 1)
            self.report(R_NOT_READ, e, said, M("if it changes this line, give its effect inline, e.g. {card} "
                                               "{cannot-be-blocked}", card=quote(c.label)))

    def creature(self, ref: ev.CardRef, owner: str | None) -> Creature:
        """The creature a line mentions. A first mention (or one after it left) places it in the battle
        zone, untapped and not summoning sick (notation §3), unless its state words say otherwise."""
        key = self.card_key(ref)
        c = self.creatures.get(key)
        if c is None:
            c = self.creatures[key] = Creature(key, self.card_name_key(ref), ref.label, owner, taps=self.tapped,
                                               born=len(self.creatures))
        elif not c.in_play:
            c.in_play, c.tapped, c.entered = True, False, None
        if c.owner is None:
            c.owner = owner
        if ref.props or (c.key not in self.static_sources and c.key not in self.field_unread):
            self.note_statics(c)
        return self.apply_state_words(c, ref)

    def enter(self, ref: ev.CardRef, owner: str | None, *, tapped: bool = False) -> Creature:
        """A creature enters the battle zone now (it is summoning sick this turn)."""
        key = self.card_key(ref)
        old = self.creatures.get(key)
        c = self.creatures[key] = Creature(key, self.card_name_key(ref), ref.label, owner, entered=self.turn_index,
                                           taps=self.tapped, born=old.born if old else len(self.creatures))
        c.tapped = tapped
        self.note_statics(c)
        return self.apply_state_words(c, ref)

    def apply_state_words(self, c: Creature, ref: ev.CardRef) -> Creature:
        words = set(ref.props)
        if "tapped" in words:
            c.tapped = True
        if "untapped" in words:
            c.tapped = False
        if "summoned" in words:
            c.entered = self.turn_index
        return c

    def owner_in_battle(self, key: str) -> str | None:
        c = self.creatures.get(key)
        if c is not None and c.owner is not None:
            return c.owner
        a = self.attack
        if a is None:
            return None
        return a.player if key == a.attacker else a.defender

    # ---- the sub-step of each line ------------------------------------------------------------
    def step_in(self, e: ev.Event) -> bool:
        """Place a line in the current attack: close what it closes, infer its sub-step from
        :data:`LINES` and report a line that goes back or comes too late. False: the line is void
        (the attack was aborted, or did not reach the player) and its own checks are skipped."""
        kind = line_kind(e, self.turn_player)
        previous, self.previous_kind = self.previous_kind, kind
        self.second_go_reported = False
        if self.window is not None and kind not in ("destroy", "move"):
            self.close_window()
        a = self.attack
        row = LINE_BY_KIND.get(kind or "")
        if a is None or row is None:
            return True
        if row.needs is not Need.NOTHING and a.aborted:
            self.report(R_ABORTED, e, M("the attack was aborted when {card} left the battle zone; "
                        "there is no {line} any more", card=self.name(a.aborted_by), line=line_term(kind)),
                        M("after an abort the waiting abilities resolve and the attack ends (`attack ends`)"),
                        related=[a.event])
            return False
        if row.needs is Need.PLAYER and a.aims_at is not None:
            said = (M("this attack was blocked or redirected ({card}): it ends in a battle and breaks no shield",
                      card=self.name(a.aims_at)) if a.blocked else
                    M("this attack aims at a creature ({card}): it ends in a battle and breaks no shield",
                      card=self.name(a.aims_at)))
            self.report(R_NOT_PLAYER, e, said, M("write the battle: `battle {attacker} vs {target}`",
                                                 attacker=self.plain_name(a.attacker), target=self.plain_name(a.aims_at)),
                        related=[a.event])
            return False
        again = self.second_go(e, a, kind or "", previous)
        reached = reached_step(row, a.substep)
        if reached is None:
            if not again:
                self.report(R_BACKWARDS, e, M("this line belongs to sub-step {steps}, but the attack "
                            "has already reached sub-step {step}; the sub-steps never go back",
                            steps=join(row_label(row).split(", "), OR), step=a.label),
                            M("move the line to where it happened, or check what was written after it"),
                            related=[a.event])
            return True
        a.substep = reached
        return True

    def second_go(self, e: ev.Event, a: AttackState, kind: str, previous: str | None) -> bool:
        """Report each line of a second go of something declared once, in one go (:data:`SHOWINGS`)."""
        for s in SHOWINGS:
            if kind not in s.kinds:
                continue
            if not s.consecutive or previous not in s.kinds:  # a new go
                a.goes[s.name] = a.goes.get(s.name, 0) + 1
                if kind in ABILITY_OF:
                    a.before_batch = None  # its declarations are judged on the state before it
            if a.goes[s.name] > 1:
                self.report(s.rule, e, self.second_go_message(s.message, e, a),
                            M("name everything in that one go, or remove this line"), related=[a.event])
                self.second_go_reported = True
                return True
        return False

    def second_go_message(self, message: Msg, e: ev.Event, a: AttackState) -> Msg:
        """The finding's message on a second go; a second `break` says what this line does."""
        if not isinstance(e, ev.Break) or a.breaks is None:
            return message
        b = a.breaks
        total = b.total + e.count
        more = M("{n} more shield", n=e.count) if e.count == 1 else M("{n} more shields", n=e.count)
        if b.allowed is not None and total not in b.allowed:
            return M("this line is a second `break` of the same attack: {more} after the {before} of line {line} "
                     "({total} in all, but {card} breaks {want}: {player} had {shields} shields); the attacker chooses "
                     "all its shields at once and breaks them together (one `break` line)", more=more, before=b.total,
                     line=b.event.line, total=total, card=self.name(a.attacker),
                     want=join((str(n) for n in sorted(b.allowed)), OR), player=a.defender, shields=b.shields)
        return M("this line is a second `break` of the same attack: {more} after the {before} of line {line} "
                 "({total} in all); the attacker chooses all its shields at once and breaks them together (one "
                 "`break` line)", more=more, before=b.total, line=b.event.line, total=total)

    # ---- structure ------------------------------------------------------------------------
    def handle_Turn(self, e: ev.Turn) -> None:
        self.step_in(e)
        self.close_attack()
        self.attack = None
        self.turn, self.turn_player = e.number, e.player
        self.turn_index += 1
        creatures = self.creatures
        mine = [key for key in self.tapped if creatures[key].owner == e.player]
        self.tapped.difference_update(mine)  # the turn player's creatures untap
        self.waiting.clear()
        self.deferred.clear()
        self.early_triggers.clear()

    def handle_Phase(self, e: ev.Phase) -> None:
        self.step_in(e)
        self.close_attack()
        self.attack = None

    def handle_MainAction(self, e: ev.MainAction) -> None:
        self.step_in(e)
        if e.verb == "summon":
            self.enter(e.card, e.player)
            self.cip(e.card, e.player)
        elif e.verb == "charge":
            self.leave_play(e, e.card)

    def handle_Tap(self, e: ev.Tap) -> None:
        self.step_in(e)
        self.creature(e.card, e.player).tapped = e.tapped

    def handle_Win(self, e: ev.Win) -> None:
        self.step_in(e)

    def finish(self) -> None:
        self.close_window()
        self.close_attack()

    # ---- sub-step 1: the declaration --------------------------------------------------------
    def handle_Attack(self, e: ev.Attack) -> None:
        self.close_attack()
        self.attack = None
        self.step_in(e)
        player = e.player
        if self.turn_player is None:
            self.turn_player = player  # an excerpt without a `turn` line
        attacker = self.creature(e.attacker, player)
        target = self.creature(e.target, other(player)) if e.target is not None else None
        early = self.early_triggers.pop(attacker.key, None)
        self.early_triggers.clear()
        if early is not None:
            self.report(R_EARLY_TRIGGER, early, M("{card}'s attack trigger is written before its "
                        "attack is declared; an attack trigger exists only once the attacker and its target "
                        "are chosen", card=self.name(attacker.key)), M("write the `attack` line first (the target "
                        "cannot be a creature the trigger tapped)"), card=self._card_of(early), related=[e])
        if player != self.turn_player:
            self.report(R_NOT_TURN_PLAYER, e, M("{player} attacks during {turn_player}'s turn; only the turn "
                        "player attacks", player=player, turn_player=self.turn_player),
                        M("a `turn N {player}` line may be missing", player=str(player)), card=e.attacker)
        else:
            props, known = self.abilities_of(attacker.key)
            t_props, t_known = self.abilities_of(target.key) if target is not None else (frozenset(), False)
            d = Declaration(attacker, props, known, attacker.entered == self.turn_index, target, t_props, t_known)
            self.tell_unread(e, (attacker.key, target.key if target else None), field=True)
            for group in ATTACK_GUARDS:
                guard = next((g for g in group if g.fails(d)), None)
                if guard is not None:
                    by = "" if "cannot-be-attacked" in t_props else M(" by {card}", card=self.quoted_ref(e.attacker))
                    givers = self.givers(attacker.key, "cannot-attack-turn-entered") \
                        if guard.rule == R_ENTERED_THIS_TURN else []
                    fill = {"card": self.quoted_ref(e.attacker), "target": self.quoted_ref(e.target) if e.target else "",
                            "by": by, "source": self.names_of(givers), "written": quote(e.attacker.label)}
                    where = e.target if guard.rule in (R_UNTAPPED_TARGET, R_CANNOT_BE_ATTACKED) and e.target \
                        else e.attacker
                    self.report(guard.rule, e, guard.message.replace(**fill), guard.hint.replace(**fill), card=where,
                                rests_on=givers[0].name_key if givers else None)
        attacker.tapped = True
        self.waiting.clear()  # abilities from before the attack have resolved by now
        self.deferred.clear()
        aim = target.key if target else None
        self.attack = AttackState(e, player, other(player), attacker.key, target=aim, aims_at=aim)

    # ---- abilities (sub-steps 3, 5, 6, 7) --------------------------------------------------------
    def new_waiting(self, owner: str | None, ref: ev.CardRef, **kw) -> Waiting:
        self._ids += 1
        w = Waiting(self._ids, owner, self.card_key(ref), ref.label, **kw)
        self.waiting.append(w)
        return w

    def cip(self, ref: ev.CardRef, owner: str | None, *, source: str = "cip", batch: int | None = None) -> None:
        """A creature entered: its cip ability (if it has one) waits, not yet named by a `trigger` line."""
        props, _ = self.props_of(ref)
        if "cip" in props:
            self.new_waiting(owner, ref, source=source, batch=batch, named=False)

    def handle_TriggerAbility(self, e: ev.TriggerAbility) -> None:
        self.step_in(e)
        self.trigger(e, e.player, e.card)

    def trigger(self, e: ev.Event, player: str | None, ref: ev.CardRef) -> Waiting:
        key = self.card_key(ref)
        entering = next((w for w in self.waiting if w.owner == player and w.key == key and not w.named), None)
        if entering is not None:  # the log names an ability that is already waiting
            entering.named = True
            return entering
        props, known = self.props_of(ref)
        a = self.attack
        after_only = "after-attack" in props and "end-of-attack" not in props
        at_end = a is not None and a.ended and not after_only
        if at_end and "end-of-attack" in props:
            c = self.creatures.get(key)
            if c is not None and not c.in_play:
                self.report(R_END_ABILITY_LEFT, e, M('{card} has left the battle zone: its "at the end '
                            'of the attack" ability does not trigger', card=self.quoted_ref(ref)),
                            M('remove the trigger and its resolve; (an "after the attack" ability would still resolve)'),
                            card=ref)
        outside = a is None or (a.ended and not props & {"end-of-attack", "after-attack"})
        if outside and known and "attack-trigger" in props:
            self.early_triggers.setdefault(key, e)
        return self.new_waiting(player, ref, at_end=at_end)

    def handle_ResolveAbility(self, e: ev.ResolveAbility) -> None:
        self.step_in(e)
        key = self.card_key(e.card)
        w = next((w for w in self.waiting if w.owner == e.player and w.key == key), None)
        if w is None:  # logs may leave out the `trigger` line
            w = self.trigger(e, e.player, e.card)
        self.resolve(e, w)

    def handle_ResolveAll(self, e: ev.ResolveAll) -> None:
        self.step_in(e)
        order = {"s-trigger spell": 0}
        for w in sorted(self.waiting, key=lambda w: (w.owner != self.turn_player, not w.at_end,
                                                     order.get(w.source, 1), w.id)):
            self.resolve(e, w, check=False)

    def slot(self, w: Waiting) -> tuple:
        """When an ability resolves: its sub-step, and in sub-step 7 whether it is an end-of-attack one."""
        a = self.attack
        if a is None:
            return (None,)
        sub = a.substep  # the cases of sub-step 6 are one sub-step here
        return (sub.number, w.at_end if sub is _END else None)

    def resolve(self, e: ev.Event, w: Waiting, *, check: bool = True) -> None:
        a = self.attack
        if a is not None and a.blocked and a.substep is AttackStep.BLOCK_TRIGGERS and w.owner == a.defender \
                and a.block_abilities_resolved is None:
            a.block_abilities_resolved = e  # a "when it blocks" ability of the blocking player resolved
        if check and w.source == "s-trigger creature":
            spell = next((x for x in self.waiting if x.source == "s-trigger spell" and x.batch == w.batch), None)
            if spell is not None:
                self.report(R_SPELL_FIRST, e, M("the cip ability of the S-Trigger creature {card} resolves "
                            "while the S-Trigger spell {spell} of the same break waits; S-Trigger "
                            "spells resolve first", card=self.quoted(w.label, w.key), spell=self.quoted(spell.label, spell.key)),
                            M("resolve {card} first", card=self.quoted(spell.label, spell.key)))
        if check and a is not None and a.ended and not w.at_end:
            end = next((x for x in self.waiting if x.at_end and x is not w), None)
            if end is not None:
                self.report(R_END_BEFORE_AFTER, e, M("{card}'s ability resolves after the attack while "
                            '{other}\'s "at the end of the attack" ability waits; end-of-attack '
                            "abilities resolve first", card=self.quoted(w.label, w.key), other=self.quoted(end.label, end.key)),
                            M("resolve {card} first", card=self.quoted(end.label, end.key)))
        self.waiting.remove(w)
        slot = self.slot(w)
        if w.owner == self.turn_player:
            self.settle(w, slot)
        elif a is not None and check:
            self.defer(R_ACTIVE_FIRST, e, slot, M("{player} resolves {card} while the turn player's "
                       "{waiting} waits; the turn player's waiting abilities resolve first", player=w.owner,
                       card=self.quoted(w.label, w.key)), M("resolve the turn player's abilities first"))

    def defer(self, rule: str, e: ev.Event, slot: tuple, message: Msg, hint: Msg) -> None:
        """The turn player's abilities wait: this line is a mistake if one of them resolves in ``slot``."""
        mine = {w.id: w for w in self.waiting if w.owner == self.turn_player}
        if mine:
            waiting = {quote(w.label): self.quoted(w.label, w.key) for w in mine.values()}
            labels = join((waiting[k] for k in sorted(waiting)), COMMA)
            self.deferred.append(Deferred(rule, e, set(mine), slot, message.replace(waiting=labels), hint))

    def settle(self, w: Waiting, slot: tuple) -> None:
        for d in list(self.deferred):
            if w.id not in d.ids:
                continue
            if d.slot == slot:
                self.report(d.rule, d.event, d.message, d.hint, related=[self.event] if self.event else [])
                self.deferred.remove(d)
            else:  # it waited on into another sub-step (e.g. an "after the attack" ability)
                d.ids.discard(w.id)
                if not d.ids:
                    self.deferred.remove(d)

    # ---- declarations (sub-steps 3 and 5) -------------------------------------------------------
    def handle_Declare(self, e: ev.Declare) -> None:
        self.step_in(e)
        a = self.attack
        if a is not None:
            self.check_declaration(e, a)
        props, _ = self.props_of(e.card)
        if e.what == "revolution-0" and "creature" not in props:
            self.new_waiting(e.player, e.card, named=False)  # a revolution 0 spell waits to resolve
            return
        # an invader goes on top of the (tapped) attacker; a revolution change puts the new creature in untapped
        new = self.enter(e.card, e.player, tapped=e.what == "invade" and a is not None)
        if a is not None and e.what in TAKES_OVER:
            if a.aborted_by == a.attacker:
                a.aborted_by = None  # the old attacker left in the swap: not an abort
            a.attacker = new.key
        self.cip(e.card, e.player)

    def check_declaration(self, e: ev.Declare, a: AttackState) -> None:
        if e.what == "ninja-strike" and e.player == self.turn_player:
            if not a.blocked:
                self.report(R_NINJA_NO_BLOCK, e, M("the turn player's ninja strike is declared in sub-step 5, and only "
                            "when the attack was blocked; nothing blocked this attack"),
                            M("remove the ninja strike, or write the block before it"), card=e.card)
            elif a.block_abilities_resolved is not None:
                self.report(R_NINJA_AFTER_BLOCK, e, M("the turn player's ninja strike is declared after the blocking "
                            'player\'s "when it blocks" ability resolved; after a block the turn player declares '
                            "ninja strike before the blocking player's abilities resolve"),
                            M("write the ninja strike before the blocking player's `resolve` line"), card=e.card,
                            related=[a.block_abilities_resolved])
        elif e.what in TAKES_OVER and e.player == self.turn_player:
            if a.nonturn_declared is not None:
                what = line_term(e.what)
                self.report(R_TURN_PLAYER_FIRST, e, M("{player} declares {what} after {other}'s "
                            "ninja strike or revolution 0; in sub-step 3 the turn player's attack triggers, invasion "
                            "and revolution change come first, the non-turn player's declarations after them",
                            player=e.player, what=what, other=a.nonturn_declared.player),
                            M("write the {what} before the non-turn player's declaration", what=what), card=e.card,
                            related=[a.nonturn_declared])
        elif e.what in ("ninja-strike", "revolution-0") and e.player != self.turn_player:
            if a.nonturn_declared is None and a.substep is AttackStep.ATTACK_TRIGGERS:
                a.nonturn_declared = e
            self.defer(R_NINJA_BEFORE_TRIGGERS, e, (AttackStep.ATTACK_TRIGGERS.number, None),
                       M("{player} declares {what} while the turn player's {waiting} waits; the non-turn player "
                         "declares ninja strike and revolution 0 after the turn player's attack triggers resolved",
                         player=e.player, what=line_term(e.what)),
                       M("write the declaration after the turn player's `resolve` lines"))

    # ---- sub-step 4 ----------------------------------------------------------------------------
    def handle_Block(self, e: ev.Block) -> None:
        if self.step_in(e):
            self.declare(e, "guardman" if e.guardman else "block", e.card, None)

    def handle_Redirect(self, e: ev.Redirect) -> None:
        if self.step_in(e):
            self.declare(e, "redirect", e.card, e.target)

    def declare(self, e: ev.Event, kind: str, ref: ev.CardRef, dest: ev.CardRef | None) -> None:
        a = self.attack
        c = self.creature(ref, e.player)
        d_c = self.creature(dest, e.player) if dest is not None else None
        if a is None:
            return
        if a.before_batch is None:
            a.before_batch = (frozenset(self.tapped), len(self.creatures), a.aims_at)
        tapped_before, known_before, aim_before = a.before_batch

        def was_tapped(x: Creature) -> bool:  # before the declarations (a creature first named since: now)
            return x.key in tapped_before if x.born < known_before else x.tapped
        if kind == "block":
            if a.blocks and not self.second_go_reported:
                self.report(R_ONE_BLOCKER, e, M("{card} is declared as a second blocker of this attack; "
                            "one blocker blocks an attack (it is chosen and tapped)", card=self.quoted_ref(ref)),
                            M("keep one `block with` line"), card=ref, related=[a.event])
                a.blocks += 1
                return  # the first blocker's block stands: the attack still aims at it
            a.blocks += 1
        props, known = self.abilities_of(c.key)
        a_props, a_known = self.abilities_of(a.attacker)
        facts = self.facts.get(c.name_key)
        d = Defence(kind, props, known, was_tapped(c), aim_before is None,
                    d_c.key if d_c else None,
                    was_tapped(d_c) if d_c else True,
                    d_c is None or d_c.key == c.key,
                    a_props, a_known, a.target is not None,
                    self.power_in_battle(c.key, ref, False) if facts is not None else None,
                    kind == "block" and self.printed(c.name_key).race_blocker)
        if kind == "block":
            self.tell_unread(e, (c.key, a.attacker))
        guard = next((g for g in DECLARATION_GUARDS if g.fails(d)), None)
        if guard is not None:
            why = unblockable(d) or ""
            fill = {"card": self.quoted_ref(ref), "ability": ability_term(ABILITY_OF[kind]), "word": ABILITY_OF[kind],
                    "kind": line_term(kind), "written": quote(ref.label),
                    "target": self.quoted_ref(dest) if dest else "", "why": "" if guard.rule != R_UNBLOCKABLE else why,
                    "attacker": self.name(a.attacker)}
            rests_on = None
            if guard.rule == R_CANNOT_BLOCK and "cannot-block" not in self.props_of_creature(c.key)[0]:
                givers = self.givers(c.key, "cannot-block")
                fill["why"] = M(" while {cards} is in the battle zone", cards=self.names_of(givers))
                rests_on = givers[0].name_key if givers else None
            attacker = self.creatures.get(a.attacker)
            if guard.rule == R_UNBLOCKABLE and attacker is not None:
                rests_on = attacker.name_key
            self.report(guard.rule, e, guard.message.replace(**fill), guard.hint.replace(**fill),
                        card=dest if guard.rule == R_REDIRECT_TARGET and dest else ref, rests_on=rests_on)
        if kind == "redirect":
            c.tapped = False
            a.aims_at = d_c.key if d_c else c.key
        else:
            c.tapped = True
            a.aims_at = c.key
        a.blocked = True

    # ---- sub-step 6 -----------------------------------------------------------------------------
    def handle_Battle(self, e: ev.Battle) -> None:
        if not self.step_in(e):
            return
        a = self.attack
        first = self.creature(e.first, self.owner_in_battle(self.card_key(e.first)))
        second = self.creature(e.second, self.owner_in_battle(self.card_key(e.second)) or other(first.owner))
        if a is not None and (a.aims_at is None or {first.key, second.key} != {a.attacker, a.aims_at}):
            said = (M("the battle of this attack is between {attacker} and {target}", attacker=self.name(a.attacker),
                      target=self.name(a.aims_at)) if a.aims_at else
                    M("the battle of this attack is between nobody: the attack aims at the player"))
            self.report(R_BATTLE_OPPONENT, e, said,
                        M("after a block, guardman or redirect the attack aims at the creature named last in "
                          "sub-step 4"), related=[a.event])
        self.tell_unread(e, (first.key, second.key))
        attacker = a.attacker if a is not None else None
        f1, f2 = self.fighter(e.first, first.key == attacker), self.fighter(e.second, second.key == attacker)
        if any(self.creatures[k].in_play and self.printed(self.creatures[k].name_key).field_power
               for k in self.field_unread):  # a card in the battle zone changes powers in a way not read
            self.tell_unread(e, (), field=True)
            f1, f2 = replace(f1, power_open="any"), replace(f2, power_open="any")
        outcome = battle_outcome(f1, f2)
        victims = slain(f1, f2)
        if outcome is not None:
            winners = outcome[0] - victims  # a slayer destroys the other creature after the battle
            self.window = Window(e, winners, set(outcome[1]))
        if victims and a is not None:
            a.slain = set(victims)
            a.battle_event = e

    def fighter(self, ref: ev.CardRef, attacking: bool) -> Fighter:
        key = self.card_key(ref)
        facts = self.facts_of(ref)
        props, known = self.abilities_of(key)
        return Fighter(key, self.power_in_battle(key, ref, attacking),
                       ("wins-all-battles" in props) if known else None, props if known else frozenset(),
                       self.printed(facts.key).power_open if ref.power is None else None)

    def close_window(self) -> None:
        w, self.window = self.window, None
        if w is not None and w.losers:
            names = join((n for _, n in sorted(((self.plain_name(k), self.name(k)) for k in w.losers),
                                                 key=lambda x: x[0])), COMMA)
            self.report(R_BATTLE_RESULT, w.event, M("{cards} lost this battle but the log does not destroy it",
                                                    cards=names),
                        M("the loser of a battle is destroyed: the higher power wins, equal power destroys both, "
                          "wins-all-battles wins whatever the power (two such creatures both survive)"))

    def handle_Break(self, e: ev.Break) -> None:
        if self.attack is not None:
            self.attack.break_written = True
        if not self.step_in(e):
            return
        a = self.attack
        defender = (a.defender if a is not None else other(e.player)) or ""
        left = self.shields.get(defender, 0)
        self.shields[defender] = max(0, left - e.count)
        if a is None:
            return
        a.closed = False  # (a break written after `attack ends` is still counted)
        if a.breaks is None:
            props, known = self.abilities_of(a.attacker)
            attacker = self.creatures.get(a.attacker)
            open_by = [k for k in self.field_unread if self.creatures[k].in_play
                       and self.printed(self.creatures[k].name_key).field_breaks]
            if attacker is not None and self.printed(attacker.name_key).own_breaks:
                open_by.append(attacker.key)
            if open_by:  # an ability not read changes how many shields it breaks: not judged
                self.tell_unread(e, open_by, field=True)
                known = False
            a.breaks = Breaks(e, shields_to_break(props, left) if known else None, left, first=e.count)
        a.breaks.total += e.count

    def handle_STrigger(self, e: ev.STrigger) -> None:
        if not self.step_in(e):
            return
        a = self.attack
        if a is not None:
            self.check_s_triggers(e, a)
        for ref in e.triggers:
            props, known = self.props_of(ref)
            if known and "s-trigger" not in props:
                self.report(R_STRIGGER_NO_ABILITY, e, M("{card} has no shield trigger: it cannot be used "
                            "from a broken shield", card=self.quoted_ref(ref)), M("if an effect gave it shield "
                            "trigger, add it inline: {written} {s-trigger}; otherwise it goes to the hand",
                            written=quote(ref.label)), card=ref)
            if "spell" in props:
                self.new_waiting(e.player, ref, source="s-trigger spell", batch=e.line, named=False)
            elif "creature" in props:
                self.enter(ref, e.player)
                self.cip(ref, e.player, source="s-trigger creature", batch=e.line)

    def check_s_triggers(self, e: ev.STrigger, a: AttackState) -> None:
        """S-Triggers come from the shields this attack broke: none when it broke none, at most one a shield."""
        if a.breaks is None:
            if a.break_written:
                return  # the break line already has its finding: no second one for its S-Triggers
            why = (M("it aims at {card} and ends in a battle", card=self.name(a.aims_at)) if a.aims_at is not None
                   else M("no `break` line precedes this one"))
            self.report(R_STRIGGER_NO_BREAK, e, M("S-Triggers are used from the shields the attack broke, and this "
                        "attack broke none: {why}", why=why), M("remove the s-trigger line, or write the break before it"),
                        related=[a.event])
        elif len(e.triggers) > a.breaks.total:
            n = a.breaks.total
            self.report(R_STRIGGER_MORE, e, M("{named} S-Triggers are named, but this attack broke {n} shield; each "
                        "S-Trigger is one of the broken shields", named=len(e.triggers), n=n) if n == 1 else
                        M("{named} S-Triggers are named, but this attack broke {n} shields; each S-Trigger is one of "
                          "the broken shields", named=len(e.triggers), n=n),
                        M("name only the S-Triggers among the broken shields"), related=[a.breaks.event])

    def handle_DirectAttack(self, e: ev.DirectAttack) -> None:
        if not self.step_in(e):
            return
        a = self.attack
        if a is not None and self.shields.get(a.defender or "", 0) > 0:
            n = self.shields[a.defender or ""]
            self.report(R_SHIELDS_LEFT, e, M("{player} still has {n} shield: the attack breaks shields, it is not a "
                        "direct attack", player=a.defender, n=n) if n == 1 else
                        M("{player} still has {n} shields: the attack breaks shields, it is not a direct attack",
                          player=a.defender, n=n),
                        M("write the break (`{player}: break N`); the shield count follows the header `Shields` "
                          "and the log's break lines", player=a.player))

    # ---- sub-step 7 and the end of an attack ------------------------------------------------------
    def handle_AttackEnds(self, e: ev.AttackEnds) -> None:
        self.step_in(e)
        self.close_attack()
        if self.attack is not None:
            self.attack.ended = True

    def close_attack(self) -> None:
        a = self.attack
        if a is None or a.closed:
            return
        a.closed = True
        for key in sorted(a.slain):
            c = self.creatures.get(key)
            if c is not None and c.in_play and a.battle_event is not None:
                self.report(R_BATTLE_RESULT, a.battle_event, M("{card} battled a creature that has slayer "
                            "and is not destroyed after the battle", card=self.name(key)),
                            M("slayer destroys the other creature after the battle, whoever won: write its `destroy` "
                              "line"))
        b = a.breaks
        if b is None or b.allowed is None or b.total in b.allowed:
            return  # (several break lines that together break the right number: the second line's finding says so)
        if b.total != b.first and b.first in b.allowed:
            return  # the first line broke the right number; the line after it has its own finding (a second go)
        want = " or ".join(str(n) for n in sorted(b.allowed))
        self.report(R_BREAK_COUNT, b.event, M("{card} breaks {n} shield here, but it must break {want} ({player} had "
                    "{shields} left): breakers are not optional", card=self.name(a.attacker), n=b.first,
                    want=join((str(n) for n in sorted(b.allowed)), OR), player=a.defender, shields=b.shields)
                    if b.first == 1 else
                    M("{card} breaks {n} shields here, but it must break {want} ({player} had {shields} left): "
                      "breakers are not optional", card=self.name(a.attacker), n=b.first,
                      want=join((str(n) for n in sorted(b.allowed)), OR), player=a.defender, shields=b.shields),
                    M("write `break {want}`", want=want))

    # ---- leaving the battle zone ------------------------------------------------------------------
    def handle_Destroy(self, e: ev.Destroy) -> None:
        self.step_in(e)
        self.leave_play(e, e.card)

    def handle_Move(self, e: ev.Move) -> None:
        self.step_in(e)
        if e.to == "shields" and e.player in self.shields:
            self.shields[e.player] += 1
        self.leave_play(e, e.card)

    def leave_play(self, e: ev.Event, ref: ev.CardRef) -> None:
        key = self.card_key(ref)
        c = self.creatures.get(key)
        if c is not None:
            c.in_play = False
        w = self.window
        if w is not None:
            if key in w.winners:
                self.report(R_BATTLE_RESULT, e, M("{card} won the battle and is not destroyed by it",
                                                  card=self.quoted_ref(ref)),
                            M("only the loser of a battle is destroyed"), card=ref, related=[w.event])
            w.losers.discard(key)
        a = self.attack
        if a is not None and not a.ended and not a.aborted and a.substep.number < _OUTCOME \
                and key in (a.attacker, a.aims_at):
            a.aborted_by = key

    # ---- helpers ----------------------------------------------------------------------------------
    def name(self, key: str | None) -> Msg:
        """A creature of the attack named in a message (``None``: the player)."""
        if key is None:
            return THE_PLAYER
        c = self.creatures.get(key)
        return self.quoted(c.label, c.name_key) if c else self.quoted(key)

    def plain_name(self, key: str | None) -> str:
        """A creature as a line of the log names it (in a hint's `…`)."""
        if key is None:
            return "the player"
        c = self.creatures.get(key)
        return quote(c.label if c else key)

    @staticmethod
    def _card_of(e: ev.Event) -> ev.CardRef | None:
        return getattr(e, "card", None)

    # ---- the table, for `replayer rules dm` ---------------------------------------------------------
    @classmethod
    def describe(cls, lang: str = "en") -> str:
        return describe_table(lang)
