"""New logs in the editor: File ▸ New Log (and the window opened without a log, or on an empty
file) and File ▸ New Match from Video…. The methods are :class:`~replayer.gui.log.editor.LogEditor`'s."""

from __future__ import annotations

import datetime
from pathlib import Path
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QFileDialog, QInputDialog

from ...logtext import new_log
from ..shared.language import tr
from ..shared.savefile import atomic_write, encode_text

#: the name a log typed in the window goes by until it is saved (never a file's name)
UNTITLED = "<untitled>"


def blank_log(game: str, today: datetime.date | None = None) -> str:
    """The text of a new log typed by hand: the header to fill in, and the first turn."""
    tags = [("Game", game), ("A", "A"), ("B", "B"), ("Event", ""),
            ("Date", (today or datetime.date.today()).isoformat())]
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\nturn 1 A\n"


class UnsavedVerdicts:
    """Where the verdicts of a log not saved yet wait (nowhere): they go with it when it is saved."""

    def load(self, log_path: str) -> list:
        return []

    def save(self, log_path: str, entries) -> None:
        pass


class NewLogMixin:
    """File ▸ New Log and File ▸ New Match from Video… of :class:`~replayer.gui.log.editor.LogEditor`."""

    # ---- a new log ----------------------------------------------------------------------------------
    def new_log(self, game: str | None = None) -> bool:
        """File ▸ New, and the window opened without a log: an untitled log with its header ready
        to fill in, being edited; Ctrl+S asks where to save it. False if unsaved changes to the log
        being edited were kept (the question was cancelled)."""
        from ... import games
        from ...check import check_text
        from ...reviews import Reviews
        from ..document import build_document

        if not self.confirm_close():
            return False
        self.path = None
        self._read = None
        self.disk = None
        self.bom = False
        self.newline = "\n"
        self.conflict = False
        text = blank_log(game if game in games.ALL else games.DEFAULT.id)
        self.view.set_text(text)
        doc = build_document(check_text(text, UNTITLED), UNTITLED)
        self.newLog.emit(doc, Reviews(UNTITLED, doc.match.lines, backend=UnsavedVerdicts()))  # (the window shows it)
        self.rechecker.base = doc.result
        if self._editing:
            self.view.setReadOnly(False)
            self.view.setTextInteractionFlags(Qt.TextEditorInteraction)
            self.checked_text = self.text()
            self.view.document().setModified(False)
        else:
            self.start()
        cursor = self.view.textCursor()
        cursor.movePosition(QTextCursor.End)
        self.view.setTextCursor(cursor)
        self._update_mark()
        self.message.emit(tr("A new log: fill in the header and type the events; Ctrl+S saves it"), 8000)
        return True

    def _after_load(self) -> None:
        """A log that is empty on disk (a new file) opens in the editor with the header to fill in,
        as an unsaved change (Ctrl+S writes it to that file)."""
        if self._editing or self.doc is None or not self.path or self.view.document().characterCount() > 4096:
            return
        if self.view.toPlainText().strip():
            return
        self.start()
        cursor = QTextCursor(self.view.document())
        cursor.select(QTextCursor.Document)
        cursor.insertText(blank_log(self.game()))
        self.view.setTextCursor(cursor)

    # ---- a new match --------------------------------------------------------------------------------
    def new_from_video_dialog(self) -> None:
        top = self._top()
        video, _ = QFileDialog.getOpenFileName(top, tr("The match's video"), "",
                                               tr("Videos (*.mp4 *.mkv *.webm *.mov *.avi *.m4v *.ts);;All files (*)"))
        if not video:
            return
        from ... import games

        game, ok = QInputDialog.getItem(top, tr("New match"), tr("Game:"), list(games.ALL), 0, False)
        if not ok:
            return
        target, _ = QFileDialog.getSaveFileName(top, tr("Save the new log as"), str(Path(video).with_suffix(".duel")),
                                                tr("Match logs (*.duel)"))
        if target:
            self.new_from_video(video, target, game)

    def new_from_video(self, video: str, target: str, game: str | None = None) -> str:
        """Start a log for ``video`` at ``target`` (header filled), open it and edit it."""
        video_p = Path(video).resolve()
        folder = Path(target).resolve().parent
        try:
            value = video_p.relative_to(folder).as_posix()
        except ValueError:
            value = str(video_p)
        from ... import games

        text = new_log(game or games.DEFAULT.id, value, extra={"Event": video_p.stem})
        if Path(target).exists():
            raise FileExistsError(tr("{path} exists already; choose another name", path=target))
        atomic_write(target, encode_text(text), backup=False)
        self.openRequested.emit(target)  # (the window opens it)
        self.start()
        cursor = self.view.textCursor()
        cursor.movePosition(QTextCursor.End)
        self.view.setTextCursor(cursor)
        return target
