"""The PDF report laid out for paper (issue 14, point 10), tested the way it was found: a log with
many findings and long notes, rendered to PDF, every page looked at.

- no table row is split by a page break: every table of the layout lies on one page (the layout's
  own rectangles), and on every page image each stretch of a table's right border starts and ends
  at a horizontal rule (a row cut by the page edge has its border run into the margin);
- every table spans the text width and reaches the right margin;
- page 1 opens with the header block (match, players, rules, reviewer, date), every page has
  the footer with "page N of M", no page is blank, a page that continues a table repeats its
  column headings;
- Japanese text is laid out and kept as text.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from replayer.check import check_file
from replayer.export.report import report_html, write_pdf

from gui.pdftext import page_count, pdf_text

pytest.importorskip("PySide6")

from PySide6.QtGui import QFontDatabase, QImage  # noqa: E402

from replayer.gui.report import pdf, split as pdf_split  # noqa: E402

NOTE = ("The judge watched the footage again: Honest was activated during damage calculation, after "
        "the window closed, and the player said he thought the window was still open. ")
NOTE_JA = "ジャッジは攻撃宣言の後、ダメージ計算中にオネストが発動されたことを確認しました。"


def _log(tmp_path: Path, findings: int, *, japanese: bool = False, note_repeat=lambda k: 1 + k % 4,
         name: str = "many.duel") -> Path:
    """A log with ``findings`` illegal Honest activations, each with a note of its own length."""
    a, b = ("遊城十代", "海馬瀬人") if japanese else ("Yuki", "Kaiba")
    lines = ['[Game "ygo"]', f'[A "{a}"]', f'[B "{b}"]', '[Reviewer "J. Tanaka"]', '[Date "2024-05-18"]',
             '[Event "Regional"]', '[LP "8000"]', ""]
    for k in range(findings):
        note = (NOTE_JA if japanese else NOTE) * note_repeat(k)
        honest = "オネスト" if japanese else "Honest"
        lines += [f"turn {2 * k + 3} A", "phase battle", f"# {note}",
                  'A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500',
                  "step damage", "timing ds-start", "timing before-calc", "timing calc",
                  f'A: activate "{honest}" from hand   # {note[:100]}', "resolve", "timing after-calc",
                  "timing ds-end", "step battle"]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _assert_laid_out_for_paper(paper: pdf.PaperLayout, headings_on_every_page: bool = True) -> None:
    crossing = [k for k, r in enumerate(paper.tables) if paper.crosses(r) and k not in paper.too_tall]
    assert crossing == [], f"tables across a page boundary: {crossing}"
    assert paper.blank_pages == []
    for r in paper.tables:  # every table spans the text width
        assert abs(r.width() - paper.width) < 1.5, (r.width(), paper.width)
    for page in range(paper.pages):  # a page that goes on with a table starts with its column headings
        on = [k for k, r in enumerate(paper.tables)
              if paper.page_of(r.top() + 0.01) <= page <= paper.page_of(r.bottom() - 0.01)]
        if headings_on_every_page and on and paper.page_of(paper.tables[on[0]].top() + 0.01) == page:
            assert paper.kinds[on[0]] != "row", f"page {page + 1} continues a table without its headings"


def test_no_table_crosses_a_page_boundary_in_a_long_report(tmp_path):
    result = check_file(_log(tmp_path, 40))
    assert len(result.findings) == 40
    html = report_html(result, None, for_pdf=True)
    paper = pdf.lay_out(html)
    assert paper.pages >= 8 and paper.headings_repeated >= 1 and paper.too_tall == []
    _assert_laid_out_for_paper(paper)
    # the same document without the page breaks splits rows: the test data do meet the problem
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QTextDocument

    plain = QTextDocument()
    plain.setHtml(html)
    plain.setDocumentMargin(0)
    plain.setPageSize(QSizeF(paper.width, paper.page_height))
    rects = [pdf._rect(plain, e) for e in pdf._elements(plain) if pdf._is_table(e)]
    assert any(paper.crosses(r) for r in rects)


@pytest.mark.parametrize("repeat", [60, 150])
def test_a_row_taller_than_a_page_is_cut_into_rows_that_fit(tmp_path, repeat):
    """A note longer than a page (one page and a bit; three pages): its row is cut between two
    lines into rows that each fit a page under the column headings, each after the first saying
    "(continued)", and every page image shows whole rows."""
    long = lambda k: repeat if k == 2 else 1  # noqa: E731  # the third note: longer than a page
    result = check_file(_log(tmp_path, 6, note_repeat=long))
    html = report_html(result, None, for_pdf=True)
    paper = pdf.lay_out(html)
    assert paper.rows_cut == 1  # the note's row in the notes of the log (a finding quotes 100 characters)
    assert paper.too_tall == []
    _assert_laid_out_for_paper(paper)
    out = write_pdf(result, None, tmp_path / "tall.pdf")
    for png in _pages(out, tmp_path, 100):
        _check_page(png, 100)
    # the whole note is there, in order, cut between words, the pieces after the first marked
    note = (NOTE * repeat).strip()
    cells = [e.cellAt(0, 1).firstCursorPosition() for e in pdf._elements(paper.document)
             if pdf._is_table(e) and e.columns() == 2 and e.rows() == 1]
    texts = []
    for cursor in cells:
        cursor.movePosition(cursor.MoveOperation.EndOfBlock, cursor.MoveMode.KeepAnchor)
        texts.append(cursor.selectedText())
    pieces = [t for t in texts if t.startswith(pdf_split.CONTINUED) or note.startswith(t.strip()[:200])]
    pieces = [t for t in pieces if len(t) > 200]
    assert len(pieces) >= (2 if repeat == 60 else 4)
    assert not pieces[0].startswith(pdf_split.CONTINUED)
    assert all(t.startswith(pdf_split.CONTINUED) for t in pieces[1:])
    joined = " ".join(t.removeprefix(pdf_split.CONTINUED).strip() for t in pieces)
    assert " ".join(joined.split()) == " ".join(note.split())
    assert pdf_text(out).count("(continued)") == len(pieces) - 1


def _ink_rows(image: QImage):
    gray = image.convertToFormat(QImage.Format_Grayscale8)
    return gray, gray.bytesPerLine(), bytes(gray.constBits())


def _check_page(png: Path, dpi: int) -> None:
    """A page image: margins blank, the tables' right border at the right margin, and every stretch
    of that border opening and closing on a horizontal rule (no row cut by the page's edge)."""
    image, bpl, data = _ink_rows(QImage(str(png)))
    w, h = image.width(), image.height()
    margin = round(15 / 25.4 * dpi)
    body_bottom = int(h - margin - pdf.FOOTER / 96 * dpi) - 1
    ink = 235  # lighter than a table's border (#d9dde5), darker than the heading's background

    def dark(x: int, y: int) -> bool:
        return data[y * bpl + x] < ink

    for y in list(range(margin - 3)) + list(range(h - margin + 3, h)):  # the top and bottom margins
        assert min(data[y * bpl: y * bpl + w]) >= ink, f"{png.name}: ink in the margin at y={y}"
    # the right border: the column near the right margin with the most ink in the text area
    counts = {x: sum(dark(x, y) for y in range(margin, body_bottom)) for x in range(w - margin - 8, w - margin + 8)}
    right = max(counts, key=counts.get)
    if counts[right] == 0:
        return  # no table on this page
    assert abs(right - (w - margin)) <= 3, f"{png.name}: the tables end at x={right}, the margin is at {w - margin}"

    def rule(y: int) -> bool:
        row = data[y * bpl + margin + 3: y * bpl + right - 3]
        return sum(v < ink for v in row) > 0.9 * len(row)

    runs, y = [], margin - 3
    while y < body_bottom + 3:
        if dark(right, y):
            start = y
            while y < body_bottom + 3 and (dark(right, y) or dark(right, y + 1) or dark(right, y + 2)):
                y += 1  # (stacked row tables may leave a pixel between them)
            runs.append((start, y))
        y += 1
    assert runs
    for start, end in runs:
        assert any(rule(t) for t in range(max(start - 3, 0), start + 4)), \
            f"{png.name}: a table's border starts at y={start} with no rule: a row cut at the page's top"
        assert any(rule(t) for t in range(end - 3, min(end + 4, h))), \
            f"{png.name}: a table's border ends at y={end} with no rule: a row cut at the page's foot"


def _pages(pdf_path: Path, tmp_path: Path, dpi: int) -> list[Path]:
    if shutil.which("pdftoppm") is None:  # .ci/run installs poppler-utils: there this always runs
        pytest.skip("pdftoppm (Debian: poppler-utils) is not installed: the pages cannot be looked at")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf_path), str(tmp_path / "page")],
                   check=True, timeout=300)
    return sorted(tmp_path.glob("page*.png"))


@pytest.mark.parametrize("findings", [1, 40])
def test_every_page_of_the_pdf_looked_at(tmp_path, findings):
    out = write_pdf(check_file(_log(tmp_path, findings)), None, tmp_path / "report.pdf")
    pages = _pages(out, tmp_path, 150)
    assert len(pages) == page_count(out) and (len(pages) == 1 if findings == 1 else len(pages) >= 8)
    for png in pages:
        _check_page(png, 150)
    text = pdf_text(out)
    # the header block on page 1, the footer and page numbers on every page
    assert "Match many.duel · Regional Rules current" in text
    assert "Players A Yuki · B Kaiba Reviewer J. Tanaka Date 2024-05-18" in text
    assert "Other header tags LP 8000" in text
    for k in range(1, len(pages) + 1):
        assert f"many.duel · A Yuki vs B Kaiba · rules current · reviewer J. Tanaka · date 2024-05-18 page {k} of {len(pages)}" in text


def test_the_old_layout_fails_the_page_check(tmp_path, monkeypatch):
    """The page check itself finds a cut row: the report printed without the page breaks."""
    from PySide6.QtCore import QSizeF

    def no_page_breaks(doc, width, height, **_):
        doc.setPageSize(QSizeF(width, height))
        return 0, 0, None

    monkeypatch.setattr(pdf, "keep_tables_whole", no_page_breaks)
    out = pdf.html_to_pdf(report_html(check_file(_log(tmp_path, 12)), None, for_pdf=True), tmp_path / "old.pdf")
    pages = _pages(out, tmp_path, 150)
    failures = 0
    for png in pages:
        try:
            _check_page(png, 150)
        except AssertionError:
            failures += 1
    assert failures >= 2


def test_japanese_text_is_laid_out_and_kept_as_text(tmp_path):
    families = " ".join(QFontDatabase.families())
    if "CJK" not in families and "Noto Sans JP" not in families:
        pytest.skip("no font for Japanese is installed (Debian: fonts-noto-cjk)")
    result = check_file(_log(tmp_path, 12, japanese=True, name="jp.duel"))
    paper = pdf.lay_out(report_html(result, None, for_pdf=True))
    _assert_laid_out_for_paper(paper)
    out = write_pdf(result, None, tmp_path / "jp.pdf")
    text = pdf_text(out)
    assert "A 遊城十代 · B 海馬瀬人" in text
    assert NOTE_JA in text.replace(" ", "")  # (the text comes back in runs, a space between them)
    for png in _pages(out, tmp_path, 150):
        _check_page(png, 150)


def test_the_progress_goes_from_nought_to_one_and_names_the_pages(tmp_path):
    calls: list[tuple[float, str]] = []
    result = check_file(_log(tmp_path, 30))
    out = write_pdf(result, None, tmp_path / "report.pdf", progress=lambda f, text: calls.append((f, text)))
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    pages = page_count(out)
    texts = [t for _, t in calls]
    assert "Laying out the pages" in texts
    assert [t for t in dict.fromkeys(texts) if t.startswith("Writing page")] == \
        [f"Writing page {k} of {pages}" for k in range(1, pages + 1)]
    # the layout reports as it goes: more than a start and an end before the pages are drawn
    during = {round(f, 3) for f, t in calls if t == "Laying out the pages"}
    assert len(during) >= 3 and max(during) <= pdf.LAYOUT_SHARE
    assert len(calls) >= 20  # often enough for a Cancel to be heard soon


@pytest.mark.parametrize("at", [0.0, 0.3, 0.95])
def test_a_cancelled_export_writes_nothing_and_keeps_the_old_file(tmp_path, at):
    target = tmp_path / "report.pdf"
    target.write_bytes(b"the report of yesterday")
    seen = []

    def progress(fraction, text):
        seen.append(fraction)
        if fraction >= at and (at < pdf.LAYOUT_SHARE or text.startswith("Writing")):
            raise pdf.Cancelled()

    with pytest.raises(pdf.Cancelled):
        write_pdf(check_file(_log(tmp_path, 20)), None, target, progress=progress)
    assert target.read_bytes() == b"the report of yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.duel", "report.pdf"]  # no part file left
    assert max(seen) < 1.0


def test_an_export_replaces_the_file_whole(tmp_path):
    import os
    import stat

    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_pdf(check_file(_log(tmp_path, 2)), None, target)
    assert target.read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.duel", "report.pdf"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the old file's permissions
    fresh = write_pdf(check_file(_log(tmp_path, 2)), None, tmp_path / "fresh.pdf")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # a new file's usual ones
