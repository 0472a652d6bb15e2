"""The State pane's tree of a game state as plain rows (no widget: it can be built off the GUI
thread), in the window's language; :class:`~replayer.gui.shared.models.StateModel` shows it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...games import get as get_game
from ...i18n import render
from ...states import GameState
from ..shared import language
from ..shared.language import M, plural, tr
from ..shared.words import word, words


@dataclass
class Node:
    label: str
    value: str = ""
    parent: int = -1  # node id of the parent (-1: top level)
    children: list[int] = field(default_factory=list)
    row: int = 0
    tone: str = ""  # "" | "warn" | "dim" | "strong"
    tip: str = ""


class TreeBuilder:
    """The rows of one state: ``nodes`` (a node's id is its index) and ``top`` (the top level's ids)."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.top: list[int] = []

    def _add(self, label: str, value: str = "", parent: int = -1, tone: str = "", tip: str = "") -> int:
        nid = len(self.nodes)
        siblings = self.top if parent < 0 else self.nodes[parent].children
        self.nodes.append(Node(label, value, parent, [], len(siblings), tone, tip))
        siblings.append(nid)
        return nid

    def _build(self, s: GameState, players: dict[str, str]) -> None:
        def who(p: str | None) -> str:
            if p not in ("A", "B"):
                return "—"
            name = players.get(p, p)
            return p if name == p else f"{p} ({name})"

        game = get_game(s.game)
        gid = s.game

        def card(c) -> str:
            return words(gid, c.describe(game), " · ")

        lang = language.lang()

        def named(label: str) -> str:
            """A card's name in the window's language where the game's catalog has it (copy kept)."""
            if lang == "en" or not label:
                return label
            base, sep, copy = label.rpartition("#")
            if not (sep and copy.isdigit()):
                base, sep, copy = label, "", ""
            try:
                info = game.catalog.find(base)
            except Exception:
                info = None
            name = info.names.get(lang) if info is not None else None
            return (name + sep + copy) if name else label

        if s.turn is not None:
            self._add(tr("Turn"), f"{s.turn} · {who(s.turn_player)}", tone="strong")
        else:
            self._add(tr("Turn"), tr("— (before the first turn line)"), tone="dim")
        self._add(tr("Where"), self._where(s, game), tone="strong")
        if s.lp is not None:
            lp = self._add(tr("Life Points"), f"A {s.lp['A']} · B {s.lp['B']}")
            for msg in s.arithmetic:
                self._add(tr("arithmetic"), render(msg, lang), lp, tone="warn")
        if s.shields is not None:
            sh = self._add(tr("Shields"), f"A {s.shields['A']} · B {s.shields['B']}")
            if s.mana is not None and (s.mana["A"] or s.mana["B"]):
                self._add(tr("mana (charged)"), f"A {s.mana['A']} · B {s.mana['B']}", sh, tone="dim")
        b = s.battle
        if b is not None:
            target = named(b.target) if b.target is not None else word(gid, game.label("no-target"))
            pos = {"set": M(" (face-down)"), "defense": M(" (defense)")}.get(b.target_position, "")
            text_ = f"{named(b.attacker)} ({b.attacker_player or '?'}) → {target}{language.text(pos)}"
            node = self._add(tr("Battle"), text_ + (tr("  — attack over") if b.ended else ""))
            att = self._find_card(s, b.attacker_player, b.attacker)
            if att is not None:
                self._add(tr("attacker"), f"{named(att.name)}: {card(att)}", node)
            if b.target is not None:
                tgt = self._find_card(s, b.target_player, b.target)
                if tgt is not None:
                    self._add(tr("target"), f"{named(tgt.name)}: {card(tgt)}", node)
            if b.blocker:
                self._add(tr("blocked by"), named(b.blocker), node)
        else:
            self._add(tr("Battle"), "—", tone="dim")
        if game.states.shows_chain:
            if s.chain:
                ch = self._add(tr("Chain"), plural(len(s.chain), M("{n} link, open"), M("{n} links, open")),
                               tone="strong")
                for link in s.chain:
                    self._add(f"CL{link.number}", f"{who(link.player)} · {named(link.card)}"
                              + (f" ({words(gid, link.detail, ', ')})" if link.detail else ""), ch)
            elif s.resolved:
                ch = self._add(tr("Chain"), tr("resolved: {links}", links=" → ".join(f"CL{l.number}" for l in s.resolved)),
                               tone="dim")
                for link in s.resolved:
                    self._add(f"CL{link.number}", f"{who(link.player)} · {named(link.card)}"
                              + (f" ({words(gid, link.detail, ', ')})" if link.detail else ""), ch, tone="dim")
            else:
                self._add(tr("Chain"), "—", tone="dim")
        else:
            if s.pending:
                pend = self._add(tr("Waiting"), plural(len(s.pending), M("{n} ability"), M("{n} abilities")),
                                 tone="strong")
                for link in s.pending:
                    self._add(who(link.player), f"{named(link.card)} ({words(gid, link.detail, ', ')})", pend)
            else:
                self._add(tr("Waiting"), "—", tone="dim")
        zone = word(gid, game.label("zone"))
        for p in ("A", "B"):
            cards = s.field.get(p, ())
            node = self._add(f"{zone} · {who(p)}", plural(len(cards), M("{n} card known"), M("{n} cards known"))
                             if cards else tr("nothing known"))
            for c in cards:
                self._add(named(c.name), card(c), node)
        extra = []
        for p in ("A", "B"):
            bits = []
            if s.hand.get(p):
                bits.append(tr("hand: {cards}", cards=", ".join(map(named, s.hand[p]))))
            if s.gy.get(p):
                last = ", ".join(map(named, s.gy_last.get(p, ())))
                bits.append(tr("GY {n} (last: {cards})", n=s.gy[p], cards=last) if last else tr("GY {n}", n=s.gy[p]))
            if s.banished.get(p):
                bits.append(tr("banished {n}", n=s.banished[p]))
            if bits:
                extra.append((p, " · ".join(bits)))
        if extra:
            node = self._add(tr("Other zones"), tr("as far as the log tells"), tone="dim")
            for p, text_ in extra:
                self._add(who(p), text_, node)
        if s.winner:
            self._add(tr("Winner"), who(s.winner), tone="strong")

    @staticmethod
    def _where(s: GameState, game) -> str:
        """Phase, step and timing in words (:meth:`GameState.where`), in the window's language."""
        if language.lang() == "en":
            return s.where(game)
        text_ = words(s.game, game.states.where_parts(s), " › ")
        if s.inferred and text_:
            text_ += "  " + tr("({words} inferred)", words=tr(" and ").join(word(s.game, w) for w in s.inferred))
        return text_ or "—"

    @staticmethod
    def _find_card(s: GameState, player: str | None, name: str):
        for c in s.field.get(player or "", ()):
            if c.name == name:
                return c
        return None


def build_tree(state: GameState, players: dict[str, str]) -> tuple[list[Node], list[int]]:
    """The nodes and the top-level ids of ``state``'s tree."""
    builder = TreeBuilder()
    builder._build(state, players)
    return builder.nodes, builder.top
