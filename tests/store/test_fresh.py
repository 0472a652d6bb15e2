"""replayer.store.fresh: a new library made at once is the library the migrations make."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from replayer import store
from replayer.store import fresh, schema


def test_the_module_is_what_the_migrations_make_now():
    # a migration changed or added: print the module anew (schema.schema_of_migrated())
    text = schema.schema_of_migrated()
    assert Path(fresh.__file__).read_text(encoding="utf-8") == text, text


def _library(conn: sqlite3.Connection) -> tuple[list, dict]:
    objects = sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    rows = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info([{name}])") if r[1] != "applied_at"]
        rows[name] = conn.execute(f"SELECT {', '.join(f'[{c}]' for c in columns)} FROM [{name}]").fetchall()
    return objects, rows


def test_a_new_library_is_the_migrated_one(tmp_path):
    migrated = Database(sqlite3.connect(tmp_path / "migrated.db"))
    schema.MIGRATIONS.apply(migrated)
    made = store.open_library(tmp_path / "made.db")
    try:
        assert [m.applied_at for m in schema.MIGRATIONS.applied(made)].count(
            schema.MIGRATIONS.applied(made)[0].applied_at) == len(fresh.MIGRATIONS_MADE)  # (made at once)
        assert _library(made.conn) == _library(migrated.conn)
        assert schema.schema_version(made) == list(fresh.MIGRATIONS_MADE)
        assert schema.migrate(made) == []  # and it is up to date
        # and it works: a log imported, found by a search of its notes
        from replayer import importing

        importing.import_text(made, '[Game "ygo"]\nturn 1 A\nA: draw  # a note\n', "/logs/x.duel")
        assert made["matches"].count == 1
    finally:
        made.close()
        migrated.close()


def test_a_library_with_a_table_is_migrated(tmp_path):
    # (not empty: the migrations run, from where it is)
    db = Database(sqlite3.connect(tmp_path / "old.db"))
    schema.MIGRATIONS.apply(db, stop_before="m004_finding_ranges")
    db.close()
    db = store.open_library(tmp_path / "old.db")
    try:
        assert schema.schema_version(db) == list(fresh.MIGRATIONS_MADE)
        times = [m.applied_at for m in schema.MIGRATIONS.applied(db)]
        assert len(set(times)) > 1
    finally:
        db.close()


def test_a_migration_not_in_the_module_means_the_migrations_run(tmp_path, monkeypatch):
    monkeypatch.setattr(fresh, "MIGRATIONS_MADE", fresh.MIGRATIONS_MADE[:-1])
    db = store.open_library(tmp_path / "new.db")
    try:
        assert schema.schema_version(db) == [m.name for m in schema.MIGRATIONS._migrations]
        assert len({m.applied_at for m in schema.MIGRATIONS.applied(db)}) > 1
    finally:
        db.close()
