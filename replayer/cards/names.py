"""One key for every written form of a card name, and "did you mean …?".

``name_key`` folds full-/half-width forms (NFKC), case, quote styles, spaces and punctuation:
"Ｅ・ＨＥＲＯ" and "E-HERO", "Rush  Recklessly" and "rush recklessly", „…“ and "…" give one key.
``Suggester`` finds the nearest names with rapidfuzz among the built-in and imported ones.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_DROP = re.compile(r"[\W_]+", re.UNICODE)


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold()
    key = _DROP.sub("", folded)
    return key or folded.strip()


class Suggester:
    """The names of one game, for "did you mean …?" (rapidfuzz's WRatio over folded names)."""

    def __init__(self, names: list[str]):
        seen: dict[str, str] = {}
        for n in names:
            seen.setdefault(name_key(n), n)
        self.keys = list(seen)
        self.names = [seen[k] for k in self.keys]
        self._folded = self.keys

    def __len__(self) -> int:
        return len(self.names)

    def suggest(self, name: str, limit: int = 3, cutoff: float = 75.0) -> list[str]:
        """The names nearest to ``name`` (rapidfuzz's normalized Indel similarity of the folded keys)."""
        from rapidfuzz import fuzz, process

        query = name_key(name)
        if not query:
            return []
        found = process.extract(query, self._folded, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff)
        return [self.names[i] for _, _, i in found]
