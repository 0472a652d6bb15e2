"""Agreement with the real engine on the Damage Step: run by hand, never by the tests.

    python bench/agreement.py VERDICTS.jsonl [--cards-db DB] [-v] [--rows N] [--show CLASS]

VERDICTS is a file of engine verdicts (one JSON object a line: ``id``, ``code``, ``name``,
``setup``, ``placement``, ``side``, ``timing``, ``engine`` ``offered``/``refused``,
``activation_line``, ``log``), e.g. ``../shared/engine/verdicts.jsonl``. Each row's log is checked
with the card database (``--cards-db``, else the one ``replayer`` would use); a row agrees when the
activation line has no error exactly where the engine offered the activation (an info such as
``ygo.effect.assumed`` is not an error). Prints the agreement per timing, per setup, per
placement and per disagreement class; ``-v`` lists the disagreeing rows, ``--show false-error``
or ``--show miss`` only those of one kind.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def judge(row: dict, findings) -> str:
    """``agree``, ``false-error`` (the engine offered, replayer gave an error) or ``miss``."""
    line = row["activation_line"]
    errors = [f for f in findings if f.span.line == line and f.severity.value == "error"]
    offered = row["engine"] == "offered"
    if offered:
        return "false-error" if errors else "agree"
    return "agree" if errors else "miss"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("verdicts")
    ap.add_argument("--cards-db")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--rows", type=int, default=0, help="only the first N rows")
    ap.add_argument("--show", choices=["false-error", "miss"])
    ap.add_argument("--card", help="only the rows of this passcode")
    ap.add_argument("--json", help="write each row's verdict to this file")
    args = ap.parse_args()

    from replayer.cards.layers import use_cards_db
    from replayer.check import check_text

    if args.cards_db:
        use_cards_db(args.cards_db)
    rows = [json.loads(line) for line in open(args.verdicts, encoding="utf-8")]
    if args.card:
        rows = [r for r in rows if str(r["code"]) == args.card]
    if args.rows:
        rows = rows[: args.rows]
    by: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    rules: collections.Counter = collections.Counter()
    out = []
    t = time.perf_counter()
    for r in rows:
        result = check_text(r["log"], r["id"] + ".duel", None)
        verdict = judge(r, result.findings)
        for key in ("timing", "setup"):
            by[f"{key}:{r[key]}"][verdict] += 1
        by["placement:" + r["placement"].replace("+resp", "") + ("+resp" if "+resp" in r["placement"] else "")][verdict] += 1
        by["all"][verdict] += 1
        if verdict != "agree":
            on_line = [f for f in result.findings if f.span.line == r["activation_line"]]
            rule = ",".join(sorted({f.rule for f in on_line if f.severity.value == "error"})) or "-"
            rules[(verdict, rule)] += 1
            if args.v and (args.show in (None, verdict)):
                print(f"{verdict:12} {r['id']:55} {r['name'][:32]:32} {rule}")
        out.append({"id": r["id"], "verdict": verdict})
    elapsed = time.perf_counter() - t
    if args.json:
        Path(args.json).write_text("\n".join(json.dumps(o) for o in out) + "\n", encoding="utf-8")

    def line(name: str, c: collections.Counter) -> str:
        n = sum(c.values())
        return (f"{name:28} {n:7,} rows  {100 * c['agree'] / n:6.2f} %  "
                f"false errors {c['false-error']:5,}  misses {c['miss']:5,}")

    for key in sorted(by, key=lambda k: (k != "all", k)):
        print(line(key, by[key]))
    # A row whose log names no effect (`replayer_effect` null) asks about one effect the log cannot name: the
    # line means any effect of the card (notation §3), so where the engine offered another effect of the card
    # at the same point, "no error" is the right verdict on the log. Counted apart, never mixed in above.
    offered_at = {(r["code"], r["setup"], r["placement"], r["side"], r["timing"]) for r in rows
                  if r["engine"] == "offered"}
    verdicts = {o["id"]: o["verdict"] for o in out}
    readable = sum(1 for r in rows if verdicts[r["id"]] == "miss" and r["engine"] == "refused"
                   and (r.get("effect") or {}).get("replayer_effect") is None
                   and (r["code"], r["setup"], r["placement"], r["side"], r["timing"]) in offered_at)
    if readable:
        agree = by["all"]["agree"] + readable
        print(f"\nas the logs read: {100 * agree / len(rows):6.2f} % — {readable} misses are rows whose log names "
              "no effect, where the engine offered another effect of the card at the same point (a legal reading)")
    print("\nby class (verdict, the error rules on the activation line):")
    for (verdict, rule), n in rules.most_common(25):
        print(f"  {n:6,}  {verdict:12} {rule}")
    print(f"\n{len(rows):,} rows in {elapsed:.1f} s ({os.getloadavg()[0]:.1f} load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
