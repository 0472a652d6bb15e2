"""Issue 13, points 7 (the HTML report) and 12 (widgets): text from a log is shown as the
characters it is, never as markup, escape sequences or bidi overrides; the window opens the
logs that used to raise."""

from __future__ import annotations

from click.testing import CliRunner
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import Qt as GuiQt, QTextDocument

from replayer import check_text
from replayer.cli import cli
from replayer.export.report import report_html
from replayer.gui.document import document_from_text
from replayer.gui.shared.models import FindingsModel, StateModel
from replayer.gui.state.pane import StatePane

HOSTILE = ('[Game "ygo"]\n[A "Yuki\x1b]0;pwned\x07"]\n[B "Kai\u202eevil"]\nturn 1 A\n'
           'A: normal summon "<b>Bold</b> <img src=x>"  # <i>note</i> \x1b[2J\n'
           'A: activate "R\u202etl" {quick, <u>nope</u>}\n')


def _shown(rich: str) -> str:
    """What Qt shows for a tooltip or label text (rich text when it looks like markup)."""
    if not GuiQt.mightBeRichText(rich):
        return rich
    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()


def test_point_12_the_state_pane_tooltip_shows_the_raw_line_as_text(qtbot):
    source = 'A: normal summon "<b>Bold</b> <img src=x>"'
    doc = document_from_text(HOSTILE)
    pane = StatePane()
    qtbot.add_widget(pane)
    pane.set_state(doc.replay.state_at(0), doc.match.players, source)
    assert _shown(pane.title.toolTip()) == source


def test_point_12_model_tooltips_show_log_text_as_text(qtbot):
    doc = document_from_text(HOSTILE)
    findings = FindingsModel()
    findings.set_document(doc, None)
    tips = [findings.data(findings.index(r, 0), Qt.ToolTipRole) for r in range(findings.rowCount())]
    assert any("<u>nope</u>" in _shown(t) for t in tips)
    for tip in tips:
        assert "\u202e" not in _shown(tip)
    state = StateModel()
    state.set_state(doc.replay.state_at(len(doc.events) - 1), doc.match.players)
    shown = []

    def walk(parent):
        for r in range(state.rowCount(parent)):
            index = state.index(r, 0, parent)
            shown.append(_shown(state.data(index, Qt.ToolTipRole) or ""))
            walk(index)

    walk(QModelIndex())
    assert any("<b>Bold</b> <img src=x>" in s for s in shown), shown


def test_point_12_view_screenshot_opens_the_logs_that_raised(tmp_path):
    logs = {
        "power.duel": '[Game "dm"]\nturn 1 A\nA: summon "X" {creature, power abc}\n',
        "lp.duel": '[Game "ygo"]\n[LP "²"]\nturn 1 A\nA: draw\n',
        "timing.duel": '[Game "ygo"]\nturn 1 A\nphase battle\nA: attack "M" -> "N"\nstep damage\n'
                       'timing ds-start\nA: activate "Q" {quick-play, timing:clc}\n',
        "digits.duel": '[Game "ygo"]\nturn 1 A\nA: lp ' + "9" * 5000 + "\n",
        "shields.duel": '[Game "dm"]\n[Shields "²"]\nturn 1 A\nA: summon "X" {power ²}\n',
    }
    for name, text in logs.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        out = tmp_path / (name + ".png")
        result = CliRunner().invoke(cli, ["view", str(path), "--screenshot", str(out), "--size", "800x600"])
        assert result.exit_code == 0 and result.exception is None, (name, result.output, result.exception)
        assert out.stat().st_size > 1000


def test_point_7_the_html_report_shows_controls_and_bidi_overrides_visibly():
    page = report_html(check_text(HOSTILE), None)
    for raw in ("\x1b", "\x07", "\u202e", "<b>Bold", "<img", "<u>nope"):
        assert raw not in page, repr(raw)
    assert "Yuki\\x1b]0;pwned\\x07" in page and "Kai\\u202eevil" in page
    assert "&lt;b&gt;Bold&lt;/b&gt;" in page
