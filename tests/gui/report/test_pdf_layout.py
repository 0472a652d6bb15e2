"""The PDF report laid out for paper: one page for one finding, a footer naming the match on every
page with page numbers (issue 14, point 10)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pathlib import Path

from PySide6.QtGui import QImage

from replayer.check import check_file
from replayer.export.report import write_pdf

from ..pdftext import page_count, pdf_text

ROOT = Path(__file__).resolve().parents[3]


def test_one_finding_is_one_page_with_a_footer(tmp_path):
    out = write_pdf(check_file(ROOT / "samples" / "ygo" / "honest-in-calc.duel"), None, tmp_path / "r.pdf")
    assert page_count(out) == 1
    text = pdf_text(out)
    assert "page 1 of 1" in text
    assert "honest-in-calc.duel · A Yuki vs B Kaiba · rules current" in text


def test_the_findings_table_spans_the_page(tmp_path):
    if shutil.which("pdftoppm") is None:  # .ci/run installs poppler-utils: there this always runs
        pytest.skip("pdftoppm (Debian: poppler-utils) is not installed: the page cannot be looked at")
    out = write_pdf(check_file(ROOT / "samples" / "ygo" / "honest-in-calc.duel"), None, tmp_path / "r.pdf")
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(out), str(tmp_path / "page")], check=True, timeout=60)
    image = QImage(str(next(tmp_path.glob("page*.png"))))
    # the rightmost non-white pixel above the footer: the tables reach the right margin (15 mm of 210)
    right = max(x for y in range(0, int(image.height() * 0.8), 3) for x in range(image.width() - 1, -1, -1)
                if QImage.pixelColor(image, x, y).lightness() < 235)
    assert right > image.width() * 0.85
