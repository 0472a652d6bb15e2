"""The games' words as the window shows them (issue 24): the phases, steps, Damage Step timings and
attack sub-steps on the timeline's bands and in the State pane, the rows' and lanes' names, a card's
position — each game's English word (its vocabulary's labels and band forms) as the window's
catalog translates it, in the rulebooks' terms (docs/glossary.md: ダメージ計算前, vor der
Schadensberechnung).

The words are keyed by the game's id and the English word, the game's own: the window asks
:func:`word` for whatever word the game gives it, and a word without a translation is written as
the game wrote it. (The games' catalogs translate the words of their findings; these are the
window's, kept in the window's catalog: the labels of the games' vocabularies are English strings.)
"""

from __future__ import annotations

import re

from ...i18n import Msg, Said
from .language import M, lang, text


def _table(*terms: Msg) -> dict[str, Msg]:
    return {t.text: t for t in terms}


#: game id -> English word -> the word as a message of the window's catalog: Yu-Gi-Oh!'s phases and
#: steps (the OCG rulebook's フェイズ / ステップ; the German rulebook keeps the English), the five
#: Damage Step timings and their shorter forms on a narrow band, the rows', lanes' and State pane's
#: words; Duel Masters' steps of a turn, an attack's sub-steps (the attack procedure's, 1–7), its words
WORDS = {
    "ygo": _table(
        M.term("ygo rules word", "Draw Phase"), M.term("ygo rules word", "Standby Phase"),
        M.term("ygo rules word", "Main Phase 1"), M.term("ygo rules word", "Battle Phase"),
        M.term("ygo rules word", "Main Phase 2"), M.term("ygo rules word", "End Phase"),
        M.term("ygo rules word", "Draw"), M.term("ygo rules word", "Standby"), M.term("ygo rules word", "Main 1"),
        M.term("ygo rules word", "Battle"), M.term("ygo rules word", "Main 2"), M.term("ygo rules word", "End"),
        M.term("ygo rules word", "DP"), M.term("ygo rules word", "SP"), M.term("ygo rules word", "M1"),
        M.term("ygo rules word", "BP"), M.term("ygo rules word", "M2"), M.term("ygo rules word", "EP"),
        M.term("ygo rules word", "Start Step"), M.term("ygo rules word", "Battle Step"),
        M.term("ygo rules word", "Damage Step"), M.term("ygo rules word", "End Step"),
        M.term("ygo rules word", "Start"), M.term("ygo rules word", "Damage"), M.term("ygo rules word", "BS"),
        M.term("ygo rules word", "DS"), M.term("ygo rules word", "start of the Damage Step"),
        M.term("ygo rules word", "before damage calculation"), M.term("ygo rules word", "damage calculation"),
        M.term("ygo rules word", "after damage calculation"), M.term("ygo rules word", "end of the Damage Step"),
        M.term("ygo rules word", "DS start"), M.term("ygo rules word", "before calc"),
        M.term("ygo rules word", "pre-calc"), M.term("ygo rules word", "pre"), M.term("ygo rules word", "calc"),
        M.term("ygo rules word", "after calc"), M.term("ygo rules word", "post-calc"),
        M.term("ygo rules word", "post"), M.term("ygo rules word", "DS end"), M.term("ygo rules word", "start"),
        M.term("ygo rules word", "end"), M.term("ygo rules word", "Battle Phases"),
        M.term("ygo rules word", "Damage Steps"), M.term("ygo rules word", "Step"),
        M.term("ygo rules word", "Chains"), M.term("ygo rules word", "Field"),
        M.term("ygo rules word", "direct attack"), M.term("ygo rules word", "face-down"),
        M.term("ygo rules word", "defense position"), M.term("ygo rules word", "attack position"),
        M.term("ygo rules word", "attacking"), M.term("ygo rules word", "destroyed by battle"),
        M.term("ygo rules word", "flip effect"), M.term("ygo rules word", "trigger"),
        M.term("ygo rules word", "negated"), M.term("ygo rules word", "from hand"),
        M.term("ygo rules word", "from gy"), M.term("ygo rules word", "from banished"),
        M.term("ygo rules word", "from deck"),
    ),
    "dm": _table(
        M.term("dm rules word", "Start of Turn"), M.term("dm rules word", "Untap Step"),
        M.term("dm rules word", "Draw Step"), M.term("dm rules word", "Charge Step"),
        M.term("dm rules word", "Main Step"), M.term("dm rules word", "Attack Step"),
        M.term("dm rules word", "End Step"), M.term("dm rules word", "Start"), M.term("dm rules word", "Untap"),
        M.term("dm rules word", "Draw"), M.term("dm rules word", "Charge"), M.term("dm rules word", "Main"),
        M.term("dm rules word", "Attack"), M.term("dm rules word", "Battle Phase"), M.term("dm rules word", "End"),
        M.term("dm rules word", "1 declaration"), M.term("dm rules word", "2 continuous abilities"),
        M.term("dm rules word", "3 attack triggers"), M.term("dm rules word", "4 block / redirect"),
        M.term("dm rules word", "5 block triggers"), M.term("dm rules word", "6A battle"),
        M.term("dm rules word", "6B shield break"), M.term("dm rules word", "6C direct attack"),
        M.term("dm rules word", "7 end of the attack"), M.term("dm rules word", "attack sub-step"),
        M.term("dm rules word", "Attack Steps"), M.term("dm rules word", "attacks"),
        M.term("dm rules word", "Sub-step"), M.term("dm rules word", "Table"),
        M.term("dm rules word", "Battle zone"), M.term("dm rules word", "the player"),
        M.term("dm rules word", "tapped"), M.term("dm rules word", "untapped"), M.term("dm rules word", "attacking"),
        M.term("dm rules word", "blocking"),
        M.term("dm rules word", "waiting"), M.term("dm rules word", "resolved"),
        M.term("dm rules word", "S-Trigger"),
    ),
}

_POWER = re.compile(r"^power (\S+)$")
_EFFECT = re.compile(r"^effect (\d+)$")


def word(game: str, english: str) -> str:
    """``english`` (a word ``game`` gave the window) in the window's language; as given if the
    window's catalog has no such word of that game."""
    if lang() == "en" or not english:
        return english
    m = WORDS.get(game, {}).get(english)
    if m is not None:
        return text(m)
    p = _POWER.match(english)
    if p:
        return text(M("power {power}", power=p.group(1)))
    p = _EFFECT.match(english)
    if p:
        return text(M("effect {n}", n=p.group(1)))
    return english


def words(game: str, joined: str, sep: str) -> str:
    """A line of words joined by ``sep`` (``Battle Phase › Damage Step``), each in the window's language."""
    if lang() == "en":
        return joined
    if isinstance(joined, Said):  # a line the game wrote as a message (a chain link's detail)
        return joined.render(lang())
    out = []
    for part in joined.split(sep):
        if part.startswith("attack sub-step "):
            part = word(game, "attack sub-step") + " " + word(game, part[len("attack sub-step "):])
        else:
            part = word(game, part)
        out.append(part)
    return sep.join(out)
