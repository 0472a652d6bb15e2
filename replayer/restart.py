"""Restarting a replay part-way through: a copy of a replay's state before one event.

A re-check while typing (:func:`replayer.check.check_edit`) changes a few lines; the events
before them are the same objects as before, so the state a replay had reached before the first
changed event is the state the new replay reaches there too. The rules model
(:class:`replayer.replay.Model`) and the states' recording (:class:`replayer.states.Replay`)
each keep a :class:`Restart` taken at the event an edit asked for, and a later replay of an
edited text starts from a copy of it instead of from the first event.

:func:`copy_state` is the one copy both use: a deep copy of the plain records a replay keeps
(lists, dicts, sets, mutable dataclasses and ``__slots__`` classes), which keeps their sharing
(a card that is both in a dict and the battle's attacker stays one object), and shares what
cannot change: strings, numbers, enums, tuples, frozensets, frozen dataclasses (events, card
references, findings, catalog entries). A value of any other type is refused (``TypeError``),
so that a new kind of state cannot be restarted from a stale copy by mistake.

>>> s = {"cards": {"x": [1, 2]}, "alias": None}
>>> s["alias"] = s["cards"]["x"]
>>> c = copy_state(s)
>>> c["alias"] is c["cards"]["x"], c["cards"]["x"] is s["cards"]["x"]
(True, False)
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from .records import is_record

# kinds of value: shared as they are, or copied as a list / dict / set / record with a __dict__ /
# record with __slots__
_SHARED, _LIST, _DICT, _SET, _RECORD, _SLOTS = range(6)
_KINDS: dict[type, int] = {str: _SHARED, int: _SHARED, float: _SHARED, bool: _SHARED, type(None): _SHARED,
                           frozenset: _SHARED, tuple: _SHARED, bytes: _SHARED, list: _LIST, dict: _DICT,
                           set: _SET}


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is not None:
        return kind
    if issubclass(cls, (enum.Enum, str, int, float, tuple, frozenset, bytes)):
        kind = _SHARED  # (a tuple subclass: the states' Position and Segment records)
    elif dataclasses.is_dataclass(cls) and (cls.__dataclass_params__.frozen or is_record(cls)):
        kind = _SHARED
    elif "__slots__" in vars(cls) and cls.__dictoffset__ == 0:  # (instances without a __dict__)
        kind = _SLOTS
    elif dataclasses.is_dataclass(cls):
        kind = _RECORD
    else:
        raise TypeError(f"a replay's state holds a {cls.__module__}.{cls.__qualname__}, which replayer "
                        "does not know how to copy for a restart")
    _KINDS[cls] = kind
    return kind


def copy_state(value: Any) -> Any:
    """A copy of ``value`` that shares nothing that can change (see the module's docstring)."""
    kinds = _KINDS
    memo: dict[int, Any] = {}

    def cp(v: Any) -> Any:
        cls = type(v)
        kind = kinds.get(cls)
        if kind is None:
            kind = _kind(cls)
        if kind == _SHARED:
            return v
        hit = memo.get(id(v))
        if hit is not None:
            return hit
        if kind == _LIST:
            new = memo[id(v)] = []
            new.extend([x if kinds.get(type(x)) == _SHARED else cp(x) for x in v])
        elif kind == _DICT:
            new = memo[id(v)] = {}
            for k, x in v.items():  # keys are hashable: shared
                new[k] = x if kinds.get(type(x)) == _SHARED else cp(x)
        elif kind == _SET:
            new = memo[id(v)] = set(v)  # members are hashable: shared
        elif kind == _RECORD:
            new = memo[id(v)] = object.__new__(cls)
            d = v.__dict__.copy()
            for k, x in d.items():
                if kinds.get(type(x)) != _SHARED:
                    d[k] = cp(x)
            new.__dict__.update(d)
        else:
            new = memo[id(v)] = object.__new__(cls)
            for k in _slots(cls):
                try:
                    x = getattr(v, k)
                except AttributeError:
                    continue
                setattr(new, k, x if kinds.get(type(x)) == _SHARED else cp(x))
        return new

    return cp(value)


_SLOT_NAMES: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    names = _SLOT_NAMES.get(cls)
    if names is None:
        out: list[str] = []
        for c in reversed(cls.__mro__):
            s = vars(c).get("__slots__", ())
            out += [s] if isinstance(s, str) else list(s)
        names = _SLOT_NAMES[cls] = tuple(n for n in out if n not in ("__dict__", "__weakref__"))
    return names


@dataclass(frozen=True, eq=False)
class Restart:
    """A replay's state before event ``index`` of the match it replayed (never changed once taken).

    ``key`` is what else that state depends on (the replay's class, the rules, the header) and
    ``catalog`` the card data it was replayed with: a replay restarts from it only with the same
    key, the same catalog object, and the same events before ``index``."""

    index: int
    key: tuple
    catalog: Any
    state: dict[str, Any]
    #: the findings reported before that event, in the order they were reported
    findings: tuple = ()

    def fits(self, key: tuple, catalog: Any, unchanged: int) -> bool:
        """Can a replay with ``key`` and ``catalog``, whose first ``unchanged`` events are this
        one's, start here?"""
        return 0 < self.index <= unchanged and self.catalog is catalog and self.key == key


#: a new restart is taken at an edit unless the one kept is at most this many events before it
#: (replaying those again costs less than copying the state anew)
REUSE_WITHIN = 256


def restart_at(kept: Restart | None, key: tuple, catalog: Any,
               unchanged: int) -> tuple[Restart | None, int | None]:
    """Where a replay of an edit (its first ``unchanged`` events the same) starts, and where it
    keeps a restart for the next edit: ``(the restart to start from or None, the event index to
    take a new one at or None)``."""
    usable = kept if kept is not None and kept.fits(key, catalog, unchanged) else None
    if unchanged <= 0:
        return None, None
    if usable is not None and unchanged - usable.index <= REUSE_WITHIN:
        return usable, None
    return usable, unchanged
