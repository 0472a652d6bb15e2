"""The log's language (``hints.log_language``, issue 25): judged line by line with a cache and an ASCII
path, it must name the same language as the plain judgement it replaced (kept here as the reference:
NFKC, the quoted names and the comment taken out of every line) for any log."""

from __future__ import annotations

import random
import re
import unicodedata
from pathlib import Path

import pytest

from replayer import hints
from replayer.check import read_bytes
from replayer.games import dm, ygo
from replayer.hints import _QUOTED, _japanese, _WORD, SAMPLE, SHARE, _first_words_of, log_language

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
TABLES = {"ygo": ygo.GAME.hint_words, "dm": dm.GAME.hint_words}


def reference_language(lines, words) -> str:
    """The judgement before issue 25 (replayer/hints.py as it was), line for line."""
    def keywords_of(line: str) -> str:
        line = unicodedata.normalize("NFKC", line)
        line = _QUOTED.sub(" ", line)
        line = line.split("#", 1)[0]
        return re.sub(r"^\s*(?:CL\d+\s+|KG\d+\s+|チェーン\d+\s+)?[AB]\s*:", " ", line).strip()

    first = _first_words_of(words)[0]
    votes: dict[str, int] = {}
    seen = 0
    for raw in lines:
        if seen >= SAMPLE:
            break
        s = raw.strip()
        if not s or s.startswith("[") or s.startswith("#"):
            continue
        kw = keywords_of(s)
        if not kw:
            continue
        seen += 1
        if _japanese().search(kw):
            lang = "ja"
        else:
            m = _WORD.search(kw)
            head = m.group(0).casefold() if m else ""
            lang = next((g for g, heads in first.items() if head in heads), "en")
        votes[lang] = votes.get(lang, 0) + 1
    if not votes:
        return "en"
    total = sum(votes.values())
    others = [g for g in votes if g != "en" and votes[g] >= SHARE * total]
    return max(others, key=lambda g: votes[g]) if others else "en"


def test_the_reference_tells_the_languages_apart():
    """(the comparisons below compare something: the reference does say ja and de)"""
    words = TABLES["ygo"]
    assert reference_language(["A: 発動 《オネスト》"], words) == "ja"
    assert reference_language(["vor der Schadensberechnung", "A: aktiviert „Ehrliche Haut“"], words) == "de"
    assert reference_language(['A: activate "発動"', "phase draw"], words) == "en"


def _pieces(words) -> list[str]:
    """Bits of lines: every keyword phrase of every language, names in every quote style (unclosed
    too), actors, chain links, comments, timecodes, full-width forms, words of no language."""
    out = [p for table in words.values() for p in table] + [p for table in words.values() for p in table.values()]
    out += ["A:", "B :", "  A:", "CL2 A:", "KG3 B:", "チェーン2 A:", "ＣＬ２ Ａ：", "Ａ:", "@1:23 A:", "a:",
            '"Honest"', '"unclosed', "“Ehrliche Haut”", "„Ehrliche Haut“", "《オネスト》", "「オネスト」", "‘x’",
            "'quoted'", "don't", "《unclosed", "# a note", "#", "ジャッジ", "ﾀﾞﾒｰｼﾞ", "Ｚｕｇ", "ＺＵＧ 3",
            "ZUG", "Zug", "zug", "1700/200", "->", "{quick-play}", "[", "[Game \"ygo\"]", "résolution", "ß",
            "ﬁ", "\t", "  ", "", "1", "_", "Über", "ÄUSSERN", "straße", "Straße"]
    return out


def _random_logs(rng: random.Random, words, count: int) -> list[list[str]]:
    pieces = _pieces(words)
    logs = []
    for _ in range(count):
        # a log leaning to one language, or a mixture near the share that decides it
        lean = rng.choice([None, *words])
        lines = []
        for _ in range(rng.choice([0, 1, 3, 20, 80, SAMPLE - 1, SAMPLE, SAMPLE + 1, 260])):
            if lean and rng.random() < rng.choice([0.25, 0.3, 0.35, 0.8]):
                table = words[lean]
                bits = [rng.choice(["A:", "B:", "", "CL2 A:"]), rng.choice(list(table.values()))]
            else:
                bits = [rng.choice(pieces) for _ in range(rng.randint(0, 4))]
            lines.append(rng.choice(["", " "]).join(bits))
        logs.append(lines)
    return logs


@pytest.mark.parametrize("game", sorted(TABLES))
def test_generated_logs_get_the_reference_language(game, monkeypatch):
    words = TABLES[game]
    rng = random.Random(25)
    logs = _random_logs(rng, words, 600)
    said = {}
    for lines in logs:
        expected = reference_language(lines, words)
        said[expected] = said.get(expected, 0) + 1
        assert log_language(lines, words) == expected, lines
        assert log_language(lines, words) == expected, lines  # the second time from the cache
    assert set(said) == {"en", "ja", "de"}, said  # (each language is among the judged logs)
    # a cache emptied while it judges (it is bounded) changes nothing
    monkeypatch.setattr(hints, "CACHED_LINES", 5)
    for lines in logs[:100]:
        assert log_language(lines, words) == reference_language(lines, words), lines


def test_every_line_alone_gets_the_reference_language():
    for words in TABLES.values():
        pieces = _pieces(words)
        for a in pieces:
            for b in ("", " A: draw", " # note", ' "x"', " 3"):
                assert log_language([a + b], words) == reference_language([a + b], words), a + b


def test_one_line_under_two_games_tables():
    """(the cache is each table's own: a line's language depends on the game's words)"""
    line = "Zug 3 A"
    assert log_language([line], TABLES["ygo"]) == reference_language([line], TABLES["ygo"]) == "de"
    assert log_language([line], TABLES["dm"]) == reference_language([line], TABLES["dm"])


def test_the_samples_get_the_reference_language():
    judged = 0
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file():
            continue
        match = read_bytes(path.read_bytes(), str(path))
        words = TABLES.get(match.game)
        if not words:
            continue
        judged += 1
        assert log_language(match.lines, words) == reference_language(match.lines, words), path
    assert judged > 100
