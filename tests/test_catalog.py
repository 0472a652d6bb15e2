"""replayer/catalog.py: finding a card by any of its names, its properties, its JSON form.

The catalogs here are built inline (small, made-up cards), so the tests do not move when a game's
``catalog.toml`` grows.
"""

from __future__ import annotations

import tomllib

import pytest

from replayer import games
from replayer.catalog import CardInfo, Catalog, card_from_toml

TOML = """
[[card]]
en = "Brave Lantern"
ja = "勇者のランタン"
de = "Mutige Laterne"
kind = "effect-monster"
atk = 1400
def = 1200
level = 4
props = ["quick"]
aliases = ["Lantern", "B. Lantern"]

[[card]]
ja = "影の門番"
kind = "flip-monster"
atk = 800
def = 2000
[[card.effects]]
props = ["flip", "targets"]
note = "flip: destroy one monster"
[[card.effects]]
props = ["trigger", "self-trigger"]
[[card.effects]]
props = ["ignition"]

[[card]]
en = "Ember Drake"
kind = "creature"
props = ["power 6000", "w-breaker"]
"""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    data = tomllib.loads(TOML)
    return Catalog("test", [card_from_toml("test", c) for c in data["card"]])


@pytest.mark.parametrize("name", ["Brave Lantern", "勇者のランタン", "Mutige Laterne"])
def test_a_card_is_found_by_its_name_in_each_language(catalog, name):
    card = catalog.find(name)
    assert card is not None and card.id == "Brave Lantern"


@pytest.mark.parametrize("name", ["Lantern", "b. lantern"])
def test_a_card_is_found_by_its_aliases(catalog, name):
    assert catalog.find(name).id == "Brave Lantern"


@pytest.mark.parametrize("name", ["brave lantern", "BRAVE LANTERN", "  Brave   Lantern ", "Brave\tLantern"])
def test_case_and_spacing_do_not_matter(catalog, name):
    assert catalog.find(name).id == "Brave Lantern"


@pytest.mark.parametrize("name", ["Brave Lanterns", "Brave", "Laterne", ""])
def test_find_is_exact_otherwise(catalog, name):
    assert catalog.find(name) is None


def test_the_id_is_english_else_japanese(catalog):
    assert [c.id for c in catalog.cards] == ["Brave Lantern", "影の門番", "Ember Drake"]
    assert catalog.find("影の門番").names == {"ja": "影の門番"}
    assert len(catalog) == 3


def test_search_gives_the_exact_card_or_every_card_whose_name_contains_the_text(catalog):
    assert [c.id for c in catalog.search("lantern")] == ["Brave Lantern"]  # exact: the alias
    assert [c.id for c in catalog.search("an")] == ["Brave Lantern"]
    assert [c.id for c in catalog.search("e")] == ["Brave Lantern", "Ember Drake"]
    assert [c.id for c in catalog.search("門")] == ["影の門番"]
    assert catalog.search("nothing like it") == []


def test_the_kind_is_a_property_and_power_comes_from_its_property_word(catalog):
    lantern = catalog.find("Brave Lantern")
    assert lantern.props == frozenset({"quick", "effect-monster"})
    assert (lantern.atk, lantern.def_, lantern.level, lantern.power) == (1400, 1200, 4, None)
    drake = catalog.find("Ember Drake")
    assert drake.power == 6000
    assert drake.props == frozenset({"creature", "power 6000", "w-breaker"})


def test_effects_and_their_notes(catalog):
    gate = catalog.find("影の門番")
    assert gate.effects == (frozenset({"flip", "targets"}), frozenset({"trigger", "self-trigger"}),
                            frozenset({"ignition"}))
    assert gate.notes == ("flip: destroy one monster",)


# ---- effect_props: the properties of the effect a line uses -------------------------------------
@pytest.mark.parametrize("kwargs, chosen", [
    ({}, {"flip", "targets"}),  # no effect named: the first
    ({"effect": 1}, {"flip", "targets"}),
    ({"effect": 3}, {"ignition"}),
    ({"effect": 4}, {"flip", "targets"}),  # there is no effect 4: the first
    ({"effect": 0}, {"flip", "targets"}),
    ({"flip": True}, {"flip", "targets"}),
    ({"trigger": True}, {"trigger", "self-trigger"}),
    ({"trigger": True, "effect": 3}, {"trigger", "self-trigger"}),  # `trigger` names the effect
])
def test_effect_props_chooses_one_effect_and_adds_the_cards_own(catalog, kwargs, chosen):
    gate = catalog.find("影の門番")
    assert gate.effect_props(**kwargs) == frozenset(chosen) | {"flip-monster"}


def test_effect_props_of_a_card_without_effects_are_its_own(catalog):
    lantern = catalog.find("Brave Lantern")
    assert lantern.effect_props() == lantern.effect_props(effect=2) == lantern.props


def test_a_trigger_asked_of_a_card_whose_effects_have_none_takes_the_first():
    card = CardInfo("X", "test", {"en": "X"}, effects=(frozenset({"quick"}), frozenset({"ignition"})))
    assert card.effect_props(trigger=True) == frozenset({"quick"})
    assert card.effect_props(flip=True) == frozenset({"quick"})


# ---- to_dict ---------------------------------------------------------------------------------
def test_to_dict_leaves_out_what_is_not_known(catalog):
    assert catalog.find("Brave Lantern").to_dict() == {
        "id": "Brave Lantern", "game": "test",
        "names": {"en": "Brave Lantern", "ja": "勇者のランタン", "de": "Mutige Laterne"},
        "kind": "effect-monster", "atk": 1400, "def": 1200, "level": 4,
        "props": ["effect-monster", "quick"], "aliases": ["Lantern", "B. Lantern"],
    }
    assert catalog.find("影の門番").to_dict() == {
        "id": "影の門番", "game": "test", "names": {"ja": "影の門番"}, "kind": "flip-monster",
        "atk": 800, "def": 2000, "props": ["flip-monster"],
        "effects": [["flip", "targets"], ["self-trigger", "trigger"], ["ignition"]],
    }
    assert catalog.find("Ember Drake").to_dict()["power"] == 6000


def test_an_empty_catalog_finds_nothing():
    empty = Catalog("test", [])
    assert empty.find("Brave Lantern") is None and empty.search("a") == [] and len(empty) == 0


def test_a_games_catalog_is_its_own_and_read_once():
    for game in games.ALL.values():
        assert game.catalog is game.catalog
        assert game.catalog.game == game.id
        assert all(card.game == game.id for card in game.catalog.cards)
