"""replayer/lines.py: the line reader's shortcut for a raw line that is its own body
(``LineReader.plain``) against the split and the body's read it skips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replayer import games
from replayer.check import read_text
from replayer.lines import LineReader, split_line

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["ygo", "dm"])
def reader(request) -> LineReader:
    return LineReader(games.get(request.param))


def _same_as_split(reader: LineReader, raw: str) -> None:
    """plain(raw) is None, or what the split and the body's read give, for a line split_line
    says is its own body."""
    got = reader.plain(raw)
    if got is None:
        return
    assert split_line(raw) == (1, None, raw, None), raw
    make, values = reader._fields(raw, 1)
    assert (got[0], got[1]) == (make, values), raw


def test_a_plain_line_is_read_without_its_split():
    r = LineReader(games.get("ygo"))
    got = r.plain('A: destroy "Kuriboh"#2 by battle')
    assert got is not None
    assert got == r._fields('A: destroy "Kuriboh"#2 by battle', 1)


@pytest.mark.parametrize("raw", [
    'A: destroy "Kuriboh" by battle  # a note',     # a note
    'A: destroy "Kuriboh" by battle ',              # a space to strip
    '  A: destroy "Kuriboh" by battle',             # indented
    '@1:23 A: destroy "Kuriboh" by battle',         # a timecode
    '# "Kuriboh" 1200',                             # a note line
    'A: destroy "Kuriboh"#x by battle',             # `#` not before a digit: a note
    'A: destroy "Kuriboh" #2 by battle',            # `#` not after a quote: a note
    'A: atk "Kuriboh" 1200 {atk-mod#2}',            # `#` in a property list: a note
    'A: destroy 《クリボー》 by battle',              # not ASCII
    '[A "Yuki"]',                                   # a header tag
    'phase battle',                                 # no name, no number: no template
    '',
])
def test_lines_that_are_not_their_own_body_are_split(raw):
    assert LineReader(games.get("ygo")).plain(raw) is None


def test_plain_agrees_with_the_split_on_sample_lines(reader):
    for path in sorted((ROOT / "samples").rglob("*.duel")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            _same_as_split(reader, raw)


def test_plain_agrees_with_the_split_on_random_lines(reader):
    rng = random.Random(25)
    words = ['A:', 'B:', 'attack', 'destroy', 'summon', 'normal summon', 'activate', 'from hand', '->',
             'by battle', 'atk', 'lp', 'damage', 'turn', '"Kuriboh"', '"Dark Magician"', '"a#2"', '"x',
             '{quick-play}', '{atk-mod', '#', '#2', '"#3"', '1200', '1700/200', '3', 'CL2', '@1:23', ' ',
             '  ', '\t', '"', '}', '{', '%s', '\x00', 'x2', '-5', '99999999999']
    for _ in range(20_000):
        raw = "".join(rng.choice(words) + rng.choice(["", " ", " "]) for _ in range(rng.randrange(1, 9)))
        _same_as_split(reader, raw)
        _same_as_split(reader, raw.strip())


def test_a_log_reads_the_same_whether_its_lines_are_new_or_seen_before():
    text = "\n".join(['[Game "ygo"]', "turn 1 A", "phase battle", 'A: normal summon "Kuriboh"#2 300/200',
                      "# a note for the next line", 'A: normal summon "Kuriboh"#3 300/200',
                      'A: normal summon "Kuriboh"#2 300/200  # its own note', 'A: normal summon "Kuriboh"#2 300/200'])
    first = read_text(text, "a.duel")
    again = read_text(text, "a.duel")
    assert first.events == again.events and first.notes == again.notes and first.findings == again.findings
    assert [e.notes for e in first.events[2:]] == [(), ("a note for the next line",), ("its own note",), ()]
    assert [e.span.line for e in first.events[2:]] == [4, 6, 7, 8]


@pytest.mark.parametrize("odd", list("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"))
def test_split_lines_breaks_only_at_real_line_ends(odd):
    from replayer.lines import split_lines

    text = f"turn 1 A\nphase {odd}draw\r\n《オネスト》 x{odd}\rlast\n"
    assert split_lines(text) == ["turn 1 A", f"phase {odd}draw", f"《オネスト》 x{odd}", "last"]
    assert split_lines("turn 1 A\r\nphase draw\rx\n") == "turn 1 A\r\nphase draw\rx\n".splitlines()
