"""Duel Masters abilities as printed: read from card text (replayer/cards/text.py ``dm_read``), imported,
and applied by the attack procedure (replayer/games/dm). A small card list made here, with invented
names and texts in the format of a Duel Masters card list; no real card data is used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.cards.db import CardDB
from replayer.cards.importer import import_cards
from replayer.games import ALL as GAMES
from replayer.cards.layers import use_cards_db
from replayer.cards.text import dm_read, dm_words
from replayer.check import check_text
from replayer.cli import cli


def words(text: str) -> list[str]:
    return [w for w, _ in dm_words(text)]


# ---- reading the text --------------------------------------------------------------------------------
def test_keywords_and_this_creature_abilities_with_their_parameters():
    assert words("Power attacker +3000 (While attacking, this creature gets +3000 power.)") == ["power-attacker 3000"]
    assert words("This creature can't be blocked.") == ["cannot-be-blocked"]
    assert words("While attacking a creature, this creature can't be blocked.") == \
        ["cannot-be-blocked-attacking-creatures"]
    assert words("This creature can't be blocked by any creature that has power 4000 or less.") == \
        ["cannot-be-blocked-by-power-at-most 4000"]
    assert words("This creature can't be blocked by creatures that have power 5000 or more.") == \
        ["cannot-be-blocked-by-power-at-least 5000"]
    assert words("This creature can't be blocked by darkness or light creatures.") == \
        ["cannot-be-blocked-by:darkness", "cannot-be-blocked-by:light"]
    assert words("This creature can't be attacked.\nThis creature can't attack creatures.") == \
        ["cannot-be-attacked", "cannot-attack-creatures"]
    assert words("This creature cannot be attacked by fire or nature creatures.") == \
        ["cannot-be-attacked-by:fire", "cannot-be-attacked-by:nature"]
    assert words("Slayer (Whenever this creature battles, destroy the other creature after the battle.)") == ["slayer"]
    assert words("Shield trigger (When this spell is put into your hand from your shield zone, you may cast it.)") \
        == ["s-trigger"]
    assert words("Evolution—Put on one of your Sea Folk.") == ["evolution"]


def test_a_keyword_counts_wherever_it_stands_in_a_line():
    assert words("Evolution—Put on one of your Mud Worms. Double breaker (This creature breaks 2 shields.)") == \
        ["evolution", "w-breaker"]
    assert words("Speed Attacker .\nPower attacker +2000 .") == ["speed-attacker", "power-attacker 2000"]


def test_japanese_text():
    assert words("パワーアタッカー+3000\nこのクリーチャーはブロックされない。\nスレイヤー") == \
        ["power-attacker 3000", "cannot-be-blocked", "slayer"]
    assert words("このクリーチャーは、パワー4000以下のクリーチャーにブロックされない。") == \
        ["cannot-be-blocked-by-power-at-most 4000"]
    assert words("このクリーチャーは、闇のクリーチャーにブロックされない。\n進化－自分のドラゴン1体の上に置く。") == \
        ["cannot-be-blocked-by:darkness", "evolution"]
    assert words("このクリーチャーは攻撃されない。\nS・トリガー") == ["cannot-be-attacked", "s-trigger"]


def test_conditions_the_log_does_not_show_give_nothing_but_are_kept_as_unread():
    r = dm_read("While you have no cards in your hand, this creature has \"blocker.\"\n"
                "Night rush (Made up: it has this ability only after a night.) : This creature can't be blocked.\n"
                "This creature gets +500 power for each tapped creature you have.")
    assert r.words == [] and r.statics == []
    assert [about for _, about in r.unread] == ["own", "own", "own"]


def test_abilities_on_other_creatures_are_static_abilities_not_the_cards_own():
    r = dm_read('Creatures that have "speed attacker" can\'t attack on the turn they are put into the battle zone.\n'
                "Your opponent's creatures can't block.\n"
                'Each of your other fire creatures in the battle zone has "power attacker +2000."\n'
                "Each of your Mud Worms in the battle zone has \"slayer.\"\n"
                "All your creatures get +1000 power while attacking.")
    assert r.words == []
    assert [st for st, _ in r.statics] == [
        {"who": "all", "needs": "speed-attacker", "gives": ["cannot-attack-turn-entered"]},
        {"who": "opponents", "gives": ["cannot-block"]},
        {"who": "yours", "other": True, "gives": ["power-attacker 2000"], "civs": ["fire"]},
        {"who": "yours", "other": False, "gives": ["slayer"], "races": ["Mud Worms"]},
        {"who": "yours", "other": False, "gives": ["power-attacker 1000"]},
    ]
    assert dm_read("Each of your creatures in the battle zone gets +2000 power until the end of the turn.",
                   creature=False).statics == []  # a spell's effect of a moment


# ---- the import and the attack procedure ----------------------------------------------------------------
CARDS = [
    ("Test Courier", "Creature", ["Water"], "3000", ["Sea Folk"], "This creature can't be blocked."),
    ("Test Kite", "Creature", ["Fire"], "1000+", ["Sky Lizard"],
     "While attacking a creature, this creature can't be blocked.\n"
     "Power attacker +3000 (While attacking, this creature gets +3000 power.)"),
    ("Test Vizier", "Creature", ["Light"], "2000", ["Initiate"],
     "This creature can't be blocked by creatures that have power 4000 or more."),
    ("Test Wall", "Creature", ["Water"], "4000", ["Fish"], "Blocker (Whenever an opponent's creature attacks, "
                                                            "you may tap this creature to stop the attack.)"),
    ("Test Small Wall", "Creature", ["Darkness"], "3000", ["Ghost"], "Blocker"),
    ("Test Boar", "Creature", ["Nature"], "4000+", ["Beast Folk"], "Power attacker +8000"),
    ("Test Brute", "Creature", ["Nature"], "9000", ["Giant"], "Blocker"),
    ("Test Glutton", "Creature", ["Darkness"], "1000", ["Ghost"], "Slayer"),
    ("Test Crawler", "Creature", ["Fire"], "7000", ["Warlord"],
     "Evolutionâ€”Put on one of your Beast Folk. Double breaker (This creature breaks 2 shields.)"),
    ("Test Charger", "Spell", ["Water"], None, None, "Return a creature to its owner's hand."),
    ("Test Trap", "Spell", ["Darkness"], None, None, "Shield trigger\nDestroy a creature."),
    ("Test Hider", "Creature", ["Fire"], "4000", ["Armorloid"], "This creature can't be attacked."),
    ("Test Warden", "Creature", ["Water"], "3000", ["Sea Hacker"],
     'Blocker\nCreatures that have "speed attacker" can\'t attack on the turn they are put into the battle zone.'),
    ("Test Racer", "Creature", ["Fire"], "3000", ["Sky Lizard"], "Speed attacker"),
    ("Test Counter", "Creature", ["Light"], "2000", ["Initiate"],
     "This creature gets +500 power for each tapped creature you have."),
    ("Ãœbertest Drake", "Creature", ["Fire"], "6000", ["Armored Dragon"], "Double breaker"),
    ("Test Shade", "Creature", ["Darkness"], "3000", ["Ghost"],
     "Each of your opponent's tapped creatures in the battle zone gets -1500 power."),
    ("Test Dusk Guard", "Creature", ["Light"], "5000", ["Guardian"],
     "Darkness blocker (It may block the attacks of darkness creatures only.)"),
    ("Test Last Guard", "Creature", ["Light"], "3000", ["Guardian"],
     'While you have no shields, this creature has "blocker."'),
    ("Test Crew", "Creature", ["Water"], "3000", ["Mud Worm"],
     "Crew breaker - Mud Worm (Made up: one shield more for each other Mud Worm you have, as it breaks one more "
     "shield for each.)"),
]


@pytest.fixture
def dm_db(tmp_path: Path):
    rows = []
    for name, typ, civs, power, races, text in CARDS:
        row = {"name": name, "type": typ, "civilizations": civs, "cost": 3, "text": text,
               "printings": [{"set": "X", "id": "1", "rarity": "C", "illustrator": "-"}]}
        if power:
            row["power"] = power
        if races:
            row["subtypes"] = races
        rows.append(row)
    src = tmp_path / "dm-cards.json"
    src.write_text(json.dumps({"cards": rows}, ensure_ascii=False), encoding="utf-8")
    db_path = tmp_path / "cards.db"
    import_cards([src], CardDB(db_path), games=GAMES, jobs=1)
    use_cards_db(db_path)
    yield db_path
    use_cards_db(None)


def findings(text: str, severities=("error", "warning")) -> list[tuple[int, str]]:
    result = check_text('[Game "dm"]\n' + text)
    return sorted((f.line, f.rule) for f in result.findings if f.severity.value in severities)


def test_a_block_of_an_attacker_that_cannot_be_blocked_is_an_error_at_the_block(dm_db):
    assert findings('turn 8 A\nA: attack "Test Courier" -> player\nB: block with "Test Wall"\n') == \
        [(4, "dm.block.unblockable")]
    assert findings('turn 8 A\nA: attack "Test Kite" -> player\nB: block with "Test Wall"\n') == []
    assert findings('turn 8 A\nA: attack "Test Kite" -> "Test Brute" {tapped}\nB: block with "Test Wall"\n') == \
        [(4, "dm.block.unblockable")]
    assert findings('turn 8 A\nA: attack "Test Vizier" -> player\nB: block with "Test Small Wall"\n') == []
    assert findings('turn 8 A\nA: attack "Test Vizier" -> player\nB: block with "Test Wall"\n') == \
        [(4, "dm.block.unblockable")]


def test_power_attacker_counts_in_its_battle_only_while_attacking(dm_db):
    battle = 'turn 8 A\nA: attack "Test Boar" -> player\nB: block with "Test Brute"\nbattle "Test Boar" vs "Test Brute"\n'
    assert findings(battle + 'B: destroy "Test Brute"\nattack ends\n') == []
    assert findings(battle + 'A: destroy "Test Boar"\nattack ends\n') == [(5, "dm.battle.result"),
                                                                          (6, "dm.battle.result")]
    defending = 'turn 9 A\nA: attack "Test Brute" -> "Test Boar" {tapped}\nbattle "Test Brute" vs "Test Boar"\n'
    assert findings(defending + 'B: destroy "Test Boar"\nattack ends\n') == []


def test_slayer_destroys_the_other_creature_after_the_battle(dm_db):
    battle = 'turn 9 A\nA: attack "Test Brute" -> "Test Glutton" {tapped}\nbattle "Test Brute" vs "Test Glutton"\n' \
             'B: destroy "Test Glutton"\n'
    assert findings(battle + 'B: resolve "Test Glutton"\nA: destroy "Test Brute"\nattack ends\n') == []
    assert findings(battle + 'attack ends\n') == [(4, "dm.battle.result")]


def test_evolution_shield_trigger_and_creatures_that_cannot_be_attacked(dm_db):
    assert findings('turn 5 A\nA: summon "Test Crawler"\nA: attack "Test Crawler" -> player\n') == []
    assert findings('turn 5 A\nA: summon "Test Brute"\nA: attack "Test Brute" -> player\n') == \
        [(4, "dm.attack.summoning-sick")]
    strigger = 'turn 8 A\nA: attack "Test Brute" -> player\nA: break 1\nB: s-trigger "{}"\n'
    assert findings(strigger.format("Test Trap")) == []
    assert findings(strigger.format("Test Charger")) == [(5, "dm.strigger.no-ability")]
    assert findings('turn 9 A\nA: attack "Test Brute" -> "Test Hider" {tapped}\n') == [(3, "dm.attack.cannot-be-attacked")]


def test_a_static_ability_applies_while_its_card_is_in_the_battle_zone(dm_db):
    before = 'turn 4 B\nB: summon "Test Warden"\nturn 5 A\n'
    attack = 'A: summon "Test Racer"\nA: attack "Test Racer" -> player\n'
    assert findings(before + attack) == [(6, "dm.attack.entered-this-turn")]
    assert findings(before + 'B: destroy "Test Warden"\n' + attack) == []
    assert findings('turn 5 A\n' + attack) == []


def test_an_ability_not_read_gives_an_info_and_no_guess(dm_db):
    # 2000 plus an unknown bonus against 9000: the battle is not judged, whatever the log destroys
    log = 'turn 9 A\nA: attack "Test Counter" -> "Test Brute" {tapped}\nbattle "Test Counter" vs "Test Brute"\n' \
          'B: destroy "Test Brute"\nattack ends\n'
    infos = [f for f in check_text('[Game "dm"]\n' + log).findings if f.severity.value == "info"]
    assert [(f.line, f.rule) for f in infos] == [(3, "card.ability-not-read")]
    assert "+500 power for each tapped creature" in infos[0].message
    assert findings(log) == []
    # 2000 plus a bonus against 1000 is the attacker's battle all the same
    log = 'turn 9 A\nA: attack "Test Counter" -> "Field Mouse" 1000 {creature, tapped}\n' \
          'battle "Test Counter" vs "Field Mouse"\nA: destroy "Test Counter"\nattack ends\n'
    assert findings(log) == [(4, "dm.battle.result"), (5, "dm.battle.result")]


def test_a_misencoded_name_is_repaired_and_both_forms_find_the_card(dm_db):
    db = CardDB(dm_db)
    card = db.find("dm", "Übertest Drake")
    assert card is not None and card.id == "Übertest Drake"
    assert db.find("dm", "Ãœbertest Drake") is card
    assert "w-breaker" in card.props and "evolution" in db.find("dm", "Test Crawler").props


def test_cards_dm_shows_each_ability_with_its_source_line(dm_db):
    out = CliRunner().invoke(cli, ["cards", "dm", "Test Kite", "--cards-db", str(dm_db)]).output
    assert "effect 1: cannot-be-blocked-attacking-creatures" in out
    assert "(text: \"While attacking a creature, this creature can't be blocked.\")" in out
    assert "effect 2: power-attacker 3000" in out
    assert "Damage Step" not in out
    out = CliRunner().invoke(cli, ["cards", "dm", "Test Warden", "--cards-db", str(dm_db)]).output
    assert "static, while in the battle zone: all creatures that have speed-attacker: " \
           "cannot-attack-turn-entered" in out


def test_an_unread_ability_of_a_card_in_the_battle_zone_leaves_open_what_it_may_change(dm_db):
    # "-1000 power to the opponent's tapped creatures": the battle of two equals is not judged
    battle = 'turn 7 B\nB: summon "Test Shade"\nturn 8 A\nA: attack "Test Brute" -> player\n' \
             'B: block with "Test Brute"#2\nbattle "Test Brute" vs "Test Brute"#2\nattack ends\n'
    result = check_text('[Game "dm"]\n' + battle)
    assert [(f.line, f.rule) for f in result.findings] == [(5, "card.ability-not-read")]
    # "breaks one more shield for each …": the number of shields is not judged
    breaks = 'turn 8 A\nA: attack "Test Crew" -> player\nA: {}\nattack ends\n'
    assert findings(breaks.format("break 1")) == findings(breaks.format("break 2")) == []
    assert findings('turn 8 A\nA: attack "Test Courier" -> player\nA: break 2\nattack ends\n') == \
        [(4, "dm.break.count")]


def test_cards_dm_json_keeps_the_static_ability(dm_db):
    out = CliRunner().invoke(cli, ["cards", "dm", "Test Warden", "--format", "json", "--cards-db", str(dm_db)]).output
    effects = json.loads(out)["effects"]
    assert [e.get("static") for e in effects] == [
        None, {"who": "all", "needs": "speed-attacker", "gives": ["cannot-attack-turn-entered"]}]
    assert "damage_step" not in effects[0]


def test_a_blocker_of_one_civilization_blocks_only_its_attacks(dm_db):
    block = 'turn 8 A\nA: attack "{}" -> player\nB: block with "Test Dusk Guard"\n'
    assert findings(block.format("Test Glutton")) == []  # a darkness attacker
    assert findings(block.format("Test Brute")) == [(4, "dm.block.no-ability")]  # a nature one
    assert words("Fire and nature blocker") == ["blocker:fire", "blocker:nature"]


def test_an_ability_that_holds_while_a_player_has_no_shields_follows_the_shields_the_log_counts(dm_db):
    block = 'turn 8 A\nA: attack "Test Brute" -> player\nB: block with "Test Last Guard"\n'
    assert findings(block) == [(4, "dm.block.no-ability")]  # B has 5 shields (the header's default)
    assert findings('[Shields "0"]\n' + block) == []
    assert findings('[Shields "1"]\nturn 8 A\nA: attack "Test Boar" -> player\nA: break 1\nattack ends\n' +
                    block.replace("turn 8 A\n", "")) == []  # its last shield broken in the attack before
