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
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def visible(name: str) -> str:
    """The name without invisible format characters (a stray U+200E LEFT-TO-RIGHT MARK in card data)."""
    return "".join(ch for ch in name if unicodedata.category(ch) != "Cf") if not name.isascii() else name


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name).casefold()
    key = _DROP.sub("", folded)
    return key or folded.strip()


def _script_class(key: str) -> int:
    """0 for Latin-script names, 1 for the others (Japanese): a typo never crosses the two."""
    return 0 if key[:1].isascii() else 1


class Suggester:
    """The names of one game, for "did you mean …?" (rapidfuzz's normalized Indel similarity, ``fuzz.ratio``,
    over the folded keys). Only keys of the same script and of a length that can reach the cutoff are compared."""

    def __init__(self, names: list[str], keyed: list[tuple[str, str]] = ()):
        """``names`` to fold here, ``keyed``: (key, name) pairs folded already (the card database keeps them)."""
        seen: dict[str, str] = {}
        for k, n in keyed:
            seen.setdefault(k, n)
        for n in names:
            seen.setdefault(name_key(n), n)
        self.keys = list(seen)
        self.names = [seen[k] for k in self.keys]
        self._buckets: dict[tuple[int, int], list[int]] = {}
        for i, k in enumerate(self.keys):
            self._buckets.setdefault((_script_class(k), len(k)), []).append(i)
        self._windows: dict[tuple[int, int, float], tuple[list[str], list[int]]] = {}

    def __len__(self) -> int:
        return len(self.names)

    def _window(self, cls: int, length: int, cutoff: float) -> tuple[list[str], list[int]]:
        """The keys whose length allows a ratio of ``cutoff`` with a key of ``length`` (2m/(a+b) ≤ 2·min/(a+b))."""
        w = self._windows.get((cls, length, cutoff))
        if w is None:
            c = cutoff / 100
            lo, hi = int(length * c / (2 - c)), int(length * (2 - c) / c) + 1
            idx = [i for n in range(lo, hi + 1) for i in self._buckets.get((cls, n), ())]
            w = self._windows[(cls, length, cutoff)] = ([self.keys[i] for i in idx], idx)
        return w

    def suggest(self, name: str, limit: int = 3, cutoff: float = 75.0) -> list[str]:
        """The names nearest to ``name``, best first (none under ``cutoff`` out of 100)."""
        from rapidfuzz import fuzz, process

        query = name_key(name)
        if not query:
            return []
        keys, idx = self._window(_script_class(query), len(query), cutoff)
        found = process.extract(query, keys, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff)
        if found:
            return [self.names[idx[i]] for _, _, i in found]
        return self.suggest_part(name, limit)

    # ---- a part of a name, with a typo: "Ash Blosom" -> "Ash Blossom & Joyous Spring" ---------------------
    #: a word of the query is near a word of a name from this score (fuzz.ratio); a candidate name is
    #: near the query from this one (fuzz.partial_ratio over the folded keys: the query inside the name)
    WORD_CUTOFF, PART_CUTOFF = 80.0, 85.0

    def _word_index(self) -> tuple[list[str], list[list[int]]]:
        index = getattr(self, "_words", None)
        if index is None:
            postings: dict[str, list[int]] = {}
            for i, n in enumerate(self.names):
                for w in set(_WORD.findall(unicodedata.normalize("NFKC", n).casefold())):
                    if len(w) >= 3:
                        postings.setdefault(w, []).append(i)
            words = list(postings)
            index = self._words = (words, [postings[w] for w in words])
        return index

    def suggest_part(self, name: str, limit: int = 3) -> list[str]:
        """Names that hold the query's words (each near a word of the name: a typo is fine), best first
        by how much of the query they hold and how closely (rapidfuzz's token and partial scores)."""
        from rapidfuzz import fuzz, process

        query_words = [w for w in _WORD.findall(unicodedata.normalize("NFKC", name).casefold()) if len(w) >= 3]
        query = name_key(name)
        if not query_words or len(query) < 4:
            return []
        words, postings = self._word_index()
        hits: dict[int, int] = {}  # name -> how many of the query's words it holds
        for qw in dict.fromkeys(query_words):
            near = process.extract(qw, words, scorer=fuzz.ratio, limit=8, score_cutoff=self.WORD_CUTOFF)
            seen: set[int] = set()
            for _, _, j in near:
                seen.update(postings[j])
            for i in seen:
                hits[i] = hits.get(i, 0) + 1
        if not hits:
            return []
        best = max(hits.values())
        if best < min(len(set(query_words)), 2):  # two words or more: a name must hold two of them
            return []
        scored = []
        for i, n in hits.items():
            if n < best:
                continue
            score = fuzz.partial_ratio(query, self.keys[i], score_cutoff=self.PART_CUTOFF)
            if score:
                scored.append((-score, len(self.keys[i]), self.names[i]))
        return [name for _, _, name in sorted(scored)[:limit]]
