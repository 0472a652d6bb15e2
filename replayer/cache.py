"""replayer's private cache folder, and the small JSON files it keeps there between runs.

The folder is the user's own cache folder's ``replayer`` (``platformdirs.user_cache_dir``), made
0700; a folder or file that is someone else's, or that others may write, is never trusted. What
is kept there is only ever a copy of something replayer can make again (the grammar's tables, the
line shapes of :mod:`replayer.shapes`, the built-in catalogs as JSON): a file that is missing,
damaged or refused is made afresh, and nothing breaks without the folder.
"""

from __future__ import annotations

import atexit
import json
import os
import stat
from pathlib import Path
from typing import Any


def private_cache_dir() -> Path | None:
    """replayer's folder in the user's cache folder, made if need be with mode 0700; None when it
    cannot be made or is not the user's own and private (then nothing is cached)."""
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("replayer"))
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.lstat()
        if not stat.S_ISDIR(st.st_mode):
            return None  # a symbolic link or a file: not ours to trust
        if _is_own(st) and st.st_mode & 0o077:
            folder.chmod(0o700)  # ours, but made open by an older replayer or a lax umask
            st = folder.lstat()
    except OSError:
        return None
    return folder if _is_own(st) and not st.st_mode & 0o077 else None


def _is_own(st: os.stat_result) -> bool:
    """Owned by the user running replayer, and writable by no one else."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None and st.st_uid != getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _make_private(path: Path) -> None:
    try:
        path.chmod(0o600)
    except OSError:
        pass


def read_json(path: Path) -> Any:
    """What a JSON file of the folder holds, or None (missing, not the user's own, not JSON)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not _is_own(os.fstat(f.fileno())):
                return None
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def write_json(path: Path, data: Any, *, replaces: str = "") -> bool:
    """Write ``data`` as JSON to ``path`` whole (a file of its own, then renamed over the old one:
    a reader never sees half of it, and two writers at once leave one's); True if it was written.
    ``replaces``: a glob of the folder's files this one makes stale (older versions' copies), removed."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return False  # (a value JSON has no form for: nothing kept)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return False
    for old in path.parent.glob(replaces) if replaces else ():
        if old != path and not old.name.endswith(".tmp"):
            try:
                old.unlink()
            except OSError:
                pass
    return True


class Kept:
    """A table ``text -> JSON value`` kept in one file of the private folder between runs.

    Read the first time it is asked for; written once, when the process ends (:func:`save_all`),
    and only if it gained an entry: the entries this process used first, then the others, at most
    ``limit``. Another process's entries written meanwhile are merged, not lost. Without the
    private folder (``path`` None) it keeps nothing and finds nothing. ``valid`` says which values
    read from the file are believed (the rest are left out).
    """

    def __init__(self, path: Path | None, *, limit: int = 4000, replaces: str = "", valid=None):
        self.path = path
        self.limit = limit
        self.replaces = replaces
        self.valid = valid
        self._entries: dict[str, Any] | None = None
        self.used: dict[str, None] = {}  # what this process read or added, in order
        self.added = False

    @property
    def entries(self) -> dict[str, Any]:
        if self._entries is None:
            self._entries = self._read() if self.path is not None else {}
        return self._entries

    def _read(self) -> dict[str, Any]:
        data = read_json(self.path)
        table = data.get("kept") if isinstance(data, dict) else None
        if not isinstance(table, dict):
            return {}
        valid = self.valid
        return {k: v for k, v in table.items() if isinstance(k, str) and (valid is None or valid(v))}

    def get(self, key: str) -> Any:
        value = self.entries.get(key)
        if value is not None:
            self.used[key] = None
        return value

    def put(self, key: str, value: Any) -> None:
        if self.path is None:
            return
        self.entries[key] = value
        self.used[key] = None
        if not self.added:
            self.added = True
            _PENDING.append(self)

    def drop(self, key: str) -> None:
        self.entries.pop(key, None)
        self.used.pop(key, None)

    def save(self) -> None:
        if self.path is None or not self.added:
            return
        entries = self.entries
        kept: dict[str, Any] = {}
        for key in self.used:
            if len(kept) >= self.limit:
                break
            if key in entries:
                kept[key] = entries[key]
        for source in (self._read(), entries):  # (the file again: another process may have added some)
            for key, value in source.items():
                if len(kept) >= self.limit:
                    break
                kept.setdefault(key, value)
        write_json(self.path, {"kept": kept}, replaces=self.replaces)
        self.added = False


_PENDING: list[Kept] = []


@atexit.register
def save_all() -> None:
    """Write every kept table that gained an entry (at the process's end; the tests call it)."""
    while _PENDING:
        _PENDING.pop().save()
