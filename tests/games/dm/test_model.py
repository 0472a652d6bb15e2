"""The Duel Masters attack model (replayer/games/dm/model.py, its tables in rules.py) beyond the scenario logs.

The scenario logs under samples/dm/rulings/ are the rules as tests (tests/test_rulings.py); these
tests pin the tables the model is built from (sub-step inference, battle outcomes, breakers), the
state it keeps, the "cannot decide" cases, and that `replayer rules dm` is generated from the
same tables the validator uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer import RULES, check, check_text
from replayer import events as ev
from replayer.cli import cli
from replayer.check import read_text
from replayer.games.dm import rules as dm
from replayer.games import get as get_game
from replayer.games.dm.model import DmModel
from replayer.games.dm.rules import (ATTACK_GUARDS, DECLARATION_GUARDS, LINES, SHOWINGS, STEPS, Fighter,
                                     battle_outcome, line_kind, reached_step, shields_to_break)
from replayer.games.dm.vocabulary import AttackStep as SubStep

ROOT = Path(__file__).resolve().parents[3]
HEADER = '[Game "dm"]\n[A "Kaito"]\n[B "Rin"]\n'


def replay(body: str, header: str = HEADER) -> DmModel:
    model = DmModel(read_text(header + body), get_game("dm"))
    model.run()
    return model


def findings(body: str, header: str = HEADER) -> list[tuple[int, str]]:
    """(line, rule) of the errors and warnings, lines counted from the first line of ``body``."""
    offset = header.count("\n")
    return [(f.line - offset, f.rule) for f in check_text(header + body).findings
            if f.severity.value in ("error", "warning")]


# ---- the sub-step table ---------------------------------------------------------------------
@pytest.mark.parametrize("kind, current, expected", [
    ("trigger", SubStep.DECLARATION, SubStep.ATTACK_TRIGGERS),
    ("trigger", SubStep.ATTACK_TRIGGERS, SubStep.ATTACK_TRIGGERS),
    ("resolve", SubStep.BLOCK, SubStep.BLOCK_TRIGGERS),  # after the block: block-related abilities
    ("resolve", SubStep.BATTLE, SubStep.BATTLE),
    ("resolve", SubStep.BREAK, SubStep.BREAK),  # an ability keeps the case of sub-step 6
    ("trigger", SubStep.END, SubStep.END),
    ("ninja-strike", SubStep.DECLARATION, SubStep.ATTACK_TRIGGERS),
    ("ninja-strike", SubStep.BLOCK, None),  # the non-turn player's ninja strike comes before blocks
    ("turn-player-ninja-strike", SubStep.BLOCK, SubStep.BLOCK_TRIGGERS),
    ("revolution-change", SubStep.BLOCK, None),
    ("block", SubStep.ATTACK_TRIGGERS, SubStep.BLOCK),
    ("block", SubStep.BLOCK_TRIGGERS, None),
    ("redirect", SubStep.DECLARATION, SubStep.BLOCK),
    ("battle", SubStep.BLOCK_TRIGGERS, SubStep.BATTLE),
    ("break", SubStep.DECLARATION, SubStep.BREAK),
    ("break", SubStep.BATTLE, SubStep.BREAK),  # the cases of sub-step 6 are one sub-step
    ("s-trigger", SubStep.END, None),
    ("attack-ends", SubStep.DIRECT, SubStep.END),
    ("destroy", SubStep.BLOCK, SubStep.BLOCK),  # a line of any sub-step leaves it where it is
])
def test_sub_step_inference(kind, current, expected):
    assert reached_step(dm.LINE_BY_KIND[kind], current) == expected


def test_every_line_kind_comes_from_an_event_and_every_row_is_reachable():
    card = ev.CardRef("X")
    events = [
        ev.Attack(attacker=card, target=None, target_position="player", player="A"),
        ev.TriggerAbility(card=card, player="A"), ev.ResolveAbility(card=card, player="A"), ev.ResolveAll(),
        ev.Declare(what="invade", card=card, player="A"), ev.Declare(what="revolution-change", card=card, player="A"),
        ev.Declare(what="ninja-strike", card=card, player="B"), ev.Declare(what="revolution-0", card=card, player="B"),
        ev.Block(card=card, player="B"), ev.Block(card=card, guardman=True, player="B"),
        ev.Redirect(card=card, target=card, player="B"), ev.Declare(what="ninja-strike", card=card, player="A"),
        ev.Battle(first=card, second=card), ev.Break(count=2, player="A"), ev.STrigger(triggers=(card,), player="B"),
        ev.DirectAttack(player="A"), ev.AttackEnds(), ev.Win(player="A"), ev.Tap(card=card, player="A"),
        ev.Destroy(card=card, player="A"), ev.Move(card=card, to="hand", how="return", player="A"),
    ]
    kinds = [line_kind(e, "A") for e in events]
    assert kinds == [row.kind for row in LINES]
    assert line_kind(ev.Turn(number=1, player="A"), "A") is None


def test_every_sub_step_has_a_row_and_only_sub_step_2_has_no_lines():
    assert [s.step for s in STEPS] == list(SubStep)  # the vocabulary's sub-steps, in order
    assert [s.label for s in STEPS if s.step.number == 6] == ["6-A", "6-B", "6-C"]
    for step in STEPS:
        assert bool(dm.lines_of(step)) == (step.step != SubStep.CONTINUOUS), step.label
        assert step.cite.startswith(dm.SOURCE)
    kinds = {step.label: {row.kind for row in dm.lines_of(step)} for step in STEPS}
    assert kinds["6-A"] == {"trigger", "resolve", "resolve-all", "battle"}
    assert kinds["6-B"] == {"trigger", "resolve", "resolve-all", "break", "s-trigger"}
    assert kinds["6-C"] == {"trigger", "resolve", "resolve-all", "direct-attack"}
    assert kinds["4"] == {"block", "guardman", "redirect"}
    for row in LINES:
        assert row.steps is None or list(row.steps) == sorted(row.steps), row.kind
        assert row.steps is None or row.cite.startswith(dm.SOURCE), row.kind


def test_the_tables_name_registered_rules_only():
    used = {g.rule for group in ATTACK_GUARDS for g in group} | {g.rule for g in DECLARATION_GUARDS}
    used |= {s.rule for s in SHOWINGS}
    assert used <= set(RULES)
    dm_rules = {r for r in RULES if r.startswith("dm.")}
    assert len(dm_rules) == 41
    assert all(RULES[r].cite.startswith(dm.SOURCE) for r in dm_rules)


# ---- battles and breakers ----------------------------------------------------------------------
def fighters(pa, pb, wa=False, wb=False):
    return Fighter("a", pa, wa), Fighter("b", pb, wb)


@pytest.mark.parametrize("pair, winners, losers", [
    (fighters(7000, 6000), {"a"}, {"b"}),
    (fighters(2000, 9000), {"b"}, {"a"}),
    (fighters(7000, 7000), set(), {"a", "b"}),  # equal power: both lose
    (fighters(2000, 9000, wa=True), {"a"}, {"b"}),  # wins all battles, whatever the power
    (fighters(7000, 2000, wb=True), {"b"}, {"a"}),
    (fighters(7000, 2000, True, True), {"a", "b"}, set()),  # both win all battles: both survive
    (fighters(None, 2000, wa=True), {"a"}, {"b"}),  # power does not matter then
])
def test_battle_outcome(pair, winners, losers):
    assert battle_outcome(*pair) == (frozenset(winners), frozenset(losers))


@pytest.mark.parametrize("a, b", [
    fighters(None, 2000),  # a power the log does not give
    (Fighter("a", 7000, None), Fighter("b", 2000, False)),  # properties not known: it may win all battles
    (Fighter("a", 7000, True), Fighter("b", 2000, None)),
])
def test_battle_outcome_cannot_be_decided(a, b):
    assert battle_outcome(a, b) is None


@pytest.mark.parametrize("props, shields, allowed", [
    (set(), 5, {1}),
    ({"w-breaker"}, 5, {2}),
    ({"w-breaker"}, 1, {1}),
    ({"t-breaker"}, 2, {2}),
    ({"w-breaker", "t-breaker"}, 5, {2, 3}),  # several breakers: the attacker chooses one
    ({"t-breaker"}, 0, {0}),
])
def test_breakers_are_mandatory(props, shields, allowed):
    assert shields_to_break(frozenset(props), shields) == frozenset(allowed)


# ---- state -------------------------------------------------------------------------------------
def test_untap_at_the_start_of_a_turn_is_the_turn_players_only():
    model = replay('turn 6 B\nB: attack "Aqua Surfer" -> player\nB: break 1\nattack ends\n'
                   'turn 7 A\nA: attack "Bolshack Dragon" -> "Aqua Surfer"\n')
    surfer, bolshack = model.creatures["Aqua Surfer"], model.creatures["Bolshack Dragon"]
    assert (surfer.owner, surfer.tapped) == ("B", True)
    assert (bolshack.owner, bolshack.tapped) == ("A", True)
    assert model.turn_player == "A"
    model = replay('turn 6 B\nB: attack "Aqua Surfer" -> player\nattack ends\nturn 7 A\nturn 8 B\n')
    assert model.creatures["Aqua Surfer"].tapped is False


def test_shields_follow_the_header_and_the_log():
    model = replay('turn 3 A\nA: attack "Bolshack Dragon" -> player\nA: break 2\nattack ends\n'
                   'B: put "Aqua Surfer" into shields\n', HEADER + '[Shields "4"]\n')
    assert model.shields == {"A": 4, "B": 3}
    assert replay("turn 1 A\n").shields == {"A": 5, "B": 5}


def test_the_current_attack_and_the_waiting_abilities():
    model = replay('turn 9 A\nA: attack 《爆竜 GENJI・XX》 -> player\nA: trigger 《爆竜 GENJI・XX》\n'
                   'B: trigger 《特攻秘宝カースガイ》\n')
    a = model.attack
    assert a is not None and a.substep == SubStep.ATTACK_TRIGGERS and a.aims_at is None
    assert [(w.owner, w.label) for w in model.waiting] == [("A", "爆竜 GENJI・XX"), ("B", "特攻秘宝カースガイ")]
    model = replay('turn 9 A\nA: attack "Bolshack Dragon" -> player\nB: block with "Marine Flower"\n'
                   'battle "Bolshack Dragon" vs "Marine Flower"\n')
    assert (model.attack.substep, model.attack.case, model.attack.label) == (SubStep.BATTLE, "A", "6-A")
    assert model.attack.aims_at == "Marine Flower" and model.creatures["Marine Flower"].tapped


def test_a_line_that_goes_back_leaves_the_sub_step_where_it_was():
    model = replay('turn 8 A\nA: attack "Bolshack Dragon" -> player\nA: break 2\nB: block with "Marine Flower"\n')
    assert model.attack.substep == SubStep.BREAK and model.attack.case == "B"


def test_an_entering_line_makes_the_cip_ability_wait_and_a_trigger_line_names_it():
    model = replay('turn 8 A\nA: attack "Bolshack Dragon" -> player\nA: break 2\nB: s-trigger "Aqua Surfer"\n'
                   'B: trigger "Aqua Surfer"\n')
    assert [(w.owner, w.source, w.named) for w in model.waiting] == [("B", "s-trigger creature", True)]


def test_state_words_say_how_a_creature_is_at_its_mention():
    assert findings('turn 3 A\nA: attack "Bolshack Dragon" -> "Aqua Surfer" {tapped}\n') == []
    assert findings('turn 3 A\nA: attack "Bolshack Dragon" {tapped} -> player\n') == [
        (2, "dm.attack.tapped-attacker")]
    assert findings('turn 3 A\nA: attack "Bolshack Dragon" {summoned} -> player\n') == [
        (2, "dm.attack.summoning-sick")]


def test_copies_are_creatures_of_their_own_with_their_cards_abilities():
    body = ('turn 9 A\nA: attack "Twin-Cannon Skyterror" -> player\nA: break 2\nattack ends\n'
            'A: attack "Twin-Cannon Skyterror"#2 -> player\nA: break 1\nattack ends\n'
            'A: attack "Twin-Cannon Skyterror" -> player\n')
    assert findings(body) == [(6, "dm.break.count"), (8, "dm.attack.tapped-attacker")]
    body = ('turn 9 B\nB: attack "Bolshack Dragon"#2 -> player\nattack ends\nturn 10 A\n'
            'A: attack "Twin-Cannon Skyterror" -> "Bolshack Dragon"#2\n'
            'battle "Twin-Cannon Skyterror" vs "Bolshack Dragon"#2\nB: destroy "Bolshack Dragon"\n')
    assert findings(body) == [(6, "dm.battle.result")]  # the wrong copy is destroyed
    assert findings(body.replace('destroy "Bolshack Dragon"', 'destroy "Bolshack Dragon"#2')) == []


# ---- who may attack ------------------------------------------------------------------------------
def test_a_mach_fighter_may_attack_an_untapped_creature_the_turn_it_enters_even_with_speed_attacker():
    body = 'turn 9 A\nA: summon 《ハザード・オウ禍武斗》 {speed-attacker}\nA: attack 《ハザード・オウ禍武斗》 -> "Aqua Surfer"\n'
    assert findings(body) == []
    # with speed attacker it may attack the player too
    assert findings('turn 9 A\nA: summon 《ハザード・オウ禍武斗》 {speed-attacker}\n'
                    'A: attack 《ハザード・オウ禍武斗》 -> player\n') == []


def test_summoning_sickness_follows_the_turn_lines_and_excerpts_without_them():
    assert findings('A: summon "Bolshack Dragon"\nA: attack "Bolshack Dragon" -> player\n') == [
        (2, "dm.attack.summoning-sick")]
    assert findings('turn 3 A\nA: summon "Bolshack Dragon"\nturn 3 B\nturn 4 A\n'
                    'A: attack "Bolshack Dragon" -> player\nA: break 2\n') == []


def test_one_attacker_finding_and_one_target_finding_a_line():
    # tapped and summoning sick: the first guard of the group only
    body = 'turn 5 A\nA: summon "Bolshack Dragon"\nA: tap "Bolshack Dragon"\nA: attack "Bolshack Dragon" -> player\n'
    assert findings(body) == [(4, "dm.attack.tapped-attacker")]
    body = 'turn 5 A\nA: summon "Marine Flower"\nA: attack "Marine Flower" -> "Aqua Surfer"\n'
    assert findings(body) == [(3, "dm.attack.cannot-attack"), (3, "dm.attack.untapped-target")]


# ---- an unknown card is "cannot decide", never an error ----------------------------------------------
def test_unknown_cards_give_only_the_unknown_card_warning():
    body = ('turn 5 A\nA: summon "Mystery Beast"\nA: attack "Mystery Beast" -> "Odd Wall"\n'
            'B: block with "Shy Blob"\nbattle "Mystery Beast" 3000 vs "Shy Blob" 2000\n'
            'B: destroy "Mystery Beast"\nattack ends\nA: attack "Mystery Beast#2" -> player\nA: break 3\n')
    assert {rule for _, rule in findings(body)} == {"card.unknown"}


def test_state_the_log_gives_is_checked_whatever_the_card():
    body = 'turn 5 A\nA: attack "Mystery Beast" -> player\nattack ends\nA: attack "Mystery Beast" -> player\n'
    assert (4, "dm.attack.tapped-attacker") in findings(body)


# ---- order of abilities ---------------------------------------------------------------------------
def test_abilities_kept_waiting_into_another_sub_step_do_not_make_earlier_lines_wrong():
    body = ('turn 5 A\nA: attack "Bolshack Dragon" -> player\n'
            'A: trigger "Echo Raider" {creature, attack-trigger, after-attack}\n'
            'B: trigger 《特攻秘宝カースガイ》\nB: resolve 《特攻秘宝カースガイ》\nB: destroy 《特攻秘宝カースガイ》\n'
            'A: destroy "Bolshack Dragon"\nattack ends\nA: resolve "Echo Raider"\n')
    assert findings(body) == []


def test_end_of_attack_abilities_of_both_players_then_after_the_attack():
    body = ('turn 5 A\nA: attack "Flame Lancer" 4000 {creature, end-of-attack} -> player\n'
            'A: trigger "Echo Raider" {creature, attack-trigger, after-attack}\nA: break 1\nattack ends\n'
            'B: trigger "Watcher" {creature, end-of-attack}\nA: trigger "Flame Lancer"\n'
            'A: resolve "Flame Lancer"\nB: resolve "Watcher"\nA: resolve "Echo Raider"\n')
    assert findings(body) == []
    swapped = body.replace('A: resolve "Flame Lancer"\nB: resolve "Watcher"\n',
                           'B: resolve "Watcher"\nA: resolve "Flame Lancer"\n')
    assert findings(swapped) == [(8, "dm.order.active-first")]


def test_the_turn_players_cip_abilities_come_before_the_non_turn_players_ninja_strike():
    body = ('turn 5 A\nA: attack "Bolshack Dragon" -> player\nA: revolution change 《蒼き団長 ドギラゴン剣》\n'
            'B: ninja strike 《光牙忍ハヤブサマル》\nA: resolve 《蒼き団長 ドギラゴン剣》\n')
    assert findings(body) == [(4, "dm.order.ninja-before-triggers")]
    # a log that leaves the resolve out does not say the order was wrong
    assert findings(body.rsplit("A: resolve", 1)[0]) == []


def test_a_revolution_change_is_not_an_abort_the_new_creature_carries_on():
    body = ('turn 9 A\nA: attack "Bolshack Dragon" -> player\nA: revolution change 《蒼き団長 ドギラゴン剣》\n'
            'A: return "Bolshack Dragon" to hand\nA: break 3\nattack ends\n')
    assert findings(body) == []
    assert findings(body.replace("break 3", "break 2")) == [(5, "dm.break.count")]


def test_every_line_of_a_second_go_is_a_second_go_not_a_line_that_goes_back():
    body = ('turn 9 A\nA: attack "Bolshack Dragon" -> player\nB: block with "Marine Flower"\n'
            'A: ninja strike 《光牙忍ソニックマル》\nB: block with "Gran Gure, Space Guardian"\n'
            'B: guardman 《ウッカ・リザード》\n')
    assert findings(body) == [(5, "dm.block.twice"), (6, "dm.block.twice")]


def test_a_break_written_after_attack_ends_goes_back_and_is_still_counted():
    body = 'turn 7 A\nA: attack "Bolshack Dragon" -> player\nattack ends\nA: break 1\n'
    assert findings(body) == [(4, "dm.break.count"), (4, "dm.substep.backwards")]


def test_an_attack_ends_at_a_new_attack_turn_or_phase_line():
    body = 'turn 5 A\nA: attack "Bolshack Dragon" -> player\nA: break 1\nphase end\n'
    assert findings(body) == [(3, "dm.break.count")]
    body = ('turn 5 A\nA: attack "Bolshack Dragon" -> player\nA: break 2\n'
            'A: attack "Aqua Surfer" -> player\nA: break 1\n')
    assert findings(body) == []


# ---- correct logs get no false error ------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted((ROOT / "samples" / "dm").glob("*.duel")), ids=lambda p: p.stem)
def test_the_samples_get_no_error_or_warning(path):
    assert [(f.line, f.rule) for f in check(path).findings if f.severity.value in ("error", "warning")] == []


# ---- `replayer rules dm` is generated from the tables ---------------------------------------------------
def test_replayer_rules_dm_prints_the_table_the_validator_uses():
    result = CliRunner().invoke(cli, ["rules", "dm"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.rstrip("\n") == DmModel.describe()
    text = DmModel.describe()
    for step in STEPS:
        assert f"{step.label:<4} {step.title}" in text and step.happens in text and step.cite in text
    for row in LINES:
        assert f"`{row.form}`" in text
    for rid in (r for r in RULES if r.startswith("dm.")):
        assert rid in text


def test_the_description_changes_with_the_table(monkeypatch):
    extra = dm.Line("summon", "A: summon C (by an ability)", (SubStep.BLOCK_TRIGGERS,), cite=dm.STEP5)
    monkeypatch.setattr(dm, "LINES", dm.LINES + (extra,))
    text = DmModel.describe()
    block_triggers = text.split("5    Block-related abilities")[1].split("6-A")[0]
    assert "`A: summon C (by an ability)`" in block_triggers


def test_a_second_break_of_the_same_attack_is_blamed_on_the_second_line():
    """Issue 23 (1): line 4 breaks the one shield a non-breaker breaks; only line 5 is wrong, and says so."""
    text = '[Game "dm"]\nturn 3 A\nA: attack "Gatling Cyclone" -> player\nA: break 1\nA: break 1\nattack ends\n'
    got = [(f.line, f.rule, f.message) for f in check_text(text).findings if f.severity.value == "error"]
    assert got == [(5, "dm.break.twice",
                    'this line is a second `break` of the same attack: 1 more shield after the 1 of line 4 '
                    '(2 in all, but "Gatling Cyclone" breaks 1: B had 5 shields); the attacker chooses all its '
                    'shields at once and breaks them together (one `break` line)')]


def test_a_first_break_that_is_wrong_by_itself_is_still_its_own_finding():
    """A W-breaker's `break 1` then `break 2`: the first line breaks 1 of the 2, the second is a second go."""
    got = findings('turn 9 A\nA: attack "Bolshack Dragon" -> player\nA: break 1\nA: break 2\nattack ends\n')
    assert got == [(3, "dm.break.count"), (4, "dm.break.twice")]
    f = [f for f in check_text(HEADER + 'turn 9 A\nA: attack "Bolshack Dragon" -> player\nA: break 1\n'
                               'A: break 2\nattack ends\n').findings if f.rule == "dm.break.count"][0]
    assert f.message.startswith('"Bolshack Dragon" breaks 1 shield here, but it must break 2')
