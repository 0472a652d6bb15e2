"""The card importers fuzzed at length: cdb rows, YGOProDeck and Duel Masters entries, Lua scripts.

    python bench/fuzz_cards.py            # 100,000 of each kind
    python bench/fuzz_cards.py -n 5000    # a shorter run

Each kind is made by a generator here (``random.Random``, seeded: a failure names its seed) and checked
against an oracle written here, independently of the importer: a cdb row is good when SQLite holds an
integer in its id and an integer or NULL in alias/type/atk/def/level, text or NULL in name/desc (as
``typeof()`` says); a JSON entry is good when its fields are of the types a card list has. The figures:
exceptions (the target is 0), bad entries not reported, good ones not imported, and the time. The
generators are shared with tests/cards/test_importer_fuzz.py (the CI run, with hypothesis). No real card data.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sqlite3
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CDB_SCHEMA = """
CREATE TABLE datas (id INTEGER, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER, atk INTEGER,
    def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER);
CREATE TABLE texts (id INTEGER, name TEXT, desc TEXT, str1 TEXT, str2 TEXT);
"""
DATAS = ("ot", "alias", "setcode", "type", "atk", "def", "level", "race", "attribute", "category")
TEXTS = ("name", "desc", "str1", "str2")
INT64 = 2**63 - 1
NASTY = ["\x1b[2J", "\x1b]0;t\x07", "\u202e", "\x00", "\ud7ff", "オネスト", "'", '"', "--", "\n", " ", "%s", "{}"]


# ---- values of every kind -----------------------------------------------------------------------------
def text_value(rng: random.Random, longest: int = 30) -> str:
    pieces = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        if r < 0.3:
            pieces.append(rng.choice(NASTY))
        elif r < 0.4:
            pieces.append("".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(1, 5))).replace("\ud800", ""))
        else:
            pieces.append("".join(rng.choice("abcdefgh XYZ01") for _ in range(rng.randint(1, longest))))
    return "".join(pieces)


def sqlite_value(rng: random.Random):
    """A value of one of SQLite's storage classes (NULL, INTEGER, REAL, TEXT, BLOB), edge values often."""
    r = rng.random()
    if r < 0.15:
        return None
    if r < 0.45:
        return rng.choice([0, 1, -1, 0x21, 0x2, 0x4, 0x10000, INT64, -INT64 - 1, rng.randint(-2**40, 2**40)])
    if r < 0.6:
        return rng.choice([0.5, 4.0, -1.5, 1e300, float("inf"), float("-inf"), float("nan"), rng.random() * 1e6])
    if r < 0.85:
        return rng.choice([text_value(rng), "123", "0x21", "", "4.0"])
    return rng.choice([b"", b"\x1b[2J", bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 12)))])


def cdb_row(rng: random.Random, pid: int) -> dict:
    """A row of a cdb (both tables): a well-formed card half of the time, every column anything otherwise."""
    if rng.random() < 0.5:
        row = {c: 0 for c in DATAS} | {"type": rng.choice([0x21, 0x11, 0x2, 0x4, 0x10002]), "atk": rng.randint(-2, 5000),
                                       "def": rng.randint(-2, 5000), "level": rng.randint(0, 12),
                                       "name": f"Card {pid} " + text_value(rng, 8), "desc": text_value(rng, 60)}
        if rng.random() < 0.5:  # one column of the wrong class
            row[rng.choice(["alias", "type", "atk", "def", "level", "name", "desc"])] = sqlite_value(rng)
    else:
        row = {c: sqlite_value(rng) for c in DATAS + TEXTS}
    row["id"] = pid if rng.random() < 0.95 else sqlite_value(rng)
    return row


def write_cdb(path: Path, rows: list[dict]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(CDB_SCHEMA)
    conn.executemany(f"INSERT INTO datas (id, {', '.join(DATAS)}) VALUES ({', '.join('?' * (len(DATAS) + 1))})",
                     [(r["id"], *(r.get(c) for c in DATAS)) for r in rows])
    conn.executemany(f"INSERT INTO texts (id, {', '.join(TEXTS)}) VALUES ({', '.join('?' * (len(TEXTS) + 1))})",
                     [(r["id"], *(r.get(c) for c in TEXTS)) for r in rows])
    conn.commit()
    conn.close()


def cdb_oracle(path: Path) -> tuple[set[int], int]:
    """(the passcodes a correct import writes, the number of rows it must report), from SQLite's own
    ``typeof()`` of each column of each row the two tables share."""
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT typeof(d.id), d.id, typeof(d.alias), d.alias, typeof(d.type), typeof(d.atk), "
                        "typeof(d.def), typeof(d.level), typeof(t.name), length(t.name) > 0, typeof(t.desc) "
                        "FROM datas d JOIN texts t ON t.id = d.id").fetchall()
    conn.close()
    good, bad = set(), 0
    for tid, pid, talias, alias, ttype, tatk, tdef, tlevel, tname, name, tdesc in rows:
        ok = tid == "integer" and all(t in ("integer", "null") for t in (talias, ttype, tatk, tdef, tlevel)) \
            and all(t in ("text", "null") for t in (tname, tdesc))
        if not ok:
            bad += 1
        elif not (alias and abs(alias - pid) < 20) and name:
            good.add(pid)
    return good, bad


# ---- JSON entries --------------------------------------------------------------------------------------------
def json_value(rng: random.Random, depth: int = 0):
    r = rng.random()
    if r < 0.12:
        return None
    if r < 0.2:
        return rng.random() < 0.5
    if r < 0.4:
        return rng.choice([0, -1, 5, 2**31, 2**63, 2**70, -2**63 - 1, int("9" * rng.randint(1, 60))])
    if r < 0.5:
        return rng.choice([1.5, 1e300, float("nan"), float("inf"), -0.0, 4.0])
    if r < 0.8 or depth > 3:
        return rng.choice([text_value(rng), "123", "", "5000+", "9" * 5000])
    if r < 0.9:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {text_value(rng, 5): json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _is_int(v, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def _opt_str(entry: dict, key: str) -> bool:
    return entry.get(key) is None or isinstance(entry[key], str)


def ygo_entry(rng: random.Random, pid: int):
    if rng.random() < 0.05:
        return json_value(rng)
    entry = {"id": pid, "name": f"Card {pid} " + text_value(rng, 6), "type": rng.choice(["Spell Card", "Effect Monster",
             "Trap Card", "Normal Monster"]), "race": rng.choice(["Normal", "Quick-Play", "Warrior", "Counter"]),
             "desc": text_value(rng, 80), "atk": rng.randint(0, 5000), "def": rng.randint(0, 5000),
             "level": rng.randint(1, 12)}
    for _ in range(rng.choice([0, 0, 1, 2])):
        key = rng.choice(["id", "name", "type", "race", "desc", "atk", "def", "level", "frameType"])
        if rng.random() < 0.2:
            entry.pop(key, None)
        else:
            entry[key] = json_value(rng)
    if rng.random() < 0.1:
        entry["id"] = str(pid)
    return entry


def ygo_good(entry) -> bool:
    """The oracle: an entry of a YGOProDeck card info as replayer reads it."""
    if not isinstance(entry, dict) or "id" not in entry:
        return False
    pid = entry["id"]
    if not (_is_int(pid, 0, INT64) or isinstance(pid, str) and 1 <= len(pid) <= 18 and pid.isascii() and pid.isdigit()):
        return False
    if not all(_opt_str(entry, k) for k in ("name", "type", "race", "desc")):
        return False
    return all(entry.get(k) is None or _is_int(entry[k], -2**31, 2**31) for k in ("atk", "def", "level"))


def dm_entry(rng: random.Random, n: int):
    if rng.random() < 0.05:
        return json_value(rng)
    entry = {"name": f"Creature {n} " + text_value(rng, 6), "type": rng.choice(["Creature", "Spell", "Evolution Creature"]),
             "civilizations": rng.sample(["Fire", "Water", "Nature", "Light", "Darkness"], rng.randint(0, 2)),
             "power": rng.choice(["1000", "6000+", 3000, None]), "cost": rng.randint(1, 9),
             "text": rng.choice(["Blocker", "Speed attacker", "Double breaker", text_value(rng, 40)]),
             "subtypes": [rng.choice(["Armored Dragon", "Human", "Cyber Lord"])]}
    for _ in range(rng.choice([0, 0, 1, 2])):
        key = rng.choice(["name", "type", "text", "civilizations", "subtypes", "supertypes", "power", "nameJa"])
        if rng.random() < 0.2 and key != "name":
            entry.pop(key, None)
        else:
            entry[key] = json_value(rng) if rng.random() < 0.7 else [json_value(rng)]
    return entry


def dm_good(entry) -> bool:
    """The oracle: an entry of a Duel Masters card list as replayer reads it."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
        return False
    if not all(_opt_str(entry, k) for k in ("type", "text", "nameJa", "name_ja", "ja")):
        return False
    for k in ("civilizations", "subtypes", "supertypes"):
        v = entry.get(k)
        if v is not None and not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
            return False
    p = entry.get("power")
    return p is None or _is_int(p, -2**31, 2**31) or isinstance(p, str) and len(p) <= 40


def json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False)  # NaN and Infinity as many writers write them


# ---- Lua scripts -----------------------------------------------------------------------------------------------
TYPES = ["EFFECT_TYPE_ACTIVATE", "EFFECT_TYPE_QUICK_O", "EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_O", "EFFECT_TYPE_IGNITION",
         "EFFECT_TYPE_FIELD", "EFFECT_TYPE_SINGLE", "EFFECT_TYPE_FLIP"]
CATEGORIES = ["CATEGORY_ATKCHANGE", "CATEGORY_DESTROY", "CATEGORY_NEGATE+CATEGORY_DESTROY", "0", "CATEGORY_DISABLE"]
FLAGS = ["EFFECT_FLAG_CARD_TARGET", "EFFECT_FLAG_DAMAGE_STEP", "EFFECT_FLAG_CARD_TARGET+EFFECT_FLAG_DAMAGE_STEP", "0"]
CODES = ["EVENT_FREE_CHAIN", "EVENT_ATTACK_ANNOUNCE", "EVENT_CHAINING", "EVENT_BE_BATTLE_TARGET", "EFFECT_UPDATE_ATTACK",
         "EVENT_PHASE+PHASE_END"]
CONDITIONS = ["aux.dscon", "aux.StatChangeDamageStepCondition", "s.con", "s.calccon"]


def lua_script(rng: random.Random, passcode: int) -> tuple[str, int]:
    """A script made of the constructs the static reader knows, and the number of effects it registers."""
    lines = ["--テスト", f"--Fuzz Card {passcode}", "local s,id=GetID()", "function s.initial_effect(c)"]
    registered = 0
    for k in range(1, rng.randint(1, 5) + 1):
        lines.append(f"\t--effect {k}")
        if k > 1 and rng.random() < 0.3:
            lines.append(f"\tlocal e{k}=e{k - 1}:Clone()")
        else:
            lines.append(f"\tlocal e{k}=Effect.CreateEffect(c)")
        for method, choices in (("SetType", TYPES), ("SetCategory", CATEGORIES), ("SetProperty", FLAGS),
                                ("SetCode", CODES), ("SetRange", ["LOCATION_MZONE", "LOCATION_SZONE"]),
                                ("SetCondition", CONDITIONS)):
            if rng.random() < 0.8:
                lines.append(f"\te{k}:{method}({rng.choice(choices)})")
        if rng.random() < 0.3:
            lines.append(f"\te{k}:SetCountLimit(1,id)")
        if rng.random() < 0.2 and k > 1:
            lines.append(f"\te{k}:SetCategory(e{k - 1}:GetCategory()+CATEGORY_DESTROY)")
        lines.append(f"\tc:RegisterEffect(e{k})")
        registered += 1
    if rng.random() < 0.2:
        lines.append("\taux.AddEquipProcedure(c)")
        registered += 1
    lines.append("end")
    lines += ["function s.con(e,tp,eg,ep,ev,re,r,rp)", "\treturn Duel.GetCurrentPhase()~=PHASE_DAMAGE", "end",
              "function s.calccon(e,tp,eg,ep,ev,re,r,rp)", "\treturn not Duel.IsDamageCalculated()", "end"]
    return "\n".join(lines) + "\n", registered


def mutate_script(rng: random.Random, text: str) -> str:
    """A script changed as a damaged file or a hostile one is: bytes cut, lines doubled, runs of one character."""
    s = text
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        i = rng.randint(0, max(len(s) - 1, 0))
        if r < 0.25:
            s = s[:i] + s[i + rng.randint(1, 20):]
        elif r < 0.45:
            lines = s.split("\n")
            j = rng.randrange(len(lines))
            lines[j:j] = [lines[j]] * rng.randint(1, 50)
            s = "\n".join(lines)
        elif r < 0.6:
            s = s[:i] + rng.choice(["x", "(", ":Set", "--", "end\n", "function s.f(\n", " ", '"']) * rng.randint(1, 3000) + s[i:]
        elif r < 0.8:
            s = s[:i] + rng.choice(NASTY + [":SetCondition(", ":GetCategory()", "Effect.CreateEffect(c)", "\x00"]) + s[i:]
        else:
            s = s[:i] + chr(rng.randint(0, 0x10FFFF)).replace("\ud800", "") + s[i:]
    return s.encode("utf-8", errors="replace").decode("utf-8", errors="replace")


# ---- the long run ---------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100_000, help="entries of each kind")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)

    from replayer.cards import lua
    from replayer.cards.db import CardDB
    from replayer.cards.importer import import_cards
    from replayer.games import ALL as GAMES

    rng = random.Random(args.seed)
    batch = 1000
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for kind in ("cdb rows", "YGOProDeck entries", "Duel Masters entries"):
            exceptions = unreported = missing = bad_total = 0
            started = time.process_time()
            for b in range(math.ceil(args.n / batch)):
                size = min(batch, args.n - b * batch)
                db_path = root / f"cards-{kind[:3]}-{b}.db"
                try:
                    if kind == "cdb rows":
                        path = root / f"f{b}.cdb"
                        write_cdb(path, [cdb_row(rng, 10_000 + b * batch + i) for i in range(size)])
                        want, bad = cdb_oracle(path)
                        summary = import_cards([path], CardDB(db_path), games=GAMES, jobs=1)
                        reported = sum(1 for p in summary.problems if "the row is skipped" in p)
                        conn = sqlite3.connect(db_path)
                        have = {pid for (pid,) in conn.execute("SELECT passcode FROM cards")}
                        conn.close()
                        missing += len(want - have)
                        unreported += max(bad - reported, 0)
                        bad_total += bad
                    else:
                        ygo = kind.startswith("YGO")
                        entries = [(ygo_entry if ygo else dm_entry)(rng, 10_000 + b * batch + i) for i in range(size)]
                        path = root / (f"cardinfo{b}.json" if ygo else f"dm-cards{b}.json")
                        path.write_text(json_text({"data": entries} if ygo else {"cards": entries}),
                                        encoding="utf-8")
                        good = [e for e in entries if (ygo_good if ygo else dm_good)(e)]
                        bad = len(entries) - len(good)
                        summary = import_cards([path], CardDB(db_path), games=GAMES, jobs=1)
                        reported = sum(1 for p in summary.problems if "entry " in p and "skipped" in p)
                        unreported += abs(bad - reported)
                        bad_total += bad
                        if ygo:
                            conn = sqlite3.connect(db_path)
                            have = {pid for (pid,) in conn.execute("SELECT passcode FROM cards")}
                            conn.close()
                            missing += len({int(e["id"]) for e in good if e.get("name")} - have)
                        else:
                            missing += len(good) - summary.cards.get("dm", 0)
                except Exception:  # noqa: BLE001
                    exceptions += 1
                    traceback.print_exc()
                db_path.unlink(missing_ok=True)
            figures[kind] = (args.n, bad_total, exceptions, unreported, missing, time.process_time() - started)
        # scripts: made, then mutated half of the time; the static reader reads each (the sandbox's own limits
        # are tested in tests/cards/test_luarun.py)
        exceptions = wrong = mutated = 0
        started = time.process_time()
        for i in range(args.n):
            text, registered = lua_script(rng, 10_000 + i)
            if rng.random() < 0.5:
                text = mutate_script(rng, text)
                mutated += 1
                registered = None
            try:
                script = lua.read_script(f"c{10_000 + i}.lua", text)
                if registered is not None and len(script.effects) != registered:
                    wrong += 1
            except Exception:  # noqa: BLE001
                exceptions += 1
                traceback.print_exc()
        figures["Lua scripts"] = (args.n, mutated, exceptions, 0, wrong, time.process_time() - started)
    print(f"{'kind':<22}{'entries':>9}{'bad':>8}{'exceptions':>12}{'unreported':>12}{'not imported':>14}{'CPU s':>8}")
    for kind, (n, bad, exc, unrep, miss, secs) in figures.items():
        print(f"{kind:<22}{n:>9}{bad:>8}{exc:>12}{unrep:>12}{miss:>14}{secs:>8.1f}")
    print("(Lua scripts: 'bad' = mutated; 'not imported' = a made script whose registered effects were not all read)")
    return 1 if any(f[2] or f[3] or f[4] for f in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
