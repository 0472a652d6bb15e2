"""The timeline's marks: event markers, finding badges and note pins (shared with the legend).

Part of :mod:`replayer.gui.timeline.view`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from .theme import Theme, ui_font
from .language import M

# Qt's enum members bound once: PySide6 looks a short name such as Qt.AlignLeft up at every use
# (a few µs each), and these are used for every marker painted
_NO_PEN, _NO_BRUSH, _MITER, _CENTER = Qt.NoPen, Qt.NoBrush, Qt.MiterJoin, Qt.AlignCenter

#: marker category -> (legend name: a message of the window's catalog, shape)
MARKERS = {
    "summon": (M("summon / charge"), "square"),
    "set": (M("set (face-down)"), "square-hollow"),
    "attack": (M("attack declaration"), "triangle"),
    "activate": (M("activation / trigger / declaration"), "circle"),
    "resolved": (M("ability resolves (dm)"), "circle-hollow"),
    "damage": (M("damage / shield break"), "diamond"),
    "lp": (M("Life Points stated"), "diamond-hollow"),
    "stat": (M("ATK / position / flip"), "triangle-up"),
    "destroy": (M("destroyed"), "cross"),
    "move": (M("card moves (GY, hand, banished…)"), "small-square"),
    "negate": (M("negated"), "slash"),
    "block": (M("block / guardman / redirect"), "shield"),
    "tap": (M("tap / untap"), "bar"),
    "draw": (M("draw"), "dot-hollow"),
    "pass": (M("pass"), "dot"),
    "resolve": (M("chain resolves"), "resolve"),
    "battle": (M("battle (dm)"), "battle"),
    "end": (M("attack ends / Battle Phase ended"), "end"),
    "win": (M("direct attack / win"), "star"),
    "structure": (M("turn / phase / step / timing line"), "tick"),
}


def marker_color(theme: Theme, category: str) -> QColor:
    key = {"set": "summon", "resolved": "activate", "lp": "damage", "negate": "destroy", "tap": "block",
           "win": "damage", "end": "structure", "battle": "attack"}.get(category, category)
    return QColor(theme.marker.get(key, theme.marker["structure"]))


def draw_marker(p: QPainter, category: str, x: float, y: float, r: float, theme: Theme) -> None:
    """Draw one event marker centred on (x, y) with radius ``r`` (shared with the legend)."""
    shape = MARKERS.get(category, ("", "dot"))[1]
    c = marker_color(theme, category)
    pen = QPen(c, max(1.2, r / 4))
    pen.setJoinStyle(_MITER)
    if shape.endswith("hollow") or shape in ("cross", "slash", "end", "tick", "resolve", "battle"):
        p.setBrush(_NO_BRUSH)
        p.setPen(pen)
    else:
        p.setBrush(c)
        p.setPen(_NO_PEN)
    if shape in ("square", "square-hollow"):
        p.drawRect(QRectF(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7))
    elif shape == "small-square":
        p.drawRect(QRectF(x - r * 0.6, y - r * 0.6, r * 1.2, r * 1.2))
    elif shape == "triangle":
        p.drawPolygon(QPolygonF([QPointF(x - r * 0.8, y - r), QPointF(x + r, y), QPointF(x - r * 0.8, y + r)]))
    elif shape == "triangle-up":
        p.drawPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y + r * 0.8), QPointF(x - r, y + r * 0.8)]))
    elif shape in ("circle", "circle-hollow"):
        p.drawEllipse(QPointF(x, y), r * 0.9, r * 0.9)
    elif shape in ("diamond", "diamond-hollow"):
        p.drawPolygon(QPolygonF([QPointF(x, y - r), QPointF(x + r, y), QPointF(x, y + r), QPointF(x - r, y)]))
    elif shape == "cross":
        pen.setWidthF(max(1.6, r / 3))
        p.setPen(pen)
        d = r * 0.75
        p.drawLine(QLineF(x - d, y - d, x + d, y + d))
        p.drawLine(QLineF(x - d, y + d, x + d, y - d))
    elif shape == "slash":
        p.drawEllipse(QPointF(x, y), r * 0.8, r * 0.8)
        p.drawLine(QLineF(x - r * 0.55, y + r * 0.55, x + r * 0.55, y - r * 0.55))
    elif shape == "shield":
        path = QPainterPath()
        path.moveTo(x - r * 0.8, y - r * 0.8)
        path.lineTo(x + r * 0.8, y - r * 0.8)
        path.lineTo(x + r * 0.8, y + r * 0.1)
        path.quadTo(x + r * 0.6, y + r * 0.8, x, y + r)
        path.quadTo(x - r * 0.6, y + r * 0.8, x - r * 0.8, y + r * 0.1)
        path.closeSubpath()
        p.drawPath(path)
    elif shape == "bar":
        p.drawRect(QRectF(x - r * 0.3, y - r, r * 0.6, r * 2))
    elif shape in ("dot", "dot-hollow"):
        p.drawEllipse(QPointF(x, y), r * 0.45, r * 0.45)
    elif shape == "resolve":
        p.drawArc(QRectF(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6), 40 * 16, 280 * 16)
        p.setBrush(c)
        p.setPen(_NO_PEN)
        p.drawPolygon(QPolygonF([QPointF(x + r * 0.55, y - r * 0.95), QPointF(x + r * 1.0, y - r * 0.35),
                                 QPointF(x + r * 0.25, y - r * 0.35)]))
    elif shape == "battle":
        pen.setWidthF(max(1.8, r / 3))
        p.setPen(pen)
        p.drawLine(QLineF(x - r, y - r, x + r, y + r))
        p.drawLine(QLineF(x - r, y + r, x + r, y - r))
        p.drawLine(QLineF(x - r, y - r * 0.4, x - r * 0.4, y - r))
        p.drawLine(QLineF(x + r, y - r * 0.4, x + r * 0.4, y - r))
    elif shape == "end":
        p.drawLine(QLineF(x, y - r, x, y + r))
        p.drawLine(QLineF(x - r * 0.5, y - r, x + r * 0.5, y - r))
        p.drawLine(QLineF(x - r * 0.5, y + r, x + r * 0.5, y + r))
    elif shape == "star":
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append(QPointF(x + rr * math.cos(a), y + rr * math.sin(a)))
        p.drawPolygon(QPolygonF(pts))
    elif shape == "tick":
        p.drawLine(QLineF(x, y - r * 0.6, x, y + r * 0.6))


def draw_badge(p: QPainter, x: float, y: float, r: float, severity: str, theme: Theme, *,
               dismissed: bool = False, count: int = 1) -> None:
    """A finding badge: a disc in the severity colour with a glyph (a ring once dismissed)."""
    c = QColor(theme.severity.get(severity, theme.severity["info"]))
    if dismissed:
        p.setBrush(QColor(theme.base))
        p.setPen(QPen(QColor(theme.dismissed), 1.5))
    else:
        p.setBrush(c)
        p.setPen(QPen(QColor(theme.base), 1.2))
    p.drawEllipse(QPointF(x, y), r, r)
    if r >= 5:
        glyph = "i" if severity == "info" else "!"
        if count > 1:
            glyph = str(min(count, 9))
        p.setFont(_badge_font(int(r * 1.5)))
        p.setPen(QColor(theme.dismissed) if dismissed else QColor("#ffffff"))
        p.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), _CENTER, glyph)


_BADGE_FONTS: dict[int, QFont] = {}


def _badge_font(pixels: int) -> QFont:
    f = _BADGE_FONTS.get(pixels)
    if f is None:
        f = QFont(ui_font())
        f.setPixelSize(max(pixels, 6))
        f.setBold(True)
        _BADGE_FONTS[pixels] = f
    return f


def draw_pin(p: QPainter, x: float, y: float, theme: Theme, size: float = 5.0) -> None:
    """A note pin: a stem with a round head."""
    p.setPen(QPen(QColor(theme.note_text), 1.2))
    p.drawLine(QLineF(x, y, x, y - size * 1.6))
    p.setBrush(QColor(theme.note))
    p.setPen(QPen(QColor(theme.note_text), 1))
    p.drawEllipse(QPointF(x, y - size * 1.6 - size * 0.6), size * 0.75, size * 0.75)
