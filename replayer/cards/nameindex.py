"""A lossless filter for "did you mean": the keys that can reach a ``fuzz.ratio`` cutoff, found by
character counts without comparing the query with every key.

``fuzz.ratio(q, k)`` is 100·2·LCS/(|q| + |k|) (LCS: the longest common subsequence), and
LCS ≤ M = Σ_c min(count_q(c), count_k(c)). A key can reach ``cutoff`` only if M ≥ T =
⌈cutoff·(|q| + |k|)/200⌉ (and T ≤ min(|q|, |k|)): every other key scores under the cutoff, so leaving
it out changes no result. For each *token* ``(c, j)`` — "holds the character c at least j times" —
:class:`CountFilter` keeps a bitmap (a Python int, bit p for the key at position p) of the keys that
hold it; M of every key at once is the number of the query's tokens (c, j ≤ count_q(c)) whose bitmaps
hold the key's bit, added bit-sliced (one int a binary digit). The counter starts at 2^m − T(|k|) for
each key's length (2^m > |q|), so the key can reach the cutoff exactly when digit m is set.

:class:`SuggestIndex` is what :class:`~replayer.cards.names.Suggester` needs of a card database's names
(keys, names, the word index and the filters), made at ``cards import`` time and kept in the database
(``meta``, key ``suggest:<game>``; :func:`SuggestIndex.to_bytes` / :func:`SuggestIndex.from_bytes`).
"""

from __future__ import annotations

import json
import math
import re
import struct
import unicodedata
from array import array
from typing import Callable, Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
MAGIC = b"RPSX"
VERSION = 1
_SEP = "\x00"  # between the strings kept (a string holding it: no index is kept)


def script_class(key: str) -> int:
    """0 for Latin-script names, 1 for the others (Japanese): a typo never crosses the two."""
    return 0 if key[:1].isascii() else 1


def name_words(name: str) -> set[str]:
    """The words of a name the word index holds (3 letters or more, folded)."""
    return {w for w in _WORD.findall(unicodedata.normalize("NFKC", name).casefold()) if len(w) >= 3}


def word_index(names: list[str]) -> tuple[list[str], list[list[int]]]:
    """(words in the order they first appear, the names holding each)."""
    postings: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        for w in name_words(n):
            postings.setdefault(w, []).append(i)
    words = list(postings)
    return words, [postings[w] for w in words]


class CountFilter:
    """The keys (of ``ids``: their numbers outside) that can reach a ``fuzz.ratio`` cutoff with a query."""

    def __init__(self, keys: list[str], ids: list[int]):
        by_len: dict[int, list[int]] = {}
        for p, k in enumerate(keys):
            by_len.setdefault(len(k), []).append(p)
        self.order: list[int] = []  # position -> ids[...]: by length, then as given
        self.spans: dict[int, tuple[int, int]] = {}
        for n in sorted(by_len):
            self.spans[n] = (len(self.order), len(self.order) + len(by_len[n]))
            self.order += [ids[p] for p in by_len[n]]
        self.maps: _Maps | dict[tuple[str, int], int] = self._maps([keys[p] for n in sorted(by_len) for p in by_len[n]])
        self._bias: dict[tuple[int, float], list[int]] = {}
        self._fewest: dict[tuple[int, float], int] = {}
        self._bits: dict[tuple[str, int], int] = {}  # a token -> its bitmap (0: no key holds it), as asked for

    @staticmethod
    def _maps(keys: list[str]) -> dict[tuple[str, int], int]:
        bits: dict[tuple[str, int], bytearray] = {}
        size = (len(keys) + 8) // 8
        for pos, k in enumerate(keys):
            for ch in set(k):
                for j in range(1, k.count(ch) + 1):
                    b = bits.get((ch, j))
                    if b is None:
                        b = bits[(ch, j)] = bytearray(size)
                    b[pos >> 3] |= 1 << (pos & 7)
        return {t: int.from_bytes(b, "little") for t, b in bits.items()}

    def _least(self, a: int, cutoff: float) -> int:
        """The fewest of the query's tokens a key of some length must hold (more than ``a``: none can)."""
        least = self._fewest.get((a, cutoff))
        if least is None:
            needs = [need for n in self.spans if (need := _need(a, n, cutoff)) <= min(a, n)]
            least = self._fewest[(a, cutoff)] = min(needs, default=a + 1)
        return least

    def _start(self, a: int, cutoff: float) -> list[int]:
        """The counter's digits before the query's tokens: 2^m − T(length) for each key."""
        start = self._bias.get((a, cutoff))
        if start is None:
            top = 1 << a.bit_length()
            start = []
            for n, (lo, hi) in self.spans.items():
                need = _need(a, n, cutoff)
                if need > min(a, n):
                    continue
                bias, mask, i = top - need, ((1 << (hi - lo)) - 1) << lo, 0
                while bias:
                    if bias & 1:
                        start += [0] * (i + 1 - len(start))
                        start[i] |= mask
                    bias >>= 1
                    i += 1
            start = self._bias[(a, cutoff)] = start
        return start

    def candidates(self, query: str, cutoff: float) -> list[int]:
        """The ids of the keys that can reach ``cutoff`` with ``query``, by length then as given."""
        a = len(query)
        bits = self._bits
        tokens = []  # the bitmaps of the query's tokens that some key holds
        for ch in set(query):
            for j in range(1, query.count(ch) + 1):
                b = bits.get((ch, j))
                if b is None:
                    b = bits[(ch, j)] = self.maps.get((ch, j), 0)
                if b:
                    tokens.append(b)
        if len(tokens) < self._least(a, cutoff):
            return []  # (too few of the query's characters in any key: a Latin word among Japanese ones)
        m = a.bit_length()
        start = self._start(a, cutoff)
        digits = start + [0] * (m + 1 - len(start))  # (a key's count stays under 2^m + a < 2^(m+1): m + 1 digits)
        for carry in tokens:
            i = 0
            while carry:
                x = digits[i]
                digits[i] = x ^ carry
                carry &= x
                i += 1
        found = digits[m]
        if found >> len(self.order):  # (a damaged bitmap: no key there)
            found &= (1 << len(self.order)) - 1
        if not found:
            return []
        order = self.order
        return [order[p] for p in _positions(found)]

    # ---- kept in the card database ------------------------------------------------------------------
    def dump(self, out: bytearray) -> list[int]:
        """Into ``out``: the order, then the bitmaps (a sparse one as its positions); where its table is."""
        table: dict[str, list[int]] = {}
        for (ch, j), bits in self.maps.items():
            low = (bits & -bits).bit_length() - 1
            data = (bits >> (low - low % 8)).to_bytes(((bits.bit_length() - low + low % 8) + 7) // 8, "little")
            held = bin(bits).count("1")
            if 4 * held < len(data):
                table[f"{ch}{j}"] = [-1, *_put(out, array("I", _positions(bits)).tobytes())]
            else:
                table[f"{ch}{j}"] = [low // 8, *_put(out, data)]
        head = {"order": _put(out, array("I", self.order).tobytes()),
                "spans": [[n, lo, hi] for n, (lo, hi) in self.spans.items()], "maps": table}
        return _put(out, json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    @classmethod
    def load(cls, data: memoryview, where: list[int], size: int) -> "CountFilter":
        """The filter ``dump`` wrote at ``where``, of ``size`` keys (ValueError if it is not one of them)."""
        at, n = where
        head = json.loads(bytes(data[at:at + n]).decode("utf-8"))
        f = cls.__new__(cls)
        f.order = _ints(data, head["order"])
        if max(f.order, default=-1) >= size:
            raise ValueError("the filter does not match its keys")
        f.spans = {n: (lo, hi) for n, lo, hi in head["spans"]}
        f.maps = _Maps(head["maps"], data)
        f._bias, f._fewest, f._bits = {}, {}, {}
        return f


def _need(a: int, n: int, cutoff: float) -> int:
    """How many common characters keys of lengths ``a`` and ``n`` need for ``cutoff`` (a hair low: never
    loses a key to rounding)."""
    return max(0, math.ceil(cutoff * (a + n) / 200 - 1e-6))


def _positions(bits: int) -> list[int]:
    """The positions of the bits set, lowest first (few of a long int's: each found by ``str.find``)."""
    digits = bin(bits)
    top, found = len(digits) - 1, []
    at = digits.find("1", 2)
    while at >= 0:
        found.append(top - at)
        at = digits.find("1", at + 1)
    found.reverse()
    return found


class _Maps:
    """The bitmaps of a filter kept in the database, each read the first time it is asked for."""

    def __init__(self, table: dict[str, list[int]], data: memoryview):
        self._where, self._data, self._read = table, data, {}

    def __contains__(self, token: tuple[str, int]) -> bool:
        return f"{token[0]}{token[1]}" in self._where

    def get(self, token: tuple[str, int], default: int = 0) -> int:
        bits = self._read.get(token)
        if bits is None:
            where = self._where.get(f"{token[0]}{token[1]}")
            if where is None:
                return default
            skip, at, n = where
            if skip < 0:
                held = _ints(self._data, [at, n])
                raw = bytearray(max(held, default=0) // 8 + 1)
                for p in held:
                    raw[p >> 3] |= 1 << (p & 7)
                bits = int.from_bytes(raw, "little")
            else:
                bits = int.from_bytes(self._data[at:at + n], "little") << (8 * skip)
            self._read[token] = bits
        return bits


def _put(out: bytearray, data: bytes) -> list[int]:
    at = len(out)
    out += data
    return [at, len(data)]


def _ints(data: memoryview, where: list[int]) -> array:
    at, n = where
    a = array("I")
    a.frombytes(data[at:at + n])
    return a


def _strings(data: memoryview, where: list[int]) -> list[str]:
    at, n = where
    return bytes(data[at:at + n]).decode("utf-8").split(_SEP) if n else []


class SuggestIndex:
    """The names of a card database's game as the suggester sees them: ``keys``, ``names`` (one a key,
    in the order given), their word index (``words``; ``postings(j)``: the names holding word j) and the
    count filters (``key_filter(script)``, ``word_filters()``). Kept ones are read part by part, when used."""

    def __init__(self, keys: list[str], names: list[str]):
        self.keys, self.names = keys, names
        self._key_filters: dict[int, CountFilter] = {}
        self._words: tuple | None = None
        self._kept: tuple[memoryview, dict] | None = None  # (data, head) of a kept index

    def key_filter(self, cls: int) -> CountFilter:
        f = self._key_filters.get(cls)
        if f is None:
            if self._kept is not None:
                data, head = self._kept
                try:
                    f = CountFilter.load(data, head["filters"][f"k{cls}"], len(self.keys))
                except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
                    f = None  # (damaged: made again from the keys)
            if f is None:
                f = _filter(self.keys, cls)
            self._key_filters[cls] = f
        return f

    def _word_part(self) -> tuple[list[str], Callable[[int], Sequence[int]], dict[int, CountFilter]]:
        if self._words is None:
            if self._kept is not None:
                try:
                    self._words = self._kept_words(*self._kept)
                except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
                    pass  # (damaged: made again from the names)
            if self._words is None:
                words, postings = word_index(self.names)
                self._words = (words, postings.__getitem__, {c: _filter(words, c) for c in (0, 1)})
        return self._words

    def _kept_words(self, data: memoryview, head: dict):
        words = _strings(data, head["words"])
        flat, ends = _ints(data, head["postings"]), _ints(data, head["ends"])
        if len(ends) != len(words) or (ends and ends[-1] != len(flat)) or max(flat, default=-1) >= len(self.names):
            raise ValueError("the word index does not match its words")
        filters = {c: CountFilter.load(data, head["filters"][f"w{c}"], len(words)) for c in (0, 1)}
        return words, lambda j: flat[ends[j - 1] if j else 0:ends[j]], filters

    @property
    def words(self) -> list[str]:
        return self._word_part()[0]

    def postings(self, j: int) -> Sequence[int]:
        return self._word_part()[1](j)

    def word_filters(self) -> dict[int, CountFilter]:
        return self._word_part()[2]

    @classmethod
    def of(cls, keyed) -> "SuggestIndex":
        """From (key, name) pairs: the first name of each key (as :class:`Suggester` takes them)."""
        seen: dict[str, str] = {}
        for k, n in keyed:
            seen.setdefault(k, n)
        return cls(list(seen), list(seen.values()))

    def to_bytes(self, rows: int) -> bytes | None:
        """The index (``rows``: the names rows it was made of, checked when it is read); None when a
        string holds the separator."""
        words, postings, word_filters = self._word_part()
        if any(_SEP in s for strings in (self.keys, self.names, words) for s in strings):
            return None
        data = bytearray()
        flat, ends = array("I"), array("I")
        for j in range(len(words)):
            flat.extend(postings(j))
            ends.append(len(flat))
        head = {"version": VERSION, "rows": rows,
                "keys": _put(data, _SEP.join(self.keys).encode("utf-8")),
                "names": _put(data, _SEP.join(self.names).encode("utf-8")),
                "words": _put(data, _SEP.join(words).encode("utf-8")),
                "postings": _put(data, flat.tobytes()), "ends": _put(data, ends.tobytes()),
                "filters": {**{f"k{c}": self.key_filter(c).dump(data) for c in (0, 1)},
                            **{f"w{c}": f.dump(data) for c, f in word_filters.items()}}}
        text = json.dumps(head, separators=(",", ":")).encode("utf-8")
        return MAGIC + struct.pack("<I", len(text)) + text + bytes(data)

    @classmethod
    def from_bytes(cls, blob: bytes, rows: int) -> "SuggestIndex | None":
        """The index kept, or None when it is not one of this version or not of these ``rows``."""
        try:
            if not isinstance(blob, bytes) or blob[:4] != MAGIC:
                return None
            (size,) = struct.unpack_from("<I", blob, 4)
            head = json.loads(blob[8:8 + size].decode("utf-8"))
            if head.get("version") != VERSION or head.get("rows") != rows:
                return None
            data = memoryview(blob)[8 + size:]
            index = cls(_strings(data, head["keys"]), _strings(data, head["names"]))
            if len(index.names) != len(index.keys):
                return None
            index._kept = (data, head)
            return index
        except (ValueError, KeyError, TypeError, IndexError, struct.error, UnicodeDecodeError):
            return None


def _filter(strings: list[str], cls: int) -> CountFilter:
    ids = [i for i, s in enumerate(strings) if script_class(s) == cls]
    return CountFilter([strings[i] for i in ids], ids)
