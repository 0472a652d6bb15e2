"""Yu-Gi-Oh!: which effect of a card an `activate` line may mean (its readings).

A card may have several effects in the catalog. An `activate` line names one with a clause
(`effect N`, `trigger`, `flip effect`) or leaves it open. The validator judges an open line by
the readings the log allows — where the card is used from, whether it targets, whether the card
just moved (a trigger) — and gives an error only when none of them is legal (notation §3,
clarification after version 1). An explicit clause the catalog has no effect for is a fact about
the match: the line is checked as the kind of effect the log says (notation §4).

This module only builds the readings; the model (``model.py``) judges them.
"""

from __future__ import annotations


from ...i18n import COMMA, Msg, join
from ...records import record
from ...replay import CardFacts
from .words import M

#: effect words that make an effect something a player activates (a continuous effect is not)
ACTIVATED = frozenset({"quick", "trigger", "ignition", "flip"})
#: the words of a card's kind: what stays of a card when the log names an effect the catalog lacks
KIND_WORDS = frozenset({
    "normal-monster", "effect-monster", "flip-monster", "normal-spell", "quick-play", "continuous-spell",
    "equip-spell", "field-spell", "ritual-spell", "normal-trap", "continuous-trap", "counter-trap",
    "monster", "spell", "trap",
})
ZONE_PREFIX = "from:"


@record(slots=False)
class Reading:
    """One effect an `activate` line may mean."""

    props: frozenset[str]
    number: int | None  # its place in the catalog's list (effect N); None: the card's only effect
    unlisted: str = ""  # the clause the log wrote that the catalog has no effect for ("trigger", ...)

    @property
    def zones(self) -> frozenset[str]:
        return frozenset(w[len(ZONE_PREFIX):] for w in self.props if w.startswith(ZONE_PREFIX))

    def describe(self) -> Msg:
        kind = next((w for w in ("quick", "trigger", "flip", "ignition") if w in self.props), "")
        what = [w for w in ("atk-mod", "negates-activation", "negates-effect", "self-trigger", "battle-trigger",
                            "targets") if w in self.props]
        what += sorted(w for w in self.props if w.startswith("timing:"))
        words = ([M("{kind} effect", kind=KIND_TERMS[kind])] if kind else []) + what
        return join(words, COMMA) if words else M("no effect type")


#: the kinds of effect as words of a message (English: the notation's word, "quick effect")
KIND_TERMS = {"quick": M.term("ygo effect kind", "quick"), "trigger": M.term("ygo effect kind", "trigger"),
              "flip": M.term("ygo effect kind", "flip"), "ignition": M.term("ygo effect kind", "ignition")}

MONSTER_WORDS = frozenset({"normal-monster", "effect-monster", "flip-monster", "monster"})


def activatable(effect: frozenset[str], card: frozenset[str]) -> bool:
    """An effect a player activates. A monster's continuous effect on its own is never activated; a
    Spell/Trap Card's continuous effect is what activating the card starts."""
    return bool(effect & ACTIVATED) or "continuous" not in effect or not card & MONSTER_WORDS


def readings(facts: CardFacts, *, effect: int | None, trigger: bool, flip: bool) -> tuple[list[Reading], bool]:
    """The effects the line may mean, and whether the log left the choice open.

    With a clause, the readings are the catalog's effects of that kind (several triggers leave the
    choice open among them); with a clause the catalog has no effect for, one reading of the kind the
    log says, marked ``unlisted``. Without a clause, every effect that can be activated.
    """
    info = facts.info
    card = (info.props if info else frozenset()) | facts.props
    effects = info.effects if info else ()
    kinds = card & KIND_WORDS
    if effect is not None:
        if 1 <= effect <= len(effects):
            return [Reading(card | effects[effect - 1], effect)], False
        if not effects and effect == 1:
            return [Reading(card, None)], False
        return [Reading(kinds | facts.props, effect, f"effect {effect}")], False
    if trigger or flip:
        word = "flip" if flip else "trigger"
        listed = [Reading(card | e, i) for i, e in enumerate(effects, 1) if word in e]
        if listed:
            return listed, len(listed) > 1
        if not effects and word in card:
            return [Reading(card, None)], False
        extra = frozenset({"flip"}) if flip else frozenset({"trigger"})
        return [Reading(kinds | facts.props | extra, None, "flip effect" if flip else "trigger")], False
    if not effects:
        return [Reading(card, None)], False
    listed = [Reading(card | e, i) for i, e in enumerate(effects, 1) if activatable(e, card)]
    if not listed:
        listed = [Reading(card | effects[0], 1)]
    return listed, len(listed) > 1


def zone_matches(r: Reading, zone: str | None) -> bool:
    """Can this effect be used from ``zone``? An effect whose catalog entry names no zone may be used
    from anywhere (the catalog does not say, so it is never the reason for an error)."""
    if zone is None or not r.zones:
        return True
    return zone in r.zones


def ranked(options: list[Reading], *, zone: str | None, targets: bool, just_moved: bool) -> list[Reading]:
    """The readings the log allows, the likeliest first.

    Only the zone excludes a reading (an effect used from the hand is not the one used from the GY),
    and only while some reading fits it; targeting and a move of the card just before (which makes a
    trigger likely) order the rest, the catalog's order breaking ties.
    """
    fitting = [r for r in options if zone_matches(r, zone)] or list(options)

    def key(r: Reading) -> tuple[int, int, int, int]:
        return (0 if r.zones and zone in r.zones else 1,
                0 if targets == ("targets" in r.props) else 1,
                0 if just_moved == bool(r.props & {"trigger", "flip"}) else 1,
                r.number or 0)

    return sorted(fitting, key=key)
