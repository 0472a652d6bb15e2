"""The log editor is a part of its own (issue 25): built on a bare log view, with no window, it is
handed a document and says what the user did through its signals: the re-check of a typed line,
the cursor's line, a save, the pane's title, Ctrl+T's timecode from the clock it is handed."""

from __future__ import annotations

from replayer.gui.document import document_from_text
from replayer.gui.log.editor import LogEditor
from replayer.gui.log.pane import LogView

from ..conftest import YGO_LOG


def _editor(qtbot, tmp_path, clock=None):
    path = tmp_path / "match.duel"
    data = YGO_LOG.encode("utf-8")
    path.write_bytes(data)
    view = LogView()
    qtbot.add_widget(view)
    view.set_text(YGO_LOG)
    ed = LogEditor(view, clock=clock)
    doc = document_from_text(YGO_LOG, str(path))
    view.set_document(doc)
    ed.on_opened(str(path), data)
    ed.show(doc, str(path), data)
    return ed, view, doc, path


def _type_at_end(view, text: str) -> None:
    from PySide6.QtGui import QTextCursor

    cursor = view.textCursor()
    cursor.movePosition(QTextCursor.End)
    view.setTextCursor(cursor)
    view.insertPlainText(text)


def test_the_editor_rechecks_typing_and_says_so_without_a_window(qtbot, tmp_path):
    ed, view, doc, _ = _editor(qtbot, tmp_path)
    titles, editing, started = [], [], []
    ed.titleChanged.connect(titles.append)
    ed.editingChanged.connect(editing.append)
    ed.started.connect(lambda: started.append(True))
    ed.start()
    assert started == [True] and editing == [True] and titles[-1] == "Log  (match.duel)  ·  editing"
    with qtbot.waitSignal(ed.rechecked, timeout=10_000) as blocker:
        _type_at_end(view, "B: activate \"Mirror Force\" from hand\n")
    new, change, base, line = blocker.args
    assert base is doc.result  # the re-check started from the document it was handed
    assert len(new.events) == len(doc.events) + 1 and not change.full
    assert line == view.textCursor().blockNumber() + 1
    assert titles[-1] == "Log  (match.duel)  ●  ·  editing"


def test_a_save_writes_the_file_and_emits_where(qtbot, tmp_path):
    ed, view, _, path = _editor(qtbot, tmp_path)
    ed.start()
    _type_at_end(view, "# a note\n")
    other = tmp_path / "copy.duel"
    with qtbot.waitSignal(ed.saved, timeout=5000) as blocker:
        assert ed.save(str(other)) == str(other)
    assert blocker.args == [str(other), other.read_bytes()]
    assert other.read_text(encoding="utf-8").endswith("# a note\n") and ed.path == str(other)
    assert path.read_bytes() == YGO_LOG.encode("utf-8")  # the file it was opened from stays as it was


def test_ctrl_t_takes_the_clock_it_is_handed(qtbot, tmp_path):
    ed, view, _, _ = _editor(qtbot, tmp_path, clock=lambda: 75.0)
    assert ed.insert_timecode() == "@1:15" and view.textCursor().block().text().startswith("@1:15")
    said = []
    quiet, *_ = _editor(qtbot, tmp_path)  # no clock: no video
    quiet.message.connect(lambda text, ms: said.append(text))
    assert quiet.insert_timecode() is None and said == ["No video is playing: attach one (File ▸ Attach Video…)"]
