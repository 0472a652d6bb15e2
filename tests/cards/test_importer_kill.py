"""A killed card import never leaves the card database half-written (issue 22).

``replayer cards import`` runs as a subprocess and is killed (SIGKILL) at a random point, 20 times: while
it makes the schema, reads the files, or writes the cards. Two versions of the same cards are imported in
turn (their names end in " A" or " B"), so that a write cut in the middle would show as a mix. After each
kill the database is either absent, or whole: its schema complete, and all its cards of one version. A
later import then works and gives the full result, and leaves no stale temporary file behind.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from replayer.cards.db import CardDB, schema_state
from replayer.cards.importer import import_cards
from replayer.games import ALL as GAMES

ROOT = Path(__file__).resolve().parents[2]
N = 600  # cards an import: enough for the kills to land in every part of it, quick enough for CI
SCRIPT = """--{name}
--{name}
local s,id=GetID()
function s.initial_effect(c)
\tlocal e1=Effect.CreateEffect(c)
\te1:SetCategory(CATEGORY_ATKCHANGE)
\te1:SetType(EFFECT_TYPE_ACTIVATE)
\te1:SetCode(EVENT_FREE_CHAIN)
\tc:RegisterEffect(e1)
end
"""


def _install(folder: Path, version: str) -> Path:
    (folder / "script").mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(folder / "cards.cdb")
    conn.executescript("CREATE TABLE datas (id INTEGER PRIMARY KEY, alias INTEGER, type INTEGER, atk INTEGER, "
                       "def INTEGER, level INTEGER); CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT);")
    conn.executemany("INSERT INTO datas VALUES (?, 0, ?, 1000, 1000, 4)",
                     [(100_000 + i, 0x21 if i % 2 else 0x2) for i in range(N)])
    conn.executemany("INSERT INTO texts VALUES (?, ?, ?)",
                     [(100_000 + i, f"Card {i} {version}", f"Target 1 monster; it gains {i} ATK. ({version})")
                      for i in range(N)])
    conn.commit()
    conn.close()
    for i in range(0, N, 8):
        (folder / "script" / f"c{100_000 + i}.lua").write_text(SCRIPT.format(name=f"Card {i} {version}"),
                                                              encoding="utf-8")
    return folder


def _state(db_path: Path) -> tuple[str, set[str], int]:
    """(schema state, the versions of the cards' names, how many cards)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        state, _ = schema_state(conn)
        if state != "ok":
            return state, set(), 0
        names = [n for (n,) in conn.execute("SELECT name FROM cards")]
        return state, {n.rsplit(" ", 1)[-1] for n in names}, len(names)
    finally:
        conn.close()


def test_twenty_kills_during_a_card_import_leave_no_half_written_database(tmp_path):
    folders = {v: _install(tmp_path / v, v) for v in "AB"}
    db_dir = tmp_path / "data"
    db_dir.mkdir()
    db_path = db_dir / "cards.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REPLAYER_CARDS_DB": str(db_path)}
    rng = random.Random(22)

    def command(version: str) -> list[str]:
        return [sys.executable, "-m", "replayer", "cards", "import", str(folders[version]), "--cards-db", str(db_path),
                "--no-progress", "--jobs", "1"]

    started = time.monotonic()  # one whole import, to know the window in which to kill
    subprocess.run(command("A"), env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    whole = time.monotonic() - started
    print(f"one import: {whole:.2f} s")
    assert _state(db_path) == ("ok", {"A"}, N)

    kills = 0
    version = "A"
    while kills < 20:
        if rng.random() < 0.3:  # from nothing: the kill may fall while the schema is made
            for p in db_dir.iterdir():
                p.unlink()
        version = "B" if version == "A" else "A"
        proc = subprocess.Popen(command(version), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.9 * whole))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
        if db_path.exists():
            state, versions, count = _state(db_path)
            assert state in ("ok", "empty"), state  # never a part of the tables
            if state == "ok" and count:
                assert count == N and len(versions) == 1, (count, versions)  # never a part of the cards

    # a later import works and gives the full result; nothing stale is left beside the database
    summary = import_cards([folders["B"]], CardDB(db_path), games=GAMES, jobs=1)
    assert summary.cards.get("ygo") == N or summary.unchanged, summary.to_dict()
    assert sorted(p.name for p in db_dir.iterdir()) == ["cards.db"], list(db_dir.iterdir())
    assert _state(db_path) == ("ok", {"B"}, N)
