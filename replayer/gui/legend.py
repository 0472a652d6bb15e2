"""The legend (F1): what every mark, colour and key of the window means."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from .theme import Theme, ui_font
from .marks import MARKERS, draw_badge, draw_marker, draw_pin

SHORTCUTS = [
    ("← / →", "previous / next event"),
    ("Home / End", "first / last event"),
    ("Space", "play / pause (speed in the toolbar)"),
    ("N / Shift+N", "next / previous finding"),
    ("Ctrl+Shift+C", "copy the event's timecode"),
    ("Ctrl+wheel, Ctrl+= / Ctrl+-", "zoom the timeline"),
    ("wheel, drag", "pan the timeline"),
    ("Ctrl+0", "fit the whole match"),
    ("Alt+C / Alt+D", "confirm / dismiss the selected finding"),
    ("Ctrl+O / Ctrl+W", "open a log / close the window"),
    ("F1", "this legend"),
]


class LegendCanvas(QWidget):
    """Draws the marks with the same code as the timeline."""

    ROW = 22

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.font_ = ui_font(9)
        self.fm = QFontMetricsF(self.font_)
        self.setMinimumSize(self.sizeHint())

    def _entries(self) -> list[tuple[str, str]]:
        return [(cat, name) for cat, (name, _) in MARKERS.items()]

    #: the texts of the lower half, left column (their widths size the columns: nothing is cut)
    LEFT_TEXTS = ("finding: error (the rules were broken)", "finding: warning (suspicious / cannot be decided)",
                  "finding: info", "finding dismissed by the reviewer", "a note (# …) on the event",
                  "chain: links 1, 2…; ⟲ 2→1 resolution order")
    BAND_TEXTS = ("turn of player A", "turn of player B", "Battle Phase / attack", "Damage Step timings (ygo)",
                  "attack sub-steps (dm)", "the selected event")

    def _columns(self) -> tuple[float, float, float]:
        """The marker columns' width, the x of the bands column, and the whole width."""
        w = self.fm.horizontalAdvance
        marker_col = 24 + max(w(name) for _, name in self._entries()) + 24
        x2 = 38 + max(w(text) for text in self.LEFT_TEXTS) + 28
        width = max(14 + 2 * marker_col, x2 + 34 + max(w(text) for text in self.BAND_TEXTS) + 14, 640)
        return marker_col, x2, width

    def sizeHint(self) -> QSize:
        rows = (len(self._entries()) + 1) // 2
        return QSize(int(self._columns()[2]) + 1, 32 + rows * self.ROW + 10 + 24 + 6 * self.ROW + 12)

    def paintEvent(self, event) -> None:
        t = self.theme
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        p.fillRect(self.rect(), QColor(t.base))
        p.setFont(self.font_)
        bold = ui_font(9)
        bold.setBold(True)
        y = 8
        p.setFont(bold)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(10, y, 300, 18), Qt.AlignVCenter, "Event markers (shape = what happened)")
        y += 24
        p.setFont(self.font_)
        entries = self._entries()
        half = (len(entries) + 1) // 2
        marker_col, x2, width = self._columns()
        for k, (cat, name) in enumerate(entries):
            col, row = divmod(k, half)
            x0 = 14 + col * marker_col
            yy = y + row * self.ROW
            draw_marker(p, cat, x0 + 8, yy + 9, 7, t)
            p.setPen(QColor(t.text))
            p.drawText(QRectF(x0 + 24, yy, marker_col - 24, 18), Qt.AlignVCenter, name)
        y += half * self.ROW + 10
        p.setFont(bold)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(10, y, 600, 18), Qt.AlignVCenter, "Findings, notes, chains and bands")
        y += 24
        p.setFont(self.font_)
        items = [("error", "finding: error (the rules were broken)"),
                 ("warning", "finding: warning (suspicious / cannot be decided)"),
                 ("info", "finding: info")]
        for k, (sev, text) in enumerate(items):
            draw_badge(p, 22, y + 9 + k * self.ROW, 6.5, sev, t)
            p.setFont(self.font_)
            p.setPen(QColor(t.text))
            p.drawText(QRectF(38, y + k * self.ROW, x2 - 38, 18), Qt.AlignVCenter, text)
        draw_badge(p, 22, y + 9 + 3 * self.ROW, 6.5, "error", t, dismissed=True)
        p.setFont(self.font_)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, y + 3 * self.ROW, x2 - 38, 18), Qt.AlignVCenter, "finding dismissed by the reviewer")
        draw_pin(p, 22, y + 15 + 4 * self.ROW, t, 4.0)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, y + 4 * self.ROW, x2 - 38, 18), Qt.AlignVCenter, "a note (# …) on the event")
        # chain bracket
        cy = y + 5 * self.ROW + 10
        pen = QPen(QColor(t.chain), 1.6)
        p.setPen(pen)
        p.drawLine(QPointF(14, cy), QPointF(34, cy))
        p.drawLine(QPointF(14, cy), QPointF(14, cy - 6))
        p.drawLine(QPointF(24, cy), QPointF(24, cy + 6))
        p.drawLine(QPointF(34, cy - 4), QPointF(34, cy + 4))
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, cy - 9, x2 - 38, 18), Qt.AlignVCenter, "chain: links 1, 2…; ⟲ 2→1 resolution order")
        # bands
        bands = [(t.turn["A"], "turn of player A"), (t.turn["B"], "turn of player B"),
                 (t.phase_battle, "Battle Phase / attack"), (t.timing, "Damage Step timings (ygo)"),
                 (t.substep, "attack sub-steps (dm)"), (t.selection, "the selected event")]
        for k, (color, text) in enumerate(bands):
            yy = y + k * self.ROW
            p.setPen(QPen(QColor(t.grid), 1))
            p.setBrush(QColor(color))
            p.drawRect(QRectF(x2, yy + 3, 26, 13))
            p.setPen(QColor(t.text))
            p.drawText(QRectF(x2 + 34, yy, width - x2 - 34, 18), Qt.AlignVCenter, text)
        p.end()


class LegendDialog(QDialog):
    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Legend")
        canvas = LegendCanvas(theme, self)
        keys = QLabel()
        keys.setTextFormat(Qt.RichText)
        rows = "".join(f"<tr><td style='padding-right:14px; white-space:nowrap'><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        keys.setText(f"<b>Keys</b><table>{rows}</table><p style='color:{theme.dim}'>Level of detail: labels "
                     "appear from 24 px per event, markers from 6 px; below that each pixel column shows how "
                     "many events it holds and its worst finding.</p>")
        keys.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        top = QHBoxLayout()
        top.addWidget(canvas)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addSpacing(10)
        layout.addWidget(keys)
        layout.addWidget(buttons)
