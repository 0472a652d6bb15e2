"""The match library (replayer/store.py): schema, idempotence, revisions, search, stats, reviews.

Most tests store matches whose findings are written here (``store_with``), so that the counts
are exact whatever the rules validators say; a few go through the real reader and validators.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from replayer import games, importing, store
from replayer.diagnostics import Finding, Kind, Severity, Span
from replayer.check import read_text
from replayer.check import CheckResult

# ---- known small logs, with the findings each is stored with ---------------------------------
FRANKFURT_1 = """\
# Feature match, round 1
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
[Event "Regional Frankfurt 2024"]
[Round "1"]
[Table "12"]
[Date "2024-05-12"]

turn 3 A
phase battle
@12:30 A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing calc
A: activate "Honest" from hand   # judge call: appeal by Kaiba
resolve
B: lp 6000
"""
FRANKFURT_2 = """\
[Game "ygo"]
[A "Kaiba"]
[B "Mai"]
[Event "Regional Frankfurt 2024"]
[Round "2"]
[Table "3"]
[Date "2024-05-12"]

turn 5 A
phase battle
A: attack "Blue-Eyes White Dragon" 3000/2500 -> "Harpie Lady" 1300/1400
step damage
timing calc
A: activate 《オネスト》 from hand
resolve
B: activte "Mirror Force"
"""
GRAND_PRIX = """\
[Game "dm"]
[A "Yuki"]
[B "Rin"]
[Event "DM Grand Prix 2024"]
[Round "1"]
[Table "12"]
[Date "2024-06-01"]

turn 7 A
A: summon "Bolshack Dragon" 6000 {creature, w-breaker}
A: attack "Bolshack Dragon" -> player   # coach: too early, it has summoning sickness
A: break 1
B: s-trigger "Holy Awe" {spell, s-trigger}
"""


def line_of(text: str, marker: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def finding(text: str, marker: str, severity: str, kind: str, rule: str) -> Finding:
    return Finding(Severity(severity), Kind(kind), rule, Span(line_of(text, marker), 1), f"{rule} here", "a hint",
                   "a citation")


FINDINGS = {
    "frankfurt-1.duel": (FRANKFURT_1, [
        ("Honest", "error", "illegal-activation", "ygo.ds.atk-mod-after-calc"),  # Yuki
        ("B: lp", "error", "state", "ygo.lp.mismatch"),  # Kaiba
        ("A: attack", "warning", "unknown-card", "card.unknown"),  # Yuki
    ]),
    "frankfurt-2.duel": (FRANKFURT_2, [
        ("オネスト", "error", "illegal-activation", "ygo.ds.atk-mod-after-calc"),  # Kaiba
        ("activte", "error", "syntax", "syntax.line"),  # Mai (a line that did not parse)
    ]),
    "grand-prix.duel": (GRAND_PRIX, [
        ("A: attack", "error", "illegal-activation", "dm.attack.summoning-sick"),  # Yuki
        ("A: break", "error", "state", "dm.break.count"),  # Yuki
        ("s-trigger", "info", "state", "dm.info.example"),  # Rin
    ]),
}


def store_with(db, folder: Path, name: str, text: str | None = None, findings=None) -> store.ImportOutcome:
    """Store the log ``name`` of FINDINGS (or ``text``) with exactly the given findings."""
    base_text, specs = FINDINGS.get(name, ("", []))
    text = base_text if text is None else text
    found = findings if findings is not None else [finding(text, *spec) for spec in specs]
    path = folder / name
    match = read_text(text, str(path))
    return store.import_result(db, CheckResult(match, found), text.encode("utf-8"))


def copies(tmp_path: Path, count: int) -> Path:
    """A folder of ``count`` logs: FRANKFURT_1, each with a comment of its own (new content)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(count):
        (folder / f"{i:03d}.duel").write_text(FRANKFURT_1.replace("turn", f"# copy {i}\nturn", 1), encoding="utf-8")
    return folder


@pytest.fixture
def library():
    """An in-memory library, closed after the test."""
    db = store.open_library(":memory:")
    yield db
    db.close()


@pytest.fixture
def filled(library, tmp_path):
    for name in FINDINGS:
        assert store_with(library, tmp_path, name).status == "new"
    return library


# ---- schema ---------------------------------------------------------------------------------
ALL_MIGRATIONS = ["m001_initial", "m002_events_json", "m003_hash_key", "m004_finding_ranges", "m005_relative_paths"]


def test_schema_is_versioned_with_migrations_recorded_in_the_database(tmp_path):
    path = tmp_path / "library.db"
    db = store.open_library(path)
    try:
        assert store.schema_version(db) == ALL_MIGRATIONS
        assert db.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall() == [
            ("replayer", name) for name in ALL_MIGRATIONS]
        assert db.journal_mode == "wal"
        assert {"matches", "match_revisions", "match_cards", "findings", "notes", "reviews",
                "notes_fts"} <= set(db.table_names())
        # the events are kept in match_revisions.events_json; these views show them as rows
        assert {"events", "event_cards", "current_findings"} <= set(db.view_names())
    finally:
        db.close()
    again = store.open_library(path)  # opening again applies nothing twice
    try:
        assert store.migrate(again) == []
        assert again.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0] == len(ALL_MIGRATIONS)
    finally:
        again.close()


def test_a_library_from_a_newer_replayer_is_refused(tmp_path):
    path = tmp_path / "library.db"
    store.open_library(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('replayer', 'm999_future', 'later')")
    conn.commit()
    conn.close()
    with pytest.raises(store.LibraryError, match="newer replayer"):
        store.open_library(path)


def test_a_file_that_is_not_a_library_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database, " * 100)
    with pytest.raises(store.LibraryError):
        store.open_library(path)


def test_default_library_lives_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.default_library_path() == tmp_path / "replayer" / "library.db"


# ---- what is stored ---------------------------------------------------------------------------
def test_a_match_is_stored_with_header_events_cards_findings_and_notes(filled, tmp_path):
    m = filled.execute("SELECT * FROM matches WHERE file = 'frankfurt-1.duel'").fetchone()
    m = dict(zip([c[0] for c in filled.execute("SELECT * FROM matches LIMIT 0").description], m))
    assert m["path"] == str((tmp_path / "frankfurt-1.duel").resolve())
    assert (m["game"], m["rules"], m["player_a"], m["player_b"]) == ("ygo", "current", "Yuki", "Kaiba")
    assert (m["event"], m["round"], m["table_no"], m["date"]) == ("Regional Frankfurt 2024", "1", "12", "2024-05-12")
    assert (m["revision"], m["event_count"], m["error_count"], m["warning_count"]) == (1, 8, 2, 1)
    assert len(m["content_hash"]) == 64 and m["imported_at"]
    events = list(filled.query("SELECT * FROM events WHERE match_id = ? ORDER BY seq", [m["id"]]))
    assert [e["kind"] for e in events] == ["turn", "phase", "attack", "step", "timing", "activate", "resolve", "lp"]
    honest = events[5]
    assert (honest["line"], honest["turn"], honest["turn_player"], honest["phase"], honest["step"],
            honest["timing"], honest["player"], honest["player_name"], honest["card"]) == (
        15, 3, "A", "battle", "damage", "calc", "A", "Yuki", "Honest")
    assert honest["text"] == 'A: activate "Honest" from hand   # judge call: appeal by Kaiba'
    assert events[2]["timecode"] == "@12:30"
    cards = [(c["line"], c["position"], c["card"]) for c in filled.query(
        "SELECT * FROM event_cards WHERE match_id = ? ORDER BY event_id, position", [m["id"]])]
    assert cards == [(12, 0, "Lyla, Lightsworn Sorceress"), (12, 1, "Blue-Eyes White Dragon"), (15, 0, "Honest")]
    findings = list(filled.query("SELECT * FROM findings WHERE match_id = ? ORDER BY line", [m["id"]]))
    assert [(f["line"], f["rule"], f["player_name"], f["card"]) for f in findings] == [
        (12, "card.unknown", "Yuki", "Lyla, Lightsworn Sorceress"),
        (15, "ygo.ds.atk-mod-after-calc", "Yuki", "Honest"),
        (17, "ygo.lp.mismatch", "Kaiba", None)]
    assert findings[1]["event_id"] == honest["id"] and findings[1]["cite"] == "a citation"
    notes = list(filled.query("SELECT line, text, event_id FROM notes WHERE match_id = ? ORDER BY line", [m["id"]]))
    assert [(n["line"], n["text"]) for n in notes] == [(1, "Feature match, round 1"),
                                                       (15, "judge call: appeal by Kaiba")]
    assert notes[1]["event_id"] == honest["id"]
    text = store.match_text(filled, tmp_path / "frankfurt-1.duel")
    assert text == FRANKFURT_1


def test_cards_are_stored_under_their_catalog_name_and_as_written(filled):
    rows = filled.execute("SELECT card, written FROM event_cards WHERE line = 14 AND written = 'オネスト'").fetchall()
    assert len(rows) == 1
    card, written = rows[0]
    # the catalog may or may not know Honest yet: its English name if it does, else as written
    assert card in ("Honest", "オネスト") and written == "オネスト"


def test_a_syntax_finding_belongs_to_the_player_whose_line_it_is(filled):
    row = filled.execute("SELECT player, player_name, event_id FROM findings WHERE rule = 'syntax.line'").fetchone()
    assert row == ("B", "Mai", None)


def test_dm_events_carry_the_attack_sub_step(filled):
    rows = filled.execute("SELECT kind, substep FROM events e JOIN matches m ON m.id = e.match_id "
                          "WHERE m.game = 'dm' ORDER BY e.seq").fetchall()
    assert rows == [("turn", None), ("main", None), ("attack", "1"), ("break", "6B"), ("s-trigger", "6B")]


def test_the_real_reader_and_validators_are_stored_too(library, tmp_path):
    path = tmp_path / "real.duel"
    path.write_text('[Game "ygo"]\n[A "Yuki"]\nturn 3 A\nphase main1\nA: frobnicate\n', encoding="utf-8")
    outcome = store.save_prepared(library, importing.prepare_file(path))
    assert outcome.status == "new"
    rules = [r[0] for r in library.execute("SELECT rule FROM findings").fetchall()]
    assert "syntax.line" in rules
    assert store.check_whole(library) == []


# ---- idempotence and revisions ----------------------------------------------------------------
def test_importing_the_same_content_twice_changes_nothing(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for name, (text, _) in FINDINGS.items():
        (folder / name).write_text(text, encoding="utf-8")
    db = store.open_library(tmp_path / "library.db")
    try:
        first = [o.status for o in importing.import_paths(db, importing.find_logs([folder]))]
        assert first == ["new"] * 3
        before = store.count_rows(db)
        dump = list(db.conn.iterdump())
        second = [o.status for o in importing.import_paths(db, importing.find_logs([folder]))]
        assert second == ["unchanged"] * 3
        assert store.count_rows(db) == before
        assert list(db.conn.iterdump()) == dump  # not even a timestamp changed
        # the same content under another name is the same match, not a second one
        (tmp_path / "copy.duel").write_text(FINDINGS["grand-prix.duel"][0], encoding="utf-8")
        (outcome,) = importing.import_paths(db, [tmp_path / "copy.duel"])
        assert outcome.status == "duplicate" and "grand-prix.duel" in outcome.message
        assert store.count_rows(db) == before
    finally:
        db.close()


def test_a_changed_file_is_a_new_revision_and_the_old_one_stays_queryable(library, tmp_path):
    store_with(library, tmp_path, "frankfurt-1.duel")
    changed = FRANKFURT_1.replace("B: lp 6000", "B: lp 6000\nB: damage 300   # correction after the appeal")
    outcome = store_with(library, tmp_path, "frankfurt-1.duel", changed,
                         [finding(changed, "correction", "warning", "state", "ygo.lp.late")])
    assert (outcome.status, outcome.revision) == ("revision", 2)
    counts = store.count_rows(library)
    assert (counts["matches"], counts["match_revisions"]) == (1, 2)
    revisions = store.match_revisions(library, tmp_path / "frankfurt-1.duel")
    assert [(r["revision"], r["event_count"], r["error_count"], r["warning_count"]) for r in revisions] == [
        (1, 8, 2, 1), (2, 9, 0, 1)]
    assert revisions[0]["content_hash"] != revisions[1]["content_hash"]
    # the current revision is what a search sees; earlier ones on demand
    assert [f["rule"] for f in store.search(library).findings] == ["ygo.lp.late"]
    old = store.search(library, all_revisions=True)
    assert sorted((f["revision"], f["rule"]) for f in old.findings) == [
        (1, "card.unknown"), (1, "ygo.ds.atk-mod-after-calc"), (1, "ygo.lp.mismatch"), (2, "ygo.lp.late")]
    assert store.match_text(library, tmp_path / "frankfurt-1.duel", revision=1) == FRANKFURT_1
    assert store.match_text(library, tmp_path / "frankfurt-1.duel") == changed
    # going back to the first text is one more revision (history is never rewritten)
    assert store_with(library, tmp_path, "frankfurt-1.duel").revision == 3
    assert store.check_whole(library) == []


def test_a_file_that_changes_during_an_import_is_not_lost(library, tmp_path):
    path = tmp_path / "a.duel"
    path.write_text(FRANKFURT_1, encoding="utf-8")
    stale = importing.prepare_file(path, known_hash="0" * 64)
    assert stale.status == "ok"
    unchanged = importing.prepare_file(path, known_hash=store.content_hash(FRANKFURT_1.encode()))
    assert unchanged.status == "unchanged" and not unchanged.events  # not parsed again
    # the worker thought it unchanged, but the library does not have it: reported, not lost silently
    assert store.save_prepared(library, unchanged).status == "skipped"


# ---- nothing half-done --------------------------------------------------------------------------
def test_a_failure_inside_a_file_s_transaction_leaves_nothing_of_it(library, tmp_path):
    store_with(library, tmp_path, "frankfurt-1.duel")
    before = store.count_rows(library)
    prepared = store.rows_of(CheckResult(read_text(FRANKFURT_2, "x"), []), str(tmp_path / "frankfurt-2.duel"), "f" * 64,
                             FRANKFURT_2.encode())
    prepared.findings.append((None, 1, 1, "error"))  # too few columns: fails after the revision went in
    with pytest.raises(sqlite3.Error):
        store.save_prepared(library, prepared)
    assert store.count_rows(library) == before
    assert store.check_whole(library) == []


def test_bad_files_are_skipped_with_a_reason(library, tmp_path):
    (tmp_path / "binary.duel").write_bytes(b"\x00\x01\x02 not text")
    (tmp_path / "latin1.duel").write_bytes('[Game "ygo"]\n[A "Jürgen"]\n'.encode("latin-1"))
    (tmp_path / "empty.duel").write_text("", encoding="utf-8")
    (tmp_path / "good.duel").write_text(FRANKFURT_1, encoding="utf-8")
    files = [tmp_path / "binary.duel", tmp_path / "missing.duel", tmp_path / "latin1.duel",
             tmp_path / "empty.duel", tmp_path / "good.duel"]
    outcomes = list(importing.import_paths(library, files))
    assert [o.status for o in outcomes] == ["skipped", "skipped", "skipped", "skipped", "new"]
    assert "binary" in outcomes[0].message
    assert "No such file" in outcomes[1].message
    assert "UTF-8" in outcomes[2].message
    # the ones that cannot be read carry what `replayer check --format json` prints for them
    assert [o.report["findings"][0]["rule"] if o.report else None for o in outcomes] == [
        "syntax.encoding", "file.unreadable", "syntax.encoding", None, None]
    assert library.execute("SELECT file FROM matches").fetchall() == [("good.duel",)]


def test_a_validator_crash_skips_the_file_and_the_import_goes_on(library, tmp_path, monkeypatch):
    import replayer.importing as validator  # the import checks through replayer.check.check_match

    real = validator.check_match

    def crashing(match):
        if "Kaiba" in match.header.get("A", ""):
            raise RuntimeError("boom")
        return real(match)

    monkeypatch.setattr(validator, "check_match", crashing)
    for name, (text, _) in FINDINGS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    outcomes = list(importing.import_paths(library, importing.find_logs([tmp_path])))
    by_file = {Path(o.path).name: o for o in outcomes}
    assert by_file["frankfurt-2.duel"].status == "skipped"
    assert "RuntimeError: boom" in by_file["frankfurt-2.duel"].message
    assert by_file["frankfurt-1.duel"].status == by_file["grand-prix.duel"].status == "new"


def test_parallel_import_stores_the_same_as_one_process(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(12):
        for name, (text, _) in FINDINGS.items():
            (folder / f"{i:02d}-{name}").write_text(text.replace("turn", f"# copy {i}\nturn", 1), encoding="utf-8")
    files = importing.find_logs([folder])
    results = []
    for jobs in (1, 2):
        db = store.open_library(tmp_path / f"jobs{jobs}.db")
        try:
            assert {o.status for o in importing.import_paths(db, files, jobs=jobs)} == {"new"}
            rows = db.execute("SELECT m.file, f.line, f.rule FROM findings f JOIN matches m ON m.id = f.match_id "
                              "ORDER BY 1, 2, 3").fetchall()
            results.append((store.count_rows(db), rows))
        finally:
            db.close()
    assert results[0] == results[1]


# ---- search: every filter ----------------------------------------------------------------------
def files_of(result: store.SearchResult) -> list[str]:
    return sorted(Path(m["path"]).name for m in result.matches)


def hits(result: store.SearchResult) -> list[tuple[str, int, str]]:
    return sorted((Path(f["path"]).name, f["line"], f["rule"]) for f in result.findings)


def test_search_without_filters_lists_everything(filled):
    result = store.search(filled)
    assert files_of(result) == ["frankfurt-1.duel", "frankfurt-2.duel", "grand-prix.duel"]
    assert (result.total_matches, result.total_findings, result.total_notes) == (3, 8, 0)


def test_search_by_card_in_any_of_its_names(filled):
    both = [("frankfurt-1.duel", 15, "ygo.ds.atk-mod-after-calc"), ("frankfurt-2.duel", 14, "ygo.ds.atk-mod-after-calc")]
    result = store.search(filled, card=["Honest"])
    assert hits(result) == both  # Kaiba's 《オネスト》 is kept under the catalog's name
    assert files_of(result) == ["frankfurt-1.duel", "frankfurt-2.duel"]
    # the games handed in name the cards: a card is found by any of its names in their catalogs
    assert hits(store.search(filled, card=["オネスト"], kind=["illegal-activation"], games=games.ALL.values())) == both
    assert store.stats(filled, card=["オネスト"], games=games.ALL.values())["totals"]["findings"] == 2
    # the store looks no game up: without them a name is looked for as given
    assert hits(store.search(filled, card=["オネスト"])) == []
    assert store.stats(filled, card=["オネスト"])["totals"]["findings"] == 0
    # a card on the line but not the first one: the target of an attack
    assert hits(store.search(filled, card=["blue-eyes white dragon"])) == [("frankfurt-1.duel", 12, "card.unknown")]
    # without finding filters the matches that mention the card are listed
    assert files_of(store.search(filled, card=["Blue-Eyes White Dragon"])) == ["frankfurt-1.duel", "frankfurt-2.duel"]
    assert store.search(filled, card=["Dark Magician"]).total_matches == 0


def test_search_by_rule_and_rule_prefix(filled):
    assert hits(store.search(filled, rule=["ygo.lp.mismatch"])) == [("frankfurt-1.duel", 17, "ygo.lp.mismatch")]
    assert [r for _, _, r in hits(store.search(filled, rule=["ygo.ds"]))] == ["ygo.ds.atk-mod-after-calc"] * 2
    assert len(store.search(filled, rule=["dm"]).findings) == 3
    assert files_of(store.search(filled, rule=["dm.break.count", "syntax.line"])) == ["frankfurt-2.duel",
                                                                                    "grand-prix.duel"]
    assert store.search(filled, rule=["ygo.d"]).total_findings == 0  # a prefix is whole words


def test_search_by_kind_and_severity(filled):
    assert hits(store.search(filled, kind=["state"], severity=["error"])) == [
        ("frankfurt-1.duel", 17, "ygo.lp.mismatch"), ("grand-prix.duel", 12, "dm.break.count")]
    assert hits(store.search(filled, severity=["warning", "info"])) == [
        ("frankfurt-1.duel", 12, "card.unknown"), ("grand-prix.duel", 13, "dm.info.example")]
    assert store.search(filled, kind=["syntax"]).total_matches == 1


def test_search_by_player_name_or_letter(filled):
    yuki = store.search(filled, player="yuki")  # any case
    assert files_of(yuki) == ["frankfurt-1.duel", "grand-prix.duel"]
    assert hits(yuki) == [("frankfurt-1.duel", 12, "card.unknown"), ("frankfurt-1.duel", 15, "ygo.ds.atk-mod-after-calc"),
                          ("grand-prix.duel", 11, "dm.attack.summoning-sick"), ("grand-prix.duel", 12, "dm.break.count")]
    kaiba = store.search(filled, player="Kaiba")  # B in one match, A in the other
    assert hits(kaiba) == [("frankfurt-1.duel", 17, "ygo.lp.mismatch"), ("frankfurt-2.duel", 14, "ygo.ds.atk-mod-after-calc")]
    letter_b = store.search(filled, player="B")
    assert hits(letter_b) == [("frankfurt-1.duel", 17, "ygo.lp.mismatch"), ("frankfurt-2.duel", 16, "syntax.line"),
                              ("grand-prix.duel", 13, "dm.info.example")]
    assert store.search(filled, player="Nobody").total_matches == 0


def test_search_by_event_table_round_and_game(filled):
    assert files_of(store.search(filled, event="frankfurt")) == ["frankfurt-1.duel", "frankfurt-2.duel"]
    assert store.search(filled, event="Frankfurt").total_findings == 5
    assert files_of(store.search(filled, table="12")) == ["frankfurt-1.duel", "grand-prix.duel"]
    assert files_of(store.search(filled, table="12", event="Grand Prix")) == ["grand-prix.duel"]
    assert files_of(store.search(filled, round="2")) == ["frankfurt-2.duel"]
    assert files_of(store.search(filled, game="dm")) == ["grand-prix.duel"]


def test_search_by_date_range(filled):
    assert files_of(store.search(filled, date_from="2024-05-13")) == ["grand-prix.duel"]
    assert files_of(store.search(filled, date_to="2024-05-12")) == ["frankfurt-1.duel", "frankfurt-2.duel"]
    assert files_of(store.search(filled, date_from="2024-05-01", date_to="2024-05-31")) == [
        "frankfurt-1.duel", "frankfurt-2.duel"]
    assert files_of(store.search(filled, date_from="2024/6/1", date_to="2024-06-01")) == ["grand-prix.duel"]
    assert store.search(filled, date_from="2025-01-01").total_matches == 0


def test_search_full_text_in_notes(filled):
    result = store.search(filled, text="appeal")
    assert files_of(result) == ["frankfurt-1.duel"]
    assert [(Path(n["path"]).name, n["line"], n["text"]) for n in result.notes] == [
        ("frankfurt-1.duel", 15, "judge call: appeal by Kaiba")]
    assert files_of(store.search(filled, text="summon*")) == ["grand-prix.duel"]  # FTS5 prefix query
    assert files_of(store.search(filled, text="judge OR coach")) == ["frankfurt-1.duel", "grand-prix.duel"]
    assert store.search(filled, text="don't").total_notes == 0  # not valid FTS5: words are quoted
    assert store.search(filled, text="appeal", event="Grand Prix").total_matches == 0


def test_search_full_text_finds_the_reviewers_verdict_notes_too(filled, tmp_path):
    assert store.search(filled, text="blurry").total_matches == 0  # no verdict has a note yet
    store.save_review(filled, tmp_path / "frankfurt-2.duel", "ygo.lp.mismatch", 12, "disputed",
                      "the video is blurry here", "Judge Lena")
    store.save_review(filled, tmp_path / "grand-prix.duel", "dm.break.count", 11, "confirmed", "", "Judge Lena")
    result = store.search(filled, text="blurry video")  # every word, any case, in the note
    assert files_of(result) == ["frankfurt-2.duel"]
    assert [(Path(n["path"]).name, n["text"]) for n in result.notes] == [
        ("frankfurt-2.duel", "verdict note (disputed, ygo.lp.mismatch): the video is blurry here")]
    # with a match filter: only the chosen matches' notes and verdict notes
    assert store.search(filled, text="blurry", event="Grand Prix").total_notes == 0
    assert store.search(filled, text="blurry", player="Kaiba").total_notes == 1
    # a word in a log's note and in a verdict's: both matches
    store.save_review(filled, tmp_path / "frankfurt-2.duel", "ygo.lp.mismatch", 12, "disputed", "appeal pending", "Tom")
    assert files_of(store.search(filled, text="appeal")) == ["frankfurt-1.duel", "frankfurt-2.duel"]
    assert store.stats(filled, text="blurry")["totals"]["matches"] == 1


def test_search_limit_keeps_exact_totals(filled):
    result = store.search(filled, limit=1)
    assert (len(result.matches), len(result.findings), result.total_matches, result.total_findings) == (1, 1, 3, 8)


# ---- stats: exact counts ---------------------------------------------------------------------------
def test_stats_per_player_rule_event_and_table(filled):
    s = store.stats(filled)
    assert s["totals"] == {"matches": 3, "findings": 8, "errors": 6, "warnings": 1, "infos": 1}
    assert s["players"] == [
        {"player": "Yuki", "matches": 2, "findings": 4, "errors": 3, "warnings": 1, "infos": 0},
        {"player": "Kaiba", "matches": 2, "findings": 2, "errors": 2, "warnings": 0, "infos": 0},
        {"player": "Mai", "matches": 1, "findings": 1, "errors": 1, "warnings": 0, "infos": 0},
        {"player": "Rin", "matches": 1, "findings": 1, "errors": 0, "warnings": 0, "infos": 1},
    ]
    assert [(r["rule"], r["findings"], r["matches"]) for r in s["rules"]] == [
        ("ygo.ds.atk-mod-after-calc", 2, 2), ("card.unknown", 1, 1), ("dm.attack.summoning-sick", 1, 1),
        ("dm.break.count", 1, 1), ("dm.info.example", 1, 1), ("syntax.line", 1, 1), ("ygo.lp.mismatch", 1, 1)]
    assert s["events"] == [
        {"event": "Regional Frankfurt 2024", "matches": 2, "findings": 5, "errors": 4, "warnings": 1},
        {"event": "DM Grand Prix 2024", "matches": 1, "findings": 3, "errors": 2, "warnings": 0},
    ]
    assert s["tables"] == [
        {"event": "DM Grand Prix 2024", "table_no": "12", "matches": 1, "findings": 3, "errors": 2, "warnings": 0},
        {"event": "Regional Frankfurt 2024", "table_no": "12", "matches": 1, "findings": 3, "errors": 2, "warnings": 1},
        {"event": "Regional Frankfurt 2024", "table_no": "3", "matches": 1, "findings": 2, "errors": 2, "warnings": 0},
    ]
    assert "mistakes" not in s


def test_stats_most_frequent_mistakes_of_a_player(filled, tmp_path):
    # one more Frankfurt match where Yuki again activates an ATK changer too late
    again = FRANKFURT_1.replace('[Round "1"]', '[Round "4"]')
    store_with(filled, tmp_path, "frankfurt-4.duel", again,
               [finding(again, "Honest", "error", "illegal-activation", "ygo.ds.atk-mod-after-calc")])
    s = store.stats(filled, player="Yuki")
    assert s["totals"] == {"matches": 3, "findings": 5, "errors": 4, "warnings": 1, "infos": 0}
    assert s["players"] == [{"player": "Yuki", "matches": 3, "findings": 5, "errors": 4, "warnings": 1, "infos": 0}]
    # card.unknown is the transcriber's, not a mistake of the player
    assert [(r["rule"], r["findings"], r["matches"]) for r in s["mistakes"]] == [
        ("ygo.ds.atk-mod-after-calc", 2, 2), ("dm.attack.summoning-sick", 1, 1), ("dm.break.count", 1, 1)]
    assert s["mistakes"][0]["example"].endswith("frankfurt-1.duel:15")
    # restricted to an event
    s = store.stats(filled, player="Yuki", event="Grand Prix")
    assert s["totals"]["findings"] == 2 and [r["rule"] for r in s["mistakes"]] == [
        "dm.attack.summoning-sick", "dm.break.count"]


# ---- reviews ------------------------------------------------------------------------------------
def test_reviews_are_stored_per_finding_and_reviewer(filled, tmp_path):
    path = tmp_path / "frankfurt-1.duel"
    rid = store.save_review(filled, path, "ygo.ds.atk-mod-after-calc", 15, "confirmed", "clear on the video",
                            "Judge Lena", reviewed_at="2024-05-13T10:00:00+00:00")
    store.save_review(filled, path, "ygo.lp.mismatch", 17, "rejected", "LP were right", "Judge Lena")
    again = store.save_review(filled, path, "ygo.ds.atk-mod-after-calc", 15, "disputed", "angle unclear",
                              "Judge Lena", reviewed_at="2024-05-14T09:00:00+00:00")
    assert again == rid  # one verdict per reviewer and finding: the new one replaces the old
    store.save_review(filled, path, "ygo.ds.atk-mod-after-calc", 15, "confirmed", "", "Head Judge")
    reviews = store.load_reviews(filled, path)
    assert [(r["line"], r["rule"], r["verdict"], r["reviewer"]) for r in reviews] == [
        (15, "ygo.ds.atk-mod-after-calc", "disputed", "Judge Lena"),
        (15, "ygo.ds.atk-mod-after-calc", "confirmed", "Head Judge"),
        (17, "ygo.lp.mismatch", "rejected", "Judge Lena")]
    assert all(r["finding_id"] is not None for r in reviews)
    assert {r["reviewed_at"] for r in reviews if r["verdict"] == "disputed"} == {"2024-05-14T09:00:00+00:00"}
    # a new revision starts without verdicts; the old ones stay
    store_with(filled, tmp_path, "frankfurt-1.duel", FRANKFURT_1 + "phase end\n", [])
    assert store.load_reviews(filled, path) == []
    assert len(store.load_reviews(filled, path, all_revisions=True)) == 3


def test_a_review_of_a_file_not_yet_in_the_library_imports_it(library, tmp_path):
    path = tmp_path / "new.duel"
    path.write_text('[Game "ygo"]\nturn 3 A\nphase main1\nA: frobnicate\n', encoding="utf-8")
    importing.save_review(library, path, "syntax.line", 4, "confirmed", reviewer="me")
    assert library.execute("SELECT file FROM matches").fetchall() == [("new.duel",)]
    (review,) = store.load_reviews(library, path)
    assert review["finding_id"] is not None and review["verdict"] == "confirmed"
    with pytest.raises(store.LibraryError):
        importing.save_review(library, tmp_path / "missing.duel", "x", 1, "confirmed")


def test_a_review_belongs_to_the_revision_the_reviewer_saw(library, tmp_path):
    store_with(library, tmp_path, "frankfurt-1.duel")
    seen = store.content_hash(FRANKFURT_1.encode())
    store_with(library, tmp_path, "frankfurt-1.duel", FRANKFURT_1 + "phase end\n", [])
    store.save_review(library, tmp_path / "frankfurt-1.duel", "ygo.lp.mismatch", 17, "confirmed", reviewer="me",
                      content_hash_of_file=seen)
    (review,) = store.load_reviews(library, tmp_path / "frankfurt-1.duel", all_revisions=True)
    assert review["revision"] == 1 and review["finding_id"] is not None


def test_the_window_replaces_its_verdicts_and_they_follow_the_file_on_disk(library, tmp_path):
    path = tmp_path / "frankfurt-1.duel"
    path.write_text(FRANKFURT_1, encoding="utf-8")
    first = [{"rule": "syntax.line", "line": 5, "verdict": "confirmed", "note": "n1"},
             {"rule": "ygo.lp.mismatch", "line": 17, "verdict": None, "note": "only a note"}]
    assert importing.replace_reviews(library, path, first, reviewer="window") == 2  # imports the file first
    rows = store.load_reviews(library, path, reviewer="window")
    assert [(r["line"], r["verdict"], r["note"], r["source"]) for r in rows] == [
        (5, "confirmed", "n1", '[Event "Regional Frankfurt 2024"]'), (17, None, "only a note", "B: lp 6000")]
    # saving again replaces the reviewer's set; another reviewer's verdicts stay
    store.save_review(library, path, "ygo.lp.mismatch", 17, "dismissed", reviewer="Head Judge")
    importing.replace_reviews(library, path, first[:1], reviewer="window")
    assert sorted((r["reviewer"], r["line"]) for r in store.load_reviews(library, path)) == [
        ("Head Judge", 17), ("window", 5)]
    # the judge edits the log: the next save goes with the new revision, the old verdicts stay
    path.write_text(FRANKFURT_1 + "phase end\n", encoding="utf-8")
    assert store.load_reviews(library, path, latest=True, reviewer="window")[0]["revision"] == 1
    importing.replace_reviews(library, path, first, reviewer="window")
    assert [r["revision"] for r in store.match_revisions(library, path)] == [1, 2]
    latest = store.load_reviews(library, path, latest=True, reviewer="window")
    assert [(r["revision"], r["line"]) for r in latest] == [(2, 5), (2, 17)]
    assert len(store.load_reviews(library, path, all_revisions=True)) == 4


# ---- sharing ------------------------------------------------------------------------------------
def test_tables_and_the_view_read_well(filled):
    cols = {c.name for c in filled["current_findings"].columns}
    assert {"path", "line", "severity", "kind", "rule", "message", "player_name", "event", "table_no"} <= cols
    assert filled.execute("SELECT count(*) FROM current_findings").fetchone()[0] == 8
    fks = {(fk.column, fk.other_table) for fk in filled["findings"].foreign_keys}
    assert {("match_id", "matches"), ("revision_id", "match_revisions")} <= fks
    # events and event_cards are views (over match_revisions.events_json) with the columns of tables
    cols = {c.name for c in filled["events"].columns}
    assert {"id", "match_id", "revision_id", "seq", "kind", "turn", "turn_player", "phase", "step", "timing",
            "substep", "player", "player_name", "card", "chain_link", "line", "timecode", "text"} <= cols
    assert {c.name for c in filled["event_cards"].columns} >= {"event_id", "match_id", "revision_id", "line",
                                                                 "position", "card", "written", "copy"}
    assert filled.execute("SELECT count(*) FROM events").fetchone()[0] == filled.execute(
        "SELECT sum(event_count) FROM matches").fetchone()[0] == 20
    assert filled.execute("SELECT count(*) FROM event_cards").fetchone()[0] == filled.execute(
        "SELECT sum(json_array_length(cards)) FROM events WHERE cards IS NOT NULL").fetchone()[0]


# ---- the schema migrations ----------------------------------------------------------------------
def test_a_library_of_the_first_schema_is_converted_with_its_event_ids(tmp_path):
    """m002 moves the events (and their cards) of an m001 library into match_revisions.events_json."""
    path = tmp_path / "old.db"
    old = store.Database(sqlite3.connect(path))
    store.MIGRATIONS.apply(old, stop_before="m002_events_json")
    assert store.schema_version(old) == ["m001_initial"]
    text = '[Game "ygo"]\n[A "Yuki"]\n[B "Kaiba"]\nturn 3 A\nphase battle\nA: activate 《オネスト》   # appeal\n'
    counts = dict(event_count=3, error_count=1, warning_count=0, info_count=0)
    header = dict(game="ygo", rules="current", player_a="Yuki", player_b="Kaiba", event="Old Event",
                  date="2024-05-12", **counts)
    old["match_revisions"].insert(dict(id=1, match_id=1, revision=1, content_hash="h" * 64, path="/logs/old.duel",
                                       text=text, imported_at="2024-05-12T10:00:00+00:00", **header))
    old["matches"].insert(dict(id=1, path="/logs/old.duel", file="old.duel", revision=1, revision_id=1,
                               content_hash="h" * 64, first_imported="x", imported_at="x", **header))
    ids = dict(match_id=1, revision_id=1)
    old["events"].insert_all([  # ids as m001 gave them: following on from earlier matches' events
        dict(id=41, seq=0, line=4, column=1, kind="turn", turn=3, turn_player="A", text="turn 3 A", **ids),
        dict(id=42, seq=1, line=5, column=1, kind="phase", turn=3, turn_player="A", phase="battle",
             text="phase battle", **ids),
        dict(id=43, seq=2, line=6, column=1, kind="activate", turn=3, turn_player="A", phase="battle", player="A",
             player_name="Yuki", card="Honest", text="A: activate 《オネスト》   # appeal", **ids)])
    old["event_cards"].insert(dict(event_id=43, line=6, position=0, card="Honest", written="オネスト", **ids))
    old["findings"].insert(dict(event_id=43, line=6, column=4, severity="error", kind="illegal-activation",
                                rule="ygo.ds.atk-mod-after-calc", message="too late", player="A", player_name="Yuki",
                                card="Honest", **ids))
    old["notes"].insert(dict(event_id=43, line=6, text="appeal", **ids))
    old.conn.commit()
    old.close()

    db = store.open_library(path)  # applies m002 (and the later ones)
    try:
        assert store.schema_version(db) == ALL_MIGRATIONS
        assert "events" in db.view_names() and "event_cards" in db.view_names()
        events = list(db.query("SELECT id, seq, kind, turn, phase, player, player_name, card, text FROM events "
                               "ORDER BY id"))
        assert [(e["id"], e["seq"], e["kind"]) for e in events] == [(41, 0, "turn"), (42, 1, "phase"),
                                                                    (43, 2, "activate")]
        assert (events[2]["player_name"], events[2]["card"], events[2]["phase"]) == ("Yuki", "Honest", "battle")
        assert db.execute("SELECT event_id, card, written FROM event_cards").fetchall() == [
            (43, "Honest", "オネスト")]
        assert db.execute("SELECT event_id, cards FROM findings").fetchall() == [(43, '["Honest"]')]
        assert db.execute("SELECT cards FROM match_cards").fetchall() == [('["Honest"]',)]
        assert [f["rule"] for f in store.search(db, card=["Honest"], kind=["illegal-activation"]).findings] == [
            "ygo.ds.atk-mod-after-calc"]
        assert store.search(db, text="appeal").total_notes == 1
        assert store.check_whole(db) == []
        # the next import's events follow on from the converted ones
        importing.import_text(db, FRANKFURT_1, path=str(tmp_path / "new.duel"))
        assert db.execute("SELECT min(id) FROM events WHERE match_id = 2").fetchone()[0] == 44
        assert store.check_whole(db) == []
    finally:
        db.close()


def store_as_m003(db, text: str, path: str, findings_id_start: int | None = None) -> int:
    """Write a log as the writer of schema m002/m003 did (one row a note and a card list, findings
    found by an index); returns the revision id. For the upgrade tests."""
    prepared = importing.prepare_bytes(text.encode("utf-8"), path)
    row = db.execute("SELECT id, revision FROM matches WHERE path = ?", [path]).fetchone()
    revision_id = db.execute("SELECT coalesce(max(id), 0) + 1 FROM match_revisions").fetchone()[0]
    first = db.execute("SELECT coalesce(max(first_event_id + event_count), 1) FROM match_revisions").fetchone()[0]
    match_id = row[0] if row else db.execute("SELECT coalesce(max(id), 0) + 1 FROM matches").fetchone()[0]
    revision = row[1] + 1 if row else 1
    header = dict(zip(store.MATCH_COLUMNS, prepared.match))
    db["match_revisions"].insert(dict(id=revision_id, match_id=match_id, revision=revision,
                                      content_hash=prepared.content_hash, path=path, **header, imported_at="then",
                                      text=prepared.text, events_json=prepared.events_json, first_event_id=first))
    match = dict(id=match_id, path=path, file=Path(path).name, revision=revision, revision_id=revision_id,
                 content_hash=prepared.content_hash, **header, imported_at="then")
    if row:
        db["matches"].update(match_id, match)
    else:
        db["matches"].insert(dict(match, first_imported="then"))
    if prepared.cards:
        db["match_cards"].insert(dict(revision_id=revision_id, match_id=match_id, cards=prepared.cards))
    ids = dict(match_id=match_id, revision_id=revision_id)
    for i, r in enumerate(prepared.findings):
        values = dict(zip(["event_id", *store.FINDING_COLUMNS_M002], [None if r[0] is None else first + r[0], *r[1:]]))
        if findings_id_start is not None:
            values["id"] = findings_id_start + i
        db["findings"].insert(dict(values, **ids))
    for seq, line, note in prepared.notes:
        db["notes"].insert(dict(event_id=None if seq is None else first + seq, line=line, text=note, **ids))
    db.execute("INSERT INTO notes_fts (rowid, [text]) SELECT id, [text] FROM notes WHERE revision_id = ?", [revision_id])
    db.conn.commit()
    return revision_id


def test_m003_replaces_the_content_hash_index_and_duplicates_are_still_found(tmp_path):
    """m003 swaps the index on matches.content_hash for one on its first digits; an m002 library
    keeps its rows, and the duplicate check (now on the short key) still works."""
    path = tmp_path / "m002.db"
    old = store.Database(sqlite3.connect(path))
    store.MIGRATIONS.apply(old, stop_before="m003_hash_key")
    assert store.schema_version(old) == ["m001_initial", "m002_events_json"]
    assert "idx_matches_content_hash" in {i.name for i in old["matches"].indexes}
    for name, text in (("one.duel", FRANKFURT_1), ("two.duel", FRANKFURT_2)):
        store_as_m003(old, text, store.library_path(tmp_path / name))
    before = {t: list(old.query(f"SELECT * FROM [{t}] ORDER BY 1")) for t in ("matches", "match_revisions", "findings")}
    old.close()

    db = store.open_library(path)  # applies m003 (and the later ones)
    try:
        assert store.schema_version(db) == ALL_MIGRATIONS
        indexes = {i.name for i in db["matches"].indexes}
        assert "idx_matches_content_hash" not in indexes and "idx_matches_hash_key" in indexes
        after = {t: list(db.query(f"SELECT * FROM [{t}] ORDER BY 1")) for t in before}
        for rows in (after["matches"], after["match_revisions"]):  # less what m004 added
            for row in rows:
                for column in ("first_finding_id", "cards", "notes_json"):
                    row.pop(column, None)
        for rows in (before["matches"], before["match_revisions"]):  # m005: relative to the library's folder
            for row in rows:
                row["path"] = Path(row["path"]).name
        assert after == before
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + store._SQL_LOOKUP, ["h" * 64, "h" * 10, "/x"]))
        assert "idx_matches_hash_key" in plan and "idx_matches_path" in plan
        # the same content under another path: a duplicate; the same path again: unchanged
        assert importing.import_text(db, FRANKFURT_1, path=str(tmp_path / "copy.duel")).status == "duplicate"
        assert importing.import_text(db, FRANKFURT_2, path=str(tmp_path / "two.duel")).status == "unchanged"
        changed = FRANKFURT_2.replace("turn", "# edited\nturn", 1)
        outcome = importing.import_text(db, changed, path=str(tmp_path / "two.duel"))
        assert (outcome.status, outcome.revision) == ("revision", 2)
        assert importing.import_text(db, changed, path=str(tmp_path / "three.duel")).status == "duplicate"
        assert store.check_whole(db) == []
    finally:
        db.close()


def test_m004_finds_findings_by_id_range_and_keeps_notes_and_cards_in_the_revision(tmp_path):
    """An m003 library (a match with two revisions, another match, a review) upgrades to m004:
    each revision's findings are a range of ids from first_finding_id, its notes and cards are
    in its row, the index on findings.revision_id is gone, and everything is found as before."""
    path = tmp_path / "m003.db"
    old = store.Database(sqlite3.connect(path))
    store.MIGRATIONS.apply(old, stop_before="m004_finding_ranges")
    one, two = store.library_path(tmp_path / "one.duel"), store.library_path(tmp_path / "two.duel")
    store_as_m003(old, FRANKFURT_1, one)
    store_as_m003(old, FRANKFURT_2, two)
    store_as_m003(old, FRANKFURT_1.replace("resolve", "resolve   # second look: appeal upheld"), one)
    finding_id = old.execute("SELECT id FROM findings WHERE revision_id = 2 ORDER BY id LIMIT 1").fetchone()[0]
    old["reviews"].insert(dict(match_id=2, revision_id=2, finding_id=finding_id, rule="x", line=1, verdict="confirmed",
                               reviewer="judge"))
    before = {
        "findings": old.execute("SELECT id, revision_id, rule, line FROM findings ORDER BY id").fetchall(),
        "notes": old.execute("SELECT id, event_id, revision_id, line, text FROM notes ORDER BY id").fetchall(),
        "cards": old.execute("SELECT revision_id, cards FROM match_cards ORDER BY 1").fetchall()}
    old.conn.commit()
    old.close()

    db = store.open_library(path)  # applies m004
    try:
        assert store.schema_version(db) == ALL_MIGRATIONS
        assert "idx_findings_revision" not in {i.name for i in db["findings"].indexes}
        assert db.execute("SELECT id, revision_id, rule, line FROM findings ORDER BY id").fetchall() == before["findings"]
        assert db.execute("SELECT id, event_id, revision_id, line, text FROM notes ORDER BY id").fetchall() == before["notes"]
        assert db.execute("SELECT id, cards FROM match_revisions WHERE cards IS NOT NULL").fetchall() == before["cards"]
        for revision_id, first in db.execute("SELECT id, first_finding_id FROM match_revisions").fetchall():
            assert first == db.execute("SELECT min(id) FROM findings WHERE revision_id = ?", [revision_id]).fetchone()[0]
        assert db.execute("SELECT notes_json FROM match_revisions WHERE id = 3").fetchone()[0].count("appeal") == 2
        assert db.execute("SELECT revision_id FROM library_index").fetchone()[0] == 3
        assert db.execute("SELECT finding_id FROM reviews").fetchone()[0] == finding_id
        assert store.check_whole(db) == [] and not store.index_behind(db)
        assert store.search(db, text="upheld").total_notes == 1
        assert store.search(db, card=["Honest"], all_revisions=True).total_matches == 3
        assert [f["rule"] for f in store.search(db, event="Frankfurt", rule=["syntax"]).findings] == [
            f["rule"] for f in store.search(db, rule=["syntax"]).findings]
        # the next file's findings follow on
        importing.import_text(db, GRAND_PRIX, path=str(tmp_path / "three.duel"))
        assert store.check_whole(db) == [] and not store.index_behind(db)
    finally:
        db.close()


def test_m004_numbers_findings_revision_by_revision_where_they_were_not(tmp_path):
    """A library edited by hand may have a revision's findings apart: m004 renumbers them, and
    the reviews go on pointing at the same findings."""
    path = tmp_path / "m003.db"
    old = store.Database(sqlite3.connect(path))
    store.MIGRATIONS.apply(old, stop_before="m004_finding_ranges")
    one, two = store.library_path(tmp_path / "one.duel"), store.library_path(tmp_path / "two.duel")
    store_as_m003(old, FRANKFURT_2, one, findings_id_start=10)
    store_as_m003(old, FRANKFURT_2.replace("[Round", "[Table \"7\"]\n[Round"), two, findings_id_start=5)
    old.execute("UPDATE findings SET id = 100 WHERE id = 5")  # revision 2's first finding, far away
    old["reviews"].insert(dict(match_id=2, revision_id=2, finding_id=100, rule="x", line=1, verdict="confirmed",
                               reviewer="judge"))
    rules = old.execute("SELECT rule, line FROM findings WHERE id = 100").fetchone()
    old.conn.commit()
    old.close()
    db = store.open_library(path)
    try:
        ids = db.execute("SELECT revision_id, id FROM findings ORDER BY id").fetchall()
        assert [r for r, _ in ids] == sorted(r for r, _ in ids) and [i for _, i in ids] == list(range(1, len(ids) + 1))
        review = db.execute("SELECT f.rule, f.line FROM reviews r JOIN findings f ON f.id = r.finding_id").fetchone()
        assert review == rules
        assert store.check_whole(db) == []
    finally:
        db.close()


def test_m004_gives_each_revision_ids_of_its_own_where_counts_and_rows_disagree(tmp_path):
    """A hand-edited library whose counts say more findings than it has rows: each revision
    still gets a block of ids as long as its counts, the blocks do not overlap, and the next
    file's findings come after them all."""
    path = tmp_path / "m003.db"
    old = store.Database(sqlite3.connect(path))
    store.MIGRATIONS.apply(old, stop_before="m004_finding_ranges")
    one, two = store.library_path(tmp_path / "one.duel"), store.library_path(tmp_path / "two.duel")
    store_as_m003(old, FRANKFURT_2, one)
    store_as_m003(old, FRANKFURT_2.replace("[Round", "[Table \"7\"]\n[Round"), two)
    old.execute("UPDATE match_revisions SET error_count = error_count + 2")  # two findings too few
    old.conn.commit()
    old.close()
    db = store.open_library(path)
    try:
        blocks = db.execute("SELECT first_finding_id, error_count + warning_count + info_count FROM match_revisions "
                            "ORDER BY id").fetchall()
        assert blocks[0][0] + blocks[0][1] <= blocks[1][0]
        for revision_id, (first, n) in enumerate(blocks, 1):
            rows = db.execute("SELECT id FROM findings WHERE revision_id = ? ORDER BY id", [revision_id]).fetchall()
            assert all(first <= r[0] < first + n for r in rows)
        assert len(store.check_whole(db)) == 2  # what the counts say is still reported as missing
        importing.import_text(db, GRAND_PRIX, path=str(tmp_path / "three.duel"))
        first = db.execute("SELECT first_finding_id FROM match_revisions WHERE id = 3").fetchone()[0]
        assert first == blocks[1][0] + blocks[1][1]
    finally:
        db.close()


def test_a_bulk_import_indexes_the_notes_in_batches_and_a_search_never_misses_one(tmp_path, monkeypatch):
    folder = copies(tmp_path, 5)
    monkeypatch.setattr(store.writer, "INDEX_BATCH", 2)
    monkeypatch.setattr(store.writer, "COMMIT_FILES", 1)  # a transaction a file: the first is told at once
    db = store.open_library(tmp_path / "library.db")
    try:
        outcomes = importing.import_paths(db, importing.find_logs([folder]))
        next(outcomes)
        assert store.index_behind(db)  # the first file's notes and cards wait for the batch
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
        # ... but a search finds them all the same
        assert store.search(db, text="appeal").total_notes == 1
        assert [o.status for o in outcomes] == ["new"] * 4
        assert not store.index_behind(db)  # all indexed at the end
        assert db.execute("SELECT count(*) FROM match_cards").fetchone()[0] == 5
        assert db.execute("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'appeal'").fetchone()[0] == 5
        # a single file (the window, import_text) is indexed in its own transaction
        importing.import_text(db, FRANKFURT_2.replace("B: activte", "B: activte   # unusual appeal"),
                          path=str(tmp_path / "one.duel"))
        assert not store.index_behind(db)
    finally:
        db.close()


def test_search_by_card_whose_name_has_like_wildcards_or_quotes(library, tmp_path):
    text = ('[Game "ygo"]\n[A "Yuki"]\nturn 3 A\nphase main1\nA: activate "100%_Sure" {quick-play}\n'
            'A: activate "Back\\\\Slash" {quick-play}\n')
    outcome = store_with(library, tmp_path, "odd.duel", text, [])
    assert outcome.status == "new"
    assert store.search(library, card=["100%_sure"]).total_matches == 1  # any case
    assert store.search(library, card=["100%"]).total_matches == 0  # a whole name, not a pattern
    assert store.search(library, card=["100x_Sure"]).total_matches == 0
    written = library.execute("SELECT written FROM event_cards ORDER BY event_id DESC LIMIT 1").fetchone()[0]
    assert store.search(library, card=[written]).total_matches == 1


def test_the_store_json_encoder_writes_what_json_dumps_writes():
    import json

    values = [[1, -2, "a\"b\\c\n\t\u2028", None, True, False, 2.5, ["x", ["y", None, 3]]], [], "日本 《オネスト》",
              [["Honest", "オネスト", None]], {"Game": "ygo", "A": "Yu\"ki", "Event": "Regional 日本"}]
    values.append([2 ** 70, "beyond orjson's 64 bits"])
    plain = store._json_encoder()
    for value in values:
        assert store._dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert plain(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert store._dumps_header(value) == json.dumps(value, ensure_ascii=False)


def test_a_bulk_import_checkpoints_from_a_thread_and_the_wal_starts_over(tmp_path, monkeypatch):
    """The WAL is checkpointed by a thread of its own every CHECKPOINT_FILES files; after each,
    the importer copies what was written meanwhile, so the WAL file is reused rather than
    growing with the import; the thread is gone and SQLite's default is back afterwards."""
    import os
    import threading

    folder = copies(tmp_path, 60)
    monkeypatch.setattr(store.writer, "CHECKPOINT_FILES", 5)
    started = []
    monkeypatch.setattr(store._Checkpointer, "start", classmethod(
        lambda cls, db, start=store._Checkpointer.start.__func__: started.append(start(cls, db)) or started[-1]))
    path = tmp_path / "library.db"
    db = store.open_library(path)
    try:
        wal_sizes = []
        for outcome in importing.import_paths(db, importing.find_logs([folder])):
            assert outcome.status == "new"
            wal_sizes.append(os.path.getsize(str(path) + "-wal"))
        checkpointer = started[0]
        assert checkpointer is not None and checkpointer.finished >= 1
        frames = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
        page = db.execute("PRAGMA page_size").fetchone()[0]
        assert max(wal_sizes) < 0.75 * 60 * 8 * (page + 24)  # reused: not as long as 60 files' frames
        assert frames < 60 * 8
        assert not [t for t in threading.enumerate() if t.name == "replayer-checkpoint"]
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
        assert store.count_rows(db)["matches"] == 60 and store.check_whole(db) == []
    finally:
        db.close()


def test_an_import_stopped_early_stops_its_checkpoint_thread(tmp_path, monkeypatch):
    import threading

    monkeypatch.setattr(store.writer, "COMMIT_FILES", 2)
    folder = copies(tmp_path, 3)
    db = store.open_library(tmp_path / "library.db")
    try:
        outcomes = importing.import_paths(db, importing.find_logs([folder]))
        next(outcomes)
        assert [t for t in threading.enumerate() if t.name == "replayer-checkpoint"]
        outcomes.close()
        assert not [t for t in threading.enumerate() if t.name == "replayer-checkpoint"]
        # the first outcome came with its transaction's two files: they are in, the third is not
        assert store.count_rows(db)["matches"] == 2 and store.check_whole(db) == []
        assert not db.conn.in_transaction
    finally:
        db.close()


def test_the_store_json_encoder_agrees_with_json_dumps_on_any_text_and_integers():
    """The values the store writes: strings (any character), integers, None, booleans, nested
    lists, dicts with string keys."""
    import json

    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.text() | st.integers() | st.none() | st.booleans()
    values = st.recursive(scalars, lambda inner: st.lists(inner) | st.tuples(inner, inner)
                          | st.dictionaries(st.text(), inner), max_leaves=20)

    @settings(max_examples=300, deadline=None)
    @given(values)
    def agrees(value):
        assert store._dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    agrees()


def test_search_tables_are_made_again_if_their_bookmark_is_lost(filled):
    """``library_index`` tells how far notes, notes_fts and match_cards go; without it (a library
    edited by hand) they are made again from the revisions, not filled twice, even with notes
    that never reached the full-text index (an import killed before m004)."""
    before = {t: filled.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("notes", "match_cards")}
    filled.execute("DELETE FROM library_index")
    filled.execute("INSERT INTO notes (match_id, revision_id, line, text) VALUES (1, 1, 1, 'stray appeal')")
    filled.conn.commit()
    assert store.index_behind(filled)
    assert store.search(filled, text="appeal").total_notes == 1
    assert {t: filled.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in before} == before
    assert filled.execute("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'appeal'").fetchone()[0] == 1
    assert not store.index_behind(filled)


def test_a_bulk_import_commits_a_few_files_a_transaction_and_tells_only_what_is_committed(tmp_path, monkeypatch):
    folder = copies(tmp_path, 8)
    monkeypatch.setattr(store.writer, "COMMIT_FILES", 3)
    monkeypatch.setattr(store.writer, "COMMIT_SECONDS", 3600)
    path = tmp_path / "library.db"
    db = store.open_library(path)
    other = sqlite3.connect(path)  # another program looking at the library meanwhile
    try:
        outcomes = importing.import_paths(db, importing.find_logs([folder]))
        assert next(outcomes).status == "new"
        # told once committed: the first transaction's three files are in the library, whole
        assert other.execute("SELECT count(*) FROM matches").fetchone()[0] == 3
        assert [o.status for o in outcomes] == ["new"] * 7
        assert other.execute("SELECT count(*) FROM matches").fetchone()[0] == 8
        assert store.check_whole(db) == [] and not store.index_behind(db)
    finally:
        other.close()
        db.close()


def test_a_write_that_fails_in_a_bulk_import_loses_only_its_file_and_stops_the_import(tmp_path, monkeypatch):
    folder = copies(tmp_path, 8)
    monkeypatch.setattr(store.writer, "COMMIT_FILES", 3)
    monkeypatch.setattr(store.writer, "COMMIT_SECONDS", 3600)
    real = store.writer._write_rows
    calls = []

    def write(conn, prepared, index):
        calls.append(prepared.path)
        outcome = real(conn, prepared, index)  # its rows go in, then the write fails
        if len(calls) == 5:
            raise sqlite3.OperationalError("disk I/O error")
        return outcome

    monkeypatch.setattr(store.writer, "_write_rows", write)
    db = store.open_library(tmp_path / "library.db")
    try:
        told = []
        with pytest.raises(sqlite3.OperationalError):
            for outcome in importing.import_paths(db, importing.find_logs([folder])):
                told.append(outcome.path)
        # the files before it are committed and told (the fourth with it); nothing of the fifth
        assert told == calls[:4]
        assert sorted(r[0] for r in db.execute("SELECT path FROM matches")) == sorted(told)
        assert store.check_whole(db) == [] and not db.conn.in_transaction
        assert db.execute("SELECT count(*) FROM match_revisions").fetchone()[0] == 4
    finally:
        db.close()


def test_an_import_inside_a_caller_s_transaction_is_whole_and_checkpoints_nothing_itself(tmp_path, monkeypatch):
    folder = copies(tmp_path, 12)
    monkeypatch.setattr(store.writer, "CHECKPOINT_FILES", 2)
    db = store.open_library(tmp_path / "library.db")
    try:
        with db.atomic():
            assert {o.status for o in importing.import_paths(db, importing.find_logs([folder]))} == {"new"}
        assert store.count_rows(db)["matches"] == 12 and store.check_whole(db) == []
    finally:
        db.close()


# ---- the layers ----------------------------------------------------------------------------------
def test_the_store_takes_checked_results_and_reads_no_file_itself():
    import ast

    package = Path(store.__file__).parent
    for module in sorted(package.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
                names += [names[0].rstrip(".") + "." + a.name if node.module else "." * node.level + a.name
                          for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert not any(name in (f"..{m}", f"replayer.{m}") or name.startswith((f"..{m}.", f"replayer.{m}."))
                               for m in ("reader", "check", "importing")), f"{module.name} imports {name}"
        assert len(module.read_text(encoding="utf-8").splitlines()) <= 600, module.name


def test_a_review_through_the_store_alone_needs_the_match_in_the_library(library, tmp_path):
    path = tmp_path / "new.duel"
    path.write_text(FRANKFURT_1, encoding="utf-8")
    with pytest.raises(store.LibraryError, match="not in the library"):
        store.save_review(library, path, "ygo.lp.mismatch", 17, "confirmed")
    assert library.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
    # given the file's rows, it stores them first
    store.save_review(library, path, "ygo.lp.mismatch", 17, "confirmed", current=importing.prepare_file(path))
    assert [r["verdict"] for r in store.load_reviews(library, path)] == ["confirmed"]


def test_the_import_pool_waits_for_its_workers_not_for_their_results(tmp_path):
    """The workers' pool (importing._pool_class) is the standard one, but for what its handler
    thread waits for: a worker's end and the pool's changes, not bytes in the results' pipe (it
    woke for every piece of every result: docs/performance.md, Library); its results are those
    of the standard pool."""
    import multiprocessing

    cls = importing._pool_class()
    pool = cls(2, context=multiprocessing.get_context())
    try:
        sentinels = pool._get_sentinels()
        assert pool._outqueue._reader not in sentinels
        assert pool._change_notifier._reader in sentinels
        assert list(pool.imap(abs, range(-50, 50), chunksize=7)) == [abs(n) for n in range(-50, 50)]
    finally:
        pool.terminate()
        pool.join()
