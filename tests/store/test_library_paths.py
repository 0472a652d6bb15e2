"""A library shared by a team (issue 23, point 15): paths kept relative to the library's root,
a library copied or mounted elsewhere that still opens its logs, logs that moved found again by
their content hash, an edited one reported and not relinked, the verdicts kept through a move,
and the migration (m005) of a library of the schema before it.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer import importing, store
from replayer.cli import cli

HONEST = """\
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
[Event "Regional Frankfurt 2024"]
[Round "1"]
[Table "12"]
[Date "2024-05-12"]

turn 3 A
phase battle
A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing calc
A: activate "Honest" from hand   # judge call: appeal by Kaiba
resolve
"""
#: the line of HONEST with its finding (ygo.ds.atk-mod-after-calc)
HONEST_LINE = 14
QUIET = """\
[Game "ygo"]
[A "Mai"]
[B "Kaiba"]
[Event "Regional Frankfurt 2024"]
[Round "2"]
[Table "7"]
[Date "2024-05-12"]

turn 3 A
phase main1
phase end
"""
DM = """\
[Game "dm"]
[A "Rin"]
[B "Yuki"]
[Event "DM Grand Prix 2024"]
[Date "2024-06-01"]

turn 5 A
A: charge
"""
RULE = "ygo.ds.atk-mod-after-calc"


def make_event(folder: Path) -> Path:
    """An event folder as a judging team keeps it: logs in sub-folders and the library beside
    them. Returns the library's path."""
    (folder / "logs" / "round-1").mkdir(parents=True)
    (folder / "logs" / "round-2").mkdir()
    (folder / "logs" / "round-1" / "table-12.duel").write_text(HONEST, encoding="utf-8")
    (folder / "logs" / "round-2" / "table-07.duel").write_text(QUIET, encoding="utf-8")
    (folder / "logs" / "dm.duel").write_text(DM, encoding="utf-8")
    return folder / "library.db"


def imported(folder: Path) -> Path:
    """``make_event`` imported, with a reviewer's verdict on the Honest finding."""
    library = make_event(folder)
    db = store.open_library(library)
    try:
        outcomes = list(importing.import_paths(db, importing.find_logs([folder / "logs"])))
        assert [o.status for o in outcomes] == ["new"] * 3
        importing.save_review(db, folder / "logs" / "round-1" / "table-12.duel", RULE, HONEST_LINE, "confirmed",
                              "seen on the video at 12:31", "Judge Lena")
    finally:
        db.close()
    return library


@pytest.fixture
def run(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAYER_LIBRARY", raising=False)

    def invoke(*args: str, code: int | None = 0):
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        if code is not None:
            assert result.exit_code == code, result.output
        return result

    return invoke


def stored_paths(library: Path) -> list[str]:
    conn = sqlite3.connect(library)
    try:
        return [r[0] for r in conn.execute("SELECT path FROM matches ORDER BY path")]
    finally:
        conn.close()


# ---- a library copied, or mounted elsewhere ----------------------------------------------------
def test_the_library_keeps_its_logs_relative_to_its_folder(tmp_path):
    library = imported(tmp_path / "event")
    assert stored_paths(library) == ["logs/dm.duel", "logs/round-1/table-12.duel", "logs/round-2/table-07.duel"]
    conn = sqlite3.connect(library)
    try:
        assert conn.execute("SELECT DISTINCT path FROM match_revisions ORDER BY path").fetchall() == [
            ("logs/dm.duel",), ("logs/round-1/table-12.duel",), ("logs/round-2/table-07.duel",)]
        assert conn.execute("SELECT value FROM library_settings WHERE key = 'root'").fetchone() == (".",)
    finally:
        conn.close()


def test_a_library_copied_with_its_logs_to_another_machine_opens_every_log(tmp_path):
    imported(tmp_path / "event")
    shutil.copytree(tmp_path / "event", tmp_path / "laptop" / "judging")
    shutil.rmtree(tmp_path / "event")  # the first machine is gone: nothing may point there
    copy = tmp_path / "laptop" / "judging"
    log = copy / "logs" / "round-1" / "table-12.duel"
    db = store.open_library(copy / "library.db")
    try:
        result = store.search(db)
        assert sorted(m["path"] for m in result.matches) == sorted(
            str(p.resolve()) for p in (copy / "logs").rglob("*.duel"))
        assert all(Path(m["path"]).is_file() for m in result.matches)
        (f,) = store.search(db, rule=[RULE]).findings
        assert (f["path"], f["line"]) == (str(log.resolve()), HONEST_LINE)
        assert store.stats(db, player="Yuki")["mistakes"][0]["example"] == f"{log.resolve()}:{HONEST_LINE}"
        assert store.match_text(db, log) == HONEST
        assert [r["revision"] for r in store.match_revisions(db, log)] == [1]
        # the verdict made on the first machine is the reviewer's on this one
        (review,) = store.load_reviews(db, log, reviewer="Judge Lena")
        assert (review["verdict"], review["note"]) == ("confirmed", "seen on the video at 12:31")
        assert store.library_places(db).missing == []
        # importing the copy again changes nothing
        outcomes = list(importing.import_paths(db, importing.find_logs([copy / "logs"])))
        assert [o.status for o in outcomes] == ["unchanged"] * 3
    finally:
        db.close()
    # a read-only share: read as it is, the paths resolved the same
    ro = store.open_library(copy / "library.db", read_only=True)
    try:
        assert all(Path(m["path"]).is_file() for m in store.search(ro).matches)
    finally:
        ro.close()


def test_the_window_s_verdicts_follow_a_library_mounted_elsewhere(tmp_path):
    from replayer import reviews
    from replayer.diagnostics import Finding, Kind, Severity, Span

    imported(tmp_path / "share")
    (tmp_path / "share").rename(tmp_path / "mnt")  # the same share, mounted at another place
    log = str(tmp_path / "mnt" / "logs" / "round-1" / "table-12.duel")
    backend = reviews.LibraryReviewStore(tmp_path / "mnt" / "library.db", reviewer="Judge Lena")
    finding = Finding(Severity.ERROR, Kind.ILLEGAL_ACTIVATION, RULE, Span(HONEST_LINE, 4), "too late")
    opened = reviews.Reviews.open(log, HONEST.splitlines(), backend=backend)
    assert (opened.get(finding).status, opened.get(finding).note) == (reviews.CONFIRMED, "seen on the video at 12:31")
    opened.set(finding, reviews.DISMISSED, "on second look: before calc")
    db = store.open_library(tmp_path / "mnt" / "library.db")
    try:
        assert db["matches"].count == 3  # the same match, not a new one at the new place
        (review,) = store.load_reviews(db, log, reviewer="Judge Lena")
        assert (review["verdict"], review["note"]) == ("dismissed", "on second look: before calc")
    finally:
        db.close()


def test_a_root_above_the_library_s_folder_is_kept_relative_too(run, tmp_path):
    """A team keeps the library in share/db/ and the logs in share/logs/: the logs are outside
    the library's folder (kept by absolute path) until the share is named the root."""
    make_event(tmp_path / "share")
    (tmp_path / "share" / "db").mkdir()
    run("import", "share/logs", "--db", "share/db/library.db")
    assert all(os.path.isabs(p) for p in stored_paths(tmp_path / "share" / "db" / "library.db"))
    out = run("library", "--db", "share/db/library.db", "--root", "share").output
    assert "kept as '..'" in out and "3 paths changed" in out
    assert "3 relative to the root, 0 by absolute path" in out
    assert stored_paths(tmp_path / "share" / "db" / "library.db") == [
        "logs/dm.duel", "logs/round-1/table-12.duel", "logs/round-2/table-07.duel"]
    (tmp_path / "share").rename(tmp_path / "team-share")
    out = run("library", "--db", "team-share/db/library.db").output
    assert f"root     {(tmp_path / 'team-share').resolve()} (..)" in out
    assert "missing  none" in out
    found = json.loads(run("search", "--db", "team-share/db/library.db", "--format", "json").output)
    assert sorted(m["file"] for m in found["matches"]) == [
        "team-share/logs/dm.duel", "team-share/logs/round-1/table-12.duel", "team-share/logs/round-2/table-07.duel"]


# ---- logs that moved -----------------------------------------------------------------------------
def test_a_log_moved_inside_the_root_is_found_by_its_content(run, tmp_path):
    library = imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    (logs / "finals").mkdir()
    (logs / "round-1" / "table-12.duel").rename(logs / "finals" / "feature-match.duel")  # moved and renamed
    out = run("library", "--db", "event/library.db").output
    assert "missing  1 log not where the library has it:" in out and "event/logs/round-1/table-12.duel" in out
    result = run("library", "relink", "--db", "event/library.db")
    assert "relinked 1 log, found by content:" in result.output
    assert "event/logs/round-1/table-12.duel -> event/logs/finals/feature-match.duel" in result.output
    assert "still missing" not in result.output
    assert "logs/finals/feature-match.duel" in stored_paths(library)
    db = store.open_library(library)
    try:
        moved = logs / "finals" / "feature-match.duel"
        (f,) = store.search(db, rule=[RULE]).findings
        assert f["path"] == str(moved.resolve())
        (review,) = store.load_reviews(db, moved, reviewer="Judge Lena")  # the verdict went with it
        assert review["note"] == "seen on the video at 12:31"
        assert db.execute("SELECT file FROM matches WHERE path = 'logs/finals/feature-match.duel'").fetchone() == (
            "feature-match.duel",)
        assert store.check_whole(db) == []
    finally:
        db.close()
    assert "every log is where the library has it" in run("library", "relink", "--db", "event/library.db").output


def test_relink_dry_run_changes_nothing_and_a_folder_outside_the_root_can_be_scanned(run, tmp_path):
    library = imported(tmp_path / "event")
    (tmp_path / "usb").mkdir()
    shutil.move(tmp_path / "event" / "logs" / "dm.duel", tmp_path / "usb" / "dm.duel")
    before = stored_paths(library)
    out = run("library", "relink", "--db", "event/library.db", "--dry-run", code=1).output
    assert "still missing: 1 log" in out and "event/logs/dm.duel" in out
    out = run("library", "relink", "usb", "--db", "event/library.db", "--dry-run").output
    assert "would relink 1 log" in out and "event/logs/dm.duel -> usb/dm.duel" in out
    assert stored_paths(library) == before
    report = json.loads(run("library", "relink", "usb", "--db", "event/library.db", "--format", "json").output)
    assert report["moved"] == [{"was": str((tmp_path / "event" / "logs" / "dm.duel").resolve()),
                                "now": str((tmp_path / "usb" / "dm.duel").resolve())}]
    assert str((tmp_path / "usb" / "dm.duel").resolve()) in stored_paths(library)  # outside the root: absolute


def test_an_edited_moved_log_is_reported_and_not_relinked(run, tmp_path):
    library = imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    (logs / "round-1" / "table-12.duel").rename(logs / "table-12.duel")
    with open(logs / "table-12.duel", "a", encoding="utf-8") as f:
        f.write("B: lp 8000   # added after the move\n")
    before = stored_paths(library)
    out = run("library", "relink", "--db", "event/library.db", code=1).output
    assert "not relinked: 1 log whose name is there with other content (edited after it moved?):" in out
    assert ("event/logs/round-1/table-12.duel: event/logs/table-12.duel differs; if it is the same match: "
            "replayer library move event/logs/round-1/table-12.duel event/logs/table-12.duel") in out
    assert "relinked" not in out.replace("not relinked", "")
    assert stored_paths(library) == before  # nothing was pointed at the wrong file
    db = store.open_library(library)
    try:
        located = store.locate(db, logs / "round-1" / "table-12.duel")
        assert (located.status, located.candidates) == ("edited", [str((logs / "table-12.duel").resolve())])
        assert stored_paths(library) == before
    finally:
        db.close()
    # the judge says it is the same match: relinked by hand, its next import is its revision 2
    run("library", "move", "event/logs/round-1/table-12.duel", "event/logs/table-12.duel", "--db", "event/library.db")
    out = run("import", "event/logs", "--db", "event/library.db").output
    assert "3 files: 0 new, 1 new revision, 2 unchanged" in out
    db = store.open_library(library)
    try:
        log = logs / "table-12.duel"
        assert [r["revision"] for r in store.match_revisions(db, log)] == [1, 2]
        (review,) = store.load_reviews(db, log, all_revisions=True)  # the verdict stays with revision 1
        assert (review["revision"], review["note"]) == (1, "seen on the video at 12:31")
    finally:
        db.close()


def test_importing_a_moved_log_relinks_its_match_instead_of_calling_it_a_duplicate(run, tmp_path):
    library = imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    (logs / "round-2" / "table-07.duel").rename(logs / "table-07.duel")
    shutil.copy(logs / "dm.duel", logs / "dm-copy.duel")  # a copy (the original is still there): a duplicate
    out = run("import", "event/logs", "--db", "event/library.db").output
    assert "4 files: 0 new, 0 new revisions, 2 unchanged, 1 duplicate, 1 moved" in out
    assert stored_paths(library) == ["logs/dm.duel", "logs/round-1/table-12.duel", "logs/table-07.duel"]
    db = store.open_library(library)
    try:
        assert db["matches"].count == 3 and db["match_revisions"].count == 3
    finally:
        db.close()


def test_a_review_saved_on_a_moved_log_keeps_the_verdicts_it_had(tmp_path):
    """The window opens a moved log before anyone relinked it: the verdicts made before the move
    are shown, and saving relinks the match rather than losing them."""
    library = imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    moved = logs / "table-12.duel"
    (logs / "round-1" / "table-12.duel").rename(moved)
    db = store.open_library(library)
    try:
        (review,) = store.load_reviews(db, moved, reviewer="Judge Lena")
        assert review["note"] == "seen on the video at 12:31"
        importing.replace_reviews(db, moved, [{"rule": RULE, "line": HONEST_LINE, "verdict": "confirmed",
                                               "note": "seen on the video at 12:31; upheld on appeal"}], "Judge Lena")
        importing.save_review(db, moved, RULE, HONEST_LINE, "confirmed", "agree", "Head Judge")
        assert stored_paths(library) == ["logs/dm.duel", "logs/round-2/table-07.duel", "logs/table-12.duel"]
        assert sorted((r["reviewer"], r["note"]) for r in store.load_reviews(db, moved)) == [
            ("Head Judge", "agree"), ("Judge Lena", "seen on the video at 12:31; upheld on appeal")]
        assert db["matches"].count == 3
    finally:
        db.close()


# ---- the window's Library pane ---------------------------------------------------------------
def test_the_library_pane_says_a_log_is_missing_and_opens_a_moved_one(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    from replayer.gui.library.view import COLUMNS, LibraryView

    imported(tmp_path / "event")
    shutil.copytree(tmp_path / "event", tmp_path / "copy")
    shutil.rmtree(tmp_path / "event")
    logs = tmp_path / "copy" / "logs"
    (logs / "round-1" / "table-12.duel").rename(logs / "honest.duel")
    (logs / "dm.duel").unlink()
    view = LibraryView(tmp_path / "copy" / "library.db")
    qtbot.add_widget(view)
    view.refresh()
    file_column = [key for key, _ in COLUMNS].index("file")
    files = {view.model.index(r, file_column).data(): r for r in range(view.model.rowCount())}
    assert set(files) == {"table-12.duel (missing)", "dm.duel (missing)", "table-07.duel"}
    assert "2 logs missing" in view.status.text()
    tip = view.model.index(files["dm.duel (missing)"], file_column).data(Qt.ItemDataRole.ToolTipRole)
    assert "not there" in tip

    view.table.selectRow(files["table-12.duel (missing)"])
    with qtbot.wait_signal(view.open_requested) as opened:
        view.open_selected()
    assert opened.args == [str((logs / "honest.duel").resolve())]
    assert "moved: found by its content" in view.status.text()
    files = {view.model.index(r, file_column).data(): r for r in range(view.model.rowCount())}
    assert "honest.duel" in files  # the library points there now

    view.table.selectRow(files["dm.duel (missing)"])
    with qtbot.wait_signal(view.open_revision) as stored:
        view.open_selected()
    assert stored.args == [str((logs / "dm.duel").resolve()), 1]
    assert "dm.duel is missing" in view.status.text() and "text kept in the library" in view.status.text()
    assert view.match_text(stored.args[0], 1) == DM
    view.close_library()


# ---- the migration -----------------------------------------------------------------------------
def test_m005_makes_the_paths_of_a_library_of_the_schema_before_it_relative(tmp_path):
    """A library of schema m004 (absolute paths, a match with two revisions, a log outside its
    folder, a verdict) upgrades: the paths under its folder become relative to it, the others
    stay absolute, and everything is found as before, also after the library is copied."""
    folder = tmp_path / "event"
    library = make_event(folder)
    (tmp_path / "elsewhere").mkdir()
    outside = tmp_path / "elsewhere" / "outside.duel"
    outside.write_text(DM.replace("Rin", "Kai"), encoding="utf-8")
    old = store.Database(sqlite3.connect(library))
    store.MIGRATIONS.apply(old, stop_before="m005_relative_paths")
    assert store.schema_version(old)[-1] == "m004_finding_ranges"
    honest = folder / "logs" / "round-1" / "table-12.duel"
    files = [honest, folder / "logs" / "round-2" / "table-07.duel", outside]
    for path in files:  # written as the m004 library's writer did: keyed by absolute path
        store.save_prepared(old, importing.prepare_file(path, key=str(path.resolve())))
    honest.write_text(HONEST + "B: lp 8000\n", encoding="utf-8")
    assert store.save_prepared(old, importing.prepare_file(honest, key=str(honest.resolve()))).revision == 2
    match_id, revision_id = old.execute("SELECT id, revision_id FROM matches WHERE id = 1").fetchone()
    old["reviews"].insert(dict(match_id=match_id, revision_id=revision_id, rule=RULE, line=HONEST_LINE,
                               verdict="confirmed", note="seen on the video", reviewer="Judge Lena"))
    old_paths = old.execute("SELECT path FROM matches ORDER BY id").fetchall()
    assert old_paths == [(str(p.resolve()),) for p in files]
    old.close()

    db = store.open_library(library)  # applies m005
    try:
        assert store.schema_version(db)[-1] == "m005_relative_paths"
        assert db.execute("SELECT path FROM matches ORDER BY id").fetchall() == [
            ("logs/round-1/table-12.duel",), ("logs/round-2/table-07.duel",), (str(outside.resolve()),)]
        assert db.execute("SELECT path FROM match_revisions ORDER BY id").fetchall() == [
            ("logs/round-1/table-12.duel",), ("logs/round-2/table-07.duel",), (str(outside.resolve()),),
            ("logs/round-1/table-12.duel",)]
        assert db.execute("SELECT key, value FROM library_settings").fetchall() == [("root", ".")]
        assert sorted(m["path"] for m in store.search(db).matches) == sorted(str(p.resolve()) for p in files)
        assert store.load_reviews(db, honest, all_revisions=True)[0]["note"] == "seen on the video"
        assert store.check_whole(db) == []
        assert [o.status for o in importing.import_paths(db, files)] == ["unchanged"] * 3
    finally:
        db.close()
    shutil.copytree(folder, tmp_path / "copied")
    shutil.rmtree(folder)
    db = store.open_library(tmp_path / "copied" / "library.db")
    try:
        copied = tmp_path / "copied" / "logs" / "round-1" / "table-12.duel"
        assert store.match_text(db, copied, revision=2) == HONEST + "B: lp 8000\n"
        assert store.load_reviews(db, copied, reviewer="Judge Lena")[0]["note"] == "seen on the video"
        assert all(Path(m["path"]).is_file() for m in store.search(db).matches)
    finally:
        db.close()


def test_the_library_command_is_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "library.md").read_text(encoding="utf-8")
    group = cli.commands["library"]
    commands = [("library", group)] + [(f"library {name}", c) for name, c in group.commands.items()]
    for name, command in commands:
        assert f"replayer {name}" in doc, name
        assert any(p.name == "db_path" for p in command.params), name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in doc, f"{opt} of `replayer {name}` is not in docs/library.md"


def test_the_library_pane_refreshes_a_list_another_process_relinked(qtbot, tmp_path):
    from replayer.gui.library.view import LibraryView

    imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    view = LibraryView(tmp_path / "event" / "library.db")
    qtbot.add_widget(view)
    view.refresh()
    (logs / "dm.duel").rename(logs / "dm-final.duel")
    other = store.open_library(tmp_path / "event" / "library.db")  # `replayer library relink`, meanwhile
    try:
        assert [b for _, b in store.relink(other).moved] == [str((logs / "dm-final.duel").resolve())]
    finally:
        other.close()
    row = next(r for r in range(view.model.rowCount()) if view.model.row(view.model.index(r, 0))["path"].endswith(
        "dm.duel"))
    view.table.selectRow(row)
    opened: list = []
    view.open_requested.connect(opened.append)
    view.open_revision.connect(lambda *args: opened.append(args))
    view.open_selected()
    assert opened == [] and "the library changed" in view.status.text()
    assert any(view.model.row(view.model.index(r, 0))["path"].endswith("dm-final.duel")
               for r in range(view.model.rowCount()))
    view.close_library()


def test_names_from_the_disk_reach_the_terminal_made_safe(run, tmp_path):
    library = imported(tmp_path / "event")
    logs = tmp_path / "event" / "logs"
    (logs / "dm.duel").rename(logs / "dm\x1b[2J\x07.duel")
    out = run("library", "relink", "--db", str(library)).output
    assert "relinked 1 log" in out and "\x1b" not in out and "\x07" not in out
    out = run("library", "--db", str(library), "--root", str(logs)).output
    assert "\x1b" not in out and "0 by absolute path" in out
