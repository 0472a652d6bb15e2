"""The Library view: browse and search the match library, open a match.

:class:`LibraryView` is a widget with a search bar (player, event, card, dates, text in the
notes, "with errors only") over a table of matches; a double click, Enter or the Open button
emits :attr:`LibraryView.open_requested` with the log's path (and :attr:`LibraryView.open_revision`
with the path and revision, for a match whose file is gone: its text is in the library).

A log that is not where the library has it is marked "missing" in the table. Opening it looks
for it by its content under the library's root (:func:`replayer.store.locate`, what
``replayer library relink`` does for all): found, it opens from where it is now and the
library points there from then on; not found, the text kept in the library opens and the
status line says so.

The view opens its own connection to the library (WAL: an import may run at the same time);
queries are small and indexed, so they run on the GUI thread.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QTableView,
                               QVBoxLayout, QWidget)

from ... import games, store
from ...safe import tooltip
from ..shared.language import M, live, plural, text, tr

COLUMNS = [
    ("date", M("Date")), ("event", M("Event")), ("round", M("Round")), ("table_no", M("Table")),
    ("players", M("Players")), ("game", M("Game")), ("error_count", M("Errors")), ("warning_count", M("Warnings")),
    ("file", M("File")),
]


class LibraryModel(QAbstractTableModel):
    """Rows of :func:`replayer.store.search` matches (dicts); read-only."""

    #: what the File column says after the name of a log that is not where the library has it
    MISSING = M("missing")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[dict[str, Any]] = []
        self._missing: set[str] = set()

    def set_rows(self, rows: list[dict[str, Any]], missing: set[str] | None = None) -> None:
        """Show ``rows``; ``missing``: the paths of those whose log is not on disk."""
        self.beginResetModel()
        self._rows = list(rows)
        self._missing = set(missing or ())
        self.endResetModel()

    def is_missing(self, row: dict[str, Any]) -> bool:
        return row["path"] in self._missing

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        key = COLUMNS[column][0]

        def sort_key(row: dict[str, Any]):
            if key == "players":
                value: Any = f"{row['player_a']} {row['player_b']}".casefold()
            elif key == "file":
                value = Path(row["path"]).name
            else:
                value = row.get(key)
            if isinstance(value, str) and value.isdigit():
                value = int(value)  # round and table numbers
            return (value is None, isinstance(value, str), value if value is not None else 0)

        self.layoutAboutToBeChanged.emit()
        self._rows.sort(key=sort_key, reverse=order == Qt.SortOrder.DescendingOrder)
        self.layoutChanged.emit()

    def row(self, index: QModelIndex | QPersistentModelIndex) -> dict[str, Any] | None:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self._rows[index.row()]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(COLUMNS):
            return text(COLUMNS[section][1])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        row = self.row(index)
        if row is None or not 0 <= index.column() < len(COLUMNS):
            return None
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if key == "players":
                return tr("{a} vs {b}", a=row["player_a"], b=row["player_b"])
            if key == "file":
                name = Path(row["path"]).name
                return f"{name} ({text(self.MISSING)})" if self.is_missing(row) else name
            value = row.get(key)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            if self.is_missing(row):
                return tooltip(tr("{path}\nnot there: opening it looks for it by its content under the library's "
                                  "root, else opens the text kept in the library", path=row["path"]))
            return tooltip(row["path"])
        if role == Qt.ItemDataRole.FontRole and key == "file" and self.is_missing(row):
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("error_count", "warning_count", "round", "table_no"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return row["path"]
        return None


class LibraryView(QWidget):
    """Browse and search the library; emits :attr:`open_requested` (path) to open a match."""

    open_requested = Signal(str)
    #: (path, revision): for a match whose file is no longer on disk, open the text kept in the library
    open_revision = Signal(str, int)

    def __init__(self, db_path: str | os.PathLike[str] | None = None, parent: QWidget | None = None,
                 limit: int = 2000):
        super().__init__(parent)
        self.db_path = Path(db_path) if db_path is not None else store.default_library_path()
        self.limit = limit
        self._db = None
        self._scan: store.LogScan | None = None  # the logs under the root, hashed when asked (per refresh)
        self.model = LibraryModel(self)

        self.player = live(QLineEdit(), M("player"), "setPlaceholderText")
        self.event = live(QLineEdit(), M("event"), "setPlaceholderText")
        self.card = live(QLineEdit(), M("card"), "setPlaceholderText")
        self.date_from = live(QLineEdit(), M("from 2024-01-01"), "setPlaceholderText")
        self.date_to = live(QLineEdit(), M("to 2024-12-31"), "setPlaceholderText")
        self.text = live(QLineEdit(), M("words in the notes"), "setPlaceholderText")
        self.errors_only = live(QCheckBox(), M("with errors"))
        self.open_button = live(QPushButton(), M("Open"))
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # paths and SQLite's messages
        self.status.setWordWrap(True)  # a missing log's message names its path
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # newest first
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)

        bar = QHBoxLayout()
        for w in (self.player, self.event, self.card, self.date_from, self.date_to, self.text, self.errors_only):
            bar.addWidget(w)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

        self._debounce = QTimer(self, singleShot=True, interval=250)
        self._debounce.timeout.connect(self.refresh)
        for edit in (self.player, self.event, self.card, self.date_from, self.date_to, self.text):
            edit.textChanged.connect(self._debounce.start)
            edit.returnPressed.connect(self.refresh)
        self.errors_only.toggled.connect(self.refresh)
        self.table.doubleClicked.connect(self._open_index)
        self.table.activated.connect(self._open_index)
        self.open_button.clicked.connect(self.open_selected)

    # ---- data ---------------------------------------------------------------------------
    def filters(self) -> store.Filters:
        def value(edit: QLineEdit) -> str | None:
            return edit.text().strip() or None

        card = value(self.card)
        return store.Filters(player=value(self.player), event=value(self.event), card=(card,) if card else (),
                             date_from=value(self.date_from), date_to=value(self.date_to), text=value(self.text),
                             severity=("error",) if self.errors_only.isChecked() else ())

    def refresh(self) -> None:
        """Run the search again (the library may have grown) and show the matches."""
        if self._db is None:
            if not self.db_path.is_file():
                self.model.set_rows([])
                self.status.setText(tr("No library yet at {path}: import logs with `replayer import FOLDER`.",
                                       path=self.db_path))
                return
            try:
                self._db = store.open_library(self.db_path)
            except store.LibraryError as e:
                self.model.set_rows([])
                self.status.setText(str(e))
                return
        try:
            result = store.search(self._db, self.filters(), limit=self.limit, games=games.ALL.values())
        except Exception as e:  # a malformed date or FTS query must not take the window down
            self.status.setText(tr("search failed: {error}", error=e))
            return
        self._scan = None
        missing = {m["path"] for m in result.matches if not Path(m["path"]).is_file()}
        self.model.set_rows(result.matches, missing)
        header = self.table.horizontalHeader()
        self.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        shown = len(result.matches)
        said = plural(result.total_matches, M("{n} match"), M("{n} matches"), grouped=False)
        if result.total_matches > shown:
            said = tr("{said} (first {shown} shown)", said=said, shown=shown)
        if missing:
            said = plural(len(missing), M("{said}; {n} log missing (not where the library has them; opening one "
                                          "looks for it by its content)"),
                          M("{said}; {n} logs missing (not where the library has them; opening one looks for it "
                            "by its content)"), grouped=False, said=said)
        self.status.setText(said)

    def open_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self._open_index(rows[0])

    def _open_index(self, index: QModelIndex) -> None:
        row = self.model.row(index)
        if row is None:
            return
        path = row["path"]
        if Path(path).is_file() or self._db is None:
            self.open_requested.emit(path)
            return
        located = self.locate(path)
        if located.found:
            said = tr("{name} moved: found by its content at {path}", name=Path(path).name, path=located.path)
            if located.recorded:
                said = tr("{said} (the library points there now)", said=said)
            self.status.setText(said)
            self.open_requested.emit(located.path)
            if located.recorded:
                status = self.status.text()
                self.refresh()
                self.status.setText(status)
            return
        if located.status == "unknown":  # relinked or removed by another process since the list was made
            self.refresh()
            self.status.setText(tr("{name}: the library changed since the list was shown; it is shown again, open "
                                   "the match once more", name=Path(path).name))
            return
        if located.status == "error":
            why = tr("looking for it failed ({error})", error=located.candidates[0])
        elif located.status == "edited":
            why = tr("a file of its name has other content ({path}): not opened in its place "
                     "(`replayer library move` relinks it)", path=located.candidates[0])
        else:
            why = tr("no file with its content under the library's root")
        self.status.setText(tr("{name} is missing: not at {path}; {why}. Showing the text kept in the library "
                               "(revision {revision}).", name=Path(path).name, path=path, why=why,
                               revision=row["revision"]))
        self.open_revision.emit(path, int(row["revision"]))

    def locate(self, path: str) -> store.Located:
        """Where the log the library has at ``path`` is now (:func:`replayer.store.locate`): a
        move found is written into the library."""
        if self._scan is None:
            self._scan = store.LogScan(store.library_root(self._db.conn))
        try:
            return store.locate(self._db, path, scan=self._scan)
        except Exception as e:  # a library gone bad must not take the window down
            return store.Located("error", path, path, candidates=[str(e)])

    def match_text(self, path: str, revision: int | None = None) -> str | None:
        """The text of a match as stored (for :attr:`open_revision`)."""
        if self._db is None:
            return None
        return store.match_text(self._db, path, revision)

    def close_library(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def showEvent(self, event) -> None:  # noqa: N802 (Qt)
        super().showEvent(event)
        self.refresh()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt)
        self.close_library()
        super().closeEvent(event)
