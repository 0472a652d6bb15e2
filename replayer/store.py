"""The match library: every log read, validated and kept in one SQLite database (sqlite-utils).

>>> db = open_library(":memory:")
>>> outcome = import_text(db, '[Game "ygo"]\\n[A "Yuki"]\\nturn 3 A\\nA: draw\\n', path="/logs/one.duel")
>>> outcome.status, db["matches"].count
('new', 1)

The tables read well in Datasette (``datasette library.db``):

``matches``          one row a match (a source path), with the header of its current revision
``match_revisions``  one row each time a changed file was imported; the log text is kept, and
                     its events as one JSON array (``events_json``)
``events``           (a view over ``match_revisions.events_json``) one row a log line that says
                     something happened, with turn/phase/step/timing
``event_cards``      (a view over ``events``) one row a card mentioned on an event line
``match_cards``      one row a card a match revision mentions (``card``: catalog name), with the
                     lines it is on: what ``search --card`` looks up
``findings``         what the reader and the validators said, line by line
``notes``            the ``#`` notes, searchable (``notes_fts``, SQLite FTS5)
``reviews``          the window's verdicts on findings
``current_findings`` (a view) findings of the current revisions with file, players and event

Every imported file is written in one transaction (``Database.atomic``): a match is in the
library whole or not at all, even if the process is killed. The database is in WAL mode so
that the window and the command line can use one library at the same time. The schema is
versioned: migrations (:data:`MIGRATIONS`) are recorded in the ``_sqlite_migrations`` table.
All the SQL of replayer lives in this module.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from sqlite_utils import Database, Migrations

from . import events as ev
from . import games
from .check import check_match
from .errors import LibraryError, ReplayerError, UnreadableFile  # noqa: F401  (re-exported)
from .reader import find_logs, read_bytes  # noqa: F401  (find_logs: part of the API)

#: the migration set of the library schema; each function runs once, in a transaction
MIGRATIONS = Migrations("replayer")
APP_NAME = "replayer"


# ---- where the library lives --------------------------------------------------------------
def default_library_path() -> Path:
    """``library.db`` in the user's data folder (``platformdirs.user_data_dir("replayer")``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME)) / "library.db"


def open_library(path: str | os.PathLike[str] | None = None) -> Database:
    """Open (creating it if need be) the library at ``path``, or the default one.

    The schema is brought up to date, WAL is switched on (not for ``:memory:``).
    Raises :class:`LibraryError` for a file that is not a library, or one made by a newer
    replayer.
    """
    if path is None:
        path = default_library_path()
    name = str(path)
    if name != ":memory:":
        Path(name).parent.mkdir(parents=True, exist_ok=True)
    try:
        db = Database(sqlite3.connect(name, timeout=30))
    except sqlite3.Error as e:
        raise LibraryError(f"{name}: {e}") from None
    try:
        if name != ":memory:":
            db.enable_wal()
            # with WAL, NORMAL never loses a committed transaction to a killed process
            db.execute("PRAGMA synchronous=NORMAL")
        migrate(db)
        catch_up_index(db)
    except sqlite3.DatabaseError as e:
        db.close()
        raise LibraryError(f"{name}: not a replayer library ({e})") from None
    except LibraryError:
        db.close()
        raise
    return db


def migrate(db: Database) -> list[str]:
    """Apply the pending migrations; return the names applied now."""
    _check_known(db)
    pending = [m.name for m in MIGRATIONS.pending(db)]
    if pending:
        try:
            MIGRATIONS.apply(db)
        except (sqlite3.OperationalError, sqlite3.IntegrityError):
            # another process (the window, a second import) migrated at the same time
            if MIGRATIONS.pending(db):
                raise
    return pending


def schema_version(db: Database) -> list[str]:
    """The names of the migrations recorded in the library, in order."""
    return [m.name for m in MIGRATIONS.applied(db)]


def _check_known(db: Database) -> None:
    known = {m.name for m in MIGRATIONS._migrations}
    unknown = [name for name in schema_version(db) if name not in known]
    if unknown:
        raise LibraryError("this library was made by a newer replayer (migrations "
                           + ", ".join(unknown) + "); upgrade replayer to use it")


# ---- schema ---------------------------------------------------------------------------------
#: header-derived columns of ``matches`` and ``match_revisions``, in order
MATCH_COLUMNS = {
    "game": str, "rules": str, "player_a": str, "player_b": str, "event": str, "round": str,
    "table_no": str, "date": str, "header": str, "event_count": int, "error_count": int,
    "warning_count": int, "info_count": int,
}
#: the columns of the rows a file gives, in the order :class:`Prepared` holds them (after the ids)
EVENT_COLUMNS = {
    "seq": int, "line": int, "column": int, "kind": str, "turn": int, "turn_player": str, "phase": str,
    "step": str, "timing": str, "substep": str, "player": str, "player_name": str, "card": str,
    "chain_link": int, "timecode": str, "text": str,
}
CARD_COLUMNS = {"line": int, "position": int, "card": str, "written": str, "copy": int}
FINDING_COLUMNS = {
    "line": int, "column": int, "severity": str, "kind": str, "rule": str, "message": str, "hint": str,
    "cite": str, "player": str, "player_name": str, "card": str,
}
NOTE_COLUMNS = {"line": int, "text": str}
_IDS = {"match_id": int, "revision_id": int}


@MIGRATIONS()
def m001_initial(db: Database) -> None:
    db["matches"].create({
        "id": int, "path": str, "file": str, "revision": int, "revision_id": int, "content_hash": str,
        **MATCH_COLUMNS, "first_imported": str, "imported_at": str,
    }, pk="id", not_null={"path"})
    db["match_revisions"].create({
        "id": int, "match_id": int, "revision": int, "content_hash": str, "path": str,
        **MATCH_COLUMNS, "imported_at": str, "text": str,
    }, pk="id", foreign_keys=[("match_id", "matches", "id")])
    db["matches"].add_foreign_key("revision_id", "match_revisions", "id")
    fks = [("match_id", "matches", "id"), ("revision_id", "match_revisions", "id")]
    db["events"].create({"id": int, **_IDS, **EVENT_COLUMNS}, pk="id", foreign_keys=fks)
    fks.append(("event_id", "events", "id"))
    db["event_cards"].create({"id": int, "event_id": int, **_IDS, **CARD_COLUMNS}, pk="id", foreign_keys=fks)
    db["findings"].create({"id": int, "event_id": int, **_IDS, **FINDING_COLUMNS}, pk="id", foreign_keys=fks)
    db["notes"].create({"id": int, "event_id": int, **_IDS, **NOTE_COLUMNS}, pk="id", foreign_keys=fks)
    db["reviews"].create({
        "id": int, **_IDS, "finding_id": int, "rule": str, "line": int, "source": str, "message": str,
        "verdict": str, "note": str, "reviewer": str, "reviewed_at": str,
    }, pk="id", not_null={"reviewer"}, defaults={"reviewer": ""}, foreign_keys=fks[:2] + [("finding_id", "findings", "id")])
    db["notes"].enable_fts(["text"], create_triggers=True)
    for statement in _INDEXES:
        db.execute(statement)
    db.create_view("current_findings", _CURRENT_FINDINGS_VIEW)


# Few indexes, on purpose: every index is one more page written by each file's commit. The
# search filters on match columns scan match_revisions (one row a match), which is fast.
_INDEXES = [
    "CREATE UNIQUE INDEX idx_matches_path ON matches(path)",
    "CREATE INDEX idx_matches_content_hash ON matches(content_hash)",
    "CREATE INDEX idx_events_revision ON events(revision_id, line)",
    "CREATE INDEX idx_event_cards_card ON event_cards(card COLLATE NOCASE)",
    "CREATE INDEX idx_findings_revision ON findings(revision_id, line)",
    "CREATE INDEX idx_findings_rule ON findings(rule, revision_id)",  # covers a rule search
    "CREATE INDEX idx_reviews_revision ON reviews(revision_id, line)",
]

_CURRENT_FINDINGS_VIEW = """
SELECT f.id, m.path, f.line, f.column, f.severity, f.kind, f.rule, f.message, f.hint, f.cite,
       f.player, f.player_name, f.card, m.game, m.event, m.round, m.table_no, m.date,
       m.player_a, m.player_b, f.match_id, f.revision_id
FROM findings f JOIN matches m ON m.id = f.match_id AND m.revision_id = f.revision_id
"""


# ---- m002: the events of a revision as one JSON array ---------------------------------------------
# Per-event rows were most of the cost of storing a file (~67 ``events`` and ~18 ``event_cards``
# rows a log, each a B-tree insert, and index pages all over the file to write at each commit).
# Since m002 a revision keeps its events as one JSON array, ``match_revisions.events_json``,
# written with the revision row; ``events`` and ``event_cards`` are views over it (SQLite's
# json_each) with the columns of the tables they replace. The card search reads ``match_cards``
# (one row a revision: the distinct cards it mentions) and ``findings.cards`` (the cards on a
# finding's line).

#: the fields of one event in ``events_json`` (an array an event, in this order, the ones most
#: often null last: trailing nulls are left out); an event that mentions cards has one more
#: element: its cards, ``[[card, written, copy], ...]``
EVENT_FIELDS = ("line", "column", "kind", "text", "turn", "turn_player", "phase", "player", "step", "timing",
                "card", "substep", "chain_link", "timecode")
_CARDS_AT = len(EVENT_FIELDS)
_AT = {name: i for i, name in enumerate(EVENT_FIELDS)}
#: the columns of a findings row since m002 (``cards``: JSON array of the cards on its event's line)
FINDING_COLUMNS_M002 = {**FINDING_COLUMNS, "cards": str}

_EVENTS_VIEW = (
    "SELECT r.first_event_id + e.key AS id, r.match_id, r.id AS revision_id, e.key AS seq, "
    + ", ".join(f"e.value ->> {_AT[name]} AS [{name}]" for name in (
        "line", "column", "kind", "turn", "turn_player", "phase", "step", "timing", "substep", "player"))
    + f", CASE e.value ->> {_AT['player']} WHEN 'A' THEN r.player_a WHEN 'B' THEN r.player_b END AS player_name, "
    + ", ".join(f"e.value ->> {_AT[name]} AS [{name}]" for name in ("card", "chain_link", "timecode", "text"))
    + f", e.value -> {_CARDS_AT} AS cards FROM match_revisions r, json_each(r.events_json) e"
)
_EVENT_CARDS_VIEW = (
    "SELECT e.id AS event_id, e.match_id, e.revision_id, e.line, c.key AS position, c.value ->> 0 AS card, "
    "c.value ->> 1 AS written, c.value ->> 2 AS [copy] "
    "FROM events e, json_each(e.cards) c"
)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _json_encoder(item_separator: str = ",", key_separator: str = ":") -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(item_separator, key_separator))`` for the
    values the store writes (lists, dicts, strings, numbers, None), without the set-up
    ``json.dumps`` does at each call."""
    try:
        from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - CPython has the C encoder
        c_make_encoder = None
    if c_make_encoder is None:  # pragma: no cover
        encoder = json.JSONEncoder(ensure_ascii=False, separators=(item_separator, key_separator))
        return encoder.encode
    default = json.JSONEncoder().default
    # markers None: no check for circular values (the store's values are trees)
    chunks = c_make_encoder(None, default, encode_basestring, None, key_separator, item_separator, False, False,
                            True)
    join = "".join

    def dumps(value: Any) -> str:
        return join(chunks(value, 0))

    return dumps


def _fast_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, by orjson (eight times as
    fast on a log's events: 5 µs against 40 µs, the same text); values orjson does not take
    (integers beyond 64 bits) go to the standard library's encoder."""
    fallback = _json_encoder()
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; a platform without its wheel still works
        return fallback
    encode = orjson.dumps

    def dumps(value: Any) -> str:
        try:
            return encode(value).decode()
        except TypeError:  # orjson.JSONEncodeError
            return fallback(value)

    return dumps


_dumps = _fast_encoder()
#: ``json.dumps(value, ensure_ascii=False)`` (the header tags: default separators)
_dumps_header = _json_encoder(", ", ": ")


@MIGRATIONS()
def m002_events_json(db: Database) -> None:
    """Move the ``events`` and ``event_cards`` rows into ``match_revisions.events_json`` (event ids
    kept), make both views; add ``match_cards`` and ``findings.cards``. ``findings.event_id`` and
    ``notes.event_id`` lose their foreign key (a key cannot point into a view)."""
    conn = db.conn
    conn.execute("ALTER TABLE match_revisions ADD COLUMN events_json TEXT")
    conn.execute("ALTER TABLE match_revisions ADD COLUMN first_event_id INTEGER")
    db["match_cards"].create({"revision_id": int, "match_id": int, "cards": str}, pk="revision_id",
                             foreign_keys=[("revision_id", "match_revisions", "id"), ("match_id", "matches", "id")])
    db["notes"].disable_fts()
    db["findings"].add_column("cards", str)
    db["findings"].transform(drop_foreign_keys=["event_id"])
    db["notes"].transform(drop_foreign_keys=["event_id"])
    cards_of: dict[int, list] = {}
    for event_id, card, written, copy in conn.execute(
            "SELECT event_id, card, written, [copy] FROM event_cards ORDER BY event_id, position, id"):
        cards_of.setdefault(event_id, []).append([card, written, copy])
    fields = ", ".join(f"[{name}]" for name in EVENT_FIELDS)
    remap: list[tuple[int, int]] = []
    finding_cards: list[tuple[str, int]] = []
    next_id = 1
    for revision_id, match_id in conn.execute("SELECT id, match_id FROM match_revisions ORDER BY id").fetchall():
        rows = conn.execute(f"SELECT id, {fields} FROM events WHERE revision_id = ? ORDER BY seq, id",
                            [revision_id]).fetchall()
        ids = [row[0] for row in rows]
        first = ids[0] if ids and ids[0] >= next_id and ids == list(range(ids[0], ids[0] + len(ids))) else next_id
        events, mentioned = [], {}
        for i, row in enumerate(rows):
            item = list(row[1:])
            cards = cards_of.get(row[0])
            if cards:
                item.append(cards)
                names = list(dict.fromkeys(c[0] for c in cards))
                finding_cards.append((_dumps(names), row[0]))
                for name in names:
                    mentioned.setdefault(name.translate(_ASCII_LOWER), name)
            events.append(item)
            if row[0] != first + i:
                remap.append((row[0], first + i))
        next_id = first + len(rows)
        conn.execute("UPDATE match_revisions SET events_json = ?, first_event_id = ? WHERE id = ?",
                     [_dumps(events), first, revision_id])
        if mentioned:
            conn.execute(_SQL_MATCH_CARDS, [revision_id, match_id, _dumps(list(mentioned.values()))])
    conn.execute("CREATE TEMP TABLE _event_cards (event_id INTEGER PRIMARY KEY, cards TEXT)")
    conn.executemany("INSERT INTO _event_cards (cards, event_id) VALUES (?, ?)", finding_cards)
    conn.execute("UPDATE findings SET cards = (SELECT c.cards FROM _event_cards c "
                 "WHERE c.event_id = findings.event_id) WHERE event_id IS NOT NULL")
    conn.execute("DROP TABLE _event_cards")
    if remap:
        conn.execute("CREATE TEMP TABLE _event_remap (old INTEGER PRIMARY KEY, new INTEGER)")
        conn.executemany("INSERT INTO _event_remap VALUES (?, ?)", remap)
        for table in ("findings", "notes"):
            conn.execute(f"UPDATE {table} SET event_id = (SELECT new FROM _event_remap WHERE old = event_id) "
                         "WHERE event_id IN (SELECT old FROM _event_remap)")
        conn.execute("DROP TABLE _event_remap")
    db["notes"].enable_fts(["text"], create_triggers=True)
    # new notes are added to notes_fts by the writer (see update_index), not by a trigger
    conn.execute("DROP TRIGGER IF EXISTS [notes_ai]")
    conn.execute("DROP TABLE event_cards")
    conn.execute("DROP TABLE events")
    db.create_view("events", _EVENTS_VIEW)
    db.create_view("event_cards", _EVENT_CARDS_VIEW)
    for statement in _INDEXES_M002:
        conn.execute(statement)


#: indexes of the tables m002 rebuilds (sqlite-utils' transform keeps them; these make sure)
_INDEXES_M002 = [
    "CREATE INDEX IF NOT EXISTS idx_findings_revision ON findings(revision_id, line)",
    # findings(rule, revision_id) went: a rule search scans the findings (small rows: ~40 ms on
    # 10,000 logs), and the index cost every file's commit a page per rule it found
    "DROP INDEX IF EXISTS idx_findings_rule",
]


# ---- m003: a short key for the content-hash lookup ---------------------------------------------
# The duplicate check looks a file's content hash up among the matches. The index on the full
# hash (64 hex digits, a random place in the index each file) cost each file's commit ~2.3 pages
# of the WAL; an index on its first HASH_KEY_LEN digits holds ~5 times as many entries a page
# (~1 page a commit). The lookup compares the whole hash too, so a shared prefix changes nothing.

#: hex digits of the content hash in ``idx_matches_hash_key``
HASH_KEY_LEN = 10
_HASH_KEY = f"substr(content_hash, 1, {HASH_KEY_LEN})"


@MIGRATIONS()
def m003_hash_key(db: Database) -> None:
    """Replace the index on ``matches.content_hash`` by one on its first digits."""
    db.execute("DROP INDEX IF EXISTS idx_matches_content_hash")
    db.execute(f"CREATE INDEX IF NOT EXISTS idx_matches_hash_key ON matches({_HASH_KEY})")


# ---- m004: fewer B-trees written a file ----------------------------------------------------------
# Each B-tree a file's transaction touches costs its commit at least one page of the WAL (the
# last leaf, rewritten each time); at m003 a commit wrote 12.7 pages, of which ``findings``'
# index on revision_id 1.3, ``notes`` 1.0 and ``match_cards`` 1.0. Since m004:
#
# * the findings of a revision have consecutive ids, from ``first_finding_id`` (a column of the
#   revision and of its match) on, as many as its error, warning and info counts: a revision's
#   findings are a range of the table's rowid, and the index went;
# * a revision keeps its notes (``notes_json``) and its cards (``cards``) in its own row, and the
#   search tables made from them (``notes``, ``notes_fts``, ``match_cards``) are filled for many
#   files at once (every INDEX_BATCH files of a bulk import, at its end, and before any search
#   that reads them); ``library_index`` holds the last revision they cover.

@MIGRATIONS()
def m004_finding_ranges(db: Database) -> None:
    """Findings by id range (``first_finding_id``) instead of an index; notes and cards kept in the
    revision row, the search tables filled from them in batches (``library_index``)."""
    conn = db.conn
    for table in ("match_revisions", "matches"):
        conn.execute(f"ALTER TABLE {table} ADD COLUMN first_finding_id INTEGER")
    conn.execute("ALTER TABLE match_revisions ADD COLUMN cards TEXT")
    conn.execute("ALTER TABLE match_revisions ADD COLUMN notes_json TEXT")
    _number_findings_by_revision(conn)
    conn.execute("UPDATE matches SET first_finding_id = "
                 "(SELECT r.first_finding_id FROM match_revisions r WHERE r.id = matches.revision_id)")
    conn.execute("UPDATE match_revisions SET cards = "
                 "(SELECT c.cards FROM match_cards c WHERE c.revision_id = match_revisions.id)")
    notes_of: dict[int, list] = {}
    for revision_id, first_event, event_id, line, text in conn.execute(
            "SELECT n.revision_id, r.first_event_id, n.event_id, n.line, n.text FROM notes n "
            "JOIN match_revisions r ON r.id = n.revision_id ORDER BY n.id").fetchall():
        seq = None if event_id is None or first_event is None else event_id - first_event
        notes_of.setdefault(revision_id, []).append([seq, line, text])
    conn.executemany("UPDATE match_revisions SET notes_json = ? WHERE id = ?",
                     [(_dumps(notes), revision_id) for revision_id, notes in notes_of.items()])
    conn.execute("DROP INDEX IF EXISTS idx_findings_revision")
    db["library_index"].create({"id": int, "revision_id": int}, pk="id", not_null={"revision_id"})
    conn.execute("INSERT INTO library_index (id, revision_id) SELECT 1, coalesce(max(id), 0) FROM match_revisions")


def _number_findings_by_revision(conn: sqlite3.Connection) -> None:
    """Set ``first_finding_id`` of every revision. The writer gave a revision's findings
    consecutive ids, as many as its counts say; where a library (edited by hand, say) has them
    otherwise, every revision gets a block of ids of its own, as long as its counts or its rows
    (whichever is more), in revision order, and the reviews follow their findings."""
    revisions = conn.execute(
        "SELECT r.id, r.error_count + r.warning_count + r.info_count, g.lo, g.hi, coalesce(g.n, 0) "
        "FROM match_revisions r LEFT JOIN (SELECT revision_id, min(id) AS lo, max(id) AS hi, count(*) AS n "
        "FROM findings GROUP BY revision_id) g ON g.revision_id = r.id ORDER BY r.id").fetchall()
    stray = conn.execute("SELECT count(*) FROM findings WHERE revision_id NOT IN "
                         "(SELECT id FROM match_revisions) OR revision_id IS NULL").fetchone()[0]
    packed = not stray and all(count == n and (n == 0 or hi - lo + 1 == n) for _, count, lo, hi, n in revisions)
    if packed:  # and no two revisions' ranges interleave
        ranges = sorted((lo, hi) for _, _, lo, hi, n in revisions if n)
        packed = all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))
    if packed:
        following = (conn.execute("SELECT coalesce(max(id), 0) + 1 FROM findings").fetchone()[0])
        conn.executemany("UPDATE match_revisions SET first_finding_id = ? WHERE id = ?",
                         [(lo if n else following, revision_id) for revision_id, _, lo, _, n in revisions])
        return
    # blocks: each revision's findings (by line) from its first id on; stray findings after all
    conn.execute("CREATE TEMP TABLE _finding_ids (old INTEGER PRIMARY KEY, new INTEGER)")
    rows_of: dict[int, list[int]] = {}
    for finding_id, revision_id in conn.execute(
            "SELECT id, revision_id FROM findings ORDER BY revision_id, line, id").fetchall():
        rows_of.setdefault(revision_id, []).append(finding_id)
    remap, firsts, next_id = [], [], 1
    for revision_id, count, _, _, n in revisions:
        firsts.append((next_id, revision_id))
        remap += [(old, next_id + i) for i, old in enumerate(rows_of.pop(revision_id, []))]
        next_id += max(count, n)
    for old in sorted(old for ids in rows_of.values() for old in ids):
        remap.append((old, next_id))
        next_id += 1
    conn.executemany("INSERT INTO _finding_ids VALUES (?, ?)", remap)
    conn.executemany("UPDATE match_revisions SET first_finding_id = ? WHERE id = ?", firsts)
    conn.execute("UPDATE findings SET id = -(SELECT new FROM _finding_ids WHERE old = findings.id)")
    conn.execute("UPDATE findings SET id = -id")
    conn.execute("UPDATE reviews SET finding_id = (SELECT new FROM _finding_ids WHERE old = reviews.finding_id) "
                 "WHERE finding_id IS NOT NULL")
    conn.execute("DROP TABLE _finding_ids")


def _insert_sql(table: str, columns: Iterable[str]) -> str:
    cols = list(columns)
    return (f"INSERT INTO [{table}] ({', '.join('[' + c + ']' for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})")


#: what a file's write needs to know, in one statement (one row, always): the match at the path
#: (id, revision, content hash), a match with the same content (its path), the ids the new rows
#: take (match, revision) and the first event id of the new revision (event ids follow on from
#: the last revision's)
_SQL_LOOKUP = (
    "SELECT m.id, m.revision, m.content_hash, "
    f"(SELECT d.path FROM matches d WHERE {_HASH_KEY.replace('content_hash', 'd.content_hash')} = ?2 "
    "AND +d.content_hash = ?1 LIMIT 1), "  # "+": else SQLite puts ?1 into the substr and skips the index
    "(SELECT coalesce(max(id), 0) + 1 FROM matches), "
    "(SELECT coalesce(max(id), 0) + 1 FROM match_revisions), "
    "(SELECT first_event_id + event_count FROM match_revisions ORDER BY id DESC LIMIT 1), "
    "max((SELECT coalesce(max(id), 0) + 1 FROM findings), coalesce((SELECT first_finding_id + error_count + "
    "warning_count + info_count FROM match_revisions ORDER BY id DESC LIMIT 1), 1)) "
    "FROM (SELECT 1) LEFT JOIN matches m ON m.path = ?3")
_SQL_REVISION = _insert_sql("match_revisions", ["id", "match_id", "revision", "content_hash", "path",
                                                *MATCH_COLUMNS, "imported_at", "text", "events_json",
                                                "first_event_id", "first_finding_id", "cards", "notes_json"])
_SQL_MATCH_NEW = _insert_sql("matches", ["id", "path", "file", "revision", "revision_id", "content_hash",
                                         *MATCH_COLUMNS, "first_imported", "imported_at", "first_finding_id"])
_SQL_MATCH_UPDATE = ("UPDATE matches SET revision = ?, revision_id = ?, content_hash = ?, "
                     + ", ".join(f"[{c}] = ?" for c in MATCH_COLUMNS)
                     + ", imported_at = ?, first_finding_id = ? WHERE id = ?")
_SQL_MATCH_CARDS = "INSERT INTO match_cards (revision_id, match_id, cards) VALUES (?, ?, ?)"
_SQL_FINDINGS = _insert_sql("findings", ["id", "event_id", *_IDS, *FINDING_COLUMNS_M002])
#: the findings of a revision ``?1``: a range of ids (see m004)
_FINDINGS_OF_REVISION = (
    "f.id >= (SELECT first_finding_id FROM match_revisions WHERE id = ?1) AND f.id < "
    "(SELECT first_finding_id + error_count + warning_count + info_count FROM match_revisions WHERE id = ?1)")
#: fill the search tables (``match_cards``, ``notes``) from the revisions after ``?1``
_SQL_INDEX_CARDS = ("INSERT INTO match_cards (revision_id, match_id, cards) SELECT id, match_id, cards "
                    "FROM match_revisions WHERE id > ?1 AND cards IS NOT NULL ORDER BY id")
_SQL_INDEX_NOTES = ("INSERT INTO notes (event_id, match_id, revision_id, line, [text]) "
                    "SELECT r.first_event_id + (j.value ->> 0), r.match_id, r.id, j.value ->> 1, j.value ->> 2 "
                    "FROM match_revisions r, json_each(r.notes_json) j WHERE r.id > ?1 AND r.notes_json IS NOT NULL "
                    "ORDER BY r.id, j.key")


# ---- reading a file into rows (runs in worker processes) ---------------------------------------
#: Duel Masters attack sub-steps that a line kind fixes (notation §5)
DM_SUBSTEPS = {"attack": "1", "declare": "3", "block": "4", "redirect": "4", "battle": "6A",
               "break": "6B", "s-trigger": "6B", "direct-attack": "6C", "win": "6C", "attack-ends": "7"}
_LINE_PLAYER = re.compile(r"^\s*(?:@[\d:]+\s+)?(?:CL\d+\s+)?([ABab])\s*:")
_ISO_DATE = re.compile(r"^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")


@dataclass
class Prepared:
    """A file read and validated, as rows ready to insert.

    ``events_json`` is the JSON array of the file's events (one array an event, fields in the
    order of :data:`EVENT_FIELDS`), stored as it is in ``match_revisions.events_json``; ``cards``
    is ``match_revisions.cards`` (the distinct cards, a JSON array; "" for none); ``findings``
    and ``notes`` rows start with the index (``seq``) of their event (``None``: no event), then
    their columns (the notes go into ``match_revisions.notes_json`` as they are). The ids are
    added when the file is written. Strings and tuples, not dicts: they cross from worker
    processes cheaply.
    """

    path: str  # absolute
    content_hash: str
    status: str = "ok"  # ok | unchanged | bad
    error: str = ""
    match: tuple = ()  # the values of MATCH_COLUMNS
    text: str = ""
    events_json: str = ""
    cards: str = ""
    findings: list[tuple] = field(default_factory=list)
    notes: list[tuple] = field(default_factory=list)

    @property
    def events(self) -> list[list]:
        """The events, decoded from :attr:`events_json` (one list an event)."""
        return json.loads(self.events_json) if self.events_json else []


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def normalize_date(value: str | None) -> str | None:
    """A header Date as ISO (``18.05.2024``, ``2024/05/18``, ``2024年5月18日`` -> ``2024-05-18``:
    :func:`replayer.dates.parse_date`); text that is no date stays as written (``check`` warns)."""
    if value is None:
        return None
    from .dates import parse_date

    return parse_date(value) or value.strip() or None


def library_path(path: str | os.PathLike[str]) -> str:
    """The key of a file in the library: its absolute path."""
    return str(Path(path).resolve())


def library_paths(files: Iterable[str | os.PathLike[str]]) -> list[str]:
    """:func:`library_path` of many files, resolving each folder once (not each file's)."""
    real_dirs: dict[str, str] = {}
    out = []
    for f in files:
        name = os.fspath(f)
        head, tail = os.path.split(name)
        if tail in ("", ".", "..") or os.path.islink(name):
            out.append(library_path(name))
            continue
        real = real_dirs.get(head)
        if real is None:
            real = real_dirs[head] = str(Path(head or ".").resolve())
        out.append(os.path.join(real, tail))
    return out


def prepare_file(path: str | os.PathLike[str], known_hash: str | None = None, key: str | None = None) -> Prepared:
    """Read, validate and turn one file into rows. Never raises: a bad file is ``status="bad"``.

    ``known_hash`` is the content hash the library already has for this path: if the file
    still has it, it is not parsed again (``status="unchanged"``). ``key``: the file's
    :func:`library_path`, if known.
    """
    key = key or library_path(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return Prepared(key, "", "bad", e.strerror or str(e))
    digest = content_hash(data)
    if known_hash is not None and digest == known_hash:
        return Prepared(key, digest, "unchanged")
    return prepare_bytes(data, key, digest)


def prepare_bytes(data: bytes, path: str, digest: str | None = None) -> Prepared:
    """Read, validate and turn a log's bytes into rows (``path`` names it in the library)."""
    digest = digest or content_hash(data)
    try:
        match = read_bytes(data, path)
        if any(f.rule == "syntax.encoding" for f in match.findings):
            return Prepared(path, digest, "bad", match.findings[0].message)
        if not match.events and not match.header:
            return Prepared(path, digest, "bad", "not a match log (no header tags, no events)")
        result = check_match(match)
    except UnreadableFile as e:
        return Prepared(path, digest, "bad", str(e))
    except Exception as e:  # a crash in a validator must not stop a big import
        return Prepared(path, digest, "bad", f"internal error while checking: {type(e).__name__}: {e}")
    return rows_of(result.match, result.findings, path, digest, data)


#: per game: a card name as written -> (its catalog name, that name folded as SQLite's NOCASE does)
_CANONICAL: dict[str, tuple[Any, dict[str, tuple[str, str]]]] = {}
#: event class -> whether its events can name cards (:func:`events.names_cards`)
_CARD_CLASSES: dict[type, bool] = {}
#: the line kinds that set the turn, phase, step or timing of the events after them
_STATE_KINDS = frozenset({"turn", "phase", "step", "timing"})


def rows_of(match: Any, findings: Sequence[Any], path: str, digest: str, data: bytes | None = None) -> Prepared:
    """Rows of a read match and its findings (a :class:`~replayer.validator.CheckResult`'s)."""
    catalog = games.get(match.game).catalog
    names = match.players
    header = match.header
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    text = data.decode("utf-8-sig", "replace") if data is not None else "\n".join(match.lines)
    prepared = Prepared(path, digest, "ok", text=text)
    prepared.match = (
        match.game, match.rules, names["A"], names["B"], _tag(header, "Event"), _tag(header, "Round"),
        _tag(header, "Table"), normalize_date(header.get("Date")), _dumps_header(header),
        len(match.events), counts["error"], counts["warning"], counts["info"],
    )
    lines = match.lines
    nlines = len(lines)
    dm = match.game == "dm"
    dm_substeps = DM_SUBSTEPS
    find = catalog.find
    card_classes = _CARD_CLASSES  # event class -> whether its events can name cards
    turn = turn_player = phase = step = timing = substep = None
    cached = _CANONICAL.get(match.game)
    if cached is None or cached[0] is not catalog or len(cached[1]) > 50_000:
        cached = _CANONICAL[match.game] = (catalog, {})
    canonical = cached[1]  # as written -> (card, folded)
    mentioned: dict[str, str] = {}  # key -> card, in the order of first mention
    events: list[list] = []
    append = events.append
    # the text of each line, stripped (index 0: no line)
    texts = [""]
    texts += [line.strip() for line in lines]
    for event in match.events:
        kind = event.kind
        if kind in _STATE_KINDS:
            if kind == "turn":
                turn, turn_player, phase, step, timing, substep = event.number, event.player, None, None, None, None
            elif kind == "phase":
                phase, step, timing, substep = event.name, None, None, None
            elif kind == "step":
                step, timing = event.name, None
            else:
                timing = event.name
        elif dm and kind in dm_substeps:
            if kind == "attack":
                substep = "1"
            elif substep is not None:
                substep = dm_substeps[kind]
        span = event.span
        line = span.line
        text = texts[line] if 0 < line <= nlines else ""
        cls = type(event)
        named = card_classes.get(cls)
        if named is None:
            named = card_classes[cls] = ev.names_cards(cls)
        refs = event.cards() if named else ()
        if refs:
            cards = []
            for ref in refs:
                written = ref.name
                known = canonical.get(written)
                if known is None:
                    info = find(written)
                    card = info.id if info else " ".join(written.split())
                    known = canonical[written] = (card, card.translate(_ASCII_LOWER))
                if known[1] not in mentioned:
                    mentioned[known[1]] = known[0]
                cards.append([known[0], written, ref.copy])
            append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                    cards[0][0], substep, event.chain_link, event.timecode, cards])
        else:
            # the fields most often null come last, and trailing nulls are left out
            timecode = event.timecode
            if timecode is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep, event.chain_link, timecode])
            elif event.chain_link is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep, event.chain_link])
            elif substep is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep])
            elif timing is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing])
            elif step is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step])
            else:
                row = [line, span.column, kind, text, turn, turn_player, phase, event.player]
                while row[-1] is None:
                    row.pop()
                append(row)
        if kind == "attack-ends":
            substep = None
    prepared.events_json = _dumps(events)
    # the events are in line order: the first event on a line, by bisection
    event_lines = [row[0] for row in events]
    nevents = len(event_lines)
    prepared.cards = _dumps(list(mentioned.values())) if mentioned else ""
    # line by line (check_match gives them so already): a revision's findings get their ids in
    # this order, and a search lists findings in id order
    for f in sorted(findings, key=_finding_line):
        line = f.span.line
        seq = bisect.bisect_left(event_lines, line)
        if seq < nevents and event_lines[seq] == line:
            row = events[seq]
            if len(row) > _CARDS_AT:
                player, card = row[7], row[10]
                on_line = row[_CARDS_AT]
                cards = _dumps([card] if len(on_line) == 1 else list(dict.fromkeys([c[0] for c in on_line])))
            else:
                player, card, cards = row[7] if len(row) > 7 else None, None, None
        else:
            seq = None
            player, card, cards = _line_player(lines, line), None, None
        prepared.findings.append((
            seq, line, f.span.column, f.severity.value, f.kind.value, f.rule, f.message, f.hint, f.cite,
            player, names.get(player) if player else None, card, cards,
        ))
    for note in match.notes:
        # a trailing note belongs to its line's event, a note on its own line to the next event
        seq = bisect.bisect_left(event_lines, note.line)
        prepared.notes.append((seq if seq < nevents else None, note.line, note.text))
    return prepared


def _finding_line(finding: Any) -> int:
    return finding.span.line


def _tag(header: dict[str, str], key: str) -> str | None:
    value = header.get(key)
    return value.strip() or None if value is not None else None


def _line_player(lines: Sequence[str], line: int) -> str | None:
    if 0 < line <= len(lines):
        m = _LINE_PLAYER.match(lines[line - 1])
        if m:
            return m.group(1).upper()
    return None


# ---- writing --------------------------------------------------------------------------------
@dataclass
class ImportOutcome:
    """What happened to one file: ``new``, ``revision``, ``unchanged``, ``duplicate`` or ``skipped``."""

    path: str
    status: str
    message: str = ""
    match_id: int | None = None
    revision: int | None = None
    findings: int = 0

    @property
    def stored(self) -> bool:
        return self.status in ("new", "revision")


_CLOCK: list = [None, ""]  # the last second asked for, and its text


def _now() -> str:
    """The time now (UTC, to the second), as ISO text."""
    second = int(time.time())
    if second != _CLOCK[0]:
        _CLOCK[0], _CLOCK[1] = second, datetime.fromtimestamp(second, timezone.utc).isoformat(timespec="seconds")
    return _CLOCK[1]


def known_hashes(db: Database) -> dict[str, str]:
    """path -> content hash of its current revision, for every match in the library."""
    return {row[0]: row[1] for row in db.execute("SELECT path, content_hash FROM matches").fetchall()}


def save_prepared(db: Database, prepared: Prepared, *, index: bool = True) -> ImportOutcome:
    """Write one prepared file in one transaction. Same content again changes nothing.

    With ``index`` (the default) its cards and notes go into the search tables in the same
    transaction; a bulk import (:func:`import_paths`) passes ``False`` and fills them for many
    files at once (:func:`update_index`).

    The events, notes and cards go in as JSON values of the revision row; the findings
    with ``executemany`` on a prepared statement: the same rows through ``Table.insert_all``
    cost three times as long (see docs/performance.md, Library).
    """
    if prepared.status == "bad":
        return ImportOutcome(prepared.path, "skipped", prepared.error)
    with writing(db):
        return _write_rows(db.conn, prepared, index)


@contextmanager
def writing(db: Database) -> Iterator[sqlite3.Connection]:
    """A write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on an exception), or a
    savepoint within a caller's transaction.

    IMMEDIATE takes the write lock at once, waiting for another writer (the busy timeout): a
    transaction that read first and wrote then would fail at once ("database is locked") if
    another connection had committed in between, as a window saving verdicts during an
    import would.
    """
    conn = db.conn
    if conn.in_transaction:
        with db.atomic():
            yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise


def _write_rows(conn: sqlite3.Connection, prepared: Prepared, index: bool) -> ImportOutcome:
    """The statements of :func:`save_prepared` (call in a transaction; ``prepared`` not bad)."""
    path = prepared.path
    digest = prepared.content_hash
    row = conn.execute(_SQL_LOOKUP, (digest, digest[:HASH_KEY_LEN], path)).fetchone()
    if row[0] is not None and row[2] == digest:
        return ImportOutcome(path, "unchanged", match_id=row[0], revision=row[1])
    if prepared.status == "unchanged":  # the worker skipped it but the library changed since
        return ImportOutcome(path, "skipped", "the library changed during the import; import it again")
    if row[0] is None and row[3] is not None:
        return ImportOutcome(path, "duplicate", f"same content as {row[3]}")
    now = _now()
    revision_id = row[5]
    first = row[6] if row[6] is not None else 1
    first_finding = row[7]
    if row[0] is None:
        match_id, revision = row[4], 1
    else:
        match_id, revision = row[0], row[1] + 1
    conn.execute(_SQL_REVISION, (revision_id, match_id, revision, digest, path, *prepared.match, now,
                                 prepared.text, prepared.events_json or "[]", first, first_finding,
                                 prepared.cards or None, _dumps(prepared.notes) if prepared.notes else None))
    if revision == 1:
        conn.execute(_SQL_MATCH_NEW, (match_id, path, os.path.basename(path), 1, revision_id, digest,
                                      *prepared.match, now, now, first_finding))
    else:
        conn.execute(_SQL_MATCH_UPDATE, (revision, revision_id, digest, *prepared.match, now, first_finding,
                                         match_id))
    if prepared.findings:
        ids = (match_id, revision_id)
        conn.executemany(_SQL_FINDINGS, [(first_finding + i, None if r[0] is None else first + r[0], *ids, *r[1:])
                                         for i, r in enumerate(prepared.findings)])
    if index:
        _update_index(conn)
    return ImportOutcome(path, "new" if revision == 1 else "revision", _date_warning(prepared),
                         match_id=match_id, revision=revision, findings=len(prepared.findings))


_DATE_COLUMN = list(MATCH_COLUMNS).index("date")
_ISO_SHAPE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _date_warning(prepared: Prepared) -> str:
    """What an import says of a header Date it could not read (stored as written)."""
    value = prepared.match[_DATE_COLUMN] if len(prepared.match) > _DATE_COLUMN else None
    if value and not _ISO_SHAPE.match(value):
        return f"[Date {value!r}] is not a date replayer can read: stored as written, not found by --from/--to"
    return ""


# ---- the search tables: match_cards, notes and notes_fts ----------------------------------------
# A file's transaction writes its revision (with its notes and cards in the row), its match and
# its findings; the tables a search reads its cards and notes from are made from the revision
# rows for many files at once (a commit that touches a B-tree writes at least a page of it, and
# FTS5 writes a new index segment at every commit that touched it): every INDEX_BATCH files of
# a bulk import, at its end, and in the same transaction for a file stored on its own (the
# window, ``import_text``). ``library_index.revision_id`` is the last revision they cover, and
# the full-text index covers the notes up to the last id in ``notes_fts_docsize``. Opening a
# library and every search first bring them up to date (after a killed import, say), so a
# search never misses a stored match; only a raw query (Datasette) during a bulk import can see
# them up to INDEX_BATCH files behind.

#: files a bulk import stores between two updates of the search tables
INDEX_BATCH = 200
#: files a bulk import stores between two checkpoints (run by :class:`_Checkpointer`)
CHECKPOINT_FILES = 200
#: WAL pages at which the importing connection checkpoints by itself, should the checkpoint
#: thread fall behind (SQLite's default: 1000 pages, for every other connection)
IMPORT_CHECKPOINT_PAGES = 50_000

_SQL_INDEX_BEHIND = (
    "SELECT (SELECT coalesce(max(id), 0) FROM match_revisions) > "
    "coalesce((SELECT revision_id FROM library_index), -1) "
    "OR (SELECT coalesce(max(id), 0) FROM notes) > (SELECT coalesce(max(id), 0) FROM notes_fts_docsize)")


def _update_index(conn: sqlite3.Connection) -> int:
    """Fill the search tables from the revisions they do not cover yet (call in a transaction);
    returns how many notes went into the full-text index."""
    row = conn.execute("SELECT revision_id FROM library_index").fetchone()
    if row is None or row[0] is None:  # lost (a library edited by hand): made again from the revisions
        _rebuild_index(conn)
        return conn.execute("SELECT count(*) FROM notes").fetchone()[0]
    upto = row[0]
    last = conn.execute("SELECT coalesce(max(id), 0) FROM match_revisions").fetchone()[0]
    if last > upto:
        conn.execute(_SQL_INDEX_CARDS, [upto])
        conn.execute(_SQL_INDEX_NOTES, [upto])
        conn.execute("UPDATE library_index SET revision_id = ?", [last])
    indexed = conn.execute("SELECT coalesce(max(id), 0) FROM notes_fts_docsize").fetchone()[0]
    return conn.execute("INSERT INTO notes_fts (rowid, [text]) SELECT id, [text] FROM notes WHERE id > ? ORDER BY id",
                        [indexed]).rowcount


def _rebuild_index(conn: sqlite3.Connection) -> None:
    """Make ``match_cards``, ``notes`` and ``notes_fts`` again from every revision."""
    # the triggers that keep notes_fts in step with deleted notes would send it deletions of
    # notes it may never have had (which FTS5 takes for a damaged index): off meanwhile
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'notes'"
                            ).fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER [{name}]")
    conn.execute("DELETE FROM match_cards")
    conn.execute("DELETE FROM notes")
    conn.execute(_SQL_INDEX_CARDS, [0])
    conn.execute(_SQL_INDEX_NOTES, [0])
    conn.execute("INSERT INTO notes_fts (notes_fts) VALUES ('rebuild')")
    for _, sql in triggers:
        conn.execute(sql)
    conn.execute("DELETE FROM library_index")
    conn.execute("INSERT INTO library_index (id, revision_id) SELECT 1, coalesce(max(id), 0) FROM match_revisions")


def index_behind(db: Database) -> bool:
    """Whether the search tables (cards, notes, full text) miss some stored revisions."""
    return bool(db.conn.execute(_SQL_INDEX_BEHIND).fetchone()[0])


def update_index(db: Database) -> int:
    """Bring the search tables up to date, in one transaction; returns how many notes went into
    the full-text index."""
    with writing(db) as conn:
        return _update_index(conn)


def catch_up_index(db: Database) -> None:
    """:func:`update_index` if the search tables are behind; quietly nothing on a library opened
    read-only or locked for long by another writer (a search then misses only those files)."""
    try:
        if index_behind(db):
            update_index(db)
    except sqlite3.OperationalError:
        pass


def import_text(db: Database, text: str, path: str = "<log>") -> ImportOutcome:
    """Read, validate and store a log given as text (``path`` names it in the library)."""
    return save_prepared(db, prepare_bytes(text.encode("utf-8"), library_path(path)))


def import_result(db: Database, result: Any, data: bytes | None = None) -> ImportOutcome:
    """Store an already checked match (a :class:`~replayer.validator.CheckResult`)."""
    match = result.match
    if data is None:
        data = "\n".join(match.lines).encode("utf-8")
    return save_prepared(db, rows_of(match, result.findings, library_path(match.path), content_hash(data), data))


def _prepare_star(args: tuple[str, str | None, str]) -> Prepared:
    return prepare_file(*args)


def import_paths(db: Database, files: Sequence[str | os.PathLike[str]], *, jobs: int = 1,
                 chunksize: int = 8) -> Iterator[ImportOutcome]:
    """Import files (not folders: see :func:`find_logs`), yielding one outcome a file, in order.

    With ``jobs > 1`` files are read and validated in that many worker processes; every write
    happens here, in this process, one transaction a file. The WAL is checkpointed by a thread
    of its own meanwhile (:class:`_Checkpointer`).
    """
    known = known_hashes(db)
    tasks = [(str(f), known.get(key), key) for f, key in zip(files, library_paths(files))]
    stored = 0
    if jobs <= 1 or len(tasks) < 2:
        prepared_files: Iterable[Prepared] = map(_prepare_star, tasks)
        pool = None
    else:
        import multiprocessing

        # (made before the checkpoint thread starts: a process forked with threads running
        # can inherit a lock one of them held)
        pool = multiprocessing.get_context().Pool(min(jobs, len(tasks)))
        prepared_files = pool.imap(_prepare_star, tasks, chunksize=chunksize)
    checkpointer = None
    try:
        checkpointer = _Checkpointer.start(db)
        if checkpointer is not None:
            db.execute(f"PRAGMA wal_autocheckpoint={IMPORT_CHECKPOINT_PAGES}")
        for prepared in prepared_files:
            outcome = save_prepared(db, prepared, index=False)
            if outcome.stored:
                stored += 1
                if stored % INDEX_BATCH == 0:
                    try:
                        update_index(db)
                    except sqlite3.OperationalError:
                        pass  # locked for long by another writer: the next batch, or a search, catches up
                if checkpointer is not None:
                    checkpointer.between_files(stored)
            yield outcome
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if checkpointer is not None:
            checkpointer.stop()
        try:
            if checkpointer is not None:
                db.execute("PRAGMA wal_autocheckpoint=1000")  # SQLite's default
            if stored:
                catch_up_index(db)
        except sqlite3.ProgrammingError:
            pass  # the caller closed the library before it dropped the import (a search catches up)


class _Checkpointer:
    """Checkpoints the WAL of a bulk import from a thread and a connection of its own.

    A checkpoint copies the pages of the WAL into the database file and syncs both files to
    disk. Run by the importing connection (SQLite's auto-checkpoint), the commit that crosses
    the threshold waits for all of it; most of it is waiting for the disk. Here the importer
    asks for a checkpoint every :data:`CHECKPOINT_FILES` files and goes on reading and
    validating the next files meanwhile (SQLite runs the checkpoint without Python's GIL).
    A ``PASSIVE`` checkpoint never blocks the writer nor other readers, nor is it blocked by
    them: what it cannot copy yet, the next one does. Nothing about durability changes: the
    commits are in the WAL either way, and the checkpoint syncs as before.
    """

    def __init__(self, path: str, conn: sqlite3.Connection) -> None:
        self._path = path
        self._conn = conn
        self.finished = self._seen = 0  # checkpoints the thread has run, and the last one seen
        self._wanted = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="replayer-checkpoint", daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, db: Database) -> "_Checkpointer | None":
        """A checkpointer for the library ``db``; None for one not in WAL mode (``:memory:``)."""
        row = db.execute("PRAGMA database_list").fetchone()
        path = row[2] if row else ""
        if not path or db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            return None
        return cls(path, db.conn)

    def between_files(self, stored: int) -> None:
        """Called by the importer between two files (``stored`` so far): asks for a checkpoint
        every :data:`CHECKPOINT_FILES` files; once one has run, the importer copies the frames
        written meanwhile itself, so that its next transaction starts the WAL over."""
        if self.finished != self._seen:
            self._seen = self.finished
            if not self._conn.in_transaction:  # (within a caller's transaction the WAL cannot start over)
                try:
                    self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.OperationalError:
                    pass  # busy: SQLite's own auto-checkpoint, or the next round, does it
        elif stored % CHECKPOINT_FILES == 0:
            self._wanted.set()

    def stop(self) -> None:
        """Stop the thread, after the checkpoint it may be running."""
        self._stopping = True
        self._wanted.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self._path, timeout=30)
        except sqlite3.Error:
            return  # the importer checkpoints by itself (wal_autocheckpoint)
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # busy, or the disk full: the next request, or the importer, tries again
                self.finished += 1
        finally:
            conn.close()


# ---- reviews (the window's verdicts) -------------------------------------------------------
def _review_target(db: Database, path: str | os.PathLike[str], content_hash_of_file: str | None = None,
                   *, follow_file: bool = False) -> tuple[int, int, str]:
    """(match id, revision id, revision text) a verdict on ``path`` belongs to.

    A file not yet in the library is imported first; with ``follow_file`` a file that changed
    on disk since it was imported is imported again (a new revision), so that the verdicts go
    with the text the reviewer sees. Call inside a transaction.
    """
    key = library_path(path)
    row = db.conn.execute("SELECT id, revision_id, content_hash FROM matches WHERE path = ?", [key]).fetchone()
    if row is None or follow_file:
        outcome = save_prepared(db, prepare_file(key, row[2] if row else None))
        if row is None and not outcome.stored:
            raise LibraryError(f"{path}: cannot store a review: {outcome.message or outcome.status}")
        row = db.conn.execute("SELECT id, revision_id, content_hash FROM matches WHERE path = ?", [key]).fetchone()
    match_id, revision_id = row[0], row[1]
    if content_hash_of_file:
        rev = db.conn.execute("SELECT id FROM match_revisions WHERE match_id = ? AND content_hash = ? "
                              "ORDER BY revision DESC LIMIT 1", [match_id, content_hash_of_file]).fetchone()
        if rev is not None:
            revision_id = rev[0]
    text = db.conn.execute("SELECT text FROM match_revisions WHERE id = ?", [revision_id]).fetchone()[0]
    return match_id, revision_id, text or ""


def _review_record(db: Database, match_id: int, revision_id: int, text: str, review: dict[str, Any],
                   reviewer: str) -> dict[str, Any]:
    rule, line = review["rule"], int(review["line"])
    finding = db.conn.execute(f"SELECT f.id, f.message FROM findings f WHERE {_FINDINGS_OF_REVISION} "
                              "AND f.line = ?2 AND f.rule = ?3 ORDER BY f.id LIMIT 1", [revision_id, line, rule]).fetchone()
    source = review.get("source")
    if source is None:
        lines = text.splitlines()
        source = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return {"match_id": match_id, "revision_id": revision_id, "finding_id": finding[0] if finding else None,
            "rule": rule, "line": line, "source": source,
            "message": review.get("message") or (finding[1] if finding else ""),
            "verdict": review.get("verdict"), "note": review.get("note") or "", "reviewer": reviewer or "",
            "reviewed_at": review.get("reviewed_at") or _now()}


def save_review(db: Database, path: str | os.PathLike[str], rule: str, line: int, verdict: str | None,
                note: str = "", reviewer: str = "", *, source: str | None = None, message: str | None = None,
                reviewed_at: str | None = None, content_hash_of_file: str | None = None) -> int:
    """Store a reviewer's verdict on the finding ``rule`` at ``line`` of the match at ``path``.

    The verdict belongs to the revision with ``content_hash_of_file`` if given (the text the
    reviewer saw), else to the current one. A file not yet in the library is imported first.
    One verdict per reviewer and finding: saving again replaces it. Returns the review's id.
    ``source`` (the text of the line) and ``message`` default to those in the library.
    """
    with writing(db):
        match_id, revision_id, text = _review_target(db, path, content_hash_of_file)
        record = _review_record(db, match_id, revision_id, text,
                                {"rule": rule, "line": line, "verdict": verdict, "note": note, "source": source,
                                 "message": message, "reviewed_at": reviewed_at}, reviewer)
        old = db.conn.execute("SELECT id FROM reviews WHERE revision_id = ? AND line = ? AND rule = ? AND "
                              "reviewer = ?", [revision_id, line, rule, reviewer or ""]).fetchone()
        if old is not None:
            db["reviews"].update(old[0], record)
            return old[0]
        return db["reviews"].insert(record).last_pk


def replace_reviews(db: Database, path: str | os.PathLike[str], reviews: Iterable[dict[str, Any]],
                    reviewer: str = "") -> int:
    """Make ``reviews`` (dicts: rule, line, verdict, note, source, message, reviewed_at) the
    reviewer's verdicts on the match at ``path``, in one transaction; returns how many.

    This is what the window saves: the file as it is on disk is imported first if it changed
    (its verdicts go with that revision); earlier revisions keep theirs.
    """
    with writing(db):
        match_id, revision_id, text = _review_target(db, path, follow_file=True)
        db.conn.execute("DELETE FROM reviews WHERE revision_id = ? AND reviewer = ?", [revision_id, reviewer or ""])
        records = [_review_record(db, match_id, revision_id, text, r, reviewer) for r in reviews]
        if records:
            db["reviews"].insert_all(records)
    return len(records)


def load_reviews(db: Database, path: str | os.PathLike[str], *, all_revisions: bool = False,
                 reviewer: str | None = None, latest: bool = False) -> list[dict]:
    """The verdicts on the match at ``path``: of its current revision, of every revision
    (``all_revisions``), or of the newest revision that has any (``latest``); optionally of
    one ``reviewer`` only."""
    sql = ("SELECT r.id, r.rule, r.line, r.source, r.message, r.verdict, r.note, r.reviewer, r.reviewed_at, "
           "v.revision, r.finding_id FROM reviews r JOIN matches m ON m.id = r.match_id "
           "JOIN match_revisions v ON v.id = r.revision_id WHERE m.path = ?")
    params: list[Any] = [library_path(path)]
    if reviewer is not None:
        sql += " AND r.reviewer = ?"
        params.append(reviewer)
    if not (all_revisions or latest):
        sql += " AND r.revision_id = m.revision_id"
    sql += " ORDER BY v.revision, r.line, r.rule, r.reviewed_at, r.id"
    rows = _rows(db.execute(sql, params))
    if latest and rows:
        newest = rows[-1]["revision"]
        rows = [r for r in rows if r["revision"] == newest]
    return rows


# ---- search ---------------------------------------------------------------------------------
@dataclass
class Filters:
    """What ``replayer search`` and ``replayer stats`` filter on. Empty means any."""

    card: Sequence[str] = ()
    rule: Sequence[str] = ()  # a rule id, or a prefix: "ygo.ds" matches "ygo.ds.*"
    kind: Sequence[str] = ()
    severity: Sequence[str] = ()
    player: str | None = None  # a name from the header (A/B) or the letter
    event: str | None = None  # part of the header Event, any case
    date_from: str | None = None  # ISO dates, inclusive
    date_to: str | None = None
    text: str | None = None  # full-text search in the notes (SQLite FTS5 syntax)
    table: str | None = None
    round: str | None = None
    game: str | None = None
    all_revisions: bool = False

    @property
    def on_findings(self) -> bool:
        """A filter only findings can satisfy (then a match is listed only with such a finding)."""
        return bool(self.rule or self.kind or self.severity)


@dataclass
class SearchResult:
    matches: list[dict]
    findings: list[dict]
    notes: list[dict]
    total_matches: int
    total_findings: int
    total_notes: int

    def to_dict(self) -> dict:
        return {"matches": self.matches, "findings": self.findings, "notes": self.notes,
                "total": {"matches": self.total_matches, "findings": self.total_findings,
                          "notes": self.total_notes}}


def _player_letter(player: str | None) -> str | None:
    if player is not None and player.strip().upper() in ("A", "B"):
        return player.strip().upper()
    return None


def _card_keys(cards: Sequence[str]) -> list[str]:
    """The names to look for: each as given and, where the catalog knows it, its catalog name."""
    out: list[str] = []
    for name in cards:
        name = " ".join(name.strip().strip('"《》「」„“”').split())
        out.append(name)
        for game in games.ALL.values():
            info = game.catalog.find(name)
            if info is not None and info.id not in out:
                out.append(info.id)
    return out


def _revisions_with_cards(cards: Sequence[str], params: list, keys: list[str] | None = None) -> str:
    """A subquery: the ids of the revisions that mention any of ``cards`` (any of their names)."""
    keys = keys if keys is not None else _card_keys(cards)
    return f"(SELECT c.revision_id FROM match_cards c WHERE {_cards_contain('c.cards', keys, params)})"


def _cards_contain(column: str, keys: list[str], params: list) -> str:
    """A condition: the JSON array of card names in ``column`` holds one of ``keys`` (any case,
    as SQLite's NOCASE). A LIKE on the JSON text (ASCII case-insensitive too) finds the rows
    cheaply; json_each then checks them element by element."""
    likes = []
    for key in keys:
        pattern = _dumps(key).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        likes.append(f"{column} LIKE ? ESCAPE '\\'")
        params.append("%" + pattern + "%")
    return (f"({' OR '.join(likes)}) AND EXISTS (SELECT 1 FROM json_each({column}) j WHERE "
            f"{_in('j.value', keys, params, ' COLLATE NOCASE')})")


def _in(column: str, values: Sequence[str], params: list, collate: str = "") -> str:
    params.extend(values)
    return f"{column}{collate} IN ({', '.join('?' for _ in values)})"


def _review_note_likes(text: str) -> tuple[str, list[str]]:
    """SQL that a verdict note holds every word of ``text`` (any case), and its parameters."""
    words = [w.strip('"') for w in text.split() if w.strip('"') and w.upper() not in ("AND", "OR", "NOT")] or [text]
    escaped = ["%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
    return " AND ".join(["rv.note LIKE ? ESCAPE '\\'"] * len(escaped)), escaped


def _fts_query(db: Database, text: str) -> str:
    """The user's FTS5 query if it is valid, else each word quoted (so ``don't`` works).

    Notes stored but not yet in the index (an import going on, or killed) were indexed by
    :func:`search` first."""
    try:
        db.execute("SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT 1", [text]).fetchall()
        return text
    except sqlite3.OperationalError:
        return " ".join('"' + w.replace('"', '""') + '"' for w in text.split())


def _match_where(db: Database, flt: Filters, params: list, rev: str = "r", rev_id: str | None = None) -> list[str]:
    """Conditions on a match revision ``rev`` (an alias of match_revisions, or of matches for the
    current revisions, with ``rev_id`` its revision id) from the match-level filters."""
    rev_id = rev_id or f"{rev}.id"
    where: list[str] = []
    if flt.game:
        where.append(f"{rev}.game = ?")
        params.append(flt.game.lower())
    if flt.event:
        where.append(f"{rev}.event LIKE ?")
        params.append("%" + flt.event.strip() + "%")
    if flt.table:
        where.append(f"{rev}.table_no = ? COLLATE NOCASE")
        params.append(flt.table.strip())
    if flt.round:
        where.append(f"{rev}.round = ? COLLATE NOCASE")
        params.append(flt.round.strip())
    if flt.date_from or flt.date_to:  # only dates read as ISO compare (text like "someday" sorts anywhere)
        where.append(f"{rev}.date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'")
    if flt.date_from:
        where.append(f"{rev}.date >= ?")
        params.append(normalize_date(flt.date_from))
    if flt.date_to:
        where.append(f"{rev}.date <= ?")
        params.append(normalize_date(flt.date_to))
    if flt.player and _player_letter(flt.player) is None:
        where.append(f"({rev}.player_a = ? COLLATE NOCASE OR {rev}.player_b = ? COLLATE NOCASE)")
        params.extend([flt.player.strip()] * 2)
    if flt.text:
        likes, like_params = _review_note_likes(flt.text)
        where.append(f"({rev_id} IN (SELECT n.revision_id FROM notes n WHERE n.id IN "
                     "(SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?))"
                     f" OR {rev_id} IN (SELECT rv.revision_id FROM reviews rv WHERE {likes}))")
        params.append(_fts_query(db, flt.text))
        params.extend(like_params)
    if flt.card and not flt.on_findings:
        where.append(f"{rev_id} IN {_revisions_with_cards(flt.card, params)}")
    return where


def _finding_where(db: Database, flt: Filters, params: list, f: str = "f") -> list[str]:
    """Conditions on a finding ``f`` from the finding-level filters (card, rule, kind, severity, player)."""
    where: list[str] = []
    if flt.rule:
        parts = []
        for rule in flt.rule:
            prefix = rule.rstrip(".")
            parts.append(f"{f}.rule = ? OR ({f}.rule > ? AND {f}.rule < ?)")  # the rule or rule.*
            params.extend([rule, prefix + ".", prefix + "/"])
        where.append("(" + " OR ".join(parts) + ")")
    if flt.kind:
        where.append(_in(f"{f}.kind", [k.lower() for k in flt.kind], params))
    if flt.severity:
        where.append(_in(f"{f}.severity", [s.lower() for s in flt.severity], params))
    letter = _player_letter(flt.player)
    if letter:
        where.append(f"{f}.player = ?")
        params.append(letter)
    elif flt.player:
        where.append(f"{f}.player_name = ? COLLATE NOCASE")
        params.append(flt.player.strip())
    if flt.card:
        # the cards on the finding's line (findings.cards), in a revision that mentions them
        keys = _card_keys(flt.card)
        where.append(f"{f}.revision_id IN {_revisions_with_cards(flt.card, params, keys)}")
        where.append(_cards_contain(f"{f}.cards", keys, params))
    return where


_MATCH_FIELDS = ("m.path, r.match_id, r.revision, m.revision AS current_revision, r.game, r.rules, "
                 "r.player_a, r.player_b, r.event, r.round, r.table_no, r.date, r.event_count, "
                 "r.error_count, r.warning_count, r.info_count, r.imported_at")


_CURRENT_MATCH_FIELDS = ("m.path, m.id AS match_id, m.revision, m.revision AS current_revision, m.game, m.rules, "
                         "m.player_a, m.player_b, m.event, m.round, m.table_no, m.date, m.event_count, "
                         "m.error_count, m.warning_count, m.info_count, m.imported_at")


def _rows(cur: sqlite3.Cursor) -> list[dict]:
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]


def _revisions(flt: Filters, child: str | None = None) -> str:
    """The match revisions ``r`` (and their matches ``m``) a query looks at: the current ones, or
    all of them; joined to the rows ``child`` (an alias of a table with ``revision_id``)."""
    current = "" if flt.all_revisions else " AND r.id = m.revision_id"
    if child is None:
        return f"match_revisions r JOIN matches m ON m.id = r.match_id{current}"
    return (f"JOIN match_revisions r ON r.id = {child}.revision_id "
            f"JOIN matches m ON m.id = r.match_id{current}")


def search(db: Database, flt: Filters | None = None, *, limit: int | None = 100, **filters: Any) -> SearchResult:
    """Matches, findings and (with ``text``) notes that pass the filters.

    Match-level filters (player name, event, table, round, dates, text, game) choose matches;
    finding-level filters (card, rule, kind, severity, player) choose findings, and then only
    matches with such a finding are listed. ``limit`` caps each list (totals are exact).
    Findings and notes come in the order they were imported, line by line.
    """
    flt = flt or Filters(**filters)
    catch_up_index(db)
    fparams: list = []
    fwhere = _finding_where(db, flt, fparams)
    mparams: list = []
    if flt.all_revisions:
        mwhere = _match_where(db, flt, mparams)
        m_from = "FROM match_revisions r JOIN matches m ON m.id = r.match_id"
        rev_id, fields, order = "r.id", _MATCH_FIELDS, "r.date, m.path, r.revision"
        rev = "r"
    else:  # the current revisions: their header is in matches, a small table
        mwhere = _match_where(db, flt, mparams, "m", "m.revision_id")
        m_from = "FROM matches m"
        rev_id, fields, order = "m.revision_id", _CURRENT_MATCH_FIELDS, "m.date, m.path"
        rev = "m"
    # the revisions the match filters choose, as one set (built once by SQLite)
    scope = f"SELECT {rev_id} {m_from}" + _where(mwhere) if (mwhere or not flt.all_revisions) else None
    scope_params = mparams if scope else []

    # findings: filtered on the findings table alone (the ids of each chosen revision's findings
    # are a range: see m004), joined to their matches for the rows shown
    if mwhere:  # a few revisions: their ranges (CROSS JOIN: SQLite keeps them the outer loop)
        ranges = (f"SELECT {rev}.first_finding_id AS lo, {rev}.first_finding_id + {rev}.error_count + "
                  f"{rev}.warning_count + {rev}.info_count - 1 AS hi {m_from}" + _where(mwhere))
        f_from = f"FROM ({ranges}) s CROSS JOIN findings f NOT INDEXED ON f.id BETWEEN s.lo AND s.hi" + _where(fwhere)
    else:  # all the (current) revisions: one pass over the findings
        f_from = "FROM findings f" + _where(([f"f.revision_id IN ({scope})"] if scope else []) + fwhere)
    f_params = scope_params + fparams
    lim = f" LIMIT {int(limit)}" if limit else ""
    findings = _rows(db.execute(
        "SELECT m.path, f.line, f.column, f.severity, f.kind, f.rule, f.message, f.hint, f.cite, f.player, "
        "f.player_name, f.card, r.revision, r.event, r.round, r.table_no, r.date, f.match_id, f.id AS finding_id "
        f"FROM (SELECT f.* {f_from} ORDER BY f.id{lim}) f "
        "JOIN match_revisions r ON r.id = f.revision_id JOIN matches m ON m.id = r.match_id "
        "ORDER BY f.id", f_params))
    total_findings = len(findings)
    if limit and total_findings >= limit:
        if fwhere:
            total_findings = db.execute(f"SELECT count(*) {f_from}", f_params).fetchone()[0]
        else:  # every finding of the chosen revisions: their counts say how many
            total_findings = db.execute(
                f"SELECT coalesce(sum({rev}.error_count + {rev}.warning_count + {rev}.info_count), 0) {m_from}"
                + _where(mwhere), mparams).fetchone()[0]
    # matches
    where = list(mwhere)
    params = list(mparams)
    if flt.on_findings:
        where.append(f"{rev_id} IN (SELECT f.revision_id FROM findings f{_where(fwhere)})")
        params += fparams
    matches, total_matches = _counted(db, fields, m_from + _where(where), order, limit, params)
    # notes
    notes: list[dict] = []
    total_notes = 0
    if flt.text:
        nparams = [_fts_query(db, flt.text)] + scope_params
        n_from = ("FROM notes n JOIN match_revisions r ON r.id = n.revision_id JOIN matches m ON m.id = r.match_id "
                  "WHERE n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)"
                  + (f" AND n.revision_id IN ({scope})" if scope else ""))
        notes, total_notes = _counted(db, "m.path, n.line, n.text, r.revision, n.match_id", n_from,
                                      "n.revision_id, n.line", limit, nparams)
        # the reviewers' verdict notes are searched too (a few rows: no full-text index needed)
        likes, like_params = _review_note_likes(flt.text)
        v_from = ("FROM reviews rv JOIN match_revisions r ON r.id = rv.revision_id JOIN matches m ON m.id = r.match_id "
                  f"WHERE rv.note != '' AND {likes}" + (f" AND rv.revision_id IN ({scope})" if scope else ""))
        verdicts, total_verdicts = _counted(
            db, "m.path, rv.line, 'verdict note (' || coalesce(rv.verdict, 'open') || ', ' || rv.rule || '): ' "
                "|| rv.note AS text, r.revision, rv.match_id", v_from, "rv.revision_id, rv.line", limit,
            like_params + scope_params)
        notes += verdicts
        total_notes += total_verdicts
    return SearchResult(matches, findings, notes, total_matches, total_findings, total_notes)


def _counted(db: Database, columns: str, from_sql: str, order: str, limit: int | None,
             params: list) -> tuple[list[dict], int]:
    """The first ``limit`` rows, and the number of all rows (counted only if the limit was hit)."""
    lim = f" LIMIT {int(limit)}" if limit else ""
    rows = _rows(db.execute(f"SELECT {columns} {from_sql} ORDER BY {order}{lim}", params))
    if limit and len(rows) >= limit:
        return rows, db.execute(f"SELECT count(*) {from_sql}", params).fetchone()[0]
    return rows, len(rows)


def _where(conditions: list[str]) -> str:
    return (" WHERE " + " AND ".join(conditions)) if conditions else ""


# ---- statistics -----------------------------------------------------------------------------
#: the kinds that are a player's mistakes (not the transcriber's: syntax, unknown cards)
MISTAKE_KINDS = ("illegal-activation", "wrong-timing", "ordering", "state")


def stats(db: Database, flt: Filters | None = None, *, top: int = 10, **filters: Any) -> dict[str, Any]:
    """Counts of findings per player, per rule, per event, per event and table.

    With a player filter, also that player's most frequent mistakes (errors and warnings of
    the kinds in :data:`MISTAKE_KINDS`), for coaching.
    """
    flt = flt or Filters(**filters)
    catch_up_index(db)
    mparams: list = []
    mwhere = _match_where(db, flt, mparams)
    fparams: list = []
    fwhere = _finding_where(db, flt, fparams)
    base = _revisions(flt)
    f_from = f"FROM findings f {_revisions(flt, 'f')}" + _where(mwhere + fwhere)
    f_params = mparams + fparams
    sev = ("count(*) AS findings, sum(f.severity = 'error') AS errors, "
           "sum(f.severity = 'warning') AS warnings, sum(f.severity = 'info') AS infos")
    out: dict[str, Any] = {}
    m_from = f"FROM {base}" + _where(mwhere)
    totals = db.execute(f"SELECT count(*) {m_from}", mparams).fetchone()
    ftotals = _rows(db.execute(f"SELECT {sev} {f_from}", f_params))[0]
    out["totals"] = {"matches": totals[0], **{k: v or 0 for k, v in ftotals.items()}}
    # per player: every player who played a chosen match, with the findings on their lines
    played = (f"SELECT r.player_a AS name, r.id AS rid {m_from} UNION ALL "
              f"SELECT r.player_b AS name, r.id AS rid {m_from}")
    players = _rows(db.execute(
        f"SELECT p.name AS player, count(DISTINCT p.rid) AS matches FROM ({played}) p "
        "GROUP BY p.name COLLATE NOCASE ORDER BY p.name COLLATE NOCASE", mparams + mparams))
    per_player = {row["player"].casefold(): row for row in _rows(db.execute(
        f"SELECT f.player_name AS player, {sev} FROM findings f {_revisions(flt, 'f')}"
        + _where(mwhere + fwhere + ["f.player_name IS NOT NULL"])
        + " GROUP BY f.player_name COLLATE NOCASE", f_params))}
    letter = _player_letter(flt.player)
    rows = []
    for p in players:
        if flt.player and not letter and p["player"].casefold() != flt.player.strip().casefold():
            continue
        counts = per_player.get(p["player"].casefold(), {})
        rows.append({"player": p["player"], "matches": p["matches"],
                     **{k: counts.get(k) or 0 for k in ("findings", "errors", "warnings", "infos")}})
    rows.sort(key=lambda r: (-r["findings"], r["player"].casefold()))
    out["players"] = rows
    out["rules"] = _rows(db.execute(
        f"SELECT f.rule, f.kind, f.severity, count(*) AS findings, count(DISTINCT f.match_id) AS matches "
        f"{f_from} GROUP BY f.rule ORDER BY findings DESC, f.rule", f_params))
    out["events"] = _grouped(db, ["event"], flt, mwhere, mparams, fwhere, fparams, base)
    out["tables"] = _grouped(db, ["event", "table_no"], flt, mwhere, mparams, fwhere, fparams, base)
    if flt.player:
        kinds_params: list = list(MISTAKE_KINDS)
        cond = (f"f.kind IN ({', '.join('?' for _ in MISTAKE_KINDS)}) AND f.severity IN ('error', 'warning')")
        out["mistakes"] = _rows(db.execute(
            f"SELECT f.rule, f.kind, count(*) AS findings, count(DISTINCT f.match_id) AS matches, "
            f"min(m.path || ':' || f.line) AS example "
            f"FROM findings f {_revisions(flt, 'f')}"
            + _where(mwhere + fwhere + [cond])
            + f" GROUP BY f.rule ORDER BY findings DESC, f.rule LIMIT {int(top)}",
            f_params + kinds_params))
    return out


def _grouped(db: Database, keys: list[str], flt: Filters, mwhere, mparams, fwhere, fparams, base) -> list[dict]:
    """Matches and findings per value of match columns ``keys`` (e.g. event, table)."""
    cols = ", ".join(f"r.{k} AS {k}" for k in keys)
    group = ", ".join(f"r.{k}" for k in keys)
    where = list(mwhere)
    params = list(mparams)
    fcond = " AND ".join(fwhere) if fwhere else "1"
    sql = (f"SELECT {cols}, count(*) AS matches, coalesce(sum(x.findings), 0) AS findings, "
           f"coalesce(sum(x.errors), 0) AS errors, coalesce(sum(x.warnings), 0) AS warnings "
           f"FROM {base} LEFT JOIN (SELECT f.revision_id, count(*) AS findings, "
           f"sum(f.severity = 'error') AS errors, sum(f.severity = 'warning') AS warnings "
           f"FROM findings f WHERE {fcond} GROUP BY f.revision_id) x ON x.revision_id = r.id"
           + _where(where) + f" GROUP BY {group} ORDER BY findings DESC, {group}")
    return _rows(db.execute(sql, fparams + params))


# ---- browsing (the window's Library view) ------------------------------------------------------
def match_text(db: Database, path: str, revision: int | None = None) -> str | None:
    """The log text of a match as imported (the current revision, or ``revision``)."""
    if revision is None:
        row = db.execute("SELECT v.text FROM matches m JOIN match_revisions v ON v.id = m.revision_id "
                         "WHERE m.path = ?", [library_path(path)]).fetchone()
    else:
        row = db.execute("SELECT v.text FROM matches m JOIN match_revisions v ON v.match_id = m.id "
                         "WHERE m.path = ? AND v.revision = ?", [library_path(path), revision]).fetchone()
    return row[0] if row else None


def match_revisions(db: Database, path: str) -> list[dict]:
    """Every revision of the match at ``path``: number, hash, when imported, counts."""
    return _rows(db.execute(
        "SELECT v.revision, v.content_hash, v.imported_at, v.event_count, v.error_count, v.warning_count, "
        "v.info_count FROM match_revisions v JOIN matches m ON m.id = v.match_id WHERE m.path = ? "
        "ORDER BY v.revision", [library_path(path)]))


def count_rows(db: Database) -> dict[str, int]:
    """Rows in each table (for summaries and tests)."""
    return {t: db.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0]
            for t in ("matches", "match_revisions", "events", "event_cards", "match_cards", "findings", "notes",
                      "reviews")}


def check_whole(db: Database) -> list[str]:
    """Revisions whose rows do not add up to their recorded counts (an empty list: all whole)."""
    bad = []
    for row in db.execute(
            "SELECT v.id, v.path, v.revision, v.event_count, v.error_count + v.warning_count + v.info_count, "
            "coalesce(json_array_length(v.events_json), 0), "
            "(SELECT count(*) FROM findings f WHERE f.revision_id = v.id AND f.id BETWEEN v.first_finding_id "
            "AND v.first_finding_id + v.error_count + v.warning_count + v.info_count - 1) "
            "FROM match_revisions v").fetchall():
        if row[3] != row[5] or row[4] != row[6]:
            bad.append(f"{row[1]} revision {row[2]}: {row[5]}/{row[3]} events, {row[6]}/{row[4]} findings")
    for row in db.execute("SELECT m.path FROM matches m LEFT JOIN match_revisions v ON v.id = m.revision_id "
                          "WHERE v.id IS NULL OR m.first_finding_id IS NOT v.first_finding_id").fetchall():
        bad.append(f"{row[0]}: no current revision, or not its findings")
    stray = db.execute("SELECT count(*) FROM findings f LEFT JOIN match_revisions v ON v.id = f.revision_id "
                       "WHERE v.id IS NULL OR f.id NOT BETWEEN v.first_finding_id AND v.first_finding_id "
                       "+ v.error_count + v.warning_count + v.info_count - 1").fetchone()[0]
    if stray:
        bad.append(f"{stray} findings outside the ranges of their revisions")
    return bad
