"""Where the library lives, opening it (migrated, its search tables caught up), and what SQLite
says of a damaged one."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from ..i18n import M, current as _language  # (a message for the user, in the chosen language)
from ..errors import LibraryDamaged, LibraryError
from .index import catch_up_index
from .schema import APP_NAME, MIGRATIONS, _check_known, migrate


# ---- where the library lives --------------------------------------------------------------
def default_library_path() -> Path:
    """``library.db`` in the user's data folder (``platformdirs.user_data_dir("replayer")``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME)) / "library.db"


def open_library(path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> Database:
    """Open (creating it if need be) the library at ``path``, or the default one.

    The schema is brought up to date, WAL is switched on (not for ``:memory:``).
    Raises :class:`LibraryError` for a file that is not a library, or one made by a newer
    replayer.

    ``read_only`` opens an existing library as it is, for reading only (SQLite's ``mode=ro``):
    nothing is migrated or indexed, and a library that needs a migration is refused.
    """
    if path is None:
        path = default_library_path()
    name = str(path)
    if read_only and name != ":memory:":
        return _open_read_only(name)
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
        if is_damage(e):
            raise LibraryDamaged(name, str(e), integrity_verdict(name)) from None
        if "readonly" in str(e):
            raise LibraryError(M("{name}: the library is read-only ({error}); search and stats read it as it is, "
                                 "importing needs a writable library", name=name, error=str(e)).render(_language())) from None
        raise LibraryError(M("{name}: not a replayer library ({error})", name=name, error=str(e)).render(_language())) from None
    except LibraryError:
        db.close()
        raise
    return db


def library_writable(path: str | os.PathLike[str]) -> bool:
    """Whether this process may write the library at ``path`` and its folder (the folder holds
    the WAL files). A missing library is writable if its folder is (or can be made)."""
    p = Path(path)
    if p.exists():
        return os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return os.access(parent, os.W_OK)


def _open_read_only(name: str) -> Database:
    uri = Path(name).resolve().as_uri()
    conn = None
    try:
        # a WAL library on a read-only share has no -shm file and none can be made: SQLite then
        # reads it only as immutable (nobody writes it while we read)
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = sqlite3.connect(uri + query, uri=True, timeout=30)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                break
            except sqlite3.OperationalError:
                if conn is not None:
                    conn.close()
                conn = None
                if query.endswith("immutable=1"):
                    raise
        db = Database(conn)
        _check_known(db)
        pending = [m.name for m in MIGRATIONS.pending(db)]
        if pending:
            db.close()
            raise LibraryError(M("{name}: the library is read-only and was made by an older replayer; it needs "
                                 "the migrations {migrations}: open a writable copy once to upgrade it", name=name,
                                 migrations=", ".join(pending)).render(_language()))
    except sqlite3.DatabaseError as e:
        if conn is not None:
            conn.close()
        if is_damage(e):
            raise LibraryDamaged(name, str(e), integrity_verdict(name)) from None
        raise LibraryError(M("{name}: not a replayer library ({error})", name=name, error=str(e)).render(_language())) from None
    return db


def is_damage(error: BaseException) -> bool:
    """Whether an SQLite error says the file is corrupt (not locked, not missing)."""
    text = str(error).lower()
    return isinstance(error, sqlite3.DatabaseError) and any(
        w in text for w in ("malformed", "not a database", "corrupt", "disk i/o error"))


def integrity_verdict(path: str | os.PathLike[str], *, lines: int = 5) -> str:
    """What ``PRAGMA integrity_check`` says of the library at ``path`` (its first ``lines``
    problems), from a read-only connection of its own."""
    rows: list[str] = []
    stopped = ""
    try:
        conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as e:
        return f"nothing: it cannot open the file ({e})"
    try:
        stopped = _integrity_rows(conn, "PRAGMA integrity_check", rows)
        if stopped and not rows:
            # the whole check gave up at once: check table by table, to say which are damaged
            try:
                tables = [r[0] for r in conn.execute(_SQL_TABLES)]
            except sqlite3.Error:
                tables = []
            for table in tables:
                error = _integrity_rows(conn, f"PRAGMA integrity_check({_quote(table)})", rows)
                if error:
                    rows.append(f"table {table}: {error}")
            if rows:
                stopped = ""
    finally:
        conn.close()
    if rows == ["ok"] and not stopped:
        return "ok"
    rows = [r for r in rows if r != "ok"]
    if not rows:
        return f"nothing: it stops at once ({stopped})"
    shown = "; ".join(rows[:lines]) + (f" … and {len(rows) - lines} more" if len(rows) > lines else "")
    return shown + (f" (then it stops: {stopped})" if stopped else "")


_SQL_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"


def _integrity_rows(conn: sqlite3.Connection, sql: str, rows: list[str]) -> str:
    """Add the problem lines of one integrity check to ``rows``; the error it stopped at, or ""."""
    try:
        for row in conn.execute(sql):
            rows += [line for line in str(row[0]).splitlines() if not line.startswith("*** ")]
    except sqlite3.Error as e:
        return str(e)
    return ""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'

