"""From card data to replayer's property words (docs/notation.md §6), the way the rules read them.

Two readings of one script effect are kept apart here:

* :func:`engine_timings` — the Damage Step timings at which the simulator lets the effect be
  activated (ygopro-core ``effect::is_activateable``: in the Damage Step an effect is refused
  unless its event is 1132-1149, it has EFFECT_FLAG_DAMAGE_STEP, it is a Counter Trap's
  activation, or it is a flip effect, a mandatory trigger or an optional trigger of the card
  itself; during damage calculation it needs event 1134-1136 or EFFECT_FLAG_DAMAGE_CAL), narrowed
  by the "only until damage calculation" condition and by the battle event it waits for;
* :func:`effect_words` — the property words: what the effect *is* (quick, trigger, atk-mod,
  negates-activation, timing:calc, …), plus, where the rules' clauses would judge the effect
  otherwise than the simulator, the permission words that make them agree (``ds-ok``, ``no-ds``,
  ``no-calc``). The yardstick is the simulator; :func:`replayer_timings` is the check.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from . import constants as K
from .lua import ScriptEffect

if TYPE_CHECKING:
    from ..games import Game

ALL = ("ds-start", "before-calc", "calc", "after-calc", "ds-end")
PHASE_DAMAGE = frozenset({"ds-start", "before-calc", "after-calc", "ds-end"})
UNTIL_CALC = frozenset({"ds-start", "before-calc"})
AFTER_CALC = frozenset({"after-calc", "ds-end"})

#: the battle event an effect waits for -> the timing words it names
EVENT_TIMINGS: dict[int, tuple[str, ...]] = {
    1132: ("timing:ds-start",),
    1133: ("timing:before-calc",),
    1134: ("timing:calc",), 1135: ("timing:calc",), 1136: ("timing:calc",),
    1137: ("timing:after-calc",), 1138: ("timing:after-calc",),
    1141: ("timing:ds-end",),
    1143: ("timing:battle-damage",),
}
#: battle events whose triggers are "on a battle event" (destroyed by battle, battle damage)
BATTLE_EVENTS = frozenset({1139, 1140, 1143})
#: when each battle event happens in the Damage Step
EVENT_WHEN: dict[int, frozenset[str]] = {
    1130: frozenset(), 1131: frozenset(),  # attack declaration, being attacked: the Battle Step, never here
    1132: frozenset({"ds-start"}), 1133: frozenset({"before-calc"}),
    1134: frozenset({"calc"}), 1135: frozenset({"calc"}), 1136: frozenset({"calc"}),
    1137: frozenset({"after-calc"}), 1138: frozenset({"after-calc"}),
    # destroying / being destroyed by battle: the monster is sent to the GY at the end of the Damage Step,
    # and its triggers activate then (Yugipedia: Damage Step § End of the Damage Step; the engine agrees)
    1139: frozenset({"ds-end"}), 1140: frozenset({"ds-end"}), 1141: frozenset({"ds-end"}),
    1143: frozenset({"after-calc"}),
}

#: the event a trigger (or a card activated "when …") waits for -> its `on:` word (games/ygo/vocabulary.py:
#: ON_EVENTS). Events the notation cannot write (a counter placed, a coin tossed, a custom event) have none:
#: the log cannot show them, so their absence is never held against an activation.
ON_EVENTS: dict[str, str] = {
    "EVENT_TO_GRAVE": "to-grave", "EVENT_DESTROYED": "destroyed", "EVENT_DESTROY": "destroyed",
    "EVENT_BATTLE_DESTROYED": "battle-destroyed", "EVENT_BATTLE_DESTROYING": "battle-destroying",
    "EVENT_BATTLE_DAMAGE": "battle-damage", "EVENT_DAMAGE": "damage", "EVENT_RECOVER": "recover",
    "EVENT_LEAVE_FIELD": "leave-field", "EVENT_LEAVE_FIELD_P": "leave-field", "EVENT_REMOVE": "banished",
    "EVENT_TO_HAND": "to-hand", "EVENT_DISCARD": "discarded", "EVENT_RELEASE": "released",
    "EVENT_FLIP": "flipped", "EVENT_CHANGE_POS": "position",
    "EVENT_SUMMON_SUCCESS": "summoned", "EVENT_SPSUMMON_SUCCESS": "summoned", "EVENT_FLIP_SUMMON_SUCCESS": "summoned",
    "EVENT_CHAINING": "chaining", "EVENT_BECOME_TARGET": "targeted", "EVENT_DRAW": "draw",
    "EVENT_PHASE": "phase", "EVENT_PHASE_START": "phase",
    "EVENT_ATTACK_ANNOUNCE": "attack", "EVENT_BE_BATTLE_TARGET": "attack",
}


def kind_of(type_bits: int) -> str | None:
    """The card kind word from a cdb's ``datas.type``."""
    t = type_bits
    if t & K.TYPE_SPELL:
        for bit, word in ((K.TYPE_QUICKPLAY, "quick-play"), (K.TYPE_CONTINUOUS, "continuous-spell"),
                          (K.TYPE_EQUIP, "equip-spell"), (K.TYPE_FIELD, "field-spell"), (K.TYPE_RITUAL, "ritual-spell")):
            if t & bit:
                return word
        return "normal-spell"
    if t & K.TYPE_TRAP:
        if t & K.TYPE_COUNTER:
            return "counter-trap"
        if t & K.TYPE_CONTINUOUS:
            return "continuous-trap"
        return "normal-trap"
    if t & K.TYPE_MONSTER:
        if t & K.TYPE_FLIP:
            return "flip-monster"
        if t & K.TYPE_NORMAL and not t & K.TYPE_EFFECT:
            return "normal-monster"
        return "effect-monster"
    return None


def event_number(e: ScriptEffect) -> int | None:
    return e.code if isinstance(e.code, int) else None


def engine_timings(e: ScriptEffect, kind: str | None) -> frozenset[str]:
    """The Damage Step timings at which the simulator allows this effect (its gate and conditions)."""
    t = e.type
    code = event_number(e) or 0
    exempt = (t & K.FLIP) or (t & K.TRIGGER_F) or ((t & K.TRIGGER_O) and (t & K.SINGLE))
    if t & K.ACTIVATE and kind == "counter-trap":
        exempt = True
    if exempt:
        allowed = set(ALL)
    else:
        allowed = set()
        if code in K.DS_EVENTS or "EFFECT_FLAG_DAMAGE_STEP" in e.flags:
            allowed |= PHASE_DAMAGE
        if code in K.CALC_EVENTS or "EFFECT_FLAG_DAMAGE_CAL" in e.flags:
            allowed.add("calc")
    if code in EVENT_WHEN:  # the event it waits for happens only then
        allowed &= EVENT_WHEN[code]
    if e.probe is not None:  # its condition, cost and target, run in each timing (luarun.py)
        allowed &= e.probe
    if e.dscon:  # aux.dscon: not once damage has been calculated (damage calculation itself passes)
        allowed -= AFTER_CALC
    if e.after_calc:
        allowed &= AFTER_CALC
    return frozenset(allowed)


def event_name(e: ScriptEffect) -> str | None:
    """The effect's event as the constant's name (``EVENT_TO_GRAVE``), whether read as a number or a name."""
    if isinstance(e.code, int):
        return K.EVENT_NAMES.get(e.code)
    return e.code if isinstance(e.code, str) else None


def event_words(e: ScriptEffect) -> set[str]:
    """``on:<event>`` for an effect that is activated only when an event happens (a trigger, a card or a
    quick effect activated "when …"), with ``self-event`` when the event must happen to the card itself
    (a SINGLE effect). A flip effect's event is its own flip, judged by the flip rules."""
    t = e.type
    if t & K.FLIP or not t & (K.TRIGGER_O | K.TRIGGER_F | K.QUICK_O | K.QUICK_F | K.ACTIVATE):
        return set()
    word = ON_EVENTS.get(event_name(e) or "")
    if word is None:
        return set()
    return {f"on:{word}", "self-event"} if t & K.SINGLE else {f"on:{word}"}


#: the zones of a script's range -> where the log puts a card (`from:` words, games/ygo/vocabulary.py)
RANGE_ZONES = {"LOCATION_HAND": "hand", "LOCATION_MZONE": "field", "LOCATION_SZONE": "field",
               "LOCATION_FZONE": "field", "LOCATION_PZONE": "field", "LOCATION_ONFIELD": "field",
               "LOCATION_GRAVE": "gy", "LOCATION_REMOVED": "banished", "LOCATION_DECK": "deck"}


def zone_words(e: ScriptEffect) -> set[str]:
    """``from:<zone>`` for where an effect is used from (its range). A card's activation (ACTIVATE), an effect
    with no range and a trigger of the card itself (SINGLE: its range is where the card was, not where the
    effect is used from) say nothing."""
    if e.type & (K.ACTIVATE | K.SINGLE) or not e.type & K.ACTIONS or not e.range:
        return set()
    zones = {RANGE_ZONES.get(r) for r in e.range}
    if None in zones:  # a zone the notation has no word for (the Extra Deck, an Xyz's materials): no claim
        return set()
    return {f"from:{z}" for z in zones}


def descriptive_words(e: ScriptEffect, kind: str | None) -> set[str]:
    """What the effect is, in property words, before any permission word."""
    t = e.type
    words: set[str] = set()
    if t & K.FLIP:
        words.add("flip")
        words.add("mandatory" if not t & K.TRIGGER_O else "optional")
    elif t & (K.TRIGGER_O | K.TRIGGER_F):
        words.add("trigger")
        words.add("mandatory" if t & K.TRIGGER_F else "optional")
        if t & K.SINGLE and t & K.TRIGGER_O and event_number(e) not in BATTLE_EVENTS:
            words.add("self-trigger")
    elif t & (K.QUICK_O | K.QUICK_F):
        words.add("quick")
    elif t & K.IGNITION:
        words.add("ignition")
    if e.categories & {"CATEGORY_ATKCHANGE", "CATEGORY_DEFCHANGE"}:
        words.add("atk-mod")
    if "CATEGORY_NEGATE" in e.categories:
        words.add("negates-activation")
    elif "CATEGORY_DISABLE" in e.categories:
        words.add("negates-effect")
    if "EFFECT_FLAG_CARD_TARGET" in e.flags:
        words.add("targets")
    code = event_number(e)
    if code in EVENT_TIMINGS:
        words.update(EVENT_TIMINGS[code])
    if code in BATTLE_EVENTS and ("trigger" in words or t & K.ACTIVATE):
        words.add("battle-trigger")
    words |= {f"shut-as:{place}" for place in e.shut if not place.startswith(("ep-", "ec-"))}
    if "ep-opponent" in e.shut and "ep-self" not in e.shut:  # answers only its own player's damage or gain
        words.add("event-player:self")
    elif "ep-self" in e.shut and "ep-opponent" not in e.shut:
        words.add("event-player:opponent")
    if "ec-opponent" in e.shut and "ec-own" not in e.shut:  # answers only an event to its own player's card
        words.add("event-player:self")
    elif "ec-own" in e.shut and "ec-opponent" not in e.shut:
        words.add("event-player:opponent")
    return words | event_words(e) | zone_words(e)


def replayer_timings(words: frozenset[str] | set[str], kind: str | None, game: "Game") -> frozenset[str]:
    """The timings at which ``game``'s Damage Step rules (current revision) allow these words
    (:attr:`Game.damage_step_timings <replayer.games.base.Game.damage_step_timings>`: the reader
    asks the game it reads cards for)."""
    return _replayer_timings(frozenset(words), kind, game)


@lru_cache(maxsize=4096)
def _replayer_timings(words: frozenset[str], kind: str | None, game: "Game") -> frozenset[str]:
    rules = game.damage_step_timings
    if rules is None:
        return frozenset()
    return rules(words | ({kind} if kind else frozenset()))


#: events a Counter Trap typically answers: an unknown card activated on one may be a Counter Trap
COUNTER_EVENTS = frozenset({"EVENT_SUMMON", "EVENT_SPSUMMON", "EVENT_FLIP_SUMMON", "EVENT_CHAIN_ACTIVATING",
                            1027})


def may_be_counter_trap(e: ScriptEffect, kind: str | None) -> bool:
    """A card of unknown kind whose activation looks like a Counter Trap's (it answers a chain or a summon)."""
    return kind is None and bool(e.type & K.ACTIVATE) and (
        e.code in COUNTER_EVENTS or bool(e.categories & {"CATEGORY_NEGATE", "CATEGORY_DISABLE_SUMMON"}))


def effect_words(e: ScriptEffect, kind: str | None, game: "Game") -> tuple[frozenset[str], frozenset[str]]:
    """(property words, the engine's timings): words chosen so that ``game``'s rules give those timings.

    For a card whose kind is unknown (a script with no cdb row) the readings it allows are
    taken together: an activation that may be a Counter Trap's is allowed at every timing (``ds-ok``).
    """
    words = descriptive_words(e, kind)
    if may_be_counter_trap(e, kind):  # a Counter Trap would be allowed everywhere: so is it, until the kind is known
        return frozenset(words | {"ds-ok"}) if not replayer_timings(words, kind, game) >= set(ALL) else frozenset(words), \
            frozenset(ALL)
    want = engine_timings(e, kind)
    have = replayer_timings(words, kind, game)
    if have != want:
        words = fit(words, kind, want, game)
    return frozenset(words), want


def fit(words: set[str], kind: str | None, want: frozenset[str], game: "Game") -> set[str]:
    """Add the permission words (and drop named timings that the event does not restrict to)."""
    if not want:
        return words | {"no-ds"}
    trial = set(words)
    if not want <= replayer_timings(trial, kind, game):
        trial.add("ds-ok")
    have = replayer_timings(trial, kind, game)
    if have == want:
        return trial
    if "calc" in have and "calc" not in want:
        trial.add("no-calc")
        have = replayer_timings(trial, kind, game)
    if have == want:
        return trial
    # a narrower window than any clause gives: name it (the timings the effect may be used at)
    trial = {w for w in words if not w.startswith("timing:")} | {f"timing:{t}" for t in want}
    trial.add("ds-ok")
    return trial


def lend_trigger_window(effects: list[dict]) -> None:
    """A set Continuous Trap whose optional trigger-like or quick-like effect has a timing at least partly
    specific to the Damage Step may be activated there, to use that effect in the same chain link (Yugipedia:
    Damage Step § Cards and effects that can be activated — Yang Zing Creation, Damage = Reptile); with a
    mandatory one it may not (the same page: Robbin' Goblin, Backfire). The card's bare activation (no
    permission of its own) is given the effect's window and event: allowed where, and when, the effect is."""
    lender = next((e for e in effects if "optional" in e["props"] and e["type"] & (K.TRIGGER_O | K.QUICK_O)
                   and any(w == "battle-trigger" or w.startswith("timing:") for w in e["props"])
                   and any(w.startswith("on:") for w in e["props"])), None)  # (its event: the log shows it)
    if lender is None:
        return
    for e in effects:
        if e["type"] & K.ACTIVATE and e.get("event") == "EVENT_FREE_CHAIN" and not e["damage_step"]:
            words = {w for w in lender["props"] if w.startswith(("on:", "timing:", "event-player:")) or w == "self-event"}
            e["props"] = sorted(set(e["props"]) | words | {"ds-ok"})
            e["damage_step"] = list(lender["damage_step"])
            e["lent"] = lender["from"]
