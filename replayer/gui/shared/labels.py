"""The timeline's event labels in the window's language (issue 24): what happened, in a few words
(``set Kuriboh``, ``Lyla → Blue-Eyes White Dragon``), the card names in that language where the
card catalog has them (as a finding's :class:`~replayer.i18n.Name` parameters are), else as the
log wrote them. In English a label is :func:`~replayer.gui.document.event_label`'s, as before.
"""

from __future__ import annotations

from typing import Callable

from ... import events as ev
from ...i18n import render
from ...states import Replay, cards_of
from .language import M

#: a summon's kind as the notation writes it (``special summon``) -> its word
SUMMON_KINDS = {
    "normal": M.term("summon kind", "normal"), "tribute": M.term("summon kind", "tribute"),
    "special": M.term("summon kind", "special"), "fusion": M.term("summon kind", "fusion"),
    "synchro": M.term("summon kind", "synchro"), "xyz": M.term("summon kind", "xyz"),
    "ritual": M.term("summon kind", "ritual"), "link": M.term("summon kind", "link"),
    "pendulum": M.term("summon kind", "pendulum"), "flip": M.term("summon kind", "flip"),
}
#: a Duel Masters main-step verb (``charge``, ``summon``, ``cast``)
VERBS = {"charge": M("charge {card}"), "summon": M("summon {card}"), "cast": M("cast {card}")}
#: a declaration (``ninja-strike``, …)
DECLARED = {"ninja-strike": M.term("declared", "ninja strike"), "revolution-0": M.term("declared", "revolution 0"),
            "invade": M.term("declared", "invade"), "revolution-change": M.term("declared", "revolution change")}
#: where a card moves to
ZONES = {"gy": M.term("zone", "GY"), "banished": M.term("zone", "banished"), "hand": M.term("zone", "hand"),
         "mana": M.term("zone", "mana"), "shields": M.term("zone", "shields")}
#: a structure line's kind (``phase``, ``step``, ``timing``)
STRUCTURE = {"phase": M.term("structure", "phase"), "step": M.term("structure", "step"),
             "timing": M.term("structure", "timing")}


def event_label_in(e: ev.Event, lang: str, r: Replay | None = None, index: int = -1,
                   name: Callable[[ev.CardRef], str] | None = None,
                   structure: Callable[[str, str], str | None] | None = None) -> str:
    """``e``'s label in ``lang``: ``name`` gives a card's name there, ``structure`` the game's word
    for a phase, step or timing line there (``phase battle``: バトルフェイズ), if it has one."""
    c = name or (lambda ref: ref.label)

    def say(m, **params) -> str:
        return m.replace(**params).render(lang) if params else m.render(lang)

    k = e.kind
    if k == "summon":
        kind = SUMMON_KINDS.get(e.method)
        return say(M("{kind} summon {card}"), kind=render(kind, lang) if kind is not None else e.method, card=c(e.card))
    if k == "set":
        return say(M("set {card}"), card=c(e.card))
    if k == "main":
        verb = VERBS.get(e.verb)
        return say(verb, card=c(e.card)) if verb is not None else f"{e.verb} {c(e.card)}"
    if k == "attack":
        if e.target is None:
            target = M("direct") if e.target_position == "direct" else M("player")
            return f"{c(e.attacker)} → {render(target, lang)}"
        return f"{c(e.attacker)} → {c(e.target)}"
    if k == "activate":
        link = r.link_of.get(index) if r is not None else None
        prefix = f"CL{link[1]} " if link else ""
        return prefix + c(e.card)
    if k == "trigger":
        return say(M("trigger {card}"), card=c(e.card))
    if k == "resolve-ability":
        return say(M("resolve {card}"), card=c(e.card))
    if k == "declare":
        what = DECLARED.get(e.what)
        return f"{render(what, lang) if what is not None else e.what.replace('-', ' ')} {c(e.card)}"
    if k == "s-trigger":
        return say(M("S-Trigger {cards}"), cards=", ".join(c(x) for x in cards_of(e)))
    if k == "damage":
        return f"{e.player or ''} −{e.amount}".strip()
    if k == "lp":
        return f"{e.player or ''} LP {e.value}".strip()
    if k == "break":
        return say(M("break {n}"), n=e.count)
    if k == "atk":
        value = f"{e.value:+d}" if e.relative else str(e.value)
        return f"{c(e.card)} ATK {value}"
    if k == "change":
        return f"{c(e.card)} → {'ATK' if e.position == 'attack' else 'DEF'}"
    if k == "flip":
        return say(M("flip {card}"), card=c(e.card))
    if k == "destroy":
        return say(M("destroy {card} (battle)") if e.by_battle else M("destroy {card}"), card=c(e.card))
    if k == "move":
        to = ZONES.get(e.to)
        return f"{c(e.card)} → {render(to, lang) if to is not None else e.to}"
    if k == "negate":
        return say(M("negate {card}"), card=c(e.card))
    if k == "pass":
        return say(M("pass"))
    if k == "draw":
        return say(M("draw")) if e.count == 1 else say(M("draw {n}"), n=e.count)
    if k == "block":
        return say(M("guardman {card}") if e.guardman else M("block: {card}"), card=c(e.card))
    if k == "redirect":
        return say(M("redirect → {card}"), card=c(e.target))
    if k == "tap":
        return say(M("tap {card}") if e.tapped else M("untap {card}"), card=c(e.card))
    if k == "resolve":
        if r is not None and index in r.resolve_of:
            order = r.chains[r.resolve_of[index]].order
            if len(order) > 1:
                return say(M("resolve {order}"), order="→".join(map(str, order)))
        return say(M("resolve"))
    if k == "battle":
        return say(M("{card} vs {other}"), card=c(e.first), other=c(e.second))
    if k == "attack-ends":
        return say(M("attack ends"))
    if k == "end-battle-phase":
        return say(M("end Battle Phase"))
    if k == "direct-attack":
        return say(M("direct attack"))
    if k == "win":
        return say(M("wins"))
    if k == "turn":
        return say(M("turn {n} {player}"), n=e.number, player=e.player)
    if k in ("phase", "step", "timing"):
        said = structure(k, e.name) if structure is not None else None
        return said or f"{render(STRUCTURE[k], lang)} {e.name}"
    return k
