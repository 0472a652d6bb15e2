"""Run the samples of this folder against an imported card database and compare with their `expect:` notes.

    python samples/imported/check_samples.py CARDS_DB

CARDS_DB is a database made with `replayer cards import` from real card data (an EDOPro install and a
Duel Masters card list): these logs name cards that are not in the built-in catalog, so without it
they give only unknown-card warnings. Exit status 0 when every sample gives exactly its expected
findings (errors and warnings; a sample without `expect:` notes must give none).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECT = re.compile(r"expect:\s*([a-z-]+)\s+([\w.-]+)")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    os.environ["REPLAYER_CARDS_DB"] = argv[0]
    sys.path.insert(0, str(HERE.parent.parent))
    from replayer import check

    failed = 0
    samples = sorted(HERE.glob("*/*.duel"))
    for path in samples:
        result = check(path)
        expected = {(n.line, k, r) for n in result.match.notes for k, r in EXPECT.findall(n.text)}
        actual = {(f.line, f.kind.value, f.rule) for f in result.findings if f.severity.value in ("error", "warning")}
        ok = expected == actual
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {path.relative_to(HERE)}")
        if not ok:
            for f in result.findings:
                print(f"       got  {f.line}: {f.severity.value} {f.rule}: {f.message}" + (f"  [from {f.source}]" if f.source else ""))
            for line, kind, rule in sorted(expected - actual):
                print(f"       want {line}: {kind} {rule}")
    print(f"{len(samples) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
