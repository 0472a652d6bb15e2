"""Small widgets that let the window shrink to a laptop's screen without clipping text.

* :class:`ElidedLabel` — a one-line plain-text label that elides its text (``…``) when it is
  narrower than the text, and says the whole text in its tooltip then;
* :class:`FlowLayout` — lays out its widgets in a row and wraps onto the next row when the
  row is too narrow (the findings pane's filters).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QLayout, QLayoutItem, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """A plain-text label that may be narrower than its text: it elides it and the tooltip tells it.

    :meth:`text` is the whole text; the minimum width is a few characters.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setTextFormat(Qt.PlainText)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self._tip_is_text = False

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("Timeline…") + 16), hint.height())

    def setText(self, text: str) -> None:
        super().setText(text)
        self._update_tip()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def elided(self) -> bool:
        """Is the text wider than the label (so shown elided)?"""
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def shown_text(self) -> str:
        """The text as painted: whole, or elided to the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.ElideRight, self.contentsRect().width())

    def _update_tip(self) -> None:
        if self.elided():
            self.setToolTip(self.text())
            self._tip_is_text = True
        elif self._tip_is_text:
            self.setToolTip("")
            self._tip_is_text = False

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        self.style().drawItemText(painter, rect, int(self.alignment().value), self.palette(), self.isEnabled(),
                                  self.shown_text(), self.foregroundRole())


class FlowLayout(QLayout):
    """Widgets in rows: as many as fit on a row, the rest on the next (height for width)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6, row_spacing: int = 2):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._row_spacing = row_spacing
        self.setContentsMargins(0, 0, 0, 0)

    # ---- QLayout's interface ------------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._do_layout(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:
        """All on one row."""
        w = h = 0
        for item in self._visible():
            hint = item.sizeHint()
            w += hint.width() + (self._spacing if w else 0)
            h = max(h, hint.height())
        m = self.contentsMargins()
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        """As wide as the widest item."""
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # ---- the layout itself ------------------------------------------------------------------------
    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not (i.widget() is not None and i.widget().isHidden())]

    def _do_layout(self, rect: QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_h = area.x(), area.y(), 0
        for item in self._visible():
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:  # wrap onto the next row
                x = area.x()
                y += row_h + self._row_spacing
                row_h = 0
            if apply:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            row_h = max(row_h, hint.height())
        return y + row_h - rect.y() + m.bottom()


def title_label(text: str) -> QLabel:
    """A pane's title: bold, plain text (it may show text from the log: never as markup)."""
    label = QLabel(text)
    label.setTextFormat(Qt.PlainText)  # it shows text from the log: never as markup
    f = label.font()
    f.setBold(True)
    label.setFont(f)
    return label
