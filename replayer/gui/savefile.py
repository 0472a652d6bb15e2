"""Writing a log from the editor: atomically, the previous file kept as a backup, the text
encoded as the file had it (UTF-8 BOM, CRLF line ends)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

BACKUP_SUFFIX = ".bak"


def atomic_write(path: str | os.PathLike, data: bytes, *, backup: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, renamed over it;
    with ``backup`` the previous file is kept as ``path + ".bak"`` first."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            try:
                os.chmod(tmp, path.stat().st_mode & 0o7777)
            except OSError:
                pass
            if backup:
                bak = path.with_name(path.name + BACKUP_SUFFIX)
                with open(path, "rb") as src, open(bak, "wb") as dst:
                    dst.write(src.read())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def encode_text(text: str, *, newline: str = "\n", bom: bool = False) -> bytes:
    if newline != "\n":
        text = text.replace("\n", newline)
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
