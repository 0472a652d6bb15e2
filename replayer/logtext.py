"""Small edits of a log's text that the window makes for the user (pure Python).

:func:`set_header_tag` writes ``[Key "value"]``: the existing tag line is replaced in place, a new
one goes after the last header tag (or after the ``[Video]`` tag, for the video's own keys), so
that everything else in the text stays byte for byte as it was.
"""

from __future__ import annotations

import re

_TAG_LINE = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+("[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”])\s*\]')
_EVENT_START = re.compile(r"^\s*(?:@[\d:]+\s+)?[^\s#\[]")


def _lines(text: str) -> tuple[list[str], str]:
    nl = "\r\n" if "\r\n" in text else "\n"
    return text.split(nl), nl


def header_end(lines: list[str]) -> int:
    """Index of the first line after the header tags (and the comments among them)."""
    last = -1
    for i, line in enumerate(lines):
        if _TAG_LINE.match(line):
            last = i
        elif line.strip() and not line.lstrip().startswith("#"):
            break
    return last + 1


def set_header_tag(text: str, key: str, value: str, *, after: str | None = None) -> str:
    """``text`` with ``[key "value"]`` in its header (replaced, or added after the tag ``after``
    if present, else after the last tag). A double quote in ``value`` becomes ``'``."""
    value = value.replace('"', "'").replace("\n", " ")
    new = f'[{key} "{value}"]'
    lines, nl = _lines(text)
    end = header_end(lines)
    for i in range(end):
        m = _TAG_LINE.match(lines[i])
        if m and m.group(1) == key:
            lines[i] = new
            return nl.join(lines)
    at = end
    if after is not None:
        for i in range(end):
            m = _TAG_LINE.match(lines[i])
            if m and m.group(1) == after:
                at = i + 1
    if at == 0 and lines == [""]:
        return new + nl
    lines.insert(at, new)
    return nl.join(lines)


def new_log(game: str, video: str | None = None, players: tuple[str, str] = ("A", "B"),
            extra: dict[str, str] | None = None) -> str:
    """The text of a new log: its header filled, a blank line, and the first turn to write."""
    tags = [("Game", game), ("A", players[0]), ("B", players[1])]
    tags += list((extra or {}).items())
    if video:
        tags.append(("Video", video))
        tags.append(("VideoOffset", "+0:00"))
    head = "".join(f'[{k} "{str(v).replace(chr(34), chr(39))}"]\n' for k, v in tags)
    return head + "\n@0:00 turn 1 A\n"
