"""PNG, HTML and PDF exports: valid files with the expected content, user text escaped."""

from __future__ import annotations

import html
from html.parser import HTMLParser

from PySide6.QtGui import QImage

from replayer.reviews import CONFIRMED, DISMISSED

from ..conftest import open_and_wait
from ..pdftext import page_count, pdf_text

NASTY = """\
[Game "ygo"]
[A "Yuki & <Sons>"]
[B "海馬"]
[Event "Test <Regional> & Co"]

turn 1 A
A: activate "<script>alert(1)</script>"   # see "this" & <that>
A: atack "Lyla" -> direct
"""


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def _open(qtbot, window, tmp_path, text=NASTY):
    path = tmp_path / "nasty.duel"
    path.write_text(text, encoding="utf-8")
    doc = open_and_wait(qtbot, window, path)
    return path, doc


def test_html_report_escapes_user_text(qtbot, window, tmp_path):
    path, doc = _open(qtbot, window, tmp_path)
    bad = next(k for k, f in enumerate(doc.findings) if f.rule == "syntax.line")
    window.select_finding(bad)
    window.findings.set_verdict(DISMISSED, "transcriber's <typo> & nothing more")
    out = window.export("html", str(tmp_path / "report.html"))
    text = open(out, encoding="utf-8").read()
    assert "<script>" not in text and "<Regional>" not in text and "<typo>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert html.escape("Test <Regional> & Co") in text
    assert html.escape("transcriber's <typo> & nothing more", quote=True) in text
    parser = _Collect()
    parser.feed(text)
    assert "script" not in parser.tags
    body = "".join(parser.text)
    for f in doc.findings:
        assert f.rule in body and f.message in body
    assert "dismissed" in body and "Yuki & <Sons>" in body and "海馬" in body


def test_pdf_report_is_a_valid_pdf_with_the_findings(qtbot, window, tmp_path):
    path, doc = _open(qtbot, window, tmp_path)
    bad = next(k for k, f in enumerate(doc.findings) if f.rule == "syntax.line")
    window.select_finding(bad)
    window.findings.set_verdict(CONFIRMED, "seen at 12:40")
    out = window.export("pdf", str(tmp_path / "report.pdf"))
    data = open(out, "rb").read()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert page_count(out) >= 1
    text = pdf_text(out)
    assert "Review report: nasty.duel" in text
    assert "syntax.line" in text
    assert "confirmed" in text and "seen at 12:40" in text
    assert "<script>alert(1)</script>" in text  # shown as text, as the user wrote it
    assert "Test <Regional> & Co" in text


def test_png_export_is_the_timeline(qtbot, window, tmp_path):
    path, doc = _open(qtbot, window, tmp_path)
    out = window.export("png", str(tmp_path / "timeline.png"))
    image = QImage(out)
    assert not image.isNull()
    assert image.size() == window.timeline.viewport().size()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 10


def _made_to_open(qtbot, path):
    from replayer.gui.app import MainWindow

    w = MainWindow(theme="light", opening=str(path))
    qtbot.add_widget(w)
    return w


def test_a_window_made_to_open_a_log_checks_it_while_it_is_built(qtbot, ygo_log):
    """``MainWindow(opening=path)`` (what ``replayer view FILE`` makes) starts the check before the
    window's parts are built; the first ``open_path`` of that file takes the request: one check."""
    w = _made_to_open(qtbot, ygo_log)
    assert w.loader.generation == 1  # (requested in __init__)
    w.resize(1400, 900)
    w.show()
    doc = open_and_wait(qtbot, w, ygo_log)
    assert w.loader.generation == 1 and not w.loader.pending()
    assert doc is w.doc and doc.path == str(ygo_log) and doc.findings
    assert doc.first_event() in doc.trees  # (requested as an open's: the first state made by the loader)
    assert w.log_pane.view.plain_text().splitlines() == ygo_log.read_text(encoding="utf-8").splitlines()
    w.loader.wait(10_000)


def test_a_log_changed_or_another_opened_is_checked_anew(qtbot, ygo_log, dm_log):
    w = _made_to_open(qtbot, ygo_log)
    ygo_log.write_text(ygo_log.read_text(encoding="utf-8") + "phase main2\n", encoding="utf-8")
    doc = open_and_wait(qtbot, w, ygo_log)  # the bytes changed since: a request of their own
    assert w.loader.generation == 2 and doc.events[-1].kind == "phase"
    w2 = _made_to_open(qtbot, ygo_log)
    doc = open_and_wait(qtbot, w2, dm_log)  # another file: its own request; the first answer is dropped
    assert w2.loader.generation == 2 and doc.path == str(dm_log) and doc.match.game == "dm"
    doc = open_and_wait(qtbot, w2, ygo_log)  # (taken once only)
    assert w2.loader.generation == 3
    for x in (w, w2):
        x.loader.wait(10_000)


def test_a_window_made_to_open_a_missing_log_starts_nothing(qtbot, tmp_path):
    w = _made_to_open(qtbot, tmp_path / "gone.duel")
    assert w.loader.generation == 0 and w._opening is None
