"""The window without a log is an editor: File ▸ New, ``replayer view`` with no file and an empty
file open a log with its header ready to type in; saving a log that has no file yet asks for one."""

from __future__ import annotations

import datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from replayer.check import check_text
from replayer.gui.log import editor as editor_mod

from ..conftest import open_and_wait


def _no_dialog(*args, **kwargs):
    raise AssertionError("no file dialog was expected")


def test_blank_log_is_a_header_to_fill_in_without_findings():
    for game in ("ygo", "dm"):
        text = editor_mod.blank_log(game, datetime.date(2026, 12, 1))
        assert text.startswith(f'[Game "{game}"]\n[A "A"]\n[B "B"]\n[Event ""]\n[Date "2026-12-01"]\n')
        assert check_text(text).findings == []


def test_file_new_opens_an_untitled_log_and_saving_asks_for_a_name(qtbot, window, tmp_path, monkeypatch):
    ed = window.editor
    window.act_new.trigger()
    view = window.log_pane.view
    assert ed.editing() and not view.isReadOnly()
    assert window.path is None
    assert ed.text() == editor_mod.blank_log("ygo")
    assert view.textCursor().atEnd()  # ready to type the first event
    assert "untitled" in window.log_title.text() and "●" not in window.log_title.text()
    qtbot.keyClicks(view, "A: atack")
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert "●" in window.log_title.text()
    assert window.doc.findings == check_text(ed.text()).findings
    assert any(f.rule == "syntax.line" for f in window.doc.findings)
    target = tmp_path / "typed.duel"
    asked = []
    monkeypatch.setattr(editor_mod.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a) or str(target), "Match logs (*.duel)"))
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        qtbot.keyClick(view, Qt.Key_S, Qt.ControlModifier)
    assert asked, "saving a log without a file asks for its name"
    assert target.read_bytes() == ed.text().encode("utf-8")
    assert window.path == str(target)
    assert "●" not in window.log_title.text() and "typed.duel" in window.log_title.text()
    # saved once, it saves to its file without asking
    monkeypatch.setattr(editor_mod.QFileDialog, "getSaveFileName", _no_dialog)
    qtbot.keyClicks(view, "x")
    assert ed.save() == str(target)
    assert target.read_text(encoding="utf-8").endswith("A: atackx")


def test_file_new_keeps_unsaved_changes_unless_told(qtbot, window, tmp_path, monkeypatch):
    ed = window.editor
    window.act_new.trigger()
    qtbot.keyClicks(window.log_pane.view, "A: draw")
    monkeypatch.setattr(ed, "confirm_close", lambda: False)  # the user cancelled the question
    assert ed.new_log() is False
    assert ed.text().endswith("A: draw")


def test_the_window_opened_without_a_log_is_an_editor(qtbot, monkeypatch):
    from replayer.gui import app as app_mod

    seen = {}
    before = set(QApplication.topLevelWidgets())  # other tests' windows may still be there

    class App:
        def exec(self):
            windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, app_mod.MainWindow)
                       and w not in before]
            assert len(windows) == 1
            w = windows[0]
            qtbot.waitUntil(lambda: w.editor.editing(), timeout=10_000)
            seen["text"], seen["path"] = w.editor.text(), w.path
            w.close()
            return 0

    monkeypatch.setattr(app_mod, "make_app", lambda *a: App())
    monkeypatch.setattr(app_mod, "install_excepthook", lambda w: None)
    assert app_mod.run(None, "light") == 0
    assert seen["path"] is None and seen["text"] == editor_mod.blank_log("ygo")


@pytest.mark.parametrize("content", [b"", b"\n  \n"], ids=["empty", "blank"])
def test_an_empty_file_opens_in_the_editor_with_a_header(qtbot, window, tmp_path, monkeypatch, content):
    path = tmp_path / "new.duel"
    path.write_bytes(content)
    open_and_wait(qtbot, window, path)
    ed = window.editor
    assert ed.editing()
    assert ed.text() == editor_mod.blank_log("ygo")
    assert "●" in window.log_title.text()  # the header is not saved yet
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert window.doc.findings == []
    monkeypatch.setattr(editor_mod.QFileDialog, "getSaveFileName", _no_dialog)
    assert ed.save() == str(path)
    assert path.read_text(encoding="utf-8") == editor_mod.blank_log("ygo")
