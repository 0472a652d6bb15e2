"""``replayer stats``: counts of findings per player, rule, event and table; and what the window
and the tests read of one match (its text, its revisions, whether its rows add up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from sqlite_utils import Database

from .index import catch_up_index
from .moves import match_key
from .paths import library_root, resolve_key
from .search import (
    Filters,
    _card_keys,
    _finding_where,
    _match_where,
    _player_letter,
    _revisions,
    _rows,
    _where,
)

if TYPE_CHECKING:
    from ..games import Game

# ---- statistics -----------------------------------------------------------------------------
#: the kinds that are a player's mistakes (not the transcriber's: syntax, unknown cards)
MISTAKE_KINDS = ("illegal-activation", "wrong-timing", "ordering", "state")


def stats(db: Database, flt: Filters | None = None, *, top: int = 10, games: Iterable["Game"] = (),
          **filters: Any) -> dict[str, Any]:
    """Counts of findings per player, per rule, per event, per event and table.

    With a player filter, also that player's most frequent mistakes (errors and warnings of
    the kinds in :data:`MISTAKE_KINDS`), for coaching. ``games``: as in :func:`~replayer.store.search`.
    """
    flt = flt or Filters(**filters)
    catch_up_index(db)
    keys = _card_keys(flt.card, games) if flt.card else None
    mparams: list = []
    mwhere = _match_where(db, flt, mparams, keys=keys)
    fparams: list = []
    fwhere = _finding_where(db, flt, fparams, keys=keys)
    base = _revisions(flt)
    f_from = f"FROM findings f {_revisions(flt, 'f')}" + _where(mwhere + fwhere)
    f_params = mparams + fparams
    sev = ("count(*) AS findings, sum(f.severity = 'error') AS errors, "
           "sum(f.severity = 'warning') AS warnings, sum(f.severity = 'info') AS infos")
    out: dict[str, Any] = {}
    m_from = f"FROM {base}" + _where(mwhere)
    totals = db.execute(f"SELECT count(*) {m_from}", mparams).fetchone()
    ftotals = _rows(db.execute(f"SELECT {sev} {f_from}", f_params))[0]
    out["totals"] = {"matches": totals[0], **{k: v or 0 for k, v in ftotals.items()}}
    # per player: every player who played a chosen match, with the findings on their lines
    played = (f"SELECT r.player_a AS name, r.id AS rid {m_from} UNION ALL "
              f"SELECT r.player_b AS name, r.id AS rid {m_from}")
    players = _rows(db.execute(
        f"SELECT p.name AS player, count(DISTINCT p.rid) AS matches FROM ({played}) p "
        "GROUP BY p.name COLLATE NOCASE ORDER BY p.name COLLATE NOCASE", mparams + mparams))
    per_player = {row["player"].casefold(): row for row in _rows(db.execute(
        f"SELECT f.player_name AS player, {sev} FROM findings f {_revisions(flt, 'f')}"
        + _where(mwhere + fwhere + ["f.player_name IS NOT NULL"])
        + " GROUP BY f.player_name COLLATE NOCASE", f_params))}
    letter = _player_letter(flt.player)
    rows = []
    for p in players:
        if flt.player and not letter and p["player"].casefold() != flt.player.strip().casefold():
            continue
        counts = per_player.get(p["player"].casefold(), {})
        rows.append({"player": p["player"], "matches": p["matches"],
                     **{k: counts.get(k) or 0 for k in ("findings", "errors", "warnings", "infos")}})
    rows.sort(key=lambda r: (-r["findings"], r["player"].casefold()))
    out["players"] = rows
    out["rules"] = _rows(db.execute(
        f"SELECT f.rule, f.kind, f.severity, count(*) AS findings, count(DISTINCT f.match_id) AS matches "
        f"{f_from} GROUP BY f.rule ORDER BY findings DESC, f.rule", f_params))
    out["events"] = _grouped(db, ["event"], flt, mwhere, mparams, fwhere, fparams, base)
    out["tables"] = _grouped(db, ["event", "table_no"], flt, mwhere, mparams, fwhere, fparams, base)
    if flt.player:
        kinds_params: list = list(MISTAKE_KINDS)
        cond = (f"f.kind IN ({', '.join('?' for _ in MISTAKE_KINDS)}) AND f.severity IN ('error', 'warning')")
        out["mistakes"] = _rows(db.execute(
            f"SELECT f.rule, f.kind, count(*) AS findings, count(DISTINCT f.match_id) AS matches, "
            f"min(m.path || ':' || f.line) AS example "
            f"FROM findings f {_revisions(flt, 'f')}"
            + _where(mwhere + fwhere + [cond])
            + f" GROUP BY f.rule ORDER BY findings DESC, f.rule LIMIT {int(top)}",
            f_params + kinds_params))
        root = library_root(db.conn)
        for row in out["mistakes"]:  # "path:line", the path as it is on this machine
            if row["example"]:
                where, _, line = row["example"].rpartition(":")
                row["example"] = f"{resolve_key(where, root)}:{line}"
    return out


def _grouped(db: Database, keys: list[str], flt: Filters, mwhere, mparams, fwhere, fparams, base) -> list[dict]:
    """Matches and findings per value of match columns ``keys`` (e.g. event, table)."""
    cols = ", ".join(f"r.{k} AS {k}" for k in keys)
    group = ", ".join(f"r.{k}" for k in keys)
    where = list(mwhere)
    params = list(mparams)
    fcond = " AND ".join(fwhere) if fwhere else "1"
    sql = (f"SELECT {cols}, count(*) AS matches, coalesce(sum(x.findings), 0) AS findings, "
           f"coalesce(sum(x.errors), 0) AS errors, coalesce(sum(x.warnings), 0) AS warnings "
           f"FROM {base} LEFT JOIN (SELECT f.revision_id, count(*) AS findings, "
           f"sum(f.severity = 'error') AS errors, sum(f.severity = 'warning') AS warnings "
           f"FROM findings f WHERE {fcond} GROUP BY f.revision_id) x ON x.revision_id = r.id"
           + _where(where) + f" GROUP BY {group} ORDER BY findings DESC, {group}")
    return _rows(db.execute(sql, fparams + params))


# ---- browsing (the window's Library view) ------------------------------------------------------
def match_text(db: Database, path: str, revision: int | None = None) -> str | None:
    """The log text of a match as imported (the current revision, or ``revision``)."""
    if revision is None:
        row = db.execute("SELECT v.text FROM matches m JOIN match_revisions v ON v.id = m.revision_id "
                         "WHERE m.path = ?", [match_key(db.conn, path)]).fetchone()
    else:
        row = db.execute("SELECT v.text FROM matches m JOIN match_revisions v ON v.match_id = m.id "
                         "WHERE m.path = ? AND v.revision = ?", [match_key(db.conn, path), revision]).fetchone()
    return row[0] if row else None


def match_revisions(db: Database, path: str) -> list[dict]:
    """Every revision of the match at ``path``: number, hash, when imported, counts."""
    return _rows(db.execute(
        "SELECT v.revision, v.content_hash, v.imported_at, v.event_count, v.error_count, v.warning_count, "
        "v.info_count FROM match_revisions v JOIN matches m ON m.id = v.match_id WHERE m.path = ? "
        "ORDER BY v.revision", [match_key(db.conn, path)]))


def count_rows(db: Database) -> dict[str, int]:
    """Rows in each table (for summaries and tests)."""
    return {t: db.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0]
            for t in ("matches", "match_revisions", "events", "event_cards", "match_cards", "findings", "notes",
                      "reviews")}


def check_whole(db: Database) -> list[str]:
    """Revisions whose rows do not add up to their recorded counts (an empty list: all whole)."""
    bad = []
    for row in db.execute(
            "SELECT v.id, v.path, v.revision, v.event_count, v.error_count + v.warning_count + v.info_count, "
            "coalesce(json_array_length(v.events_json), 0), "
            "(SELECT count(*) FROM findings f WHERE f.revision_id = v.id AND f.id BETWEEN v.first_finding_id "
            "AND v.first_finding_id + v.error_count + v.warning_count + v.info_count - 1) "
            "FROM match_revisions v").fetchall():
        if row[3] != row[5] or row[4] != row[6]:
            bad.append(f"{row[1]} revision {row[2]}: {row[5]}/{row[3]} events, {row[6]}/{row[4]} findings")
    for row in db.execute("SELECT m.path FROM matches m LEFT JOIN match_revisions v ON v.id = m.revision_id "
                          "WHERE v.id IS NULL OR m.first_finding_id IS NOT v.first_finding_id").fetchall():
        bad.append(f"{row[0]}: no current revision, or not its findings")
    stray = db.execute("SELECT count(*) FROM findings f LEFT JOIN match_revisions v ON v.id = f.revision_id "
                       "WHERE v.id IS NULL OR f.id NOT BETWEEN v.first_finding_id AND v.first_finding_id "
                       "+ v.error_count + v.warning_count + v.info_count - 1").fetchone()[0]
    if stray:
        bad.append(f"{stray} findings outside the ranges of their revisions")
    return bad
