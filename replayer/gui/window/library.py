"""The match library in the window: a dock with :class:`~replayer.gui.library.view.LibraryView`
(hidden at first) and File ▸ Library ▸ Browse Library; the match the user chose opens in the
window. ``replayer view`` registers :func:`install` as a window extension."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ...check import read_text
from ..library.view import LibraryView
from ..shared.language import M, live

if TYPE_CHECKING:
    from ..app import MainWindow


def install(window: MainWindow, db_path: str | os.PathLike[str] | None = None) -> LibraryView:
    """Put the Library view into a review window (``replayer.gui.app.MainWindow``).

    Adds a dock with the view (hidden at first) and a "Browse Library" action to the window's
    ``library_menu``; a match chosen in the view opens in the window. Meant for
    ``register_extension(install)``.
    """
    from PySide6.QtWidgets import QDockWidget

    view = LibraryView(db_path, window)
    dock = live(QDockWidget(window), M("Match Library"), "setWindowTitle")
    dock.setObjectName("library-dock")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    menu = getattr(window, "library_menu", None)
    if menu is not None:
        for action in list(menu.actions()):
            if not action.isEnabled():  # the "not installed" placeholder
                menu.removeAction(action)
        browse = live(dock.toggleViewAction(), M("&Browse Library"))
        menu.addAction(browse)
    view.open_requested.connect(lambda path: window.open_path(path))

    def open_stored(path: str, revision: int) -> None:
        text = view.match_text(path, revision)
        if text is not None:
            window.open_match(read_text(text, path), path)

    view.open_revision.connect(open_stored)
    window.library_view = view
    return view
