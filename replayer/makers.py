"""Fast constructors for the frozen, slotted dataclasses the reader makes by the hundred thousand.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` by name (and an
event's takes keywords); for a ``Span`` or an event of ten fields that is most of the cost of
reading a line seen before. ``maker(cls)`` returns a function of the fields, positional, in
``dataclasses.fields`` order, that sets each slot through its descriptor: the object is equal
to the one ``cls(...)`` gives, field for field. Only for classes without ``__post_init__``, whose
callers pass every field.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Callable


@lru_cache(maxsize=None)
def maker(cls: type) -> Callable[..., object]:
    if not hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: a maker needs a slotted dataclass without __post_init__")
    names = [f.name for f in fields(cls)]
    env: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    o = _new(_cls)"]
    for name in names:
        env["_set_" + name] = getattr(cls, name).__set__  # the slot's member descriptor
        lines.append(f"    _set_{name}(o, {name})")
    lines.append("    return o")
    exec("\n".join(lines), env)  # noqa: S102  (code built from the class's own field names)
    make = env["make"]
    make.__qualname__ = f"maker({cls.__name__})"
    make.cls = cls  # type: ignore[attr-defined]  (what line_maker asks)
    return make  # type: ignore[return-value]


@lru_cache(maxsize=None)
def line_maker(cls: type) -> Callable[..., object]:
    """For an event class (its first fields the span, the timecode and the notes): a function
    ``(line, column, end, timecode, notes, values)`` that makes the event of one line, the span
    ``Span(line, column, line, end)`` with it, its other fields ``values`` (a tuple, in field
    order): what ``maker(cls)(maker(Span)(line, column, line, end), timecode, notes, *values)``
    makes, in one call and with no tuple of the arguments built (about 0.15 µs a line less)."""
    from .diagnostics import Span

    names = [f.name for f in fields(cls)]
    if names[:3] != ["span", "timecode", "notes"] or hasattr(cls, "__post_init__") or hasattr(Span, "__post_init__"):
        raise TypeError(f"{cls.__name__}: a line maker needs an event class")
    own = names[3:]
    env: dict[str, object] = {"_new": object.__new__, "_cls": cls, "_Span": Span}
    lines = ["def make(line, column, end, timecode, notes, values):"]
    # the fields as locals v_<name>: no field name can clash with the function's own names
    lines.append(f"    {''.join(f'v_{name}, ' for name in own)}= values" if own else "    () = values")
    lines.append("    s = _new(_Span)")
    for name, value in zip(("line", "column", "end_line", "end_column"), ("line", "column", "line", "end")):
        env["_span_" + name] = getattr(Span, name).__set__
        lines.append(f"    _span_{name}(s, {value})")
    lines.append("    o = _new(_cls)")
    for name, value in zip(names, ["s", "timecode", "notes", *(f"v_{name}" for name in own)]):
        env["_set_" + name] = getattr(cls, name).__set__
        lines.append(f"    _set_{name}(o, {value})")
    lines.append("    return o")
    exec("\n".join(lines), env)  # noqa: S102  (code built from the class's own field names)
    make = env["make"]
    make.__qualname__ = f"line_maker({cls.__name__})"
    return make  # type: ignore[return-value]
