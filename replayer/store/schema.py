"""The library's schema: its tables, views and indexes, the migrations m001–m005 that make them,
and the write transaction every change goes through."""

from __future__ import annotations

import datetime
import os
import sqlite3
from contextlib import contextmanager
from typing import Iterable, Iterator

from sqlite_utils import Database, Migrations

from ..i18n import M, current as _language  # (a message for the user, in the chosen language)
from ..errors import LibraryError
from .jsontext import _ASCII_LOWER, _dumps
from .paths import DEFAULT_ROOT, ROOT_SETTING, library_root, rekey_paths

#: the migration set of the library schema; each function runs once, in a transaction
MIGRATIONS = Migrations("replayer")
APP_NAME = "replayer"


def migrate(db: Database) -> list[str]:
    """Apply the pending migrations; return the names applied now. A brand-new library (no
    table at all) is made at once from :data:`replayer.store.fresh.STATEMENTS`, what the
    migrations make of an empty file (~5x faster than running them; ``tests/store/test_fresh.py``
    checks that the two are the same, and prints the module anew when a migration changes)."""
    if _made_fresh(db):
        return [m.name for m in MIGRATIONS._migrations]
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


def _made_fresh(db: Database) -> bool:
    """Make an empty library's schema, its rows and its record of the migrations from
    :mod:`replayer.store.fresh`, in one transaction; False (nothing done) if it has a table."""
    from .fresh import MIGRATIONS_MADE, ROWS, STATEMENTS

    if [m.name for m in MIGRATIONS._migrations] != list(MIGRATIONS_MADE):
        return False  # (a migration added since the module was printed: the test says so)
    conn = db.conn
    if conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
        return False
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:
        return False  # (another process is writing it: the migrations wait for it and see)
    try:
        if conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
            conn.execute("ROLLBACK")  # (made meanwhile by another process)
            return False
        for statement in STATEMENTS:
            conn.execute(statement)
        for sql, params in ROWS:
            conn.execute(sql, params)
        now = str(datetime.datetime.now(datetime.timezone.utc))
        conn.executemany("INSERT INTO [_sqlite_migrations] ([migration_set], [name], [applied_at]) VALUES (?, ?, ?)",
                         [(MIGRATIONS.name, name, now) for name in MIGRATIONS_MADE])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return True


#: the tables an FTS5 table makes for itself (not made by a statement of ours)
_FTS_SHADOWS = ("_data", "_idx", "_docsize", "_config", "_content")


def schema_of_migrated() -> str:
    """The text of :mod:`replayer.store.fresh`: the schema and rows the migrations make of an
    empty library (tables, then indexes, views and triggers, each in the order made)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        db = Database(sqlite3.connect(os.path.join(folder, "new.db")))
        try:
            MIGRATIONS.apply(db)
            conn = db.conn
            fts = [name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")]
            shadows = {f + s for f in fts for s in _FTS_SHADOWS}
            order = {"table": 0, "index": 1, "view": 2, "trigger": 3}
            objects = [(order[t], rowid, name, sql) for rowid, t, name, sql in conn.execute(
                "SELECT rowid, type, name, sql FROM sqlite_master WHERE sql IS NOT NULL")
                if name not in shadows]
            statements = [sql for _, _, _, sql in sorted(objects)]
            rows = []
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").fetchall():
                if table == MIGRATIONS.migrations_table or table in shadows or table in fts:
                    continue
                cols = [r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")]
                for values in conn.execute(f"SELECT * FROM [{table}] ORDER BY rowid"):
                    rows.append((f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
                                 f"VALUES ({', '.join('?' * len(cols))})", tuple(values)))
            made = [name for (name,) in conn.execute(f"SELECT name FROM [{MIGRATIONS.migrations_table}] ORDER BY rowid")]
        finally:
            db.close()
    lines = ['"""What the migrations (:mod:`replayer.store.schema`) make of an empty library: a new one is',
             "made from this at once. Printed by ``schema.schema_of_migrated()``; do not edit by hand",
             '(``tests/store/test_fresh.py`` checks it and prints it anew)."""', "",
             "#: the migrations whose result this is, in order",
             f"MIGRATIONS_MADE = {tuple(made)!r}", "", "#: the tables, indexes, views and triggers",
             "STATEMENTS = ("]
    lines += [f"    {sql!r}," for sql in statements]
    lines += [")", "", "#: their rows (statement, values)", "ROWS = ("]
    lines += [f"    {row!r}," for row in rows]
    lines += [")", ""]
    return "\n".join(lines)


def schema_version(db: Database) -> list[str]:
    """The names of the migrations recorded in the library, in order."""
    return [m.name for m in MIGRATIONS.applied(db)]


def _check_known(db: Database) -> None:
    known = {m.name for m in MIGRATIONS._migrations}
    unknown = [name for name in schema_version(db) if name not in known]
    if unknown:
        raise LibraryError(M("this library was made by a newer replayer (migrations {migrations}); upgrade replayer "
                             "to use it", migrations=", ".join(unknown)).render(_language()))



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
# A revision keeps its events as one JSON array, ``match_revisions.events_json`` (a row an event
# was most of the cost of storing a file: docs/performance.md, Library); ``events`` and
# ``event_cards`` are views over it with the columns of the tables they replace. The card search
# reads ``match_cards`` (the distinct cards of a revision) and ``findings.cards`` (those on a
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
    # findings(rule, revision_id) went: a rule search scans the (small) findings rows, and the
    # index cost every file's commit a page per rule it found
    "DROP INDEX IF EXISTS idx_findings_rule",
]


# ---- m003: a short key for the content-hash lookup ---------------------------------------------
# The duplicate check looks a file's content hash up by an index on its first HASH_KEY_LEN digits
# (more entries a page than the whole hash: fewer pages written a commit); the lookup compares the
# whole hash too, so a shared prefix changes nothing.

#: hex digits of the content hash in ``idx_matches_hash_key``
HASH_KEY_LEN = 10
_HASH_KEY = f"substr(content_hash, 1, {HASH_KEY_LEN})"


@MIGRATIONS()
def m003_hash_key(db: Database) -> None:
    """Replace the index on ``matches.content_hash`` by one on its first digits."""
    db.execute("DROP INDEX IF EXISTS idx_matches_content_hash")
    db.execute(f"CREATE INDEX IF NOT EXISTS idx_matches_hash_key ON matches({_HASH_KEY})")


# ---- m004: fewer B-trees written a file ----------------------------------------------------------
# Each B-tree a file's transaction touches costs its commit at least one page of the WAL. Since m004:
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



# ---- m005: paths relative to the library's root --------------------------------------------------
# A library named each match by its log's absolute path: copied to another machine, or on a
# share mounted elsewhere, it found none of its logs. Since m005 a log under the library's root
# (a setting, ``library_settings.root``, relative to the library's folder: ``.`` at first) is
# kept by its path relative to the root (see :mod:`replayer.store.paths`).

@MIGRATIONS()
def m005_relative_paths(db: Database) -> None:
    """Add ``library_settings`` (the root: the library's folder) and make the absolute paths of
    the logs under it relative to it (``matches.path``, ``match_revisions.path``)."""
    db["library_settings"].create({"key": str, "value": str}, pk="key")
    db.execute("INSERT INTO library_settings (key, value) VALUES (?, ?)", [ROOT_SETTING, DEFAULT_ROOT])
    root = library_root(db.conn)
    if root is not None:
        rekey_paths(db.conn, None, root)


def _insert_sql(table: str, columns: Iterable[str]) -> str:
    cols = list(columns)
    return (f"INSERT INTO [{table}] ({', '.join('[' + c + ']' for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})")



#: the search tables (see :mod:`replayer.store.index`), used by m002 too
_SQL_MATCH_CARDS = "INSERT INTO match_cards (revision_id, match_id, cards) VALUES (?, ?, ?)"
#: fill the search tables (``match_cards``, ``notes``) from the revisions after ``?1``
_SQL_INDEX_CARDS = ("INSERT INTO match_cards (revision_id, match_id, cards) SELECT id, match_id, cards "
                    "FROM match_revisions WHERE id > ?1 AND cards IS NOT NULL ORDER BY id")
_SQL_INDEX_NOTES = ("INSERT INTO notes (event_id, match_id, revision_id, line, [text]) "
                    "SELECT r.first_event_id + (j.value ->> 0), r.match_id, r.id, j.value ->> 1, j.value ->> 2 "
                    "FROM match_revisions r, json_each(r.notes_json) j WHERE r.id > ?1 AND r.notes_json IS NOT NULL "
                    "ORDER BY r.id, j.key")



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

