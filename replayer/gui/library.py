"""The Library view: browse and search the match library, open a match.

:class:`LibraryView` is a widget with a search bar (player, event, card, dates, text in the
notes, "with errors only") over a table of matches; a double click, Enter or the Open button
emits :attr:`LibraryView.open_requested` with the log's path (and :attr:`LibraryView.open_revision`
with the path and revision, for a match whose file is gone: its text is in the library).

The view opens its own connection to the library (WAL: an import may run at the same time);
queries are small and indexed, so they run on the GUI thread.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QTableView,
                               QVBoxLayout, QWidget)

from .. import store
from ..safe import tooltip

COLUMNS = [
    ("date", "Date"), ("event", "Event"), ("round", "Round"), ("table_no", "Table"), ("players", "Players"),
    ("game", "Game"), ("error_count", "Errors"), ("warning_count", "Warnings"), ("file", "File"),
]


class LibraryModel(QAbstractTableModel):
    """Rows of :func:`replayer.store.search` matches (dicts); read-only."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[dict[str, Any]] = []

    def set_rows(self, rows: list[dict[str, Any]]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

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
            return COLUMNS[section][1]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        row = self.row(index)
        if row is None or not 0 <= index.column() < len(COLUMNS):
            return None
        key = COLUMNS[index.column()][0]
        if role == Qt.ItemDataRole.DisplayRole:
            if key == "players":
                return f"{row['player_a']} vs {row['player_b']}"
            if key == "file":
                return Path(row["path"]).name
            value = row.get(key)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(row["path"])
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
        self.model = LibraryModel(self)

        self.player = QLineEdit(placeholderText="player")
        self.event = QLineEdit(placeholderText="event")
        self.card = QLineEdit(placeholderText="card")
        self.date_from = QLineEdit(placeholderText="from 2024-01-01")
        self.date_to = QLineEdit(placeholderText="to 2024-12-31")
        self.text = QLineEdit(placeholderText="words in the notes")
        self.errors_only = QCheckBox("with errors")
        self.open_button = QPushButton("Open")
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # paths and SQLite's messages
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
                self.status.setText(f"No library yet at {self.db_path}: import logs with `replayer import FOLDER`.")
                return
            try:
                self._db = store.open_library(self.db_path)
            except store.LibraryError as e:
                self.model.set_rows([])
                self.status.setText(str(e))
                return
        try:
            result = store.search(self._db, self.filters(), limit=self.limit)
        except Exception as e:  # a malformed date or FTS query must not take the window down
            self.status.setText(f"search failed: {e}")
            return
        self.model.set_rows(result.matches)
        header = self.table.horizontalHeader()
        self.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        shown = len(result.matches)
        more = f" (first {shown} shown)" if result.total_matches > shown else ""
        self.status.setText(f"{result.total_matches} match{'es' if result.total_matches != 1 else ''}{more}")

    def open_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self._open_index(rows[0])

    def _open_index(self, index: QModelIndex) -> None:
        row = self.model.row(index)
        if row is None:
            return
        if Path(row["path"]).is_file():
            self.open_requested.emit(row["path"])
        else:
            self.open_revision.emit(row["path"], int(row["revision"]))

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


def install(window, db_path: str | os.PathLike[str] | None = None) -> LibraryView:
    """Put the Library view into a review window (``replayer.gui.app.MainWindow``).

    Adds a dock with the view (hidden at first) and a "Browse Library" action to the window's
    ``library_menu``; a match chosen in the view opens in the window. Meant for
    ``register_extension(install)``.
    """
    from PySide6.QtWidgets import QDockWidget

    from ..check import read_text

    view = LibraryView(db_path, window)
    dock = QDockWidget("Match Library", window)
    dock.setObjectName("library-dock")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    menu = getattr(window, "library_menu", None)
    if menu is not None:
        for action in list(menu.actions()):
            if not action.isEnabled():  # the "not installed" placeholder
                menu.removeAction(action)
        browse = dock.toggleViewAction()
        browse.setText("&Browse Library")
        menu.addAction(browse)
    view.open_requested.connect(lambda path: window.open_path(path))

    def open_stored(path: str, revision: int) -> None:
        text = view.match_text(path, revision)
        if text is not None:
            window.open_match(read_text(text, path), path)

    view.open_revision.connect(open_stored)
    window.library_view = view
    return view
