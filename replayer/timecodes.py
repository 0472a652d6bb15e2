"""Timecodes and the video offset: ``@m:ss`` / ``@h:mm:ss`` on a line, ``[VideoOffset "+0:12"]``.

A log's timecodes are positions in *some* cut of the footage; ``[VideoOffset]`` says how far the
video file attached to the log is ahead of (``+``) or behind (``-``) them, so that

    position in the video = timecode + offset

(notation §2). Pure Python: the reader, the window and the report share it.
"""

from __future__ import annotations

import re

_TIMECODE = re.compile(r"@?(?:(\d+):)?(\d{1,2}):(\d{2})$")
_OFFSET = re.compile(r"([+-])?\s*(?:(?:(\d+):)?(\d{1,2}):)?(\d{1,2}|\d+)(?:\.(\d{1,3}))?$")

#: how an offset is written (the hint of the finding for a bad one)
OFFSET_FORMS = '`+m:ss`, `-m:ss`, `+h:mm:ss` or seconds (`+12`), with optional milliseconds (`+0:12.480`)'


def seconds(timecode: str) -> float | None:
    """``"@1:02"`` -> 62.0, ``"@1:00:05"`` -> 3605.0; None when it is not a timecode."""
    m = _TIMECODE.match(timecode.strip())
    if not m:
        return None
    h, mm, ss = m.groups()
    return int(h or 0) * 3600 + int(mm) * 60 + int(ss)


def parse_offset(value: str) -> float | None:
    """A ``[VideoOffset]`` value in seconds (``"+0:12"`` -> 12.0, ``"-1:05.5"`` -> -65.5), None if bad.

    The forms: an optional sign, then ``h:mm:ss``, ``m:ss`` or whole seconds, then optionally
    ``.`` and one to three digits of a second. With ``m:ss``, ``ss`` must be below 60."""
    m = _OFFSET.match(value.strip())
    if not m:
        return None
    sign, h, mm, ss, frac = m.groups()
    if mm is None and h is None:
        total = int(ss)
    else:
        if int(ss) >= 60 or len(ss) != 2 or (h is not None and int(mm) >= 60):
            return None
        total = int(h or 0) * 3600 + int(mm) * 60 + int(ss)
    value_s = total + (int(frac.ljust(3, "0")) / 1000 if frac else 0.0)
    return -value_s if sign == "-" else value_s


def format_offset(value: float) -> str:
    """Seconds -> the header's form: ``12.0`` -> ``"+0:12"``, ``-65.48`` -> ``"-1:05.480"``."""
    sign = "-" if value < 0 else "+"
    ms = round(abs(value) * 1000)
    s, ms = divmod(ms, 1000)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    text = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
    return f"{sign}{text}" + (f".{ms:03d}" if ms else "")


def format_timecode(position: float) -> str:
    """Seconds -> a line's timecode (whole seconds, rounded down): ``62.9`` -> ``"@1:02"``."""
    s = max(int(position), 0)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"@{h}:{m:02d}:{s:02d}" if h else f"@{m}:{s:02d}"


def is_url(video: str) -> bool:
    """Whether a ``[Video]`` value is a web address rather than a file."""
    v = video.strip().lower()
    return v.startswith(("http://", "https://", "www."))


_HOST_LABEL = r"(?!-)[^\W_](?:[\w-]{0,61}[^\W_])?"
_HOST = re.compile(rf"{_HOST_LABEL}(?:\.{_HOST_LABEL})*\.?")


def url_problem(video: str) -> str | None:
    """Why a ``[Video]`` web address (:func:`is_url`) cannot be opened, in words; None when it
    can: an ``http``/``https`` address whose host is a host name or an IP address, with no space
    or control character. ``"https://[evil"`` is not (an unclosed IPv6 bracket), nor is
    ``"https://--option"`` (a host that begins with ``-``: a browser would take it for an option).

    >>> url_problem("https://youtu.be/abc?t=3"), url_problem("https://--option")
    (None, "the host '--option' is not a host name")
    """
    import ipaddress
    import unicodedata
    from urllib.parse import urlsplit

    v = video.strip()
    if v.lower().startswith("www."):
        v = "https://" + v
    if any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in v):
        return "a space or a control character in it"
    try:
        parts = urlsplit(v)
        host = parts.hostname
        parts.port  # (a bad port raises ValueError)
    except ValueError as e:
        return f"not readable as an address: {e}"
    if parts.scheme.lower() not in ("http", "https"):
        return "not an http or https address"
    if not host:
        return "no host in it"
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if parts.netloc.endswith("]") or "[" in parts.netloc:
        return f"the host {host!r} is not an IP address"
    if not _HOST.fullmatch(host):
        return f"the host {host!r} is not a host name"
    return None


def url_at(url: str, position: float) -> str:
    """The web address of the footage at ``position`` seconds: its ``t=`` parameter set.

    Twitch wants ``t=1h02m03s``; YouTube and the rest take whole seconds (``t=3723``). An
    existing ``t=`` is replaced, any other parameter (``v=`` of YouTube) kept. ``url`` must be a
    good address (:func:`url_problem`): a bad one raises ``ValueError``."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    problem = url_problem(url)
    if problem is not None:
        raise ValueError(f"not a web address to open: {problem}")
    if url.strip().lower().startswith("www."):
        url = "https://" + url.strip()
    parts = urlsplit(url.strip())
    s = max(int(position), 0)
    if "twitch.tv" in parts.netloc.lower():
        h, rest = divmod(s, 3600)
        m, sec = divmod(rest, 60)
        t = f"{h}h{m:02d}m{sec:02d}s"
    else:
        t = str(s)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "t"]
    query.append(("t", t))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))
