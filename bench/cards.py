"""Benchmark and report of the card data readers (replayer/cards), run by hand, never by the tests.

    python bench/cards.py import DATA...        time `cards import` into a fresh database; its size
    python bench/cards.py lookup DB             name lookups and "did you mean" among the names
    python bench/cards.py check DB LOGS         `check` throughput with and without the card database
    python bench/cards.py agreement DB          built-in catalog against the imported data (docs/cards.md)
    python bench/cards.py coverage DB           share of scripts whose every activated effect was read
    python bench/cards.py suggest [N]           "did you mean" among N made-up names (default 27,000):
                                                a typo of a whole name, and a part of a name with a typo
    python bench/cards.py firstcheck DB [--pairs N] [--lines N] [--against DIR] [--warm-reader]
                                                a FIRST `replayer check --format json` of the 100k-line log
                                                (bench/logs.py: ~450 names the card database does not know)
                                                with the card database DB against without it: whole
                                                processes, each with an empty XDG_CACHE_HOME (no kept
                                                suggestions; --warm-reader: the reader's caches of a run
                                                without the database kept), this tree and DIR interleaved
    python bench/cards.py suggestparts DB [--rounds N] [--lines N]
                                                in one process, CPU time of each part of a first check's
                                                "did you mean" with DB on the 100k-line log's unknown names:
                                                the lookups, reading the index, the suggester, the whole-name
                                                filter, the rest of the whole-name step, the parts of names

DATA is card data a user has (an EDOPro folder, a Duel Masters card list): for developing and
measuring only, never copied into the project.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: CPU time of this process (wall time on a shared, loaded machine says more about the neighbours)
clock = time.process_time if os.environ.get("WALL") is None else time.perf_counter
sys.path.insert(0, str(ROOT))


def cmd_import(paths: list[str]) -> None:
    from replayer.cards.db import CardDB
    from replayer.cards.importer import import_cards
    from replayer.games import ALL as GAMES

    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "cards.db"
        times = []
        for _ in range(2):
            if db_path.exists():
                for p in Path(tmp).iterdir():
                    p.unlink()
            t = clock()
            summary = import_cards(paths, CardDB(db_path), games=GAMES, jobs=int(os.environ.get("JOBS", "1")))
            times.append(clock() - t)
        t = clock()
        again = import_cards(paths, CardDB(db_path), games=GAMES, jobs=int(os.environ.get("JOBS", "1")))
        reimport = clock() - t
        size = db_path.stat().st_size
        print(json.dumps({"import_s": [round(x, 2) for x in times], "reimport_s": round(reimport, 2),
                          "reimport_written": again.written, "db_mb": round(size / 1e6, 1), "cards": summary.cards,
                          "effects": summary.effects, "scripts": summary.scripts,
                          "scripts_fully_read": summary.complete_scripts, "load": os.getloadavg()}))


def cmd_lookup(db_path: str) -> None:
    from replayer.cards.db import CardDB
    from replayer.cards.layers import LayeredCatalog
    from replayer.games import get as get_game

    db = CardDB(db_path)
    cat = LayeredCatalog(get_game("ygo").catalog, db)
    names = db.names("ygo")
    sample = names[:: max(1, len(names) // 2000)][:2000]
    # a cold lookup: a fresh database object, each name once: folding and the indexed query (the first
    # query, which opens the file, timed apart); then the same with the card built from its row
    cold = CardDB(db_path)
    t = clock()
    cold.card_id("ygo", "x")
    index_ms = (clock() - t) * 1e3
    t = clock()
    for n in sample:
        cold.card_id("ygo", n)
    per_id = (clock() - t) / len(sample) * 1e6
    cold = CardDB(db_path)
    cold.card_id("ygo", "x")
    t = clock()
    for n in sample:
        cold.find("ygo", n)
    per_cold = (clock() - t) / len(sample) * 1e6
    # a warm lookup through the layered catalog (what the validator does for each mention)
    for n in sample:
        cat.find(n)
    t = clock()
    for _ in range(5):
        for n in sample:
            cat.find(n)
    per_warm = (clock() - t) / (5 * len(sample)) * 1e6
    typos = [n[:3] + n[4:] if len(n) > 6 else n + "x" for n in sample[:200]]
    cat.suggest("warm up")
    t = clock()
    for n in typos:
        cat.suggest(n)
    per_suggest = (clock() - t) / len(typos) * 1e3
    print(json.dumps({"names": len(set(names)), "first_query_ms": round(index_ms, 1), "lookup_name_us": round(per_id, 2),
                      "lookup_and_build_card_us": round(per_cold, 1), "lookup_warm_us": round(per_warm, 2),
                      "did_you_mean_ms": round(per_suggest, 2), "load": os.getloadavg()}))


def cmd_suggest(n: int = 27_000) -> None:
    """ "Did you mean" among ``n`` made-up names of 2 to 6 words (no card data needed): the milliseconds of
    a whole name with a typo (fuzz.ratio) and of a part of a name with a typo ("Ash Blosom": word index,
    then fuzz.partial_ratio), median and 95th percentile, each query on a fresh cache."""
    import random
    import statistics

    from replayer.cards.names import Suggester

    rnd = random.Random(23)
    syllables = ["ash", "blo", "ssom", "joy", "ous", "spr", "ing", "dra", "gon", "white", "eyes", "blue", "gho",
                 "st", "ogre", "snow", "rab", "bit", "vei", "ler", "mir", "ror", "for", "ce", "sky", "stri", "ker",
                 "ace", "rai", "ze", "lyla", "light", "sworn", "sor", "ce", "ress", "hon", "est", "kur", "iboh"]
    words = sorted({"".join(rnd.choice(syllables) for _ in range(rnd.randint(1, 3))) for _ in range(6000)})
    names = sorted({" ".join(rnd.choice(words).capitalize() for _ in range(rnd.randint(2, 6))) for _ in range(n)})
    s = Suggester(names)
    s.suggest("warm up")
    s.suggest_part("warm up words")

    def typo(w: str) -> str:
        k = rnd.randrange(1, len(w)) if len(w) > 3 else 1
        return w[:k] + w[k + 1:]

    def timed(queries: list[str]) -> tuple[float, float, float]:
        times, found = [], 0
        for q in queries:
            t = clock()
            found += bool(s.suggest(q))
            times.append((clock() - t) * 1e3)
        times.sort()
        return statistics.median(times), times[int(len(times) * 0.95)], found / len(queries)

    sample = rnd.sample(names, 300)
    whole = [typo(x) for x in sample]
    parts = []
    for x in sample:
        ws = x.split()
        k = rnd.randrange(0, len(ws) - 1)
        parts.append(" ".join([ws[k], typo(ws[k + 1]) if len(ws[k + 1]) > 3 else ws[k + 1]]))
    w_med, w_p95, w_found = timed(whole)
    p_med, p_p95, p_found = timed(parts)
    print(json.dumps({"names": len(s), "whole_typo_ms": [round(w_med, 2), round(w_p95, 2)], "whole_found": w_found,
                      "part_typo_ms": [round(p_med, 2), round(p_p95, 2)], "part_found": round(p_found, 2),
                      "load": os.getloadavg()}))


def cmd_check(db_path: str, logs: list[str]) -> None:
    import subprocess

    files = []
    for p in logs:
        files += sorted(Path(p).rglob("*.duel")) if Path(p).is_dir() else [Path(p)]
    code = ("import sys,time; from replayer.check import check_match, read_log; "
            "fs=sys.argv[1:]; t=time.process_time(); [check_match(read_log(f)) for f in fs]; "
            "print(time.process_time()-t)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs: dict[str, list[float]] = {"builtin": [], "imported": []}
    for _ in range(int(os.environ.get("ROUNDS", "3"))):
        for label, cards in (("builtin", ""), ("imported", db_path)):
            out = subprocess.run([sys.executable, "-c", code, *map(str, files)], env={**env, "REPLAYER_CARDS_DB": cards},
                                 capture_output=True, text=True, check=True).stdout
            runs[label].append(float(out))
    best = {k: min(v) for k, v in runs.items()}
    print(json.dumps({"files": len(files), "builtin_s": round(best["builtin"], 3), "imported_s": round(best["imported"], 3),
                      "ratio": round(best["builtin"] / best["imported"], 3), "load": os.getloadavg()}))


def cmd_firstcheck(args: list[str]) -> None:
    import argparse
    import resource
    import shutil
    import statistics
    import subprocess

    sys.path.insert(0, str(ROOT / "bench"))
    from logs import ygo_log

    ap = argparse.ArgumentParser(prog="bench/cards.py firstcheck")
    ap.add_argument("db")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--against", metavar="DIR")
    ap.add_argument("--warm-reader", action="store_true")
    a = ap.parse_args(args)
    trees = {"this": str(ROOT)} | ({"against": str(Path(a.against).resolve())} if a.against else {})

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "big.duel"
        log.write_text(ygo_log(a.lines), encoding="utf-8")
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

        def run(tree: str, db: str, cache: Path | None) -> tuple[float, float, str]:
            home = Path(tmp) / "xdg"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(cache, home) if cache else home.mkdir()
            env = dict(base, PYTHONPATH=tree, XDG_CACHE_HOME=str(home), REPLAYER_CARDS_DB=db,
                       PYTHONPYCACHEPREFIX=str(Path(tmp) / ("pyc-" + Path(tree).name)))
            c, t = cpu(), time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "replayer", "check", "--format", "json", str(log)], env=env,
                                 cwd=tmp, capture_output=True, text=True).stdout
            return cpu() - c, time.perf_counter() - t, out

        caches: dict[str, Path | None] = {}
        outputs: dict[str, str] = {}
        for name, tree in trees.items():  # the bytecode compiled; the reader's caches of a run without the db
            run(tree, "none", None)
            caches[name] = None
            if a.warm_reader:
                caches[name] = Path(tmp) / f"cache-{name}"
                shutil.copytree(Path(tmp) / "xdg", caches[name])
            outputs[name] = run(tree, a.db, caches[name])[2]
        if len(set(outputs.values())) != 1:
            print("the trees' outputs differ", file=sys.stderr)
        unknown = outputs["this"].count("did you mean")
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(n, d): [] for n in trees for d in ("none", "db")}
        for i in range(a.pairs):
            order = list(trees) if i % 2 == 0 else list(trees)[::-1]
            for name in order:
                for d in (("none", "db") if i % 2 == 0 else ("db", "none")):
                    c, w, _ = run(trees[name], a.db if d == "db" else "none", caches[name])
                    times[(name, d)].append((c, w))
        result = {"lines": a.lines, "did_you_mean_findings": unknown, "pairs": a.pairs, "warm_reader": a.warm_reader}
        for name in trees:
            none, db = times[(name, "none")], times[(name, "db")]
            result[name] = {"cpu_none_s": round(statistics.median(c for c, _ in none), 3),
                            "cpu_db_s": round(statistics.median(c for c, _ in db), 3),
                            "wall_none_s": round(statistics.median(w for _, w in none), 3),
                            "wall_db_s": round(statistics.median(w for _, w in db), 3),
                            "ratio_cpu": round(statistics.median(d[0] / n[0] for n, d in zip(none, db)), 3),
                            "ratio_wall": round(statistics.median(d[1] / n[1] for n, d in zip(none, db)), 3)}
        if a.against:
            result["db_this_over_against_cpu"] = round(statistics.median(
                t[0] / o[0] for t, o in zip(times[("this", "db")], times[("against", "db")])), 3)
        result["load"] = os.getloadavg()
        print(json.dumps(result, indent=1))


def cmd_suggestparts(args: list[str]) -> None:
    import argparse
    import statistics

    sys.path.insert(0, str(ROOT / "bench"))
    from logs import ygo_log

    ap = argparse.ArgumentParser(prog="bench/cards.py suggestparts")
    ap.add_argument("db")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--lines", type=int, default=100_000)
    a = ap.parse_args(args)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp  # (no kept suggestions)
        from replayer.cards import layers, nameindex, names
        from replayer.cards.db import CardDB
        from replayer.check import check_match, read_text
        from replayer.games import get as get_game

        t = time.process_time()
        import rapidfuzz.fuzz  # noqa: F401  (what the first suggestion imports)
        import rapidfuzz.process  # noqa: F401
        imported = time.process_time() - t
        asked: list[str] = []
        suggest = layers.LayeredCatalog.suggest
        layers.LayeredCatalog.suggest = lambda self, name, limit=3: asked.append(name) or suggest(self, name, limit)
        layers.use_cards_db(a.db)
        check_match(read_text(ygo_log(a.lines), "big.duel"))
        layers.LayeredCatalog.suggest = suggest
        layers.use_cards_db(None)
        spent: dict[str, float] = {}

        def timed(obj, attr: str, label: str) -> None:
            f = getattr(obj, attr)

            def w(*args, **kw):
                t = time.process_time()
                try:
                    return f(*args, **kw)
                finally:
                    spent[label] = spent.get(label, 0.0) + time.process_time() - t
            setattr(obj, attr, w)

        timed(nameindex.CountFilter, "candidates", "filters")
        timed(names.Suggester, "suggest_part", "parts of names")
        game = get_game("ygo")
        rounds: list[dict[str, float]] = []
        for _ in range(a.rounds):
            spent.clear()
            part: dict[str, float] = {}
            t = time.process_time()
            db = CardDB(a.db)
            cat = layers.LayeredCatalog(game.catalog, db)
            for n in asked:
                cat.find(n)
            part["lookups"] = time.process_time() - t
            t = time.process_time()
            index = db.suggest_index("ygo")
            part["reading the index"] = time.process_time() - t
            t = time.process_time()
            s = names.Suggester(cat._builtin_names(), db.keyed_names("ygo") if index is None else [], index)
            part["the suggester"] = time.process_time() - t
            t = time.process_time()
            for n in asked:
                s.suggest(n)
            part["suggestions"] = time.process_time() - t
            part.update(spent)
            db.close()
            rounds.append(part)
        out = {"names asked": len(asked), "rounds": a.rounds, "importing rapidfuzz (once)": round(imported * 1e3, 1)}
        for k in rounds[0]:
            out[k] = round(statistics.median(r[k] for r in rounds) * 1e3, 1)
        out["unit"] = "ms CPU, median of rounds (the filters and the parts of names are inside the suggestions; "\
                      "the filters of the words inside the parts of names)"
        out["load"] = os.getloadavg()
        print(json.dumps(out, indent=1))


def _with_kind(card, kind):
    """The imported effects' Damage Step timings, re-derived with ``kind`` where the data had none."""
    from replayer.cards import derive
    from replayer.cards.importer import _effect_from_facts
    from replayer.games import get as get_game

    out = []
    for detail, timings in zip(card.effect_details, card.effect_timings):
        if detail.get("confidence") == "script" and card.kind is None and kind:
            out.append(derive.effect_words(_effect_from_facts(detail, 0), kind, get_game("ygo"))[1])
        else:
            out.append(timings)
    return out


def cmd_agreement(db_path: str) -> None:
    from replayer.cards import derive
    from replayer.cards.db import CardDB
    from replayer.games import get as get_game

    db = CardDB(db_path)
    cat = get_game("ygo").catalog
    both = agree = 0
    report = []
    for c in cat.cards:
        imp = next((hit for n in c.names.values() if (hit := db.find("ygo", n)) is not None), None)
        if imp is None:
            continue
        both += 1
        issues = []
        if imp.kind and c.kind and imp.kind != c.kind and {imp.kind, c.kind} != {"effect-monster", "flip-monster"}:
            issues.append(f"kind: catalog {c.kind}, imported {imp.kind}")
        theirs = _with_kind(imp, c.kind)
        for i, e in enumerate(list(c.effects) or [frozenset()], 1):
            p = c.props | e
            if not p - {c.kind, "continuous", "piercing", "targets"} and "monster" in (c.kind or ""):
                continue  # a monster's continuous effect: nothing activated
            mine = derive.replayer_timings(p, c.kind, get_game("ygo"))
            if mine not in theirs:
                order = derive.ALL
                issues.append(f"effect {i} {{{', '.join(sorted(p - {c.kind}))}}}: catalog allows "
                              f"[{', '.join(t for t in order if t in mine) or 'none'}]; the script's effects allow "
                              + "; ".join(f"{src.split(' ')[0]} [{', '.join(t for t in order if t in ts) or 'none'}]"
                                          for src, ts in zip(imp.effect_sources, theirs)))
        if issues:
            report.append((c.id, issues))
        else:
            agree += 1
    print(f"{both} built-in cards also in the imported data; {agree} agree ({agree / max(both, 1):.0%})")
    for name, issues in report:
        print(f"- {name}")
        for i in issues:
            print(f"    {i}")


def cmd_coverage(db_path: str) -> None:
    import sqlite3

    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT source, complete FROM cards WHERE game='ygo' AND source LIKE '%(script)'").fetchall()
    full = sum(c for _, c in rows)
    print(f"{full} of {len(rows)} scripts read completely: {full / max(len(rows), 1):.2%}")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:] or ["help"]
    {"import": cmd_import, "lookup": lambda a: cmd_lookup(a[0]), "check": lambda a: cmd_check(a[0], a[1:]),
     "agreement": lambda a: cmd_agreement(a[0]), "coverage": lambda a: cmd_coverage(a[0]),
     "suggest": lambda a: cmd_suggest(int(a[0]) if a else 27_000), "firstcheck": cmd_firstcheck,
     "suggestparts": cmd_suggestparts}.get(
        cmd, lambda a: print(__doc__))(args) if cmd != "import" else cmd_import(args)
