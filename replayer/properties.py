"""The property words of spec §6, per game, and how a ``{...}`` list is read."""

from __future__ import annotations

import re

YGO_KINDS = frozenset({
    "normal-monster", "effect-monster", "flip-monster", "normal-spell", "quick-play",
    "continuous-spell", "equip-spell", "field-spell", "ritual-spell", "normal-trap",
    "continuous-trap", "counter-trap",
})
YGO_TIMINGS = ("ds-start", "before-calc", "calc", "after-calc", "ds-end", "battle-damage", "battle-destruction")
#: where an effect is used from (`from:gy` on an effect of the catalog): tells the effects of a card apart
YGO_ZONES = ("hand", "field", "gy", "banished", "deck")
YGO_WORDS = YGO_KINDS | frozenset({
    "quick", "trigger", "ignition", "flip", "continuous", "mandatory", "optional", "atk-mod",
    "negates-activation", "negates-effect", "self-trigger", "battle-trigger", "ds-ok", "no-ds",
    "summons", "ends-battle-phase", "targets", "piercing", "monster", "spell", "trap",
}) | frozenset(f"timing:{t}" for t in YGO_TIMINGS) | frozenset(f"from:{z}" for z in YGO_ZONES)

DM_WORDS = frozenset({
    "creature", "spell", "speed-attacker", "mach-fighter", "blocker", "guardman", "redirect",
    "w-breaker", "t-breaker", "s-trigger", "revolution-0", "can-attack-untapped", "cannot-attack",
    "cannot-attack-players", "wins-all-battles", "cip", "end-of-attack", "after-attack",
    "attack-trigger", "when-attacked", "when-blocked", "tapped", "untapped", "summoned",
})
#: words that take a number: ``power 3000``, ``ninja-strike 5``
DM_NUMBERED = frozenset({"power", "ninja-strike"})

WORDS = {"ygo": YGO_WORDS, "dm": DM_WORDS}
_NUMBERED = re.compile(r"^([a-z][a-z0-9-]*)\s+(\d+)$")


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
    m = _NUMBERED.match(word)
    return bool(m and game == "dm" and m.group(1) in DM_NUMBERED)


def all_words(game: str) -> list[str]:
    words = sorted(WORDS[game])
    if game == "dm":
        words += [f"{w} N" for w in sorted(DM_NUMBERED)]
    return words
