"""``replayer import``, ``replayer search`` and ``replayer stats``, and the killed import.

The logs here have findings only the reader gives (lines that do not parse), so the counts
are exact whatever the rules validators say about other lines.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer import importing, store
from replayer.cli import cli
from replayer.check import read_log

ROOT = Path(__file__).resolve().parents[2]

LOCALS = """\
# Locals, round 1: Yuki against Kaiba
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
[Event "Locals Berlin"]
[Round "1"]
[Table "4"]
[Date "2024-01-10"]

turn 3 A
phase main1
A: frobnicate "Pot of Greed"   # judge call: appeal by Kaiba
phase end
turn 4 B
phase main1
B: frobnicate
"""
GRAND_PRIX = """\
[Game "dm"]
[A "Rin"]
[B "Yuki"]
[Event "DM Grand Prix 2024"]
[Table "4"]
[Date "2024-06-01"]

turn 5 A
A: charge
B: frobnicate    # the table judge was called
"""
QUIET = """\
[Game "ygo"]
[A "Mai"]
[B "Kaiba"]
[Event "Locals Berlin"]
[Round "2"]
[Table "7"]
[Date "2024-01-17"]

turn 3 A
phase main1
phase end
"""


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    (folder / "dm").mkdir(parents=True)
    (folder / "locals.duel").write_text(LOCALS, encoding="utf-8")
    (folder / "quiet.duel").write_text(QUIET, encoding="utf-8")
    (folder / "dm" / "grand-prix.duel").write_text(GRAND_PRIX, encoding="utf-8")
    (folder / "readme.txt").write_text("not a log", encoding="utf-8")
    return folder


@pytest.fixture
def run(tmp_path: Path, monkeypatch):
    """Run a replayer command in tmp_path (so that printed paths are relative to it)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAYER_LIBRARY", raising=False)

    def invoke(*args: str, code: int | None = 0):
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        if code is not None:
            assert result.exit_code == code, result.output
        return result

    return invoke


@pytest.fixture
def imported(run, logs, tmp_path):
    result = run("import", str(logs), "--db", "library.db")
    assert "3 files: 3 new, 0 new revisions, 0 unchanged; library library.db: 3 matches" in result.output
    return tmp_path / "library.db"


def test_import_reads_a_folder_in_one_process_per_cpu_unless_told(run, logs, monkeypatch):
    from replayer.cli import library as cli_library

    asked = []
    real = importing.import_paths

    def import_paths(db, files, *, jobs=1, **kw):
        asked.append(jobs)
        return real(db, files, jobs=jobs, **kw)

    monkeypatch.setattr(importing, "import_paths", import_paths)
    run("import", str(logs), "--db", "few.db")  # three files: done before workers would have started
    monkeypatch.setattr(cli_library, "AUTO_JOBS_FILES", 3)  # (a folder of this many logs or more)
    result = run("import", str(logs), "--db", "many.db")
    assert "3 files: 3 new" in result.output
    run("import", str(logs), "--db", "told.db", "--jobs", "1")
    assert asked == [1, os.cpu_count() or 1, 1]


def search_json(run, *args: str, code: int = 0) -> dict:
    return json.loads(run("search", "--db", "library.db", "--format", "json", *args, code=code).output)


def test_import_then_again_changes_nothing(run, imported, logs):
    before = sqlite3.connect(imported).execute("SELECT count(*), max(imported_at) FROM match_revisions").fetchone()
    result = run("import", str(logs), "--db", "library.db")
    assert "3 files: 0 new, 0 new revisions, 3 unchanged" in result.output
    after = sqlite3.connect(imported).execute("SELECT count(*), max(imported_at) FROM match_revisions").fetchone()
    assert before == after


def test_import_a_changed_file_makes_a_revision(run, imported, logs):
    (logs / "quiet.duel").write_text(QUIET + "B: frobnicate   # added after the video review\n", encoding="utf-8")
    result = run("import", str(logs), "--db", "library.db", "--jobs", "2")
    assert "3 files: 0 new, 1 new revision, 2 unchanged" in result.output
    out = search_json(run, "--player", "Mai")
    (match,) = out["matches"]
    assert (match["file"], match["revision"]) == (os.path.join("logs", "quiet.duel"), 2)
    assert out["findings"] == []  # the new line is Kaiba's
    kaiba = search_json(run, "--player", "Kaiba", "--event", "Locals")["findings"]
    assert sorted((Path(f["file"]).name, f["line"]) for f in kaiba) == [("locals.duel", 16), ("quiet.duel", 12)]
    old = search_json(run, "--player", "Mai", "--all-revisions")
    assert sorted(m["revision"] for m in old["matches"]) == [1, 2]


def test_import_reports_and_skips_bad_files(run, logs, tmp_path):
    (logs / "broken.duel").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = run("import", str(logs), str(tmp_path / "missing.duel"), "--db", "library.db", code=2)
    assert "5 files: 3 new, 0 new revisions, 0 unchanged, 2 skipped" in result.output
    # each said as `replayer check` says it: the same lines, the findings with their hint and cite
    checked = run("check", "--color", "never", str(logs / "broken.duel"), str(tmp_path / "missing.duel"), code=2)
    said = [line for line in checked.output.splitlines() if "checked:" not in line]
    assert said[0] == f"{logs / 'broken.duel'}:1:1: error[syntax.encoding]: this is a binary file, not a text log"
    assert f"replayer: cannot read {tmp_path / 'missing.duel'}: No such file or directory" in said
    shown = result.output.splitlines()
    for line in said:
        assert line in shown


def test_an_unreadable_file_s_outcome_carries_the_object_check_prints(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "utf16.duel").write_bytes('[Game "ygo"]\n'.encode("utf-16"))
    folder = logs / "folder.duel"  # a folder named like a log: find_logs gives it as a file
    folder.mkdir()
    asked = [str(tmp_path / "missing.duel"), str(logs)]
    files = importing.find_logs(asked)
    assert files[1:] == [folder, logs / "utf16.duel"]
    db = store.open_library(tmp_path / "library.db")
    try:
        outcomes = list(importing.import_paths(db, files))
    finally:
        db.close()
    assert [o.status for o in outcomes] == ["skipped"] * 3
    result = CliRunner().invoke(cli, ["check", "--format", "json", *asked])
    printed = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [o.report for o in outcomes] == printed
    assert outcomes[0].message == f"cannot read {files[0]}: No such file or directory"
    assert outcomes[1].message == f"cannot read {folder}: Is a directory"
    assert outcomes[2].message.startswith(f"{files[2]}:1:1: error[syntax.encoding]: the file is UTF-16 text")


def test_import_uses_the_default_library_in_the_user_data_folder(run, logs, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    run("import", str(logs / "locals.duel"))
    default = tmp_path / "data" / "replayer" / "library.db"
    assert default.is_file()
    out = json.loads(run("search", "--format", "json").output)
    assert [m["file"] for m in out["matches"]] == [os.path.join("logs", "locals.duel")]


def test_import_with_no_logs(run, tmp_path):
    (tmp_path / "empty").mkdir()
    result = run("import", str(tmp_path / "empty"), "--db", "library.db", code=2)
    assert "no .duel files found" in result.output


def test_search_text_output_names_file_and_line(run, imported):
    out = run("search", "--db", "library.db", "--player", "Yuki").output
    assert "2 matches" in out
    row = next(line for line in out.splitlines() if line.strip().startswith(os.path.join('logs', 'locals.duel')))
    assert row.split() == [os.path.join('logs', 'locals.duel'), "ygo", "Yuki", "vs", "Kaiba", "2024-01-10", "Locals",
                           "Berlin", "·", "round", "1", "·", "table", "4", "[2", "errors]"]
    assert f"{os.path.join('logs', 'locals.duel')}:12:4: error[syntax.line]: unexpected `frobnicate`" in out
    assert f"{os.path.join('logs', 'dm', 'grand-prix.duel')}:10:4: error[syntax.line]" in out
    assert "(Yuki)" in out


def test_search_every_filter_from_the_command_line(run, imported):
    def files(*args: str, code: int = 0) -> list[str]:
        return sorted(Path(m["file"]).name for m in search_json(run, *args, code=code)["matches"])

    def lines(*args: str) -> list[tuple[str, int]]:
        return sorted((Path(f["file"]).name, f["line"]) for f in search_json(run, *args)["findings"])

    assert files("--card", "Pot of Greed", code=1) == []  # the line did not parse: no card stored
    assert files("--rule", "syntax.line") == ["grand-prix.duel", "locals.duel"]
    assert files("--rule", "syntax") == ["grand-prix.duel", "locals.duel"]
    assert files("--kind", "syntax", "--severity", "error") == ["grand-prix.duel", "locals.duel"]
    assert files("--severity", "info", code=1) == []
    assert lines("--player", "Kaiba") == [("locals.duel", 16)]
    assert lines("--player", "A") == [("grand-prix.duel", 9), ("locals.duel", 12)]
    assert files("--event", "locals") == ["locals.duel", "quiet.duel"]
    assert files("--from", "2024-01-11", "--to", "2024-05-31") == ["quiet.duel"]
    assert files("--text", "judge") == ["grand-prix.duel", "locals.duel"]
    assert files("--table", "4") == ["grand-prix.duel", "locals.duel"]
    assert files("--table", "4", "--event", "Locals") == ["locals.duel"]
    assert files("--round", "2") == ["quiet.duel"]
    assert files("--game", "dm") == ["grand-prix.duel"]
    notes = search_json(run, "--text", "appeal")["notes"]
    assert [(Path(n["file"]).name, n["line"], n["text"]) for n in notes] == [("locals.duel", 12, "judge call: appeal by Kaiba")]


def test_search_on_a_missing_library(run, tmp_path):
    result = run("search", "--db", str(tmp_path / "nowhere.db"), code=2)
    assert "no library at" in result.output


def test_stats_exact_on_known_logs(run, imported):
    out = json.loads(run("stats", "--db", "library.db", "--format", "json").output)
    assert out["totals"] == {"matches": 3, "findings": 4, "errors": 4, "warnings": 0, "infos": 0}
    assert out["players"] == [
        {"player": "Yuki", "matches": 2, "findings": 2, "errors": 2, "warnings": 0, "infos": 0},
        {"player": "Kaiba", "matches": 2, "findings": 1, "errors": 1, "warnings": 0, "infos": 0},
        {"player": "Rin", "matches": 1, "findings": 1, "errors": 1, "warnings": 0, "infos": 0},
        {"player": "Mai", "matches": 1, "findings": 0, "errors": 0, "warnings": 0, "infos": 0},
    ]
    assert out["rules"] == [{"rule": "syntax.line", "kind": "syntax", "severity": "error", "findings": 4, "matches": 2}]
    assert out["events"] == [
        {"event": "DM Grand Prix 2024", "matches": 1, "findings": 2, "errors": 2, "warnings": 0},
        {"event": "Locals Berlin", "matches": 2, "findings": 2, "errors": 2, "warnings": 0},
    ]
    assert out["tables"] == [
        {"event": "DM Grand Prix 2024", "table_no": "4", "matches": 1, "findings": 2, "errors": 2, "warnings": 0},
        {"event": "Locals Berlin", "table_no": "4", "matches": 1, "findings": 2, "errors": 2, "warnings": 0},
        {"event": "Locals Berlin", "table_no": "7", "matches": 1, "findings": 0, "errors": 0, "warnings": 0},
    ]


def test_stats_text_for_a_player(run, imported):
    out = run("stats", "--db", "library.db", "--player", "Yuki").output
    assert out.splitlines()[0] == "2 matches, 2 findings (2 errors, 0 warnings, 0 info)"
    assert "Findings per player" in out and "Findings per event and table" in out
    assert "Most frequent mistakes" in out
    assert "(none)" in out  # syntax findings are the transcriber's, not Yuki's mistakes


def test_every_library_command_takes_db_and_is_documented():
    doc = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    for name in ("import", "search", "stats"):
        command = cli.commands[name]
        assert any(p.name == "db_path" for p in command.params)
        assert f"replayer {name}" in doc
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in doc, f"{opt} of `replayer {name}` is not in docs/library.md"
    assert "datasette library.db" in doc


# ---- the killed import -------------------------------------------------------------------------
def big_log(n: int, turns: int = 40) -> str:
    lines = ['[Game "ygo"]', f'[A "Player {n}"]', '[B "Kaiba"]', '[Event "Kill Test"]', ""]
    for t in range(3, 3 + turns):
        p = "A" if t % 2 else "B"
        lines += [f"turn {t} {p}", "phase draw", f"{p}: draw", "phase main1", f"{p}: frobnicate   # note {n}.{t}",
                  "phase end"]
    return "\n".join(lines) + "\n"


def test_a_killed_import_leaves_only_whole_matches(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    count = 400
    for n in range(count):
        (folder / f"m{n:04d}.duel").write_text(big_log(n), encoding="utf-8")
    db_path = tmp_path / "library.db"
    store.open_library(db_path).close()  # created, so that it can be watched from the start
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-m", "replayer", "import", str(folder), "--db", str(db_path),
                             "--no-progress"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watcher = sqlite3.connect(db_path, timeout=30)  # reads while the import writes (WAL)
    try:
        deadline = time.monotonic() + 120
        seen = 0
        while time.monotonic() < deadline and proc.poll() is None:
            seen = watcher.execute("SELECT count(*) FROM matches").fetchone()[0]
            if seen >= 20:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the import finished before it could be killed: make the batch bigger"
        assert seen >= 20
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        watcher.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL

    db = store.open_library(db_path)
    try:
        stored = db.execute("SELECT count(*) FROM matches").fetchone()[0]
        assert 20 <= stored < count
        assert store.check_whole(db) == []
        # every stored match has exactly the events and notes of its file
        for path, events, notes in db.execute(
                "SELECT m.path, (SELECT count(*) FROM events e WHERE e.revision_id = m.revision_id), "
                "(SELECT count(*) FROM notes n WHERE n.revision_id = m.revision_id) FROM matches m").fetchall():
            match = read_log(store.resolve_key(path, store.library_root(db)))  # (relative to the library's folder)
            assert (events, notes) == (len(match.events), len(match.notes)), path
        # importing again completes the library; what was stored is unchanged
        outcomes = list(importing.import_paths(db, importing.find_logs([folder])))
        statuses = [o.status for o in outcomes]
        assert statuses.count("unchanged") == stored and statuses.count("new") == count - stored
        assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == count
        assert store.check_whole(db) == []
    finally:
        db.close()


# ---- the window's Library view ----------------------------------------------------------------
def test_library_view_lists_searches_and_opens_matches(qtbot, imported, logs):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from replayer.gui.library.view import COLUMNS, LibraryView

    view = LibraryView(imported)
    qtbot.add_widget(view)
    view.refresh()
    assert view.model.rowCount() == 3
    assert view.model.columnCount() == len(COLUMNS)
    assert view.status.text() == "3 matches"
    dates = [view.model.index(r, 0).data() for r in range(3)]
    assert dates == sorted(dates, reverse=True)  # newest first
    view.player.setText("Mai")
    view.refresh()
    assert view.model.rowCount() == 1
    assert view.model.index(0, 4).data() == "Mai vs Kaiba"
    view.player.setText("")
    view.text.setText("judge")
    view.refresh()
    assert sorted(view.model.index(r, 8).data() for r in range(view.model.rowCount())) == [
        "grand-prix.duel", "locals.duel"]
    view.table.selectRow(0)
    with qtbot.wait_signal(view.open_requested) as blocker:
        view.open_selected()
    assert blocker.args[0] in (str((logs / "locals.duel").resolve()), str((logs / "dm" / "grand-prix.duel").resolve()))
    assert view.model.index(99, 0).data() is None  # a bad index is no error
    view.close_library()


def test_library_view_without_a_library(qtbot, tmp_path):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from replayer.gui.library.view import LibraryView

    view = LibraryView(tmp_path / "none.db")
    qtbot.add_widget(view)
    view.refresh()
    assert view.model.rowCount() == 0 and "No library yet" in view.status.text()
    assert not (tmp_path / "none.db").exists()


def test_the_library_keeps_the_window_s_verdicts(tmp_path, logs):
    from replayer.diagnostics import Finding, Kind, Severity, Span
    from replayer import reviews
    from replayer.reviews import LibraryReviewStore

    backend = LibraryReviewStore(tmp_path / "library.db", reviewer="Judge Lena")
    log = str(logs / "locals.duel")
    lines = LOCALS.splitlines()
    finding = Finding(Severity.ERROR, Kind.SYNTAX, "syntax.line", Span(12, 4), "unexpected `frobnicate`")
    r = reviews.Reviews.open(log, lines, backend=backend)
    r.set(finding, reviews.CONFIRMED, "typo in the transcript")
    again = reviews.Reviews.open(log, lines, backend=backend)
    assert again.get(finding).status == reviews.CONFIRMED
    assert again.get(finding).note == "typo in the transcript"
    db = store.open_library(tmp_path / "library.db")
    try:
        (row,) = store.load_reviews(db, log)
        assert (row["reviewer"], row["line"], row["verdict"], row["source"]) == (
            "Judge Lena", 12, "confirmed", 'A: frobnicate "Pot of Greed"   # judge call: appeal by Kaiba')
        assert row["finding_id"] is not None
    finally:
        db.close()
    again.set(finding, None, "")  # cleared: nothing left
    assert reviews.Reviews.open(log, lines, backend=backend).get(finding).empty


def test_library_view_goes_into_the_review_window(qtbot, imported, logs, monkeypatch):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from replayer.gui.app import MainWindow
    from replayer.gui.window.library import install

    window = MainWindow()
    qtbot.add_widget(window)
    opened = []
    monkeypatch.setattr(window, "open_path", lambda path, **kw: opened.append(path) or True)
    view = install(window, imported)
    assert [a.text() for a in window.library_menu.actions()] == ["&Browse Library"]
    view.refresh()
    view.table.selectRow(0)
    view.open_selected()
    assert opened and Path(opened[0]).is_file()
    view.close_library()


def test_verdicts_of_a_sidecar_move_into_the_library(tmp_path, logs):
    from replayer.diagnostics import Finding, Kind, Severity, Span
    from replayer import reviews
    from replayer.reviews import LibraryReviewStore

    log = str(logs / "locals.duel")
    lines = LOCALS.splitlines()
    finding = Finding(Severity.ERROR, Kind.SYNTAX, "syntax.line", Span(12, 4), "unexpected `frobnicate`")
    before = reviews.Reviews.open(log, lines, backend=reviews.SidecarStore())
    before.set(finding, reviews.DISMISSED, "the video shows it was fine")
    assert reviews.sidecar_path(log).is_file()
    backend = LibraryReviewStore(tmp_path / "library.db", reviewer="Judge Lena")
    opened = reviews.Reviews.open(log, lines, backend=backend)  # a library now exists: nothing is lost
    assert (opened.get(finding).status, opened.get(finding).note) == (reviews.DISMISSED, "the video shows it was fine")
    opened.set(finding, reviews.CONFIRMED, "on second look, a typo")
    assert not reviews.sidecar_path(log).exists()  # moved into the library
    again = reviews.Reviews.open(log, lines, backend=backend)
    assert again.get(finding).status == reviews.CONFIRMED
    again.set(finding, None, "")
    assert reviews.Reviews.open(log, lines, backend=backend).get(finding).empty


def test_searches_and_verdicts_while_an_import_runs_never_fail(tmp_path):
    """The window and the command line use one library while an import writes to it: their
    searches (which first bring the search tables up to date: a write) and their verdicts wait
    for the importer's transaction of the moment instead of failing with "database is locked",
    and the import is not stopped by them either."""
    folder = tmp_path / "batch"
    folder.mkdir()
    count = 600
    for n in range(count):
        text = big_log(n, turns=20).replace("frobnicate", 'activate "Honest"') if n % 3 == 0 else big_log(n, turns=20)
        (folder / f"m{n:04d}.duel").write_text(text, encoding="utf-8")
    reviewed = tmp_path / "reviewed.duel"
    reviewed.write_text(big_log(10_000), encoding="utf-8")
    db_path = tmp_path / "library.db"
    store.open_library(db_path).close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-m", "replayer", "import", str(folder), "--db", str(db_path),
                             "--no-progress"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    db = store.open_library(db_path)
    searches = reviews = 0
    try:
        deadline = time.monotonic() + 180
        while proc.poll() is None and time.monotonic() < deadline:
            store.search(db, event="Kill", limit=5)
            store.search(db, card=["Honest"], text="note", limit=5)
            searches += 2
            importing.replace_reviews(db, reviewed, [{"rule": "x", "line": 1, "verdict": "confirmed"}], reviewer="judge")
            reviews += 1
        stderr = proc.communicate(timeout=180)[1].decode()
        assert proc.returncode == 0, stderr
        assert searches >= 4 and reviews >= 2  # they did run during the import
        result = store.search(db, card=["Honest"], limit=None)
        assert store.count_rows(db)["matches"] == count + 1 and store.check_whole(db) == []
        assert not store.index_behind(db)
        assert len(store.load_reviews(db, reviewed)) == 1
        assert result.total_matches == count // 3 == db.execute(
            "SELECT count(*) FROM matches m JOIN match_revisions r ON r.id = m.revision_id "
            "WHERE r.cards LIKE '%\"Honest\"%'").fetchone()[0]
    finally:
        db.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
