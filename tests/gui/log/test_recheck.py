"""The re-check while typing is incremental and updates the panes in place; what they show is
exactly what a full check of the text shows: random edits typed into logs of both games."""

from __future__ import annotations

import importlib
import random

import pytest
from PySide6.QtGui import QTextCursor

from replayer.check import check_text

from ..conftest import DM_LOG, YGO_LOG, open_and_wait

SNIPPETS = ["A: draw", "B: pass", "resolve", "phase main2", "timing calc", "B: damage 500", "x", "",
            "  # a note", "A: attack \"Lyla\" -> direct", "turn 8 B", "B: block \"Bolshack Dragon\"",
            'A: activate "Honest" from hand', "A: break 2", "\"unclosed"]


def _edit(rng: random.Random, view, header: int) -> None:
    """One edit through the text cursor, as typing or pasting does (one undo step)."""
    doc = view.document()
    n = doc.blockCount()
    block = doc.findBlockByNumber(rng.randrange(min(header, n - 1), n))
    c = QTextCursor(block)
    what = rng.random()
    if what < 0.35:  # a character typed or deleted at the end of the line
        c.movePosition(QTextCursor.EndOfBlock)
        if block.text() and rng.random() < 0.5:
            c.deletePreviousChar()
        else:
            c.insertText(rng.choice("xA 1\"#{:"))
    elif what < 0.6:  # a new line
        c.movePosition(QTextCursor.EndOfBlock)
        c.insertText("\n" + rng.choice(SNIPPETS))
    elif what < 0.8:  # the line replaced
        c.select(QTextCursor.BlockUnderCursor if block.blockNumber() else QTextCursor.LineUnderCursor)
        c.insertText(("\n" if block.blockNumber() else "") + rng.choice(SNIPPETS))
    else:  # the line removed
        c.select(QTextCursor.BlockUnderCursor)
        c.removeSelectedText()
    view.setTextCursor(c)


@pytest.mark.parametrize("text", [YGO_LOG, DM_LOG], ids=["ygo", "dm"])
def test_typing_shows_the_findings_and_state_of_a_full_check(qtbot, window, tmp_path, text):
    path = tmp_path / "log.duel"
    path.write_text(text, encoding="utf-8")
    open_and_wait(qtbot, window, path)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    header = max(i for i, line in enumerate(text.split("\n")) if line.startswith("[")) + 1
    rng = random.Random(15)
    in_place = 0
    shown = []
    window.loaded.connect(lambda: shown.append(window.doc))
    for _ in range(25):
        _edit(rng, view, header)
        qtbot.waitUntil(ed.idle, timeout=10_000)
        full = check_text(ed.text(), str(path))
        doc = window.doc
        assert doc.findings == full.findings
        assert doc.match.events == full.match.events
        # every pane shows this document
        assert window.findings.model.doc is doc and window.findings.model.rowCount() == len(full.findings)
        assert window.timeline.doc is doc and view.doc is doc and view.highlighter.doc is doc
        line = view.textCursor().blockNumber() + 1
        assert view.selected_line == line
        if doc.events:
            i = full.states.event_for_line(line)
            if line < full.match.events[0].span.line:
                i = 0
            assert window.current == i
            assert window.state.model.state == full.states.state_at(i)
        # the log's underlines are the findings' (every line shown is coloured from this document)
        first, last = view._visible_blocks()
        for number in range(first, last + 1):
            if number in view.highlighter.done:
                block = view.document().findBlockByNumber(number)
                want = [(r.start, r.length, r.format.underlineStyle())
                        for r in view.highlighter.ranges(block.text(), number + 1)]
                got = [(r.start, r.length, r.format.underlineStyle()) for r in block.layout().formats()]
                assert got == want, number + 1
        in_place += doc is not None and shown and shown[-1] is doc
    assert in_place >= 10


def test_an_edit_in_a_long_log_reads_only_its_lines(qtbot, window, tmp_path, monkeypatch):
    body = ['[Game "ygo"]', '[A "Yuki"]', '[B "Kaiba"]', ""]
    for t in range(1, 400):
        body += [f"turn {t} {'AB'[t % 2 == 0]}", "phase main1", "A: draw" if t % 2 else "B: draw", "phase end"]
    path = tmp_path / "long.duel"
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    open_and_wait(qtbot, window, path)
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    check = importlib.import_module("replayer.check")  # (the package's `check` is a function)

    reads = []
    real = check._read_lines
    monkeypatch.setattr(check, "_read_lines", lambda lines, *a: reads.append(len(lines)) or real(lines, *a))
    c = QTextCursor(view.document().findBlockByNumber(800))
    c.movePosition(QTextCursor.EndOfBlock)
    view.setTextCursor(c)
    c.insertText("x")
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert reads and max(reads) <= 4  # the changed line and the lines to the events around it
    assert window.doc.findings == check_text(ed.text()).findings
    assert any(f.span.line == 801 and f.rule == "syntax.line" for f in window.doc.findings)
    # and the replays started from the restart kept at that line by the first key's re-check
    first = window.doc.result.restart
    assert first is not None and 0 < first.index <= window.doc.replay.event_for_line(801) + 1
    c.insertText("y")
    qtbot.waitUntil(ed.idle, timeout=10_000)
    assert window.doc.result.restart is first and window.doc.replay.restart is not None
    assert window.doc.findings == check_text(ed.text()).findings
    assert ed.rechecker.last_cost > 0  # the worker's CPU time, which bench/video.py reports
