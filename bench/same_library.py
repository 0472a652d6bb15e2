"""Whether two libraries hold the same rows: every table and view, row by row, timestamps aside.

    python bench/same_library.py A.db B.db

What a change to the import must keep (docs/performance.md, Library): the libraries two trees
make of the same corpus (``python bench/library.py --rate --keep DIR`` leaves them in ``DIR``:
``rate-this-jdefault.db``, ``rate-other-jdefault.db``) are the same. Each table and view of
either is read whole in rowid order (a view, or a table without rowids, in the order of all
its columns), its time columns (``imported_at``, ``first_imported``, ``reviewed_at``,
``applied_at``) left out, and compared with the other's. The segments of a full-text index
(its ``_data`` and ``_idx`` tables) are laid out as the import happened to fill it: each term
of the index and the rows it finds are compared instead (``fts5vocab``). Prints a line a table (its rows) and the first
difference of each that differs; exit status 0 when all are the same, 1 otherwise.
"""

from __future__ import annotations

import sqlite3
import sys

#: columns whose values are the time of the import (never the same for two imports)
TIME_COLUMNS = {"imported_at", "first_imported", "reviewed_at", "applied_at"}
#: the shadow tables of an FTS5 table that hold its index's segments: their layout depends on
#: when the import filled the index (every few hundred files, or at the end); what the index
#: holds is its table's rows (compared) and what a query finds in it (:func:`_fts_terms`)
FTS_SEGMENTS = ("_data", "_idx")


def _objects(conn: sqlite3.Connection) -> dict[str, str]:
    """name -> type ("table" or "view") of every table and view of the library."""
    return dict(conn.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') "
                             "AND name NOT LIKE 'sqlite_stat%'"))


def _rows(conn: sqlite3.Connection, name: str, kind: str) -> tuple[list[str], list[tuple]]:
    columns = [row[1] for row in conn.execute(f"PRAGMA table_xinfo([{name}])")]
    kept = [c for c in columns if c not in TIME_COLUMNS]
    select = ", ".join(f"[{c}]" for c in kept) or "1"
    try:
        if kind != "table":
            raise sqlite3.OperationalError("a view")
        rows = conn.execute(f"SELECT {select} FROM [{name}] ORDER BY rowid").fetchall()
    except sqlite3.OperationalError:  # a view, or a table without rowids
        rows = conn.execute(f"SELECT {select} FROM [{name}]").fetchall()
        rows.sort(key=repr)
    return kept, rows


def _fts_terms(conn: sqlite3.Connection, name: str) -> list[tuple]:
    """Each term of the full-text index ``name``, the rows and columns it is in, and where."""
    conn.execute(f"CREATE VIRTUAL TABLE temp.[{name}_terms] USING fts5vocab(main, [{name}], instance)")
    try:
        return conn.execute(f"SELECT * FROM temp.[{name}_terms] ORDER BY 1, 2, 3, 4").fetchall()
    finally:
        conn.execute(f"DROP TABLE temp.[{name}_terms]")


def compare(a_path: str, b_path: str) -> bool:
    a, b = sqlite3.connect(a_path), sqlite3.connect(b_path)
    same = True
    a_objects, b_objects = _objects(a), _objects(b)
    if a_objects != b_objects:
        print(f"tables and views differ: only in A {sorted(set(a_objects) - set(b_objects))}, "
              f"only in B {sorted(set(b_objects) - set(a_objects))}")
        same = False
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
    if a.execute(schema).fetchall() != b.execute(schema).fetchall():
        print("the schemas differ")
        same = False
    fts = [name for name, sql in a.execute("SELECT name, sql FROM sqlite_master WHERE sql LIKE '%USING fts5%'")]
    segments = {f + suffix for f in fts for suffix in FTS_SEGMENTS}
    for name in fts:
        a_terms, b_terms = _fts_terms(a, name), _fts_terms(b, name)
        print(f"{name + ' (terms)':32s} fts5  {len(a_terms):8d} terms: {'same' if a_terms == b_terms else 'DIFFER'}")
        same = same and a_terms == b_terms
    for name in sorted(set(a_objects) & set(b_objects) - segments):
        kind = a_objects[name]
        a_columns, a_rows = _rows(a, name, kind)
        b_columns, b_rows = _rows(b, name, kind)
        if a_columns != b_columns:
            print(f"{name}: columns differ: {a_columns} / {b_columns}")
            same = False
            continue
        if a_rows == b_rows:
            print(f"{name:32s} {kind:5s} {len(a_rows):8d} rows: same")
            continue
        same = False
        print(f"{name:32s} {kind:5s} {len(a_rows):8d} / {len(b_rows)} rows: DIFFER")
        for i, (x, y) in enumerate(zip(a_rows, b_rows)):
            if x != y:
                print(f"  first difference at row {i}:\n    A {x!r:.400}\n    B {y!r:.400}")
                break
    a.close()
    b.close()
    return same


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    same = compare(sys.argv[1], sys.argv[2])
    print("the libraries are the same" if same else "the libraries DIFFER")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
