"""``records.record`` against ``dataclasses.dataclass(frozen=True, slots=True)``: the same class, method for method."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from replayer import events as ev
from replayer.records import is_record, record


def _pair(kw_only: bool = False):
    def body():
        class Base:
            a: int
            b: str = "x"
            c: tuple[int, ...] = field(default_factory=tuple)
            d: int = field(default=4, compare=False, repr=False)
            e: list = field(default_factory=list, hash=False, compare=True)
            f: int = field(default=9, init=False)
        return Base

    real = dataclass(frozen=True, slots=True, kw_only=kw_only)(body())
    ours = record(kw_only=kw_only)(body())
    return real, ours


def _same(x, y):
    assert repr(x) == repr(y)
    assert dataclasses.astuple(x) == dataclasses.astuple(y)


@pytest.mark.parametrize("kw_only", [False, True])
def test_a_record_behaves_as_the_dataclass(kw_only):
    real, ours = _pair(kw_only)
    assert [f.name for f in dataclasses.fields(real)] == [f.name for f in dataclasses.fields(ours)]
    make = (lambda cls, **k: cls(**k)) if kw_only else (lambda cls, **k: cls(k.pop("a"), **k))
    for kwargs in ({"a": 1}, {"a": 2, "b": "y", "c": (1, 2), "d": 5}, {"a": 3, "e": [1]}):
        x, y = make(real, **kwargs), make(ours, **kwargs)
        _same(x, y)
        # equality and hash follow compare/hash the same way
        x2, y2 = make(real, **kwargs), make(ours, **kwargs)
        assert (x == x2) == (y == y2) is True
        if not kwargs.get("e"):
            assert (hash(x) == hash(x2)) and (hash(y) == hash(y2))
        assert y != make(ours, **dict(kwargs, a=kwargs["a"] + 1))
        assert y == make(ours, **dict(kwargs, d=99))  # d is not compared, as in the dataclass
        assert (y == x) is False  # another class
        for obj in (x, y):
            with pytest.raises(dataclasses.FrozenInstanceError):
                obj.a = 5
            with pytest.raises(dataclasses.FrozenInstanceError):
                del obj.a
        for obj in (x, y):  # slotted (3.11's dataclass raises TypeError here, a later one AttributeError)
            with pytest.raises((AttributeError, TypeError)):
                obj.zzz = 5
        _same(dataclasses.replace(x, b="z"), dataclasses.replace(y, b="z"))
        assert copy.deepcopy(y) == y and copy.copy(y) == y
    with pytest.raises(TypeError):
        ours()  # the field with no default
    with pytest.raises(TypeError):
        ours(f=1) if kw_only else ours(1, f=1)  # an init=False field is not an argument


def test_restart_shares_records():
    from replayer import restart

    assert restart._kind(ev.Attack) == restart._kind(dataclass(frozen=True, slots=True)(type("F", (), {}))) == restart._SHARED


def test_post_init_is_called():
    seen = []

    @record
    class P:
        a: int

        def __post_init__(self):
            seen.append(self.a)

    P(3)
    assert seen == [3]


def test_every_event_class_writes_its_methods():
    classes = [c for c in vars(ev).values() if isinstance(c, type) and dataclasses.is_dataclass(c)]
    assert len(classes) > 30
    for cls in classes:
        required = {f.name: None for f in dataclasses.fields(cls)
                    if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        x = cls(**required) if all(f.kw_only for f in dataclasses.fields(cls)) else cls(*required.values())
        y = dataclasses.replace(x)
        assert x == y and hash(x) == hash(y) and repr(x).startswith(cls.__qualname__ + "(")
        assert pickle.loads(pickle.dumps(x)) == x  # the import's workers send events across
        assert is_record(cls)  # restart.copy_state shares frozen records
