"""The PDF report of a log with very long text: names and verdict notes of N characters.

    python bench/report_long_text.py [N ...]        (default: 1 MB names and notes)

Each run writes the PDF (and the HTML) of one log: the players' names, a card's name and a
note in the log each N characters long (a run without a space, the worst case for wrapping),
two findings on the card's line with verdict notes of N characters. Prints the seconds (CPU
time of this process) and the pages of each. issue 22 point 17: 1 MB took over 10 minutes.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def long_log(n: int) -> str:
    name = ("Ab" * (n // 2 + 1))[:n]
    words = ("word " * (n // 5 + 1))[:n]
    return (f'[Game "ygo"]\n[A "{name}"]\n[B "{words}"]\n[Event "bench"]\n\n'
            f"# {words}\nturn 1 A\nphase battle\n"
            f'A: attack "{name}" 1700/200 -> direct\nstep damage\ntiming calc\nB: damage 1700\n'
            f"B: lp 1\natack\n")


def run(n: int, folder: Path) -> tuple[float, float, int]:
    from replayer.check import check_file
    from replayer.export.report import write_html, write_pdf
    from replayer.reviews import CONFIRMED, DISMISSED, Reviews

    log = folder / f"long{n}.duel"
    log.write_text(long_log(n), encoding="utf-8")
    result = check_file(str(log))

    class Memory:
        def __init__(self):
            self.entries = []

        def load(self, path):
            return list(self.entries)

        def save(self, path, entries):
            self.entries = list(entries)

    reviews = Reviews(str(log), result.match.lines, backend=Memory())
    note = ("Note" * (n // 4 + 1))[:n]
    for k, f in enumerate(result.findings[:2]):
        reviews.set(f, CONFIRMED if k == 0 else DISMISSED, note)
    t0 = time.process_time()
    write_html(result, reviews, folder / f"long{n}.html")
    t1 = time.process_time()
    out = write_pdf(result, reviews, folder / f"long{n}.pdf")
    t2 = time.process_time()
    pages = out.read_bytes().count(b"/Type /Page\n") or out.read_bytes().count(b"/Type /Page")
    return t1 - t0, t2 - t1, pages


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1 << 20]
    folder = Path(tempfile.mkdtemp(prefix="replayer-long-"))
    print(f"{'characters':>12} {'html s':>8} {'pdf s':>8} {'pages':>6}")
    for n in sizes:
        html_s, pdf_s, pages = run(n, folder)
        print(f"{n:>12,} {html_s:8.2f} {pdf_s:8.2f} {pages:>6}", flush=True)
    print(f"(files in {folder})")


if __name__ == "__main__":
    main(sys.argv[1:])
