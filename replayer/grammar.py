"""One cached LALR parser per game, built from the game's grammar and ``games/core.lark``.

The grammar files live in the games' packages (``replayer/games/core.lark``,
``replayer/games/<id>/grammar.lark``) and ship inside the wheel with them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .cache import _is_own, _make_private, private_cache_dir  # noqa: F401 (private_cache_dir: its home was here)

if TYPE_CHECKING:
    from lark import Lark

    from .games import Game

# lark is imported when a parser is built: a warm start may read every line without one
# (replayer.shapes)


def grammar_dir(game: "Game") -> Path:
    """The folder holding core.lark, which ``game``'s grammar imports (the game says where)."""
    folder = game.grammar_folder
    if not (folder / "core.lark").is_file():
        raise FileNotFoundError("replayer's grammar files are missing from this installation")
    return folder


def parser(game: "Game", *, strict: bool = False) -> Lark:
    """The LALR parser (contextual lexer, positions kept) for one line of ``game`` (the caller's
    :class:`~replayer.games.Game`: this module looks none up)."""
    return _parser(game, strict)


@lru_cache(maxsize=None)
def _parser(game: "Game", strict: bool) -> Lark:
    from lark import Lark

    text = game.grammar_text()
    options = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False,
                   import_paths=[str(grammar_dir(game))])
    if strict:  # tests: grammar collisions fail loudly; never cached
        return Lark(text, strict=True, **options)
    cache = _cache_file(game, text)
    built = Lark(text, cache=cache, **options)
    if cache:
        _make_private(Path(cache))
    return built


def _cache_file(game: "Game", text: str) -> str | bool:
    """Building the LALR tables takes about a second; lark can pickle them to a file.

    The file is in the user's own cache folder (``platformdirs.user_cache_dir("replayer")``,
    created private), never in a shared temporary folder: loading it runs ``pickle``, so a file
    planted by someone else would run their code. A file that is not the user's own, or that
    others may write, is never loaded: it is removed and the parser built (and cached afresh), or,
    if it cannot be removed, built without a cache (False).

    lark's own cache key covers only the main grammar, not its %imports, so the file name here
    hashes every grammar file and lark's version. lark's key also covers the options, among them
    the import path (this installation's folder): it goes into the name too, or two installations
    of the same grammar would overwrite each other's file and rebuild the tables on every run.
    """
    import lark

    digest = hashlib.sha256(lark.__version__.encode())
    folder = grammar_dir(game)
    digest.update(str(folder).encode("utf-8"))
    digest.update((folder / "core.lark").read_bytes())
    digest.update(text.encode("utf-8"))
    cache_dir = private_cache_dir()
    if cache_dir is None:
        return False
    path = cache_dir / f"{game.id}-{digest.hexdigest()[:16]}.lark-cache"
    try:
        st = path.lstat()
    except FileNotFoundError:
        return str(path)  # lark writes it
    except OSError:
        return False
    if stat.S_ISREG(st.st_mode) and _is_own(st):
        return str(path)
    try:
        path.unlink()  # in our own private folder: whoever made it, it goes
    except OSError:
        return False
    return str(path)
