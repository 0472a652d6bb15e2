"""Duel Masters: the abilities printed on a card, as the attack procedure uses them.

A creature's own abilities are property words (catalog, imported card text, inline ``{…}``), some
with a parameter (``power-attacker 3000``, ``cannot-be-blocked-by-power-at-most 4000``,
``cannot-be-blocked-by:darkness``). A **static ability** changes what *other* creatures may do
while its card is in the battle zone ("your opponent's creatures can't block", Dione's "creatures
that have speed attacker can't attack on the turn they are put into the battle zone", "each of your
other fire creatures has power attacker +2000"): :class:`Static`, read from the imported card's
text (``replayer.cards.text.dm_read``) or from one of the inline words :data:`STATIC_WORDS`. The
model asks :func:`granted` for the words the statics of the cards in the battle zone give a
creature. A sentence of a card's text that no pattern reads is an ``unread`` effect: the model
says so in an info (``dm.card.ability-not-read``) and applies nothing for it. Rules and citations:
docs/rules-dm.md §12.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .vocabulary import CIVILIZATIONS

#: words that take a number (vocabulary.NUMBERED_WORDS) and that this module adds up or compares
POWER_ATTACKER = "power-attacker"
POWER_PLUS = "power-plus"
BLOCK_POWER_AT_LEAST = "cannot-be-blocked-by-power-at-least"
BLOCK_POWER_AT_MOST = "cannot-be-blocked-by-power-at-most"


@dataclass(frozen=True)
class Static:
    """A static ability of a card in the battle zone: the creatures it applies to and what it gives."""

    who: str  # yours | opponents | all (seen from the card's owner)
    gives: frozenset[str]
    other: bool = False  # not the card itself
    civs: frozenset[str] = frozenset()  # only creatures of one of these civilizations
    races: tuple[str, ...] = ()  # only creatures of one of these races (as the text writes them)
    needs: str | None = None  # only creatures that have this word
    power_at_least: int | None = None  # only creatures with at least this power
    line: str = ""  # where it came from
    itself: bool = False  # only the card itself (an ability of its own that holds while … )
    while_no_shields: str | None = None  # only while this player has no shields: yours | opponents

    @classmethod
    def from_dict(cls, d: dict, line: str = "") -> "Static":
        return cls(str(d.get("who", "all")), frozenset(d.get("gives", ())), bool(d.get("other", False)),
                   frozenset(d.get("civs", ())), tuple(d.get("races", ())), d.get("needs"),
                   d.get("power_at_least"), line, bool(d.get("itself", False)), d.get("while_no_shields"))


#: inline words (vocabulary.PROPERTY_WORDS) for the common static abilities
STATIC_WORDS = {
    "opponents-cannot-block": Static("opponents", frozenset({"cannot-block"}), line="{opponents-cannot-block}"),
    "speed-attackers-wait": Static("all", frozenset({"cannot-attack-turn-entered"}), needs="speed-attacker",
                                   line="{speed-attackers-wait}"),
}


def numbers(props: frozenset[str], word: str) -> list[int]:
    """The numbers of ``word N`` among ``props`` (``power-attacker 3000`` -> [3000])."""
    out = []
    prefix = word + " "
    for p in props:
        if p.startswith(prefix):
            tail = p[len(prefix):]
            if tail.isdigit():
                out.append(int(tail))
    return out


def statics_of(info, props: frozenset[str]) -> tuple[Static, ...]:
    """The static abilities of a card: its imported text's, and those of its inline or catalog words."""
    out = []
    details = getattr(info, "effect_details", ()) if info is not None else ()
    sources = getattr(info, "effect_sources", ()) if info is not None else ()
    for i, d in enumerate(details):
        st = d.get("static")
        if isinstance(st, dict):
            out.append(Static.from_dict(st, sources[i] if i < len(sources) else ""))
    for word, st in STATIC_WORDS.items():
        if word in props:
            out.append(st)
    for n in numbers(props, "all-power-attacker"):
        out.append(Static("yours", frozenset({f"{POWER_ATTACKER} {n}"}), line=f"{{all-power-attacker {n}}}"))
    return tuple(out)


def unread_of(info, about: str) -> tuple[str, ...]:
    """Where the sentences of an imported card's text that no pattern read come from: those about the
    card itself (``about="own"``) or about other creatures (``"field"``)."""
    details = getattr(info, "effect_details", ()) if info is not None else ()
    sources = getattr(info, "effect_sources", ()) if info is not None else ()
    return tuple(sources[i] if i < len(sources) else "" for i, d in enumerate(details) if d.get("unread") == about)


_POWER_UP = re.compile(r"\+\s?\d+\s*power|power\s*\+\s?\d+|パワー\s*\+", re.I)
_POWER_DOWN = re.compile(r"-\s?\d+\s*power|power\s*-\s?\d+|パワー\s*-", re.I)


def power_may_differ(info) -> str | None:
    """How an unread sentence of the card's own text may change its power, so that a battle cannot be
    judged from the power the log and the data give: ``"more"`` (only up), ``"any"`` (down too), None."""
    lines = unread_of(info, "own")
    if any(_POWER_DOWN.search(src) for src in lines):
        return "any"
    return "more" if any(_POWER_UP.search(src) for src in lines) else None


def civs_of(props: frozenset[str]) -> frozenset[str]:
    return frozenset(c for c in CIVILIZATIONS if c in props)


def races_of(props: frozenset[str]) -> tuple[str, ...]:
    return tuple(p[5:] for p in props if p.startswith("race:"))


def race_matches(wanted: str, races: tuple[str, ...]) -> bool:
    """Is a creature of ``races`` one of the ``wanted`` race the text names ("Ghosts", "Dragon" in
    "has Dragon in its race", "Liquid People")? A plural names the race; a one-word race also
    matches a race that has it as a word ("Armored Dragon" is a Dragon)."""
    w = " ".join(wanted.lower().split())
    forms = {w}
    if w.endswith("es"):
        forms.add(w[:-2])
    if w.endswith("s"):
        forms.add(w[:-1])
    for r in races:
        if r in forms:
            return True
        if " " not in w and any(f in r.split() for f in forms):
            return True
    return False


def applies(st: Static, source_key: str, source_owner: str | None, key: str, owner: str | None,
            props: frozenset[str], power: int | None, shields: dict[str, int] | None = None) -> bool | None:
    """Does ``st`` (of the card ``source_key``) apply to the creature ``key``, with ``shields`` (player ->
    shields left)? None: cannot tell (an owner or a fact the log does not give)."""
    if (st.other and key == source_key) or (st.itself and key != source_key):
        return False
    if st.while_no_shields is not None:
        if source_owner is None or shields is None:
            return None
        whose = source_owner if st.while_no_shields == "yours" else {"A": "B", "B": "A"}.get(source_owner)
        if shields.get(whose or "", 1) != 0:
            return False
    if st.who != "all":
        if source_owner is None or owner is None:
            return None
        if (st.who == "yours") != (source_owner == owner):
            return False
    if st.civs and not st.civs & civs_of(props):
        return False if civs_of(props) else None
    if st.races:
        races = races_of(props)
        if not races:
            return None
        if not any(race_matches(r, races) for r in st.races):
            return False
    if st.needs is not None and st.needs not in props:
        return False
    if st.power_at_least is not None:
        if power is None:
            return None
        if power < st.power_at_least:
            return False
    return True


@dataclass(frozen=True)
class Printed:
    """What the model needs of a card's printed abilities beyond its words, read once a card."""

    statics: tuple[Static, ...] = ()
    own_unread: tuple[str, ...] = ()  # where its unread sentences about itself come from
    field_unread: tuple[str, ...] = ()  # … and those about other creatures
    power_open: str | None = None  # an unread sentence changes its power: "more" or "any" (power_may_differ)
    field_power: bool = False  # an unread sentence changes other creatures' power
    own_breaks: bool = False  # an unread sentence changes how many shields it breaks ("crew breaker", "while …")
    race_blocker: bool = False  # "Dragon blocker": it blocks the attacks of some creatures (not read which)
    field_breaks: bool = False  # … how many other creatures break ("breaks one more shield")


NOTHING_PRINTED = Printed()


def printed_of(info, props: frozenset[str]) -> Printed:
    statics = statics_of(info, props)
    if not statics and not getattr(info, "effect_details", ()):
        return NOTHING_PRINTED
    own, field = unread_of(info, "own"), unread_of(info, "field")
    return Printed(statics, own, field, power_open=power_may_differ(info),
                   field_power=any(_POWER_UP.search(src) or _POWER_DOWN.search(src) for src in field),
                   own_breaks=any(_BREAKS.search(src) for src in own),
                   field_breaks=any(_BREAKS.search(src) for src in field),
                   race_blocker=any(_RACE_BLOCKER.search(src) for src in own + field))


_RACE_BLOCKER = re.compile(r"\(text: ['\"](?:\w+ ){1,3}blocker\b", re.I)
_BREAKS = re.compile(r"breaker|breaks? (?:one|\d+) more shields?|ブレイカー", re.I)
