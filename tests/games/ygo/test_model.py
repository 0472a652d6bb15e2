"""The Yu-Gi-Oh! rules model (replayer/games/ygo/model.py) as unit tests.

The tables and small functions the model is built from, then the model on small inline logs with
the exact findings expected (rule id and line). Every card gets its properties inline, so the
tests do not depend on the built-in catalog; the card names are made up.

Lines in the expectations are counted from the first line of the log body (the header is not
counted).
"""

from __future__ import annotations

import pytest

from replayer import check_text
from replayer.games import get as get_game
from replayer.games.ygo import rules as ygo
from replayer.games.ygo.model import YgoModel
from replayer.games.ygo.rules import (AFTER_CALC, BEFORE_CALC, CALC, CLAUSES, DS_END, DS_START,
                                      ONCE_PER_TIMING, REVISIONS, Timing, clause_timings, describe_effect,
                                      is_trigger_effect, named_timings, once_per_timing, spell_speed)
from replayer.check import read_text

HEADER = '[Game "ygo"]\n[A "Yugi"]\n[B "Kaiba"]\n'


def findings(body: str, header: str = HEADER) -> list[tuple[int, str]]:
    """(line, rule) of every finding, lines counted from the first line of ``body``."""
    offset = header.count("\n")
    return [(f.line - offset, f.rule) for f in check_text(header + body).findings]


def replay(body: str, header: str = HEADER) -> YgoModel:
    model = YgoModel(read_text(header + body), get_game("ygo"))
    model.run()
    return model


def P(*words: str) -> frozenset[str]:
    return frozenset(words)


# A battle to put activations in: A's 2000/1500 monster attacks B's 1500/1000 monster.
BATTLE = (
    "turn 3 A\n"
    "phase battle\n"
    'A: attack "Sword Ape" 2000/1500 {normal-monster} -> "Shield Crab" 1500/1000 {normal-monster}\n'
    "step damage\n"
)  # lines 1-4


# ---- the tables ----------------------------------------------------------------------------
def test_the_five_timings_in_order_and_their_words():
    assert list(Timing) == [DS_START, BEFORE_CALC, CALC, AFTER_CALC, DS_END]
    assert [t.word for t in Timing] == ["ds-start", "before-calc", "calc", "after-calc", "ds-end"]
    assert all(Timing.of(t.word) is t for t in Timing)
    with pytest.raises(KeyError):
        Timing.of("damage-calculation")


#: the activation table of docs/rules-ygo.md §2.1: clause -> timings (None: those the effect names)
TABLE = {
    "counter-trap": set(Timing),
    "mandatory": set(Timing),
    "negates-activation": set(Timing),
    "atk-mod": {DS_START, BEFORE_CALC},
    "self-trigger": set(Timing),
    "battle-trigger": {AFTER_CALC, DS_END},
    "named-timing": None,
    "ds-ok": set(Timing),
}


def test_the_activation_table():
    assert {cl.name: (set(cl.timings) if cl.timings is not None else None) for cl in CLAUSES} == TABLE
    assert [cl.name for cl in CLAUSES] == list(TABLE)  # the order `replayer rules ygo` prints
    assert all(cl.cite for cl in CLAUSES)


def test_each_clause_late_rule_is_a_registered_rule_with_a_message():
    from replayer import RULES

    late = {cl.name: cl.late_rule for cl in CLAUSES if cl.late_rule}
    assert late == {"atk-mod": "ygo.ds.atk-mod-after-calc", "battle-trigger": "ygo.ds.battle-trigger-early",
                    "named-timing": "ygo.ds.named-timing"}
    for cl in CLAUSES:
        if cl.late_rule:
            assert cl.late_rule in RULES and cl.says, cl.name


@pytest.mark.parametrize("props, clauses", [
    (P("counter-trap"), {"counter-trap"}),
    (P("effect-monster", "mandatory", "trigger"), {"mandatory"}),
    (P("quick", "negates-activation"), {"negates-activation"}),
    (P("quick", "negates-effect"), set()),  # negating an effect is not negating an activation
    (P("quick-play", "atk-mod"), {"atk-mod"}),
    (P("effect-monster", "quick", "atk-mod"), {"atk-mod"}),
    (P("effect-monster", "trigger", "atk-mod"), set()),  # a trigger that changes ATK: not "directly"
    (P("trigger", "self-trigger"), {"self-trigger"}),
    (P("flip-monster", "flip"), {"self-trigger"}),
    (P("trigger", "self-trigger", "summons"), set()),  # unless it Normal/Fusion Summons
    (P("trigger", "battle-trigger"), {"battle-trigger"}),
    (P("quick", "timing:calc"), {"named-timing"}),
    (P("normal-trap", "ds-ok"), {"ds-ok"}),
    (P("normal-spell"), set()),
    (P("quick"), set()),
])
def test_which_clauses_apply(props, clauses):
    assert {cl.name for cl in CLAUSES if cl.applies(props)} == clauses


def test_clause_timings_follow_the_revision_and_the_named_timings():
    by_name = {cl.name: cl for cl in CLAUSES}
    assert clause_timings(by_name["atk-mod"], P("quick-play", "atk-mod"), "current") == {DS_START, BEFORE_CALC}
    assert clause_timings(by_name["atk-mod"], P("quick-play", "atk-mod"), "mr2") == {DS_START, BEFORE_CALC, CALC}
    assert clause_timings(by_name["counter-trap"], P("counter-trap"), "mr2") == set(Timing)  # unchanged
    named = by_name["named-timing"]
    assert clause_timings(named, P("quick", "timing:calc"), "current") == {CALC}
    assert clause_timings(named, P("timing:ds-start", "timing:ds-end"), "current") == {DS_START, DS_END}
    # "when battle damage is inflicted" is after damage calculation
    assert clause_timings(named, P("trigger", "timing:battle-damage"), "current") == {AFTER_CALC}
    assert named_timings(P("quick", "atk-mod")) == frozenset()


def test_once_per_timing():
    by_name = {cl.name: cl for cl in CLAUSES}
    assert ONCE_PER_TIMING == {"named-timing": frozenset({DS_START, CALC})}
    assert once_per_timing(by_name["named-timing"], "current") == {DS_START, CALC}
    assert once_per_timing(by_name["atk-mod"], "current") == frozenset()
    assert once_per_timing(by_name["atk-mod"], "mr2") == {CALC}
    assert once_per_timing(by_name["named-timing"], "mr2") == {DS_START, CALC}
    assert set(REVISIONS) == {"current", "mr2"}
    assert REVISIONS["mr2"].cite == ygo.OCG_MR2


@pytest.mark.parametrize("props, speed", [
    (P("counter-trap"), 3),
    (P("counter-trap", "quick"), 3),
    (P("quick-play"), 2), (P("normal-trap"), 2), (P("continuous-trap"), 2), (P("trap"), 2),
    (P("effect-monster", "quick"), 2),
    (P("normal-spell"), 1), (P("equip-spell"), 1), (P("field-spell"), 1), (P("spell"), 1),
    (P("effect-monster", "trigger"), 1), (P("flip"), 1), (P("effect-monster", "ignition"), 1),
    (P("effect-monster"), None), (P(), None), (P("atk-mod"), None),
])
def test_spell_speed(props, speed):
    assert spell_speed(props) == speed


@pytest.mark.parametrize("props, trigger", [
    (P("trigger"), True), (P("mandatory", "trigger"), True), (P("flip"), True), (P("battle-trigger"), True),
    (P("ignition"), False), (P("normal-spell"), False),
    (P("quick", "trigger"), False),  # a quick effect is spell speed 2, not a trigger on the chain's terms
])
def test_is_trigger_effect(props, trigger):
    assert is_trigger_effect(props) is trigger


@pytest.mark.parametrize("props, words", [
    (P("quick-play", "atk-mod"), "quick-play, atk-mod"),
    (P("normal-trap", "counter-trap"), "counter-trap, normal-trap"),  # kinds sorted
    (P("effect-monster", "summons", "trigger", "quick"), "effect-monster, quick, trigger, summons"),
    (P("effect-monster", "negates-effect"), "effect-monster, negates-effect"),
    (P("targets", "continuous"), "no properties that allow it"),
    (P(), "no properties that allow it"),
])
def test_describe_effect(props, words):
    assert describe_effect(props) == words


def test_the_printed_table_is_made_from_the_same_rows():
    table = YgoModel.describe()
    lines = table.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("effect class"))
    rows = {line.split()[0]: line.split()[1:] for line in lines[head + 2 : head + 2 + len(CLAUSES)]}
    assert rows["atk-mod"] == ["yes", "yes", "-", "-", "-"]
    assert rows["battle-trigger"] == ["-", "-", "-", "yes", "yes"]
    assert rows["counter-trap"] == ["yes"] * 5
    assert " ".join(rows["named-timing"]) == "named, once named named, once named named"
    assert "  mr2: atk-mod allowed at ds-start, before-calc, calc  [" + ygo.OCG_MR2 + "]" in lines
    assert "  mr2: atk-mod once per timing at calc  [" + ygo.OCG_MR2 + "]" in lines


# ---- the activation rules on inline logs --------------------------------------------------------
def test_an_atk_changer_before_damage_calculation_is_legal():
    assert findings(BATTLE + "timing before-calc\n"
                    'B: activate "Brave Cry" {quick-play, atk-mod}\n'
                    "resolve\n") == []


@pytest.mark.parametrize("timing", ["calc", "after-calc", "ds-end"])
def test_an_atk_changer_at_or_after_damage_calculation(timing):
    body = BATTLE + f"timing {timing}\nB: activate \"Brave Cry\" {{quick-play, atk-mod}}\n"
    assert findings(body) == [(6, "ygo.ds.atk-mod-after-calc")]
    (f,) = check_text(HEADER + body).findings
    assert f.message == ('"Brave Cry" directly changes ATK/DEF: in the Damage Step it may be activated only at '
                         f"ds-start or before-calc, not at {timing}")
    assert f.hint.startswith("activate it under `timing ds-start` or `timing before-calc` (before Master Rule 3")
    assert f.span.column == body.splitlines()[5].index('"Brave Cry"') + 1  # at the card


def test_under_master_rule_2_an_atk_changer_may_be_activated_at_calc_but_not_after():
    header = HEADER + '[Rules "mr2"]\n'
    assert findings(BATTLE + 'timing calc\nB: activate "Brave Cry" {quick-play, atk-mod}\n', header) == []
    assert findings(BATTLE + 'timing after-calc\nB: activate "Brave Cry" {quick-play, atk-mod}\n', header) == [
        (6, "ygo.ds.atk-mod-after-calc")]


def test_under_master_rule_2_an_atk_changer_at_calc_is_once_per_timing():
    header = HEADER + '[Rules "mr2"]\n'
    body = BATTLE + ("timing calc\n"
                     'B: activate "Brave Cry" {quick-play, atk-mod}\n'
                     'A: activate "Iron Will" {quick-play, atk-mod}\n'  # chained: the first chain
                     "resolve\n"
                     'A: activate "Third Wind" {quick-play, atk-mod}\n')  # a second chain at calc
    assert findings(body, header) == [(9, "ygo.ds.once-per-timing")]


def test_an_effect_that_names_a_timing_only_there():
    card = '"Fur Ball" {effect-monster, quick, timing:calc}'
    assert findings(BATTLE + f"timing calc\nB: activate {card}\n") == []
    assert findings(BATTLE + f"timing before-calc\nB: activate {card}\n") == [(6, "ygo.ds.named-timing")]
    # even if another clause would allow it at the other timing
    assert findings(BATTLE + 'timing ds-start\nB: activate "Fur Ball" {quick, atk-mod, timing:calc}\n') == [
        (6, "ygo.ds.named-timing")]


def test_once_per_timing_at_calc_but_not_at_a_timing_that_allows_several_chains():
    once = ("timing calc\n"
            'B: activate "Fur Ball" {effect-monster, quick, timing:calc}\n'
            "resolve\n"
            'B: activate "Fur Ball"#2\n')
    assert findings(BATTLE + once) == [(8, "ygo.ds.once-per-timing")]
    chained = ("timing calc\n"
               'B: activate "Fur Ball" {effect-monster, quick, timing:calc}\n'
               'A: activate "Fur Ball"#2\n'
               "resolve\n")
    assert findings(BATTLE + chained) == []
    several = ("timing before-calc\n"
               'B: activate "Early Bird" {effect-monster, quick, timing:before-calc}\n'
               "resolve\n"
               'B: activate "Early Bird"#2\n')
    assert findings(BATTLE + several) == []


def test_once_per_timing_does_not_bind_an_effect_another_clause_allows_there():
    body = BATTLE + ("timing calc\n"
                     'B: activate "Fur Ball" {effect-monster, quick, timing:calc}\n'
                     "resolve\n"
                     'B: activate "Wrath" {counter-trap, timing:calc}\n')  # a counter trap is always allowed
    assert findings(body) == []


@pytest.mark.parametrize("card", [
    '"Wrath" {counter-trap}', '"Crawler" {effect-monster, trigger, mandatory}',
    '"Stop Sign" {normal-trap, negates-activation}', '"Bouncer" {effect-monster, trigger, self-trigger}',
    '"Lucky Draw" {normal-trap, ds-ok}',
])
def test_what_is_allowed_at_every_timing(card):
    for timing in ("ds-start", "before-calc", "calc", "after-calc", "ds-end"):
        assert findings(BATTLE + f"timing {timing}\nB: activate {card}\n") == [], timing


@pytest.mark.parametrize("card, props_text", [
    ('"Pot" {normal-spell}', "normal-spell"),
    ('"Mirror" {normal-trap, negates-effect}', "normal-trap, negates-effect"),
    ('"Summoner" {effect-monster, trigger, self-trigger, summons}', "effect-monster, trigger, summons"),
    ('"Quickster" {effect-monster, quick}', "effect-monster, quick"),
])
def test_an_effect_no_clause_allows(card, props_text):
    body = BATTLE + f"timing before-calc\nB: activate {card}\n"
    assert findings(body) == [(6, "ygo.ds.not-allowed")]
    (f,) = check_text(HEADER + body).findings
    assert f"({props_text}) cannot be activated in the Damage Step" in f.message


def test_outside_the_damage_step_no_damage_step_rule_applies():
    assert findings("turn 1 A\nphase main1\nA: activate \"Pot\" {normal-spell}\n"
                    "resolve\nA: activate \"Pot\"#2 {no-ds}\n") == []


def test_a_card_that_says_it_cannot_be_used_in_the_damage_step_is_refused_whatever_else_allows_it():
    assert findings(BATTLE + 'timing before-calc\nB: activate "Limiter" {quick-play, atk-mod, no-ds}\n') == [
        (6, "ygo.ds.no-ds")]


def test_an_effect_allowed_in_the_damage_step_but_not_during_damage_calculation():
    card = '"Half Guard" {quick-play, ds-ok, no-calc}'
    assert findings(BATTLE + f"timing calc\nB: activate {card}\n") == [(6, "ygo.ds.no-calc")]
    assert findings(BATTLE + f"timing before-calc\nB: activate {card}\n") == []
    assert findings(BATTLE + f"timing after-calc\nB: activate {card}\n") == []


def test_a_battle_trigger_comes_after_damage_calculation():
    card = '"Avenger" {effect-monster, trigger, battle-trigger}'
    assert findings(BATTLE + f"timing before-calc\nB: activate {card}\n") == [(6, "ygo.ds.battle-trigger-early")]
    assert findings(BATTLE + f"timing after-calc\nB: activate {card}\n") == []


def test_an_unknown_card_in_the_damage_step_is_not_judged_and_says_so():
    """One finding a problem (issue 23, 2): the warning says the activation is not decided, no info beside it."""
    assert findings(BATTLE + 'timing calc\nB: activate "Mystery Card"\n') == [(6, "card.unknown")]
    got = [(f.line, f.span.column, f.severity.value, f.rule, f.message)
           for f in check_text(HEADER + BATTLE + 'timing calc\nB: activate "Mystery Card"\n').findings]
    line = HEADER.count("\n") + 6
    assert got == [(line, 13, "warning", "card.unknown",
                    '"Mystery Card" is not in the Yu-Gi-Oh! card catalog and the log gives no properties for it; '
                    'rules that depend on it are not checked; whether it may be activated at calc is not decided')]


def test_an_unknown_card_met_before_the_damage_step_still_gets_the_undecided_info():
    """The warning is at the card's first mention; the activation later in the Damage Step is its own info."""
    body = 'B: set "Mystery Card"\n' + BATTLE + 'timing calc\nB: activate "Mystery Card"\n'
    got = [(f.severity.value, f.rule) for f in check_text(HEADER + body).findings]
    assert got == [("warning", "card.unknown"), ("info", "ygo.ds.undecided")]


# ---- the order of the Damage Step -------------------------------------------------------------------
def test_a_timing_that_goes_back():
    assert findings(BATTLE + "timing calc\ntiming before-calc\ntiming after-calc\n") == [
        (6, "ygo.ds.timing-backwards")]
    # the replay stays at the later timing: an ATK changer there is still too late
    assert findings(BATTLE + "timing calc\ntiming before-calc\nB: activate \"Brave Cry\" {quick-play, atk-mod}\n"
                    ) == [(6, "ygo.ds.timing-backwards"), (7, "ygo.ds.atk-mod-after-calc")]


def test_a_damage_step_needs_an_attack():
    assert findings("turn 1 A\nphase battle\nstep damage\n") == [(3, "ygo.ds.no-attack")]
    assert findings("turn 1 A\nphase battle\ntiming before-calc\n") == [(3, "ygo.ds.no-attack")]


def test_after_the_damage_step_the_game_returns_to_the_battle_step():
    end = BATTLE + "timing ds-end\n"
    assert findings(end + "phase end\n") == [(6, "ygo.ds.leaves-to-wrong-phase")]
    assert findings(end + "phase main1\n") == [(6, "ygo.ds.leaves-to-wrong-phase")]
    assert findings(end + "step start\n") == [(6, "ygo.ds.leaves-to-wrong-phase")]
    # `step end` or `phase main2` right after it imply the return (docs/notation.md §3, clarification)
    assert findings(end + "step end\n") == []
    assert findings(end + "phase main2\n") == []
    assert findings(end + "step battle\nstep end\nphase main2\nphase end\n") == []
    assert findings(end + "phase battle\n") == []  # still the Battle Phase
    # a Damage Step left before any timing was written is not judged
    assert findings(BATTLE + "phase end\n") == []


def test_a_timing_after_the_damage_step_ended_goes_back():
    assert findings(BATTLE + "timing ds-end\nstep battle\ntiming calc\n") == [(7, "ygo.ds.timing-backwards")]
    # a new attack starts a new Damage Step
    again = BATTLE + ("timing ds-end\nstep battle\n"
                      'A: attack "Sword Ape"#2 2000/1500 {normal-monster} -> direct\ntiming ds-start\n')
    assert findings(again) == []


def test_an_excerpt_may_start_inside_a_damage_step():
    assert findings("timing calc\nB: damage 500\nB: lp 7500\n") == []
    assert findings("step damage\ntiming before-calc\n") == []
    # but not a later line
    assert findings("turn 1 A\ntiming before-calc\n") == [(2, "ygo.ds.no-attack")]


def test_an_effect_that_ends_the_battle_phase():
    ended = BATTLE + 'timing before-calc\nB: activate "Gong" {normal-trap, ds-ok, ends-battle-phase}\nresolve\n'
    assert findings(ended + "phase main2\n") == []  # no return to the Battle Step then
    assert findings(BATTLE + "timing before-calc\nA: end battle phase\ntiming calc\n") == [
        (7, "ygo.ds.after-battle-phase-ended")]
    assert findings(BATTLE + "timing before-calc\nA: end battle phase\nphase main2\n") == []


def test_a_new_turn_or_attack_leaves_the_damage_step():
    again = BATTLE + ("timing ds-end\nstep battle\n"
                      'A: attack "Sword Ape"#2 2000/1500 {normal-monster} -> "Shield Crab"#2 1500/1000 '
                      "{normal-monster}\n"
                      "step damage\ntiming ds-start\n")
    assert findings(again) == []  # ds-start after ds-end: a new Damage Step, not going back
    model = replay(BATTLE + "timing calc\nturn 4 B\n")
    assert (model.timing, model.battle, model.step, model.turn_player) == (None, None, None, "B")


# ---- chains --------------------------------------------------------------------------------------
MAIN = "turn 1 A\nphase main1\n"  # lines 1-2


@pytest.mark.parametrize("first, second, rule", [
    ('"Quick Trick" {quick-play}', '"Slow Spell" {normal-spell}', "ygo.chain.spell-speed"),
    ('"Slow Spell" {normal-spell}', '"Slow Spell"#2', "ygo.chain.spell-speed"),  # speed 1 never chains
    ('"Wrath" {counter-trap}', '"Quick Trick" {quick-play}', "ygo.chain.counter-only"),
    ('"Wrath" {counter-trap}', '"Trap Hole" {normal-trap}', "ygo.chain.counter-only"),
    ('"Quick Trick" {quick-play}', '"Wrath" {counter-trap}', None),
    ('"Slow Spell" {normal-spell}', '"Trap Hole" {normal-trap}', None),
    ('"Trap Hole" {normal-trap}', '"Quick Trick" {quick-play}', None),  # equal speeds
    ('"Wrath" {counter-trap}', '"Wrath"#2', None),
])
def test_spell_speed_of_chain_links(first, second, rule):
    body = MAIN + f"A: activate {first}\nB: activate {second}\n"
    assert findings(body) == ([(4, rule)] if rule else [])


def test_the_written_chain_link_number():
    assert findings(MAIN + 'CL1 A: activate "Trap Hole" {normal-trap}\nCL2 B: activate "Trap Hole"#2\n') == []
    assert findings(MAIN + 'CL1 A: activate "Trap Hole" {normal-trap}\nCL3 B: activate "Trap Hole"#2\n') == [
        (4, "ygo.chain.link-number")]
    # after `resolve` the next activation starts a new chain
    body = MAIN + 'A: activate "Trap Hole" {normal-trap}\nresolve\nCL2 B: activate "Trap Hole"#2\n'
    assert findings(body) == [(5, "ygo.chain.link-number")]
    (f,) = check_text(HEADER + body).findings
    assert f.hint == "write `CL1`"
    f = check_text(HEADER + MAIN + 'A: activate "Trap Hole" {normal-trap}\nCL1 B: activate "Trap Hole"#2\n').findings[0]
    assert f.hint == "write `CL2` (a `resolve` line may be missing before it)"


@pytest.mark.parametrize("first, second, ok", [
    # A is the turn player: A's mandatory, B's mandatory, A's optional, B's optional
    (("A", "mandatory"), ("B", "mandatory"), True),
    (("A", "mandatory"), ("A", "optional"), True),
    (("B", "mandatory"), ("A", "optional"), True),
    (("A", "optional"), ("B", "optional"), True),
    (("B", "mandatory"), ("A", "mandatory"), False),
    (("A", "optional"), ("B", "mandatory"), False),
    (("B", "optional"), ("A", "optional"), False),
])
def test_simultaneous_triggers_go_on_the_chain_in_order(first, second, ok):
    def line(who, what, name):
        words = "effect-monster, trigger" + (", mandatory" if what == "mandatory" else "")
        return f'{who}: activate "{name}" {{{words}}}\n'

    body = MAIN + line(*first, "First Trigger") + line(*second, "Second Trigger")
    assert findings(body) == ([] if ok else [(4, "ygo.chain.trigger-order")])


def test_a_trigger_chained_to_a_quick_effect_is_a_spell_speed_mistake_not_an_order_one():
    body = MAIN + 'A: activate "Quick Trick" {quick-play}\nB: activate "Late Trigger" {effect-monster, trigger}\n'
    assert findings(body) == [(4, "ygo.chain.spell-speed")]


# ---- battle damage and Life Points -----------------------------------------------------------------
def battle(attacker: str, target: str, results: str) -> str:
    return ("turn 3 A\nphase battle\n"
            f"A: attack {attacker} -> {target}\n"
            "step damage\ntiming calc\n" + results)  # results from line 6 on


APE = '"Sword Ape" 2000/1500 {normal-monster}'


@pytest.mark.parametrize("target, results, expected", [
    ('"Crab" 1500/1000 {normal-monster}', "B: damage 500\nB: destroy \"Crab\" by battle\n", []),
    ('"Crab" 1500/1000 {normal-monster}', "B: damage 600\n", [(6, "ygo.damage.mismatch")]),
    ('"Crab" 1500/1000 {normal-monster}', "A: damage 500\n", [(6, "ygo.damage.mismatch")]),
    ('"Crab" 1500/1000 {normal-monster}', 'A: destroy "Sword Ape" by battle\n', [(6, "ygo.battle.result-mismatch")]),
    ('"Bear" 2500/1000 {normal-monster}', "A: damage 500\nA: destroy \"Sword Ape\" by battle\n", []),
    ('"Twin" 2000/1000 {normal-monster}', 'A: destroy "Sword Ape" by battle\nB: destroy "Twin" by battle\n', []),
    ('"Twin" 2000/1000 {normal-monster}', "B: damage 100\n", [(6, "ygo.damage.mismatch")]),  # equal: no damage
    ('defense "Wall" 1000/2500 {normal-monster}', "A: damage 500\n", []),  # attacker takes the difference
    ('defense "Wall" 1000/1500 {normal-monster}', 'B: destroy "Wall" by battle\n', []),
    ('defense "Wall" 1000/1500 {normal-monster}', "B: damage 500\n", [(6, "ygo.damage.mismatch")]),  # no piercing
    ('defense "Wall" 1000/2000 {normal-monster}', 'B: destroy "Wall" by battle\n',
     [(6, "ygo.battle.result-mismatch")]),  # ATK equal to DEF destroys nothing
    ('"Zero" 0/0 {normal-monster}', 'B: destroy "Zero" by battle\n', []),
    ("direct", "B: damage 2000\n", []),
    ("direct", "B: damage 1000\n", [(6, "ygo.damage.mismatch")]),
    ('"Unknown Stats" ?/? {normal-monster}', "B: damage 1234\n", []),  # the log does not tell: no check
    ('"Aura" 1500/1000 {effect-monster, continuous}', "B: damage 1234\n", []),  # a continuous effect may change it
])
def test_battle_damage_from_atk_and_def(target, results, expected):
    assert findings(battle(APE, target, results)) == expected


def test_two_monsters_with_0_atk_destroy_nothing():
    nought = '"Nought" 0/0 {normal-monster}'
    assert findings(battle(nought, '"Zero" 0/0 {normal-monster}', 'B: destroy "Zero" by battle\n')) == [
        (6, "ygo.battle.result-mismatch")]


def test_piercing_battle_damage():
    lancer = '"Lancer" 2000/1000 {effect-monster, piercing}'
    assert findings(battle(lancer, 'defense "Wall" 1000/1500 {normal-monster}', "B: damage 500\n")) == []
    body = battle(lancer, 'defense "Wall" 1000/1500 {normal-monster}', "B: damage 2000\n")
    assert findings(body) == [(6, "ygo.damage.mismatch")]
    (f,) = check_text(HEADER + body).findings
    assert f.message == "B takes 2000 battle damage, but ATK 2000 against DEF 1500 with piercing gives 500 to B"
    assert f.hint == "write `B: damage 500`"


def test_the_damage_message_shows_the_sum():
    (f,) = check_text(HEADER + battle(APE, '"Crab" 1500/1000 {normal-monster}', "A: damage 500\n")).findings
    assert f.message == "A takes 500 battle damage, but ATK 2000 against ATK 1500 gives no damage to A"
    assert f.hint == "remove this line or check the ATK/DEF"


def test_a_resolved_atk_change_stops_the_check_until_an_atk_line_says_the_new_value():
    changed = ("turn 3 A\nphase battle\n"
               f"A: attack {APE} -> \"Crab\" 1500/1000 {{normal-monster}}\n"
               "step damage\ntiming before-calc\n"
               'A: activate "Brave Cry" {quick-play, atk-mod}\nresolve\n'  # lines 6-7
               "timing calc\n")
    assert findings(changed + "B: damage 1234\n") == []
    assert findings(changed.replace("resolve\n", 'resolve\nA: atk "Sword Ape" +1000\n') + "B: damage 1500\n") == []
    assert findings(changed.replace("resolve\n", 'resolve\nA: atk "Sword Ape" +1000\n') + "B: damage 500\n") == [
        (10, "ygo.damage.mismatch")]


def test_an_effect_resolved_at_calc_stops_the_check():
    body = battle(APE, '"Crab" 1500/1000 {normal-monster}',
                  'B: activate "Fur Ball" {effect-monster, quick, timing:calc}\nresolve\nB: damage 0\n')
    assert findings(body) == []


def test_life_points_follow_the_damage():
    body = battle(APE, '"Crab" 1500/1000 {normal-monster}', "B: damage 500\nB: lp 7500\n")
    assert findings(body) == []
    body = battle(APE, '"Crab" 1500/1000 {normal-monster}', "B: damage 500\nB: lp 7400\n")
    assert findings(body) == [(7, "ygo.lp.mismatch")]
    (f,) = check_text(HEADER + body).findings
    assert f.message == "B's Life Points are 7500 by the damage the log records, not 7400"


def test_life_points_start_from_the_header_and_a_change_without_damage_is_taken_as_written():
    assert findings(battle(APE, "direct", "B: damage 2000\nB: lp 2000\n"), HEADER + '[LP "4000"]\n') == []
    # a cost or a gain the log does not detail: the lp line is believed, and the next damage counts from it
    body = "turn 1 A\nphase main1\nA: lp 7000\nA: damage 1000\nA: lp 6000\n"
    assert findings(body) == []
    assert findings(body.replace("A: lp 6000", "A: lp 6500")) == [(5, "ygo.lp.mismatch")]


def test_damage_outside_damage_calculation_is_not_battle_damage():
    assert findings("turn 1 A\nphase main1\nB: damage 800\nB: lp 7200\n") == []


def test_no_damage_calculation_after_a_battling_monster_left_the_field():
    body = ("turn 3 A\nphase battle\n"
            f"A: attack {APE} -> \"Crab\" 1500/1000 {{normal-monster}}\n"
            "step damage\ntiming before-calc\n"
            'B: banish "Crab"\n'  # line 6
            "timing calc\n"
            "B: damage 500\n")
    assert findings(body) == [(8, "ygo.battle.no-damage-calculation")]
    assert findings(body.replace("B: damage 500", 'B: destroy "Crab" by battle')) == [
        (8, "ygo.battle.no-damage-calculation")]


# ---- destroyed by battle ---------------------------------------------------------------------------
DESTROYED = battle(APE, '"Crab" 1500/1000 {normal-monster}', 'B: destroy "Crab" by battle\n')  # line 6


def test_destruction_by_battle_is_written_at_calc():
    body = battle(APE, '"Crab" 1500/1000 {normal-monster}', "timing after-calc\nB: destroy \"Crab\" by battle\n")
    assert findings(body) == [(7, "ygo.battle.destroyed-outside-calc")]


def test_a_monster_destroyed_by_battle_is_sent_at_the_end_of_the_damage_step():
    assert findings(DESTROYED + 'timing ds-end\nB: send "Crab" to gy\n') == []
    assert findings(DESTROYED + 'timing after-calc\nB: send "Crab" to gy\n') == [
        (8, "ygo.battle.sent-before-ds-end")]


def test_a_monster_destroyed_by_battle_cannot_be_targeted_or_used_as_a_cost():
    after = DESTROYED + "timing after-calc\n"  # line 7
    assert findings(after + 'A: activate "Finisher" {normal-trap, ds-ok} targeting "Crab"\n') == [
        (8, "ygo.battle.target-destroyed")]
    assert findings(after + 'B: activate "Sacrifice" {normal-trap, ds-ok} cost tribute "Crab"\n') == [
        (8, "ygo.battle.cost-destroyed")]
    # a mandatory effect may use it as a cost
    assert findings(after + 'B: activate "Duty" {effect-monster, trigger, mandatory} cost tribute "Crab"\n') == []


def test_its_optional_quick_effects_and_battle_position_are_gone():
    body = battle(APE, '"Crab" 1500/1000 {effect-monster, quick, ds-ok}',
                  'B: destroy "Crab" by battle\ntiming after-calc\nB: activate "Crab"\n')
    assert findings(body) == [(8, "ygo.battle.quick-effect-destroyed")]
    assert findings(body.replace("{effect-monster, quick, ds-ok}", "{effect-monster, quick, mandatory}")) == []
    assert findings(DESTROYED + 'B: change "Crab" to defense\n') == [(7, "ygo.battle.destroyed-changed")]


def test_its_destroyed_by_battle_trigger_waits_for_the_end_of_the_damage_step():
    crab = '"Crab" 1500/1000 {effect-monster, trigger, battle-trigger}'
    early = battle(APE, crab, 'B: destroy "Crab" by battle\ntiming after-calc\nB: activate "Crab"\n')
    assert findings(early) == [(8, "ygo.battle.trigger-before-sent")]
    late = battle(APE, crab, 'B: destroy "Crab" by battle\ntiming ds-end\nB: send "Crab" to gy\nB: activate "Crab"\n')
    assert findings(late) == []
    # banished by an effect first: it was not sent to the GY by battle
    gone = battle(APE, crab, 'B: destroy "Crab" by battle\ntiming after-calc\nA: activate "Void" {quick-play, ds-ok}\n'
                             'resolve\nB: banish "Crab"\ntiming ds-end\nB: activate "Crab" from banished\n')
    assert findings(gone) == [(12, "ygo.battle.not-destroyed-by-battle")]


def test_leaving_the_damage_step_forgets_the_destruction():
    model = replay(DESTROYED + "timing ds-end\nstep battle\n")
    assert model.destroyed == set() and not model.cards["crab"].destroyed_by_battle
    # a log that does not write the move to the GY: after the Damage Step the monster is not
    # "destroyed, not yet sent" any more, so targeting it or changing it is not judged by that rule
    later = DESTROYED + ("timing ds-end\nstep battle\nstep end\nphase main2\n"
                         'A: activate "Soul Net" {quick-play} targeting "Crab"\nB: change "Crab" to defense\n')
    assert findings(later) == []


# ---- flips -----------------------------------------------------------------------------------------
FACE_DOWN = ("turn 3 A\nphase battle\n"
             f"A: attack {APE} -> set \"Hider\" 500/2500 {{flip-monster, flip}}\n"
             "step damage\n")  # lines 1-4


def test_the_attacked_face_down_monster_is_flipped_at_before_calc():
    assert findings(FACE_DOWN + 'timing before-calc\nB: flip "Hider"\ntiming calc\nA: damage 500\n') == []
    assert findings(FACE_DOWN + 'timing ds-start\nB: flip "Hider"\n') == [(6, "ygo.flip.at-ds-start")]
    assert findings(FACE_DOWN + "timing before-calc\ntiming calc\n") == [(6, "ygo.flip.not-flipped")]
    f = check_text(HEADER + FACE_DOWN + "timing before-calc\ntiming calc\n").findings[0]
    assert f.severity.value == "warning"


def test_its_flip_effect_comes_after_damage_calculation():
    flipped = FACE_DOWN + 'timing before-calc\nB: flip "Hider"\n'  # lines 5-6
    assert findings(flipped + 'B: activate "Hider" flip effect\n') == [(7, "ygo.flip.effect-before-calc")]
    assert findings(flipped + 'timing calc\nB: activate "Hider" flip effect\n') == [(8, "ygo.flip.effect-before-calc")]
    assert findings(flipped + 'timing calc\ntiming after-calc\nB: activate "Hider" flip effect\n') == []


def test_a_flip_effect_of_a_monster_that_left_the_field():
    body = (FACE_DOWN + 'timing before-calc\nB: flip "Hider"\nA: activate "Bounce" {quick-play, ds-ok} '
            'targeting "Hider"\nresolve\nB: return "Hider" to hand\ntiming after-calc\n'
            'B: activate "Hider" flip effect\n')
    assert findings(body) == [(11, "ygo.flip.left-field")]


# ---- the field ---------------------------------------------------------------------------------------
def test_a_card_that_left_the_field_cannot_attack():
    body = ("turn 3 A\nphase main1\n"
            'A: normal summon "Sword Ape" 2000/1500 {normal-monster}\n'
            'A: send "Sword Ape" to gy\n'
            "phase battle\n"
            'A: attack "Sword Ape" -> direct\n')
    assert findings(body) == [(6, "ygo.state.not-on-field")]
    assert findings(body.replace('A: send "Sword Ape" to gy\n', "")) == []


def test_the_replay_keeps_where_each_card_is():
    model = replay(FACE_DOWN + 'timing before-calc\nB: flip "Hider"\n')
    ape, hider = model.cards["sword ape"], model.cards["hider"]
    assert (ape.zone, ape.controller, ape.position, ape.face_down) == ("field", "A", "attack", False)
    assert (hider.zone, hider.controller, hider.position, hider.face_down) == ("field", "B", "defense", False)
    assert (model.phase, model.step, model.timing) == ("battle", "damage", BEFORE_CALC)
    assert model.battle.attacker == "sword ape" and model.battle.target == "hider"
