"""How replayer reads a number written in a log: the one place that turns digits into an ``int``.

A number in a log is a plain whole number of at most :data:`MAX_DIGITS` digits. No honest
count, Life Points, power or turn is longer, and the bound keeps every number far inside what
SQLite and JSON store (64 bits) and far below Python's int-string limit (4,300 digits), which
would otherwise raise in the middle of a parse. A longer number is a ``syntax`` finding of its
line, never an exception.

>>> whole_number("8000"), whole_number(" 5 "), whole_number("²"), whole_number("9" * 16)
(8000, 5, None, None)
"""

from __future__ import annotations

import re

#: the most digits a number in a log may have
MAX_DIGITS = 15
_PLAIN = re.compile(r"[0-9]{1,%d}" % MAX_DIGITS)


class NumberTooLong(ValueError):
    """A number of more than :data:`MAX_DIGITS` digits: raised while a line is transformed, and
    turned by the reader into the line's ``syntax.number`` finding."""

    def __init__(self, digits: int, column: int):
        super().__init__(f"a number of {digits} digits")
        self.digits = digits
        self.column = column


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number (ASCII digits, blanks around allowed), or None if it is not one.

    ``str.isdigit`` is not the test: it accepts ``²`` and other digits ``int()`` refuses.
    """
    if text is None:
        return None
    text = text.strip()
    if _PLAIN.fullmatch(text) is None:
        return None
    return int(text)


def read_digits(digits: str, column: int = 0) -> int:
    """The value of a run of digits the grammar matched (any script's decimal digits).

    Raises :class:`NumberTooLong` beyond :data:`MAX_DIGITS` digits.
    """
    if len(digits) > MAX_DIGITS:
        raise NumberTooLong(len(digits), column)
    return int(digits)


def too_long_message(digits: int) -> str:
    return f"a number of {digits:,} digits; a number in a log has at most {MAX_DIGITS} digits"
