"""The card importers fuzzed on every run (issue 22): cdb rows with every column in every SQLite storage
class, YGOProDeck and Duel Masters entries of any JSON shape, Lua scripts made of the constructs the reader
knows and then mutated. For each: no exception, every bad entry reported, every good one imported (the
oracles are bench/fuzz_cards.py's, written apart from the importer), time linear in the input (a ratio of
CPU times, no wall-clock limit). The long run, 100,000 of each kind, is ``bench/fuzz_cards.py``.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replayer.cards import lua
from replayer.cards.db import CardDB
from replayer.cards.importer import import_cards
from replayer.games import ALL as GAMES
from replayer.cards.layers import use_cards_db

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from fuzz_cards import (DATAS, TEXTS, cdb_oracle, dm_good, json_text, lua_script, mutate_script,  # noqa: E402
                        write_cdb, ygo_good)

FUZZ = dict(deadline=None, derandomize=True, database=None, print_blob=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])


@pytest.fixture(autouse=True)
def _no_card_database_left_behind(monkeypatch):
    monkeypatch.setenv("REPLAYER_CARDS_DB", "")
    yield
    use_cards_db(None)


# every SQLite storage class: NULL, INTEGER (64-bit), REAL (NaN and the infinities too), TEXT, BLOB
storage = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.sampled_from([0, 1, 0x21, 0x2, 0x4, -1]),
                    st.floats(), st.text(max_size=12), st.sampled_from(["123", "4.0", "\x1b[2J", ""]),
                    st.binary(max_size=12))
good_row = st.fixed_dictionaries({"type": st.sampled_from([0x21, 0x11, 0x2, 0x4]), "atk": st.integers(-2, 5000),
                                  "def": st.integers(-2, 5000), "level": st.integers(0, 12),
                                  "name": st.text(min_size=1, max_size=12), "desc": st.text(max_size=30)})
any_row = st.fixed_dictionaries({c: storage for c in DATAS + TEXTS})
rows = st.lists(st.tuples(st.one_of(good_row, any_row), st.one_of(st.just(None), storage)), max_size=25)


def _run(tmp_path: Path, paths) -> tuple[object, set[int]]:
    db_path = tmp_path / "cards.db"
    for p in tmp_path.glob("cards.db*"):
        p.unlink()
    summary = import_cards(paths, CardDB(db_path), games=GAMES, jobs=1)
    conn = sqlite3.connect(db_path)
    have = {pid for (pid,) in conn.execute("SELECT passcode FROM cards")}
    conn.close()
    return summary, have


@settings(max_examples=50, **FUZZ)
@given(rows=rows)
def test_cdb_rows_of_every_storage_class(tmp_path_factory, rows):
    tmp = tmp_path_factory.mktemp("cdb")
    made = [dict(row, id=(pid if pid is not None else 50_000 + i)) for i, (row, pid) in enumerate(rows)]
    write_cdb(tmp / "x.cdb", made)
    want, bad = cdb_oracle(tmp / "x.cdb")
    summary, have = _run(tmp, [tmp / "x.cdb"])
    assert want <= have
    assert sum("the row is skipped" in p for p in summary.problems) == bad, summary.problems


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10),
                                     st.sampled_from([2**63, 2**70, int("9" * 60), "9" * 5000, "5000+"])),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3), max_leaves=8)
ygo_keys = st.sampled_from(["id", "name", "type", "race", "desc", "atk", "def", "level", "frameType"])
ygo_entries = st.one_of(
    st.fixed_dictionaries({"id": st.integers(0, 10**9), "name": st.text(min_size=1, max_size=10),
                           "type": st.sampled_from(["Spell Card", "Effect Monster", "Trap Card"]),
                           "desc": st.text(max_size=40)},
                          optional={"atk": st.integers(0, 5000), "def": st.integers(0, 5000), "level": st.integers(1, 12),
                                    "race": st.sampled_from(["Normal", "Quick-Play", "Counter"])}),
    st.dictionaries(ygo_keys, json_values, max_size=6), json_values)


@settings(max_examples=50, **FUZZ)
@given(entries=st.lists(ygo_entries, max_size=20))
def test_ygoprodeck_entries_of_any_shape(tmp_path_factory, entries):
    tmp = tmp_path_factory.mktemp("ygo")
    path = tmp / "cardinfo.json"
    path.write_text(json_text({"race": "", "data": entries}), encoding="utf-8")
    summary, have = _run(tmp, [path])
    good = [e for e in entries if ygo_good(e)]
    assert {int(e["id"]) for e in good if e.get("name")} <= have
    assert sum("skipped" in p and "entry " in p for p in summary.problems) == len(entries) - len(good), summary.problems


dm_keys = st.sampled_from(["name", "type", "text", "civilizations", "subtypes", "supertypes", "power", "nameJa"])
dm_entries = st.one_of(
    st.fixed_dictionaries({"name": st.text(min_size=1, max_size=10), "type": st.sampled_from(["Creature", "Spell"]),
                           "civilizations": st.lists(st.sampled_from(["Fire", "Water", "Light"]), max_size=2),
                           "power": st.one_of(st.none(), st.sampled_from(["1000", "6000+"]), st.integers(0, 20000)),
                           "text": st.sampled_from(["Blocker", "Speed attacker", "Double breaker", ""])}),
    st.dictionaries(dm_keys, json_values, max_size=6), json_values)


@settings(max_examples=50, **FUZZ)
@given(entries=st.lists(dm_entries, max_size=20))
def test_duel_masters_entries_of_any_shape(tmp_path_factory, entries):
    tmp = tmp_path_factory.mktemp("dm")
    path = tmp / "dm-cards.json"
    path.write_text(json_text({"cards": entries}), encoding="utf-8")
    summary, _ = _run(tmp, [path])
    good = [e for e in entries if dm_good(e)]
    assert summary.cards.get("dm", 0) == len(good)
    assert sum("skipped" in p and "entry " in p for p in summary.problems) == len(entries) - len(good), summary.problems


@settings(max_examples=300, **FUZZ)
@given(seed=st.integers(0, 2**64 - 1), mutate=st.booleans())
def test_lua_scripts_made_and_mutated(seed, mutate):
    rng = random.Random(seed)
    text, registered = lua_script(rng, 12345)
    if mutate:
        text = mutate_script(rng, text)
    script = lua.read_script("c12345.lua", text)
    if not mutate:  # made of what the reader knows: every effect read
        assert len(script.effects) == registered, (seed, text)
    for line, what in script.problems:
        assert isinstance(line, int) and isinstance(what, str)


def test_the_sandbox_reads_made_scripts_and_stops_mutated_ones(tmp_path):
    pytest.importorskip("lupa")
    from cards.test_luarun import CONSTANTS, EXTRA, UTILITY

    from replayer.cards.luarun import LuaReader

    root = tmp_path / "script"
    root.mkdir()
    (root / "constant.lua").write_text(CONSTANTS, encoding="utf-8")
    (root / "utility.lua").write_text(UTILITY, encoding="utf-8")
    (root / "extra.lua").write_text(EXTRA, encoding="utf-8")
    reader = LuaReader(root, instructions=200, memory=64 * 1024 * 1024)
    rng = random.Random(22)
    for i in range(60):
        text, _ = lua_script(rng, 20_000 + i)
        script = reader.read(root / f"c{20_000 + i}.lua", mutate_script(rng, text) if i % 2 else text)
        assert all(isinstance(w, str) for _, w in script.problems)


# ---- time linear in the input ------------------------------------------------------------------------------------
def _cpu(run) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        run()
        best = min(best, time.process_time() - t)
    return best


def test_import_time_is_linear_in_the_number_of_entries(tmp_path):
    rng = random.Random(5)
    from fuzz_cards import cdb_row, dm_entry, ygo_entry

    def files(n: int, tag: str):
        write_cdb(tmp_path / f"{tag}.cdb", [cdb_row(rng, 10_000 + i) for i in range(n)])
        (tmp_path / f"cardinfo{tag}.json").write_text(
            json_text({"race": "", "data": [ygo_entry(rng, 10_000 + i) for i in range(n)]}), encoding="utf-8")
        (tmp_path / f"dm-cards{tag}.json").write_text(json_text({"cards": [dm_entry(rng, i) for i in range(n)]}),
                                                      encoding="utf-8")
        return [tmp_path / f"{tag}.cdb", tmp_path / f"cardinfo{tag}.json", tmp_path / f"dm-cards{tag}.json"]

    small_files, large_files = files(100, "s"), files(1600, "l")

    def run(paths):
        return lambda: _run(tmp_path, paths)

    run(small_files)()
    small, large = _cpu(run(small_files)), _cpu(run(large_files))
    assert large < 16 * 3 * small + 0.05, (small, large)  # linear: about 16; quadratic: about 256


def test_script_reading_time_is_linear_in_mutated_scripts():
    rng = random.Random(9)
    texts = [mutate_script(rng, lua_script(rng, i)[0]) for i in range(30)]
    for text in texts:
        small = _cpu(lambda: lua.read_script("c1.lua", text))
        large = _cpu(lambda: lua.read_script("c1.lua", text * 16))
        assert large < 16 * 3 * small + 0.05, (small, large, text[:200])

