"""What the migrations (:mod:`replayer.store.schema`) make of an empty library: a new one is
made from this at once. Printed by ``schema.schema_of_migrated()``; do not edit by hand
(``tests/store/test_fresh.py`` checks it and prints it anew)."""

#: the migrations whose result this is, in order
MIGRATIONS_MADE = ('m001_initial', 'm002_events_json', 'm003_hash_key', 'm004_finding_ranges', 'm005_relative_paths')

#: the tables, indexes, views and triggers
STATEMENTS = (
    'CREATE TABLE "_sqlite_migrations" (\n   "id" INTEGER PRIMARY KEY,\n   "migration_set" TEXT,\n   "name" TEXT,\n   "applied_at" TEXT\n)',
    'CREATE TABLE "match_revisions" (\n   "id" INTEGER PRIMARY KEY,\n   "match_id" INTEGER REFERENCES "matches"("id"),\n   "revision" INTEGER,\n   "content_hash" TEXT,\n   "path" TEXT,\n   "game" TEXT,\n   "rules" TEXT,\n   "player_a" TEXT,\n   "player_b" TEXT,\n   "event" TEXT,\n   "round" TEXT,\n   "table_no" TEXT,\n   "date" TEXT,\n   "header" TEXT,\n   "event_count" INTEGER,\n   "error_count" INTEGER,\n   "warning_count" INTEGER,\n   "info_count" INTEGER,\n   "imported_at" TEXT,\n   "text" TEXT\n, events_json TEXT, first_event_id INTEGER, first_finding_id INTEGER, cards TEXT, notes_json TEXT)',
    'CREATE TABLE "matches" (\n   "id" INTEGER PRIMARY KEY,\n   "path" TEXT NOT NULL,\n   "file" TEXT,\n   "revision" INTEGER,\n   "revision_id" INTEGER REFERENCES "match_revisions"("id"),\n   "content_hash" TEXT,\n   "game" TEXT,\n   "rules" TEXT,\n   "player_a" TEXT,\n   "player_b" TEXT,\n   "event" TEXT,\n   "round" TEXT,\n   "table_no" TEXT,\n   "date" TEXT,\n   "header" TEXT,\n   "event_count" INTEGER,\n   "error_count" INTEGER,\n   "warning_count" INTEGER,\n   "info_count" INTEGER,\n   "first_imported" TEXT,\n   "imported_at" TEXT\n, first_finding_id INTEGER)',
    'CREATE TABLE "reviews" (\n   "id" INTEGER PRIMARY KEY,\n   "match_id" INTEGER REFERENCES "matches"("id"),\n   "revision_id" INTEGER REFERENCES "match_revisions"("id"),\n   "finding_id" INTEGER REFERENCES "findings"("id"),\n   "rule" TEXT,\n   "line" INTEGER,\n   "source" TEXT,\n   "message" TEXT,\n   "verdict" TEXT,\n   "note" TEXT,\n   "reviewer" TEXT NOT NULL DEFAULT \'\',\n   "reviewed_at" TEXT\n)',
    'CREATE TABLE "match_cards" (\n   "revision_id" INTEGER PRIMARY KEY REFERENCES "match_revisions"("id"),\n   "match_id" INTEGER REFERENCES "matches"("id"),\n   "cards" TEXT\n)',
    'CREATE TABLE "findings" (\n   "id" INTEGER PRIMARY KEY,\n   "event_id" INTEGER,\n   "match_id" INTEGER REFERENCES "matches"("id"),\n   "revision_id" INTEGER REFERENCES "match_revisions"("id"),\n   "line" INTEGER,\n   "column" INTEGER,\n   "severity" TEXT,\n   "kind" TEXT,\n   "rule" TEXT,\n   "message" TEXT,\n   "hint" TEXT,\n   "cite" TEXT,\n   "player" TEXT,\n   "player_name" TEXT,\n   "card" TEXT,\n   "cards" TEXT\n)',
    'CREATE TABLE "notes" (\n   "id" INTEGER PRIMARY KEY,\n   "event_id" INTEGER,\n   "match_id" INTEGER REFERENCES "matches"("id"),\n   "revision_id" INTEGER REFERENCES "match_revisions"("id"),\n   "line" INTEGER,\n   "text" TEXT\n)',
    'CREATE VIRTUAL TABLE "notes_fts" USING FTS5 (\n    "text",\n    content="notes"\n)',
    'CREATE TABLE "library_index" (\n   "id" INTEGER PRIMARY KEY,\n   "revision_id" INTEGER NOT NULL\n)',
    'CREATE TABLE "library_settings" (\n   "key" TEXT PRIMARY KEY,\n   "value" TEXT\n)',
    'CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"\n    ON "_sqlite_migrations" ("migration_set", "name")',
    'CREATE UNIQUE INDEX idx_matches_path ON matches(path)',
    'CREATE INDEX idx_reviews_revision ON reviews(revision_id, line)',
    'CREATE INDEX idx_matches_hash_key ON matches(substr(content_hash, 1, 10))',
    'CREATE VIEW "current_findings" AS \nSELECT f.id, m.path, f.line, f.column, f.severity, f.kind, f.rule, f.message, f.hint, f.cite,\n       f.player, f.player_name, f.card, m.game, m.event, m.round, m.table_no, m.date,\n       m.player_a, m.player_b, f.match_id, f.revision_id\nFROM findings f JOIN matches m ON m.id = f.match_id AND m.revision_id = f.revision_id',
    'CREATE VIEW "events" AS SELECT r.first_event_id + e.key AS id, r.match_id, r.id AS revision_id, e.key AS seq, e.value ->> 0 AS [line], e.value ->> 1 AS [column], e.value ->> 2 AS [kind], e.value ->> 4 AS [turn], e.value ->> 5 AS [turn_player], e.value ->> 6 AS [phase], e.value ->> 8 AS [step], e.value ->> 9 AS [timing], e.value ->> 11 AS [substep], e.value ->> 7 AS [player], CASE e.value ->> 7 WHEN \'A\' THEN r.player_a WHEN \'B\' THEN r.player_b END AS player_name, e.value ->> 10 AS [card], e.value ->> 12 AS [chain_link], e.value ->> 13 AS [timecode], e.value ->> 3 AS [text], e.value -> 14 AS cards FROM match_revisions r, json_each(r.events_json) e',
    'CREATE VIEW "event_cards" AS SELECT e.id AS event_id, e.match_id, e.revision_id, e.line, c.key AS position, c.value ->> 0 AS card, c.value ->> 1 AS written, c.value ->> 2 AS [copy] FROM events e, json_each(e.cards) c',
    'CREATE TRIGGER "notes_ad" AFTER DELETE ON "notes" BEGIN\n  INSERT INTO "notes_fts" ("notes_fts", rowid, "text") VALUES(\'delete\', old.rowid, old."text");\nEND',
    'CREATE TRIGGER "notes_au" AFTER UPDATE ON "notes" BEGIN\n  INSERT INTO "notes_fts" ("notes_fts", rowid, "text") VALUES(\'delete\', old.rowid, old."text");\n  INSERT INTO "notes_fts" (rowid, "text") VALUES (new.rowid, new."text");\nEND',
)

#: their rows (statement, values)
ROWS = (
    ('INSERT INTO [library_index] ([id], [revision_id]) VALUES (?, ?)', (1, 0)),
    ('INSERT INTO [library_settings] ([key], [value]) VALUES (?, ?)', ('root', '.')),
)
