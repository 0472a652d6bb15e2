"""Reports when things go wrong (issue 22, points 16 to 18): a full disk while a report is
written (``ulimit -f`` in a subprocess, and writes patched to raise ENOSPC), a log with megabyte
names and verdict notes (the PDF's time linear in the text, long text cut with a mark), and a
``[Video]`` that is not a web address (a ``syntax.header`` finding; the report links no footage)."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from replayer.check import check_file, check_text
from replayer.export import report as report_mod
from replayer.export.report import pdf_parts, report_html, write_html, write_pdf
from replayer.reviews import CONFIRMED, Reviews

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "ygo" / "honest-in-calc.duel"


class _Memory:
    """Verdicts kept in memory (a test's reviewer)."""

    def __init__(self):
        self.entries = []

    def load(self, path):
        return list(self.entries)

    def save(self, path, entries):
        self.entries = list(entries)


def _sample(tmp_path: Path) -> Path:
    log = tmp_path / "honest-in-calc.duel"
    log.write_bytes(SAMPLE.read_bytes())
    return log


def _report(tmp_path: Path, log: Path, out: Path, *, limit: int | None = None) -> subprocess.CompletedProcess:
    """``replayer report LOG -o OUT`` in a process of its own, its files limited to ``limit``
    bytes (``ulimit -f``: a write beyond it fails with EFBIG, as on a full disk)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", REPLAYER_CARDS_DB="", HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"))

    def limited():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "replayer", "report", str(log), "-o", str(out), "--no-progress",
                           "--db", str(tmp_path / "no-library.db")],
                          env=env, preexec_fn=limited, capture_output=True, text=True, timeout=300)


def _beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith("." + out.name) or p.name == out.name)


# ---- 16: a full disk ----------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".html", ".pdf"])
def test_a_full_disk_leaves_the_old_report_whole_and_says_so(tmp_path, suffix):
    log = _sample(tmp_path)
    out = tmp_path / f"report{suffix}"
    good = _report(tmp_path, log, out)
    assert good.returncode == 0, good.stderr
    old = out.read_bytes()
    full = _report(tmp_path, log, out, limit=len(old) // 2)
    assert full.returncode != 0, (full.stdout, full.stderr)
    assert "the report was not written" in full.stderr and "the disk is full" in full.stderr, full.stderr
    assert f"the older {out} is as it was" in full.stderr
    assert "Traceback" not in full.stderr
    assert out.read_bytes() == old  # whole, the same bytes
    assert _beside(out) == [out.name]  # no temporary left


@pytest.mark.parametrize("suffix", [".html", ".pdf"])
def test_a_write_that_fails_half_way_leaves_the_old_report(tmp_path, monkeypatch, suffix):
    """Every write is checked: one that fails after taking a part of its bytes (ENOSPC) is an
    error, never a shorter file."""
    result = check_file(str(_sample(tmp_path)))
    out = tmp_path / f"report{suffix}"
    out.write_bytes(b"the old report, whole")
    real_write = os.write

    def full(fd, data):
        if len(data) > 100:
            real_write(fd, bytes(data)[:100])
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as e:
        (write_pdf if suffix == ".pdf" else write_html)(result, None, out)
    assert e.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert out.read_bytes() == b"the old report, whole" and _beside(out) == [out.name]


def test_a_short_write_is_continued(tmp_path, monkeypatch):
    """A write that takes only a part of its bytes (allowed by POSIX) is continued, not taken for the whole."""
    from replayer.gui.shared.savefile import write_atomically

    data = bytes(range(256)) * 4000
    out = tmp_path / "report.html"
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, chunk: real_write(fd, bytes(chunk)[:1000]))
    write_atomically(out, data)
    monkeypatch.undo()
    assert out.read_bytes() == data and _beside(out) == [out.name]


# ---- 17: megabyte names and notes ---------------------------------------------------------------
def _long_log(n: int) -> str:
    name = ("Ab" * (n // 2 + 1))[:n]
    words = ("word " * (n // 5 + 1))[:n]
    return (f'[Game "ygo"]\n[A "{name}"]\n[B "{words}"]\n[Event "{name}"]\n\n# {words}\nturn 1 A\nphase battle\n'
            f'A: attack "{name}" 1700/200 -> direct\nstep damage\ntiming calc\nB: damage 1700\nB: lp 1\natack\n')


def _long(tmp_path: Path, n: int):
    log = tmp_path / f"long{n}.duel"
    log.write_text(_long_log(n), encoding="utf-8")
    result = check_file(str(log))
    reviews = Reviews(str(log), result.match.lines, backend=_Memory())
    for f in result.findings[:2]:
        reviews.set(f, CONFIRMED, ("Note" * (n // 4 + 1))[:n])
    return result, reviews


def test_megabyte_text_is_cut_on_paper_with_a_mark_and_whole_in_html(tmp_path):
    from replayer.export.report import CUT_MARK, LINE_CHARS, NAME_CHARS, NOTE_CHARS, VERDICT_CHARS

    n = 1 << 20
    result, reviews = _long(tmp_path, n)
    paper, title, footer = pdf_parts(result, reviews)
    assert len(paper) < 120_000, len(paper)  # of 6 MB of text
    assert len(title) <= NAME_CHARS and len(footer) < 400
    # where each cut is: after so many characters, the mark says how many more there were
    attack = next(line.strip() for line in result.match.lines if line.startswith("A: attack"))
    for limit, length in ((NAME_CHARS, n), (VERDICT_CHARS, n), (NOTE_CHARS, n), (LINE_CHARS, len(attack))):
        assert CUT_MARK.format(rest=f"{length - limit:,}") in paper, limit
    # the screen's report has every character
    screen = report_html(result, reviews)
    assert screen.count("Note" * (n // 4)) == 2 and screen.count("Ab" * (n // 2)) >= 2


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def test_the_pdf_time_is_linear_in_the_text(tmp_path):
    small, large = _long(tmp_path, 4_000), _long(tmp_path, 16_000)
    write_pdf(*small, tmp_path / "warm.pdf")  # Qt's fonts are loaded outside the measure
    t_small = min(_cpu(lambda: write_pdf(*small, tmp_path / "small.pdf")) for _ in range(2))
    t_large = _cpu(lambda: write_pdf(*large, tmp_path / "large.pdf"))
    # 4 times the text: linear about 4 (cut text: about 1); the layout of before took 16 times as long
    assert t_large < 4 * 2 * t_small + 0.5, (t_small, t_large)
    from replayer.gui.report.pdf import lay_out

    mark, name_chars, note_chars = report_mod.CUT_MARK, report_mod.NAME_CHARS, report_mod.VERDICT_CHARS

    drawn = lay_out(pdf_parts(*large)[0]).document.toPlainText()  # what the pages show
    assert mark.format(rest=f"{16_000 - note_chars:,}") in drawn and mark.format(rest=f"{16_000 - name_chars:,}") in drawn


# ---- 18: a [Video] that is not a web address ----------------------------------------------------
@pytest.mark.parametrize("address", ["https://[evil", "https://--option", "https://a b.com", "http://x.com:99999",
                                     "https://-x.com/v", "https://x.com\u202e/v"])
def test_a_bad_video_address_is_a_header_finding(tmp_path, address):
    text = f'[Game "ygo"]\n[A "Yuki"]\n[Video "{address}"]\n\n@0:05 turn 1 A\n'
    result = check_text(text, "web.duel")
    found = [f for f in result.findings if f.rule == "syntax.header"]
    assert len(found) == 1 and found[0].span.line == 3, result.findings
    assert "[Video] is not a web address" in found[0].message and found[0].hint
    # the report is written, with no link to footage
    log = tmp_path / "web.duel"
    log.write_text(text + "A: atack\n", encoding="utf-8")
    result = check_file(str(log))
    page = report_html(result, None)
    assert "href=" not in page and "@0:05" in page
    out = write_pdf(result, None, tmp_path / "web.pdf")
    assert out.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("address", ["https://www.youtube.com/watch?v=abc", "www.twitch.tv/videos/1",
                                     "https://[::1]:8080/v.mp4", "https://例え.jp/動画", "match.mp4",
                                     "C:\\videos\\match.mp4"])
def test_a_good_video_address_or_a_file_is_no_finding(address):
    result = check_text(f'[Game "ygo"]\n[Video "{address}"]\n\n@0:05 turn 1 A\n', "web.duel")
    assert not [f for f in result.findings if f.rule == "syntax.header"], result.findings


def test_a_killed_report_writer_leaves_nothing_after_the_next_report(tmp_path):
    """A report's writer killed half-way leaves its temporary; the next report of that name removes it."""
    log = _sample(tmp_path)
    out = tmp_path / "report.html"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stale = tmp_path / f".report.html.{child.pid}-0123abcd.tmp"
    stale.write_bytes(b"<html>half")
    write_html(check_file(str(log)), None, out)
    assert _beside(out) == [out.name]
