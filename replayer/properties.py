"""The property words of spec §6, per game, and how a ``{...}`` list is read.

This is the one table of valid properties: the reader warns about every word :func:`is_known`
refuses, and the validators and the window use only the words it accepts (:func:`known`), so a
word warned about as ignored is ignored everywhere.
"""

from __future__ import annotations

import re

from .numbers import MAX_DIGITS

YGO_KINDS = frozenset({
    "normal-monster", "effect-monster", "flip-monster", "normal-spell", "quick-play",
    "continuous-spell", "equip-spell", "field-spell", "ritual-spell", "normal-trap",
    "continuous-trap", "counter-trap",
})
YGO_TIMINGS = ("ds-start", "before-calc", "calc", "after-calc", "ds-end", "battle-damage")
YGO_WORDS = YGO_KINDS | frozenset({
    "quick", "trigger", "ignition", "flip", "continuous", "mandatory", "optional", "atk-mod",
    "negates-activation", "negates-effect", "self-trigger", "battle-trigger", "ds-ok", "no-ds",
    "summons", "ends-battle-phase", "targets", "piercing", "monster", "spell", "trap",
}) | frozenset(f"timing:{t}" for t in YGO_TIMINGS)

DM_WORDS = frozenset({
    "creature", "spell", "speed-attacker", "mach-fighter", "blocker", "guardman", "redirect",
    "w-breaker", "t-breaker", "s-trigger", "revolution-0", "can-attack-untapped", "cannot-attack",
    "cannot-attack-players", "wins-all-battles", "cip", "end-of-attack", "after-attack",
    "attack-trigger", "when-attacked", "when-blocked", "tapped", "untapped", "summoned",
})
#: words that take a number: ``power 3000``, ``ninja-strike 5``
DM_NUMBERED = frozenset({"power", "ninja-strike"})

WORDS = {"ygo": YGO_WORDS, "dm": DM_WORDS}
NUMBERED = {"ygo": frozenset(), "dm": DM_NUMBERED}
_NUMBERED = re.compile(r"^([a-z][a-z0-9-]*)\s+([0-9]{1,%d})$" % MAX_DIGITS)


def parse_props(text: str) -> list[str]:
    """Split the inside of ``{...}`` into normalized words (lower case, single spaces)."""
    out = []
    for part in text.split(","):
        word = " ".join(part.split()).lower()
        if word:
            out.append(word)
    return out


def is_known(word: str, game: str) -> bool:
    if word in WORDS[game]:
        return True
    return numbered(word, game) is not None


def numbered(word: str, game: str) -> tuple[str, int] | None:
    """``("power", 3000)`` for ``power 3000`` (a word of the game that takes a number), else None."""
    m = _NUMBERED.match(word)
    if m is None or m.group(1) not in NUMBERED[game]:
        return None
    return m.group(1), int(m.group(2))


def known(words, game: str) -> tuple[str, ...]:
    """The words of ``words`` that are properties of ``game``, in order."""
    table = WORDS[game]
    return tuple(w for w in words if w in table or numbered(w, game) is not None)


def all_words(game: str) -> list[str]:
    words = sorted(WORDS[game])
    if game == "dm":
        words += [f"{w} N" for w in sorted(DM_NUMBERED)]
    return words
