"""Logs that moved: found again by their content hash (``matches.content_hash``, the SHA-256 of
the file's bytes), and the library's root changed.

A match whose file is not where the library has it is looked for among the ``.duel`` files of a
folder (the library's root unless told): a file with the bytes of the match's current revision
is the same log, moved or renamed, and the match is relinked to it (its path changes; its
revisions, findings and verdicts stay with it, under its id). A file of the same name with other
bytes is reported (edited after it moved?), never relinked: the library cannot know it is the
same match. This is the one place the store reads a file, and it reads only its bytes, to hash
them.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Iterable

from sqlite_utils import Database

from ..i18n import M, current as _language  # (a message for the user, in the chosen language)
from ..errors import LibraryError

from .paths import (
    DEFAULT_ROOT,
    ROOT_SETTING,
    absolute_path,
    is_absolute_key,
    key_for,
    library_folder,
    library_root,
    rekey_paths,
    resolve_key,
    root_setting,
)
from .rows import content_hash
from .schema import _HASH_KEY, HASH_KEY_LEN, writing

#: the files a scan looks at
LOG_SUFFIX = ".duel"


class LogScan:
    """The ``.duel`` files under a folder (real paths, sorted), hashed when first asked.

    >>> scan = LogScan("/no/such/folder")
    >>> scan.files
    []
    """

    def __init__(self, folder: str | os.PathLike[str] | None):
        self.folder = absolute_path(folder) if folder is not None else None
        self.files: list[str] = []
        self._names: dict[str, list[str]] = {}
        self._hashes: dict[str, str | None] = {}
        self._by_hash: dict[str, list[str]] | None = None
        if self.folder is None or not os.path.isdir(self.folder):
            return
        for top, dirs, names in os.walk(self.folder):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(LOG_SUFFIX):
                    path = os.path.join(top, name)
                    if os.path.isfile(path):
                        self.files.append(path)
                        self._names.setdefault(name, []).append(path)

    def named(self, name: str) -> list[str]:
        """The files called ``name``."""
        return list(self._names.get(name, ()))

    def hash_of(self, path: str) -> str | None:
        """The content hash of a file (None: it cannot be read)."""
        if path not in self._hashes:
            try:
                with open(path, "rb") as f:
                    self._hashes[path] = content_hash(f.read())
            except OSError:
                self._hashes[path] = None
        return self._hashes[path]

    def with_hash(self, digest: str, name: str | None = None) -> list[str]:
        """The files whose bytes have ``digest``: those called ``name`` are hashed first (a moved
        log keeps its name, mostly); only when none has it are all the files hashed."""
        if name is not None and self._by_hash is None:
            same = [p for p in self.named(name) if self.hash_of(p) == digest]
            if same:
                return same
        if self._by_hash is None:
            self._by_hash = {}
            for path in self.files:
                h = self.hash_of(path)
                if h is not None:
                    self._by_hash.setdefault(h, []).append(path)
        found = self._by_hash.get(digest, [])
        # the files of the same name first
        return sorted(found, key=lambda p: (os.path.basename(p) != name, p))


@dataclass
class Located:
    """Where a match's log is: ``here`` (where the library has it), ``moved`` (found by its
    content under another path: ``path``), ``edited`` (only files of its name with other
    content: ``candidates``), ``missing``, or ``unknown`` (no such match)."""

    status: str
    key: str
    was: str  # where the library had it, on this machine
    path: str | None = None  # where it is now
    candidates: list[str] = field(default_factory=list)
    match_id: int | None = None
    recorded: bool = False  # a move written into the library

    @property
    def found(self) -> bool:
        return self.path is not None


@dataclass
class RelinkReport:
    """What :func:`relink` found: matches relinked (``moved``: (was, now)), still missing, only
    files of their name with other content (``edited``: (was, candidates)), present but changed
    since imported (``changed``), or whose content is at a path the library holds as another
    match (``taken``: (was, that path))."""

    folder: str | None
    scanned: int = 0
    matches: int = 0
    present: int = 0
    moved: list[tuple[str, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    edited: list[tuple[str, list[str]]] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    taken: list[tuple[str, str]] = field(default_factory=list)
    dry_run: bool = False

    @property
    def lost(self) -> int:
        """Matches whose log is still not found."""
        return len(self.missing) + len(self.edited) + len(self.taken)

    def to_dict(self) -> dict[str, Any]:
        return {"folder": self.folder, "scanned": self.scanned, "matches": self.matches, "present": self.present,
                "moved": [{"was": a, "now": b} for a, b in self.moved], "missing": self.missing,
                "edited": [{"was": a, "candidates": c} for a, c in self.edited], "changed": self.changed,
                "taken": [{"was": a, "at": b} for a, b in self.taken], "dry_run": self.dry_run}


_SQL_MATCHES = "SELECT id, path, content_hash, file FROM matches"


def _move(conn: sqlite3.Connection, match_id: int, key: str) -> None:
    """Point the match and its revisions at ``key`` (call in a transaction)."""
    name = key.rsplit("/", 1)[-1] if not is_absolute_key(key) else os.path.basename(key)
    conn.execute("UPDATE matches SET path = ?, file = ? WHERE id = ?", [key, name, match_id])
    conn.execute("UPDATE match_revisions SET path = ? WHERE match_id = ?", [key, match_id])


def _known(conn: sqlite3.Connection, key: str) -> bool:
    return conn.execute("SELECT 1 FROM matches WHERE path = ?", [key]).fetchone() is not None


def moved_match(conn: sqlite3.Connection, key: str, digest: str) -> tuple[int, str, int] | None:
    """The match (id, key, revision) whose current content is ``digest`` and whose log is gone
    from where the library has it, when the file at ``key`` (new to the library) is on disk:
    the same log, moved; None when there is no such match (a copy: a duplicate)."""
    root = library_root(conn)
    if not os.path.isfile(resolve_key(key, root)):
        return None  # a log stored under a name (import_text): no file moved there
    for match_id, old_key, revision in conn.execute(
            f"SELECT id, path, revision FROM matches WHERE {_HASH_KEY} = ? AND +content_hash = ? ORDER BY id",
            [digest[:HASH_KEY_LEN], digest]).fetchall():
        if not os.path.isfile(resolve_key(old_key, root)):
            return match_id, old_key, revision
    return None


def move_match(conn: sqlite3.Connection, match_id: int, key: str) -> None:
    """Point the match and its revisions at ``key`` (call in a transaction)."""
    _move(conn, match_id, key)


def match_key(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> str:
    """The key of the match of the file at ``path``: its own key when the library has a match
    there; else, if the library has its content as a match whose log is gone (moved there,
    not relinked yet), that match's key; else its own key."""
    root = library_root(conn)
    key = key_for(absolute_path(path), root)
    if _known(conn, key):
        return key
    try:
        with open(path, "rb") as f:
            digest = content_hash(f.read())
    except OSError:
        return key
    moved = moved_match(conn, key, digest)
    return moved[1] if moved else key


def locate(db: Database, path: str | os.PathLike[str], *, scan: LogScan | None = None,
           record: bool = True) -> Located:
    """Where the log of the match at ``path`` (where the library has it, as a search shows it)
    is now.

    A log not where the library has it is looked for by its content in ``scan`` (default: the
    library's root) and, with ``record``, the move is written into the library (skipped
    quietly when the library cannot be written)."""
    conn = db.conn
    root = library_root(conn)
    key = key_for(absolute_path(path), root)
    row = conn.execute(_SQL_MATCHES + " WHERE path = ?", [key]).fetchone()
    if row is None:
        return Located("unknown", key, resolve_key(key, root))
    match_id, _, digest, file = row
    was = resolve_key(key, root)
    if os.path.isfile(was):
        return Located("here", key, was, was, match_id=match_id)
    scan = scan if scan is not None else LogScan(root)
    for candidate in scan.with_hash(digest, file):
        new_key = key_for(candidate, root)
        if _known(conn, new_key):
            continue  # another match's file
        located = Located("moved", key, was, candidate, match_id=match_id)
        if record:
            try:
                with writing(db):
                    if not _known(conn, new_key):
                        _move(conn, match_id, new_key)
                        located.recorded = True
            except sqlite3.OperationalError:
                pass  # a read-only library: the file opens, the library keeps its old path
        return located
    same_name = [p for p in scan.named(file) if scan.hash_of(p) != digest]
    if same_name:
        return Located("edited", key, was, candidates=same_name, match_id=match_id)
    return Located("missing", key, was, match_id=match_id)


def relink(db: Database, folder: str | os.PathLike[str] | None = None, *, dry_run: bool = False) -> RelinkReport:
    """Find the logs that are not where the library has them among the ``.duel`` files under
    ``folder`` (default: the library's root), by their content hash, and point their matches
    at them (not with ``dry_run``). Reports also the logs present but changed since imported."""
    conn = db.conn
    root = library_root(conn)
    scan = LogScan(folder if folder is not None else root)
    report = RelinkReport(scan.folder, scanned=len(scan.files), dry_run=dry_run)
    rows = conn.execute(_SQL_MATCHES + " ORDER BY path").fetchall()
    report.matches = len(rows)
    lost = []
    held: set[str] = set()  # the files present matches are at
    for match_id, key, digest, file in rows:
        was = resolve_key(key, root)
        if os.path.isfile(was):
            report.present += 1
            held.add(absolute_path(was))
            if scan.hash_of(was) != digest:
                report.changed.append(was)
        else:
            lost.append((match_id, key, digest, file, was))
    moves: list[tuple[int, str]] = []
    taken_now: set[str] = set(held)
    for match_id, key, digest, file, was in lost:
        found = scan.with_hash(digest, file)
        free = [p for p in found if p not in taken_now]
        if free:
            taken_now.add(free[0])
            moves.append((match_id, key_for(free[0], root)))
            report.moved.append((was, free[0]))
        elif found:
            report.taken.append((was, found[0]))
        else:
            same_name = [p for p in scan.named(file) if scan.hash_of(p) != digest]
            if same_name:
                report.edited.append((was, same_name))
            else:
                report.missing.append(was)
    if moves and not dry_run:
        with writing(db):
            # in two steps: a new path may be one another moved match has until its own turn
            conn.executemany("UPDATE matches SET path = char(0) || id WHERE id = ?", [(i,) for i, _ in moves])
            for match_id, new_key in moves:
                _move(conn, match_id, new_key)
    return report


def move_to(db: Database, was: str | os.PathLike[str], now: str | os.PathLike[str]) -> tuple[str, str]:
    """Point the match at ``was`` (as the library shows it) at the file ``now``, whatever its
    content: what a person does for a log that moved and was edited (:func:`relink` will not).
    The next import of ``now`` stores its content as a new revision of the match. Returns the
    (old, new) keys; raises :class:`~replayer.errors.LibraryError` for a match the library does
    not have, a file that is not there, or one the library holds as another match."""
    conn = db.conn
    root = library_root(conn)
    old = key_for(absolute_path(was), root)
    row = conn.execute("SELECT id FROM matches WHERE path = ?", [old]).fetchone()
    if row is None:
        raise LibraryError(M("{path}: the library has no match there", path=os.fspath(was)).render(_language()))
    if not os.path.isfile(now):
        raise LibraryError(M("{path}: no such file", path=os.fspath(now)).render(_language()))
    new = key_for(absolute_path(now), root)
    with writing(db):
        if new != old and _known(conn, new):
            raise LibraryError(M("{path}: the library has it as another match", path=os.fspath(now)).render(_language()))
        _move(conn, row[0], new)
    return old, new


def missing_logs(db: Database, keys: Iterable[str] | None = None) -> set[str]:
    """The keys of the matches (all, or ``keys``) whose log is not where the library has it
    (a look at the file system only: nothing is hashed)."""
    root = library_root(db.conn)
    if keys is None:
        keys = [r[0] for r in db.execute("SELECT path FROM matches")]
    return {k for k in keys if not os.path.isfile(resolve_key(k, root))}


@dataclass
class RootChange:
    """What :func:`set_root` did: the root as kept (``setting``), where it is now (``root``),
    how many paths changed."""

    setting: str
    root: str | None
    changed: int


def set_root(db: Database, root: str | os.PathLike[str] | None) -> RootChange:
    """Make ``root`` (a folder; None: the library's own folder) the library's root: kept relative
    to the library's folder (absolute only where it cannot be: another drive), and every path
    made relative to it where it is under it."""
    conn = db.conn
    folder = library_folder(conn)
    if folder is None:
        return RootChange(DEFAULT_ROOT, None, 0)
    if root is None:
        setting = DEFAULT_ROOT
    else:
        target = absolute_path(root)
        try:
            setting = os.path.relpath(target, folder).replace(os.sep, "/")
        except ValueError:  # another drive (Windows)
            setting = target
    with writing(db):
        old = library_root(conn)
        conn.execute("INSERT OR REPLACE INTO library_settings (key, value) VALUES (?, ?)", [ROOT_SETTING, setting])
        new = library_root(conn)
        changed = rekey_paths(conn, old, new)
    return RootChange(setting, new, changed)


@dataclass
class LibraryPlaces:
    """Where a library's logs are: its root, its matches kept relative to it or by an absolute
    path, and those whose file is not where the library has it."""

    root: str | None
    setting: str
    matches: int
    relative: int
    absolute: int
    missing: list[str]


def library_places(db: Database) -> LibraryPlaces:
    """The root and the paths of a library (a look at the file system: nothing is hashed)."""
    conn = db.conn
    root = library_root(conn)
    keys = [r[0] for r in conn.execute("SELECT path FROM matches ORDER BY path")]
    absolute = sum(1 for k in keys if is_absolute_key(k))
    missing = [resolve_key(k, root) for k in keys if not os.path.isfile(resolve_key(k, root))]
    return LibraryPlaces(root, root_setting(conn), len(keys), len(keys) - absolute, absolute, missing)
