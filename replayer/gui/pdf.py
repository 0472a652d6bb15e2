"""HTML to PDF with Qt's text engine (A4, text kept as text): the report's PDF writer."""

from __future__ import annotations

import os
from pathlib import Path


def html_to_pdf(html: str, path: str | os.PathLike, *, title: str = "") -> Path:
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QGuiApplication, QPageLayout, QPageSize, QPdfWriter, QTextDocument

    from .theme import ui_font

    if QGuiApplication.instance() is None:  # the command line: fonts need an application object
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        html_to_pdf._app = QGuiApplication([])  # type: ignore[attr-defined]  # kept alive
    p = Path(path)
    writer = QPdfWriter(str(p))
    writer.setTitle(title)
    writer.setCreator("replayer")
    writer.setPageSize(QPageSize(QPageSize.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Millimeter)
    writer.setResolution(300)
    text = QTextDocument()
    text.setDefaultFont(ui_font(9))
    text.setHtml(html)
    text.print_(writer)  # paginates to the writer's page size
    del writer  # flushes and closes the file
    if not p.exists() or p.stat().st_size == 0:
        raise OSError(f"could not write {p}")
    return p
