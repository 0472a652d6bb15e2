"""Frozen, slotted dataclasses whose methods are written the first time they are used.

``@record`` is ``@dataclass(frozen=True, slots=True)`` (and ``@record(kw_only=True)`` with
``kw_only=True``) with one difference: the dataclass module writes and compiles the source of
``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` of every class when the class is made, and
``replayer check`` of a short log paid ~30 ms of its start-up for the ~45 records on its path (the
events alone are 36), most of which a log never makes. Here the class is made by ``dataclass``
itself with those four left out (so ``dataclasses.fields``, ``replace`` and ``asdict`` are the
dataclass module's own), and each of the four is a small stand-in that, on its first call, writes the method the dataclass module would have written
for the class, puts it on the class in its own place and calls it.

What the written methods do is that of Python 3.11's dataclasses for a frozen, slotted class
with ``eq=True``: ``__init__`` sets every field (defaults, ``default_factory``, ``init=False``
fields, keyword-only fields, ``__post_init__``), ``__repr__`` shows the ``repr=True`` fields,
``__eq__`` compares the ``compare=True`` fields as tuples when both are of the same class,
``__hash__`` hashes the ``hash`` (or ``compare``) fields as a tuple. Assigning or deleting an
attribute raises ``FrozenInstanceError`` (one shared ``__setattr__``, not one compiled a class);
pickling and ``copy`` go through ``__getstate__``/``__setstate__`` as a frozen dataclass's do. The
dataclass module is told ``frozen=False`` (that is what spares the two functions a class), so
:func:`is_record`, not ``__dataclass_params__.frozen``, says that a record never changes.
``tests/test_records.py`` compares a record with the dataclass, method for method.
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_OBJECT_SETATTR = object.__setattr__


class _HasFactory:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _HasFactory()


def record(cls: type[T] | None = None, /, *, kw_only: bool = False, slots: bool = True) -> Any:
    """A frozen dataclass (slotted unless ``slots=False``) with its methods written on first use
    (see the module)."""

    def wrap(c: type[T]) -> type[T]:
        # what the class writes itself stays (as with dataclass); a __hash__ of None is Python's
        # own when the class writes __eq__ alone
        own = {name for name in _WRITERS if c.__dict__.get(name) is not None}
        # frozen=False here: the dataclass module would compile a __setattr__ and a __delattr__
        # for each class; a record's are the two shared ones below (and so its pickling state)
        c = dataclasses.dataclass(c, frozen=False, slots=slots, kw_only=kw_only,
                                  init=False, repr=False, eq=False)
        c.__setattr__ = _frozen_setattr  # type: ignore[method-assign,assignment]
        c.__delattr__ = _frozen_delattr  # type: ignore[method-assign,assignment]
        if slots:
            c.__getstate__ = _getstate  # type: ignore[attr-defined]
            c.__setstate__ = _setstate  # type: ignore[attr-defined]
        for name in _WRITERS:
            if name not in own:
                setattr(c, name, _stand_in(c, name))
        return c

    return wrap if cls is None else wrap(cls)


def is_record(cls: type) -> bool:
    """Whether ``cls`` is a record (frozen: its instances never change, so they may be shared)."""
    return getattr(cls, "__setattr__", None) is _frozen_setattr


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        _OBJECT_SETATTR(self, f.name, value)


def _stand_in(cls: type, name: str) -> Callable[..., Any]:
    def first(self: Any, *args: Any, **kwargs: Any) -> Any:
        real = written(cls, name)
        return real(self, *args, **kwargs)

    first.__name__ = first.__qualname__ = name
    first.__stand_in__ = True  # type: ignore[attr-defined]
    return first


def written(cls: type, name: str) -> Callable[..., Any]:
    """The real method ``name`` of the record ``cls``, written and put on the class (once)."""
    current = cls.__dict__.get(name)
    if current is not None and not getattr(current, "__stand_in__", False):
        return current
    fn = _WRITERS[name](cls, dataclasses.fields(cls))
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)
    return fn


def _compile(name: str, args: str, body: list[str], env: dict[str, Any]) -> Callable[..., Any]:
    src = f"def {name}({args}):\n" + "\n".join("    " + line for line in body)
    exec(src, env)  # noqa: S102  (source built from the class's own field names)
    return env[name]


def _init(cls: type, fields: tuple[dataclasses.Field, ...]) -> Callable[..., Any]:
    env: dict[str, Any] = {"__set": _OBJECT_SETATTR, "__HAS_FACTORY": _HAS_FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.init:
            if f.default is not MISSING:
                env[f"__d_{f.name}"] = f.default
                param = f"{f.name}=__d_{f.name}"
            elif f.default_factory is not MISSING:
                param = f"{f.name}=__HAS_FACTORY"
            else:
                param = f.name
            (keyword if f.kw_only else positional).append(param)
        if f.default_factory is not MISSING:
            env[f"__f_{f.name}"] = f.default_factory
            if f.init:
                value = f"__f_{f.name}() if {f.name} is __HAS_FACTORY else {f.name}"
            else:
                value = f"__f_{f.name}()"
        elif f.init:
            value = f.name
        elif f.default is not MISSING:
            env[f"__d_{f.name}"] = f.default
            value = f"__d_{f.name}"
        else:
            continue  # an init=False field with no default is left unset, as dataclasses does
        body.append(f"__set(self, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    args = ", ".join(["self", *positional] + (["*", *keyword] if keyword else []))
    return _compile("__init__", args, body or ["pass"], env)


def _repr(cls: type, fields: tuple[dataclasses.Field, ...]) -> Callable[..., Any]:
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields if f.repr)
    return _compile("__repr__", "self", [f'return f"{{self.__class__.__qualname__}}({shown})"'], {})


def _tuple(of: str, names: list[str]) -> str:
    return "(" + "".join(f"{of}.{n}," for n in names) + ")"


def _eq(cls: type, fields: tuple[dataclasses.Field, ...]) -> Callable[..., Any]:
    names = [f.name for f in fields if f.compare]
    body = ["if other.__class__ is self.__class__:",
            f"    return {_tuple('self', names)} == {_tuple('other', names)}",
            "return NotImplemented"]
    return _compile("__eq__", "self, other", body, {})


def _hash(cls: type, fields: tuple[dataclasses.Field, ...]) -> Callable[..., Any]:
    names = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
    return _compile("__hash__", "self", [f"return hash({_tuple('self', names)})"], {})


_WRITERS: dict[str, Callable[[type, tuple[dataclasses.Field, ...]], Callable[..., Any]]] = {
    "__init__": _init, "__repr__": _repr, "__eq__": _eq, "__hash__": _hash,
}
