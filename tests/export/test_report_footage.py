"""The report links each finding to its footage: the timecode, and the video at that second."""

from __future__ import annotations

import re
from pathlib import Path

from replayer.check import check_text
from replayer.export import report_html
from replayer.export.footage import finding_timecodes, video_href

LOG = """\
[Game "ygo"]
[Video "{video}"]
{offset}
A: atack "Lyla"
@1:05 turn 3 A
phase battle
A: atack "Lyla" -> direct
@1:40 B: zonk 9000
"""


def _result(tmp_path: Path, video: str, offset: str = ""):
    text = LOG.format(video=video, offset=f'[VideoOffset "{offset}"]' if offset else "")
    path = tmp_path / "m.duel"
    path.write_text(text, encoding="utf-8")
    return check_text(text, str(path))


def _links(page: str) -> list[tuple[str, str]]:
    return [(h.replace("&amp;", "&"), t) for h, t in re.findall(r"<a href='([^']*)'>([^<]*)</a>", page)]


def test_each_finding_gets_the_timecode_of_its_event(tmp_path):
    result = _result(tmp_path, "https://www.youtube.com/watch?v=abc")
    codes = dict(zip((f.span.line for f in result.findings), finding_timecodes(result.match, result.findings)))
    assert codes[4] is None  # before the first timecode
    assert codes[7] == "@1:05"  # no timecode of its own: the last one before
    assert any(f.span.line == 8 for f in result.findings) and codes[8] == "@1:40"


def test_a_url_video_is_linked_at_the_second_with_the_offset(tmp_path):
    result = _result(tmp_path, "https://www.twitch.tv/videos/42", "+0:12")
    page = report_html(result, None)
    links = _links(page)
    assert ("https://www.twitch.tv/videos/42?t=0h01m17s", "@1:05") in links
    assert ("https://www.twitch.tv/videos/42?t=0h01m52s", "@1:40") in links


def test_a_video_file_is_linked_with_a_media_fragment(tmp_path):
    result = _result(tmp_path, "clips/m.mp4")
    href = video_href(result.match, "@1:05")
    assert href == (tmp_path / "clips" / "m.mp4").resolve().as_uri() + "#t=65"
    assert (href, "@1:05") in _links(report_html(result, None))


def test_without_a_video_the_timecode_is_shown_unlinked(tmp_path):
    text = LOG.replace('[Video "{video}"]\n', "").format(offset="")
    result = check_text(text, str(tmp_path / "m.duel"))
    page = report_html(result, None)
    assert "@1:40" in page and not _links(page)
