"""`replayer view FILE:LINE[:COL]` and `--select N` open the window at that line (issue 23, point 5)."""

from __future__ import annotations

from click.testing import CliRunner
from PySide6.QtGui import QImage

from replayer.cli import cli

from .conftest import YGO_LOG, line_of, open_and_wait


def test_a_place_as_check_prints_it_opens_the_window_there(monkeypatch, ygo_log):
    from replayer.gui import app

    calls = []
    monkeypatch.setattr(app, "run", lambda path, theme=None, **kw: calls.append((path, kw)) or 0)
    monkeypatch.setattr("replayer.cli.view.use_library", lambda app, db: None)
    line = line_of(YGO_LOG, "atack")
    for arg, want in ((f"{ygo_log}:{line}:5", (line, 5)), (f"{ygo_log}:{line}", (line, None)),
                      (f"{ygo_log}:{line}:5:", (line, 5))):
        result = CliRunner().invoke(cli, ["view", arg])
        assert result.exit_code == 0, result.output
        assert calls[-1] == (str(ygo_log), {"select_line": want[0], "select_column": want[1]})
    result = CliRunner().invoke(cli, ["view", str(ygo_log), "--select", "9"])
    assert calls[-1] == (str(ygo_log), {"select_line": 9, "select_column": None})
    result = CliRunner().invoke(cli, ["view", f"{ygo_log}.nope:3"])
    assert result.exit_code == 2 and "no such file" in result.output


def test_the_window_opens_with_the_line_selected_and_the_cursor_at_the_column(qtbot, window, ygo_log):
    from replayer.gui.app import select_once

    line = line_of(YGO_LOG, "atack")
    select_once(window, line, 6)
    doc = open_and_wait(qtbot, window, ygo_log)
    view = window.log_pane.view
    assert view.selected_line == line
    assert doc.events[window.current].span.line <= line
    cursor = view.textCursor()
    assert (cursor.blockNumber() + 1, cursor.positionInBlock() + 1) == (line, 6)
    assert window.findings.current_row() >= 0
    assert doc.findings[window.findings.current_row()].span.line == line


def test_a_screenshot_of_a_place(tmp_path, ygo_log):
    out = tmp_path / "shot.png"
    line = line_of(YGO_LOG, "B: lp 6400")
    result = CliRunner().invoke(cli, ["view", f"{ygo_log}:{line}", "--screenshot", str(out), "--size", "1280x720"])
    assert result.exit_code == 0, result.output
    assert QImage(str(out)).width() == 1280
