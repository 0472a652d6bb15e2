"""Agreement with a set of Duel Masters ability logs (one attack-relevant ability of one card each).

    python bench/dm_abilities.py PATH_TO_JSONL [--cards-db DB] [-v]

Each row of the JSON-lines file is ``{"id", "family", "errors", "log"}``: ``errors`` is a list of
``{"lines": [...], "kinds": [...]}``, one an expected mistake, with the lines where it may be
reported and the kinds allowed; empty, the log is legal. A row passes when every expected mistake
gets an error of an allowed kind on one of its lines and no other line gets an error (warnings and
infos do not count). The logs are written to a temporary folder and checked by one
``replayer check --format json`` (with ``--cards-db DB``: the logs name cards of an imported Duel
Masters card list, ``replayer cards import CARDS.json --cards-db DB``; default: the environment's
``REPLAYER_CARDS_DB``). Prints the pass rate a family (the family's case: ``blk-L1``) and overall;
``-v`` lists the failing rows with the errors they got. Not a test: figures go to docs/rules-dm.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path


def read_rows(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except ValueError as e:
                    sys.exit(f"{path}:{n}: not JSON ({e})")
    return rows


def check_logs(rows: list[dict], cards_db: str | None) -> dict[str, list[dict]]:
    """Row id -> the findings ``replayer check --format json`` gives its log."""
    with tempfile.TemporaryDirectory(prefix="dm-abilities-") as tmp:
        names = {}
        for i, r in enumerate(rows):
            name = f"{i:05d}.duel"
            names[name] = r["id"]
            (Path(tmp) / name).write_text(r["log"], encoding="utf-8")
        cmd = [sys.executable, "-m", "replayer", "check", "--format", "json", "--color", "never", tmp]
        if cards_db:
            cmd[4:4] = ["--cards-db", cards_db]
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        out = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if out.returncode not in (0, 1):
            sys.exit(f"replayer check failed ({out.returncode}): {out.stderr[-2000:]}")
        found: dict[str, list[dict]] = {}
        for line in out.stdout.splitlines():
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            found[names[Path(obj["file"]).name]] = obj["findings"]
    return found


def judge(row: dict, findings: list[dict]) -> tuple[bool, str]:
    """(passes, why not)."""
    errors = [f for f in findings if f["severity"] == "error"]
    listed = {n for group in row["errors"] for n in group["lines"]}
    stray = [f for f in errors if f["line"] not in listed]
    missing = [g for g in row["errors"]
               if not any(f["line"] in g["lines"] and f["kind"] in g["kinds"] for f in errors)]
    why = []
    if stray:
        why.append("unexpected " + "; ".join(f"{f['line']}: {f['rule']} ({f['kind']})" for f in stray))
    if missing:
        why.append("missing " + "; ".join(f"line {'/'.join(map(str, g['lines']))} {'|'.join(g['kinds'])}"
                                          for g in missing))
    return not why, ", ".join(why)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl", type=Path)
    ap.add_argument("--cards-db", help="the imported Duel Masters card database")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the failing rows")
    args = ap.parse_args()
    rows = read_rows(args.jsonl)
    found = check_logs(rows, args.cards_db)
    by_family: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failing = []
    for r in rows:
        ok, why = judge(r, found.get(r["id"], []))
        fam = by_family[r["family"]]
        fam[1] += 1
        if ok:
            fam[0] += 1
        else:
            failing.append((r["id"], why))
    passed = sum(p for p, _ in by_family.values())
    for family, (p, n) in sorted(by_family.items()):
        print(f"{family:8} {p:5} / {n:<5} {p / n:7.1%}")
    print(f"{'all':8} {passed:5} / {len(rows):<5} {passed / max(len(rows), 1):7.1%}")
    if args.verbose:
        for rid, why in failing:
            print(f"FAIL {rid}: {why}")


if __name__ == "__main__":
    main()
