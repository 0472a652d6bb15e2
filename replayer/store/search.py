"""``replayer search``: matches, findings and notes that pass the filters."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from sqlite_utils import Database

from .index import catch_up_index
from .jsontext import _dumps
from .paths import library_root, resolve_key
from .rows import normalize_date

if TYPE_CHECKING:
    from ..games import Game


# ---- search ---------------------------------------------------------------------------------
@dataclass
class Filters:
    """What ``replayer search`` and ``replayer stats`` filter on. Empty means any."""

    card: Sequence[str] = ()
    rule: Sequence[str] = ()  # a rule id, or a prefix: "ygo.ds" matches "ygo.ds.*"
    kind: Sequence[str] = ()
    severity: Sequence[str] = ()
    player: str | None = None  # a name from the header (A/B) or the letter
    event: str | None = None  # part of the header Event, any case
    date_from: str | None = None  # ISO dates, inclusive
    date_to: str | None = None
    text: str | None = None  # full-text search in the notes (SQLite FTS5 syntax)
    table: str | None = None
    round: str | None = None
    game: str | None = None
    all_revisions: bool = False

    @property
    def on_findings(self) -> bool:
        """A filter only findings can satisfy (then a match is listed only with such a finding)."""
        return bool(self.rule or self.kind or self.severity)


@dataclass
class SearchResult:
    matches: list[dict]
    findings: list[dict]
    notes: list[dict]
    total_matches: int
    total_findings: int
    total_notes: int

    def to_dict(self) -> dict:
        return {"matches": self.matches, "findings": self.findings, "notes": self.notes,
                "total": {"matches": self.total_matches, "findings": self.total_findings,
                          "notes": self.total_notes}}


def _player_letter(player: str | None) -> str | None:
    if player is not None and player.strip().upper() in ("A", "B"):
        return player.strip().upper()
    return None


def _card_keys(cards: Sequence[str], games: Iterable["Game"] = ()) -> list[str]:
    """The names to look for: each as given and, where the catalog of one of ``games`` knows it,
    its catalog name (the name the library keeps a card under: :func:`~replayer.store.rows_of`)."""
    out: list[str] = []
    games = tuple(games)
    for name in cards:
        name = " ".join(name.strip().strip('"《》「」„“”').split())
        out.append(name)
        for game in games:
            info = game.catalog.find(name)
            if info is not None and info.id not in out:
                out.append(info.id)
    return out


def _revisions_with_cards(keys: list[str], params: list) -> str:
    """A subquery: the ids of the revisions that mention any of the cards ``keys`` (:func:`_card_keys`)."""
    return f"(SELECT c.revision_id FROM match_cards c WHERE {_cards_contain('c.cards', keys, params)})"


def _cards_contain(column: str, keys: list[str], params: list) -> str:
    """A condition: the JSON array of card names in ``column`` holds one of ``keys`` (any case,
    as SQLite's NOCASE). A LIKE on the JSON text (ASCII case-insensitive too) finds the rows
    cheaply; json_each then checks them element by element."""
    likes = []
    for key in keys:
        pattern = _dumps(key).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        likes.append(f"{column} LIKE ? ESCAPE '\\'")
        params.append("%" + pattern + "%")
    return (f"({' OR '.join(likes)}) AND EXISTS (SELECT 1 FROM json_each({column}) j WHERE "
            f"{_in('j.value', keys, params, ' COLLATE NOCASE')})")


def _in(column: str, values: Sequence[str], params: list, collate: str = "") -> str:
    params.extend(values)
    return f"{column}{collate} IN ({', '.join('?' for _ in values)})"


def _review_note_likes(text: str) -> tuple[str, list[str]]:
    """SQL that a verdict note holds every word of ``text`` (any case), and its parameters."""
    words = [w.strip('"') for w in text.split() if w.strip('"') and w.upper() not in ("AND", "OR", "NOT")] or [text]
    escaped = ["%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
    return " AND ".join(["rv.note LIKE ? ESCAPE '\\'"] * len(escaped)), escaped


def _has_verdict_notes(db: Database) -> bool:
    """Whether any verdict has a note (else a text search needs not look at the reviews)."""
    return db.execute("SELECT 1 FROM reviews WHERE note != '' LIMIT 1").fetchone() is not None


def _fts_query(db: Database, text: str) -> str:
    """The user's FTS5 query if it is valid, else each word quoted (so ``don't`` works).

    Notes stored but not yet in the index (an import going on, or killed) were indexed by
    :func:`search` first."""
    try:
        db.execute("SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT 1", [text]).fetchall()
        return text
    except sqlite3.OperationalError:
        return " ".join('"' + w.replace('"', '""') + '"' for w in text.split())


def _match_where(db: Database, flt: Filters, params: list, rev: str = "r", rev_id: str | None = None,
                 keys: list[str] | None = None) -> list[str]:
    """Conditions on a match revision ``rev`` (an alias of match_revisions, or of matches for the
    current revisions, with ``rev_id`` its revision id) from the match-level filters (``keys``: the
    names of the cards filtered on, :func:`_card_keys`; default: as given)."""
    rev_id = rev_id or f"{rev}.id"
    where: list[str] = []
    if flt.game:
        where.append(f"{rev}.game = ?")
        params.append(flt.game.lower())
    if flt.event:
        where.append(f"{rev}.event LIKE ?")
        params.append("%" + flt.event.strip() + "%")
    if flt.table:
        where.append(f"{rev}.table_no = ? COLLATE NOCASE")
        params.append(flt.table.strip())
    if flt.round:
        where.append(f"{rev}.round = ? COLLATE NOCASE")
        params.append(flt.round.strip())
    if flt.date_from:
        where.append(f"{rev}.date >= ?")
        params.append(normalize_date(flt.date_from))
    if flt.date_to:
        where.append(f"{rev}.date <= ?")
        params.append(normalize_date(flt.date_to))
    if flt.date_from or flt.date_to:  # only dates read as ISO compare (text like "someday" sorts anywhere)
        # (after the comparisons: SQLite tests the terms in order, and the range leaves few rows)
        where.append(f"{rev}.date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'")
    if flt.player and _player_letter(flt.player) is None:
        where.append(f"({rev}.player_a = ? COLLATE NOCASE OR {rev}.player_b = ? COLLATE NOCASE)")
        params.extend([flt.player.strip()] * 2)
    if flt.text:
        noted = "SELECT n.revision_id FROM notes n WHERE n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)"
        params.append(_fts_query(db, flt.text))
        if _has_verdict_notes(db):
            # one set of revisions (a UNION), not an OR of two: SQLite builds it once
            likes, like_params = _review_note_likes(flt.text)
            noted += f" UNION SELECT rv.revision_id FROM reviews rv WHERE {likes}"
            params.extend(like_params)
        where.append(f"{rev_id} IN ({noted})")
    if flt.card and not flt.on_findings:
        where.append(f"{rev_id} IN {_revisions_with_cards(keys or _card_keys(flt.card), params)}")
    return where


def _finding_where(db: Database, flt: Filters, params: list, f: str = "f", keys: list[str] | None = None) -> list[str]:
    """Conditions on a finding ``f`` from the finding-level filters (card, rule, kind, severity,
    player; ``keys``: as in :func:`_match_where`)."""
    where: list[str] = []
    if flt.rule:
        parts = []
        for rule in flt.rule:
            prefix = rule.rstrip(".")
            parts.append(f"{f}.rule = ? OR ({f}.rule > ? AND {f}.rule < ?)")  # the rule or rule.*
            params.extend([rule, prefix + ".", prefix + "/"])
        where.append("(" + " OR ".join(parts) + ")")
    if flt.kind:
        where.append(_in(f"{f}.kind", [k.lower() for k in flt.kind], params))
    if flt.severity:
        where.append(_in(f"{f}.severity", [s.lower() for s in flt.severity], params))
    letter = _player_letter(flt.player)
    if letter:
        where.append(f"{f}.player = ?")
        params.append(letter)
    elif flt.player:
        where.append(f"{f}.player_name = ? COLLATE NOCASE")
        params.append(flt.player.strip())
    if flt.card:
        # the cards on the finding's line (findings.cards), in a revision that mentions them
        keys = keys or _card_keys(flt.card)
        where.append(f"{f}.revision_id IN {_revisions_with_cards(keys, params)}")
        where.append(_cards_contain(f"{f}.cards", keys, params))
    return where


_MATCH_FIELDS = ("m.path, r.match_id, r.revision, m.revision AS current_revision, r.game, r.rules, "
                 "r.player_a, r.player_b, r.event, r.round, r.table_no, r.date, r.event_count, "
                 "r.error_count, r.warning_count, r.info_count, r.imported_at")


_CURRENT_MATCH_FIELDS = ("m.path, m.id AS match_id, m.revision, m.revision AS current_revision, m.game, m.rules, "
                         "m.player_a, m.player_b, m.event, m.round, m.table_no, m.date, m.event_count, "
                         "m.error_count, m.warning_count, m.info_count, m.imported_at")


def _rows(cur: sqlite3.Cursor) -> list[dict]:
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]


def _revisions(flt: Filters, child: str | None = None) -> str:
    """The match revisions ``r`` (and their matches ``m``) a query looks at: the current ones, or
    all of them; joined to the rows ``child`` (an alias of a table with ``revision_id``)."""
    current = "" if flt.all_revisions else " AND r.id = m.revision_id"
    if child is None:
        return f"match_revisions r JOIN matches m ON m.id = r.match_id{current}"
    return (f"JOIN match_revisions r ON r.id = {child}.revision_id "
            f"JOIN matches m ON m.id = r.match_id{current}")


def search(db: Database, flt: Filters | None = None, *, limit: int | None = 100, games: Iterable["Game"] = (),
           **filters: Any) -> SearchResult:
    """Matches, findings and (with ``text``) notes that pass the filters.

    Match-level filters (player name, event, table, round, dates, text, game) choose matches;
    finding-level filters (card, rule, kind, severity, player) choose findings, and then only
    matches with such a finding are listed. ``limit`` caps each list (totals are exact).
    Findings and notes come in the order they were imported, line by line. Each row's
    ``path`` is where its log is on this machine (the stored path resolved against the
    library's root: :mod:`replayer.store.paths`).

    ``games``: the games whose catalogs name the cards (the caller's: :data:`replayer.games.ALL`
    for the command line and the window): a card is found by any name its catalog knows it by
    (``--card オネスト`` finds Honest); without them, by the name as given only.
    """
    flt = flt or Filters(**filters)
    catch_up_index(db)
    keys = _card_keys(flt.card, games) if flt.card else None
    fparams: list = []
    fwhere = _finding_where(db, flt, fparams, keys=keys)
    mparams: list = []
    if flt.all_revisions:
        mwhere = _match_where(db, flt, mparams, keys=keys)
        m_from = "FROM match_revisions r JOIN matches m ON m.id = r.match_id"
        rev_id, fields, order = "r.id", _MATCH_FIELDS, "r.date, m.path, r.revision"
        rev = "r"
    else:  # the current revisions: their header is in matches, a small table
        mwhere = _match_where(db, flt, mparams, "m", "m.revision_id", keys)
        m_from = "FROM matches m"
        rev_id, fields, order = "m.revision_id", _CURRENT_MATCH_FIELDS, "m.date, m.path"
        rev = "m"
    # the revisions the match filters choose, as one set (built once by SQLite)
    scope = f"SELECT {rev_id} {m_from}" + _where(mwhere) if (mwhere or not flt.all_revisions) else None
    scope_params = mparams if scope else []

    # findings: filtered on the findings table alone (the ids of each chosen revision's findings
    # are a range: see m004), joined to their matches for the rows shown
    if mwhere:  # a few revisions: their ranges (CROSS JOIN: SQLite keeps them the outer loop)
        ranges = (f"SELECT {rev}.first_finding_id AS lo, {rev}.first_finding_id + {rev}.error_count + "
                  f"{rev}.warning_count + {rev}.info_count - 1 AS hi {m_from}" + _where(mwhere))
        f_from = f"FROM ({ranges}) s CROSS JOIN findings f NOT INDEXED ON f.id BETWEEN s.lo AND s.hi" + _where(fwhere)
    else:  # all the (current) revisions: one pass over the findings
        f_from = "FROM findings f" + _where(([f"f.revision_id IN ({scope})"] if scope else []) + fwhere)
    f_params = scope_params + fparams
    lim = f" LIMIT {int(limit)}" if limit else ""
    findings = _rows(db.execute(
        "SELECT m.path, f.line, f.column, f.severity, f.kind, f.rule, f.message, f.hint, f.cite, f.player, "
        "f.player_name, f.card, r.revision, r.event, r.round, r.table_no, r.date, f.match_id, f.id AS finding_id "
        f"FROM (SELECT f.* {f_from} ORDER BY f.id{lim}) f "
        "JOIN match_revisions r ON r.id = f.revision_id JOIN matches m ON m.id = r.match_id "
        "ORDER BY f.id", f_params))
    total_findings = len(findings)
    if limit and total_findings >= limit:
        if fwhere:
            total_findings = db.execute(f"SELECT count(*) {f_from}", f_params).fetchone()[0]
        else:  # every finding of the chosen revisions: their counts say how many
            total_findings = db.execute(
                f"SELECT coalesce(sum({rev}.error_count + {rev}.warning_count + {rev}.info_count), 0) {m_from}"
                + _where(mwhere), mparams).fetchone()[0]
    # matches
    where = list(mwhere)
    params = list(mparams)
    if flt.on_findings:
        where.append(f"{rev_id} IN (SELECT f.revision_id FROM findings f{_where(fwhere)})")
        params += fparams
    matches, total_matches = _counted(db, fields, m_from + _where(where), order, limit, params)
    # notes
    notes: list[dict] = []
    total_notes = 0
    if flt.text:
        nparams = [_fts_query(db, flt.text)] + scope_params
        n_from = ("FROM notes n JOIN match_revisions r ON r.id = n.revision_id JOIN matches m ON m.id = r.match_id "
                  "WHERE n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)"
                  + (f" AND n.revision_id IN ({scope})" if scope else ""))
        notes, total_notes = _counted(db, "m.path, n.line, n.text, r.revision, n.match_id", n_from,
                                      "n.revision_id, n.line", limit, nparams)
        if _has_verdict_notes(db):
            # the reviewers' verdict notes are searched too (a few rows: no full-text index needed;
            # "+": the reviews are scanned, and the chosen revisions built only if a note matches,
            # not first to look the reviews up by revision)
            likes, like_params = _review_note_likes(flt.text)
            v_from = ("FROM reviews rv JOIN match_revisions r ON r.id = rv.revision_id JOIN matches m ON m.id = r.match_id "
                      f"WHERE rv.note != '' AND {likes}" + (f" AND +rv.revision_id IN ({scope})" if scope else ""))
            verdicts, total_verdicts = _counted(
                db, "m.path, rv.line, 'verdict note (' || coalesce(rv.verdict, 'open') || ', ' || rv.rule || '): ' "
                    "|| rv.note AS text, r.revision, rv.match_id", v_from, "rv.revision_id, rv.line", limit,
                like_params + scope_params)
            notes += verdicts
            total_notes += total_verdicts
    root = library_root(db.conn)
    if root is not None:  # the paths as they are on this machine (the library keeps them relative to its root)
        for rows in (matches, findings, notes):
            for row in rows:
                row["path"] = resolve_key(row["path"], root)
    return SearchResult(matches, findings, notes, total_matches, total_findings, total_notes)


def _counted(db: Database, columns: str, from_sql: str, order: str, limit: int | None,
             params: list) -> tuple[list[dict], int]:
    """The first ``limit`` rows, and the number of all rows (counted only if the limit was hit)."""
    lim = f" LIMIT {int(limit)}" if limit else ""
    rows = _rows(db.execute(f"SELECT {columns} {from_sql} ORDER BY {order}{lim}", params))
    if limit and len(rows) >= limit:
        return rows, db.execute(f"SELECT count(*) {from_sql}", params).fetchone()[0]
    return rows, len(rows)


def _where(conditions: list[str]) -> str:
    return (" WHERE " + " AND ".join(conditions)) if conditions else ""

