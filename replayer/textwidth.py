"""Text as a terminal shows it: display widths (a Japanese character takes two columns, a combining
mark none), padding and tables that line up whatever the script (issue 23, point 8).

>>> width("全日本選手権"), width("Kaiba")
(12, 5)
>>> ljust("十代", 6) + "|"
'十代  |'
>>> print(table([["player", "errors"], ["カイト", "3"], ["Kaiba", "12"]], numeric=[False, True]))
player  errors
カイト       3
Kaiba       12
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence



def char_width(ch: str) -> int:
    """Columns one character takes: 2 for wide and full-width ones, 0 for combining marks and controls."""
    if " " <= ch <= "~":
        return 1
    from wcwidth import wcwidth  # its tables take a tenth of replayer's start-up: loaded once, when needed

    w = wcwidth(ch)
    if w < 0:  # a control character (the text is made visible before it is shown: safe.visible)
        return 0
    return w


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal."""
    if text.isascii():
        return sum(1 for c in text if " " <= c <= "~")
    return sum(char_width(c) for c in unicodedata.normalize("NFC", text))


def ljust(text: str, columns: int) -> str:
    return text + " " * max(columns - width(text), 0)


def rjust(text: str, columns: int) -> str:
    return " " * max(columns - width(text), 0) + text


def columns_of(text: str, index: int) -> int:
    """The display column (0-based) at which character ``index`` of ``text`` starts."""
    return width(text[:index])


def table(rows: Sequence[Sequence[str]], numeric: Sequence[bool] = (), gap: str = "  ",
          indent: str = "") -> str:
    """``rows`` (the first one: the headings) as lines whose columns line up on a terminal; ``numeric``
    columns are right-aligned. Trailing spaces are cut."""
    if not rows:
        return ""
    n = max(len(r) for r in rows)
    cells = [list(r) + [""] * (n - len(r)) for r in rows]
    widths = [max(width(r[i]) for r in cells) for i in range(n)]
    right = list(numeric) + [False] * (n - len(numeric))
    return "\n".join(indent + gap.join(rjust(c, w) if num else ljust(c, w)
                                       for c, w, num in zip(r, widths, right)).rstrip() for r in cells)
