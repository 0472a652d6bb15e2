"""The State pane: the game state after the selected event, as a tree of items and values."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTreeView, QVBoxLayout, QWidget

from ...safe import tooltip
from ...states import GameState
from ..shared.language import tr
from ..shared.models import StateModel
from ..shared.theme import Theme
from ..shared.widgets import title_label


class StatePane(QWidget):
    """The game state after the selected event."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = StateModel(self)
        self.title = title_label(tr("State"))
        self._shown: tuple = (None, None, "", None)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.view = QTreeView()
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(False)
        self.view.setSelectionMode(QAbstractItemView.NoSelection)
        self.view.setFocusPolicy(Qt.NoFocus)
        self.view.header().setStretchLastSection(True)
        self.view.setColumnWidth(0, 170)
        self.view.setIndentation(14)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        layout.addWidget(self.view, 1)

    def set_state(self, state: GameState | None, players: dict[str, str] | None, source: str = "",
                  tree: tuple | None = None) -> None:
        """Show ``state`` (``tree``: its rows when already built, see :meth:`Document.state_tree`)."""
        self._shown = (state, players, source, tree)
        if self.model.set_state(state, players, tree=tree):
            self.view.expandAll()
        if state is None or state.index < 0:
            self.title.setText(tr("State"))
        elif state.timecode:
            self.title.setText(tr("State after line {line} · {timecode}", line=state.line, timecode=state.timecode))
        else:
            self.title.setText(tr("State after line {line}", line=state.line))
        self.title.setToolTip(tooltip(source) if source else "")

    def set_theme(self, theme: Theme) -> None:
        self.model.set_theme(theme)

    def retranslate(self) -> None:
        """The window's language changed: the column headers and the title (the rows come with the
        next :meth:`set_state`, built in the new language)."""
        self.model.headerDataChanged.emit(Qt.Horizontal, 0, len(self.model.COLUMNS) - 1)
        state = self._shown[0]
        if state is None or state.index < 0:
            self.title.setText(tr("State"))
