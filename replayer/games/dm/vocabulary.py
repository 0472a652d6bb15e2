"""Duel Masters' words: the property words of ``{…}`` (notation §6) and the hints' line forms."""

from __future__ import annotations

from pathlib import Path as _Path

from ...i18n import domain as _domain

from enum import StrEnum

#: the five civilizations: a card's own (``{creature, darkness}``), and the parameter of the words
#: below that name one (``cannot-be-blocked-by:darkness``)
CIVILIZATIONS = ("light", "water", "darkness", "fire", "nature")
PROPERTY_WORDS = frozenset({
    "creature", "spell", "speed-attacker", "mach-fighter", "blocker", "guardman", "redirect",
    "w-breaker", "t-breaker", "s-trigger", "revolution-0", "can-attack-untapped", "cannot-attack",
    "cannot-attack-players", "wins-all-battles", "cip", "end-of-attack", "after-attack",
    "attack-trigger", "when-attacked", "when-blocked", "tapped", "untapped", "summoned",
    # abilities printed on the card (docs/rules-dm.md §12)
    "slayer", "evolution", "cannot-attack-creatures", "cannot-block", "cannot-be-attacked",
    "cannot-be-blocked", "cannot-be-blocked-attacking-creatures", "cannot-be-blocked-attacking-players",
    "cannot-attack-turn-entered",
    *CIVILIZATIONS,
    *(f"cannot-be-blocked-by:{c}" for c in CIVILIZATIONS),
    *(f"cannot-be-attacked-by:{c}" for c in CIVILIZATIONS),
    *(f"can-attack-untapped:{c}" for c in CIVILIZATIONS), *(f"slayer:{c}" for c in CIVILIZATIONS),
    *(f"blocker:{c}" for c in CIVILIZATIONS),
    "cannot-be-attacked-by:non-evolution", "cannot-be-blocked-by:non-evolution",
    # static abilities on other creatures while the card is in the battle zone (§12)
    "opponents-cannot-block", "speed-attackers-wait",
})
#: words that take a number: ``power 3000``, ``ninja-strike 5``, ``power-attacker 3000``
NUMBERED_WORDS = frozenset({"power", "ninja-strike", "power-attacker", "power-plus",
                            "cannot-be-blocked-by-power-at-least", "cannot-be-blocked-by-power-at-most",
                            "all-power-attacker"})
EXAMPLE_PROPS = '"Name" 5000 {creature, blocker}'

#: the written form of each line, by its first keyword, shown when nothing closer can be said
#: this game's catalog (the same as words.M): the forms and names below are messages
M = _domain("replayer-dm", _Path(__file__).resolve().parent / "locale")
LINE_FORMS = {
    "turn": M("`turn 3 A` (turn number, then the turn player)"),
    "phase": "`phase start|untap|draw|charge|main|attack|end`",
    "resolve": M('`resolve` alone, or `A: resolve "Card"`'), "[": '`[Key "value"]`',
    "battle": '`battle "Card" vs "Card"`',
    "attack": M('`A: attack "Card" -> player` or `A: attack "Card" -> "Creature"`'),
    "charge": '`A: charge "Card"`', "summon": '`A: summon "Card"`', "cast": '`A: cast "Card"`',
    "tap": '`A: tap "Card"`', "untap": '`A: untap "Card"`', "trigger": '`A: trigger "Card"`',
    "ninja": '`A: ninja strike "Card"`',
    "revolution": M('`A: revolution 0 "Card"` or `A: revolution change "Card"`'),
    "invade": '`A: invade "Card"`', "block": '`A: block with "Card"`', "guardman": '`A: guardman "Card"`',
    "redirect": '`A: redirect "Card" -> "Creature"`', "destroy": '`A: destroy "Card"`',
    "return": '`A: return "Card" to hand`', "put": '`A: put "Card" into mana|shields`',
    "break": M("`A: break 2` or `A: break 2 shields`"), "s-trigger": '`A: s-trigger "Card", "Card"`',
    "direct": "`A: direct attack`", "win": "`A: win`",
}
#: the action words of an actor line
ACTIONS = ("charge", "summon", "cast", "tap", "untap", "attack", "trigger", "resolve", "ninja strike",
       "revolution 0", "invade", "revolution change", "block with", "guardman", "redirect",
       "destroy", "return", "put", "break", "s-trigger", "direct attack", "win")

#: this grammar's terminals in words, and the words they match (for "did you mean")
TERMINAL_NAMES = {
    "PHASE_NAME": M("a phase (start, untap, draw, charge, main, attack, end)"),
    "PUT_ZONE": M("mana or shields"), "PLAYER_WORD": "`player`",
    "DECLARATION": M("a declaration (ninja strike, revolution 0, revolution change, invade)"),
    "MAIN_VERB": M("charge, summon or cast"), "TAP_VERB": M("tap or untap"),
}
TERMINAL_WORDS = {
    "PHASE_NAME": ("start", "untap", "draw", "charge", "main", "attack", "end"),
    "PUT_ZONE": ("mana", "shields"),
    "DECLARATION": ("ninja strike", "revolution 0", "revolution change", "invade"),
    "MAIN_VERB": ("charge", "summon", "cast"), "TAP_VERB": ("tap", "untap"), "PLAYER_WORD": ("player",),
    "SHIELDS": ("shields",), "S_TRIGGER": ("s-trigger",), "TO": ("to", "into"),
}

#: words of the window and the report
LABELS = {
    "battle-phases": "Attack Steps", "battles": "attacks", "step-row": "Sub-step",
    "middle-lane": "Table", "zone": "Battle zone", "no-target": "the player",
}


# ---- the structure of a turn: one representation each, used by the rules, the window and the library
class Phase(StrEnum):
    """The steps of a turn as ``phase …`` writes them (``mana`` is ``charge``'s other name)."""

    START = "start"
    UNTAP = "untap"
    DRAW = "draw"
    CHARGE = "charge"
    MANA = "mana"
    MAIN = "main"
    ATTACK = "attack"
    BATTLE = "battle"
    END = "end"

    @property
    def label(self) -> str:
        return PHASE_LABELS[self]

    @property
    def short(self) -> str:
        return PHASE_SHORT[self]


class AttackStep(StrEnum):
    """An attack's sub-step (notation §5), the game's one representation of them: the rules model's
    (:mod:`replayer.games.dm.rules`), the window's and the library's, which write it ``"6B"``.

    ``number`` is the order they run in (1–7, never back; the three cases of sub-step 6 are one
    sub-step) and ``case`` the letter of sub-step 6: A a battle, B a shield break, C a direct attack."""

    DECLARATION = "1"
    CONTINUOUS = "2"
    ATTACK_TRIGGERS = "3"
    BLOCK = "4"
    BLOCK_TRIGGERS = "5"
    BATTLE = "6A"
    BREAK = "6B"
    DIRECT = "6C"
    END = "7"

    @property
    def number(self) -> int:
        return int(self._value_[0])

    @property
    def case(self) -> str | None:
        return self._value_[1:] or None

    @property
    def label(self) -> str:
        return ATTACK_STEP_LABELS[self]


PHASE_BY_WORD = {p.value: p for p in Phase}
PHASE_LABELS = {Phase.START: "Start of Turn", Phase.UNTAP: "Untap Step", Phase.DRAW: "Draw Step",
                Phase.CHARGE: "Charge Step", Phase.MANA: "Charge Step", Phase.MAIN: "Main Step",
                Phase.ATTACK: "Attack Step", Phase.BATTLE: "Attack Step", Phase.END: "End Step"}
PHASE_SHORT = {Phase.START: "Start", Phase.UNTAP: "Untap", Phase.DRAW: "Draw", Phase.CHARGE: "Charge",
               Phase.MANA: "Charge", Phase.MAIN: "Main", Phase.ATTACK: "Attack", Phase.BATTLE: "Battle Phase",
               Phase.END: "End"}
ATTACK_STEP_LABELS = {
    AttackStep.DECLARATION: "1 declaration", AttackStep.CONTINUOUS: "2 continuous abilities",
    AttackStep.ATTACK_TRIGGERS: "3 attack triggers", AttackStep.BLOCK: "4 block / redirect",
    AttackStep.BLOCK_TRIGGERS: "5 block triggers", AttackStep.BATTLE: "6A battle",
    AttackStep.BREAK: "6B shield break", AttackStep.DIRECT: "6C direct attack",
    AttackStep.END: "7 end of the attack",
}

#: the forms of a timeline band's label, longest first, by its segment's kind and name: the band
#: writes the longest that fits (never one longer than the segment's label), its tooltip the first
BAND_FORMS = {
    **{("phase", p.value): (p.label, p.short) for p in Phase},
    ("phase", "attack"): ("Attack Step", "Attack"), ("phase", "battle"): ("Attack Step", "Attack"),
    **{("substep", s.value): (s.label, s.value) for s in AttackStep},
}


#: the keywords of hints' `…` lines in the log's language (English phrase -> alias; the aliases of
#: grammar.lark, notation §8)
HINT_WORDS = {
    "ja": {
        "attack ends": "攻撃終了", "break": "ブレイク", "battle": "バトル", "vs": "対", "block with": "ブロック",
        "resolve": "解決", "turn": "ターン", "untap": "アンタップ", "tap": "タップ", "attack": "攻撃",
        "summon": "召喚", "cast": "唱える", "charge": "チャージ", "s-trigger": "S・トリガー",
        "direct attack": "ダイレクトアタック", "player": "プレイヤー", "trigger": "誘発", "destroy": "破壊",
    },
    "de": {
        "attack ends": "Angriff endet", "break": "bricht", "battle": "Kampf", "vs": "gegen",
        "block with": "blockt mit", "resolve": "Auflösung", "turn": "Zug", "untap": "enttappt", "tap": "tappt",
        "attack": "greift an", "summon": "beschwört", "cast": "wirkt", "charge": "lädt", "s-trigger": "S-Auslöser",
        "direct attack": "direkter Angriff", "player": "Spieler", "trigger": "löst aus", "destroy": "zerstört",
    },
}
