"""Line templates: parse a line's *shape* once, then fill in its card names and numbers.

A line's parse does not depend on its neighbours, and the shapes of lines recur far more than
the lines themselves: ``A: attack "X" 1700/200 -> "Y"`` has one shape whatever X, Y and the
numbers are. The reader replaces each card name by a numbered placeholder and each free-standing
number by a sentinel, parses that template with the lark grammar once, and builds the event of
every later line of the same shape by substitution. A template that does not parse, or whose
placeholders do not all come back in its event exactly once (a number that is part of a keyword,
like ``revolution 0``), is not used: such lines are parsed as they are.
"""

from __future__ import annotations

import re
from dataclasses import fields
from functools import lru_cache
from typing import Any

from . import events as ev
from .makers import maker

# A name or a property list with no closing quote or brace runs to the end of the line (the
# possessive ``*+`` never gives back): matching it once, rather than failing from every opener of a
# line of openers and rescanning the rest of the line each time, keeps this linear in the line.
_CHUNK = re.compile(
    r'(?P<name>"[^"\n]*+(?:"|$)|《[^》\n]*+(?:》|$)|「[^」\n]*+(?:」|$)|„[^“”\n]*+(?:[“”]|$))'
    r"|(?P<props>\{[^}\n]*+(?:\}|$))"
    r"|(?P<num>(?<![\w.:@-])\d{1,9}(?![\w.:]))"
)
_CLOSERS = {'"': '"', "《": "》", "「": "」", "„": "“”"}
SENTINEL = 900_000_000  # numbers in a template are SENTINEL + their index


def make_template(text: str) -> tuple[str, list[tuple[int, int, int, int]], list[str], list[int]] | None:
    """(template text, chunks, names, numbers) for a padded line text, or None if it has no chunk.

    ``chunks`` holds (template start, template end, real start, real end) of every substitution,
    0-based, in order.
    """
    out: list[str] = []
    chunks: list[tuple[int, int, int, int]] = []
    names: list[str] = []
    nums: list[int] = []
    pos = tpos = 0
    for m in _CHUNK.finditer(text):
        if m.lastgroup == "props":
            if not m.group().endswith("}"):
                return None  # unclosed: the line is parsed as it is, and its finding says so
            continue
        if m.lastgroup == "name":
            quoted = m.group()
            if len(quoted) < 2 or quoted[-1] not in _CLOSERS[quoted[0]]:
                return None
        start, end = m.span()
        out.append(text[pos:start])
        tpos += start - pos
        if m.lastgroup == "name":
            piece = f'"\x00{len(names)}"'
            names.append(m.group())
        else:
            piece = str(SENTINEL + len(nums))
            nums.append(int(m.group()))
        out.append(piece)
        chunks.append((tpos, tpos + len(piece), start, end))
        tpos += len(piece)
        pos = end
    if not chunks:
        return None
    out.append(text[pos:])
    return "".join(out), chunks, names, nums


class Template:
    """A parsed shape and how to build an event from a line of that shape."""

    __slots__ = ("cls", "make", "base", "plan")

    def __init__(self, cls: type, base: list[Any], plan: list[tuple[int, str]]):
        self.cls = cls
        self.make = maker(cls)  # (span, timecode, notes, *values) -> the event
        self.base = base  # the template event's values of own_fields(cls), in order
        self.plan = plan  # (index in base, "card" | "cards" | "int")

    @classmethod
    def from_event(cls, event: ev.Event, n_names: int, n_nums: int) -> "Template | None":
        base = [getattr(event, name) for name in own_fields(type(event))]
        plan: list[tuple[int, str]] = []
        seen_names: list[int] = []
        seen_nums: list[int] = []
        for index, value in enumerate(base):
            if isinstance(value, ev.CardRef):
                plan.append((index, "card"))
                _collect_card(value, seen_names, seen_nums)
            elif isinstance(value, tuple) and value and isinstance(value[0], ev.CardRef):
                plan.append((index, "cards"))
                for card in value:
                    _collect_card(card, seen_names, seen_nums)
            elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= SENTINEL:
                plan.append((index, "int"))
                seen_nums.append(abs(value) - SENTINEL)
        if sorted(seen_names) != list(range(n_names)) or sorted(seen_nums) != list(range(n_nums)):
            return None
        return cls(type(event), base, plan)

    def build(self, chunks, names, nums, span=ev.NO_SPAN, timecode=None, notes=()) -> ev.Event:
        return self.make(span, timecode, notes, *self.values(chunks, names, nums))

    def values(self, chunks, names, nums) -> tuple[Any, ...]:
        """The event's values of :func:`own_fields` for a line of this shape, in order."""
        values = self.base.copy()
        for index, kind in self.plan:
            value = values[index]
            if kind == "card":
                values[index] = _fill_card(value, chunks, names, nums)
            elif kind == "cards":
                values[index] = tuple(_fill_card(c, chunks, names, nums) for c in value)
            else:
                values[index] = _fill_int(value, nums)
        return tuple(values)


@lru_cache(maxsize=None)
def own_fields(cls: type) -> tuple[str, ...]:
    """An event class's fields but those the reader adds (span, timecode, notes: the first three,
    so that ``maker(cls)(span, timecode, notes, *values)`` builds the event)."""
    names = tuple(f.name for f in fields(cls))
    assert names[:3] == ("span", "timecode", "notes"), names
    return names[3:]


def _index(name: str) -> int | None:
    if name.startswith("\x00"):
        return int(name[1:])
    return None


def _collect_card(card: ev.CardRef, seen_names: list[int], seen_nums: list[int]) -> None:
    i = _index(card.name)
    if i is not None:
        seen_names.append(i)
    for v in (card.copy, card.atk, card.def_, card.power):
        if v is not None and v >= SENTINEL:
            seen_nums.append(v - SENTINEL)


def _fill_int(value: int | None, nums: list[int]) -> int | None:
    if value is None:
        return None
    if value >= SENTINEL:
        return nums[value - SENTINEL]
    if value <= -SENTINEL:
        return -nums[-value - SENTINEL]
    return value


def _column(col: int, chunks) -> int:
    """Map a 1-based template column to the real line's column."""
    p = col - 1
    delta = 0
    for ts, te, rs, re_ in chunks:
        if p == ts:
            return rs + 1
        if p < ts:
            break
        if p >= te:
            delta = re_ - te
    return p + delta + 1


_card = maker(ev.CardRef)


def _fill_card(card: ev.CardRef, chunks, names, nums) -> ev.CardRef:
    i = _index(card.name)
    name = card.name
    if i is not None:
        raw = names[i]
        name = " ".join(raw[1:-1].split())
    return _card(
        name,
        _fill_int(card.copy, nums),
        _fill_int(card.atk, nums),
        _fill_int(card.def_, nums),
        _fill_int(card.power, nums),
        card.props,
        _column(card.column, chunks),
        _column(card.end_column, chunks),
    )
