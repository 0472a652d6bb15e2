"""The games replayer knows, found in one place: :data:`ALL`.

Each game is a package here (``ygo/``, ``dm/``) whose ``GAME`` is a :class:`Game`: its grammar,
its words, its rules model and its catalog. :func:`register` adds one more at run time (the
tests define a tiny third game that way).
"""

from __future__ import annotations

from ..diagnostics import RULES
from ..errors import UnknownGame
from .base import GAMES_DIR, Game
from .dm import GAME as DM
from .ygo import GAME as YGO

#: id -> game, in the order replayer tries them when a log names none
ALL: dict[str, Game] = {YGO.id: YGO, DM.id: DM}
#: the default game of a log that names none and of an unreadable file
DEFAULT = YGO


def register(game: Game) -> Game:
    """Make ``game`` known to the reader, the checks and the command line."""
    ALL[game.id] = game
    _rules_of(game)
    return game


def _rules_of(game: Game) -> None:
    # a game's rules are registered by its model's import (left until a log of it is checked):
    # the registry imports it when it is looked at whole
    RULES.add_loader(lambda: game.model)


for _game in ALL.values():
    _rules_of(_game)


def unregister(game_id: str) -> None:
    ALL.pop(game_id, None)


def get(game_id: str) -> Game:
    """The game with this id; :class:`UnknownGame` if there is none."""
    game = ALL.get(game_id)
    if game is None:
        raise UnknownGame(f"unknown game {game_id!r}: replayer reads " + ", ".join(repr(g) for g in ALL) + " logs")
    return game


def by_alias(value: str) -> Game | None:
    """The game a ``[Game "…"]`` value names (any spelling it is known by), or None."""
    key = value.strip().casefold()
    for game in ALL.values():
        if key in game.aliases:
            return game
    return None


__all__ = ["ALL", "DEFAULT", "GAMES_DIR", "Game", "by_alias", "get", "register", "unregister"]
