"""Benchmark of the match library on a generated corpus.

    python bench/library.py                 # 10,000 logs (the issue's figure)
    python bench/library.py --count 2000    # a quicker run
    python bench/library.py --json out.json --keep /tmp/corpus
    python bench/library.py --count 2000 --against /work/before --rounds 4   # this tree against another

Measures, on the same corpus:

* parse+validate alone (``read_log`` + ``check_match`` of every file, one process): files/s;
* ``import --jobs 1`` into a new library: files/s, and its ratio to parse+validate alone
  (target >= 0.7: storing is not the bottleneck);
* ``import --jobs 2`` into another new library: the speed-up over ``--jobs 1`` (target >= 1.6);
* a second import of the unchanged corpus (content hashes: nothing is parsed again);
* search latency of typical queries on the imported corpus (target < 100 ms each; median of
  several runs, and the worst run).

The first three are measured ``--rounds`` times (default 3), interleaved (parse+validate, then
the imports, then again), and the best run of each is compared: the machine's speed drifts by
several per cent over the minutes a 10,000-log run takes, which would otherwise decide a ratio
near its target. Every round's figures are printed and kept in the JSON.

``--rate`` times what the user waits for (issue 25: >= 3,000 logs/s on 5,000 logs): the whole
``replayer import CORPUS`` command in a child process (start-up included) as logs/s, for each
``--jobs`` of ``--rate-jobs`` (default ``default,1,2``: the command as a user types it, then
``--jobs 1`` and ``--jobs 2``), interleaved with ``--against TREE`` when given,
and beside it the floor: the same rows (made first, untimed) inserted into a new library with
sqlite-utils (``Table.insert_all``, what ``sqlite-utils insert`` does) — the time storing cannot
go below. ``python bench/library.py --rate --count 5000 --against /tmp/base-main --rounds 3``.
``--bytecode``: the commands write and read their bytecode (in a folder of the work folder), as an
installed replayer does; without it a PYTHONDONTWRITEBYTECODE=1 environment makes every process
(the command and each worker) compile every module it imports from source, each run.

``--against TREE`` compares this checkout with another one (``/work/before``: the code before
issue 10) instead: every measure (``import --jobs 1``, ``--jobs 2``, the searches) runs in a child
process of each version in turn (A B, then B A, …) on the same corpus (the searches of both on
one library, its pages read once before they are timed); wall time and CPU time (the child's
and its workers') are reported, with the ratio other / this (> 1: this tree is faster). Each
child uses its own version's API (``replayer.importing.import_paths`` here,
``replayer.store.import_paths`` before the split).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replayer import importing, store  # noqa: E402
from replayer.check import read_log  # noqa: E402
from replayer.check import check_match  # noqa: E402

PLAYERS = ["Yuki", "Kaiba", "Jonouchi", "Mai", "Anzu", "Honda", "Ryo", "Asuka", "Manjoume", "Misawa",
           "Yusei", "Jack", "Crow", "Aki", "Rua", "Ruka", "Yuma", "Kaito", "Rin", "Shobu", "Hakuoh",
           "Kokujo", "Mimi", "Katta", "Jiro", "Zakira", "Ryusei", "Sasuke", "Lena", "Jonas",
           "Marie", "Felix", "Hannah", "Lukas", "Emma", "Paul", "Sofia", "Noah", "Clara", "Ben"]
EVENTS = ["Regional Frankfurt 2024", "Regional Hamburg 2024", "Nationals Germany 2024",
          "WCQ Europe 2025", "Store Championship Osaka", "DM Grand Prix 2024", "DM Nationals 2025",
          "Locals Berlin"]
YGO_MONSTERS = [("Lyla, Lightsworn Sorceress", "1700/200"), ("Blue-Eyes White Dragon", "3000/2500"),
                ("Dark Magician", "2500/2100"), ("Cyber Dragon", "2100/1600"), ("Elemental HERO Sparkman", "1600/1400"),
                ("Gemini Elf", "1900/900"), ("Marauding Captain", "1200/400"), ("Breaker the Magical Warrior", "1600/1000")]
YGO_DS_CARDS = ['"Honest"', '"Kuriboh"', '"Rush Recklessly" {quick-play, atk-mod}', '"Forbidden Lance" {quick-play, atk-mod}',
                '"Mirror Force"', '"Sakuretsu Armor"']
DM_CREATURES = [("Bolshack Dragon", "6000 {creature, w-breaker}"), ("Gatling Cyclone", "3000 {creature, speed-attacker}"),
                ("Aqua Hulcus", "2000 {creature}"), ("Bronze-Arm Tribe", "1000 {creature}"),
                ("Holy Awe", "{spell, s-trigger}"), ("Terror Pit", "{spell, s-trigger}"),
                ("Gaia Mantis", "5000 {creature, blocker}")]
NOTES = ["judge call at this point", "appeal: timing disputed", "player hesitated before passing",
         "the opponent asked to see the card", "camera angle unclear here", "coach: should have chained",
         "misplay, the attack was not needed", "time called by the table judge", "good read of the set card",
         "Aufruf des Schiedsrichters", "ジャッジを呼んだ", "video skips a few seconds"]


def header(rng: random.Random, n: int, game: str, events: list[str]) -> list[str]:
    """A generated match's comment and header tags, and the blank line after them."""
    a, b = rng.sample(PLAYERS, 2)
    return ["# generated match %d" % n, f'[Game "{game}"]', f'[A "{a}"]', f'[B "{b}"]',
            f'[Event "{rng.choice(events)}"]', f'[Round "{rng.randint(1, 9)}"]',
            f'[Table "{rng.randint(1, 64)}"]',
            f'[Date "{rng.choice(["2024", "2025"])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"]', ""]


def ygo_log(rng: random.Random, n: int) -> str:
    lines = header(rng, n, "ygo", EVENTS[:5])
    lp = {"A": 8000, "B": 8000}
    seconds = rng.randint(0, 600)
    for turn in range(rng.randint(2, 5), rng.randint(6, 9)):
        p = "A" if turn % 2 else "B"
        o = "B" if p == "A" else "A"
        lines += [f"turn {turn} {p}", "phase draw", f"{p}: draw", "phase main1"]
        mon, stats = rng.choice(YGO_MONSTERS)
        lines.append(f'{p}: normal summon "{mon}" {stats}')
        lines.append("phase battle")
        tgt, tstats = rng.choice(YGO_MONSTERS)
        seconds += rng.randint(20, 90)
        lines.append(f'@{seconds // 60}:{seconds % 60:02d} {p}: attack "{mon}" {stats} -> "{tgt}" {tstats}')
        lines += ["step damage", "timing ds-start", "timing before-calc"]
        late = rng.random() < 0.15  # an activation during damage calculation: a mistake
        if not late and rng.random() < 0.4:
            lines += [f"{p}: activate {rng.choice(YGO_DS_CARDS)} from hand", "resolve"]
        lines.append("timing calc")
        if late:
            lines += [f"{p}: activate {rng.choice(YGO_DS_CARDS)} from hand", "resolve"]
        dmg = abs(int(stats.split("/")[0]) - int(tstats.split("/")[0]))
        loser = o if int(stats.split("/")[0]) > int(tstats.split("/")[0]) else p
        if dmg:
            lp[loser] -= dmg
            lines += [f"{loser}: damage {dmg}", f"{loser}: lp {lp[loser] if rng.random() > 0.05 else lp[loser] + 100}"]
            lines.append(f'{loser}: destroy "{tgt if loser == o else mon}" by battle')
        lines += ["timing after-calc", "timing ds-end"]
        if rng.random() < 0.03:
            lines.append(f"{p}: activte \"Honest\"")  # a transcription typo: a syntax finding
        if rng.random() < 0.3:
            lines[-1] += "   # " + rng.choice(NOTES)
        lines += ["step battle", "step end", "phase main2", "phase end"]
    return "\n".join(lines) + "\n"


def dm_log(rng: random.Random, n: int) -> str:
    lines = header(rng, n, "dm", EVENTS[5:])
    for turn in range(rng.randint(3, 6), rng.randint(8, 11)):
        p = "A" if turn % 2 else "B"
        o = "B" if p == "A" else "A"
        name, stats = rng.choice(DM_CREATURES[:4])
        lines += [f"turn {turn} {p}", f'{p}: charge "{rng.choice(DM_CREATURES)[0]}"',
                  f'{p}: summon "{name}" {stats}']
        att, astats = rng.choice([c for c in DM_CREATURES if "creature" in c[1]])
        lines.append(f'{p}: attack "{att}" {astats} -> player')
        if rng.random() < 0.3:
            lines.append(f'{o}: block with "Gaia Mantis" 5000 {{creature, blocker}}')
            lines.append(f'battle "{att}" vs "Gaia Mantis"')
        else:
            lines.append(f"{p}: break {2 if 'w-breaker' in astats else 1}")
            if rng.random() < 0.3:
                lines.append(f'{o}: s-trigger "{rng.choice(["Holy Awe", "Terror Pit"])}" {{spell, s-trigger}}')
        if rng.random() < 0.3:
            lines[-1] += "   # " + rng.choice(NOTES)
        lines.append("attack ends")
    return "\n".join(lines) + "\n"


def make_corpus(folder: Path, count: int, seed: int = 2024) -> list[Path]:
    rng = random.Random(seed)
    files = []
    for n in range(count):
        text = ygo_log(rng, n) if rng.random() < 0.7 else dm_log(rng, n)
        sub = folder / f"{n // 1000:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        p = sub / f"match-{n:05d}.duel"
        p.write_text(text, encoding="utf-8")
        files.append(p)
    return files


def time_parse_validate(files: list[Path]) -> float:
    t = time.perf_counter()
    for f in files:
        check_match(read_log(f))
    return time.perf_counter() - t


def time_import(files: list[Path], db_path: Path, jobs: int) -> tuple[float, dict]:
    if db_path.exists():
        db_path.unlink()
    db = store.open_library(db_path)
    t = time.perf_counter()
    counts: dict[str, int] = {}
    for outcome in importing.import_paths(db, files, jobs=jobs):
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    elapsed = time.perf_counter() - t
    db.close()
    return elapsed, counts


QUERIES = {
    "rule": dict(rule=["card.unknown"]),
    "card": dict(card=["Honest"]),
    "card+kind": dict(card=["Honest"], kind=["illegal-activation"]),
    "severity error": dict(severity=["error"]),
    "player (coaching)": dict(player="Yuki"),
    "event": dict(event="Frankfurt"),
    "date range": dict(date_from="2024-03-01", date_to="2024-03-31"),
    "table": dict(table="12", event="Hamburg"),
    "notes full-text": dict(text="appeal"),
    "everything (no filter)": dict(),
}


def time_search(db_path: Path, runs: int = 5) -> dict[str, dict]:
    from replayer import games

    db = store.open_library(db_path)
    out = {}
    for name, flt in QUERIES.items():
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            result = store.search(db, games=games.ALL.values(), **flt)  # (as the command line asks)
            times.append((time.perf_counter() - t) * 1000)
        out[name] = {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1),
                     "matches": result.total_matches, "findings": result.total_findings}
    t = time.perf_counter()
    store.stats(db, player="Yuki", games=games.ALL.values())
    out["stats --player"] = {"median_ms": round((time.perf_counter() - t) * 1000, 1)}
    db.close()
    return out


# ---- one version against another, in child processes ----------------------------------------------
#: run by ``python -c`` with the tree to measure first on sys.path; prints one JSON object
CHILD = r"""
import json, os, statistics, sys, time
tree, what, db_path, list_path, jobs, queries = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
sys.path.insert(0, tree)
from replayer import store
from replayer.check import read_log
try:
    from replayer.check import check_match
except ImportError:  # before issue 10
    from replayer.validator import check_match
try:
    from replayer.importing import import_paths
except ImportError:  # before the store took checked results
    import_paths = store.import_paths
files = open(list_path, encoding="utf-8").read().splitlines()
check_match(read_log(files[0]))  # the caches a long import has warm (grammar, catalog)
out = {}
if what == "import":
    if os.path.exists(db_path):
        os.unlink(db_path)
    db = store.open_library(db_path)
    counts = {}
    t0, c0, k0 = time.perf_counter(), time.process_time(), os.times()
    for outcome in import_paths(db, files, jobs=jobs):
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    wall, cpu, k1 = time.perf_counter() - t0, time.process_time() - c0, os.times()
    db.close()
    out = {"wall": wall, "cpu": cpu + (k1.children_user - k0.children_user) + (k1.children_system - k0.children_system),
           "counts": counts}
else:
    db = store.open_library(db_path)
    walls, cpus = {}, {}
    for flt in json.loads(queries).values():  # once untimed: the library's pages in the OS cache
        store.search(db, **flt)
    for name, flt in json.loads(queries).items():
        w, c = [], []
        for _ in range(7):
            t0, c0 = time.perf_counter(), time.process_time()
            store.search(db, **flt)
            w.append(time.perf_counter() - t0)
            c.append(time.process_time() - c0)
        walls[name], cpus[name] = statistics.median(w), statistics.median(c)
    db.close()
    out = {"wall": sum(walls.values()), "cpu": sum(cpus.values()), "each_ms": {k: round(v * 1000, 1) for k, v in walls.items()},
           "each_cpu_ms": {k: round(v * 1000, 1) for k, v in cpus.items()}}
print(json.dumps(out))
"""


def run_child(tree: Path, what: str, db_path: Path, list_path: Path, jobs: int = 1) -> dict:
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "REPLAYER_LIBRARY")}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tree), what, str(db_path), str(list_path), str(jobs),
                           json.dumps(QUERIES)], capture_output=True, text=True, env=env, cwd=str(db_path.parent))
    if proc.returncode != 0:
        raise SystemExit(f"the child for {tree} ({what}) failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare(files: list[Path], work: Path, other: Path, rounds: int, skip_jobs2: bool) -> dict:
    """This tree (A) against ``other`` (B), every measure A B, B A, A B …; the medians and their ratios."""
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here, "other": other.resolve()}
    list_path = work / "files.txt"
    list_path.write_text("\n".join(str(f) for f in files), encoding="utf-8")
    measures = [("import --jobs 1", "import", 1)] + ([] if skip_jobs2 else [("import --jobs 2", "import", 2)])
    measures.append(("searches (sum of medians)", "search", 1))
    runs: dict[str, dict[str, list[dict]]] = {m[0]: {"this": [], "other": []} for m in measures}
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for n in range(rounds):
        for name, what, jobs in measures:
            # A B in odd rounds, B A in even ones: neither version always runs first after the other
            for label, tree in (list(trees.items()) if n % 2 == 0 else list(trees.items())[::-1]):
                # the searches of both versions read one library (this tree's --jobs 1 import): the
                # same rows, only the code differs
                db = work / (f"library-{label}-j{jobs}.db" if what == "import" else "library-this-j1.db")
                r = run_child(tree, what, db, list_path, jobs)
                runs[name][label].append(r)
                print(f"  round {n + 1} {name:26s} {label:5s} wall {r['wall']:7.3f} s  cpu {r['cpu']:7.3f} s"
                      + (f"  {r['counts']}" if "counts" in r else ""), flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out = {}
    print(f"\nmedian of {rounds} rounds; ratio = other / this (> 1: this tree is faster; target >= 0.95)")
    for name, by in runs.items():
        row = {}
        for key in ("wall", "cpu"):
            a = statistics.median(r[key] for r in by["this"])
            b = statistics.median(r[key] for r in by["other"])
            pairs = [o[key] / t[key] for t, o in zip(by["this"], by["other"])]
            row[key] = {"this": round(a, 3), "other": round(b, 3), "ratio": round(b / a, 3),
                        "round_ratios": [round(x, 3) for x in pairs]}
        if name.startswith("import"):
            row["files_per_s"] = {"this": round(len(files) / row["wall"]["this"]),
                                  "other": round(len(files) / row["wall"]["other"])}
        else:
            for key in ("each_ms", "each_cpu_ms"):  # per query: the median over the rounds
                row[key] = {label: {q: round(statistics.median(r[key][q] for r in by[label]), 1)
                                    for q in by[label][0][key]} for label in ("this", "other")}
                print(f"  {key}: " + ", ".join(f"{q} {row[key]['this'][q]} vs {row[key]['other'][q]}"
                                               for q in row[key]["this"]))
        out[name] = row
        print(f"{name:26s} wall {row['wall']['this']:7.3f} s vs {row['wall']['other']:7.3f} s  ratio "
              f"{row['wall']['ratio']:.3f}   cpu {row['cpu']['this']:7.3f} s vs {row['cpu']['other']:7.3f} s  ratio "
              f"{row['cpu']['ratio']:.3f}")
    return {"count": len(files), "rounds": rounds, "against": str(other), "measures": out,
            "runs": {k: v for k, v in runs.items()}}


# ---- what the user waits for: `replayer import` as logs/s, and the sqlite-utils floor -------------
#: ``--bytecode``: the commands write and read their modules' bytecode (``__pycache__``), as an
#: installed replayer has it, in a folder of the work folder (the trees are not written to)
BYTECODE: list[bool] = [False]


def tree_env(tree: Path, work: Path) -> dict[str, str]:
    """The environment of ``tree``'s commands: no card database (the same checks in both trees), and a
    cache folder of its own (grammar tables, kept shapes, catalogs) kept across rounds: two trees
    sharing one would replace each other's kept shapes at every run. With ``--bytecode``, bytecode
    written and read in ``work/pycache`` (else as the environment says: PYTHONDONTWRITEBYTECODE=1
    makes every process compile each module it imports from its source)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "REPLAYER_LIBRARY", "REPLAYER_CARDS_DB")}
    env["PYTHONPATH"] = str(tree)
    env["REPLAYER_CARDS_DB"] = ""
    env["XDG_CACHE_HOME"] = str(work / f"cache-{abs(hash(str(tree.resolve()))):x}")
    if BYTECODE[0]:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


def warm(tree: Path, work: Path, log: Path) -> None:
    """One ``replayer check`` of ``tree`` before the timed runs: its grammar tables, kept shapes and
    catalogs made, as on a user's machine after the first run."""
    import subprocess

    subprocess.run([sys.executable, "-m", "replayer", "check", str(log)], capture_output=True, env=tree_env(tree, work),
                   cwd=str(work))


def time_command(tree: Path, corpus: Path, db_path: Path, jobs: str) -> dict:
    """``replayer import CORPUS`` of ``tree`` in a child process: wall and CPU time (its workers' too);
    ``jobs``: its ``--jobs``, or ``default`` for none."""
    import resource
    import subprocess

    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    env = tree_env(tree, db_path.parent)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "replayer", "import", str(corpus), "--db", str(db_path),
                           "--no-progress", *(["--jobs", jobs] if jobs != "default" else [])],
                          capture_output=True, text=True, env=env,
                          cwd=str(db_path.parent))
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"replayer import of {tree} failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "said": proc.stderr.strip().splitlines()[-1]}


def floor_rows(files: list[Path]) -> dict[str, list[dict]]:
    """The rows an import writes (matches, match_revisions, findings), as dicts, made untimed from this
    tree's prepared files; the search tables aside (an import fills them from these rows)."""
    from replayer.store import MATCH_COLUMNS, FINDING_COLUMNS_M002

    rows: dict[str, list[dict]] = {"match_revisions": [], "matches": [], "findings": []}
    keys = list(store.library_paths(files))
    first_event = first_finding = 1
    for n, (f, key) in enumerate(zip(files, keys), 1):
        p = importing.prepare_file(f, key=key)
        if not isinstance(p, store.Prepared):
            continue
        header = dict(zip(MATCH_COLUMNS, p.match))
        now = "2026-01-01T00:00:00+00:00"
        rows["match_revisions"].append({
            "id": n, "match_id": n, "revision": 1, "content_hash": p.content_hash, "path": key, **header,
            "imported_at": now, "text": p.text, "events_json": p.events_json, "first_event_id": first_event,
            "first_finding_id": first_finding, "cards": p.cards or None,
            "notes_json": store._dumps(p.notes) if p.notes else None})
        rows["matches"].append({"id": n, "path": key, "file": os.path.basename(key), "revision": 1, "revision_id": n,
                                "content_hash": p.content_hash, **header, "first_imported": now, "imported_at": now,
                                "first_finding_id": first_finding})
        for i, r in enumerate(p.findings):
            rows["findings"].append({"id": first_finding + i, "event_id": None if r[0] is None else first_event + r[0],
                                     "match_id": n, "revision_id": n, **dict(zip(FINDING_COLUMNS_M002, r[1:]))})
        first_event += len(p.events)
        first_finding += len(p.findings)
    return rows


def time_floor(rows: dict[str, list[dict]], db_path: Path) -> float:
    """The same rows inserted into a new library with sqlite-utils' ``insert_all`` (batches of 100
    rows a statement, one transaction a batch: what ``sqlite-utils insert`` does)."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    db = store.open_library(db_path)
    t = time.perf_counter()
    for table, table_rows in rows.items():
        db[table].insert_all(table_rows, batch_size=100)
    elapsed = time.perf_counter() - t
    db.close()
    return elapsed


def rate(files: list[Path], corpus: Path, work: Path, other: Path | None, rounds: int, jobs: list[str]) -> dict:
    """``replayer import`` of the corpus as logs/s (this tree, and ``other`` interleaved), and the floor."""
    here = Path(__file__).resolve().parent.parent
    trees = {"this": here, **({"other": other.resolve()} if other is not None else {})}
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = floor_rows(files)
    for tree in trees.values():
        warm(tree, work, files[0])
    runs: dict[str, list] = {}
    for n in range(rounds):
        order = list(trees.items()) if n % 2 == 0 else list(trees.items())[::-1]
        for j in jobs:
            for label, tree in order:
                r = time_command(tree, corpus, work / f"rate-{label}-j{j}.db", j)
                name = f"{label} --jobs {j}" if j != "default" else f"{label} (no --jobs)"
                runs.setdefault(name, []).append(r)
                print(f"  round {n + 1} {name:18s}: wall {r['wall']:6.2f} s ({len(files) / r['wall']:5.0f} "
                      f"logs/s)  cpu {r['cpu']:6.2f} s   {r['said']}", flush=True)
        f = time_floor(rows, work / "rate-floor.db")
        runs.setdefault("floor (sqlite-utils insert_all)", []).append({"wall": f, "cpu": f})
        print(f"  round {n + 1} floor: the same rows with sqlite-utils insert_all {f:6.2f} s", flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    out = {}
    floor = statistics.median(r["wall"] for r in runs["floor (sqlite-utils insert_all)"])
    print(f"\nmedian of {rounds} rounds, {len(files)} logs:")
    for name, rs in runs.items():
        wall = statistics.median(r["wall"] for r in rs)
        cpu = statistics.median(r["cpu"] for r in rs)
        out[name] = {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "logs_per_s": round(len(files) / wall),
                     "times_floor": round(wall / floor, 1), "walls": [round(r["wall"], 3) for r in rs]}
        print(f"  {name:34s} {wall:6.2f} s wall {cpu:6.2f} s cpu  {len(files) / wall:6.0f} logs/s  "
              f"{wall / floor:5.1f}x the floor")
    return {"count": len(files), "rounds": rounds, "against": str(other) if other else None, "measures": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=10_000, help="logs in the corpus (default 10000)")
    ap.add_argument("--keep", type=Path, help="write the corpus and libraries here and keep them")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    ap.add_argument("--skip-jobs2", action="store_true", help="do not measure --jobs 2")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved runs of each measure; the best counts (default 3)")
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="compare with the replayer checkout TREE, interleaved in child processes")
    ap.add_argument("--rate", action="store_true",
                    help="time the whole `replayer import` command as logs/s, and the sqlite-utils floor")
    ap.add_argument("--bytecode", action="store_true",
                    help="--rate: the commands write and read bytecode (in DIR/pycache), as an installed replayer "
                         "does, whatever PYTHONDONTWRITEBYTECODE says")
    ap.add_argument("--rate-jobs", default="default,1,2",
                    help="the --jobs of the --rate runs, `default` for none (default: default,1,2)")
    args = ap.parse_args()
    BYTECODE[0] = args.bytecode

    work = args.keep or Path(tempfile.mkdtemp(prefix="replayer-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        corpus = work / "corpus"
        if corpus.exists():
            shutil.rmtree(corpus)
        t = time.perf_counter()
        files = make_corpus(corpus, args.count)
        size = sum(f.stat().st_size for f in files)
        lines = sum(f.read_text(encoding="utf-8").count("\n") for f in files)
        print(f"corpus: {len(files)} logs, {lines} lines, {size / 1e6:.1f} MB "
              f"(made in {time.perf_counter() - t:.1f} s) in {corpus}")
        print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
        if args.rate:
            figures = rate(files, corpus, work, args.against, args.rounds, args.rate_jobs.split(","))
            if args.json:
                args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
            return
        if args.against is not None:
            figures = compare(files, work, args.against, args.rounds, args.skip_jobs2)
            if args.json:
                args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
            return

        # warm the caches every run shares (grammar, catalog), as a long import would have them
        check_match(read_log(files[0]))
        # the machine's speed drifts by several per cent between runs of a few seconds: the runs
        # of each measure are interleaved, and the best of each is compared
        pvs, j1s, j2s = [], [], []
        c1 = c2 = {}
        for n in range(args.rounds):
            pvs.append(time_parse_validate(files))
            j1, c1 = time_import(files, work / "library-j1.db", 1)
            j1s.append(j1)
            if not args.skip_jobs2:
                j2, c2 = time_import(files, work / "library-j2.db", 2)
                j2s.append(j2)
            print(f"  round {n + 1}: parse+validate {pvs[-1]:.2f} s, import --jobs 1 {j1:.2f} s"
                  + (f", --jobs 2 {j2s[-1]:.2f} s" if j2s else ""))
        pv, j1 = min(pvs), min(j1s)
        print(f"parse+validate alone   {pv:7.2f} s  {len(files) / pv:7.0f} files/s  (best of {len(pvs)})")
        print(f"import --jobs 1        {j1:7.2f} s  {len(files) / j1:7.0f} files/s  ratio {pv / j1:.2f}x "
              f"(target >= 0.7)  {c1}")
        figures = {"count": len(files), "lines": lines, "bytes": size, "cpus": os.cpu_count(), "rounds": args.rounds,
                   "parse_validate_s": round(pv, 2), "import_jobs1_s": round(j1, 2),
                   "throughput_ratio": round(pv / j1, 2),
                   "runs": {"parse_validate_s": [round(x, 2) for x in pvs],
                            "import_jobs1_s": [round(x, 2) for x in j1s],
                            "import_jobs2_s": [round(x, 2) for x in j2s]},
                   "round_ratios": [round(a / b, 3) for a, b in zip(pvs, j1s)]}
        if j2s:
            j2 = min(j2s)
            print(f"import --jobs 2        {j2:7.2f} s  {len(files) / j2:7.0f} files/s  speed-up {j1 / j2:.2f}x "
                  f"(target >= 1.6)  {c2}")
            figures.update(import_jobs2_s=round(j2, 2), speedup_jobs2=round(j1 / j2, 2))
        db = store.open_library(work / "library-j1.db")
        t = time.perf_counter()
        again = {}
        for outcome in importing.import_paths(db, files, jobs=1):
            again[outcome.status] = again.get(outcome.status, 0) + 1
        re = time.perf_counter() - t
        rows = store.count_rows(db)
        db.close()
        print(f"re-import (unchanged)  {re:7.2f} s  {again}")
        db_size = (work / "library-j1.db").stat().st_size
        print(f"library: {db_size / 1e6:.1f} MB, rows {rows}")
        figures.update(reimport_s=round(re, 2), library_bytes=db_size, rows=rows)
        searches = time_search(work / "library-j1.db")
        print("search latency (median / worst of 5, ms):")
        for name, r in searches.items():
            extra = f"  {r['matches']} matches, {r['findings']} findings" if "matches" in r else ""
            print(f"  {name:24s} {r['median_ms']:7.1f} {r.get('max_ms', r['median_ms']):7.1f}{extra}")
        figures["search_ms"] = searches
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
