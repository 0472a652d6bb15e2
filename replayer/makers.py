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
    return make  # type: ignore[return-value]
