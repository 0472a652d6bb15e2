"""Transcribing in the window: completion, Ctrl+T, re-checking as you type, saving, undo,
the unsaved mark, a file changed on disk, and File ▸ New Match from Video…"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from replayer.games import get as get_game
from replayer.gui.log import completion as completion_mod
from replayer.gui.log import editor as editor_mod
from replayer.gui.video import pane as video_mod
from replayer.transform import ALIASES

from ..conftest import YGO_LOG, line_of, open_and_wait


def type_text(qtbot, widget, text: str) -> None:
    """Type ``text`` key by key (QTest's keyClicks takes ASCII only)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    for ch in text:
        if ch.isascii():
            qtbot.keyClicks(widget, ch)
            continue
        for kind in (QEvent.KeyPress, QEvent.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key_unknown, Qt.NoModifier, ch))
        QApplication.processEvents()


def put_cursor(view, line: int, column: int | None = None) -> None:
    block = view.document().findBlockByNumber(line - 1)
    c = QTextCursor(block)
    if column is None:
        c.movePosition(QTextCursor.EndOfBlock)
    else:
        c.setPosition(block.position() + column)
    view.setTextCursor(c)


def new_line_after(qtbot, view, line: int) -> None:
    put_cursor(view, line)
    qtbot.keyClick(view, Qt.Key_Return)


def test_keywords_in_all_three_languages_come_from_the_grammar_and_aliases():
    for game in ("ygo", "dm"):
        words = set(editor_mod.keywords(game))
        assert set(ALIASES) <= words
    ygo = set(editor_mod.keywords("ygo"))
    # from the grammar's terminals, not from a list in the editor
    assert {"activate", "aktiviert", "発動", "turn", "zug", "ターン", "greift an", "ds-start", "before-calc",
            "battle phase", "ダメージ計算前", "schadensberechnung", "auflösung", "aufloesung"} <= ygo
    assert not any(w.startswith(("[", '"', "{")) for w in ygo)
    assert "break" in set(editor_mod.keywords("dm"))


def test_card_names_are_the_catalog_in_every_language_and_other_sources(monkeypatch):
    names = set(editor_mod.card_names("ygo"))
    for card in get_game("ygo").catalog.cards:
        assert set(card.names.values()) <= names
    monkeypatch.setattr(completion_mod, "CARD_SOURCES", [lambda game: ["Zz Imported Card"] if game == "ygo" else []])
    assert "Zz Imported Card" in editor_mod.card_names("ygo")
    assert "Zz Imported Card" not in editor_mod.card_names("dm")


def test_the_imported_card_database_is_a_source(monkeypatch):
    import replayer.cards.layers as layers

    class FakeDB:
        def names(self, game):
            return ["Zz Database Card"] if game == "ygo" else []

    monkeypatch.setattr(layers, "active_cards_db", lambda: FakeDB())
    assert "Zz Database Card" in editor_mod.card_names("ygo")
    monkeypatch.setattr(layers, "active_cards_db", lambda: None)
    assert "Zz Database Card" not in editor_mod.card_names("ygo")


def test_completion_offers_card_names_from_the_catalog(qtbot, window, ygo_log):
    open_and_wait(qtbot, window, ygo_log)
    ed = window.editor
    qtbot.keyClick(window, Qt.Key_E, Qt.ControlModifier)
    assert ed.editing() and not window.log_pane.view.isReadOnly()
    view = window.log_pane.view
    card = next(c for c in get_game("ygo").catalog.cards if "ja" in c.names and "en" in c.names)
    new_line_after(qtbot, view, line_of(YGO_LOG, "step battle"))
    qtbot.keyClicks(view, 'A: activate "' + card.names["en"][:3])
    qtbot.waitUntil(lambda: ed.completer.popup().isVisible(), timeout=3000)
    shown = [ed.completer.completionModel().index(r, 0).data() for r in range(ed.completer.completionCount())]
    assert card.names["en"] in shown
    assert all(s.casefold().startswith(card.names["en"][:3].casefold()) for s in shown)
    # choosing it completes the name and closes the quote
    popup = ed.completer.popup()
    popup.setCurrentIndex(ed.completer.completionModel().index(shown.index(card.names["en"]), 0))
    qtbot.keyClick(view, Qt.Key_Return)
    assert view.textCursor().block().text() == f'A: activate "{card.names["en"]}"'
    # the Japanese name, in 《》
    qtbot.keyClicks(view, " # ")
    new_line_after(qtbot, view, view.textCursor().blockNumber() + 1)
    type_text(qtbot, view, "A: 発動 《" + card.names["ja"][:2])
    qtbot.waitUntil(lambda: ed.completer.popup().isVisible(), timeout=3000)
    shown = [ed.completer.completionModel().index(r, 0).data() for r in range(ed.completer.completionCount())]
    assert card.names["ja"] in shown


def test_completion_offers_keywords(qtbot, window, ygo_log):
    open_and_wait(qtbot, window, ygo_log)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    new_line_after(qtbot, view, line_of(YGO_LOG, "step battle"))
    qtbot.keyClicks(view, "A: akt")
    qtbot.waitUntil(lambda: ed.completer.popup().isVisible(), timeout=3000)
    assert ed.completer.currentCompletion() == "aktiviert"
    qtbot.keyClick(view, Qt.Key_Tab)
    assert view.textCursor().block().text() == "A: aktiviert"


def test_typing_a_line_rechecks_and_the_findings_change(qtbot, window, ygo_log):
    doc = open_and_wait(qtbot, window, ygo_log)
    before = {(f.rule, f.span.line) for f in doc.findings}
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    new_line_after(qtbot, view, line_of(YGO_LOG, "step battle"))
    bad_line = view.textCursor().blockNumber() + 1
    qtbot.keyClicks(view, "A: atack")
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert any(f.rule == "syntax.line" and f.span.line == bad_line for f in window.doc.findings)
    assert view.textCursor().blockNumber() + 1 == bad_line  # the typing cursor stayed
    assert window.log_pane.view.isReadOnly() is False
    for _ in "atack":
        qtbot.keyClick(view, Qt.Key_Backspace)
    qtbot.keyClicks(view, "attack \"Lyla, Lightsworn Sorceress\" -> direct")
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert not any(f.span.line == bad_line and f.rule == "syntax.line" for f in window.doc.findings)
    # the other findings are those of before, one line further down where they were below
    after = {(f.rule, f.span.line - (f.span.line > bad_line)) for f in window.doc.findings if f.span.line != bad_line}
    assert {(r, ln) for r, ln in before} <= after | {(r, ln) for r, ln in before if ln >= bad_line}
    assert "●" in window.log_title.text()


def test_save_and_reload_keep_the_text_byte_for_byte(qtbot, window, tmp_path):
    path = tmp_path / "crlf.duel"
    original = ("\ufeff" + YGO_LOG.replace("\n", "\r\n")).encode("utf-8")
    path.write_bytes(original)
    open_and_wait(qtbot, window, path)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    put_cursor(view, 1, 0)
    type_text(qtbot, view, "# transcribed by ミナ\t»")
    qtbot.keyClick(view, Qt.Key_Return)
    assert "●" in window.log_title.text()
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)
    saved = path.read_bytes()
    expected = ("\ufeff# transcribed by ミナ\t»\r\n" + YGO_LOG.replace("\n", "\r\n")).encode("utf-8")
    assert saved == expected
    assert (tmp_path / "crlf.duel.bak").read_bytes() == original  # the previous file is kept
    assert "●" not in window.log_title.text()
    assert not list(tmp_path.glob(".crlf.duel.*.tmp"))  # nothing left of the atomic write
    # reloading shows what was saved; saving again without a change writes the same bytes
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        window.reload()
    assert ed.data() == expected
    ed.save()
    assert path.read_bytes() == expected
    # undo and redo are the text's own
    put_cursor(view, 1)
    qtbot.keyClicks(view, "!")
    assert view.toPlainText().splitlines()[0].endswith("!")
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert not view.toPlainText().splitlines()[0].endswith("!")
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert view.toPlainText().splitlines()[0].endswith("!")


def test_the_file_changing_on_disk_loses_nothing(qtbot, window, ygo_log):
    open_and_wait(qtbot, window, ygo_log)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    put_cursor(view, 1)
    qtbot.keyClicks(view, " mine")
    mine = view.toPlainText()
    asked = []
    ed.ask_reload = lambda: asked.append(1) or False  # "keep my text"
    ygo_log.write_text(YGO_LOG + "turn 4 B\n", encoding="utf-8")
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    qtbot.wait(600)  # the window's own reload would have come by now
    assert view.toPlainText() == mine and ed.conflict
    # saving now puts mine on disk and keeps the other version as .bak
    ed.save()
    assert ygo_log.read_text(encoding="utf-8") == mine
    assert ygo_log.with_name(ygo_log.name + ".bak").read_text(encoding="utf-8").endswith("turn 4 B\n")
    # and "reload" takes the file's version
    qtbot.keyClicks(view, " again")
    ed.ask_reload = lambda: True
    ygo_log.write_text(YGO_LOG + "turn 5 A\n", encoding="utf-8")
    qtbot.waitUntil(lambda: view.toPlainText().endswith("turn 5 A\n"), timeout=10_000)
    assert view.toPlainText().endswith("turn 5 A\n") and ed.editing()
    # our own save is not taken for a change by someone else
    asked.clear()
    ed.ask_reload = lambda: asked.append(1) or False
    qtbot.keyClicks(view, "x")
    ed.save()
    qtbot.wait(600)
    assert not asked


@pytest.mark.skipif(video_mod.multimedia() is None, reason="QtMultimedia is not usable here")
def test_ctrl_t_puts_the_video_position_at_the_start_of_the_line(qtbot, window, tmp_path):
    pytest.importorskip("av")
    from ..footage import make_video

    make_video(tmp_path / "m.mp4", seconds=6)
    path = tmp_path / "m.duel"
    path.write_text('[Game "ygo"]\n[Video "m.mp4"]\n\n@0:01 turn 1 A\nphase main1\n@0:02 phase battle\n',
                    encoding="utf-8")
    open_and_wait(qtbot, window, path)
    pane = window.video
    window.select_event(0)
    assert pane.wait_for_frame(8000)
    for _ in range(3):  # the reviewer steps to 0:04: 75 frames on
        pane._set_position(pane.target_ms + 1000)
        assert pane.wait_for_frame(4000)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    put_cursor(view, 5, 3)
    qtbot.keyClick(window, Qt.Key_T, Qt.ControlModifier)
    assert view.document().findBlockByNumber(4).text() == "@0:04 phase main1"
    put_cursor(view, 6, 0)  # a line with a timecode: it is replaced
    qtbot.keyClick(window, Qt.Key_T, Qt.ControlModifier)
    assert view.document().findBlockByNumber(5).text() == "@0:04 phase battle"
    # the offset is taken off: the log's timecodes are the log's cut
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        ed.set_header_tag("VideoOffset", "+0:03", after="Video")
    assert window.video.offset == 3.0
    put_cursor(view, 7, 0)  # "phase battle" is a line further down now
    qtbot.keyClick(window, Qt.Key_T, Qt.ControlModifier)
    assert view.document().findBlockByNumber(6).text() == "@0:01 phase battle"


def test_new_match_from_video_starts_a_log_with_its_header(qtbot, window, tmp_path):
    pytest.importorskip("av")
    from ..footage import make_video

    video = tmp_path / "clips" / "Finals Game 1.mp4"
    video.parent.mkdir()
    make_video(video, seconds=2)
    target = tmp_path / "finals.duel"
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        window.editor.new_from_video(str(video), str(target), "dm")
    text = target.read_text(encoding="utf-8")
    assert '[Game "dm"]' in text and '[Video "clips/Finals Game 1.mp4"]' in text
    assert '[VideoOffset "+0:00"]' in text and '[Event "Finals Game 1"]' in text
    assert window.editor.editing() and window.path == str(target)
    assert window.doc.match.game == "dm"
    assert not [f for f in window.doc.findings if f.severity.value == "error"]
    with pytest.raises(FileExistsError):
        window.editor.new_from_video(str(video), str(target), "dm")
