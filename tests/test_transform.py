"""replayer/transform.py: a line's tree -> one event (or a header tag), every line kind of both games.

Each line is parsed on its own with the game's parser and transformed; the event is compared whole
(field by field, the cards with their columns), so a field the transformer forgets or fills wrongly
fails the test. The reader adds span, timecode and notes afterwards: they are not set here.
"""

from __future__ import annotations

import re

import pytest

from replayer import events as ev
from replayer.games import get
from replayer.grammar import parser
from replayer.transform import ALIASES, ToEvents, canonical, unquote


def event_of(game: str, line: str):
    return ToEvents().transform(parser(get(game)).parse(line))


_QUOTED = re.compile(r'"[^"]*"|《[^》]*》|「[^」]*」|„[^“”]*[“”]')


def C(line: str, written: str, name: str | None = None, *, at: int = 0, **fields) -> ev.CardRef:
    """The card written as ``written`` (name plus decorations) in ``line``; ``at``: which occurrence."""
    start = -1
    for _ in range(at + 1):
        start = line.index(written, start + 1)
    if name is None:
        name = unquote(_QUOTED.match(written).group(0))
    return ev.CardRef(name, column=start + 1, end_column=start + 1 + len(written), **fields)


# ---- structure lines ----------------------------------------------------------------------
@pytest.mark.parametrize("game, line, expected", [
    ("ygo", "turn 3 B", ev.Turn(number=3, player="B")),
    ("ygo", "ターン 1 A", ev.Turn(number=1, player="A")),
    ("ygo", "Zug 2 A", ev.Turn(number=2, player="A")),
    ("dm", "turn 12 A", ev.Turn(number=12, player="A")),
    ("ygo", "phase battle", ev.Phase(name="battle")),
    ("ygo", "phase main 1", ev.Phase(name="main1")),
    ("ygo", "phase Main2", ev.Phase(name="main2")),
    ("ygo", "Battle Phase", ev.Phase(name="battle")),
    ("ygo", "メインフェイズ1", ev.Phase(name="main1")),
    ("ygo", "エンドフェイズ", ev.Phase(name="end")),
    ("dm", "phase attack", ev.Phase(name="attack")),
    ("ygo", "step damage", ev.Step(name="damage")),
    ("ygo", "Damage Step", ev.Step(name="damage")),
    ("ygo", "Schritt battle", ev.Step(name="battle")),
    ("ygo", "バトルステップ", ev.Step(name="battle")),
    ("ygo", "step 終了", ev.Step(name="end")),
    ("ygo", "timing ds-start", ev.Timing(name="ds-start")),
    ("ygo", "timing After-Calc", ev.Timing(name="after-calc")),
    ("ygo", "ダメージ計算時", ev.Timing(name="calc")),
    ("ygo", "vor der Schadensberechnung", ev.Timing(name="before-calc")),
    ("ygo", "Ende des Damage Steps", ev.Timing(name="ds-end")),
    ("ygo", "resolve", ev.ResolveAll()),
    ("ygo", "解決", ev.ResolveAll()),
    ("dm", "Auflösung", ev.ResolveAll()),
    ("dm", "attack ends", ev.AttackEnds()),
    ("dm", "攻撃 終了", ev.AttackEnds()),
])
def test_structure_lines(game, line, expected):
    assert event_of(game, line) == expected


@pytest.mark.parametrize("line, tag", [
    ('[Game "ygo"]', ("tag", "Game", "ygo")),
    ("[A 《遊戯》]", ("tag", "A", "遊戯")),
    ('[Event „Regionalmeisterschaft  Köln“]', ("tag", "Event", "Regionalmeisterschaft Köln")),
])
def test_a_header_line_is_a_tag_tuple_with_the_quotes_removed(line, tag):
    assert event_of("ygo", line) == tag
    assert event_of("dm", line) == tag


# ---- cards ----------------------------------------------------------------------------------
def test_a_card_keeps_its_copy_stats_properties_and_columns():
    line = 'A: activate "Kuriboh"#2 300/200 {Quick,  ATK-mod} effect 2'
    e = event_of("ygo", line)
    assert e.card == ev.CardRef("Kuriboh", 2, 300, 200, None, ("quick", "atk-mod"), 13, 50)
    assert line[e.card.column - 1 : e.card.end_column - 1] == '"Kuriboh"#2 300/200 {Quick,  ATK-mod}'


def test_unknown_stats_are_none():
    e = event_of("ygo", 'A: normal summon "X" ?/1200')
    assert (e.card.atk, e.card.def_) == (None, 1200)


def test_a_dm_card_has_a_power():
    line = 'B: block with "Guard" 3000 {blocker}'
    assert event_of("dm", line) == ev.Block(player="B", card=C(line, '"Guard" 3000 {blocker}', "Guard", power=3000,
                                                                 props=("blocker",)))


@pytest.mark.parametrize("written, name", [
    ('"Dark  Magician"', "Dark Magician"), ("《オネスト》", "オネスト"), ("「クリボー」", "クリボー"),
    ("„Ehrliche Haut“", "Ehrliche Haut"), ("„Ehrliche Haut”", "Ehrliche Haut"),
])
def test_every_quote_style_gives_the_bare_name(written, name):
    line = f"A: set {written}"
    assert event_of("ygo", line).card == ev.CardRef(name, column=8, end_column=8 + len(written))
    assert unquote(written) == name


# ---- Yu-Gi-Oh! actor lines ------------------------------------------------------------------
def ygo_cases():
    L = 'A: draw'
    yield L, ev.Draw(player="A", count=1)
    L = 'B: draw 2'
    yield L, ev.Draw(player="B", count=2)
    L = 'A: special summon "X" from gy'
    yield L, ev.Summon(player="A", method="special", card=C(L, '"X"'), from_zone="gy")
    L = 'A: Tribute Summon "X"'
    yield L, ev.Summon(player="A", method="tribute", card=C(L, '"X"'))
    L = 'A: flip summon "X"'
    yield L, ev.Summon(player="A", method="flip", card=C(L, '"X"'))
    L = 'A: set "X"'
    yield L, ev.SetCard(player="A", card=C(L, '"X"'))
    L = 'A: attack "X" -> "Y"'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=C(L, '"Y"'), target_position="attack")
    L = 'A: attack "X" -> direct'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=None, target_position="direct")
    L = 'A: attack "X" -> set "Y"'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=C(L, '"Y"'), target_position="set")
    L = 'A: attack "X" -> defense "Y"'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=C(L, '"Y"'), target_position="defense")
    L = 'A: attack "X" -> "X"#2'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=C(L, '"X"#2', "X", copy=2))
    L = 'A: activate "X" effect 2 from hand targeting "T", "U" cost discard "V"'
    yield L, ev.Activate(player="A", card=C(L, '"X"'), effect=2, from_zone="hand",
                         targets=(C(L, '"T"'), C(L, '"U"')), cost="discard", cost_card=C(L, '"V"'))
    L = 'CL2 B: activate "X" flip effect'
    yield L, ev.Activate(player="B", chain_link=2, card=C(L, '"X"'), flip_effect=True)
    L = 'A: activate "X" trigger'
    yield L, ev.Activate(player="A", card=C(L, '"X"'), trigger=True)
    L = 'A: activate "X" from graveyard cost send "Y" to gy'
    yield L, ev.Activate(player="A", card=C(L, '"X"'), from_zone="gy", cost="send", cost_card=C(L, '"Y"'))
    L = 'A: activate "X" cost tribute "Y"'
    yield L, ev.Activate(player="A", card=C(L, '"X"'), cost="tribute", cost_card=C(L, '"Y"'))
    L = 'A: 発動 《オネスト》 手札から'
    yield L, ev.Activate(player="A", card=C(L, "《オネスト》"), from_zone="hand")
    L = 'A: aktiviert „Ehrliche Haut“ aus der Hand'
    yield L, ev.Activate(player="A", card=C(L, "„Ehrliche Haut“"), from_zone="hand")
    L = 'A: flip "X"'
    yield L, ev.Flip(player="A", card=C(L, '"X"'))
    L = 'B: destroy "X" by battle'
    yield L, ev.Destroy(player="B", card=C(L, '"X"'), by_battle=True)
    L = 'B: destroy "X"'
    yield L, ev.Destroy(player="B", card=C(L, '"X"'))
    L = 'B: 戦闘破壊 《X》'
    yield L, ev.Destroy(player="B", card=C(L, "《X》"), by_battle=True)
    L = 'B: 破壊 《X》 戦闘で'
    yield L, ev.Destroy(player="B", card=C(L, "《X》"), by_battle=True)
    L = 'A: send "X" to graveyard'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="gy", how="send")
    L = 'A: banish "X"'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="banished", how="banish")
    L = 'A: return "X" to hand'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="hand", how="return")
    L = 'A: discard "X"'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="gy", how="discard")
    L = 'A: change "X" to defense'
    yield L, ev.ChangePosition(player="A", card=C(L, '"X"'), position="defense")
    L = 'A: change "X" to Attack'
    yield L, ev.ChangePosition(player="A", card=C(L, '"X"'), position="attack")
    L = 'B: negate "X"'
    yield L, ev.Negate(player="B", card=C(L, '"X"'))
    L = 'B: damage 1700'
    yield L, ev.Damage(player="B", amount=1700)
    L = 'B: lp 6300'
    yield L, ev.LifePoints(player="B", value=6300)
    L = 'A: atk "X" 2600'
    yield L, ev.AtkChange(player="A", card=C(L, '"X"'), value=2600, relative=False)
    L = 'A: atk "X" +500'
    yield L, ev.AtkChange(player="A", card=C(L, '"X"'), value=500, relative=True)
    L = 'A: atk "X" -300'
    yield L, ev.AtkChange(player="A", card=C(L, '"X"'), value=-300, relative=True)
    L = 'B: pass'
    yield L, ev.Pass(player="B")
    L = 'A: end battle phase'
    yield L, ev.EndBattlePhase(player="A")


@pytest.mark.parametrize("line, expected", list(ygo_cases()), ids=[c[0] for c in ygo_cases()])
def test_ygo_actor_lines(line, expected):
    assert event_of("ygo", line) == expected


# ---- Duel Masters actor lines -----------------------------------------------------------------
def dm_cases():
    for verb in ("charge", "summon", "cast"):
        L = f'A: {verb} "X"'
        yield L, ev.MainAction(player="A", verb=verb, card=C(L, '"X"'))
    L = 'A: tap "X"'
    yield L, ev.Tap(player="A", card=C(L, '"X"'), tapped=True)
    L = 'A: untap "X"'
    yield L, ev.Tap(player="A", card=C(L, '"X"'), tapped=False)
    L = 'A: attack "X" 5000 -> "Y"'
    yield L, ev.Attack(player="A", attacker=C(L, '"X" 5000', "X", power=5000), target=C(L, '"Y"'),
                       target_position="attack")
    L = 'A: attack "X" -> player'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=None, target_position="player")
    L = 'A: attack "X" -> プレイヤー'
    yield L, ev.Attack(player="A", attacker=C(L, '"X"'), target=None, target_position="player")
    L = 'A: trigger "X"'
    yield L, ev.TriggerAbility(player="A", card=C(L, '"X"'))
    L = 'B: resolve "X"'
    yield L, ev.ResolveAbility(player="B", card=C(L, '"X"'))
    L = 'B: ninja strike "N"'
    yield L, ev.Declare(player="B", what="ninja-strike", card=C(L, '"N"'))
    L = 'B: revolution 0 "N"'
    yield L, ev.Declare(player="B", what="revolution-0", card=C(L, '"N"'))
    L = 'A: revolution change "N"'
    yield L, ev.Declare(player="A", what="revolution-change", card=C(L, '"N"'))
    L = 'A: invade "N"'
    yield L, ev.Declare(player="A", what="invade", card=C(L, '"N"'))
    L = 'B: block with "G"'
    yield L, ev.Block(player="B", card=C(L, '"G"'))
    L = 'B: guardman "G"'
    yield L, ev.Block(player="B", card=C(L, '"G"'), guardman=True)
    L = 'B: redirect "R" -> "Q"'
    yield L, ev.Redirect(player="B", card=C(L, '"R"'), target=C(L, '"Q"'))
    L = 'battle "X" vs "Y"'
    yield L, ev.Battle(first=C(L, '"X"'), second=C(L, '"Y"'))
    L = 'B: destroy "X"'
    yield L, ev.Destroy(player="B", card=C(L, '"X"'))
    L = 'A: return "X" to hand'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="hand", how="return")
    L = 'A: put "X" into mana'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="mana", how="put")
    L = 'A: put "X" into shield'
    yield L, ev.Move(player="A", card=C(L, '"X"'), to="shields", how="put")  # the alias: one zone name
    L = 'A: break 2 shields'
    yield L, ev.Break(player="A", count=2)
    L = 'A: break 1'
    yield L, ev.Break(player="A", count=1)
    L = 'B: s-trigger "S", "T"'
    yield L, ev.STrigger(player="B", triggers=(C(L, '"S"'), C(L, '"T"')))
    L = 'A: direct attack'
    yield L, ev.DirectAttack(player="A")
    L = 'A: win'
    yield L, ev.Win(player="A")


@pytest.mark.parametrize("line, expected", list(dm_cases()), ids=[c[0] for c in dm_cases()])
def test_dm_actor_lines(line, expected):
    assert event_of("dm", line) == expected


def test_s_trigger_cards_are_the_events_cards():
    e = event_of("dm", 'B: s-trigger "S", "T"')
    assert [c.name for c in e.cards()] == ["S", "T"]


def test_every_transformer_rule_is_used_by_a_case():
    """A transformer method no case reaches is a line kind without a test (or dead code)."""
    import inspect

    names = {n for n, _ in inspect.getmembers(ToEvents, inspect.isfunction) if not n.startswith("_")}
    names -= {"transform", "pass", "break"}  # `pass` and `break` are the same functions as pass_ and break_
    used: set[str] = set()

    class Spy(ToEvents):
        pass

    for name in names:
        def spy(self, c, _name=name):
            used.add(_name)
            return getattr(ToEvents, _name)(self, c)
        setattr(Spy, name, spy)
    setattr(Spy, "pass", Spy.pass_)
    setattr(Spy, "break", Spy.break_)
    lines = ([("ygo", line) for line, _ in ygo_cases()] + [("dm", line) for line, _ in dm_cases()]
             + [("ygo", "turn 1 A"), ("ygo", "phase battle"), ("ygo", "step damage"), ("ygo", "timing calc"),
                ("ygo", "resolve"), ("dm", "attack ends"), ("ygo", '[Game "ygo"]')])
    for game, line in lines:
        Spy().transform(parser(get(game)).parse(line))
    assert sorted(names - used) == []


# ---- aliases ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, word", [
    ("Battle  Phase", "battle"), ("ダメージ計算後", "after-calc"), ("Nach der Schadensberechnung", "after-calc"),
    ("aus der Hand", "hand"), ("graveyard", "gy"), ("Ninja Strike", "ninja-strike"), ("shield", "shields"),
    ("calc", "calc"), ("Something Else", "something else"),
])
def test_canonical_maps_aliases_case_and_spacing_insensitively(text, word):
    assert canonical(text) == word


def test_the_alias_table_keys_are_already_normalised():
    # canonical() folds the text before looking it up: a key with capitals or double spaces never matches
    assert [k for k in ALIASES if k != " ".join(k.split()).casefold()] == []
