"""One key for every written form of a card name, and "did you mean …?".

``name_key`` folds full-/half-width forms (NFKC), case, quote styles, spaces and punctuation:
"Ｅ・ＨＥＲＯ" and "E-HERO", "Rush  Recklessly" and "rush recklessly", „…“ and "…" give one key.
``Suggester`` finds the nearest names with rapidfuzz among the built-in and imported ones.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable, Sequence

from .nameindex import SuggestIndex, name_words, script_class as _script_class, word_index

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




class Suggester:
    """The names of one game, for "did you mean …?" (rapidfuzz's normalized Indel similarity, ``fuzz.ratio``,
    over the folded keys). Only keys of the same script and of a length that can reach the cutoff are compared.

    With ``index`` (a :class:`~replayer.cards.nameindex.SuggestIndex`, the card database's names made at
    import time) its keys come first and only those its count filters let through are compared (a
    lossless filter: the same suggestions as comparing them all); ``names`` not in it are compared all."""

    def __init__(self, names: list[str], keyed: list[tuple[str, str]] = (), index: SuggestIndex | None = None):
        """``names`` to fold here, ``keyed``: (key, name) pairs folded already (the card database keeps them)."""
        self._index = index
        seen: dict[str, str] = {}
        for k, n in keyed:
            seen.setdefault(k, n)
        if index is not None:
            folded = {n: name_key(n) for n in names}
            known = set(folded.values()).intersection(index.keys)  # (the few names' keys hashed, not the index's)
            for n, k in folded.items():
                if k not in known:
                    seen.setdefault(k, n)
            self.keys = index.keys + list(seen)
            self.names = index.names + list(seen.values())
        else:
            for n in names:
                seen.setdefault(name_key(n), n)
            self.keys = list(seen)
            self.names = [seen[k] for k in self.keys]
        self._first = len(index.keys) if index is not None else 0  # the keys compared all (not the index's)
        self._buckets: dict[tuple[int, int], list[int]] = {}
        for i in range(self._first, len(self.keys)):
            k = self.keys[i]
            self._buckets.setdefault((_script_class(k), len(k)), []).append(i)
        self._windows: dict[tuple[int, int, float], tuple[list[str], list[int]]] = {}
        self._holding: dict[str, set[int]] = {}
        self._ranks: dict[tuple[int, int, float], list[tuple[int, int]]] = {}

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

    def _ranked(self, cls: int, length: int, cutoff: float) -> list[tuple[int, int]]:
        """The window's (length, number) of each key, to be sorted with the index's candidates."""
        r = self._ranks.get((cls, length, cutoff))
        if r is None:
            idx = self._window(cls, length, cutoff)[1]
            r = self._ranks[(cls, length, cutoff)] = [(len(self.keys[i]), i) for i in idx]
        return r

    def suggest(self, name: str, limit: int = 3, cutoff: float = 75.0) -> list[str]:
        """The names nearest to ``name``, best first (none under ``cutoff`` out of 100)."""
        from rapidfuzz import fuzz, process

        query = name_key(name)
        if not query:
            return []
        keys, idx = self._window(_script_class(query), len(query), cutoff)
        if self._index is not None:  # the index's keys that can reach the cutoff, and the others, in window order
            keys_ = self.keys
            cls = _script_class(query)
            found_ = self._index.key_filter(cls).candidates(query, cutoff)
            ranked = sorted([(len(keys_[i]), i) for i in found_] + self._ranked(cls, len(query), cutoff))
            idx = [i for _, i in ranked]
            keys = [keys_[i] for i in idx]
        found = process.extract(query, keys, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff)
        if found:
            return [self.names[idx[i]] for _, _, i in found]
        return self.suggest_part(name, limit)

    # ---- a part of a name, with a typo: "Ash Blosom" -> "Ash Blossom & Joyous Spring" ---------------------
    #: a word of the query is near a word of a name from this score (fuzz.ratio); a candidate name is
    #: near the query from this one (fuzz.partial_ratio over the folded keys: the query inside the name)
    WORD_CUTOFF, PART_CUTOFF = 80.0, 85.0

    def _word_index(self) -> tuple[list[str], Callable[[int], Sequence[int]]]:
        """(the words of the names, the names holding word j)."""
        index = getattr(self, "_words", None)
        if index is None:
            if self._index is None:
                words, postings = word_index(self.names)
                index = self._words = (words, postings.__getitem__)
            else:  # the index's words, then the new words of the other names; the others' postings added
                words, more = list(self._index.words), {}
                theirs = {w for i in range(self._first, len(self.names)) for w in name_words(self.names[i])}
                at = {w: j for j, w in enumerate(words) if w in theirs}  # (no dict of all the index's words)
                for i in range(self._first, len(self.names)):
                    for w in name_words(self.names[i]):
                        j = at.get(w)
                        if j is None:
                            j = at[w] = len(words)
                            words.append(w)
                        more.setdefault(j, []).append(i)
                first, kept = len(self._index.words), self._index.postings

                def postings(j: int) -> Sequence[int]:
                    return more[j] if j >= first else [*kept(j), *more[j]] if j in more else kept(j)

                index = self._words = (words, postings)
        return index

    def _near_words(self, word: str) -> list[int]:
        """The words near ``word`` (``fuzz.ratio`` ≥ WORD_CUTOFF), best first, at most 8."""
        from rapidfuzz import fuzz, process

        words, _ = self._word_index()
        if self._index is None:
            return [j for _, _, j in process.extract(word, words, scorer=fuzz.ratio, limit=8,
                                                     score_cutoff=self.WORD_CUTOFF)]
        first = len(self._index.words)  # the index's words that can reach the cutoff, then the new words
        filters = self._index.word_filters().values()
        ids = sorted([j for f in filters for j in f.candidates(word, self.WORD_CUTOFF)])
        ids += range(first, len(words))
        near = process.extract(word, [words[j] for j in ids], scorer=fuzz.ratio, limit=8, score_cutoff=self.WORD_CUTOFF)
        return [ids[j] for _, _, j in near]

    def suggest_part(self, name: str, limit: int = 3) -> list[str]:
        """Names that hold the query's words (each near a word of the name: a typo is fine), best first
        by how much of the query they hold and how closely (rapidfuzz's token and partial scores)."""
        from rapidfuzz import fuzz

        query_words = [w for w in _WORD.findall(unicodedata.normalize("NFKC", name).casefold()) if len(w) >= 3]
        query = name_key(name)
        if not query_words or len(query) < 4:
            return []
        words, postings = self._word_index()
        hits: dict[int, int] = {}  # name -> how many of the query's words it holds
        near = self._holding  # a query word -> the names holding a word near it (words recur in a log)
        for qw in dict.fromkeys(query_words):
            seen = near.get(qw)
            if seen is None:
                seen = near[qw] = set()
                for j in self._near_words(qw):
                    seen.update(postings(j))
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
