"""One cached LALR parser per game, built from the game's grammar and ``games/core.lark``.

The grammar files live in the games' packages (``replayer/games/core.lark``,
``replayer/games/<id>/grammar.lark``) and ship inside the wheel with them.
"""

from __future__ import annotations

import hashlib
import tempfile
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark

from .games import GAMES_DIR, Game, get


def grammar_dir() -> Path:
    """The folder holding core.lark (each game's grammar is in the game's own folder)."""
    if not (GAMES_DIR / "core.lark").is_file():
        raise FileNotFoundError("replayer's grammar files are missing from this installation")
    return GAMES_DIR


def _game(game: Game | str) -> Game:
    return get(game) if isinstance(game, str) else game


def parser(game: Game | str, *, strict: bool = False) -> Lark:
    """The LALR parser (contextual lexer, positions kept) for one line of ``game``."""
    return _parser(_game(game), strict)


@lru_cache(maxsize=None)
def _parser(game: Game, strict: bool) -> Lark:
    text = game.grammar_text()
    options = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False,
                   import_paths=[str(grammar_dir())])
    if strict:  # tests: grammar collisions fail loudly; never cached
        return Lark(text, strict=True, **options)
    return Lark(text, cache=_cache_file(game, text), **options)


def _cache_file(game: Game, text: str) -> str | bool:
    """Building the LALR tables takes about a second; lark can pickle them to a file.

    lark's own cache key covers only the main grammar, not its %imports, so the file name here
    hashes every grammar file and lark's version. lark's key also covers the options, among them
    the import path (this installation's folder): it goes into the name too, or two installations
    of the same grammar would overwrite each other's file and rebuild the tables on every run.
    """
    digest = hashlib.sha256(lark.__version__.encode())
    digest.update(str(grammar_dir()).encode("utf-8"))
    digest.update((grammar_dir() / "core.lark").read_bytes())
    digest.update(text.encode("utf-8"))
    cache_dir = Path(tempfile.gettempdir())
    if not cache_dir.is_dir():
        return False
    return str(cache_dir / f"replayer-{game.id}-{digest.hexdigest()[:16]}.lark-cache")
