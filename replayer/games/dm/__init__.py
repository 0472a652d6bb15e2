"""Duel Masters: the attack and its seven sub-steps (notation §5; rules in docs/rules-dm.md)."""

from __future__ import annotations

from pathlib import Path

from ..base import Game
from . import vocabulary

HERE = Path(__file__).resolve().parent

GAME = Game(
    id="dm",
    title="Duel Masters",
    aliases=("dm", "duel-masters", "duel masters", "デュエル・マスターズ", "デュエルマスターズ"),
    revisions=("current",),
    counter_tag="Shields",
    counter_default=5,
    grammar=HERE / "grammar.lark",
    states_class=f"{__name__}.states:DmReplay",
    model=f"{__name__}.model:DmModel",
    catalog_file=HERE / "catalog.toml",
    property_words=vocabulary.PROPERTY_WORDS,
    numbered_words=vocabulary.NUMBERED_WORDS,
    example_props=vocabulary.EXAMPLE_PROPS,
    line_forms=vocabulary.LINE_FORMS,
    actions=vocabulary.ACTIONS,
    terminal_names=vocabulary.TERMINAL_NAMES,
    terminal_words=vocabulary.TERMINAL_WORDS,
    labels=vocabulary.LABELS,
    hint_words=vocabulary.HINT_WORDS,
    band_forms=vocabulary.BAND_FORMS,
    # the attack and its sub-steps are the battle; Duel Masters has no damage step
    battle_segments={"phase": frozenset({vocabulary.Phase.ATTACK.value, vocabulary.Phase.BATTLE.value}),
                     "substep": None},
)
