"""HTML to PDF with Qt's text engine (A4, text kept as text): the report's PDF writer."""

from __future__ import annotations

import os
from pathlib import Path


def html_to_pdf(html: str, path: str | os.PathLike, *, title: str = "", footer_text: str = "") -> Path:
    from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
    from PySide6.QtGui import (QColor, QGuiApplication, QPageLayout, QPageSize, QPainter, QPdfWriter,
                               QTextDocument)

    from .theme import ui_font

    if QGuiApplication.instance() is None:  # the command line: fonts need an application object
        from PySide6.QtWidgets import QApplication  # (a widget made later in the process needs this kind)

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        html_to_pdf._app = QApplication([])  # type: ignore[attr-defined]  # kept alive
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
    # Lay the text out for the page: the page's printable area, in the document's own units (the
    # screen's logical pixels, so that point sizes keep their size), less a footer line; without
    # it Qt laid the report out at a width of its own and the tables filled two thirds of the page.
    area = writer.pageLayout().paintRect(QPageLayout.Point)
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInch() if screen is not None else 96.0
    width, height = area.width() * dpi / 72.0, area.height() * dpi / 72.0
    footer = 22.0
    text.setDocumentMargin(0)
    text.setPageSize(QSizeF(width, height - footer))
    pages = text.pageCount()
    scale = writer.resolution() / dpi  # document units -> the writer's pixels
    painter = QPainter(writer)
    footer_font = ui_font(7.5)
    for i in range(pages):
        if i:
            writer.newPage()
        painter.save()
        painter.scale(scale, scale)
        painter.translate(0, -i * (height - footer))
        text.drawContents(painter, QRectF(0, i * (height - footer), width, height - footer))
        painter.restore()
        # the footer in the writer's own pixels (a font's points are the writer's there)
        painter.setFont(footer_font)
        painter.setPen(QColor("#6b7385"))
        top, w = (height - footer + 4) * scale, width * scale
        painter.drawLine(QPointF(0, top), QPointF(w, top))
        painter.drawText(QRectF(0, top + 2 * scale, w * 0.78, (footer - 6) * scale), Qt.AlignLeft | Qt.AlignVCenter,
                         footer_text or title)
        painter.drawText(QRectF(w * 0.78, top + 2 * scale, w * 0.22, (footer - 6) * scale),
                         Qt.AlignRight | Qt.AlignVCenter, f"page {i + 1} of {pages}")
    painter.end()
    del writer  # flushes and closes the file
    if not p.exists() or p.stat().st_size == 0:
        raise OSError(f"could not write {p}")
    return p
