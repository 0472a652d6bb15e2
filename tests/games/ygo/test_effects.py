"""replayer/games/ygo/effects.py and the model's use of it: which effect an `activate` line means.

The catalog here is built inline (made-up cards), so the tests do not move when the game's
``catalog.toml`` grows.
"""

from __future__ import annotations

import tomllib

from replayer.catalog import Catalog, card_from_toml
from replayer.check import validate
from replayer.games.ygo import effects
from replayer.check import read_text
from replayer.replay import CardFacts

TOML = """
[[card]]
en = "Twin Lantern"
kind = "effect-monster"
atk = 1000
def = 1000
[[card.effects]]
props = ["quick", "optional", "atk-mod", "from:hand"]
[[card.effects]]
props = ["trigger", "optional", "self-trigger", "from:gy"]

[[card]]
en = "Still Warden"
kind = "effect-monster"
atk = 3000
def = 3000
[[card.effects]]
props = ["continuous"]
[[card.effects]]
props = ["quick", "optional", "negates-activation"]

[[card]]
en = "Plain Horn"
kind = "normal-trap"
props = ["atk-mod", "targets"]

[[card]]
en = "Foe"
kind = "normal-monster"
atk = 2000
def = 500
"""
CATALOG = Catalog("ygo", [card_from_toml("ygo", c) for c in tomllib.loads(TOML)["card"]])


def facts(name: str) -> CardFacts:
    info = CATALOG.find(name)
    return CardFacts(info.id, name, info, frozenset())


def test_an_open_line_has_every_activated_effect_as_a_reading():
    options, open_choice = effects.readings(facts("Twin Lantern"), effect=None, trigger=False, flip=False)
    assert open_choice and [r.number for r in options] == [1, 2]
    # a monster's continuous effect is never activated: one reading left, nothing open
    options, open_choice = effects.readings(facts("Still Warden"), effect=None, trigger=False, flip=False)
    assert not open_choice and [r.number for r in options] == [2]


def test_the_zone_excludes_readings_only_while_one_fits():
    options, _ = effects.readings(facts("Twin Lantern"), effect=None, trigger=False, flip=False)
    assert [r.number for r in effects.ranked(options, zone="gy", targets=False, just_moved=False)] == [2]
    assert [r.number for r in effects.ranked(options, zone="hand", targets=False, just_moved=False)] == [1]
    # no effect is used from the banished zone: the zone decides nothing
    assert len(effects.ranked(options, zone="banished", targets=False, just_moved=False)) == 2


def test_a_clause_the_catalog_lacks_is_a_reading_of_that_kind():
    (r,), open_choice = effects.readings(facts("Plain Horn"), effect=None, trigger=True, flip=False)
    assert not open_choice and r.unlisted == "trigger"
    assert "trigger" in r.props and "atk-mod" not in r.props and "normal-trap" in r.props
    (r,), _ = effects.readings(facts("Twin Lantern"), effect=3, trigger=False, flip=False)
    assert r.unlisted == "effect 3" and not r.props & {"quick", "trigger", "atk-mod"}


BATTLE = """[Game "ygo"]
turn 3 A
phase battle
A: attack "Foe" -> "Twin Lantern"
step damage
timing ds-start
timing before-calc
timing calc
B: destroy "Twin Lantern" by battle
timing after-calc
timing ds-end
B: send "Twin Lantern" to gy
"""


def findings(text: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity.value, f.rule) for f in validate(read_text(text), CATALOG)]


def test_an_open_line_is_legal_if_one_reading_is_and_says_which():
    found = findings(BATTLE + 'B: activate "Twin Lantern" from gy\n')
    assert found == [(13, "info", "ygo.effect.assumed")]


def test_an_open_line_is_an_error_when_no_reading_the_log_allows_is_legal():
    found = findings(BATTLE + 'B: activate "Twin Lantern"#2 from hand\n')
    assert (13, "error", "ygo.ds.atk-mod-after-calc") in found
    assert (13, "info", "ygo.effect.assumed") in found


def test_an_unlisted_trigger_is_checked_as_a_trigger_not_as_the_atk_boost():
    found = findings(BATTLE + 'A: activate "Plain Horn" trigger\n')
    assert found == [(13, "info", "ygo.effect.not-in-catalog")]
    # the same card without the clause is its ATK boost, too late at ds-end
    assert findings(BATTLE + 'A: activate "Plain Horn"\n') == [(13, "error", "ygo.ds.atk-mod-after-calc")]
