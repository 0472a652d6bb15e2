"""A part of a card name with a typo finds the card (issue 23, point 10): "Ash Blosom" was "no ygo
card matches". Speed is measured in bench/cards.py (`python bench/cards.py suggest`), not here."""

from __future__ import annotations

from click.testing import CliRunner

from replayer import check_text
from replayer.cards.names import Suggester
from replayer.cli import cli

NAMES = ["Ash Blossom & Joyous Spring", "Ghost Ogre & Snow Rabbit", "Blue-Eyes White Dragon", "Honest",
         "Effect Veiler", "Lyla, Lightsworn Sorceress", "Mirror Force"]


def test_a_part_of_a_name_with_a_typo():
    s = Suggester(NAMES)
    assert s.suggest("Ash Blosom") == ["Ash Blossom & Joyous Spring"]
    assert s.suggest("Joyous Sprng") == ["Ash Blossom & Joyous Spring"]
    assert s.suggest("Snow Rabit") == ["Ghost Ogre & Snow Rabbit"]
    assert s.suggest("Lightsworn Sorceres") == ["Lyla, Lightsworn Sorceress"]
    assert s.suggest("Honset") == ["Honest"]  # a whole name with a typo, as before


def test_no_suggestion_for_names_that_are_not_near():
    s = Suggester(NAMES)
    for q in ("Mystery Card", "Homebrew Barrier", "Ash Card", "Force of Will"):
        assert s.suggest(q) == [], q


def test_the_finding_and_the_cards_command_say_it():
    text = '[Game "ygo"]\nturn 1 A\nA: activate "Ash Blosom" from hand\n'
    (f,) = [f for f in check_text(text).findings if f.rule == "card.unknown"]
    assert f.message.endswith('; did you mean "Ash Blossom & Joyous Spring"?')
    assert f.hint.startswith('if it is "Ash Blossom & Joyous Spring", correct the name')
    result = CliRunner().invoke(cli, ["cards", "ygo", "Ash Blosom", "--cards-db", "none"])
    assert result.exit_code == 1
    assert 'did you mean "Ash Blossom & Joyous Spring"?' in result.output
