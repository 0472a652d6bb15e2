"""What replayer knows about a game, in one object: :class:`Game`.

Code outside ``replayer/games/`` asks the game for what differs between games (its grammar, its
rules model, its catalog, its words) and never compares a game's name.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..replay import Model
    from ..states import Replay

#: the folder of ``core.lark``, the lines every game shares
GAMES_DIR = Path(__file__).resolve().parent

# a numbered word's number: ASCII digits, no longer than a number of a log may be (replayer.numbers)
_NUMBERED = re.compile(r"^([a-z][a-z0-9-]*)\s+([0-9]{1,15})$")


#: the fields of a Game that may be given by where they are ("package.module:Name")
_LAZY = ("model", "states_class")


def _marks(table: Mapping[str, frozenset[str] | None], kind: str, name: str) -> bool:
    if kind not in table:
        return False
    names = table[kind]
    return names is None or name in names


@dataclass(frozen=True, eq=False)
class Game:
    """One game: its identity, its notation and its rules.

    >>> from replayer.games import get
    >>> get("ygo").title
    'Yu-Gi-Oh!'
    """

    id: str
    title: str
    #: the values of ``[Game "…"]`` that name this game (case-folded)
    aliases: tuple[str, ...]
    #: the rules revisions a log may name with ``[Rules "…"]``; the first is the default
    revisions: tuple[str, ...]
    #: the header tag holding a player's starting count (``LP``, ``Shields``) and its default
    counter_tag: str
    counter_default: int
    #: the grammar of one line: a ``.lark`` file, or its text (which may ``%import core``)
    grammar: Path | str
    #: the rules model: replays the events, gives the findings and the states; or where it is,
    #: ``"package.module:Name"``, imported the first time it is asked for (a game's model is most of
    #: its code: a log of one game does not load the others')
    model: type["Model"] | str
    #: the states of a replay (position, outline, the State pane's state): a
    #: :class:`~replayer.states.Replay` subclass (or where it is, as for ``model``); None: the
    #: game-neutral one (turns and phases)
    states_class: type["Replay"] | str | None = None
    #: the built-in catalog (TOML, one ``[[card]]`` a card); None for a game without one
    catalog_file: Path | None = None
    #: the property words of ``{…}`` (notation §6) and the words that take a number (``power 3000``)
    property_words: frozenset[str] = frozenset()
    numbered_words: frozenset[str] = frozenset()
    #: an example of inline properties, for the hint of an unknown card
    example_props: str = '"Name" {…}'
    #: the written form of each line kind by its first keyword, for the hints of syntax findings
    line_forms: Mapping[str, str] = field(default_factory=dict)
    #: the action words of an actor line (`A: …`), for "did you mean"
    actions: tuple[str, ...] = ()
    #: terminals of this game's grammar described in words, and the words they match
    terminal_names: Mapping[str, str] = field(default_factory=dict)
    terminal_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: words the window and the report use (``battle-phases``: "Battle Phases", ``zone``: …)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: language -> English keyword phrase -> that language's alias, for hints in the log's language
    #: (:mod:`replayer.hints`)
    hint_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the forms of a timeline band's label, longest first, by its segment's ``(kind, name)``
    #: (``("timing", "before-calc")``: "before damage calculation", "before calc", "pre")
    band_forms: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    #: the segments of a turn's structure that are "in battle" and "in a damage step", by the
    #: segment's kind (``phase``, ``step``, ``substep``, ``timing``): the names of those segments
    #: of that kind, or None for every segment of it; the window marks them (the overview's and
    #: the zoomed-out timeline's bands, the Battle Phase's colour of a phase band)
    battle_segments: Mapping[str, frozenset[str] | None] = field(default_factory=dict)
    damage_segments: Mapping[str, frozenset[str] | None] = field(default_factory=dict)
    #: the folder where the grammar's ``%import core`` finds ``core.lark`` (the lines every game shares)
    grammar_folder: Path = GAMES_DIR

    def __post_init__(self) -> None:
        # a class given by where it is: the attribute is left unset, and __getattr__ imports it
        for name in _LAZY:
            if isinstance(self.__dict__.get(name), str):
                self.__dict__[f"_{name}_at"] = self.__dict__.pop(name)

    def __getattr__(self, name: str):
        # called only for an attribute not set: a class of _LAZY given as "module:Name"
        at = self.__dict__.get(f"_{name}_at") if name in _LAZY else None
        if at is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        module, _, attr = at.partition(":")
        value = getattr(importlib.import_module(module), attr)
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    def in_battle(self, kind: str, name: str) -> bool:
        """Whether a segment (its kind and name: ``"phase"``, ``"battle"``) is "in battle"."""
        return _marks(self.battle_segments, kind, name)

    def in_damage_step(self, kind: str, name: str) -> bool:
        """Whether a segment is "in a damage step" (see :attr:`damage_segments`)."""
        return _marks(self.damage_segments, kind, name)

    # ---- the notation ---------------------------------------------------------------------
    def grammar_text(self) -> str:
        if isinstance(self.grammar, Path):
            return self.grammar.read_text(encoding="utf-8")
        return self.grammar

    def is_property(self, word: str) -> bool:
        """Is ``word`` a property word of this game (``quick``, ``power 3000``)?

        This is the one test of a valid property: the reader warns about every word it refuses,
        and the rules model and the window use only the words it accepts
        (:meth:`known_properties`), so a word warned about as ignored is ignored everywhere.
        """
        if word in self.property_words:
            return True
        return self.numbered(word) is not None

    def numbered(self, word: str) -> tuple[str, int] | None:
        """``("power", 3000)`` for ``power 3000`` (a word that takes a number), else None."""
        m = _NUMBERED.match(word)
        if m is None or m.group(1) not in self.numbered_words:
            return None
        return m.group(1), int(m.group(2))

    def known_properties(self, words) -> tuple[str, ...]:
        """The words of ``words`` that are property words of this game, in order."""
        return tuple(w for w in words if w in self.property_words or self.numbered(w) is not None)

    def all_property_words(self) -> list[str]:
        return sorted(self.property_words) + [f"{w} N" for w in sorted(self.numbered_words)]

    @property
    def states(self) -> type["Replay"]:
        """What records this game's states while its model replays a match."""
        states = self.states_class
        if states is not None:
            return states
        from ..states import Replay

        return Replay

    def label(self, key: str, default: str = "") -> str:
        return self.labels.get(key, default or key)

    # ---- cards ----------------------------------------------------------------------------
    @cached_property
    def catalog(self) -> "Catalog":
        """The built-in catalog (read once)."""
        from ..catalog import Catalog, read_catalog

        if self.catalog_file is None or not self.catalog_file.is_file():
            return Catalog(self.id, [])
        return read_catalog(self.id, self.catalog_file)


# The defaults of the lazy fields live in __init__; their class attributes would hide a field left
# unset from __getattr__ (an attribute found on the class is never looked for there)
for _name in _LAZY:
    if _name in Game.__dict__:
        delattr(Game, _name)
