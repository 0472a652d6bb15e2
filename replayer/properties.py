"""How a ``{...}`` property list is read (notation §6). Which words a game knows is the game's:
``Game.property_words`` (``replayer/games/<id>/vocabulary.py``)."""

from __future__ import annotations


def parse_props(text: str) -> list[str]:
    """Split the inside of ``{...}`` into normalized words (lower case, single spaces)."""
    out = []
    for part in text.split(","):
        word = " ".join(part.split()).lower()
        if word:
            out.append(word)
    return out
