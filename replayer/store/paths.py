"""A log's path in the library: kept relative to the library's root, resolved against it.

A library names each match by its log's path (``matches.path``, unique). Since m005 a log
under the library's *root* is kept by its path relative to that root, with ``/`` between the
parts (``logs/2024/round-1.duel``), so that the library and its logs can be copied to another
machine, or a share mounted elsewhere, and still find each other. A log outside the root is
kept by its absolute path, as before.

The root is a setting kept in the library (``library_settings``, key ``root``), itself
relative to the folder the library file is in: ``.`` (the default) is that folder, ``..`` the
one above. An in-memory library has no folder: its paths stay absolute.

>>> key_for("/share/event/logs/a.duel", "/share/event")
'logs/a.duel'
>>> key_for("/elsewhere/b.duel", "/share/event")
'/elsewhere/b.duel'
>>> resolve_key("logs/a.duel", "/mnt/team/event") == os.path.join("/mnt/team/event", "logs", "a.duel")
True
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

#: the key of the root in ``library_settings``
ROOT_SETTING = "root"
#: the root of a new library: the folder its file is in
DEFAULT_ROOT = "."


#: (library file, root setting) -> the root's real path (a search asks for it each time)
_REAL_ROOTS: dict[tuple[str, str], str] = {}


def _library_file(conn: Any) -> str:
    row = conn.execute("PRAGMA database_list").fetchone()
    return row[2] if row else ""


def library_folder(conn: Any) -> str | None:
    """The folder of the library's file (real path), or None for an in-memory library.

    ``conn``: a :class:`sqlite3.Connection` or a sqlite-utils ``Database``."""
    name = _library_file(conn)
    return os.path.dirname(os.path.realpath(name)) if name else None


def root_setting(conn: Any) -> str:
    """The root as the library keeps it (relative to its folder, or absolute)."""
    try:
        row = conn.execute("SELECT value FROM library_settings WHERE key = ?", [ROOT_SETTING]).fetchone()
    except sqlite3.OperationalError:  # a library older than m005 (being migrated)
        return DEFAULT_ROOT
    return row[0] if row and row[0] else DEFAULT_ROOT


def library_root(conn: Any) -> str | None:
    """The folder the library's relative paths start from, on this machine (real path); None
    for an in-memory library."""
    name = _library_file(conn)
    if not name:
        return None
    setting = root_setting(conn)
    root = _REAL_ROOTS.get((name, setting))
    if root is None:
        folder = os.path.dirname(os.path.realpath(name))
        root = os.path.realpath(os.path.join(folder, *setting.split("/")))
        if len(_REAL_ROOTS) > 100:
            _REAL_ROOTS.clear()
        _REAL_ROOTS[(name, setting)] = root
    return root


def is_absolute_key(key: str) -> bool:
    """Whether a stored path is absolute (on this system, or a Windows one read elsewhere)."""
    # "/…", "\\server\…", or a drive ("C:\…", "C:/…")
    return key.startswith(("/", "\\")) or key[1:3] in (":\\", ":/") or os.path.isabs(key)


def key_for(path: str, root: str | None) -> str:
    """The library's key of the file at ``path`` (absolute, resolved): relative to ``root``
    (``/`` between parts) when under it, else ``path`` itself."""
    if root:
        prefix = root if root.endswith(os.sep) else root + os.sep
        if os.path.normcase(path).startswith(os.path.normcase(prefix)):
            return path[len(prefix):].replace(os.sep, "/")
    return path


def resolve_key(key: str, root: str | None) -> str:
    """Where the file a stored path names is on this machine: ``root`` joined with a relative
    key, an absolute key as it is."""
    if root is None or not key or is_absolute_key(key):
        return key
    if os.sep == "/":
        return root.rstrip("/") + "/" + key
    return os.path.join(root, *key.split("/"))


def absolute_path(path: str | os.PathLike[str]) -> str:
    """A file's absolute path, symbolic links resolved (what a key is made from)."""
    return str(Path(path).resolve())


def library_key(conn: Any, path: str | os.PathLike[str]) -> str:
    """The key of the file at ``path`` in the library ``conn``."""
    return key_for(absolute_path(path), library_root(conn))


def shown_root(setting: str) -> str:
    """The root setting as a person reads it."""
    return "the library's folder" if setting in ("", ".") else setting


def rekey_paths(conn: sqlite3.Connection, old_root: str | None, new_root: str | None) -> int:
    """Make every stored path (``matches.path``, ``match_revisions.path``) relative to
    ``new_root`` where it is under it, absolute elsewhere; the paths are read as relative to
    ``old_root`` (None: they are absolute). Call in a transaction; returns the matches whose
    path changed."""
    changes = []
    for match_id, key in conn.execute("SELECT id, path FROM matches").fetchall():
        new = key_for(resolve_key(key, old_root), new_root)
        if new != key:
            changes.append((new, match_id))
    if changes:
        # in two steps: a path may become one that another match has until its own turn
        conn.executemany("UPDATE matches SET path = char(0) || id WHERE id = ?", [(i,) for _, i in changes])
        conn.executemany("UPDATE matches SET path = ? WHERE id = ?", changes)
    revisions = []
    for revision_id, key in conn.execute("SELECT id, path FROM match_revisions WHERE path IS NOT NULL").fetchall():
        new = key_for(resolve_key(key, old_root), new_root)
        if new != key:
            revisions.append((new, revision_id))
    conn.executemany("UPDATE match_revisions SET path = ? WHERE id = ?", revisions)
    return len(changes)
