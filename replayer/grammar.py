"""The only code that knows where the ``.lark`` files live; one cached LALR parser per game.

In a source checkout the grammar is the top-level ``grammar/`` folder; an installed wheel
carries the same files as ``replayer/_grammar/`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

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
    path = grammar_dir() / f"{game}.lark"
    return Lark.open(
        str(path),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        strict=strict,
        cache=False,
    )
