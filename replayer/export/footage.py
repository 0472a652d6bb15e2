"""The footage of each finding, for the report: its timecode and a link to the video there.

A finding's timecode is its line's own (``@1:23``, even on a line that does not parse), else that
of its event (the last event at or before its line) or the last timecode before it. The link opens a ``[Video]`` URL at that second plus
``[VideoOffset]`` (``t=``, see :func:`replayer.timecodes.url_at`), or a local video file with a
media fragment (``file:///…/match.mp4#t=83``, which browsers' players honour).
"""

from __future__ import annotations

import bisect
from pathlib import Path

from ..diagnostics import Finding
from ..reader import Match, split_line
from ..timecodes import is_url, parse_offset, seconds, url_at, url_problem


def finding_timecodes(match: Match, findings: list[Finding]) -> list[str | None]:
    """For each finding, the timecode of the footage where it happens (None: no timecode yet)."""
    lines: list[int] = []
    codes: list[str | None] = []
    last: str | None = None
    for e in match.events:
        if e.timecode:
            last = e.timecode
        lines.append(e.span.line)
        codes.append(last)
    out: list[str | None] = []
    for f in findings:
        line = f.span.line
        own = split_line(match.lines[line - 1])[1] if 0 < line <= len(match.lines) else None
        k = bisect.bisect_right(lines, line) - 1
        out.append(own or (codes[k] if k >= 0 else None))  # a bad line's own timecode counts too
    return out


def video_href(match: Match, timecode: str) -> str | None:
    """Where a link to the footage at ``timecode`` goes (None when the log names no video)."""
    video = match.header.get("Video", "").strip()
    s = seconds(timecode)
    if not video or s is None:
        return None
    position = s + (parse_offset(match.header.get("VideoOffset", "")) or 0.0)
    if is_url(video):
        return url_at(video, position) if url_problem(video) is None else None  # (a finding says why)
    p = Path(video).expanduser()
    if not p.is_absolute() and match.path and not match.path.startswith("<"):
        p = Path(match.path).resolve().parent / p
    try:
        uri = p.resolve().as_uri()
    except ValueError:
        return None
    return f"{uri}#t={max(position, 0):g}"
