"""The line shapes a reader has parsed, kept between runs: a warm start reads without lark.

A line's *shape* (:mod:`replayer.templates`: the line with its card names and numbers replaced)
parses to the same event every time, and a user's logs repeat a few hundred shapes. Parsing a
shape is the reader's slowest step at start-up: importing lark, loading its tables and compiling
one lexer per parser state costs about a tenth of a second before the first line is read. So
each game's reader keeps the events of the shapes it parsed in a small file, and reads a shape
found there without the parser (lark is then not imported at all). A line that has no shape to
fill in (no card name or number, like ``timing calc``; or a template that cannot be used, like
``revolution 0 "X"``) is kept as the line itself (padded to its column): an entry is always a text
and the event that text parses to.

- **Where:** the user's private cache folder (:func:`replayer.cache.private_cache_dir`: made
  0700, refused if someone else owns it or may write it). Nothing is kept when there is none.
- **What:** JSON, never pickle: a shape's template text and its event as plain values (the event
  class's name, from :mod:`replayer.events` only, and its fields: strings, numbers, None, tuples
  and card mentions). A file that does not read as exactly that is ignored and written afresh; an
  entry that does not decode is skipped. Whatever it holds, a template is still checked
  (:meth:`Template.from_event`) before it is used.
- **When it is stale:** the file's name carries a digest of everything that decides a parse (the
  game's grammar and core.lark, and the sources of the reader, the transformer, the templates and
  the events): a change to any of them reads a new file.
- **How big:** at most :data:`LIMIT` shapes (the ones used most recently first), written once, when
  the process ends, and only if it parsed a shape the file did not have. Two processes writing at
  once each replace the file whole (``os.replace``): the last one's is kept.
- ``REPLAYER_SHAPES=off`` in the environment keeps nothing (and reads nothing).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import events as ev
from .cache import Kept, private_cache_dir

if TYPE_CHECKING:
    from .games import Game

#: the environment variable that turns the kept shapes off (``off``, ``0``, ``no``)
ENV = "REPLAYER_SHAPES"
#: the most shapes a game's file keeps (~150 bytes each: a file of ~0.5 MB reads in a few ms)
LIMIT = 4000
#: the format of the file (its name's digest covers it)
FORMAT = "1"
#: the modules whose source decides what a shape parses to
_SOURCES = ("events", "transform", "templates", "lines", "shapes")

_CLASSES: dict[str, type] = {
    name: obj for name, obj in vars(ev).items()
    if isinstance(obj, type) and issubclass(obj, ev.Event) and obj.__module__ == ev.__name__
}
#: the entry of a shape whose text does not parse as an event (a template's: its lines are parsed
#: as they are, and kept as they are)
NO_EVENT: list = []
_CARD_FIELDS = ("name", "copy", "atk", "def_", "power", "props", "column", "end_column")


class _Unkept(Exception):
    """A value the file cannot hold (the shape is then parsed afresh next time)."""


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, ev.CardRef):
        return {"card": [_encode(getattr(value, f)) for f in _CARD_FIELDS]}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    raise _Unkept(type(value).__name__)


def _decode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("card"), list):
        parts = value["card"]
        if len(parts) != len(_CARD_FIELDS):
            raise _Unkept("card")
        card = ev.CardRef(**{f: _decode(v) for f, v in zip(_CARD_FIELDS, parts)})
        if not isinstance(card.name, str) or not all(isinstance(p, str) for p in card.props):
            raise _Unkept("card")
        return card
    raise _Unkept(type(value).__name__)


def encode_event(event: ev.Event, names: tuple[str, ...]) -> list | None:
    """``[class name, value…]`` of an event's fields ``names``, or None if one cannot be kept."""
    cls = type(event)
    if _CLASSES.get(cls.__name__) is not cls:
        return None
    try:
        return [cls.__name__, *(_encode(getattr(event, n)) for n in names)]
    except _Unkept:
        return None


def decode_event(entry: Any, own_fields) -> ev.Event | None:
    """The event an entry of the file holds (its span, timecode and notes the defaults), or None."""
    if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
        return None
    cls = _CLASSES.get(entry[0])
    if cls is None:
        return None
    names = own_fields(cls)
    if len(entry) != len(names) + 1:
        return None
    try:
        values = {n: _decode(v) for n, v in zip(names, entry[1:])}
        return cls(**values)
    except (_Unkept, TypeError, ValueError):
        return None


def enabled() -> bool:
    return os.environ.get(ENV, "").strip().casefold() not in ("off", "0", "no", "false")


class Shapes:
    """One game's kept shapes: text -> encoded event (or :data:`NO_EVENT`)."""

    def __init__(self, kept: Kept):
        self.kept = kept

    @property
    def path(self) -> Path | None:
        return self.kept.path

    @classmethod
    def open(cls, game: "Game") -> "Shapes":
        """The kept shapes of ``game`` (none, and nothing kept, without a private cache folder)."""
        folder = private_cache_dir() if enabled() else None
        path = folder / f"{game.id}-shapes-{_digest(game)}.json" if folder is not None else None
        return cls(Kept(path, limit=LIMIT, replaces=f"{game.id}-shapes-*.json", valid=_is_entry))

    def get(self, text: str) -> Any:
        return self.kept.get(text)

    def add(self, text: str, event: ev.Event, names: tuple[str, ...]) -> None:
        if self.kept.path is None or text in self.kept.entries:
            return
        entry = encode_event(event, names)
        if entry is not None:
            self.kept.put(text, entry)

    def add_no_event(self, text: str) -> None:
        """Keep that a shape's text does not parse as an event (its lines are parsed as they are)."""
        if self.kept.path is not None and text not in self.kept.entries:
            self.kept.put(text, NO_EVENT)

    def drop(self, text: str) -> None:
        """Forget an entry that does not decode."""
        self.kept.drop(text)


def _is_entry(value: Any) -> bool:
    return isinstance(value, list)


def _digest(game: "Game") -> str:
    h = hashlib.sha256(FORMAT.encode())
    h.update(game.grammar_text().encode("utf-8"))
    try:
        h.update((game.grammar_folder / "core.lark").read_bytes())
    except OSError:
        pass
    for name in _SOURCES:  # (the reader's modules, beside this one)
        try:
            h.update(Path(__file__).with_name(f"{name}.py").read_bytes())
        except OSError:
            h.update(name.encode())
    return h.hexdigest()[:16]
