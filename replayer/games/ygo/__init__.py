"""Yu-Gi-Oh!: the Battle Phase and the Damage Step (notation §4; rules in docs/rules-ygo.md)."""

from __future__ import annotations

from pathlib import Path

from ..base import Game
from . import vocabulary

HERE = Path(__file__).resolve().parent

GAME = Game(
    id="ygo",
    title="Yu-Gi-Oh!",
    aliases=("ygo", "yugioh", "yu-gi-oh!", "yu-gi-oh", "遊戯王"),
    revisions=("current", "mr2"),
    counter_tag="LP",
    counter_default=8000,
    grammar=HERE / "grammar.lark",
    states_class=f"{__name__}.states:YgoReplay",
    model=f"{__name__}.model:YgoModel",
    catalog_file=HERE / "catalog.toml",
    property_words=vocabulary.PROPERTY_WORDS,
    example_props=vocabulary.EXAMPLE_PROPS,
    line_forms=vocabulary.LINE_FORMS,
    actions=vocabulary.ACTIONS,
    terminal_names=vocabulary.TERMINAL_NAMES,
    terminal_words=vocabulary.TERMINAL_WORDS,
    labels=vocabulary.LABELS,
    hint_words=vocabulary.HINT_WORDS,
    band_forms=vocabulary.BAND_FORMS,
    battle_segments={"phase": frozenset({vocabulary.Phase.BATTLE.value})},
    damage_segments={"step": frozenset({vocabulary.Step.DAMAGE.value})},
)
