"""Reviewer verdicts on findings: confirm or dismiss, with a short note.

The window talks to storage only through the small :class:`ReviewStore` interface
(``load(log_path)`` / ``save(log_path, entries)``). Until the match library exists the store
is :class:`SidecarStore`: a JSON file next to the log, ``<log>.review.json``. The library can
take over by installing its own store with :func:`set_store`; nothing else changes.

A verdict belongs to a finding by its rule and line; because a judge may edit the log (and
shift its lines), the line's text is kept too, so a verdict follows its finding when the line
moves. Verdicts whose finding is gone are kept in the file, not silently dropped.

>>> import tempfile, os
>>> from replayer.diagnostics import Finding, Severity, Kind, Span
>>> d = tempfile.mkdtemp(); log = os.path.join(d, "m.duel"); _ = open(log, "w").write("turn 1 A\\n")
>>> f = Finding(Severity.ERROR, Kind.STATE, "ygo.lp.mismatch", Span(1), "LP do not add up")
>>> r = Reviews.open(log, ["turn 1 A"])
>>> _ = r.set(f, "confirmed", "checked on video")
>>> Reviews.open(log, ["turn 1 A"]).get(f).note
'checked on video'
"""

from __future__ import annotations

import getpass
import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Protocol, Sequence

from . import store as library
from .diagnostics import Finding
from .errors import ReviewStoreError  # noqa: F401  (re-exported: callers catch it from here)
from .i18n import M

CONFIRMED = "confirmed"
DISMISSED = "dismissed"
STATUSES = (CONFIRMED, DISMISSED)
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Verdict:
    """A reviewer's verdict on one finding (``status`` ``None``: only a note)."""

    status: str | None = None
    note: str = ""
    updated: str = ""

    @property
    def empty(self) -> bool:
        return self.status is None and not self.note

    def label(self) -> str:
        return {CONFIRMED: "confirmed", DISMISSED: "dismissed"}.get(self.status or "", "")


@dataclass(frozen=True)
class Entry:
    """One stored verdict with what identifies its finding."""

    rule: str
    line: int
    source: str  # the text of the line at fault
    message: str
    verdict: Verdict = field(default_factory=Verdict)

    def to_json(self) -> dict:
        return {"rule": self.rule, "line": self.line, "source": self.source, "message": self.message,
                "verdict": self.verdict.status, "note": self.verdict.note, "updated": self.verdict.updated}

    @classmethod
    def from_json(cls, data: dict) -> "Entry":
        status = data.get("verdict")
        return cls(str(data.get("rule", "")), int(data.get("line", 0) or 0), str(data.get("source", "")),
                   str(data.get("message", "")),
                   Verdict(status if status in STATUSES else None, str(data.get("note", "") or ""),
                           str(data.get("updated", "") or "")))


class ReviewStore(Protocol):
    """Where verdicts live. The match library implements this to take over from sidecars."""

    def load(self, log_path: str) -> list[Entry]: ...

    def save(self, log_path: str, entries: list[Entry]) -> None: ...



def sidecar_path(log_path: str | os.PathLike) -> Path:
    p = Path(log_path)
    return p.with_name(p.name + ".review.json")


class SidecarStore:
    """Verdicts in ``<log>.review.json`` next to the log (UTF-8 JSON, written atomically)."""

    def load(self, log_path: str) -> list[Entry]:
        path = sidecar_path(log_path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as e:
            raise ReviewStoreError(M("cannot read the verdicts in {file}: {error}", file=path.name, error=str(e))) from None
        if not isinstance(data, dict) or not isinstance(data.get("reviews", []), list):
            raise ReviewStoreError(M("{file} is not a replayer review file", file=path.name))
        out = []
        for item in data.get("reviews", []):
            if isinstance(item, dict):
                try:
                    out.append(Entry.from_json(item))
                except (TypeError, ValueError):
                    continue
        return out

    def save(self, log_path: str, entries: list[Entry]) -> None:
        path = sidecar_path(log_path)
        kept = [e for e in entries if not e.verdict.empty]
        if not kept:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as e:
                raise ReviewStoreError(M("cannot remove {file}: {error}", file=path.name, error=str(e.strerror or e))) from None
            return
        data = {"version": FORMAT_VERSION, "log": Path(log_path).name,
                "reviews": [e.to_json() for e in sorted(kept, key=lambda e: (e.line, e.rule))]}
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        try:
            fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=str(path.parent))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except OSError as e:
            raise ReviewStoreError(M("cannot save the verdicts to {file}: {error}", file=path.name,
                                     error=str(e.strerror or e))) from None


_store: ReviewStore = SidecarStore()


def store() -> ReviewStore:
    """The store the window uses."""
    return _store


def set_store(new: ReviewStore) -> ReviewStore:
    """Install another store (e.g. the match library's); returns the previous one."""
    global _store
    old, _store = _store, new
    return old


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


class Reviews:
    """The verdicts of one log, matched to its current findings."""

    def __init__(self, log_path: str, lines: Sequence[str], entries: Iterable[Entry] = (),
                 backend: ReviewStore | None = None):
        self.log_path = log_path
        self.lines = list(lines)
        self._text_set: set[str] | None = None
        self._rule_index: dict[str, list[int]] | None = None
        self.entries: list[Entry] = list(entries)
        self.backend = backend if backend is not None else store()

    @classmethod
    def open(cls, log_path: str, lines: Sequence[str], backend: ReviewStore | None = None) -> "Reviews":
        backend = backend if backend is not None else store()
        return cls(log_path, lines, backend.load(log_path), backend)

    def _source(self, line: int) -> str:
        return self.lines[line - 1].strip() if 1 <= line <= len(self.lines) else ""

    def _find(self, finding: Finding) -> int | None:
        """The entry of ``finding``: same rule and line with the same text; else the same rule on
        a line with the same text (the line moved); else the same rule and line, if the stored
        text is gone from the log (the line was edited)."""
        if not self.entries:
            return None
        source = self._source(finding.line)
        same_rule = self._by_rule().get(finding.rule, [])
        for i in same_rule:
            if self.entries[i].line == finding.line and self.entries[i].source == source:
                return i
        moved = [i for i in same_rule if source and self.entries[i].source == source]
        if len(moved) == 1:
            return moved[0]
        if moved:
            return min(moved, key=lambda i: abs(self.entries[i].line - finding.line))
        # the line itself was edited (its old text is nowhere in the log any more)
        for i in same_rule:
            if self.entries[i].line == finding.line and self.entries[i].source not in self._texts():
                return i
        return None

    def _by_rule(self) -> dict[str, list[int]]:
        if self._rule_index is None:
            index: dict[str, list[int]] = {}
            for i, e in enumerate(self.entries):
                index.setdefault(e.rule, []).append(i)
            self._rule_index = index
        return self._rule_index

    def _texts(self) -> set[str]:
        if self._text_set is None:
            self._text_set = {line.strip() for line in self.lines}
        return self._text_set

    def get(self, finding: Finding) -> Verdict:
        i = self._find(finding)
        return self.entries[i].verdict if i is not None else Verdict()

    def set(self, finding: Finding, status: str | None, note: str | None = None) -> Verdict:
        """Record a verdict (``status`` ``None`` clears it; ``note`` ``None`` keeps the note) and save."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown verdict {status!r}")
        i = self._find(finding)
        old = self.entries[i].verdict if i is not None else Verdict()
        verdict = Verdict(status, old.note if note is None else note.strip(), _now())
        entry = Entry(finding.rule, finding.line, self._source(finding.line), finding.message, verdict)
        if i is None:
            self.entries.append(entry)
            self._rule_index = None
        else:
            self.entries[i] = entry
        self.backend.save(self.log_path, self.entries)
        return verdict

    def orphans(self, findings: Iterable[Finding]) -> list[Entry]:
        """Stored verdicts that match none of ``findings`` (their finding is gone)."""
        used = {self._find(f) for f in findings}
        return [e for i, e in enumerate(self.entries) if i not in used and not e.verdict.empty]


class LibraryReviewStore:
    """A :class:`replayer.reviews.ReviewStore` that keeps the window's verdicts in the library.

    ``load``/``save`` open the library for the call only (the window may live long; an import
    may run meanwhile). Verdicts are the ``reviewer``'s (default: the login name).
    """

    def __init__(self, db_path: str | os.PathLike[str] | None = None, reviewer: str | None = None):
        self.db_path = Path(db_path) if db_path is not None else library.default_library_path()
        if reviewer is None:
            try:
                reviewer = getpass.getuser()
            except Exception:
                reviewer = ""
        self.reviewer = reviewer

    def load(self, log_path: str) -> list[Entry]:
        entries = self._load_from_library(log_path)
        if not entries:
            # verdicts written before the library existed (or before this log was in it) are in
            # the sidecar: show them; the next save puts them into the library. Nothing is lost.
            entries = SidecarStore().load(log_path)
        return entries

    def _load_from_library(self, log_path: str) -> list[Entry]:
        if not self.db_path.is_file():
            return []
        try:
            db = library.open_library(self.db_path)
            try:
                rows = library.load_reviews(db, log_path, reviewer=self.reviewer, latest=True)
            finally:
                db.close()
        except (library.LibraryError, OSError, sqlite3.Error) as e:
            raise ReviewStoreError(M("cannot read the verdicts in the library: {error}", error=str(e))) from None
        return [Entry(r["rule"], r["line"], r["source"] or "", r["message"] or "",
                      Verdict(r["verdict"], r["note"] or "", r["reviewed_at"] or "")) for r in rows]

    def save(self, log_path: str, entries: list[Entry]) -> None:
        kept = [e for e in entries if not e.verdict.empty]
        try:
            from . import importing  # (it imports the file first if it changed on disk)

            db = library.open_library(self.db_path)
            try:
                importing.replace_reviews(db, log_path, [
                    {"rule": e.rule, "line": e.line, "source": e.source, "message": e.message,
                     "verdict": e.verdict.status, "note": e.verdict.note, "reviewed_at": e.verdict.updated or None}
                    for e in kept], reviewer=self.reviewer)
            finally:
                db.close()
        except (library.LibraryError, OSError, sqlite3.Error) as e:
            raise ReviewStoreError(M("cannot save the verdicts to the library: {error}", error=str(e))) from None
        SidecarStore().save(log_path, [])  # the library has them now: a stale sidecar must not come back


def store_for(db_path: str | os.PathLike[str] | None = None) -> ReviewStore:
    """Where a log's verdicts are kept: the match library once one exists, else the sidecar."""
    library = LibraryReviewStore(db_path)
    return library if library.db_path.is_file() else SidecarStore()
