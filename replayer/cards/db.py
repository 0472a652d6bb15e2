"""The card database: imported card facts, each with its source, in ``cards.db`` beside the library.

Tables (sqlite-utils):

* ``cards`` — one row a card: ``id`` (``ygo:<passcode>`` or ``dm:<name key>``), ``game``, ``name``
  (the English name, else the first one), ``kind``, ``atk``, ``def``, ``level``, ``power``, ``props``
  (card-level words, JSON), ``effects`` (JSON list: words, the Damage Step timings the simulator
  allows, the facts read and where from), ``sources`` (JSON: fact -> source), ``complete``.
* ``names`` — ``key`` (:func:`~replayer.cards.names.name_key`), ``card_id``, ``lang``, ``name``.
* ``files`` — each file read, with its size and mtime, so that a re-import reads what changed.
* ``meta`` — the schema version, the kind, the reader's version and, ``suggest:<game>``, the names of
  a game ready for "did you mean" (:class:`~replayer.cards.nameindex.SuggestIndex`, written by each
  import; a database without it, or with one of other names, is read the slow way).
"""

from __future__ import annotations

import json
import os
import sqlite3
from functools import lru_cache
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sqlite_utils is imported by the writer only: reading uses sqlite3 (start-up time)
    from sqlite_utils import Database

from ..catalog import CardInfo
from ..errors import ReplayerError
from ..i18n import M, Said, current
from ..records import record
from ..safe import visible
from .nameindex import SuggestIndex
from .names import Suggester, name_key

#: 1: the tables; 2: created in one transaction, and marked as a card database (meta kind)
SCHEMA_VERSION = 2
KIND = "replayer cards"
#: the card database's tables, each made by one statement; all of them in one transaction
SCHEMA = {
    "cards": "CREATE TABLE [cards] ([id] TEXT PRIMARY KEY, [game] TEXT, [passcode] INTEGER, [name] TEXT, [kind] TEXT, "
             "[atk] INTEGER, [def] INTEGER, [level] INTEGER, [power] INTEGER, [props] TEXT, [effects] TEXT, "
             "[sources] TEXT, [source] TEXT, [complete] INTEGER)",
    "names": "CREATE TABLE [names] ([key] TEXT, [card_id] TEXT, [game] TEXT, [lang] TEXT, [name] TEXT, "
             "PRIMARY KEY ([key], [card_id], [lang]))",
    "files": "CREATE TABLE [files] ([path] TEXT PRIMARY KEY, [size] INTEGER, [mtime_ns] INTEGER, [cards] INTEGER, "
             "[problems] TEXT)",
    "meta": "CREATE TABLE [meta] ([key] TEXT PRIMARY KEY, [value] TEXT)",
}
INDEXES = ("CREATE INDEX [idx_names_game_key_card_id] ON [names] ([game], [key], [card_id])",  # covering: a lookup
           "CREATE INDEX [idx_names_card_id] ON [names] ([card_id])")                        # reads the index only
COLUMNS = {"cards": ("id", "game", "passcode", "name", "kind", "atk", "def", "level", "power", "props", "effects",
                     "sources", "source", "complete"),
           "names": ("key", "card_id", "game", "lang", "name"),
           "files": ("path", "size", "mtime_ns", "cards", "problems"), "meta": ("key", "value")}


def _say(message) -> str:
    """A message for the user in the chosen language (``--lang``, REPLAYER_LANG, the locale)."""
    return message.render(current())


class CardDBError(ReplayerError):
    """A card database that cannot be written: read-only, not a card database, or made by a newer replayer."""


def schema_state(conn: sqlite3.Connection) -> tuple[str, str]:
    """(state, detail) of the database on ``conn``: ``ok``; ``empty`` (no tables); ``old`` (schema 1, whole);
    ``incomplete`` (some card tables, a kill while they were made: rebuilt); ``foreign`` (another database's
    tables, a match library); ``newer`` (a newer replayer's)."""
    tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
              if not n.startswith("sqlite_")}
    if not tables:
        return "empty", ""
    foreign = sorted(tables - set(SCHEMA))
    if foreign:
        return "foreign", ", ".join(foreign[:6]) + (" …" if len(foreign) > 6 else "")
    if tables != set(SCHEMA):
        return "incomplete", Said(M("missing {tables}", tables=", ".join(sorted(set(SCHEMA) - tables))))
    for table, cols in COLUMNS.items():
        if tuple(r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")) != cols:
            return "incomplete", Said(M("the table {table} has other columns", table=table))
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('schema', 'kind')").fetchall())
    version = meta.get("schema")
    if version is None:
        return "incomplete", Said(M("no schema version"))
    if not str(version).isdigit():
        return "incomplete", Said(M("schema version {version}", version=repr(version)))
    if int(version) > SCHEMA_VERSION:
        return "newer", str(version)
    if int(version) < SCHEMA_VERSION or meta.get("kind") != KIND:
        return "old", str(version)
    return "ok", ""


def _build_schema(conn: sqlite3.Connection, state: str) -> None:
    """The schema made (or an incomplete one made again, or an old one marked) in one transaction: a kill
    leaves the database as it was before, never a part of the tables."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if state != "old":
            for table in SCHEMA:  # (an incomplete database holds no cards worth keeping: a re-import reads all)
                conn.execute(f"DROP TABLE IF EXISTS [{table}]")
            for sql in (*SCHEMA.values(), *INDEXES):
                conn.execute(sql)
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?), ('kind', ?)",
                     (str(SCHEMA_VERSION), KIND))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _is_read_only(error: Exception) -> bool:
    text = str(error).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


@record(slots=False)
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
        self._bad_rows: set[object] = set()  # the rows said to be of the wrong shape (each said once)

    # ---- writing ------------------------------------------------------------------------
    def writer(self) -> Database:
        """The database to write, its schema whole. Raises :class:`CardDBError` for a read-only database (or
        folder), a file that is not a card database (a match library), or one made by a newer replayer."""
        from sqlite_utils import Database

        self.close()
        return Database(self._open_writable())

    def prepare(self) -> None:
        """Check that the database can be written, make or repair its schema (before a long import reads)."""
        self._open_writable().close()

    def _open_writable(self) -> sqlite3.Connection:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CardDBError(_say(M("{path}: its folder cannot be made ({error})", path=str(path),
                                     error=str(e.strerror or e)))) from None
        if not _writable(path):
            raise CardDBError(_say(M("{path}: the card database is read-only; importing needs a writable one "
                                     "(--cards-db PATH chooses another)", path=str(path))))
        conn = None
        try:
            conn = sqlite3.connect(str(path), timeout=30)
            state, detail = schema_state(conn)
            if state == "foreign":
                raise CardDBError(_say(M("{path}: not a card database (it holds the tables {detail}: a match library?); "
                                         "nothing was written to it (--cards-db PATH chooses the card database)",
                                         path=str(path), detail=detail)))
            if state == "newer":
                raise CardDBError(_say(M("{path}: a card database of a newer replayer (schema {detail}); nothing was "
                                         "written to it", path=str(path), detail=detail)))
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            if state != "ok":
                if state == "incomplete":
                    import sys

                    print(visible(_say(M("replayer: the card database {path} was incomplete ({detail}): made again",
                                         path=str(path), detail=detail))), file=sys.stderr)
                _build_schema(conn, state)
            return conn
        except sqlite3.DatabaseError as e:
            if conn is not None:
                conn.close()
            if _is_read_only(e):
                raise CardDBError(_say(M("{path}: the card database is read-only ({error}); importing needs a writable "
                                         "one (--cards-db PATH chooses another)", path=str(path), error=str(e)))) from None
            raise CardDBError(_say(M("{path}: not a card database ({error}); nothing was written to it", path=str(path),
                                     error=str(e)))) from None
        except CardDBError:
            if conn is not None:
                conn.close()
            raise

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
        """The card with this id; None (said once on stderr) when its row cannot be used."""
        row = self.conn().execute("SELECT * FROM cards WHERE id = ?", (card_id,)).fetchone()
        if not row:
            return None
        try:
            return self._card(row)
        except BadCardRow as e:
            self._bad_row(card_id, e)
            return None

    def _bad_row(self, card_id: object, error: Exception) -> None:
        if card_id in self._bad_rows:
            return
        self._bad_rows.add(card_id)  # type: ignore[arg-type]
        import sys

        print(visible(_say(M("replayer: the card database {path}: the row of {id} cannot be used ({error}); the card is "
                             "taken as unknown (`replayer cards import` writes it again)", path=str(self.path),
                             id=str(card_id), error=str(error)))), file=sys.stderr)

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
            return [(k, n) for k, n in self.conn().execute("SELECT key, name FROM names WHERE game = ?", (game,))
                    if isinstance(k, str) and isinstance(n, str)]
        except sqlite3.Error as e:
            self._broken(e)
            return []

    _warned = False

    def _broken(self, error: Exception) -> None:
        if not self._warned:
            self._warned = True
            import sys

            print(visible(_say(M("replayer: the card database {path} cannot be read ({error}); judging by the built-in "
                                 "catalog only", path=str(self.path), error=str(error)))), file=sys.stderr)

    def suggest_index(self, game: str) -> SuggestIndex | None:
        """The names of ``game`` ready for "did you mean" as the last import wrote them, or None (an older
        database, or names changed since: then :meth:`keyed_names` is what the suggester takes)."""
        try:
            row = self.conn().execute("SELECT value FROM meta WHERE key = ?", (f"suggest:{game}",)).fetchone()
            if row is None:
                return None
            (rows,) = self.conn().execute("SELECT count(*) FROM names WHERE game = ?", (game,)).fetchone()
        except sqlite3.Error:
            return None
        return SuggestIndex.from_bytes(row[0], rows)

    def suggester(self, game: str, names: list[str] = ()) -> Suggester:
        """The suggester of ``game``'s names and ``names`` (the built-in catalog's)."""
        s = self._suggesters.get(game)
        if s is None:
            index = self.suggest_index(game)
            s = self._suggesters[game] = Suggester(list(names), [] if index is not None else self.keyed_names(game), index)
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
            if isinstance(lang, str) and isinstance(name, str):  # (a damaged row: not a name)
                out.setdefault(lang, name)
        return out


_MISS = object()


def _writable(path: Path) -> bool:
    """Whether this process may write the database at ``path`` and its folder (which holds the WAL files)."""
    if path.exists():
        return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    return os.access(path.parent, os.W_OK)


class BadCardRow(ValueError):
    """A ``cards`` row of another shape than this replayer writes (a damaged database, another version's)."""


def _json(text, what: str, kind: type):
    try:
        value = json.loads(text) if text is not None else kind()
    except (TypeError, ValueError, RecursionError):
        raise BadCardRow(f"{what} is not JSON") from None
    if not isinstance(value, kind):
        raise BadCardRow(f"{what} is a JSON {type(value).__name__}, not a {kind.__name__}")
    return value


def _strings(value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadCardRow(f"{what} is not a list of words")
    return value


def card_from_row(r: dict, names: dict[str, str]) -> ImportedCard:
    """The card of a ``cards`` row; :class:`BadCardRow` when the row is not of the shape written here."""
    for col, kind in (("name", str), ("game", str), ("kind", str), ("atk", int), ("def", int), ("level", int),
                      ("power", int), ("source", str)):
        value = r.get(col)
        if value is not None and (type(value) is not kind) or (value is None and col in ("name", "game")):
            raise BadCardRow(f"{col} is {type(value).__name__}")
    effects = _json(r["effects"], "effects", list)
    for i, e in enumerate(effects, 1):
        if not isinstance(e, dict):
            raise BadCardRow(f"effect {i} is a JSON {type(e).__name__}, not an object")
        _strings(e.get("props"), f"effect {i}'s props")
        if "damage_step" in e:
            _strings(e["damage_step"], f"effect {i}'s damage_step")
        if not isinstance(e.get("from", ""), str):
            raise BadCardRow(f"effect {i}'s from is not text")
    _strings(_json(r["props"], "props", list), "props")
    sources = _json(r["sources"], "sources", dict)
    if not all(isinstance(v, str) for v in sources.values()):
        raise BadCardRow("sources is not an object of texts")
    return _card_from_row(r, names)


def _card_from_row(r: dict, names: dict[str, str]) -> ImportedCard:
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


def write_suggest_index(conn: sqlite3.Connection, keep: bool = False) -> None:
    """Write each game's :class:`SuggestIndex` into ``meta`` (in the caller's transaction) from the names
    as :meth:`CardDB.keyed_names` reads them; ``keep``: leave an index of the same names as it is."""
    games = [g for (g,) in conn.execute("SELECT DISTINCT game FROM names") if isinstance(g, str)]
    for game in games:
        (rows,) = conn.execute("SELECT count(*) FROM names WHERE game = ?", (game,)).fetchone()
        if keep:
            old = conn.execute("SELECT value FROM meta WHERE key = ?", (f"suggest:{game}",)).fetchone()
            if old is not None and SuggestIndex.from_bytes(old[0], rows) is not None:
                continue
        keyed = [(k, n) for k, n in conn.execute("SELECT key, name FROM names WHERE game = ?", (game,))
                 if isinstance(k, str) and isinstance(n, str)]
        blob = SuggestIndex.of(keyed).to_bytes(rows)
        if blob is None:
            conn.execute("DELETE FROM meta WHERE key = ?", (f"suggest:{game}",))
        else:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"suggest:{game}", blob))
    marks = ", ".join("?" * len(games))
    conn.execute(f"DELETE FROM meta WHERE key LIKE 'suggest:%' AND substr(key, 9) NOT IN ({marks})", games)


@lru_cache(maxsize=8)
def open_cards(path: str) -> CardDB | None:
    """The card database at ``path`` if it exists (one object per path and process)."""
    db = CardDB(path)
    return db if db.exists() else None
