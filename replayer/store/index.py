"""The search tables (``match_cards``, ``notes``, ``notes_fts``), filled from the revision rows in batches."""

from __future__ import annotations

import sqlite3

from sqlite_utils import Database

from .schema import _SQL_INDEX_CARDS, _SQL_INDEX_NOTES, writing

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

