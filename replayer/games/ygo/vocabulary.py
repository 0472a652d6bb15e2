"""Yu-Gi-Oh!'s words: the property words of ``{…}`` (notation §6) and the hints' line forms."""

from __future__ import annotations

from pathlib import Path as _Path

from ...i18n import domain as _domain

from enum import StrEnum

KINDS = frozenset({
    "normal-monster", "effect-monster", "flip-monster", "normal-spell", "quick-play",
    "continuous-spell", "equip-spell", "field-spell", "ritual-spell", "normal-trap",
    "continuous-trap", "counter-trap",
})
TIMING_PROPERTIES = ("ds-start", "before-calc", "calc", "after-calc", "ds-end", "battle-damage", "battle-destruction")
#: where an effect is used from (`from:gy` on an effect of the catalog): tells the effects of a card apart
ZONE_PROPERTIES = ("hand", "field", "gy", "banished", "deck")
#: the events an effect may wait for (`on:to-grave`: activated only when a card is sent to the GY; with
#: `self-event`, only when it happens to the card itself), in the words the log's lines make them
ON_EVENTS = ("to-grave", "destroyed", "battle-destroyed", "battle-destroying", "battle-damage", "damage",
             "recover", "leave-field", "banished", "to-hand", "discarded", "released", "flipped", "position",
             "summoned", "chaining", "targeted", "draw", "phase", "attack")
#: `event-player:self` / `event-player:opponent` (with an `on:` word of a player's event: damage, battle-damage,
#: recover; or of an event to cards): the effect answers that event only when it happens to its own player
#: (a card of its own player's) / to the opponent (a card of the opponent's)
#: a card's place in the battle of the Damage Step (`shut-as:attacker`: imported data, its effect's condition,
#: cost or target cannot hold while the card is there)
BATTLE_PLACES = ("attacker", "attack-target", "bystander")
PROPERTY_WORDS = KINDS | frozenset({
    "quick", "trigger", "ignition", "flip", "continuous", "mandatory", "optional", "atk-mod",
    "negates-activation", "negates-effect", "self-trigger", "battle-trigger", "ds-ok", "no-ds", "no-calc",
    "summons", "ends-battle-phase", "targets", "piercing", "monster", "spell", "trap", "self-event",
}) | frozenset(f"timing:{t}" for t in TIMING_PROPERTIES) | frozenset(f"on:{w}" for w in ON_EVENTS) | frozenset(f"from:{z}" for z in ZONE_PROPERTIES) \
    | frozenset(f"shut-as:{p}" for p in BATTLE_PLACES) | frozenset({"event-player:self", "event-player:opponent"})
EXAMPLE_PROPS = '"Name" {quick-play, atk-mod}'

#: the written form of each line, by its first keyword, shown when nothing closer can be said
#: this game's catalog (the same as words.M): the forms and names below are messages
M = _domain("replayer-ygo", _Path(__file__).resolve().parent / "locale")
LINE_FORMS = {
    "turn": M("`turn 3 A` (turn number, then the turn player)"),
    "phase": "`phase draw|standby|main1|battle|main2|end`",
    "step": "`step start|battle|damage|end`",
    "timing": "`timing ds-start|before-calc|calc|after-calc|ds-end`",
    "resolve": M("`resolve` alone on its line"),
    "[": '`[Key "value"]`',
    "draw": M("`A: draw` or `A: draw 2`"),
    "summon": M('`A: normal|tribute|special|flip summon "Card"` (special: `from hand|gy|deck|banished|extra`)'),
    "set": '`A: set "Card"`',
    "attack": M('`A: attack "Card" -> "Target"` (or `-> direct`, `-> set "Target"`, `-> defense "Target"`)'),
    "activate": M('`A: activate "Card" [effect N | flip effect | trigger] [from hand|field|gy|banished|deck] '
                '[targeting "X", "Y"] [cost discard "X" | cost send "X" to gy | cost tribute "X"]` '
                "(clauses in this order)"),
    "flip": '`A: flip "Card"`', "destroy": M('`A: destroy "Card"` or `A: destroy "Card" by battle`'),
    "send": '`A: send "Card" to gy`', "banish": '`A: banish "Card"`',
    "return": '`A: return "Card" to hand`', "discard": '`A: discard "Card"`',
    "change": '`A: change "Card" to attack|defense`', "negate": '`A: negate "Card"`',
    "damage": "`A: damage 500`", "lp": "`A: lp 7500`", "atk": M('`A: atk "Card" 3000` or `A: atk "Card" +500`'),
    "pass": "`A: pass`", "end": "`A: end battle phase`",
}
#: the action words of an actor line
ACTIONS = ("draw", "normal summon", "tribute summon", "special summon", "flip summon", "set",
        "attack", "activate", "flip", "destroy", "send", "banish", "return", "discard", "change",
        "negate", "damage", "lp", "atk", "pass", "end battle phase")

#: this grammar's terminals in words, and the words they match (for "did you mean")
TERMINAL_NAMES = {
    "SIGNED_INT": M("+N or -N"), "STATS": "ATK/DEF",
    "TIMING_NAME": M("a timing (ds-start, before-calc, calc, after-calc, ds-end)"),
    "PHASE_NAME": M("a phase (draw, standby, main1, battle, main2, end)"),
    "STEP_NAME": M("a step (start, battle, damage, end)"),
    "ZONE": M("a zone (hand, gy, deck, banished, extra, field)"), "POSITION": M("attack or defense"),
    "BY_BATTLE": "`by battle`", "SUMMON_KIND": M("a summon (normal, tribute, special, flip, …)"),
    "CL": M("a chain link (CL1, CL2, …)"), "BATTLE_PHASE": "`battle phase`",
}
TERMINAL_WORDS = {
    "TIMING_NAME": ("ds-start", "before-calc", "calc", "after-calc", "ds-end"),
    "STEP_NAME": ("start", "battle", "damage", "end"),
    "PHASE_NAME": ("draw", "standby", "main1", "battle", "main2", "end"),
    "ZONE": ("hand", "gy", "deck", "banished", "extra", "field"),
    "POSITION": ("attack", "defense"),
    "SUMMON_KIND": ("normal", "tribute", "special", "fusion", "synchro", "xyz", "ritual", "link", "pendulum"),
    "BY_BATTLE": ("by battle",), "BATTLE_PHASE": ("battle phase",),
    "STEP": ("step",), "TIMING": ("timing",), "ACTIVATE": ("activate",), "FROM": ("from",), "GY": ("gy",),
}

#: words of the window and the report
LABELS = {
    "battle-phases": "Battle Phases", "battles": "Damage Steps", "step-row": "Step",
    "middle-lane": "Chains", "zone": "Field", "no-target": "direct attack",
}


# ---- the structure of a turn: one representation each, used by the rules, the window and the library
class Phase(StrEnum):
    """The phases of a turn; the value is the word the notation writes (``phase main1``)."""

    DRAW = "draw"
    STANDBY = "standby"
    MAIN1 = "main1"
    BATTLE = "battle"
    MAIN2 = "main2"
    END = "end"

    @property
    def label(self) -> str:
        return PHASE_LABELS[self]

    @property
    def short(self) -> str:
        return PHASE_SHORT[self]


class Step(StrEnum):
    """The steps of the Battle Phase."""

    START = "start"
    BATTLE = "battle"
    DAMAGE = "damage"
    END = "end"

    @property
    def label(self) -> str:
        return STEP_LABELS[self]

    @property
    def short(self) -> str:
        return STEP_SHORT[self]


class Timing(StrEnum):
    """The five timings of the Damage Step, ordered as they run (never back): ``DS_START < CALC``."""

    DS_START = "ds-start"
    BEFORE_CALC = "before-calc"
    CALC = "calc"
    AFTER_CALC = "after-calc"
    DS_END = "ds-end"

    @property
    def word(self) -> str:
        return self._value_

    @property
    def label(self) -> str:
        return TIMING_LABELS[self]

    @property
    def short(self) -> str:
        return TIMING_SHORT[self]

    @classmethod
    def of(cls, word: str) -> "Timing":
        return TIMING_BY_WORD[word]

    # the order the timings run in, not the order of their words (each member's ``_rank``, set
    # below: read off the member, with no dict, as an Enum member hashes in Python)
    def __lt__(self, other: "Timing") -> bool:
        return self._rank < other._rank

    def __le__(self, other: "Timing") -> bool:
        return self._rank <= other._rank

    def __gt__(self, other: "Timing") -> bool:
        return self._rank > other._rank

    def __ge__(self, other: "Timing") -> bool:
        return self._rank >= other._rank


for _n, _t in enumerate(Timing, 1):
    _t._rank = _n  # type: ignore[attr-defined]
del _n, _t
TIMING_WORDS = {t: t.value for t in Timing}
TIMING_BY_WORD = {t.value: t for t in Timing}
PHASE_BY_WORD = {p.value: p for p in Phase}
STEP_BY_WORD = {s.value: s for s in Step}

#: what the window writes: in the State pane (label) and on the timeline's bands (short)
PHASE_LABELS = {Phase.DRAW: "Draw Phase", Phase.STANDBY: "Standby Phase", Phase.MAIN1: "Main Phase 1",
                Phase.BATTLE: "Battle Phase", Phase.MAIN2: "Main Phase 2", Phase.END: "End Phase"}
PHASE_SHORT = {Phase.DRAW: "Draw", Phase.STANDBY: "Standby", Phase.MAIN1: "Main 1", Phase.BATTLE: "Battle Phase",
               Phase.MAIN2: "Main 2", Phase.END: "End"}
STEP_LABELS = {Step.START: "Start Step", Step.BATTLE: "Battle Step", Step.DAMAGE: "Damage Step",
               Step.END: "End Step"}
STEP_SHORT = {Step.START: "Start", Step.BATTLE: "Battle Step", Step.DAMAGE: "Damage Step", Step.END: "End"}
TIMING_LABELS = {
    Timing.DS_START: "start of the Damage Step", Timing.BEFORE_CALC: "before damage calculation",
    Timing.CALC: "damage calculation", Timing.AFTER_CALC: "after damage calculation",
    Timing.DS_END: "end of the Damage Step",
}
TIMING_SHORT = {Timing.DS_START: "DS start", Timing.BEFORE_CALC: "before calc", Timing.CALC: "calc",
                Timing.AFTER_CALC: "after calc", Timing.DS_END: "DS end"}
#: the forms of a timeline band's label, longest first, by its segment's kind and name: the band
#: writes the longest that fits (never one longer than the segment's label), its tooltip the first;
#: the last are the abbreviations judges write (DP, M1, BP, DS)
BAND_FORMS = {
    ("phase", "draw"): ("Draw Phase", "Draw", "DP"),
    ("phase", "standby"): ("Standby Phase", "Standby", "SP"),
    ("phase", "main1"): ("Main Phase 1", "Main 1", "M1"),
    ("phase", "battle"): ("Battle Phase", "Battle", "BP"),
    ("phase", "main2"): ("Main Phase 2", "Main 2", "M2"),
    ("phase", "end"): ("End Phase", "End", "EP"),
    ("step", "start"): ("Start Step", "Start"),
    ("step", "battle"): ("Battle Step", "Battle", "BS"),
    ("step", "damage"): ("Damage Step", "Damage", "DS"),
    ("step", "end"): ("End Step", "End"),
    ("timing", "ds-start"): ("start of the Damage Step", "DS start", "start"),
    ("timing", "before-calc"): ("before damage calculation", "before calc", "pre-calc", "pre"),
    ("timing", "calc"): ("damage calculation", "calc"),
    ("timing", "after-calc"): ("after damage calculation", "after calc", "post-calc", "post"),
    ("timing", "ds-end"): ("end of the Damage Step", "DS end", "end"),
}


#: the keywords of hints' `…` lines in the log's language (English phrase -> alias; the aliases of
#: grammar.lark, notation §8): a Japanese or German log is told what to write in its own words
HINT_WORDS = {
    "ja": {
        "timing ds-start": "ダメージステップ開始時", "timing before-calc": "ダメージ計算前",
        "timing calc": "ダメージ計算時", "timing after-calc": "ダメージ計算後", "timing ds-end": "ダメージステップ終了時",
        "timing": "タイミング", "step damage": "ダメージステップ", "step battle": "ステップ バトル",
        "step start": "ステップ 開始", "step end": "ステップ 終了", "step": "ステップ",
        "phase battle": "バトルフェイズ", "phase": "フェイズ", "end battle phase": "バトルフェイズ終了",
        "flip effect": "リバース 効果", "effect": "効果", "trigger": "誘発", "by battle": "戦闘で",
        "activate": "発動", "attack": "攻撃", "flip": "リバース", "set": "セット", "draw": "ドロー",
        "lp": "ライフ", "damage": "ダメージ", "pass": "パス", "resolve": "解決", "turn": "ターン",
        "from hand": "手札から", "destroy": "破壊", "CL": "チェーン",
    },
    "de": {
        "timing ds-start": "Beginn des Damage Steps", "timing before-calc": "vor der Schadensberechnung",
        "timing calc": "Schadensberechnung", "timing after-calc": "nach der Schadensberechnung",
        "timing ds-end": "Ende des Damage Steps", "timing": "Zeitpunkt", "step damage": "Damage Step",
        "step": "Schritt", "end battle phase": "beendet Battle Phase",
        "flip effect": "flippt Effekt", "effect": "Effekt", "trigger": "ausgelöst", "by battle": "durch Kampf",
        "activate": "aktiviert", "attack": "greift an", "flip": "flippt", "set": "setzt", "draw": "zieht",
        "lp": "Lebenspunkte", "damage": "Schaden", "pass": "passt", "resolve": "Auflösung", "turn": "Zug",
        "from hand": "aus der Hand", "destroy": "zerstört", "CL": "KG",
    },
}
