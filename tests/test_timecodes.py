"""[VideoOffset] (notation §2) and the timecode arithmetic the window and the report share."""

from __future__ import annotations

import pytest

from replayer.check import read_text
from replayer.timecodes import format_offset, format_timecode, parse_offset, seconds


@pytest.mark.parametrize("text, value", [
    ("+0:12", 12.0), ("-0:12", -12.0), ("0:12", 12.0), ("+12", 12.0), ("-1:05.5", -65.5),
    ("+1:00:05", 3605.0), ("+0:12.480", 12.48), (" +0:00 ", 0.0), ("+90", 90.0),
])
def test_offsets_in_every_form(text, value):
    assert parse_offset(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "+", "0:7x", "+0:75", "+1:5", "++0:12", "0:12:", "twelve", "+1:60:00"])
def test_bad_offsets_are_none(text):
    assert parse_offset(text) is None


@pytest.mark.parametrize("value", [0.0, 12.0, -12.0, 65.48, -3605.1, 0.04])
def test_format_offset_reads_back(value):
    assert parse_offset(format_offset(value)) == pytest.approx(value)


def test_timecodes():
    assert seconds("@1:02") == 62 and seconds("@1:00:05") == 3605 and seconds("@x") is None
    assert format_timecode(62.9) == "@1:02" and format_timecode(3605) == "@1:00:05" and format_timecode(-1) == "@0:00"


def _log(offset_line: str) -> str:
    return f'[Game "ygo"]\n[Video "match.mp4"]\n{offset_line}\n\n@0:01 turn 1 A\nphase main1\n'


def test_reader_accepts_a_good_offset():
    m = read_text(_log('[VideoOffset "+0:12"]'), "x.duel")
    assert m.header["VideoOffset"] == "+0:12"
    assert not [f for f in m.findings if f.rule == "syntax.header"]


def test_reader_reports_a_bad_offset_on_its_line():
    m = read_text(_log('[VideoOffset "soon"]'), "x.duel")
    bad = [f for f in m.findings if f.rule == "syntax.header"]
    assert len(bad) == 1 and bad[0].span.line == 3 and "VideoOffset" in bad[0].message
    assert bad[0].severity.value == "error"
