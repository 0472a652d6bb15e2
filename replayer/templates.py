"""Line templates: parse a line's *shape* once, then fill in its card names and numbers.

A line's parse does not depend on its neighbours, and the shapes of lines recur far more than
the lines themselves: ``A: attack "X" 1700/200 -> "Y"`` has one shape whatever X, Y and the
numbers are. The reader replaces each card name by a numbered placeholder and each free-standing
number by a sentinel, parses that template with the lark grammar once, and builds the event of
every later line of the same shape by substitution. A template that does not parse, or whose
placeholders do not all come back in its event exactly once (a number that is part of a keyword,
like ``revolution 0``), is not used: such lines are parsed as they are.

The substitution is a function written for each template when it is made (:meth:`Template.fill`):
it reads the names and numbers straight out of the line's pieces (``_CHUNK.split``) and computes
each card's columns from the lengths of the pieces before it, with no loop over the line.
"""

from __future__ import annotations

import re
from dataclasses import fields
from functools import lru_cache
from typing import Any, Callable

from . import events as ev
from .makers import maker

# A name or a property list with no closing quote or brace runs to the end of the line (the
# possessive ``*+`` never gives back): matching it once, rather than failing from every opener of a
# line of openers and rescanning the rest of the line each time, keeps this linear in the line.
# One group, the whole piece (its first character says which kind it is: a quote, a brace, a digit),
# so that the split is the text between pieces and the pieces, with no None for the other kinds.
# The pattern starts with the class of the pieces' first characters, and each kind's branch asks
# with a look-behind which one it was: a pattern that starts with a class lets the engine skip the
# positions no piece starts at in its own loop, one class test a character, instead of trying the
# pattern at each (~20 % fewer instructions a split than the look-ahead ``(?=["《「„{\d])`` had).
# A number's first digit is its own branch's guard: ``(?<![\w.:@-]\d)`` after it is
# ``(?<![\w.:@-])`` before it.
_PIECE = (r'(?<=")[^"\n]*+(?:"|$)|(?<=《)[^》\n]*+(?:》|$)|(?<=「)[^」\n]*+(?:」|$)|(?<=„)[^“”\n]*+(?:[“”]|$)'
          r"|(?<=\{)[^}\n]*+(?:\}|$)"
          r"|(?<=\d)(?<![\w.:@-]\d)\d{0,8}(?![\w.:])")
_CHUNK = re.compile(r'(["《「„{\d](?:' + _PIECE + "))")
#: the same split for an ASCII text, where ``\d`` and ``\w`` match what they match with re.ASCII
#: and no other opener can occur: the engine's first class is smaller
_PIECE_ASCII = (r'(?<=")[^"\n]*+(?:"|$)'
                r"|(?<=\{)[^}\n]*+(?:\}|$)"
                r"|(?<=[0-9])(?<![\w.:@-][0-9])[0-9]{0,8}(?![\w.:])")
_CHUNK_ASCII = re.compile(r'(["{0-9](?:' + _PIECE_ASCII + "))", re.ASCII)
_CLOSERS = {'"': '"', "《": "》", "「": "」", "„": "“”"}
SENTINEL = 900_000_000  # numbers in a template are SENTINEL + their index
_NAME_MARKS = [f'"\x00{i}"' for i in range(32)]
_NUM_MARKS = [str(SENTINEL + i) for i in range(32)]


def make_template(text: str) -> tuple[str, list[str | None]] | None:
    """(template text, the line's pieces) for a padded line text, or None if it has no name and
    no free-standing number (or an unclosed name or property list: such a line is parsed as it
    is, and its finding says so).

    The pieces are ``_CHUNK.split(text)``: the text between pieces at 0, 2, 4 …, and at 1, 3, 5 …
    the name, property list or number found there (its first character says which: a quote, ``{``
    or a digit). The template text is the line with its names and numbers replaced; property
    lists stay.
    """
    parts = (_CHUNK_ASCII if text.isascii() else _CHUNK).split(text)
    n = len(parts)
    if n == 1:
        return None
    out = parts.copy()
    names = nums = 0
    for i in range(1, n, 2):
        piece = parts[i]
        first = piece[0]
        if first in _CLOSERS:  # a name (the most frequent piece)
            if piece[-1] not in _CLOSERS[first] or len(piece) < 2:
                return None  # unclosed (a lone opener at the end, too)
            out[i] = _NAME_MARKS[names] if names < 32 else f'"\x00{names}"'
            names += 1
        elif first == "{":
            if piece[-1] != "}":
                return None  # unclosed
        else:
            out[i] = _NUM_MARKS[nums] if nums < 32 else str(SENTINEL + nums)
            nums += 1
    if not names and not nums:
        return None
    return "".join(out), parts


class Template:
    """A parsed shape and how to build an event from a line of that shape."""

    __slots__ = ("cls", "make", "fill", "pieces")

    def __init__(self, cls: type, fill: Callable[[list], tuple[Any, ...]], pieces: int):
        self.cls = cls
        self.make = maker(cls)  # (span, timecode, notes, *values) -> the event
        self.fill = fill  # the line's pieces -> the event's values of own_fields(cls), in order
        self.pieces = pieces  # how many pieces a line of this shape splits into

    @classmethod
    def from_event(cls, event: ev.Event, parts: list[str | None]) -> "Template | None":
        """The template of a shape whose template text parsed as ``event``; ``parts`` are the
        pieces of the line it was made from (:func:`make_template`). None if the event does not
        hold each placeholder exactly once, in a card or a number field."""
        base = [getattr(event, name) for name in own_fields(type(event))]
        layout = _layout(parts)
        n_names = sum(1 for kind, _, _ in layout if kind == "name")
        n_nums = len(layout) - n_names
        seen_names: list[int] = []
        seen_nums: list[int] = []
        for value in base:
            if isinstance(value, ev.CardRef):
                _collect_card(value, seen_names, seen_nums)
            elif isinstance(value, tuple) and value and isinstance(value[0], ev.CardRef):
                for card in value:
                    _collect_card(card, seen_names, seen_nums)
            elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= SENTINEL:
                seen_nums.append(abs(value) - SENTINEL)
            elif _holds_mark(value):
                return None  # a placeholder inside some other value: it cannot be filled in
        if sorted(seen_names) != list(range(n_names)) or sorted(seen_nums) != list(range(n_nums)):
            return None
        return cls(type(event), _compile(type(event), base, layout), len(parts))

    def build(self, parts, span=ev.NO_SPAN, timecode=None, notes=()) -> ev.Event:
        return self.make(span, timecode, notes, *self.fill(parts))


@lru_cache(maxsize=None)
def own_fields(cls: type) -> tuple[str, ...]:
    """An event class's fields but those the reader adds (span, timecode, notes: the first three,
    so that ``maker(cls)(span, timecode, notes, *values)`` builds the event)."""
    names = tuple(f.name for f in fields(cls))
    assert names[:3] == ("span", "timecode", "notes"), names
    return names[3:]


def _layout(parts: list[str | None]) -> list[tuple[str, int, int]]:
    """(kind, index in the pieces, template column of its start, 0-based) of every name and number."""
    out: list[tuple[str, int, int]] = []
    pos = len(parts[0])
    names = nums = 0
    for i in range(1, len(parts), 2):
        first = parts[i][0]
        if first == "{":
            pos += len(parts[i])
        elif first in _CLOSERS:
            out.append(("name", i, pos))
            pos += len(_NAME_MARKS[names] if names < 32 else f'"\x00{names}"')
            names += 1
        else:
            out.append(("num", i, pos))
            pos += len(str(SENTINEL + nums))
            nums += 1
        pos += len(parts[i + 1])
    return out


def _holds_mark(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value or str(SENTINEL)[:6] in value
    if isinstance(value, tuple):
        return any(_holds_mark(v) for v in value)
    return False


def _index(name: str) -> int | None:
    if name.startswith("\x00") and name[1:].isdecimal() and name[1:].isascii():
        return int(name[1:])
    return None


def _collect_card(card: ev.CardRef, seen_names: list[int], seen_nums: list[int]) -> None:
    i = _index(card.name)
    if i is not None:
        seen_names.append(i)
    elif _holds_mark(card.name):
        seen_names.append(-1)  # a placeholder inside a name: never filled (the check above fails)
    if _holds_mark(card.props):
        seen_nums.append(-1)
    for v in (card.copy, card.atk, card.def_, card.power):
        if v is not None and v >= SENTINEL:
            seen_nums.append(v - SENTINEL)


_card = maker(ev.CardRef)

#: a quoted name as the line writes it (quotes and all) -> the name (inner spaces folded): the same
#: few hundred names fill most lines of a long log
_NAMES: dict[str, str] = {}


def _name(piece: str) -> str:
    name = " ".join(piece[1:-1].split())
    if len(_NAMES) >= 100_000:
        _NAMES.clear()
    _NAMES[piece] = name
    return name


def _compile(cls: type, base: list[Any], layout: list[tuple[str, int, int]]) -> Callable[[list], tuple]:
    """The function ``pieces -> values`` of one template, written out for it.

    A column of the template maps to the real line's column as the old chunk walk did: a column
    where a name or number starts maps to where the real one starts; any other column moves by
    what the names and numbers wholly before it grew or shrank. Both are the template column plus
    the lengths of the real pieces before it minus those of their placeholders.
    """
    env: dict[str, Any] = {"_card": _card, "_names": _NAMES, "_name": _name}
    lines = ["def fill(p):"]
    lengths: list[str] = []  # L0, L1, …: the real length of each name or number, as needed
    names = [(i, start) for kind, i, start in layout if kind == "name"]
    nums = [(i, start) for kind, i, start in layout if kind == "num"]
    marks = [(start, start + (len(_NAME_MARKS[k]) if k < 32 else len(f'"\x00{k}"')), i)
             for k, (i, start) in enumerate(names)]
    marks += [(start, start + len(str(SENTINEL + k)), i) for k, (i, start) in enumerate(nums)]
    marks.sort()

    def const(value: Any) -> str:
        key = f"_c{len(env)}"
        env[key] = value
        return key

    def number(value: int | None) -> str:
        if value is None:
            return "None"
        if value >= SENTINEL:
            return f"int(p[{nums[value - SENTINEL][0]}])"
        if value <= -SENTINEL:
            return f"-int(p[{nums[-value - SENTINEL][0]}])"
        return repr(value)

    def column(col: int) -> str:
        p = col - 1
        before = 0  # how many names and numbers lie wholly before (or start at) the column
        for ts, te, _ in marks:
            if p == ts:
                break
            if p < ts:
                break
            if p >= te:
                before += 1
        shift = p + 1 - sum(te - ts for ts, te, _ in marks[:before])
        while len(lengths) < before:
            k = len(lengths)
            lines.append(f"    L{k} = len(p[{marks[k][2]}])")
            lengths.append(f"L{k}")
        return " + ".join([str(shift)] + lengths[:before])

    def card(ref: ev.CardRef) -> str:
        i = _index(ref.name)
        # (a name folds to "" only when it is blank: `or` then folds it again, to the same "")
        name = const(ref.name) if i is None else f"(_names.get(p[{names[i][0]}]) or _name(p[{names[i][0]}]))"
        return (f"_card({name}, {number(ref.copy)}, {number(ref.atk)}, {number(ref.def_)}, "
                f"{number(ref.power)}, {const(ref.props)}, {column(ref.column)}, {column(ref.end_column)})")

    values: list[str] = []
    for value in base:
        if isinstance(value, ev.CardRef):
            values.append(card(value))
        elif isinstance(value, tuple) and value and isinstance(value[0], ev.CardRef):
            values.append("(" + "".join(card(c) + ", " for c in value) + ")")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= SENTINEL:
            values.append(number(value))
        else:
            values.append(const(value))
    lines.append("    return (" + "".join(v + ", " for v in values) + ")")
    exec("\n".join(lines), env)  # noqa: S102  (code built from the template's own layout)
    fill = env["fill"]
    fill.__qualname__ = f"fill({cls.__name__})"
    return fill  # type: ignore[no-any-return]
