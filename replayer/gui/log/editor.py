"""Transcribing in the window: the log pane as an editor.

File ▸ Edit Log (Ctrl+E) makes the log pane editable. A log made by File ▸ New Log (Ctrl+N),
File ▸ New Match from Video…, the window opened without a log (``replayer view``) or an empty file
starts so, its header ready to fill in (:func:`blank_log`); a log not saved yet asks for its file
name on Ctrl+S. While editing:

* completion (Ctrl+Space, or by itself after two letters or an opening quote): the keywords of
  the log's game in all three languages, taken from the grammar's terminals and the alias table
  (:func:`keywords`), and card names from the built-in catalog and any other source registered
  in :data:`.completion.CARD_SOURCES` (the imported card database, once there is one);
* Ctrl+T puts the video's current position at the start of the line as a timecode (it replaces a
  timecode already there);
* the findings are checked again as you type, on a worker thread: a key starts its re-check at
  once when none is running, and the keys typed while one runs are checked together as soon as
  it ends (no fixed debounce: :data:`RECHECK_DELAY_MS`); only the changed lines are read again
  (:mod:`.recheck`) and the timeline, findings and state follow in place;
* Ctrl+S saves atomically (a temporary file renamed over the log; through a symbolic link, over
  the file it points to) and keeps the previous file as ``NAME.bak`` (written atomically too);
  when another program changed the file since it was read, its version is kept as
  ``NAME.conflict-<date>-<time>``, which no later save overwrites, and the status bar says where;
  a read-only log is saved over only when the user says so; a save that fails (a folder that
  cannot be written, a full disk) keeps the text, says why and offers Save As… (on closing
  the window too: it stays open); temporaries a killed save left are removed when the log is
  next opened (:mod:`.savefile`). Undo/redo are the text's own (Ctrl+Z, Ctrl+Shift+Z); the log
  pane's title shows ``●`` while there are unsaved changes;
* when the file changes on disk meanwhile, nothing is lost: unsaved text is kept unless you choose
  to reload it (:meth:`LogEditor.ask_reload`).

The editor is handed the log view it edits and what the window shows (:meth:`LogEditor.on_opened`
when a file is read, :meth:`LogEditor.show` after every document shown) and a clock (the video's
position, for Ctrl+T); it emits what the window must do: ``message`` / ``heldMessage`` (the status
bar), ``titleChanged`` (the log pane's title), ``editingChanged``, ``started`` (editing began: the
events stop playing), ``lineFollowed`` (the cursor's line, which the panes follow), ``rechecked``
(a re-check's document to show), ``saved`` (the file the text went to), ``newLog`` (a new log's
document to show) and ``openRequested``. Its actions and menu entries are the window's
(``gui/window/editing.py``). What to complete is :mod:`.completion`'s; writing the file,
:mod:`..shared.savefile`'s.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import QCompleter, QFileDialog, QMessageBox, QWidget

from ...logtext import set_header_tag
from ...timecodes import format_timecode
from .completion import CARD_SOURCES, card_names, imported_card_names, keywords  # noqa: F401  (the editor's API)
from .newlog import UNTITLED, NewLogMixin, UnsavedVerdicts, blank_log  # noqa: F401  (the editor's API)
from .recheck import Rechecker
from ...safe import visible
from ..shared.language import tr
from ..shared.savefile import BACKUP_SUFFIX, CONFLICT_SUFFIX, Saved, atomic_write, encode_text, real_path, save_file  # noqa: F401

if TYPE_CHECKING:
    from ..document import Document
    from .pane import LogView

log = logging.getLogger("replayer.gui")

#: how long after a key its re-check starts when no other is running (while one runs, the keys
#: typed meanwhile wait for it: one re-check at a time, the last text always checked)
RECHECK_DELAY_MS = 0
_LEAD_TIMECODE = re.compile(r"^(\s*)@(?:\d+:)?\d{1,2}:\d{2}(?:\s+|$)")
_WORD_CHAR = re.compile(r"[\w\-ー・]")
_OPEN_QUOTES = {'"': '"', "《": "》", "「": "」", "„": "“"}
_KEY_PRESS = QEvent.Type.KeyPress  # (bound once: PySide6 looks a short enum name up at every use)

# ---- the editor -----------------------------------------------------------------------------------
class LogEditor(NewLogMixin, QObject):
    """Turns a log view into an editor and back; saves, re-checks, completes. ``parent``: by
    default the view (the editor, its timers and its re-checks go with it). ``clock``: the
    video's position in the log's seconds, None when no video plays (Ctrl+T)."""

    #: (text, ms): for the status bar
    message = Signal(str, int)
    #: (text, ms): for the status bar, not to be replaced by a re-check's counts meanwhile
    heldMessage = Signal(str, int)
    #: the log pane's title (the file's name, ``●`` for unsaved changes, "editing")
    titleChanged = Signal(str)
    #: editing on (True) or off
    editingChanged = Signal(bool)
    #: editing is starting (the events' playing stops)
    started = Signal()
    #: the line the cursor went to while editing (the panes follow; not the video)
    lineFollowed = Signal(int)
    #: (document, change, base, line): a re-check of the text to show; ``change`` (a
    #: :class:`~replayer.check.Change`) is from ``base``, the result it started from; ``line``: the cursor's
    rechecked = Signal(object, object, object, int)
    #: (path, bytes written): the text was saved there
    saved = Signal(str, bytes)
    #: (document, reviews): a new, untitled log to show (its text is in the view already)
    newLog = Signal(object, object)
    #: a file to open (a new log written for a video)
    openRequested = Signal(str)

    def __init__(self, view: LogView, parent: QObject | None = None,
                 clock: Callable[[], float | None] | None = None):
        super().__init__(parent if parent is not None else view)
        self.view = view
        self.clock = clock or (lambda: None)
        #: what the window shows: its document, the file's path and the bytes it read (:meth:`show`)
        self.doc: Document | None = None
        self.path: str | None = None
        self._read: bytes | None = None
        self._editing = False
        self.newline = "\n"
        self.bom = False
        self.disk: bytes | None = None  # the bytes on disk the text was last loaded from or saved to
        self.conflict = False  # the file changed on disk while there were unsaved changes
        self.checked_text: str | None = None
        # the document's revision when checked_text was taken (revisions only grow, so the same
        # revision is the same text: a comparison that needs no copy of a long text)
        self.checked_revision = -1
        self.last_recheck = -1
        self.applied = -1  # the generation of the last re-check shown
        self.settled = -1  # the generation of the last re-check that ended (shown or failed)
        self._revision = -1
        self.rechecker = Rechecker(self)
        self.rechecker.done.connect(self._on_rechecked)
        self.rechecker.failed.connect(self._on_recheck_failed)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(RECHECK_DELAY_MS)
        self.timer.timeout.connect(self.recheck)
        self.follow_timer = QTimer(self)
        self.follow_timer.setSingleShot(True)
        self.follow_timer.setInterval(120)
        self.follow_timer.timeout.connect(self._follow_cursor)
        self.completer = QCompleter(self)
        self.completer.setCaseSensitivity(Qt.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchStartsWith)
        self.completer.setCompletionMode(QCompleter.PopupCompletion)
        self.completer.setMaxVisibleItems(12)
        self.model = QStringListModel(self)
        self.completer.setModel(self.model)
        self.completer.activated[str].connect(self.insert_completion)
        self._completion_kind: tuple[str, str] = ("", "")
        self._names: dict[str, list[str]] = {}
        self._prefix_start = 0
        self.ask_reload: Callable[[], bool] = self._ask_reload
        self.ask_save_changes: Callable[[], str] = self._ask_save_changes  # "save", "discard", "cancel"
        self.ask_readonly: Callable[[str], str] = self._ask_readonly  # "overwrite", "save-as", "cancel"
        self.ask_save_failed: Callable[[str, str], str] = self._ask_save_failed  # "save-as", "cancel"
        self.ask_save_as: Callable[[str], str | None] = self._ask_save_as  # a file name, or None
        self.last_saved: Saved | None = None  # what the last save wrote (its backup, a conflict copy)
        self.last_error: str | None = None  # why the last save that failed failed
        self.view.document().modificationChanged.connect(lambda *_: self._update_mark())
        self.view.document().contentsChanged.connect(self._on_changed)
        self.view.cursorPositionChanged.connect(self._on_cursor)
        self.view.installEventFilter(self)

    # ---- mode -------------------------------------------------------------------------------------
    def editing(self) -> bool:
        return self._editing

    def game(self) -> str:
        """The id of the game being typed: the open document's, else the one the text's [Game] names."""
        from ... import games
        from ...check import detect_game
        from ...reader import split_lines

        doc = self.doc
        if doc is not None and doc.match.game in games.ALL:
            return doc.match.game
        found, _ = detect_game(split_lines(self.view.plain_text()[:4000]))
        return (found or games.DEFAULT).id

    def start(self) -> None:
        """Make the log editable (File ▸ Edit Log)."""
        if self._editing:
            return
        self.view.finish()  # a long log still coming in: all of it, before the first key
        self.started.emit()
        self._editing = True
        self.view.setReadOnly(False)
        self.view.setTextInteractionFlags(Qt.TextEditorInteraction)
        self.view.setUndoRedoEnabled(True)
        self.completer.setWidget(self.view)
        if self.disk is None and self._read is not None:
            self._take_disk(self._read)
        self._take_checked()
        self.view.document().setModified(False)
        self.view.setFocus()
        self.editingChanged.emit(True)
        self._update_mark()
        self.message.emit(tr("Editing: the findings are checked again as you type; Ctrl+S saves"), 6000)

    def stop(self) -> bool:
        """Back to reviewing (asks to save unsaved changes when there is a screen)."""
        if not self._editing:
            return True
        if self.view.document().isModified() and not self.confirm_close():
            self.editingChanged.emit(True)
            return False
        self._editing = False
        self.view.setReadOnly(True)
        self.view.setTextInteractionFlags(Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard)
        self.completer.popup().hide()
        self.editingChanged.emit(False)
        self._update_mark()
        return True

    def toggle(self) -> None:
        if self._editing:
            self.stop()
        else:
            self.start()

    def _take_disk(self, data: bytes) -> None:
        self.disk = data
        self.bom = data.startswith(b"\xef\xbb\xbf")
        self.newline = "\r\n" if b"\r\n" in data[:65536] else "\n"

    def on_opened(self, path: str | None, data: bytes | None) -> None:
        """The window read the file at ``path`` anew (open or reload): that text is the saved one."""
        self.path = path
        self._read = data
        if data is not None:
            self._take_disk(data)
        self.conflict = False
        self.view.document().setModified(False)
        if self._editing:
            self.view.setReadOnly(False)
            self.view.setTextInteractionFlags(Qt.TextEditorInteraction)
        self._take_checked()
        self.rechecker.base = None  # the next re-check starts from the document the window read
        self._update_mark()

    def show(self, doc: Document | None, path: str | None, data: bytes | None = None) -> None:
        """The window shows ``doc`` (read from ``path``, ``data`` its bytes when read): after every
        document shown, a re-check's too. The log pane's title follows; an empty file opens for
        editing, its header to fill in."""
        self.doc, self.path, self._read = doc, path, data
        self._update_mark()
        self._after_load()

    def _top(self) -> QWidget:
        """The window the view is in: the questions' parent."""
        return self.view.window()

    # ---- the text ---------------------------------------------------------------------------------
    def text(self) -> str:
        return self.view.plain_text()

    def data(self) -> bytes:
        return encode_text(self.text(), newline=self.newline, bom=self.bom)

    def _on_changed(self) -> None:
        # the highlighter's re-formatting also says "changed": only a new revision is an edit
        revision = self.view.document().revision()
        if self._editing and revision != self._revision:
            self._revision = revision
            if self.settled == self.last_recheck:  # none running: at once; else when it ends
                self.timer.start()
            QTimer.singleShot(0, self, self._colour_current_line)

    def _colour_current_line(self) -> None:
        """The line being typed is coloured at once (the findings' underlines follow the re-check)."""
        n = self.view.textCursor().blockNumber()
        self.view.highlighter.highlight(n, n, force=True)

    def _on_cursor(self) -> None:
        if self._editing:
            self.follow_timer.start()

    def _follow_cursor(self) -> None:
        line = self.view.textCursor().blockNumber() + 1
        if self.doc is not None and line != self.view.selected_line:
            self.lineFollowed.emit(line)  # the panes follow; the video is the transcriber's

    def _take_checked(self) -> None:
        self.checked_revision = self.view.document().revision()
        self.checked_text = self.view.plain_text()

    def recheck(self) -> None:
        """Check the text as it is now, on the worker thread (the window follows when it is done)."""
        revision = self.view.document().revision()
        if revision == self.checked_revision:
            return  # the text checked last
        text = self.text()
        self.checked_revision = revision
        if text == self.checked_text:
            return
        self.checked_text = text
        path = self.path or UNTITLED
        if self.rechecker.base is None and self.doc is not None:
            self.rechecker.base = self.doc.result  # what is shown: the lines that did not change are kept
        self.last_recheck = self.rechecker.request(path, text, self.view.textCursor().blockNumber() + 1)

    def idle(self) -> bool:
        """Whether the findings shown are those of the text as it is (no re-check pending)."""
        return (not self.timer.isActive() and self.applied == self.last_recheck
                and (self.checked_revision == self.view.document().revision() or self.checked_text == self.text()))

    def _on_recheck_failed(self, generation: int, message: str) -> None:
        self.settled = generation
        self.message.emit(tr("Check failed: {message}", message=message), 8000)
        self._next()

    def _next(self) -> None:
        """A re-check ended: the keys typed while it ran are checked now."""
        if self._editing and self.view.document().revision() != self.checked_revision:
            self.timer.start()  # keys typed meanwhile (the re-check compares the texts)

    def _on_rechecked(self, generation: int, doc, change, base) -> None:
        self.applied = self.settled = generation
        try:
            self.rechecked.emit(doc, change, base, self.view.textCursor().blockNumber() + 1)
        finally:
            self._next()

    def set_header_tag(self, key: str, value: str, *, after: str | None = None) -> None:
        """Write a header tag into the text being edited (one undoable step)."""
        new = set_header_tag(self.text(), key, value, after=after)
        cursor = QTextCursor(self.view.document())
        line = self.view.textCursor().blockNumber()
        cursor.beginEditBlock()
        cursor.select(QTextCursor.Document)
        cursor.insertText(new)
        cursor.endEditBlock()
        block = self.view.document().findBlockByNumber(min(line + (new.count("\n") - self.text().count("\n")),
                                                            self.view.document().blockCount() - 1))
        self.view.setTextCursor(QTextCursor(block))
        self.recheck()

    def insert_timecode(self) -> str | None:
        """Ctrl+T: the video's position at the start of the cursor's line (replacing one there)."""
        position = self.clock()
        if position is None:
            self.message.emit(tr("No video is playing: attach one (File ▸ Attach Video…)"), 5000)
            return None
        if not self._editing:
            self.start()
        tc = format_timecode(position)
        cursor = self.view.textCursor()
        block = cursor.block()
        text = block.text()
        c = QTextCursor(block)
        c.beginEditBlock()
        m = _LEAD_TIMECODE.match(text)
        if m:
            c.setPosition(block.position() + len(m.group(1)))
            c.setPosition(block.position() + m.end(), QTextCursor.KeepAnchor)
            rest = text[m.end():]
            c.insertText(tc + (" " if rest or not text[m.end() - 1:m.end()].strip() else ""))
        else:
            indent = len(text) - len(text.lstrip())
            c.setPosition(block.position() + indent)
            c.insertText(tc + " ")
        c.endEditBlock()
        end = QTextCursor(block)
        end.movePosition(QTextCursor.EndOfBlock)
        self.view.setTextCursor(end)
        return tc

    # ---- completion -------------------------------------------------------------------------------
    def _context(self) -> tuple[str, str, int]:
        """(kind, prefix, start): ``card`` inside an open quote, ``keyword`` in a word, else ``""``."""
        cursor = self.view.textCursor()
        block = cursor.block()
        col = cursor.positionInBlock()
        before = block.text()[:col]
        # an unclosed quote before the cursor: a card name
        for opener, closer in _OPEN_QUOTES.items():
            i = before.rfind(opener)
            if i >= 0 and (opener == closer and before.count(opener) % 2 == 1
                           or opener != closer and closer not in before[i + 1:]):
                if "#" not in before[:i]:
                    return "card", before[i + 1:], block.position() + i + 1
        if "#" in before:
            return "", "", 0
        j = col
        while j > 0 and _WORD_CHAR.match(before[j - 1]):
            j -= 1
        return "keyword", before[j:], block.position() + j

    def complete(self, *, forced: bool = False) -> bool:
        """Show the completion list for the text before the cursor (True if shown)."""
        if not self._editing:
            return False
        kind, prefix, start = self._context()
        if not kind or (not forced and (len(prefix) < (1 if kind == "card" else 2))):
            self.completer.popup().hide()
            return False
        game = self.game()
        if kind == "card":
            words = self._names.get(game)
            if words is None:  # once per game and editor: the card database may hold thousands
                words = self._names[game] = card_names(game)
        else:
            words = list(keywords(game))
        if self._completion_kind != (kind, game):
            self.model.setStringList(words)
            self._completion_kind = (kind, game)
        self._prefix_start = start
        self.completer.setCompletionPrefix(prefix)
        if self.completer.completionCount() == 0 or (
                self.completer.completionCount() == 1 and self.completer.currentCompletion() == prefix):
            self.completer.popup().hide()
            return False
        popup = self.completer.popup()
        popup.setCurrentIndex(self.completer.completionModel().index(0, 0))
        rect = self.view.cursorRect()
        rect.setWidth(max(popup.sizeHintForColumn(0) + popup.verticalScrollBar().sizeHint().width() + 12, 220))
        self.completer.complete(rect)
        return True

    def insert_completion(self, text: str) -> None:
        cursor = self.view.textCursor()
        cursor.beginEditBlock()
        cursor.setPosition(self._prefix_start, QTextCursor.KeepAnchor)
        if self._completion_kind[0] == "card":
            block_text = cursor.block().text()
            opener = block_text[self._prefix_start - cursor.block().position() - 1]
            closer = _OPEN_QUOTES.get(opener, '"')
            after = block_text[self.view.textCursor().positionInBlock():]
            cursor.insertText(text + ("" if after.startswith(tuple(_OPEN_QUOTES.values())) else closer))
        else:
            cursor.insertText(text)
        cursor.endEditBlock()
        self.view.setTextCursor(cursor)
        self.completer.popup().hide()

    def eventFilter(self, obj, event) -> bool:
        # every event of the log view comes here (paints too): the cheapest test first
        if event.type() == _KEY_PRESS and obj is self.view and self._editing:
            popup = self.completer.popup()
            key = event.key()
            if popup.isVisible() and key in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Tab):
                index = popup.currentIndex()
                if index.isValid():
                    self.insert_completion(index.data())
                    return True
            if popup.isVisible() and key == Qt.Key_Escape:
                popup.hide()
                return True
            if key == Qt.Key_Space and event.modifiers() & Qt.ControlModifier:
                self.complete(forced=True)
                return True
            if event.text() and event.text().isprintable() or key == Qt.Key_Backspace:
                QTimer.singleShot(0, self, self._complete_after_key)
        return False

    def _complete_after_key(self) -> None:
        kind, prefix, _ = self._context()
        if kind and (len(prefix) >= (1 if kind == "card" else 2)):
            self.complete()
        else:
            self.completer.popup().hide()

    # ---- saving -----------------------------------------------------------------------------------
    def save(self, path: str | None = None) -> str | None:
        """Ctrl+S: write the text (atomically, the old file kept as .bak; through a link, into the
        file it points to). Returns the path, or None when nothing was written: the question was
        answered No, or the save failed (the status bar and a message say why, and "Save As…" is
        offered: :meth:`_save_failed`)."""
        target = path or self.path
        if not target:
            target = self.ask_save_as("match.duel")
            if not target:
                return None
        data = self.data()
        same_file = path is None or (self.path is not None and _same_file(path, self.path))
        if self.conflict and same_file and QGuiApplication.platformName() not in ("offscreen", "minimal"):
            answer = QMessageBox.question(self._top(), tr("The file changed on disk"),
                                          tr("{name} was changed by another program since you opened it. Save your "
                                             "text over it? (The other version is kept in a copy of its own, "
                                             "{copy}.)", name=visible(Path(target).name),
                                             copy=f"{visible(Path(target).name)}{CONFLICT_SUFFIX}<date>"))
            if answer != QMessageBox.Yes:
                return None
        if read_only(target):
            answer = self.ask_readonly(target)
            if answer == "save-as":
                other = self.ask_save_as(target)
                return self.save(other) if other else None
            if answer != "overwrite":
                self.heldMessage.emit(tr("Not saved: {name} is read-only", name=visible(Path(target).name)), 8000)
                return None
        try:
            saved = save_file(target, data, backup=True, expected=self.disk if same_file else None)
        except OSError as e:
            return self._save_failed(target, e)
        self._take_disk(data)
        self.conflict = False
        self.view.document().setModified(False)
        self.path = target
        self.saved.emit(target, data)  # (the window watches the file, keeps the verdicts with it)
        self._update_mark()
        self.last_saved = saved
        self.heldMessage.emit(saved_message(target, saved), 30000 if saved.kept else 5000)
        self.checked_text = None
        self.checked_revision = -1
        self.recheck()
        return target

    def save_as(self) -> str | None:
        """File ▸ Save As…: the text written to a file the user names."""
        target = self.ask_save_as(self.path or "match.duel")
        return self.save(target) if target else None

    def _save_failed(self, target: str, error: OSError) -> str | None:
        """A save that could not be written: the text stays (unsaved), the status bar and a
        message say why, and "Save As…" is offered. The path saved to instead, or None."""
        why = save_error_text(target, error)
        log.debug("save failed: %s", why)
        self.heldMessage.emit(tr("Not saved: {why}", why=why), 30000)
        self.last_error = why
        if self.ask_save_failed(target, why) != "save-as":
            return None
        other = self.ask_save_as(target)
        return self.save(other) if other else None

    # the questions a save may ask (replaced in tests; offscreen none is asked: the answers are
    # those that lose nothing)
    def _ask_save_as(self, start: str) -> str | None:
        target, _ = QFileDialog.getSaveFileName(self._top(), tr("Save the log as"), start, tr("Match logs (*.duel)"))
        return target or None

    def _ask_readonly(self, target: str) -> str:
        top = self._top()
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not top.isVisible():
            return "cancel"  # never written over without a question
        box, buttons = readonly_box(top, target)
        box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def _ask_save_failed(self, target: str, why: str) -> str:
        top = self._top()
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not top.isVisible():
            return "cancel"
        box, buttons = failed_box(top, target, why)
        box.exec()
        return buttons.get(box.clickedButton(), "cancel")

    def _ask_save_changes(self) -> str:
        top = self._top()
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not top.isVisible():
            return "discard"
        answer = QMessageBox.question(top, tr("Unsaved changes"), tr("Save the changes to the log?"),
                                      QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
        return {QMessageBox.Save: "save", QMessageBox.Discard: "discard"}.get(answer, "cancel")

    def handles_file_change(self, path: str) -> bool:
        """The watched file changed: True when the editor dealt with it (the window must not reload)."""
        try:
            data = Path(path).read_bytes()
        except OSError:
            return self._editing  # gone (perhaps being renamed over): the text being edited is kept
        if data == self.disk:
            return True  # our own save (or the header the video pane wrote), already shown
        if not self._editing:
            return False
        if not self.view.document().isModified():
            return False  # nothing to lose: the window reloads, editing goes on
        if self.ask_reload():
            return False
        self.conflict = True
        # held: the re-check of the typing must not replace it with the counts before it is read
        self.heldMessage.emit(tr("{name} changed on disk; your text is kept (Ctrl+S saves it; the other "
                                 "version is then kept as {copy})", name=visible(Path(path).name),
                                 copy=f"{visible(Path(path).name)}{CONFLICT_SUFFIX}<date>"), 10000)
        return True

    def _ask_reload(self) -> bool:
        top = self._top()
        if QGuiApplication.platformName() in ("offscreen", "minimal") or not top.isVisible():
            return False  # never throw away typing without asking
        box = QMessageBox(QMessageBox.Question, tr("The file changed on disk"),
                          tr("{name} was changed by another program. Reload it and lose your unsaved changes, or "
                             "keep your text?", name=Path(self.path or "").name), QMessageBox.NoButton, top)
        box.setTextFormat(Qt.PlainText)  # the file's name
        reload = box.addButton(tr("Reload from disk"), QMessageBox.DestructiveRole)
        box.addButton(tr("Keep my text"), QMessageBox.RejectRole)
        box.exec()
        return box.clickedButton() is reload

    def confirm_close(self) -> bool:
        """Before closing or leaving edit mode: unsaved changes are saved, dropped or kept. A save
        that fails keeps them (False: the window stays open), says why and offers "Save As…"."""
        if not (self._editing and self.view.document().isModified()):
            return True
        answer = self.ask_save_changes()
        if answer == "save":
            return self.save() is not None
        return answer == "discard"

    def _update_mark(self) -> None:
        name = Path(self.path).name if self.path else tr("untitled")
        mark = "  ●" if self._editing and self.view.document().isModified() else ""
        mode = tr("  ·  editing") if self._editing else ""
        self.titleChanged.emit(tr("Log  ({name})", name=name) + mark + mode)

    def retranslate(self) -> None:
        """The window's language changed: the log pane's title says again whether it is being edited."""
        if self._editing or self.path:
            self._update_mark()

# ---- what a save says ------------------------------------------------------------------------------
def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def read_only(path: str) -> bool:
    """Whether the file at ``path`` (a link's target) is marked read-only: no one may write it,
    or this user may not (a file of mode 0444 counts for root too, as editors judge it)."""
    p = real_path(path)
    try:
        mode = p.stat().st_mode
    except OSError:
        return False  # no file yet
    return not (mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) or not os.access(p, os.W_OK)


def _where(saved_path: Path, shown: str, name: Path) -> str:
    """A kept copy's name as the status bar says it: the name alone beside the log, else its path."""
    return visible(name.name if saved_path.parent == Path(shown).parent else str(name))


def saved_message(target: str, saved: Saved) -> str:
    """The status bar after a save: where it went, where the previous file and another program's
    version are kept."""
    text = tr("Saved {path}", path=visible(target))
    if saved.path != Path(target):
        text = tr("{said} (into {path}, which the link points to)", said=text, path=visible(str(saved.path)))
    if saved.kept is not None:
        text = tr("{said}; the version another program wrote meanwhile is kept as {copy}", said=text,
                  copy=_where(saved.path, target, saved.kept))
    if saved.backup is not None:
        text = tr("{said}; the previous file is {copy}", said=text, copy=_where(saved.path, target, saved.backup))
    return text


def save_error_text(target: str, error: OSError) -> str:
    """Why a save failed, in words: the folder that cannot be written, the full disk, …"""
    folder = real_path(target).parent
    name = visible(Path(target).name)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = error.strerror or error
        if error.errno == errno.EROFS:
            return tr("{name} could not be saved: the folder {folder} is read-only ({why})", name=name,
                      folder=visible(str(folder)), why=why)
        return tr("{name} could not be saved: the folder {folder} cannot be written ({why})", name=name,
                  folder=visible(str(folder)), why=why)
    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return tr("{name} could not be saved: the disk is full ({why}); the file is as it was", name=name,
                  why=error.strerror or error)
    return tr("{name} could not be saved: {why}; the file is as it was", name=name,
              why=visible(error.strerror or str(error)))


def readonly_box(parent, target: str):
    """The question before saving over a read-only log, and its buttons' answers."""
    box = QMessageBox(QMessageBox.Warning, tr("The log is read-only"),
                      tr("{name} is marked read-only. Save your changes over it anyway, or save them as another "
                         "file?", name=visible(Path(target).name)), QMessageBox.NoButton, parent)
    box.setTextFormat(Qt.PlainText)
    buttons = {box.addButton(tr("Save Over It"), QMessageBox.DestructiveRole): "overwrite",
               box.addButton(tr("Save As…"), QMessageBox.AcceptRole): "save-as",
               box.addButton(QMessageBox.Cancel): "cancel"}
    box.setDefaultButton(next(b for b, a in buttons.items() if a == "save-as"))
    return box, buttons


def failed_box(parent, target: str, why: str):
    """The message after a save that failed (the text is still there), and its buttons' answers."""
    box = QMessageBox(QMessageBox.Critical, tr("The log was not saved"),
                      tr("{why}.\n\nYour text is still here, not saved. Save it as another file?", why=why),
                      QMessageBox.NoButton, parent)
    box.setTextFormat(Qt.PlainText)
    buttons = {box.addButton(tr("Save As…"), QMessageBox.AcceptRole): "save-as",
               box.addButton(QMessageBox.Cancel): "cancel"}
    box.setDefaultButton(next(iter(buttons)))
    return box, buttons
