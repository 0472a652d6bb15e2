"""Yu-Gi-Oh!'s rules as tables and small named guards: what ``replayer rules ygo`` prints.

Sources (the seeds; labels as in docs/rules-ygo.md): the OCG wiki page on the Damage Step with
its official FAQ (`OCG FAQ dd/mm/yy`), Yugipedia's Damage Step page, and the TCG rulebook's
Damage Step table. Here: the citations, the rule ids (registered with their citation), the
activation table (:data:`CLAUSES`, each row cited), the rules revisions, and the guard rows
(:data:`DS_RESTRICTIONS`, :data:`ACTIVATION_GUARDS`) in the order they are applied. The
handlers that apply them to a log are :mod:`replayer.games.ygo.model`.
"""

from __future__ import annotations

from ...textwidth import table as text_table, width as text_width

from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from ... import events as ev
from ...diagnostics import Kind, Severity, define
from ...records import record
from .vocabulary import TIMING_BY_WORD, TIMING_WORDS, Timing  # noqa: F401 (TIMING_* re-exported)
from .words import TIMING_COMMA, M, timing, timings, zone_word
from ...i18n import AND, COMMA, OR, Msg, join

if TYPE_CHECKING:
    from .field import Card
    from .model import YgoModel

# ---- citations ---------------------------------------------------------------------------
YP_ACT = "Yugipedia: Damage Step § Cards and effects that can be activated"
YP_BREAKDOWN = "Yugipedia: Damage Step § Breakdown of the Damage Step"
YP_AFTER = "Yugipedia: Damage Step § After damage calculation"
YP_BEFORE = "Yugipedia: Damage Step § Before damage calculation"
TCG_TABLE = "TCG rulebook: Damage Step table"
OCG_TIMINGS = "OCG wiki: Damage Step § the five timings"
OCG_FLIP = "OCG wiki: Damage Step § flip effects (rulebook, Master Rule 3)"
OCG_MR2 = "OCG wiki: Damage Step § before Master Rule 3"
FAQ_110109 = "OCG FAQ 11/01/09 (Damage Step)"
FAQ_170429 = "OCG FAQ 17/04/29 (Damage Step)"
FAQ_090801 = "OCG FAQ 09/08/01 (Damage Step)"
CHAIN_RULES = "Yu-Gi-Oh! rulebook: chains and spell speed"
BATTLE_DAMAGE = "Yu-Gi-Oh! rulebook: damage calculation"


# the timings are the game's own words (vocabulary.py): one representation for the rules, window and library
# module-level names for the members: reading an Enum member off its class is slow on a hot path
DS_START, BEFORE_CALC, CALC, AFTER_CALC, DS_END = Timing
ALL_TIMINGS = frozenset(Timing)
UNTIL_BEFORE_CALC = frozenset({DS_START, BEFORE_CALC})
AFTER_CALC_ON = frozenset({AFTER_CALC, DS_END})

SPELL_TRAP_KINDS = frozenset({
    "normal-spell", "quick-play", "continuous-spell", "equip-spell", "field-spell", "ritual-spell",
    "normal-trap", "continuous-trap", "counter-trap", "spell", "trap",
})
MONSTER_KINDS = frozenset({"normal-monster", "effect-monster", "flip-monster", "monster"})
SPEED_2_KINDS = frozenset({"quick-play", "normal-trap", "continuous-trap", "trap"})
TRIGGER_WORDS = frozenset({"trigger", "flip", "mandatory", "self-trigger", "battle-trigger"})


# ---- the rule registry -------------------------------------------------------------------
_rule = define  # the rule registry: replayer.diagnostics.RULES


R_NOT_ALLOWED = _rule("ygo.ds.not-allowed", Kind.ILLEGAL_ACTIVATION,
                      "an effect with no clause that allows it in the Damage Step", YP_ACT)
R_NO_DS = _rule("ygo.ds.no-ds", Kind.ILLEGAL_ACTIVATION,
                "a card that says (or is ruled) it cannot be activated in the Damage Step", YP_ACT)
R_NO_CALC_ALLOWED = _rule("ygo.ds.no-calc", Kind.ILLEGAL_ACTIVATION,
                          "an effect allowed in the Damage Step but not during damage calculation, "
                          "activated during damage calculation", YP_ACT)
R_ATK_AFTER_CALC = _rule("ygo.ds.atk-mod-after-calc", Kind.ILLEGAL_ACTIVATION,
                         "an ATK/DEF changer activated at or after damage calculation", YP_ACT)
R_NAMED_TIMING = _rule("ygo.ds.named-timing", Kind.WRONG_TIMING,
                       "an effect that names a Damage Step timing, activated at another timing", TCG_TABLE)
R_BATTLE_EARLY = _rule("ygo.ds.battle-trigger-early", Kind.WRONG_TIMING,
                       "a battle trigger activated before the battle event (damage calculation)", TCG_TABLE)
R_ONCE = _rule("ygo.ds.once-per-timing", Kind.ILLEGAL_ACTIVATION,
               "an effect naming a timing, activated there after a chain already resolved there", OCG_TIMINGS)
R_BACKWARDS = _rule("ygo.ds.timing-backwards", Kind.ORDERING,
                    "a Damage Step timing that goes back", YP_BREAKDOWN)
R_NO_ATTACK = _rule("ygo.ds.no-attack", Kind.ORDERING, "a Damage Step without an attack", YP_BREAKDOWN)
R_AFTER_DS = _rule("ygo.ds.leaves-to-wrong-phase", Kind.ORDERING,
                   "after the Damage Step the game returns to the Battle Step", FAQ_110109)
R_BP_ENDED = _rule("ygo.ds.after-battle-phase-ended", Kind.ORDERING,
                   "the Damage Step goes on after an effect ended the Battle Phase", FAQ_110109)
R_FLIP_DS_START = _rule("ygo.flip.at-ds-start", Kind.ORDERING,
                        "the attacked face-down monster flipped at the start of the Damage Step", YP_BEFORE)
R_FLIP_EARLY = _rule("ygo.flip.effect-before-calc", Kind.WRONG_TIMING,
                     "a flip effect of the attacked monster activated before damage calculation", OCG_FLIP)
R_NOT_FLIPPED = _rule("ygo.flip.not-flipped", Kind.STATE,
                      "damage calculation with the attacked monster still face-down", YP_BEFORE, Severity.WARNING)
R_FLIP_GONE = _rule("ygo.flip.left-field", Kind.STATE,
                    "a flip effect of a monster that left the field before it could activate", YP_BEFORE)
R_TARGET_DESTROYED = _rule("ygo.battle.target-destroyed", Kind.ILLEGAL_ACTIVATION,
                           "a monster destroyed by battle targeted before it is sent to the GY", YP_AFTER)
R_COST_DESTROYED = _rule("ygo.battle.cost-destroyed", Kind.ILLEGAL_ACTIVATION,
                         "a monster destroyed by battle used as a cost", YP_AFTER)
R_QUICK_DESTROYED = _rule("ygo.battle.quick-effect-destroyed", Kind.ILLEGAL_ACTIVATION,
                          "an optional quick effect of a monster destroyed by battle", YP_AFTER)
R_DESTROY_NOT_CALC = _rule("ygo.battle.destroyed-outside-calc", Kind.WRONG_TIMING,
                           "destroyed by battle written outside damage calculation", YP_BREAKDOWN)
R_DESTROYED_CHANGED = _rule("ygo.battle.destroyed-changed", Kind.STATE,
                            "a monster destroyed by battle changes its battle position", YP_AFTER)
R_NOT_BY_BATTLE = _rule("ygo.battle.not-destroyed-by-battle", Kind.STATE,
                        "a destroyed-by-battle trigger of a monster that left the field another way first",
                        YP_AFTER)
R_TRIGGER_BEFORE_SENT = _rule("ygo.battle.trigger-before-sent", Kind.WRONG_TIMING,
                              "a destroyed-by-battle trigger activated before the end of the Damage Step",
                              YP_BREAKDOWN)
R_SENT_EARLY = _rule("ygo.battle.sent-before-ds-end", Kind.ORDERING,
                     "a monster destroyed by battle sent to the GY before the end of the Damage Step",
                     YP_BREAKDOWN)
R_NO_CALC = _rule("ygo.battle.no-damage-calculation", Kind.STATE,
                  "damage calculation after a battling monster left the field", YP_BEFORE)
R_RESULT = _rule("ygo.battle.result-mismatch", Kind.STATE,
                 "a battle result that the ATK/DEF do not give", BATTLE_DAMAGE)
R_SPEED = _rule("ygo.chain.spell-speed", Kind.ILLEGAL_ACTIVATION,
                "a chain link of a lower spell speed than the link before it", CHAIN_RULES)
R_COUNTER_ONLY = _rule("ygo.chain.counter-only", Kind.ILLEGAL_ACTIVATION,
                       "only a Counter Trap can respond to a Counter Trap", CHAIN_RULES)
R_LINK = _rule("ygo.chain.link-number", Kind.STATE, "a written chain link number that is wrong", CHAIN_RULES)
R_TRIGGER_ORDER = _rule("ygo.chain.trigger-order", Kind.ORDERING,
                        "simultaneous triggers chained out of order", FAQ_090801)
R_DAMAGE = _rule("ygo.damage.mismatch", Kind.STATE, "battle damage that the ATK/DEF do not give",
                 BATTLE_DAMAGE)
R_LP = _rule("ygo.lp.mismatch", Kind.STATE, "Life Points that do not follow from the damage", BATTLE_DAMAGE)
R_UNDECIDED = _rule("ygo.ds.undecided", Kind.UNKNOWN_CARD,
                    "an activation in the Damage Step that cannot be judged: the card is unknown", YP_ACT,
                    Severity.INFO)
NOTATION_READINGS = "replayer log notation v1 §3 (clarification: the readings a log allows)"
NOTATION_CLAUSES = "replayer log notation v1 §4 (activate clauses) and §6"
R_ASSUMED = _rule("ygo.effect.assumed", Kind.STATE,
                  "which effect of a card with several was activated: the log does not say; the one assumed",
                  NOTATION_READINGS, Severity.INFO)
R_UNLISTED = _rule("ygo.effect.not-in-catalog", Kind.UNKNOWN_CARD,
                   "the log names an effect (trigger, flip effect, effect N) the catalog does not list for the card; "
                   "checked as the kind the log says", NOTATION_CLAUSES, Severity.INFO)
R_NO_EVENT = _rule("ygo.trigger.no-event", Kind.ILLEGAL_ACTIVATION,
                   "an effect activated when an event happens, with no such event in the log where it could "
                   "answer it", YP_BREAKDOWN)
R_EVENT_ASSUMED = _rule("ygo.trigger.event-assumed", Kind.STATE,
                        "an effect that answers an event the excerpt does not show: the log starts inside the "
                        "Damage Step, after where the event could have happened; assumed to have happened",
                        NOTATION_READINGS, Severity.INFO)
R_WRONG_ZONE = _rule("ygo.effect.wrong-zone", Kind.STATE,
                     "an effect used from one place (the hand, the GY, the field) activated while the log has the "
                     "card elsewhere", "Yu-Gi-Oh! rulebook: activating cards and effects (where an effect is used from)")
R_SHUT_IN_BATTLE = _rule("ygo.effect.battle-place", Kind.ILLEGAL_ACTIVATION,
                          "an effect whose own condition, cost or target cannot hold while its card has this place in "
                          "the battle (the attacker, the attacked monster, or neither), activated in the Damage Step",
                          "the card's own condition (imported card data: its script, run as the simulator runs it)")
R_FACE_DOWN = _rule("ygo.state.face-down", Kind.STATE,
                    "an effect of a monster the log has face-down on the field (its effects are activated only "
                    "face-up; a flip effect when it is flipped)", "Yu-Gi-Oh! rulebook: face-down cards")
R_NOT_THERE = _rule("ygo.state.not-on-field", Kind.STATE, "a card used from the field that is not there",
                    "Yu-Gi-Oh! rulebook: the field")


# ---- which effects may be activated when: the table -----------------------------------------
def is_counter_trap(p: frozenset[str]) -> bool:
    return "counter-trap" in p


def is_mandatory(p: frozenset[str]) -> bool:
    return "mandatory" in p


def negates_activation(p: frozenset[str]) -> bool:
    return "negates-activation" in p


def changes_atk_directly(p: frozenset[str]) -> bool:
    """A Spell/Trap Card or a quick effect that directly changes ATK/DEF (not a trigger)."""
    return "atk-mod" in p and (bool(p & SPELL_TRAP_KINDS) or "quick" in p)


def triggers_on_itself(p: frozenset[str]) -> bool:
    """An optional trigger on the card itself moving, being flipped or changing position."""
    return ("self-trigger" in p or "flip" in p) and "summons" not in p


def is_battle_trigger(p: frozenset[str]) -> bool:
    return "battle-trigger" in p


def names_a_timing(p: frozenset[str]) -> bool:
    return any(w.startswith("timing:") for w in p)


def allows_damage_step(p: frozenset[str]) -> bool:
    return "ds-ok" in p


#: `timing:` words that name a battle event instead of a timing, and the timing the event's triggers
#: activate at: battle damage after damage calculation; destroying (or being destroyed by) a monster by
#: battle at the end of the Damage Step (OCG wiki: Damage Step § other — Jurrac Guaiba, Flamvell Firedog)
EVENT_TIMINGS = {"battle-damage": AFTER_CALC, "battle-destruction": DS_END}
EVENT_SAYS = {"battle-damage": M("triggers on inflicting battle damage"),
              "battle-destruction": M("triggers on destroying a monster by battle")}


@lru_cache(maxsize=4096)
def named_timings(p: frozenset[str]) -> frozenset[Timing]:
    """The timings an effect's ``timing:`` words name (kept per property set: a guard and the clause
    table ask it of every activation in the Damage Step)."""
    out = set()
    for w in p:
        if w.startswith("timing:"):
            name = w.split(":", 1)[1]
            out.add(EVENT_TIMINGS[name] if name in EVENT_TIMINGS else Timing.of(name))
    return frozenset(out)


@record(slots=False)
class Clause:
    """One row of the activation table: a class of effects and the timings it allows."""

    name: str
    description: str
    applies: Callable[[frozenset[str]], bool]
    timings: frozenset[Timing] | None  # None: the timings the effect itself names
    cite: str
    late_rule: str | None = None  # the finding when this is the only clause and the timing is wrong
    says: Msg | str = ""  # what the effect does, for messages: '"Honest" directly changes ATK/DEF'


CLAUSES: tuple[Clause, ...] = (
    Clause("counter-trap", M("Counter Trap Cards").text, is_counter_trap, ALL_TIMINGS, YP_ACT),
    Clause("mandatory", M("mandatory effects").text, is_mandatory, ALL_TIMINGS, YP_ACT),
    Clause("negates-activation", M("effects that negate an activation (not those that negate an effect)").text,
           negates_activation, ALL_TIMINGS, "OCG FAQ 14/03/26 (Damage Step)"),
    Clause("atk-mod", M("Spell/Trap Cards and quick effects that directly change ATK/DEF").text,
           changes_atk_directly, UNTIL_BEFORE_CALC, YP_ACT, "ygo.ds.atk-mod-after-calc", M("directly changes ATK/DEF")),
    Clause("self-trigger", M("optional triggers on the card itself moving, being flipped or changing "
           "position (unless they Normal or Fusion Summon)").text, triggers_on_itself, ALL_TIMINGS, YP_ACT),
    Clause("battle-trigger", M("optional triggers on a battle event (battle damage, destroyed by battle): "
           "the event happens at damage calculation, so they come after it").text, is_battle_trigger,
           AFTER_CALC_ON, YP_ACT, "ygo.ds.battle-trigger-early", M("triggers on a battle event")),
    Clause("named-timing", M("effects that name a Damage Step timing (only at that timing)").text,
           names_a_timing, None, TCG_TABLE, "ygo.ds.named-timing", M("names a Damage Step timing")),
    Clause("ds-ok", M("cards whose text allows the Damage Step").text, allows_damage_step, ALL_TIMINGS, YP_ACT),
)

#: "Once per specific timing": an effect allowed by one of these clauses at one of these timings
#: cannot be activated there once a chain has resolved at that timing (before-calc allows several).
ONCE_PER_TIMING: dict[str, frozenset[Timing]] = {"named-timing": frozenset({DS_START, CALC})}


@record(slots=False)
class Revision:
    """A rules revision as its differences from `current`."""

    timings: dict[str, frozenset[Timing]]  # clause name -> the timings it allows instead
    once: dict[str, frozenset[Timing]]  # clause name -> extra once-per-timing timings
    cite: str = ""


REVISIONS: dict[str, Revision] = {
    "current": Revision({}, {}),
    # Before Master Rule 3, ATK/DEF changers like Honest could still be activated during damage
    # calculation, which happens once a battle: only in the chain that was built there.
    "mr2": Revision({"atk-mod": frozenset({DS_START, BEFORE_CALC, CALC})},
                    {"atk-mod": frozenset({CALC})}, OCG_MR2),
}


def clause_timings(clause: Clause, props: frozenset[str], revision: str) -> frozenset[Timing]:
    if clause.timings is None:
        return named_timings(props)
    return REVISIONS[revision].timings.get(clause.name, clause.timings)


def once_per_timing(clause: Clause, revision: str) -> frozenset[Timing]:
    return ONCE_PER_TIMING.get(clause.name, frozenset()) | REVISIONS[revision].once.get(clause.name, frozenset())


@lru_cache(maxsize=4096)
def damage_step_clauses(props: frozenset[str], t: Timing, revision: str) -> tuple[tuple[Clause, ...], bool]:
    """The clauses of :data:`CLAUSES` that allow an effect with ``props`` at ``t`` under ``revision``, and
    whether once per specific timing binds it there (every allowing clause is bound by it at ``t``). A pure
    function of its three arguments: kept per (properties, timing, revision), as an activation's are asked
    of every activation of that effect."""
    allowing = tuple(cl for cl in CLAUSES if cl.applies(props) and t in clause_timings(cl, props, revision))
    return allowing, all(t in once_per_timing(cl, revision) for cl in allowing)


def spell_speed(p: frozenset[str]) -> int | None:
    if "counter-trap" in p:
        return 3
    if p & SPEED_2_KINDS or "quick" in p:
        return 2
    if p & (SPELL_TRAP_KINDS | TRIGGER_WORDS | {"ignition"}):
        return 1
    return None


def is_trigger_effect(p: frozenset[str]) -> bool:
    return spell_speed(p) == 1 and bool(p & TRIGGER_WORDS)


# ---- guards: the rows that forbid an activation ----------------------------------------------
@record(slots=False)
class Act:
    """What a guard looks at: the line, the effect's properties, the card's state, the timing, and the card
    the finding points at (the activated card, a target or the cost)."""

    event: ev.Activate
    props: frozenset[str]
    card: Card
    timing: Timing | None
    ref: ev.CardRef

    @property
    def label(self) -> str:
        return self.ref.label


@record(slots=False)
class Guard:
    """A named predicate and the finding it gives: ``fails(model, act)``; ``say`` -> (message, hint)."""

    rule: str
    name: str
    fails: Callable[["YgoModel", Act], bool]
    say: Callable[["YgoModel", Act], tuple[str, str]]
    on: str = "card"  # the card the finding is about: card | target | cost; before-cost: the card, before its cost


def _answers_destruction(p: frozenset[str]) -> bool:
    """A battle trigger that answers a destruction by battle (not one that answers battle damage)."""
    return "battle-trigger" in p and "timing:battle-damage" not in p and waits_for(p) not in ("battle-damage", "damage")


def _destroyed_on_field(c: Card) -> bool:
    return c.destroyed_by_battle and c.zone == "field"


#: what each `on:` event is, said of the card itself (`self-event`) and of any card; and where in the Damage
#: Step the effects that answer it are activated when the rules fix it
ON_SAYS: dict[str, tuple[Msg, Msg]] = {
    "to-grave": (M("it is sent to the GY"), M("a card is sent to the GY")),
    "destroyed": (M("it is destroyed"), M("a card is destroyed")),
    "battle-destroyed": (M("it is destroyed by battle"), M("a monster is destroyed by battle")),
    "battle-destroying": (M("it destroys a monster by battle"), M("a monster destroys another by battle")),
    "battle-damage": (M("it inflicts battle damage"), M("a player takes battle damage")),
    "damage": (M("its controller takes damage"), M("a player takes damage")),
    "recover": (M("its controller gains LP"), M("a player gains LP")),
    "leave-field": (M("it leaves the field"), M("a card leaves the field")),
    "banished": (M("it is banished"), M("a card is banished")),
    "to-hand": (M("it is added to the hand"), M("a card is added to the hand")),
    "discarded": (M("it is discarded"), M("a card is discarded")),
    "released": (M("it is Tributed"), M("a monster is Tributed")),
    "flipped": (M("it is flipped face-up"), M("a monster is flipped face-up")),
    "position": (M("its battle position changes"), M("a monster's battle position changes")),
    "summoned": (M("it is Summoned"), M("a monster is Summoned")),
    "chaining": (M("a card or effect is activated"), M("a card or effect is activated")),
    "targeted": (M("it is targeted by an activated effect"), M("a card is targeted by an activated effect")),
    "draw": (M("its controller draws"), M("a player draws")),
    "phase": (M("a phase begins (the Standby Phase, the End Phase…)"), M("a phase begins (the Standby Phase, the End Phase…)")),
    "attack": (M("an attack is declared"), M("an attack is declared")),
}
#: events that never happen inside the Damage Step, and the events whose answers the rules put at one timing
NEVER_IN_DS = {"phase": M("no phase begins during the Damage Step"),
               "attack": M("attacks are declared in the Battle Step")}
ON_WHEN = {"battle-destroyed": DS_END, "battle-destroying": DS_END, "battle-damage": AFTER_CALC}


def waits_for(p: frozenset[str]) -> str | None:
    """The event an effect waits for (its `on:` word; a flip effect: its own flip), if any."""
    return next((w[3:] for w in p if w.startswith("on:")), "flipped" if "flip" in p else None)


def own_event(p: frozenset[str]) -> bool:
    """The event must happen to the card itself (`self-event`, or a flip effect's flip)."""
    return "self-event" in p or ("flip" in p and not any(w.startswith("on:") for w in p))


def missing_event(m: "YgoModel", a: Act) -> bool:
    """An effect that answers an event, with no such event where it could be answered now (an excerpt that
    starts inside the Damage Step is given the benefit of the doubt: the model says so in an info)."""
    word = waits_for(a.props)
    if word is None:
        return False
    if word in NEVER_IN_DS:
        return True
    return m.ds_in_log and not m.event_seen(word, a.card.key if own_event(a.props) else None, event_player(a))


#: the events of a player (the damage, the gain of LP), not of a card
PLAYER_EVENTS = frozenset({"damage", "battle-damage", "recover"})


def event_player(a: Act) -> str | None:
    """Whose event it answers (`event-player:self` / `:opponent`: the damage or gain of LP of its own player
    or of the opponent; an event to a card of its own player's or of the opponent's), as a player of the
    log; None: anybody's."""
    if a.event.player not in ("A", "B"):
        return None
    if "event-player:self" in a.props:
        return a.event.player
    if "event-player:opponent" in a.props:
        return "B" if a.event.player == "A" else "A"
    return None


def _missing_says(m: "YgoModel", a: Act) -> tuple[str, str]:
    word = waits_for(a.props) or ""
    own, anyone = ON_SAYS.get(word, (word, word))
    when = own if own_event(a.props) else anyone
    if word in NEVER_IN_DS:
        return (M('"{card}" is activated when {when}; {never}, so it cannot be activated at {timing}',
                  card=m.card_name(a.ref), when=when, never=NEVER_IN_DS[word], timing=timing(a.timing)),
                M("remove the activation, or move it to where its event happens"))
    where = ON_WHEN.get(word)
    whose = event_player(a)
    if whose is not None:  # whose damage (or gain of LP) it answers
        rel = M("its own player") if whose == a.event.player else M("the opponent")
        if word in PLAYER_EVENTS:
            when = M("{when} (here: {player}, {relation})", when=when, player=whose, relation=rel)
        else:  # an event to a card: whose card it is
            when = M("{when} (here: a card of {player}, {relation})", when=when, player=whose, relation=rel)
    if where is not None and where != a.timing:
        said = M('"{card}" is activated when {when}, and the log shows no such event that it could answer at '
                 "{timing} (in the Damage Step its answers come at {answers})", card=m.card_name(a.ref), when=when,
                 timing=timing(a.timing), answers=timing(where))
    else:
        said = M('"{card}" is activated when {when}, and the log shows no such event that it could answer at '
                 "{timing}", card=m.card_name(a.ref), when=when, timing=timing(a.timing))
    return (said, M("write the event it answers before it, under the timing where it happened, "
                    "or remove the activation"))


ZONE_WORDS = {"hand": M("the hand"), "field": M("the field"), "gy": M("the GY"),
              "banished": M("among the banished cards"), "deck": M("the Deck")}
ZONE_AT = {"hand": M("in the hand"), "field": M("on the field"), "gy": M("in the GY"), "banished": M("banished"),
           "deck": M("in the Deck")}


def effect_zones(p: frozenset[str]) -> frozenset[str]:
    """Where an effect is used from (its `from:` words; none: the catalog does not say)."""
    return frozenset(w[5:] for w in p if w.startswith("from:"))


def wrong_zone(m: "YgoModel", a: Act) -> bool:
    """The effect is used from somewhere else than where the log has the card. A monster destroyed by battle
    is sent to the GY at the end of the Damage Step even where the log leaves the move out."""
    zones = effect_zones(a.props)
    zone = a.card.zone
    if not zones or zone is None or zone in zones:
        return False
    return not (zone == "field" and "gy" in zones and a.card.destroyed_by_battle and a.timing == DS_END)


#: a card's place in the battle, as a finding says it
PLACE_WORDS = {"attacker": M("the attacking monster"), "attack-target": M("the attacked monster"),
               "bystander": M("neither the attacking nor the attacked monster")}


def _place(m: "YgoModel", a: Act) -> str | None:
    """The activated card's place in the battle; None where the log leaves it open: the battle is unknown, or
    the attacker or the attacked monster has left the field (another copy may be the one activated)."""
    place = m.battle_place(a.card.key)
    if place in ("attacker", "attack-target") and (a.card.zone not in (None, "field")
                                                   or a.event.from_zone not in (None, "field")):
        return None
    return place


def _wrong_zone_says(m: "YgoModel", a: Act) -> tuple[str, str]:
    zones = sorted(effect_zones(a.props))
    where = join((ZONE_WORDS.get(z, z) for z in zones), OR)
    at = ZONE_AT.get(a.card.zone or "", a.card.zone)
    return (M('this effect of "{card}" is used from {where}, but the log has the card {at}', card=m.card_name(a.ref),
              where=where, at=at),
            M("write `from {zone}` if it was there (and the line that moved it), or name the effect that is used "
              "while it is {at}", zone=zones[0], at=at))


def _named_says(a: Act) -> Msg:
    named = sorted(named_timings(a.props))
    names = timings(named, TIMING_COMMA)
    events = [EVENT_SAYS[w[7:]] for w in sorted(a.props) if w.startswith("timing:") and w[7:] in EVENT_SAYS]
    return M("{events}: it activates at {timings}", events=join(events, AND), timings=names) if events else \
        M("names {timings}", timings=names)


#: Damage Step restrictions, in the order they are applied: the first that fails decides, whatever
#: clause would allow the effect (an effect that names its timing is activated there only).
DS_RESTRICTIONS: tuple[Guard, ...] = (
    Guard(R_NO_DS, "no-ds", lambda m, a: "no-ds" in a.props,
          lambda m, a: (M('"{card}" cannot be activated during the Damage Step (its text or a ruling says so)',
                          card=m.card_name(a.ref)),
                        M("activate it in the Battle Step, before the attack reaches the Damage Step"))),
    Guard(R_NO_CALC_ALLOWED, "no-calc", lambda m, a: "no-calc" in a.props and a.timing == CALC,
          lambda m, a: (M('"{card}" may be activated in the Damage Step but not during damage calculation',
                          card=m.card_name(a.ref)),
                        M("activate it under `timing before-calc` or `timing after-calc`"))),
    Guard(R_FLIP_EARLY, "flip-early",
          lambda m, a: "flip" in a.props and a.card.key in m.flipped_in_ds and a.timing < AFTER_CALC,
          lambda m, a: (M('the flip effect of "{card}" is activated at {timing}; a monster flipped by '
                          "the attack activates its flip effects after damage calculation", card=m.card_name(a.ref),
                          timing=timing(a.timing)),
                        M("write it under `timing after-calc`"))),
    Guard(R_NAMED_TIMING, "named-timing",
          lambda m, a: bool(named_timings(a.props)) and a.timing not in named_timings(a.props),
          lambda m, a: (M('"{card}" {says} and can be activated only there, not at {timing}', card=m.card_name(a.ref),
                          says=_named_says(a), timing=timing(a.timing)),
                        M("activate it under `timing {word}`", word=sorted(named_timings(a.props))[0].word))),
    Guard(R_NO_EVENT, "no-event", missing_event, _missing_says),
)

#: checks on the targets and the cost, then (once the cost is paid) on the activated card; every one that
#: fails is a finding
ACTIVATION_GUARDS: tuple[Guard, ...] = (
    Guard(R_TARGET_DESTROYED, "target-destroyed", lambda m, a: _destroyed_on_field(m.card(a.ref)),
          lambda m, a: (M('"{card}" was destroyed by battle; until it is sent to the GY at the end of the '
                          "Damage Step it cannot be targeted", card=m.card_name(a.ref)), M("choose another target")),
          on="target"),
    Guard(R_COST_DESTROYED, "cost-destroyed",
          lambda m, a: _destroyed_on_field(m.card(a.ref)) and "mandatory" not in a.props,
          lambda m, a: (M('"{card}" was destroyed by battle and cannot be used as the cost of an optional '
                          "effect", card=m.card_name(a.ref)), M("pay the cost with another card")), on="cost"),
    Guard(R_QUICK_DESTROYED, "quick-destroyed",
          lambda m, a: _destroyed_on_field(a.card) and "mandatory" not in a.props and "quick" in a.props,
          lambda m, a: (M('"{card}" was destroyed by battle: its optional quick effects cannot be activated '
                          "any more", card=m.card_name(a.ref)), "")),
    Guard(R_TRIGGER_BEFORE_SENT, "trigger-before-sent",
          lambda m, a: _answers_destruction(a.props) and _destroyed_on_field(a.card) and m.in_damage_step
          and a.timing is not None and a.timing < DS_END,
          lambda m, a: (M('"{card}" was destroyed by battle; its destroyed-by-battle effect activates when it '
                          "is sent to the GY at the end of the Damage Step, not at {timing}", card=m.card_name(a.ref),
                          timing=timing(a.timing)),
                        M("write it under `timing ds-end`, after the move to the GY"))),
    Guard(R_NOT_BY_BATTLE, "not-by-battle",
          lambda m, a: _answers_destruction(a.props) and a.card.battle_fate == "pre-empted",
          lambda m, a: (M('"{card}" left the field by a card effect before it was sent to the GY by battle: '
                          "its destroyed-by-battle effect cannot be activated", card=m.card_name(a.ref)),
                        M("remove the activation"))),
    Guard(R_WRONG_ZONE, "wrong-zone", wrong_zone, _wrong_zone_says, on="before-cost"),
    Guard(R_SHUT_IN_BATTLE, "battle-place",
          lambda m, a: f"shut-as:{_place(m, a)}" in a.props,
          lambda m, a: (M('"{card}" is {place}, and this effect cannot be activated while its card is (`{word}`: '
                          "where it is used from, or its condition, cost or target, rules it out there at every "
                          "Damage Step timing)", card=m.card_name(a.ref), place=PLACE_WORDS[_place(m, a) or ""],
                          word="shut-as:" + (_place(m, a) or "")), M("check which card or effect was activated")),
          on="before-cost"),
    Guard(R_FACE_DOWN, "face-down",
          lambda m, a: a.card.face_down and a.card.zone == "field" and bool(a.props & MONSTER_KINDS)
          and "flip" not in a.props and not a.event.flip_effect,
          lambda m, a: (M('"{card}" is a face-down monster on the field: its effects cannot be activated until it '
                          "is face-up", card=m.card_name(a.ref)), M("write its `flip` (or `flip summon`) before the "
                          "activation, or `flip effect` if this is its flip effect")),
          on="before-cost"),  # where it was when activated
    Guard(R_FLIP_GONE, "flip-left-field",
          lambda m, a: "flip" in a.props and a.card.zone not in (None, "field")
          and a.event.from_zone in (None, "field"),
          lambda m, a: (M('"{card}" left the field ({zone}) before its flip effect could activate: the '
                          "flip effect is not activated", card=m.card_name(a.ref), zone=zone_word(a.card.zone)),
                        M("remove the activation"))),
)


def describe_effect(p: frozenset[str]) -> str:
    return str(effect_words(p))


def effect_words(p: frozenset[str]) -> Msg | str:
    """An effect's property words (the notation's: the same in every language), or that it has none."""
    parts = []
    kinds = sorted(p & (SPELL_TRAP_KINDS | {"normal-monster", "effect-monster", "flip-monster"}))
    parts += kinds
    for w in ("quick", "trigger", "ignition", "optional", "negates-effect", "atk-mod", "summons"):
        if w in p:
            parts.append(w)
    return ", ".join(parts) or M("no properties that allow it")


def table_cells(lang: str = "en") -> list[tuple[str, list[str]]]:
    """The rules table: for each effect class, its cell at each Damage Step timing (the words in
    ``lang``; the JSON keeps the English ones)."""
    named, once, yes = (w.render(lang) for w in (
        M.term("rules table", "named"), M.term("rules table", ", once"), M.term("rules table", "yes")))
    out = []
    for cl in CLAUSES:
        if cl.timings is None:
            cells = [named + (once if t in once_per_timing(cl, "current") else "") for t in Timing]
        else:
            cells = [yes if t in cl.timings else "-" for t in Timing]
        out.append((cl.name, cells))
    return out


def describe_json() -> dict:
    """``replayer rules ygo --format json``: the table, its rows' meanings and citations."""
    cells = dict(table_cells())
    return {"game": "ygo", "timings": [t.word for t in Timing],
            "rows": [{"class": cl.name, "cells": dict(zip((t.word for t in Timing), cells[cl.name])),
                      "description": cl.description, "cite": cl.cite} for cl in CLAUSES]}


def describe_table(lang: str = "en") -> str:
    """``replayer rules ygo``: the table, its rows, the guards and the rule ids, in ``lang`` (the
    timings' words, the clause names and the rule ids as the notation has them; the descriptions,
    headings and rule titles translated; the citations in their source's language, with the label
    translated beside it)."""
    from ...i18n import cite_in

    def t(msg) -> str:
        return msg.render(lang)

    def title(rule) -> str:
        return M.translate(lang, rule.title)

    def cite(label: str) -> str:
        return cite_in(label, lang)

    cols = list(Timing)
    lines = [t(M("Yu-Gi-Oh! — which effects may be activated at each Damage Step timing")), ""]
    table = table_cells(lang)
    header = [t(M.term("rules table", "effect class"))] + [tm.word for tm in cols]
    rows = [[name] + cells for name, cells in table]
    # every column as wide as its widest cell (in display columns), two spaces between columns
    head, *body = text_table([header] + rows).split("\n")
    lines += [head, "-" * text_width(head)]
    lines += body
    lines += ["", t(M.term("rules table", "Rows:"))]
    for cl in CLAUSES:
        lines.append(f"  {cl.name}: {M.translate(lang, cl.description)}  [{cite(cl.cite)}]")
    from ...diagnostics import RULES

    lines += ["", t(M("Restrictions, applied first and in this order (the first that applies decides):"))]
    for g in DS_RESTRICTIONS:
        lines.append(f"  {g.name}: {g.rule}  {title(RULES[g.rule])}  [{cite(RULES[g.rule].cite)}]")
    lines += ["", t(M("Then one allowing clause is enough; `no-ds` (\"except during the Damage Step\", or a ruling) "
                      "forbids the card whatever else applies.")),
              t(M("named: only at the timing the effect names; ds-start and calc allow it once per timing "
                  "(not after a chain resolved there)")) + f"  [{cite(OCG_TIMINGS)}]", "",
              t(M("Rules revisions (differences from current):"))]
    for rev, diff in REVISIONS.items():
        for name, ts in diff.timings.items():
            lines.append(f"  {rev}: " + t(M("{name} allowed at {timings}", name=name,
                                             timings=", ".join(tm.word for tm in sorted(ts))))
                         + f"  [{cite(diff.cite)}]")
        for name, ts in diff.once.items():
            lines.append(f"  {rev}: " + t(M("{name} once per timing at {timings}", name=name,
                                             timings=", ".join(tm.word for tm in sorted(ts))))
                         + f"  [{cite(diff.cite)}]")
    lines += ["", t(M("Checks on the targets and the cost, then (the cost paid) on the activated card; every one that "
                      "applies is a finding:"))]
    for g in ACTIVATION_GUARDS:
        lines.append(f"  {g.name} ({g.on}): {g.rule}  {title(RULES[g.rule])}  [{cite(RULES[g.rule].cite)}]")
    lines += ["", t(M.term("rules table", "Rule ids:"))]
    for rid, rule in sorted(RULES.items()):
        if rid.startswith("ygo."):
            lines.append(f"  {rid:40} {rule.kind.value:19} {title(rule)}  [{cite(rule.cite)}]")
    return "\n".join(lines)
