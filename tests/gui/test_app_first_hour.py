"""The window's small items of issue 14 (point 12): the title, and whose a syntax error is."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from replayer.check import check_text
from replayer.gui.app import make_app
from replayer.gui.document import build_document

from .conftest import open_and_wait

LOG = """[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
turn 3 A
phase battle
A: atack "Lyla" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
B: pas
resolve
"""


def test_a_syntax_error_on_a_players_line_is_that_players():
    doc = build_document(check_text(LOG))
    by_line = {f.span.line: doc.finding_player[k] for k, f in enumerate(doc.findings) if f.rule == "syntax.line"}
    assert by_line == {6: "A", 7: "B"}


def test_the_window_title_names_replayer_once(qtbot, window, tmp_path):
    make_app()
    assert QGuiApplication.applicationDisplayName() == "replayer"  # Qt adds " — replayer" to the title
    path = tmp_path / "match.duel"
    path.write_text(LOG, encoding="utf-8")
    open_and_wait(qtbot, window, path)
    title = window.windowTitle()
    assert "match.duel" in title and "Yuki" in title
    assert "replayer" not in title
