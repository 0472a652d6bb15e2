"""What the editor completes: the keywords of a game in all three languages (taken from the
grammar's terminals and the alias table) and card names (the built-in catalog, then any other
source registered in :data:`CARD_SOURCES`, such as the imported card database)."""

from __future__ import annotations

import logging
from functools import lru_cache
from re import _constants as sre_constants  # the regex parser's own names (Python 3.11+)
from re import _parser as _sre_parse
from typing import Callable, Iterable

log = logging.getLogger("replayer.gui")


def imported_card_names(game: str) -> list[str]:
    """The names in the imported card database (``replayer cards import``), if there is one."""
    from ...cards.layers import active_cards_db

    db = active_cards_db()
    return db.names(game) if db is not None else []


#: functions ``game -> card names`` asked for completion besides the built-in catalog
CARD_SOURCES: list[Callable[[str], Iterable[str]]] = [imported_card_names]


# ---- what to complete ------------------------------------------------------------------------------
def _expand(items, limit: int = 64) -> set[str] | None:
    """The finite set of strings a parsed regex matches (white space as one blank), or None."""
    out = {""}
    for op, arg in items:
        if op is sre_constants.LITERAL:
            alts = {chr(arg)}
        elif op is sre_constants.BRANCH:
            alts = set()
            for branch in arg[1]:
                sub = _expand(branch, limit)
                if sub is None:
                    return None
                alts |= sub
        elif op is sre_constants.SUBPATTERN:
            alts = _expand(arg[-1], limit)
            if alts is None:
                return None
        elif op is sre_constants.IN:
            if any(o is sre_constants.CATEGORY and a is sre_constants.CATEGORY_SPACE for o, a in arg):
                alts = {" "}
            elif all(o is sre_constants.LITERAL for o, _ in arg):
                alts = {chr(a) for _, a in arg}
            else:
                return None
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            lo, hi, sub_items = arg
            sub = _expand(sub_items, limit)
            if sub is None:
                return None
            if sub == {" "}:
                alts = {" "} if lo >= 1 else {"", " "}
            elif hi <= 1:
                alts = sub | ({""} if lo == 0 else set())
            else:
                return None
        elif op in (sre_constants.ASSERT_NOT, sre_constants.ASSERT, sre_constants.AT):
            continue
        else:
            return None
        out = {a + b for a in out for b in alts}
        if len(out) > limit:
            return None
    return out


@lru_cache(maxsize=None)
def keywords(game: str) -> tuple[str, ...]:
    """Every keyword of ``game`` in English, Japanese and German: the words the grammar's
    terminals accept (taken from the lark grammar itself) and the alias table's keys."""
    from ...games import get as get_game
    from ...grammar import parser
    from ...transform import ALIASES

    words: set[str] = set()
    for t in parser(get_game(game)).terminals:
        pattern = t.pattern
        if type(pattern).__name__ == "PatternStr":
            found = {pattern.value}
        else:
            try:
                found = _expand(_sre_parse.parse(pattern.value))
            except Exception:
                found = None
        for w in found or ():
            w = " ".join(w.split())
            if w and any(ch.isalpha() for ch in w):
                words.add(w)
    words |= set(ALIASES)
    return tuple(sorted(words, key=lambda w: (w.casefold(), w)))


def card_names(game: str) -> list[str]:
    """Card names for completion: the built-in catalog's, in every language, then other sources."""
    from ...games import get as get_game

    names: list[str] = []
    seen: set[str] = set()
    for card in get_game(game).catalog.cards:
        for n in list(card.names.values()) + list(card.aliases):
            if n not in seen:
                seen.add(n)
                names.append(n)
    for source in list(CARD_SOURCES):
        try:
            for n in source(game):
                if n not in seen:
                    seen.add(n)
                    names.append(n)
        except Exception:
            log.debug("card source %r failed", source, exc_info=True)
    return sorted(names, key=str.casefold)
