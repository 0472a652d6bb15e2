"""The reviewers' verdicts on findings, kept with the revision of the log they saw."""

from __future__ import annotations

import os
from typing import Any, Iterable

from sqlite_utils import Database

from ..errors import LibraryError
from ..i18n import M
from .moves import match_key
from .rows import Prepared
from .search import _rows
from .writer import ImportOutcome, _now, save_prepared, writing

#: the findings of a revision ``?1``: a range of ids (see m004)
_FINDINGS_OF_REVISION = (
    "f.id >= (SELECT first_finding_id FROM match_revisions WHERE id = ?1) AND f.id < "
    "(SELECT first_finding_id + error_count + warning_count + info_count FROM match_revisions WHERE id = ?1)")


# ---- reviews (the window's verdicts) -------------------------------------------------------
def _review_target(db: Database, path: str | os.PathLike[str], content_hash_of_file: str | None = None,
                   current: Prepared | ImportOutcome | None = None) -> tuple[int, int, str]:
    """(match id, revision id, revision text) a verdict on ``path`` belongs to.

    ``current``: the log as it is on disk (:func:`replayer.importing.prepare_file`), stored first
    (a new match, or a new revision of a changed file), so that the verdicts go with the text
    the reviewer sees. Without it the match must be in the library. Call inside a transaction.
    """
    outcome = None
    if current is not None:
        # (a log that moved is relinked here: its match, with its verdicts, follows it)
        outcome = current if isinstance(current, ImportOutcome) else save_prepared(db, current)
    key = match_key(db.conn, path)
    row = db.conn.execute("SELECT id, revision_id, content_hash FROM matches WHERE path = ?", [key]).fetchone()
    if row is None:
        why = (outcome.message or outcome.status) if outcome is not None else M("the match is not in the library")
        raise LibraryError(M("{path}: cannot store a review: {why}", path=str(path), why=why))
    match_id, revision_id = row[0], row[1]
    if content_hash_of_file:
        rev = db.conn.execute("SELECT id FROM match_revisions WHERE match_id = ? AND content_hash = ? "
                              "ORDER BY revision DESC LIMIT 1", [match_id, content_hash_of_file]).fetchone()
        if rev is not None:
            revision_id = rev[0]
    text = db.conn.execute("SELECT text FROM match_revisions WHERE id = ?", [revision_id]).fetchone()[0]
    return match_id, revision_id, text or ""


def _review_record(db: Database, match_id: int, revision_id: int, text: str, review: dict[str, Any],
                   reviewer: str) -> dict[str, Any]:
    rule, line = review["rule"], int(review["line"])
    finding = db.conn.execute(f"SELECT f.id, f.message FROM findings f WHERE {_FINDINGS_OF_REVISION} "
                              "AND f.line = ?2 AND f.rule = ?3 ORDER BY f.id LIMIT 1", [revision_id, line, rule]).fetchone()
    source = review.get("source")
    if source is None:
        lines = text.splitlines()
        source = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return {"match_id": match_id, "revision_id": revision_id, "finding_id": finding[0] if finding else None,
            "rule": rule, "line": line, "source": source,
            "message": review.get("message") or (finding[1] if finding else ""),
            "verdict": review.get("verdict"), "note": review.get("note") or "", "reviewer": reviewer or "",
            "reviewed_at": review.get("reviewed_at") or _now()}


def save_review(db: Database, path: str | os.PathLike[str], rule: str, line: int, verdict: str | None,
                note: str = "", reviewer: str = "", *, source: str | None = None, message: str | None = None,
                reviewed_at: str | None = None, content_hash_of_file: str | None = None,
                current: Prepared | ImportOutcome | None = None) -> int:
    """Store a reviewer's verdict on the finding ``rule`` at ``line`` of the match at ``path``.

    The verdict belongs to the revision with ``content_hash_of_file`` if given (the text the
    reviewer saw), else to the current one. ``current``: the log as it is on disk, stored first
    if the library does not have it (:func:`replayer.importing.save_review` passes it).
    One verdict per reviewer and finding: saving again replaces it. Returns the review's id.
    ``source`` (the text of the line) and ``message`` default to those in the library.
    """
    with writing(db):
        match_id, revision_id, text = _review_target(db, path, content_hash_of_file, current)
        record = _review_record(db, match_id, revision_id, text,
                                {"rule": rule, "line": line, "verdict": verdict, "note": note, "source": source,
                                 "message": message, "reviewed_at": reviewed_at}, reviewer)
        old = db.conn.execute("SELECT id FROM reviews WHERE revision_id = ? AND line = ? AND rule = ? AND "
                              "reviewer = ?", [revision_id, line, rule, reviewer or ""]).fetchone()
        if old is not None:
            db["reviews"].update(old[0], record)
            return old[0]
        return db["reviews"].insert(record).last_pk


def replace_reviews(db: Database, path: str | os.PathLike[str], reviews: Iterable[dict[str, Any]],
                    reviewer: str = "", *, current: Prepared | ImportOutcome | None = None) -> int:
    """Make ``reviews`` (dicts: rule, line, verdict, note, source, message, reviewed_at) the
    reviewer's verdicts on the match at ``path``, in one transaction; returns how many.

    This is what the window saves (through :func:`replayer.importing.replace_reviews`): ``current``,
    the file as it is on disk, is stored first if it changed (its verdicts go with that
    revision); earlier revisions keep theirs.
    """
    with writing(db):
        match_id, revision_id, text = _review_target(db, path, current=current)
        db.conn.execute("DELETE FROM reviews WHERE revision_id = ? AND reviewer = ?", [revision_id, reviewer or ""])
        records = [_review_record(db, match_id, revision_id, text, r, reviewer) for r in reviews]
        if records:
            db["reviews"].insert_all(records)
    return len(records)


def load_reviews(db: Database, path: str | os.PathLike[str], *, all_revisions: bool = False,
                 reviewer: str | None = None, latest: bool = False) -> list[dict]:
    """The verdicts on the match of the file at ``path`` (or of the match whose log moved there:
    :func:`~replayer.store.moves.match_key`): of its current revision, of every revision
    (``all_revisions``), or of the newest revision that has any (``latest``); optionally of
    one ``reviewer`` only."""
    sql = ("SELECT r.id, r.rule, r.line, r.source, r.message, r.verdict, r.note, r.reviewer, r.reviewed_at, "
           "v.revision, r.finding_id FROM reviews r JOIN matches m ON m.id = r.match_id "
           "JOIN match_revisions v ON v.id = r.revision_id WHERE m.path = ?")
    params: list[Any] = [match_key(db.conn, path)]
    if reviewer is not None:
        sql += " AND r.reviewer = ?"
        params.append(reviewer)
    if not (all_revisions or latest):
        sql += " AND r.revision_id = m.revision_id"
    sql += " ORDER BY v.revision, r.line, r.rule, r.reviewed_at, r.id"
    rows = _rows(db.execute(sql, params))
    if latest and rows:
        newest = rows[-1]["revision"]
        rows = [r for r in rows if r["revision"] == newest]
    return rows

