"""Writing a file whole or not at all: the editor's save (the previous file kept as a backup,
another program's version kept under a name of its own, the text encoded as the file had it)
and the reports (:mod:`replayer.export.report`, :mod:`replayer.gui.report.pdf`). No Qt here.

Every write goes to a temporary file beside the file it replaces, is checked (each ``write``
whole, the size on disk at the end), flushed to the disk and renamed over it, so that a kill, a
full disk or a folder that cannot be written leaves the old file as it was. A symbolic link is
saved through: the temporary file is written beside the link's target and renamed over the
target, so the link stays a link. The backup ``NAME.bak`` is written the same way (a kill never
leaves a half or empty backup). A temporary left by a killed save is named after its process
(``.NAME.<pid>-<random>.tmp``) and removed by :func:`remove_stale` the next time the log is opened.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> saved = save_file(folder / "m.duel", b"turn 1 A\\n")
>>> saved.backup is None, (folder / "m.duel").read_bytes()
(True, b'turn 1 A\\n')
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass
from pathlib import Path

BACKUP_SUFFIX = ".bak"
CONFLICT_SUFFIX = ".conflict-"  # NAME.conflict-20261202-070651: another program's version, kept
TMP_SUFFIX = ".tmp"
#: a temporary of the old version (random part only): removed when it is older than this, in seconds
LEGACY_STALE_AFTER = 60.0
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Saved:
    """What a save wrote: the file (a link's target for a link), the backup of the file it
    replaced (None: there was none), and the other program's version kept under a name of its
    own (None: the file on disk was the one the caller had last read or written)."""

    path: Path
    backup: Path | None = None
    kept: Path | None = None


def real_path(path: str | os.PathLike) -> Path:
    """The file a save writes: ``path``, or the file a symbolic link (or a chain) points to."""
    p = Path(path)
    if p.is_symlink():
        return Path(os.path.realpath(p))
    return p


def _tmp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}{TMP_SUFFIX}")


def _write_all(fd: int, data: bytes | memoryview) -> None:
    """Every byte of ``data`` to ``fd``: a short write is continued, an error raised."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view[:_CHUNK])
        if n <= 0:  # (never, by POSIX: an error is raised instead)
            raise OSError(errno.EIO, "the disk took no more bytes")
        view = view[n:]


def _fsync_folder(folder: Path) -> None:
    """The renames made in ``folder`` to the disk (not possible everywhere: then left to the system)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_tmp(target: Path, data: bytes, mode: int | None) -> Path:
    """``data`` in a new temporary file beside ``target``, checked and on the disk; its path."""
    tmp = _tmp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
            size = os.fstat(fd).st_size
            if size != len(data):
                raise OSError(errno.EIO, f"{len(data):,} bytes written, {size:,} on the disk", str(target))
            if mode is not None:
                try:
                    os.chmod(tmp, mode)
                except OSError:
                    pass
        finally:
            os.close(fd)
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def write_atomically(path: str | os.PathLike, data: bytes, *, mode: int | None = None) -> Path:
    """Replace the file at ``path`` (through a link: its target) by ``data``, whole or not at
    all; ``mode``: the new file's permissions (default: the old file's, else the usual ones).
    Returns the file written. Any failure raises ``OSError`` and leaves the old file as it was."""
    target = real_path(path)
    remove_stale(target)  # what a killed write of this file left (a report's, an export's)
    if mode is None and target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
    tmp = _write_tmp(target, data, mode)
    try:
        os.replace(tmp, target)
    except BaseException:
        _unlink(tmp)
        raise
    _fsync_folder(target.parent)
    return target


def _conflict_name(target: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1, 1000):
        p = target.with_name(f"{target.name}{CONFLICT_SUFFIX}{stamp}{'' if k == 1 else f'-{k}'}")
        if not p.exists() and not p.is_symlink():
            return p
    raise FileExistsError(errno.EEXIST, "too many conflict copies", str(target))


def _keep(target: Path, data: bytes, name: Path, mode: int | None, *, clobber: bool) -> Path:
    """``data`` (the file being replaced) kept whole as ``name``: never over another file
    unless ``clobber`` (the backup)."""
    tmp = _write_tmp(name, data, mode)
    try:
        if clobber:
            os.replace(tmp, name)
        else:
            try:
                os.link(tmp, name)  # fails if the name was taken meanwhile: nothing is overwritten
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                if name.exists():
                    raise FileExistsError(errno.EEXIST, "exists already", str(name)) from None
                os.replace(tmp, name)
            else:
                os.unlink(tmp)
    except BaseException:
        _unlink(tmp)
        raise
    return name


def save_file(path: str | os.PathLike, data: bytes, *, backup: bool = True,
              expected: bytes | None = None) -> Saved:
    """The editor's save: ``data`` written over ``path`` atomically (:func:`write_atomically`).

    With ``backup`` the file it replaces is kept first as ``NAME.bak`` (written atomically too).
    ``expected``: the bytes the editor last read from or wrote to the file; when the file on disk
    is not those (another program wrote it meanwhile), its version is also kept as
    ``NAME.conflict-<date>-<time>``, which no later save overwrites (the ``.bak`` is the previous
    file of the *next* save too). ``.bak`` and the conflict copy go beside the file written: for
    a link, beside its target."""
    target = real_path(path)
    old: bytes | None = None
    mode = None
    if target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
        if backup or expected is not None:
            old = target.read_bytes()
    tmp = _write_tmp(target, data, mode)
    try:
        kept = bak = None
        if old is not None and expected is not None and old != expected:
            kept = _keep(target, old, _conflict_name(target), mode, clobber=False)
        if old is not None and backup:
            bak = _keep(target, old, target.with_name(target.name + BACKUP_SUFFIX), mode, clobber=True)
        os.replace(tmp, target)
    except BaseException:
        _unlink(tmp)
        raise
    _fsync_folder(target.parent)
    return Saved(target, bak, kept)


def atomic_write(path: str | os.PathLike, data: bytes, *, backup: bool = True) -> None:
    """``data`` over ``path`` atomically, the previous file kept as ``NAME.bak`` with ``backup``
    (:func:`save_file`; kept for the callers that want no answer)."""
    save_file(path, data, backup=backup)


def _stale_pattern(name: str) -> re.Pattern[str]:
    """A temporary of a save of ``name``, of its backup or of a conflict copy (group 1: its process)."""
    kept = rf"(?:{re.escape(BACKUP_SUFFIX)}|{re.escape(CONFLICT_SUFFIX)}[0-9-]+)?"
    return re.compile(rf"^\.{re.escape(name)}{kept}\.(?:(\d+)-[0-9a-f]{{8}}|[a-z0-9_]{{8}}){re.escape(TMP_SUFFIX)}$")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's: perhaps saving right now
    return True


def remove_stale(path: str | os.PathLike) -> list[Path]:
    """Remove the temporaries a killed save of ``path`` left (``.NAME.<pid>-<random>.tmp`` of a
    process that is gone, and of the backup; an older version's ``.NAME.<random>.tmp`` once a
    minute old), beside the file and, for a link, beside its target. Returns those removed."""
    removed = []
    places = {Path(path)}
    try:
        places.add(real_path(path))
    except OSError:
        pass
    for p in places:
        pattern = _stale_pattern(p.name)
        try:
            entries = list(os.scandir(p.parent))
        except OSError:
            continue
        for entry in entries:
            m = pattern.match(entry.name)
            if not m:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            if m.group(1) is not None:
                if _alive(int(m.group(1))):
                    continue
            elif time.time() - info.st_mtime < LEGACY_STALE_AFTER:
                continue
            try:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
            except OSError:
                pass
    return removed


def encode_text(text: str, *, newline: str = "\n", bom: bool = False) -> bytes:
    if newline != "\n":
        text = text.replace("\n", newline)
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
