"""Yu-Gi-Oh!'s words: the property words of ``{…}`` (notation §6) and the hints' line forms."""

from __future__ import annotations

KINDS = frozenset({
    "normal-monster", "effect-monster", "flip-monster", "normal-spell", "quick-play",
    "continuous-spell", "equip-spell", "field-spell", "ritual-spell", "normal-trap",
    "continuous-trap", "counter-trap",
})
TIMING_PROPERTIES = ("ds-start", "before-calc", "calc", "after-calc", "ds-end", "battle-damage", "battle-destruction")
#: where an effect is used from (`from:gy` on an effect of the catalog): tells the effects of a card apart
ZONE_PROPERTIES = ("hand", "field", "gy", "banished", "deck")
PROPERTY_WORDS = KINDS | frozenset({
    "quick", "trigger", "ignition", "flip", "continuous", "mandatory", "optional", "atk-mod",
    "negates-activation", "negates-effect", "self-trigger", "battle-trigger", "ds-ok", "no-ds", "no-calc",
    "summons", "ends-battle-phase", "targets", "piercing", "monster", "spell", "trap",
}) | frozenset(f"timing:{t}" for t in TIMING_PROPERTIES) | frozenset(f"from:{z}" for z in ZONE_PROPERTIES)
EXAMPLE_PROPS = '"Name" {quick-play, atk-mod}'

#: the written form of each line, by its first keyword, shown when nothing closer can be said
LINE_FORMS = {
    "turn": "`turn 3 A` (turn number, then the turn player)",
    "phase": "`phase draw|standby|main1|battle|main2|end`",
    "step": "`step start|battle|damage|end`",
    "timing": "`timing ds-start|before-calc|calc|after-calc|ds-end`",
    "resolve": "`resolve` alone on its line",
    "[": '`[Key "value"]`',
    "draw": "`A: draw` or `A: draw 2`",
    "summon": '`A: normal|tribute|special|flip summon "Card"` (special: `from hand|gy|deck|banished|extra`)',
    "set": '`A: set "Card"`',
    "attack": '`A: attack "Card" -> "Target"` (or `-> direct`, `-> set "Target"`, `-> defense "Target"`)',
    "activate": '`A: activate "Card" [effect N | flip effect | trigger] [from hand|field|gy|banished|deck] '
                '[targeting "X", "Y"] [cost discard "X" | cost send "X" to gy | cost tribute "X"]` '
                "(clauses in this order)",
    "flip": '`A: flip "Card"`', "destroy": '`A: destroy "Card"` or `A: destroy "Card" by battle`',
    "send": '`A: send "Card" to gy`', "banish": '`A: banish "Card"`',
    "return": '`A: return "Card" to hand`', "discard": '`A: discard "Card"`',
    "change": '`A: change "Card" to attack|defense`', "negate": '`A: negate "Card"`',
    "damage": "`A: damage 500`", "lp": "`A: lp 7500`", "atk": '`A: atk "Card" 3000` or `A: atk "Card" +500`',
    "pass": "`A: pass`", "end": "`A: end battle phase`",
}
#: the action words of an actor line
ACTIONS = ("draw", "normal summon", "tribute summon", "special summon", "flip summon", "set",
        "attack", "activate", "flip", "destroy", "send", "banish", "return", "discard", "change",
        "negate", "damage", "lp", "atk", "pass", "end battle phase")

#: this grammar's terminals in words, and the words they match (for "did you mean")
TERMINAL_NAMES = {
    "SIGNED_INT": "+N or -N", "STATS": "ATK/DEF",
    "TIMING_NAME": "a timing (ds-start, before-calc, calc, after-calc, ds-end)",
    "PHASE_NAME": "a phase (draw, standby, main1, battle, main2, end)",
    "STEP_NAME": "a step (start, battle, damage, end)",
    "ZONE": "a zone (hand, gy, deck, banished, extra, field)", "POSITION": "attack or defense",
    "BY_BATTLE": "`by battle`", "SUMMON_KIND": "a summon (normal, tribute, special, flip, …)",
    "CL": "a chain link (CL1, CL2, …)", "BATTLE_PHASE": "`battle phase`",
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
