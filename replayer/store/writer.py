"""Writing checked logs into the library: one transaction a file; a bulk import's writes, a few dozen
files a transaction (each whole in a savepoint), with its search-table batches and its checkpoints
(:class:`BulkWriter`)."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from ..i18n import M, current as _language  # (a message for the user, in the chosen language)
from .index import _update_index, catch_up_index, update_index
from .jsontext import _dumps
from .moves import move_match, moved_match
from .paths import library_key
from .rows import Prepared, content_hash, rows_of
from .schema import (
    _HASH_KEY,
    _IDS,
    FINDING_COLUMNS_M002,
    HASH_KEY_LEN,
    MATCH_COLUMNS,
    _insert_sql,
    writing,
)

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
_SQL_FINDINGS = _insert_sql("findings", ["id", "event_id", *_IDS, *FINDING_COLUMNS_M002])


# ---- writing --------------------------------------------------------------------------------
@dataclass
class ImportOutcome:
    """What happened to one file: ``new``, ``revision``, ``unchanged``, ``duplicate``, ``moved``
    (a match's log found under a new path by its content: the match now points there) or
    ``skipped``.

    A file that could not be read is ``skipped`` with ``report``: the JSON object ``replayer check
    --format json`` prints for it, and ``message`` what ``check`` prints for it."""

    path: str
    status: str
    message: str = ""
    match_id: int | None = None
    revision: int | None = None
    findings: int = 0
    report: dict | None = None

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


def known_hash(db: Database, path: str) -> str | None:
    """The content hash of the current revision of the match at ``path`` (its key: :func:`library_key`)."""
    row = db.execute("SELECT content_hash FROM matches WHERE path = ?", [path]).fetchone()
    return row[0] if row else None


def save_prepared(db: Database, prepared: Prepared, *, index: bool = True) -> ImportOutcome:
    """Write one prepared file in one transaction. Same content again changes nothing.

    With ``index`` (the default) its cards and notes go into the search tables in the same
    transaction; a bulk import (:class:`BulkWriter`) passes ``False`` and fills them for many
    files at once (:func:`update_index`).

    The events, notes and cards go in as JSON values of the revision row; the findings
    with ``executemany`` on a prepared statement (faster than ``Table.insert_all``:
    docs/performance.md, Library).
    """
    with writing(db):
        return _write_rows(db.conn, prepared, index)



def _write_rows(conn: sqlite3.Connection, prepared: Prepared, index: bool) -> ImportOutcome:
    """The statements of :func:`save_prepared` (call in a transaction)."""
    path = prepared.path
    digest = prepared.content_hash
    row = conn.execute(_SQL_LOOKUP, (digest, digest[:HASH_KEY_LEN], path)).fetchone()
    if row[0] is not None and row[2] == digest:
        return ImportOutcome(path, "unchanged", match_id=row[0], revision=row[1])
    if prepared.status == "unchanged":  # the worker skipped it but the library changed since
        return ImportOutcome(path, "skipped", M("the library changed during the import; import it again").render(_language()))
    if row[0] is None and row[3] is not None:
        moved = moved_match(conn, path, digest)
        if moved is None:
            return ImportOutcome(path, "duplicate", M("same content as {path}", path=row[3]).render(_language()))
        # the same log, moved: its match (revisions, findings, verdicts) follows it
        match_id, old_key, revision = moved
        move_match(conn, match_id, path)
        return ImportOutcome(path, "moved", M("moved from {path}", path=old_key).render(_language()), match_id=match_id,
                             revision=revision)
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
        return M("[Date {value}] is not a date replayer can read: stored as written, not found by --from/--to",
                 value=repr(value)).render(_language())
    return ""


#: files a bulk import stores between two updates of the search tables
INDEX_BATCH = 200
#: files a bulk import stores between two checkpoints (run by :class:`_Checkpointer`)
CHECKPOINT_FILES = 200
#: WAL pages at which the importing connection checkpoints by itself, should the checkpoint
#: thread fall behind (SQLite's default: 1000 pages, for every other connection)
IMPORT_CHECKPOINT_PAGES = 50_000
#: files a bulk import writes in one transaction, and the longest it keeps one open (seconds):
#: each file is whole in it (a savepoint of its own), and its outcome is told once it is committed
COMMIT_FILES = 50
COMMIT_SECONDS = 0.2


def import_result(db: Database, result: Any, data: bytes | None = None, path: str | None = None) -> ImportOutcome:
    """Store a checked log (a :class:`~replayer.check.CheckResult`): its ``data`` (default: its
    lines) under ``path`` (default: the match's path)."""
    match = result.match
    if data is None:
        data = "\n".join(match.lines).encode("utf-8")
    return save_prepared(db, rows_of(result, library_key(db, path or match.path), content_hash(data), data))


class BulkWriter:
    """The writes of a bulk import (:func:`replayer.importing.import_paths`).

    The files are written in transactions of up to :data:`COMMIT_FILES` files (or
    :data:`COMMIT_SECONDS`), each file in a savepoint of its own: a file is in the library whole
    or not at all, and a killed import leaves the files of the transactions it committed. A
    file's outcome is handed back (:meth:`add`, :meth:`flush`) only once its transaction is
    committed, in the order the files came; a file whose write fails is rolled back alone, the
    files before it are committed, and :attr:`failed` holds the error (the import raises it).
    Within a caller's transaction each file is written at once, in a savepoint.

    The search tables are filled every :data:`INDEX_BATCH` files and at the end (:meth:`close`);
    the WAL is checkpointed by a thread of its own meanwhile (:class:`_Checkpointer`). Make it
    after any worker processes (a process forked with threads running can inherit a lock one
    of them held), and close it after they stopped.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.stored = 0
        self.failed: BaseException | None = None
        self._pending: list[ImportOutcome] = []  # told once committed, in order
        self._writes = 0  # files written in the open transaction
        self._opened = 0.0  # when it began
        self._indexed = 0  # files stored when the search tables were last filled
        self._checkpointer = _Checkpointer.start(db)
        if self._checkpointer is not None:
            db.execute(f"PRAGMA wal_autocheckpoint={IMPORT_CHECKPOINT_PAGES}")

    def add(self, prepared: "Prepared | ImportOutcome") -> list[ImportOutcome]:
        """Take the next file (a file skipped is an :class:`ImportOutcome` already); returns the
        outcomes committed by now, in order (often none: they wait for their transaction)."""
        if type(prepared) is ImportOutcome:
            if not self._pending:
                return [prepared]  # nothing waits before it
            self._pending.append(prepared)
            return self._due()
        conn = self.db.conn
        if conn.in_transaction and not self._writes:  # the caller's transaction: each file at once
            outcome = save_prepared(self.db, prepared, index=False)
            self._stored(1 if outcome.stored else 0)
            return [outcome]
        if not self._writes:
            conn.execute("BEGIN IMMEDIATE")
            self._opened = time.monotonic()
        self._writes += 1
        conn.execute("SAVEPOINT replayer_file")
        try:
            outcome = _write_rows(conn, prepared, False)
        except BaseException as e:
            conn.execute("ROLLBACK TO replayer_file")
            conn.execute("RELEASE replayer_file")
            self.failed = e
            return self.flush()
        conn.execute("RELEASE replayer_file")
        self._pending.append(outcome)
        return self._due()

    def _due(self) -> list[ImportOutcome]:
        if self._writes >= COMMIT_FILES or (self._writes and time.monotonic() - self._opened >= COMMIT_SECONDS):
            return self.flush()
        return []

    def flush(self) -> list[ImportOutcome]:
        """Commit the open transaction; returns the outcomes waiting for it."""
        if self._writes:
            self.db.conn.execute("COMMIT")
            self._writes = 0
        done, self._pending = self._pending, []
        self._stored(sum(1 for o in done if o.stored))
        return done

    def _stored(self, n: int) -> None:
        if not n:
            return
        self.stored += n
        if self.stored - self._indexed >= INDEX_BATCH and not self.db.conn.in_transaction:
            self._indexed = self.stored
            try:
                update_index(self.db)
            except sqlite3.OperationalError:
                pass  # locked for long by another writer: the next batch, or a search, catches up
        if self._checkpointer is not None:
            self._checkpointer.between_files(self.stored)

    def save(self, prepared: Prepared) -> ImportOutcome:
        """Write one file at once (:func:`save_prepared`, the search tables later)."""
        (outcome,) = self.add(prepared) + self.flush()
        if self.failed is not None:
            failed, self.failed = self.failed, None
            raise failed
        return outcome

    def close(self) -> None:
        """Roll back what was not committed, stop the checkpoints and bring the search tables up
        to date."""
        if self._writes:
            self._writes = 0
            self._pending = []
            try:
                self.db.conn.rollback()
            except sqlite3.ProgrammingError:
                pass  # closed already
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            checkpointer.stop()
        try:
            if checkpointer is not None:
                self.db.execute("PRAGMA wal_autocheckpoint=1000")  # SQLite's default
            if self.stored:
                catch_up_index(self.db)
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
        self._asked = 0  # files stored when a checkpoint was last asked for
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
        """Called by the importer between two transactions (``stored`` files so far): asks for a
        checkpoint every :data:`CHECKPOINT_FILES` files; once one has run, the importer copies the frames
        written meanwhile itself, so that its next transaction starts the WAL over."""
        if self.finished != self._seen:
            self._seen = self.finished
            if not self._conn.in_transaction:  # (within a caller's transaction the WAL cannot start over)
                try:
                    self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.OperationalError:
                    pass  # busy: SQLite's own auto-checkpoint, or the next round, does it
        elif stored - self._asked >= CHECKPOINT_FILES:
            self._asked = stored
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

