"""Events built from a line template are exactly the events a full parse gives."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from replayer import events as ev
from replayer.diagnostics import Span
from replayer.games import get
from replayer.lines import LineReader, split_line, split_lines

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from logs import dm_log, ygo_log  # noqa: E402


def lines_of(game: str) -> list[str]:
    out = []
    for path in sorted((ROOT / "samples" / game).rglob("*.duel")):
        out += split_lines(path.read_text(encoding="utf-8"))
    out += split_lines((ygo_log if game == "ygo" else dm_log)(3000, seed=7))
    return out


@pytest.mark.parametrize("game", ["ygo", "dm"])
def test_template_events_equal_parsed_events(game):
    templated, direct = LineReader(get(game)), LineReader(get(game))
    lines = lines_of(game)
    random.Random(5).shuffle(lines)  # a template made from one line serves others
    compared = 0
    for number, raw in enumerate(lines, 1):
        column, timecode, body, note = split_line(raw)
        if not body:
            continue
        extra = dict(span=Span(number, column, number, column + len(body)), timecode=timecode, notes=())
        got = templated.read(body, column, **extra)
        want = direct.parse(body, column)
        if isinstance(want, ev.Event):
            want = replace(want, **extra)
            assert got == want, raw
            compared += 1
        elif isinstance(want, tuple):
            assert got == want
        else:
            assert type(got) is type(want), raw
    assert compared > 1000
    assert templated.templates, "no template was used"
    assert len(templated.cache) < len(direct.cache) / 3


def test_a_number_that_belongs_to_a_keyword_is_not_templated():
    r = LineReader(get("dm"))
    e = r.read('A: revolution 0 "Fist of Revolution"', 1, span=Span(1, 1))
    assert isinstance(e, ev.Declare) and e.what == "revolution-0"
    assert e.card.name == "Fist of Revolution" and e.card.column == 17


def test_signed_numbers_and_copies_survive_templates():
    r = LineReader(get("ygo"))
    a = r.read('A: atk "Kuriboh"#2 -500', 1, span=Span(1, 1))
    b = r.read('A: atk "Blue-Eyes White Dragon"#11 +1200', 1, span=Span(2, 1))
    assert (a.card.name, a.card.copy, a.value, a.relative) == ("Kuriboh", 2, -500, True)
    assert (b.card.name, b.card.copy, b.value, b.relative) == ("Blue-Eyes White Dragon", 11, 1200, True)
    assert (b.card.column, b.card.end_column) == (8, 35)


_NAMES = ['"Kuriboh"', '"Blue-Eyes  White Dragon"', "《オネスト》", "「月の書」", "„Königin“", '""', '"a"', '"Number 39: Utopia"']
_PIECE = __import__("re").compile(r'"[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”]|(?<![\w.:@-])\d{1,9}(?![\w.:])')


@pytest.mark.parametrize("game", ["ygo", "dm"])
def test_lines_of_a_known_shape_with_other_names_numbers_and_columns_read_as_parsed(game):
    """The filling in of a template (names, numbers, and every card's columns computed from the
    lengths of what came before it) against a full parse, on the sample lines with their names
    and numbers replaced by longer and shorter ones and the lines moved right."""
    templated, direct = LineReader(get(game)), LineReader(get(game))
    rng = random.Random(11)
    lines = [b for _, _, b, _ in map(split_line, lines_of(game)[:4000]) if b and b[0] != "["]
    compared = 0
    for body in lines * 2:
        other = _PIECE.sub(lambda m: rng.choice(_NAMES) if not m.group()[0].isdigit()
                           else str(rng.choice([0, 7, 40, 900, 1200, 123456789])), body)
        column = rng.choice([1, 1, 2, 8, 13])
        got = templated.read(other, column, span=Span(1, column))
        want = direct.parse(other, column)
        if isinstance(want, ev.Event):
            assert got == replace(want, span=Span(1, column)), (other, column)
            compared += 1
        else:
            assert got == want or type(got) is type(want), other
    assert compared > 3000
    assert len(templated.cache) < len(direct.cache) / 3  # most lines were filled in, not parsed


# the split as it was written before its pattern started with the pieces' first characters: the
# same pieces, found the same way (a look-ahead, then the kinds in order)
_OLD_PIECE = (r'"[^"\n]*+(?:"|$)|《[^》\n]*+(?:》|$)|「[^」\n]*+(?:」|$)|„[^“”\n]*+(?:[“”]|$)'
              r"|\{[^}\n]*+(?:\}|$)|(?<![\w.:@-])\d{1,9}(?![\w.:])")
_OLD_CHUNK = __import__("re").compile(r'(?=["《「„{\d])(' + _OLD_PIECE + ")")
_OLD_CHUNK_ASCII = __import__("re").compile(r'(?=["{0-9])(' + _OLD_PIECE + ")", __import__("re").ASCII)


def test_the_split_finds_the_pieces_the_look_ahead_pattern_found():
    import random

    from replayer.templates import _CHUNK, _CHUNK_ASCII

    rng = random.Random(10)
    alphabet = ['"', '"', '《', '》', '「', '」', '„', '“', '”', '{', '}', '#', '1', '23', '900000000', '1234567890',
                ' ', 'a', 'B:', ':', '.', '-', '@', '_', '\u3000', '１', '٣', '/', 'é']
    for _ in range(50_000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 20)))
        assert _CHUNK.split(s) == _OLD_CHUNK.split(s), s
        if s.isascii():
            assert _CHUNK_ASCII.split(s) == _OLD_CHUNK_ASCII.split(s), s
