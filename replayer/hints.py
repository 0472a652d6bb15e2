"""Hints in the log's own language: which language a log's keywords are written in, and a hint's
written lines (its `…` spans) in that language's keywords (issue 23, point 3).

A game lists its keywords' translations (``Game.hint_words``: language -> English phrase -> the
phrase in that language, the aliases of its grammar); this module knows no game.

>>> words = {"ja": {"timing before-calc": "ダメージ計算前", "activate": "発動"}}
>>> log_language(["A: 発動 《オネスト》"], words)
'ja'
>>> localize_hint("activate it under `timing before-calc`", words["ja"])
'activate it under `ダメージ計算前`'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

#: a quoted card name in any of the notation's quote styles (kept as written, never translated)
_QUOTED = re.compile(r'"[^"]*(?:"|$)|“[^”]*(?:”|$)|„[^“”]*(?:[“”]|$)|《[^》]*(?:》|$)|「[^」]*(?:」|$)|‘[^’]*(?:’|$)'
                     r"|'[^']*(?:'|$)")  # (an unclosed quote runs to the end: linear in the line's length)


@functools.cache
def _japanese() -> re.Pattern[str]:
    """Kana and kanji (compiled when a line is first not ASCII: its range of 27,000 kanji takes
    the regular expression compiler ~2 ms, a tenth of ``replayer check``'s start-up in patterns)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


_CODE = re.compile(r"`([^`]+)`")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: the keyword lines a log's language is judged on (its first ones: a log is written in one language)
SAMPLE = 200


_ACTOR = re.compile(r"^\s*(?:CL\d+\s+|KG\d+\s+|チェーン\d+\s+)?[AB]\s*:")


def _keywords_of(line: str) -> str:
    """A line without its quoted names, its comment and its actor: the words that are keywords."""
    if not line.isascii():  # (NFKC leaves ASCII as it is, and only " and ' quote in ASCII)
        line = _QUOTED.sub(" ", unicodedata.normalize("NFKC", line))
    elif '"' in line or "'" in line:
        line = _QUOTED.sub(" ", line)
    if "#" in line:
        line = line.split("#", 1)[0]
    return _ACTOR.sub(" ", line, 1).strip()


def _first_words(words: Mapping[str, Mapping[str, str]], lang: str) -> frozenset[str]:
    english = {w.casefold() for phrase in words.get("en", {}) or () for w in _WORD.findall(phrase)}
    for table in words.values():
        english |= {w.casefold() for phrase in table for w in _WORD.findall(phrase)}
    found = set()
    for phrase in words.get(lang, {}).values():
        m = _WORD.search(phrase)
        if m and m.group(0).casefold() not in english:
            found.add(m.group(0).casefold())
    return frozenset(found)


_FIRST: dict[int, tuple[Mapping[str, Mapping[str, str]], dict[str, frozenset[str]], dict[str, str]]] = {}
#: the lines kept in a table's cache of the languages of lines (a log repeats its lines: `phase draw`)
CACHED_LINES = 50_000


def _first_words_of(words: Mapping[str, Mapping[str, str]]) -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """The first words of each language but Japanese, made once for a game's table (a module's constant,
    kept with the table so that its id is not reused), and the table's cache: a line as written -> its
    language ("" for a line that is no keyword line)."""
    kept = _FIRST.get(id(words))
    if kept is None or kept[0] is not words:
        kept = _FIRST[id(words)] = (words, {lang: _first_words(words, lang) for lang in words if lang != "ja"}, {})
    return kept[1], kept[2]


def _line_language(raw: str, first: Mapping[str, frozenset[str]]) -> str:
    """The language of a keyword line, "" for a line that is none (blank, a header tag, a comment)."""
    s = raw.strip()
    if not s or s[0] == "[" or s[0] == "#":
        return ""
    kw = _keywords_of(s)
    if not kw:
        return ""
    if not kw.isascii() and _japanese().search(kw):
        return "ja"
    m = _WORD.search(kw)
    head = m.group(0).casefold() if m else ""
    return next((g for g, heads in first.items() if head in heads), "en")


def log_language(lines: Iterable[str], words: Mapping[str, Mapping[str, str]]) -> str:
    """``"en"``, or the language (a key of ``words``) that a good part (:data:`SHARE`) of the log's
    keyword lines (its first :data:`SAMPLE`) are written in.

    Japanese is told by its script outside the quoted names; another language by a line's first
    keyword being one of that language's words (and no English word)."""
    first, cache = _first_words_of(words)
    if len(cache) > CACHED_LINES:
        cache.clear()
    votes: dict[str, int] = {}
    seen = 0
    get = cache.get
    for raw in lines:
        lang = get(raw)
        if lang is None:
            lang = cache[raw] = _line_language(raw, first)
        if lang:
            votes[lang] = votes.get(lang, 0) + 1
            seen += 1
            if seen >= SAMPLE:
                break
    if not votes:
        return "en"
    total = seen
    # keywords of another language are written on purpose: a log that writes a good part of its lines
    # with them (a Japanese judge keeps `phase main1` and `A: damage` but writes the timings in
    # Japanese) is in that language
    others = [g for g in votes if g != "en" and votes[g] >= SHARE * total]
    return max(others, key=lambda g: votes[g]) if others else "en"


#: the part of a log's keyword lines written in another language that makes it that language's log
SHARE = 0.3


def _phrase_pattern(table: Mapping[str, str]) -> re.Pattern[str] | None:
    phrases = sorted(table, key=len, reverse=True)
    if not phrases:
        return None
    alternatives = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


_PATTERNS: dict[int, tuple[Mapping[str, str], re.Pattern[str] | None]] = {}


def _translate_code(code: str, table: Mapping[str, str]) -> str:
    if code.startswith("replayer ") or code.startswith("["):
        return code  # a command or a header tag: written as they are in every language
    key = id(table)
    cached = _PATTERNS.get(key)
    if cached is None or cached[0] is not table:
        cached = _PATTERNS[key] = (table, _phrase_pattern(table))
    pattern = cached[1]
    if pattern is None:
        return code
    folded = {k.casefold(): v for k, v in table.items()}
    out, last = [], 0
    for q in _QUOTED.finditer(code):  # names stay as written
        out.append(_translate_plain(code[last:q.start()], pattern, folded))
        out.append(q.group(0))
        last = q.end()
    out.append(_translate_plain(code[last:], pattern, folded))
    return "".join(out)


def _translate_plain(text: str, pattern: re.Pattern[str], folded: Mapping[str, str]) -> str:
    text = pattern.sub(lambda m: folded.get(" ".join(m.group(0).split()).casefold(), m.group(0)), text)
    chain = folded.get("cl")
    if chain:  # a chain link: CL2 is チェーン2, KG2
        text = re.sub(r"(?<![\w-])CL(\d+)(?![\w-])", lambda m: chain + m.group(1), text)
    return text


def localize_hint(hint: str, table: Mapping[str, str]) -> str:
    """``hint`` with the keywords of its `…` spans (the lines it tells the user to write) in ``table``'s
    language; the words around them, the card names and commands stay as they are."""
    if not table or "`" not in hint:
        return hint
    return _CODE.sub(lambda m: "`" + _translate_code(m.group(1), table) + "`", hint)
