"""Hostile card data and a damaged card database (issue 22, points 1-10): nothing crashes, hangs or
leaks a raw escape; every bad entry is reported with where it is, and the good ones are imported.

The fixtures are made here (small cdbs, scripts, JSON lists); no real card data is used.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.cards import lua
from replayer.cards import db as dbmod
from replayer.cards.db import CardDB
from replayer.cards.importer import import_cards
from replayer.games import ALL as GAMES
from replayer.cards.layers import use_cards_db
from replayer.cli import cli

from cards.test_importer import CARDS, SCHEMA, write_cdb  # (tests/ is on the path: rootdir-relative imports)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_card_database_left_behind(monkeypatch):
    monkeypatch.setenv("REPLAYER_CARDS_DB", "")
    yield
    use_cards_db(None)


def _cdb_with_rows(path: Path, rows) -> None:
    """A cdb whose rows are written as given (any storage class in any column: no primary key to coerce)."""
    conn = sqlite3.connect(path)
    conn.executescript(re.sub(r',\s*PRIMARY KEY\("id"\)', "", SCHEMA))
    for pid, alias, typ, atk, def_, level, name, desc in rows:
        conn.execute("INSERT INTO datas (id, alias, type, atk, def, level) VALUES (?,?,?,?,?,?)",
                     (pid, alias, typ, atk, def_, level))
        conn.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (pid, name, desc))
    conn.commit()
    conn.close()


def _ids(db_path: Path) -> set[str]:
    conn = sqlite3.connect(db_path)
    try:
        return {i for (i,) in conn.execute("SELECT id FROM cards")}
    finally:
        conn.close()


# ---- 1: one bad cdb row ------------------------------------------------------------------------
GOOD = (2001, 0, 0x21, 1000, 1000, 4, "Good Knight", "A monster.")
BAD_ROWS = [
    (2002, 0, "monster", 1000, 1000, 4, "Text Type", "x"),      # type as text
    (2003, "alt", 0x21, 1000, 1000, 4, "Text Alias", "x"),     # alias as text
    (2004, 0, 0x21, "lots", 1000, 4, "Text Atk", "x"),          # atk as text
    (2005, 0, 0x21, 1000, 1000, 4.5, "Real Level", "x"),        # level as a real
    (2006, 0, 0x21, 1000, 1000, 4, b"\x1b[2JBlob", "x"),        # name as a BLOB
    (2007, 0, 0x21, 1000, 1000, 4, "Blob Desc", b"\x00\x01"),   # desc as a BLOB
    ("x2008", 0, 0x21, 1000, 1000, 4, "Text Id", "x"),          # id as text
]


def test_point_1_a_bad_cdb_row_is_skipped_and_reported_the_rest_imported(tmp_path):
    _cdb_with_rows(tmp_path / "odd.cdb", [GOOD, *BAD_ROWS])
    write_cdb(tmp_path / "cards.cdb", CARDS)
    summary = import_cards([tmp_path / "odd.cdb", tmp_path / "cards.cdb"], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    ids = _ids(tmp_path / "c.db")
    assert "ygo:2001" in ids and all(f"ygo:{c[0]}" in ids for c in CARDS)
    assert not any(f"ygo:{r[0]}" in ids for r in BAD_ROWS)
    for pid, *_ in BAD_ROWS:
        hits = [p for p in summary.problems if f"id {pid!r}" in p]
        assert len(hits) == 1, (pid, summary.problems)
        assert "odd.cdb" in hits[0] and ("table datas" in hits[0] or "table texts" in hits[0])
    assert any("table texts" in p and "name is a BLOB" in p for p in summary.problems)
    assert any("table datas" in p and "level is a real" in p for p in summary.problems)


def test_point_1_a_name_that_is_not_utf8_costs_its_row_nothing(tmp_path):
    conn = sqlite3.connect(tmp_path / "latin.cdb")
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO datas (id, type, atk, def, level) VALUES (3001, 33, 1, 1, 1)")
    conn.execute("INSERT INTO texts (id, name, desc) VALUES (3001, CAST(X'C46E6967' AS TEXT), 'x')")  # "Änig" in Latin-1
    conn.commit()
    conn.close()
    summary = import_cards([tmp_path / "latin.cdb"], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    assert "ygo:3001" in _ids(tmp_path / "c.db"), summary.problems


# ---- 2: JSON of the wrong shape ----------------------------------------------------------------
def _ygo_file(path: Path, entries, raw: str | None = None) -> Path:
    path.write_text(raw if raw is not None else json.dumps({"data": entries}), encoding="utf-8")
    return path


GOOD_YGO = {"id": 4001, "name": "Good Spell", "type": "Spell Card", "race": "Normal", "desc": "Draw 1 card."}
BAD_YGO = [
    {"id": 4002, "name": 5, "type": "Spell Card", "race": "Normal", "desc": "x"},
    {"id": 4003, "name": ["a"], "type": "Spell Card", "race": "Normal", "desc": "x"},
    {"id": 4004, "name": "T", "type": ["Spell"], "race": "Normal", "desc": "x"},
    {"id": 4005, "name": "R", "type": "Spell Card", "race": {"a": 1}, "desc": "x"},
    {"id": 4006, "name": "D", "type": "Spell Card", "race": "Normal", "desc": 7},
    {"id": 1e300, "name": "Huge", "type": "Spell Card", "desc": "x"},
    {"id": 2**70, "name": "Huger", "type": "Spell Card", "desc": "x"},
    {"id": 4007, "name": "A", "type": "Effect Monster", "atk": [1], "def": 0, "level": 4, "desc": "x"},
    {"id": True, "name": "Bool", "type": "Spell Card", "desc": "x"},
    "not an object",
]


def test_point_2_ygoprodeck_entries_are_validated_each(tmp_path):
    raw = json.dumps({"data": [GOOD_YGO, *BAD_YGO]})
    raw = raw.replace("]}", ', {"id": NaN, "name": "Nan"}, {"id": Infinity, "name": "Inf"}]}')
    path = _ygo_file(tmp_path / "cardinfo.json", None, raw)
    summary = import_cards([path], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    assert _ids(tmp_path / "c.db") == {"ygo:4001"}
    for i in range(2, len(BAD_YGO) + 4):
        assert sum(f"entry {i}:" in p for p in summary.problems) == 1, (i, summary.problems)


@pytest.mark.parametrize("raw", ['{"desc": 0, "data": 5}', '{"desc": 0, "data": "x"}',
                                 '{"desc": 0, "data": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_point_2_a_card_info_of_the_wrong_shape_or_too_deep_is_reported(tmp_path, raw):
    path = _ygo_file(tmp_path / "cardinfo.json", None, raw)
    summary = import_cards([path], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    assert summary.problems and str(path) in summary.problems[0]
    assert "not card data" not in summary.problems[0]  # read as a card info, and its shape reported


def test_point_2_duel_masters_entries_are_validated_each(tmp_path):
    good = {"name": "Good Wall", "type": "Creature", "civilizations": ["Water"], "power": "2000", "text": "Blocker"}
    bad = [{"name": 5}, {"name": ["x"]}, {"name": "Long Power", "type": "Creature", "power": "9" * 5000},
           {"name": "Ja", "nameJa": 3}, {"name": "Civ", "civilizations": "Water"}, {"name": "Text", "text": ["a"]}, 4,
           {"name": ""}]
    path = tmp_path / "dm-cards.json"
    path.write_text(json.dumps({"cards": [good, *bad]}), encoding="utf-8")
    summary = import_cards([path], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    assert len(_ids(tmp_path / "c.db")) == 1
    for i in range(2, len(bad) + 2):
        assert sum(f"entry {i}:" in p for p in summary.problems) == 1, (i, summary.problems)


def test_point_2_a_dm_list_that_is_an_int_or_too_deep(tmp_path):
    for raw in ('{"cards": 5}', "[" * 50_000 + "]" * 50_000):
        path = tmp_path / "dm-cards.json"
        path.write_text(raw, encoding="utf-8")
        summary = import_cards([path], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
        assert summary.problems and str(path) in summary.problems[0]


# ---- 3, 4: FIFOs, link loops, links to nothing ----------------------------------------------------
def _import_in_thread(paths, db_path: Path, timeout: float = 20):
    out: dict = {}

    def run():
        try:
            out["summary"] = import_cards(paths, CardDB(db_path), games=GAMES, jobs=1)
        except BaseException as e:  # noqa: BLE001
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    return t.is_alive(), out


@pytest.mark.parametrize("name", ["cards.cdb", "c123.lua", "cardinfo.json"])
def test_point_3_a_fifo_is_reported_not_read(tmp_path, name):
    folder = tmp_path / "edopro"
    (folder / "script").mkdir(parents=True)
    write_cdb(folder / "real.cdb", CARDS)
    fifo = (folder / "script" / name) if name.endswith(".lua") else folder / name
    os.mkfifo(fifo)
    for paths in ([folder], [fifo, folder / "real.cdb"]):
        hung, out = _import_in_thread(paths, tmp_path / "c.db")
        if hung:  # unblock the reader so that the test process can end
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        assert not hung, f"the import blocked on the FIFO {fifo}"
        assert "error" not in out, out
        problems = out["summary"].problems
        assert any(str(fifo) in p and "FIFO" in p for p in problems), problems
        assert f"ygo:{CARDS[0][0]}" in _ids(tmp_path / "c.db")


def test_point_4_link_loops_and_links_to_nothing_are_reported(tmp_path):
    folder = tmp_path / "edopro"
    (folder / "script").mkdir(parents=True)
    write_cdb(folder / "real.cdb", CARDS)
    os.symlink(folder / "b.cdb", folder / "a.cdb")
    os.symlink(folder / "a.cdb", folder / "b.cdb")
    os.symlink(folder / "script" / "gone.lua", folder / "script" / "c9.lua")
    for paths in ([folder], [folder / "a.cdb", folder / "script" / "c9.lua", folder / "real.cdb"]):
        summary = import_cards(paths, CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
        text = "\n".join(summary.problems)
        assert "a.cdb" in text and "loop" in text, text
        assert "c9.lua" in text and "link to nothing" in text, text
        assert f"ygo:{CARDS[0][0]}" in _ids(tmp_path / "c.db")
    result = CliRunner().invoke(cli, ["cards", "import", str(folder / "a.cdb"), "--cards-db", str(tmp_path / "d.db")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


# ---- 5: the static Lua reader is linear in the script's size ------------------------------------------
HEAD = "--a\n--b\nlocal s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"


def _cpu(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        lua.read_script("c1.lua", text)
        best = min(best, time.process_time() - t)
    return best


SHAPES = {
    "word run then :Set": lambda n: HEAD + "x" * (n * 5) + " :Set\nend\n",
    "word run then :GetCategory()": lambda n: HEAD + "\te1:SetCategory(" + "x" * (n * 5) + " :GetCategory()\nend\n",
    "one condition named on every line": lambda n: HEAD + "\te1:SetCondition(s.cond)\n" * n + "end\n"
    + "function s.cond(e)\n" + "\tlocal x=1\n" * n + "\treturn Duel.IsDamageCalculated()\nend\n",
    "functions without end": lambda n: HEAD + "".join(f"\te1:SetCondition(s.f{k})\n" for k in range(n)) + "end\n"
    + "".join(f"function s.f{k}(e)\n\tlocal x=1\n" for k in range(n)),
    "not before IsDamageCalculated": lambda n: HEAD + "\te1:SetCondition(s.cond)\nend\nfunction s.cond(e)\n"
    + "\treturn " + "not " * n + "x.IsDamageCalculated\nend\n",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_point_5_the_static_reader_is_linear_whatever_the_shape(shape):
    make = SHAPES[shape]
    _cpu(make(10))
    small, large = _cpu(make(250)), _cpu(make(4000))
    assert large < 16 * 3 * small + 0.05, (shape, small, large)  # linear: about 16; quadratic: about 256


# ---- 6: raw escapes from card data ------------------------------------------------------------------
EVIL = "Evil\x1b]0;pwned\x07Card\x1b[2J\u202e"


def test_point_6_card_data_leaves_through_the_safe_gate(tmp_path):
    folder = tmp_path / "edopro"
    (folder / "script").mkdir(parents=True)
    write_cdb(folder / "cards.cdb", [(5001, 0x21, 100, 100, 1, EVIL, "A monster.")])
    (folder / "script" / "c5002.lua").write_text(
        f"--{EVIL}ja\n--{EVIL}Two\nlocal s,id=GetID()\nfunction s.initial_effect(c)\n"
        "\tlocal e1=Effect.CreateEffect(c)\n\te1:SetType(EFFECT_TYPE_ACTIVATE)\n"
        f"\te1:SetCode(EVENT_\x1b[2J\u202e)\n\tc:RegisterEffect(e1)\nend\n", encoding="utf-8")
    db = str(tmp_path / "c.db")
    runner = CliRunner()
    runner.invoke(cli, ["cards", "import", str(folder), "--cards-db", db])
    for fmt in ("text", "json"):
        result = runner.invoke(cli, ["cards", "import", str(folder), "--cards-db", db + fmt, "--format", fmt,
                                     "--no-progress"])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output and "\x07" not in result.output
        assert "could not be read" in result.output or fmt == "json"
        assert "EVENT_\\x1b[2J" in result.output or "EVENT_\\u001b[2J" in result.output
    for name in ("Evil", "Two"):
        for fmt in ("text", "json"):
            result = runner.invoke(cli, ["cards", "ygo", name, "--cards-db", db, "--format", fmt])
            assert result.exit_code == 0, result.output
            assert "\x1b" not in result.output and "\u202e" not in result.output and "\x07" not in result.output
            assert "pwned" in result.output
    assert "\\x1b]0;pwned\\x07" in runner.invoke(cli, ["cards", "ygo", "Evil", "--cards-db", db]).output


# ---- 7: stored rows of the wrong shape ------------------------------------------------------------------
@pytest.fixture
def imported(tmp_path):
    write_cdb(tmp_path / "cards.cdb", CARDS)
    db_path = tmp_path / "cards.db"
    import_cards([tmp_path / "cards.cdb"], CardDB(db_path), games=GAMES, jobs=1)
    return db_path


@pytest.mark.parametrize("column, value", [("effects", "[1]"), ("effects", '{"a": 1}'), ("effects", "null"),
                                           ("props", "5"), ("effects", '[{"props": 5}]'), ("sources", "[]"),
                                           ("atk", "'lots'"), ("effects", "'not json'")])
def test_point_7_a_row_of_the_wrong_shape_is_reported_once_and_the_log_still_checked(imported, column, value):
    conn = sqlite3.connect(imported)
    conn.execute(f"UPDATE cards SET {column} = {value if value.startswith(chr(39)) else repr(value)} "
                 "WHERE name IN ('Test Knight', 'Test Flipper')")
    conn.commit()
    conn.close()
    log = imported.parent / "log.duel"
    log.write_text('[Game "ygo"]\nturn 3 A\nphase battle\nA: attack "Test Knight" -> "Test Flipper"\nstep damage\n'
                   'timing calc\nA: activate "Test Surge"\nresolve\nA: activate "Test Knight"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--cards-db", str(imported), str(log)])
    assert "internal error" not in result.output + result.stderr, result.output + result.stderr
    assert result.exit_code in (0, 1), result.output + result.stderr
    assert result.stderr.count("cannot be used") == 2, result.stderr  # each row once, though named again
    assert "log.duel:" in result.output  # the log is checked: its findings are there
    assert "unknown" in result.output.lower() or "not known" in result.output.lower()


# ---- 8: an incomplete database -----------------------------------------------------------------------
def test_point_8_a_database_with_only_its_cards_table_is_made_again(tmp_path):
    db_path = tmp_path / "cards.db"
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE [cards] ([id] TEXT PRIMARY KEY, [game] TEXT, [passcode] INTEGER, [name] TEXT, "
                 "[kind] TEXT, [atk] INTEGER, [def] INTEGER, [level] INTEGER, [power] INTEGER, [props] TEXT, "
                 "[effects] TEXT, [sources] TEXT, [source] TEXT, [complete] INTEGER)")
    conn.commit()
    conn.close()
    write_cdb(tmp_path / "x.cdb", CARDS)
    for _ in range(2):
        summary = import_cards([tmp_path / "x.cdb"], CardDB(db_path), games=GAMES, jobs=1)
        assert summary.cards.get("ygo") == len(CARDS) or summary.unchanged, summary
    assert {f"ygo:{c[0]}" for c in CARDS} <= _ids(db_path)
    conn = sqlite3.connect(db_path)
    assert dbmod.schema_state(conn) == ("ok", "")
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(dbmod.SCHEMA_VERSION),)
    assert conn.execute("SELECT count(*) FROM names").fetchone()[0] >= len(CARDS)
    conn.close()
    result = CliRunner().invoke(cli, ["cards", "ygo", "Test Knight", "--cards-db", str(db_path)])
    assert result.exit_code == 0 and "Test Knight" in result.output


def test_point_8_the_schema_is_made_in_one_transaction(tmp_path, monkeypatch):
    """A failure (a kill) after the first table leaves no table at all: the next import makes them all."""
    real = dbmod.INDEXES
    monkeypatch.setattr(dbmod, "INDEXES", (*real, "CREATE INDEX broken ON nowhere (x)"))
    with pytest.raises(Exception):
        CardDB(tmp_path / "cards.db").prepare()
    conn = sqlite3.connect(tmp_path / "cards.db")
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone() == (0,)
    conn.close()
    monkeypatch.setattr(dbmod, "INDEXES", real)
    write_cdb(tmp_path / "x.cdb", CARDS)
    import_cards([tmp_path / "x.cdb"], CardDB(tmp_path / "cards.db"), games=GAMES, jobs=1)
    assert len(_ids(tmp_path / "cards.db")) == len(CARDS)


# ---- 9: a read-only card database ---------------------------------------------------------------------
def test_point_9_a_read_only_card_database_gives_a_message_and_exit_2(imported, monkeypatch):
    real_access = os.access
    folder = imported.parent

    def access(p, mode, *a, **k):  # root may write anything: say what a read-only share says
        if mode & os.W_OK and Path(p).resolve() in (imported.resolve(), folder.resolve()):
            return False
        return real_access(p, mode, *a, **k)

    monkeypatch.setattr(os, "access", access)
    imported.chmod(0o444)
    try:
        result = CliRunner().invoke(cli, ["cards", "import", str(folder / "cards.cdb"), "--cards-db", str(imported)])
    finally:
        imported.chmod(0o644)
    assert result.exit_code == 2, (result.output, result.exception)
    assert "read-only" in result.stderr and "Traceback" not in result.output


def test_point_9_a_database_sqlite_will_not_write_gives_exit_2(imported, monkeypatch):
    """Writable by its permissions, yet not (a read-only mount): SQLite's own "readonly" error."""
    real_connect = sqlite3.connect

    def connect(name, *a, **k):
        if str(name) == str(imported):
            return real_connect(f"file:{imported}?mode=ro", *a, uri=True, **k)
        return real_connect(name, *a, **k)

    monkeypatch.setattr(sqlite3, "connect", connect)
    conn = real_connect(imported)
    conn.execute("DELETE FROM meta WHERE key = 'kind'")  # an old database: it has to be written to
    conn.commit()
    conn.close()
    result = CliRunner().invoke(cli, ["cards", "import", str(imported.parent / "cards.cdb"),
                                      "--cards-db", str(imported)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "read-only" in result.stderr


# ---- 10: not a card database -------------------------------------------------------------------------------
def test_point_10_a_match_library_is_refused(tmp_path):
    from replayer import store

    lib = tmp_path / "library.db"
    store.open_library(lib).close()
    conn = sqlite3.connect(lib)
    before = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master"))
    conn.close()
    write_cdb(tmp_path / "x.cdb", CARDS)
    result = CliRunner().invoke(cli, ["cards", "import", str(tmp_path / "x.cdb"), "--cards-db", str(lib)])
    assert result.exit_code == 2, result.output
    assert "not a card database" in result.stderr
    conn = sqlite3.connect(lib)
    assert sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master")) == before
    conn.close()
    other = tmp_path / "notes.db"
    other.write_bytes(b"just some text, not SQLite at all" * 100)
    result = CliRunner().invoke(cli, ["cards", "import", str(tmp_path / "x.cdb"), "--cards-db", str(other)])
    assert result.exit_code == 2 and "not a card database" in result.stderr, result.output


def test_point_5_digits_int_does_not_read_are_reported_not_raised():
    """Found by bench/fuzz_cards.py: "⑸" is a digit to str.isdigit, and int() refuses it (and 5,000 digits)."""
    for arg in ("\u2478", "9" * 5000):
        for method in ("SetType", "SetCode", "SetCategory"):
            script = lua.read_script("c1.lua", HEAD + f"\te1:{method}({arg})\n\tc:RegisterEffect(e1)\nend\n")
            assert script.effects and script.effects[0].unread, (method, arg)
