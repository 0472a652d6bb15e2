"""Text from a log, made safe where it leaves replayer: for a terminal, an HTML page, a widget.

A log is anybody's text: a card name, a player's name, a note or a whole source line may hold
an escape sequence (``ESC[2J`` clears the screen, ``ESC]0;…BEL`` sets the window title) or a bidi
override (U+202E shows the rest of a line backwards). Each way out has one helper here:

- :func:`visible` for a terminal (``check``, ``search``, ``stats``): control characters are shown
  as escapes, ``\\x1b``, ``\\u202e``, so a reader sees that they are there and nothing acts on them;
- :func:`html_text` for HTML (the report, the window's rich-text labels and tooltips): the same,
  then :func:`html.escape`;
- :func:`shorten` for a piece of a line quoted in a message, so that a megabyte line does not
  become a megabyte message.

>>> visible("Yuki\\x1b]0;pwned\\x07 \\u202eevil")
'Yuki\\\\x1b]0;pwned\\\\x07 \\\\u202eevil'
>>> html_text("<b>A</b>\\x1b[2J")
'&lt;b&gt;A&lt;/b&gt;\\\\x1b[2J'
"""

from __future__ import annotations

import re

#: C0 controls but the tab, DEL, C1 controls, and the characters that reorder or break a line
#: on screen: bidi embeddings, overrides and isolates, the marks, the line and paragraph separators
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: object) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``).

    Tabs stay tabs. Text without such characters is returned as it is (the usual case: fast).
    """
    s = str(text)
    if _UNSAFE.search(s) is None:
        return s
    return _UNSAFE.sub(_escape, s)


def html_text(text: object) -> str:
    """``text`` for HTML: controls made visible, then markup escaped (quotes too)."""
    import html  # (a page's writers only: not at start-up)

    return html.escape(visible(text), quote=True)


#: how much of a piece of a line a message quotes
SHORT = 60


def shorten(text: str, limit: int = SHORT) -> str:
    """``text`` cut to ``limit`` characters, with ``…`` where it was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def has_unsafe(text: str) -> bool:
    """Whether :func:`visible` would change ``text``."""
    return _UNSAFE.search(text) is not None


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def json_safe(text: str) -> str:
    """A JSON text with the characters :func:`visible` shows written as ``\\uXXXX`` escapes:
    the same value to a JSON reader, nothing for a terminal to act on. (JSON itself escapes
    the C0 controls.)"""
    if _JSON_UNSAFE.search(text) is None:
        return text
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def tooltip(text: object) -> str:
    """Text from a log as a widget's tooltip. Qt shows a tooltip as rich text when it merely looks
    like markup (``Qt.mightBeRichText``), so the text is escaped and marked up as one paragraph,
    its line breaks kept: it always shows as the characters it is."""
    lines = str(text).split("\n")
    return "<p style='white-space:pre-wrap'>" + "<br>".join(html_text(line) for line in lines) + "</p>"
