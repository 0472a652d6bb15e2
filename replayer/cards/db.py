"""The card database: imported card facts, each with its source, in ``cards.db`` beside the library.

Tables (sqlite-utils):

* ``cards`` — one row a card: ``id`` (``ygo:<passcode>`` or ``dm:<name key>``), ``game``, ``name``
  (the English name, else the first one), ``kind``, ``atk``, ``def``, ``level``, ``power``, ``props``
  (card-level words, JSON), ``effects`` (JSON list: words, the Damage Step timings the simulator
  allows, the facts read and where from), ``sources`` (JSON: fact -> source), ``complete``.
* ``names`` — ``key`` (:func:`~replayer.cards.names.name_key`), ``card_id``, ``lang``, ``name``.
* ``files`` — each file read, with its size and mtime, so that a re-import reads what changed.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sqlite_utils is imported by the writer only: reading uses sqlite3 (start-up time)
    from sqlite_utils import Database

from ..catalog import CardInfo
from .names import Suggester, name_key

SCHEMA_VERSION = 1


def default_cards_path() -> Path:
    """``cards.db`` in the user data folder, beside the match library (``store.default_library_path``,
    not imported from there: the store loads sqlite-utils, which every ``replayer check`` asks this)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("replayer")) / "cards.db"


@dataclass(frozen=True)
class ImportedCard(CardInfo):
    """A card from the card database: a :class:`CardInfo` that knows where its facts came from."""

    source: str = ""  # the card's main source (a cdb row, a script, a JSON file)
    sources: tuple[tuple[str, str], ...] = ()  # (fact, source)
    effect_sources: tuple[str, ...] = ()  # per effect: "c37742478.lua:15 (script)"
    effect_timings: tuple[frozenset[str], ...] = ()  # per effect: the Damage Step timings allowed
    effect_details: tuple[dict, ...] = ()

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["from"] = self.source
        out["sources"] = dict(self.sources)
        if self.effects:
            timings = self.effect_timings or (None,) * len(self.effects)  # (Yu-Gi-Oh! data only)
            out["effects"] = [
                {"props": sorted(e), "from": src,
                 **({"damage_step": sorted(t, key=_TIMING_ORDER.index)} if t is not None else {}), **detail}
                for e, src, t, detail in zip(self.effects, self.effect_sources, timings, self.effect_details)
            ]
        return out


_TIMING_ORDER = ["ds-start", "before-calc", "calc", "after-calc", "ds-end"]


class CardDB:
    """The card database at ``path`` (created when written to)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None
        self._suggesters: dict[str, Suggester] = {}
        self._cache: dict[tuple[str, str], ImportedCard | None] = {}
        self._by_id: dict[str, ImportedCard] = {}

    # ---- writing ------------------------------------------------------------------------
    def writer(self) -> Database:
        from sqlite_utils import Database

        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = Database(sqlite3.connect(str(self.path)))
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        if "cards" not in db.table_names():
            db["cards"].create({"id": str, "game": str, "passcode": int, "name": str, "kind": str, "atk": int,
                                "def": int, "level": int, "power": int, "props": str, "effects": str,
                                "sources": str, "source": str, "complete": int}, pk="id")
            db["names"].create({"key": str, "card_id": str, "game": str, "lang": str, "name": str},
                               pk=("key", "card_id", "lang"))
            db["names"].create_index(["game", "key", "card_id"])  # covering: a lookup reads the index only
            db["names"].create_index(["card_id"])
            db["files"].create({"path": str, "size": int, "mtime_ns": int, "cards": int, "problems": str},
                               pk="path")
            db["meta"].create({"key": str, "value": str}, pk="key")
            db["meta"].insert({"key": "schema", "value": str(SCHEMA_VERSION)})
        self.close()
        return db

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._cache.clear()
        self._suggesters.clear()
        self._by_id.clear()

    # ---- reading ------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.path.is_file()

    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        return self._conn

    def find(self, game: str, name: str) -> ImportedCard | None:
        """The card of ``game`` with this name in any of its forms."""
        key = name_key(name)
        hit = self._cache.get((game, key), _MISS)
        if hit is not _MISS:
            return hit  # type: ignore[return-value]
        try:
            card_id = self.card_id(game, name)
            card = self._by_id.get(card_id) if card_id else None
            if card is None and card_id:
                card = self._by_id[card_id] = self.get(card_id)
        except (sqlite3.Error, ValueError, KeyError) as e:  # not a card database (any more): the built-in catalog only
            self._broken(e)
            card = None
        self._cache[(game, key)] = card
        return card

    def card_id(self, game: str, name: str) -> str | None:
        """The id of the card with this name (an indexed query; no names are read ahead)."""
        ids = self.conn().execute("SELECT card_id FROM names WHERE game = ? AND key = ?",
                                  (game, name_key(name))).fetchall()
        if len(ids) <= 1:
            return ids[0][0] if ids else None
        # several cards share the name (reprints, Goat versions): a completely read one, the lowest passcode
        marks = ", ".join("?" * len(ids))
        row = self.conn().execute(f"SELECT id FROM cards WHERE id IN ({marks}) ORDER BY complete DESC, passcode "
                                  "LIMIT 1", [i for (i,) in ids]).fetchone()
        return row[0] if row else None

    def get(self, card_id: str) -> ImportedCard | None:
        row = self.conn().execute("SELECT * FROM cards WHERE id = ?", (card_id,)).fetchone()
        return self._card(row) if row else None

    def search(self, game: str, text: str, limit: int = 20) -> list[ImportedCard]:
        exact = self.find(game, text)
        if exact:
            return [exact]
        key = name_key(text)
        if not key:
            return []
        rows = self.conn().execute(
            "SELECT DISTINCT card_id FROM names WHERE game = ? AND key LIKE ? LIMIT ?",
            (game, f"%{key}%", limit)).fetchall()
        return [c for (cid,) in rows if (c := self.get(cid)) is not None]

    def names(self, game: str) -> list[str]:
        return [n for (n,) in self.conn().execute("SELECT name FROM names WHERE game = ?", (game,))]

    def keyed_names(self, game: str) -> list[tuple[str, str]]:
        try:
            return self.conn().execute("SELECT key, name FROM names WHERE game = ?", (game,)).fetchall()
        except sqlite3.Error as e:
            self._broken(e)
            return []

    _warned = False

    def _broken(self, error: Exception) -> None:
        if not self._warned:
            self._warned = True
            import sys

            print(f"replayer: the card database {self.path} cannot be read ({error}); "
                  "judging by the built-in catalog only", file=sys.stderr)

    def suggester(self, game: str) -> Suggester:
        s = self._suggesters.get(game)
        if s is None:
            s = self._suggesters[game] = Suggester([], self.keyed_names(game))
        return s

    def counts(self) -> dict[str, int]:
        out = {}
        for game, n in self.conn().execute("SELECT game, count(*) FROM cards GROUP BY game"):
            out[game] = n
        return out

    _COLUMNS: tuple[str, ...] = ()

    def _card(self, row) -> ImportedCard:
        cols = [d[0] for d in self.conn().execute("SELECT * FROM cards LIMIT 0").description] \
            if not CardDB._COLUMNS else CardDB._COLUMNS
        CardDB._COLUMNS = tuple(cols)
        r = dict(zip(cols, row))
        return card_from_row(r, self._names_of(r["id"]))

    def _names_of(self, card_id: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for lang, name in self.conn().execute("SELECT lang, name FROM names WHERE card_id = ? ORDER BY rowid",
                                              (card_id,)):
            out.setdefault(lang, name)
        return out


_MISS = object()


def card_from_row(r: dict, names: dict[str, str]) -> ImportedCard:
    effects = json.loads(r["effects"] or "[]")
    props = frozenset(json.loads(r["props"] or "[]"))
    display = {k: v for k, v in names.items() if k in ("en", "ja", "de")}
    aliases = tuple(v for k, v in names.items() if k not in ("en", "ja", "de"))
    return ImportedCard(
        id=r["name"], game=r["game"], names=display or {"en": r["name"]}, kind=r["kind"], atk=r["atk"],
        def_=r["def"], level=r["level"], power=r["power"], props=props,
        effects=tuple(frozenset(e["props"]) for e in effects),
        aliases=aliases, source=r["source"] or "",
        sources=tuple(sorted(json.loads(r["sources"] or "{}").items())),
        effect_sources=tuple(e.get("from", "") for e in effects),
        # (the Damage Step timings the simulator allows: Yu-Gi-Oh! data only)
        effect_timings=tuple(frozenset(e["damage_step"]) for e in effects) if all("damage_step" in e for e in effects)
        else (),
        effect_details=tuple({k: v for k, v in e.items() if k not in ("props", "from", "damage_step")}
                             for e in effects),
    )


@lru_cache(maxsize=8)
def open_cards(path: str) -> CardDB | None:
    """The card database at ``path`` if it exists (one object per path and process)."""
    db = CardDB(path)
    return db if db.exists() else None
