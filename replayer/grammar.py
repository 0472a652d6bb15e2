"""The only code that knows where the ``.lark`` files live; one cached LALR parser per game.

In a source checkout the grammar is the top-level ``grammar/`` folder; an installed wheel
carries the same files as ``replayer/_grammar/`` (see ``pyproject.toml``).
"""

from __future__ import annotations

import hashlib
import tempfile
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark

GAMES = ("ygo", "dm")


def grammar_dir() -> Path:
    """The folder holding core.lark, ygo.lark and dm.lark."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_grammar", here.parent / "grammar"):
        if (candidate / "core.lark").is_file():
            return candidate
    raise FileNotFoundError("replayer's grammar files are missing from this installation")


@lru_cache(maxsize=None)
def parser(game: str, *, strict: bool = False) -> Lark:
    """The LALR parser (contextual lexer, positions kept) for one line of ``game``."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    folder = grammar_dir()
    path = folder / f"{game}.lark"
    options = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)
    if strict:  # tests: grammar collisions fail loudly; never cached
        return Lark.open(str(path), strict=True, **options)
    return Lark.open(str(path), cache=_cache_file(folder, game), **options)


def _cache_file(folder: Path, game: str) -> str | bool:
    """Building the LALR tables takes about a second; lark can pickle them to a file.

    lark's own cache key covers only the main grammar, not its %imports, so the file name here
    hashes every grammar file and lark's version.
    """
    digest = hashlib.sha256(lark.__version__.encode())
    for name in ("core.lark", f"{game}.lark"):
        digest.update((folder / name).read_bytes())
    cache_dir = Path(tempfile.gettempdir())
    if not cache_dir.is_dir():
        return False
    return str(cache_dir / f"replayer-{game}-{digest.hexdigest()[:16]}.lark-cache")
