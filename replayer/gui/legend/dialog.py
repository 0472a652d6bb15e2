"""The legend (F1): what every mark, colour and key of the window means.

The keys are read from the window itself: every ``QAction`` and ``QShortcut`` that has a key
(the window's, the video pane's, the editor's, an extension's), under the menu that shows it (a
submenu's own title for the entries of a submenu that has keys: View ▸ Video is "Video"),
plus the keys a widget handles itself, which it declares in ``LEGEND_KEYS`` (the timeline's
wheel and drag). There is no second list of shortcuts to keep in step.
"""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QColor, QFontMetricsF, QGuiApplication, QKeySequence, QPainter, QPen, QShortcut
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFrame, QLabel, QMenu, QScrollArea, QTabWidget,
                               QVBoxLayout, QWidget)

from ..shared.theme import Theme, ui_font
from ..shared.marks import MARKERS, draw_badge, draw_marker, draw_pin
from ...textwidth import width
from ..shared.language import M, text, tr

#: the arrow keys as Qt names them (in English, and in German with Qt's translations) -> the arrow
_ARROWS = {"Left": "←", "Right": "→", "Up": "↑", "Down": "↓", "Links": "←", "Rechts": "→", "Oben": "↑", "Unten": "↓"}
#: the group of keys no menu shows (an extension's shortcut, for one)
OTHER = M("Other keys")
#: what a key does is said by the action's tooltip (less the key) up to this long (in columns: a
#: Japanese character is two), else by its menu entry
TIP_MAX = 48


def key_text(seq: QKeySequence) -> str:
    """A key as the legend writes it: ``Shift+←``, ``Ctrl+T``."""
    text = seq.toString(QKeySequence.NativeText)
    return re.sub(r"\b(Left|Right|Up|Down|Links|Rechts|Oben|Unten)\b", lambda m: _ARROWS[m.group(1)], text)


def _title(menu: QMenu) -> str:
    """A menu's title without its mnemonic: ``&View`` -> ``View``, ``表示(&V)`` -> ``表示``."""
    return re.sub(r"\(&\w\)", "", menu.title()).replace("&", "").strip()


def _keys_of(item) -> list[str]:
    seqs = item.shortcuts() if isinstance(item, QAction) else [item.key()]
    return [k for k in (key_text(s) for s in seqs if not s.isEmpty()) if k]


def _what(item, keys: list[str]) -> str:
    """What a key does: the action's tooltip less a "(key)" that repeats the key, or where that
    is long, the action's own words (its menu entry)."""
    def clean(text: str) -> str:
        # a mnemonic written after a Japanese entry: 開く(&O), or as Qt's tooltip of it, 開く(O)
        text = re.sub(r"(?<=[^\x00-\x7f])\(&?[A-Za-z]\)", "", text)
        text = text.replace("&", "").rstrip("…").rstrip(".").strip()
        m = re.search(r"\s*\(([^()]*)\)$", text)
        if m and any(k in m.group(1) for k in keys):
            text = text[:m.start()]
        return text

    if isinstance(item, QAction):
        tip, text = clean(item.toolTip()), clean(item.text())
        return tip if tip and width(tip) <= TIP_MAX else text or tip
    return clean(item.whatsThis() or item.objectName())


def _menu_of(root: QWidget) -> dict[int, str]:
    """id(action) -> the title of the menu that shows it: the top menu's, or for an entry of a
    submenu with keys of its own (View ▸ Video) the submenu's."""
    out: dict[int, str] = {}
    bar = root.menuBar() if hasattr(root, "menuBar") else None
    if bar is None:
        return out

    def walk(menu: QMenu, title: str) -> None:
        for a in menu.actions():
            out.setdefault(id(a), title)
            sub = a.menu()
            if sub is not None:
                keyed = any(not b.shortcut().isEmpty() for b in sub.actions())
                walk(sub, _title(sub) if keyed else title)

    for top in bar.actions():
        if top.menu() is not None:
            walk(top.menu(), _title(top.menu()))
    return out


def window_keys(root: QWidget) -> list[tuple[str, str, str]]:
    """``(group, keys, what)`` for every key of the widget ``root`` (a window): each action and shortcut with a key,
    grouped by the menu that shows it (menu order), then the keys its widgets declare."""
    menus = _menu_of(root)
    order = {title: k for k, title in enumerate(dict.fromkeys(menus.values()))}
    rows: list[tuple[int, int, str, str, str]] = []
    seen: set[str] = set()
    items = root.findChildren(QAction) + root.findChildren(QShortcut)
    for n, item in enumerate(items):
        keys = _keys_of(item)
        if not keys:
            continue
        joined = " / ".join(keys)
        if joined in seen:
            continue
        seen.add(joined)
        group = menus.get(id(item)) or text(OTHER)
        rows.append((order.get(group, len(order)), n, group, joined, _what(item, keys)))
    rows.sort(key=lambda r: (r[0], r[1]))
    out = [(g, k, w) for _, _, g, k, w in rows]
    for widget in [root] + root.findChildren(QWidget):
        for keys, what in getattr(type(widget), "LEGEND_KEYS", ()):
            row = (text(getattr(type(widget), "LEGEND_GROUP", OTHER)), text(keys), text(what))
            if row not in out:
                out.append(row)
    return out


def keys_html(rows: list[tuple[str, str, str]], dim: str, columns: int = 2) -> str:
    """The keys as tables side by side (``columns``, split between groups, in order, so that the
    tallest column is as short as it can be), a heading per group."""
    groups: list[list[tuple[str, str, str]]] = []
    for row in rows:
        if not groups or groups[-1][0][0] != row[0]:
            groups.append([])
        groups[-1].append(row)
    sizes = [len(g) + 1 for g in groups]  # a group's rows and its heading
    limit = max(sizes, default=0)
    while True:  # the shortest column height the groups fit in, in order, in ``columns`` columns
        cols: list[list[list[tuple[str, str, str]]]] = [[]]
        size = 0
        for g, n in zip(groups, sizes):
            if cols[-1] and size + n > limit:
                cols.append([])
                size = 0
            cols[-1].append(g)
            size += n
        if len(cols) <= columns:
            break
        limit += 1

    def table(col: list[list[tuple[str, str, str]]]) -> str:
        parts = ["<table cellspacing='0' cellpadding='1'>"]
        for k, g in enumerate(col):
            pad = "8" if k else "0"
            parts.append(f"<tr><td colspan='2' style='padding-top:{pad}px; color:{dim}'>"
                         f"<b>{html.escape(g[0][0])}</b></td></tr>")
            for _, keys, what in g:
                parts.append(f"<tr><td style='padding-right:10px; white-space:nowrap'><b>{html.escape(keys)}</b>"
                             f"</td><td style='white-space:nowrap'>{html.escape(what)}</td></tr>")
        parts.append("</table>")
        return "".join(parts)

    cells = "".join(f"<td valign='top' style='padding-right:14px'>{table(c)}</td>" for c in cols)
    return f"<table cellspacing='0' cellpadding='0'><tr>{cells}</tr></table>"


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
        return [(cat, text(name)) for cat, (name, _) in MARKERS.items()]

    #: the texts of the lower half, left column (their widths size the columns: nothing is cut)
    _LEFT = (M("finding: error (the rules were broken)"), M("finding: warning (suspicious / cannot be decided)"),
             M("finding: info"), M("finding dismissed by the reviewer"), M("a note (# …) on the event"),
             M("chain: links 1, 2…; ⟲ 2→1 resolution order"))
    _BANDS = (M("turn of player A"), M("turn of player B"), M("Battle Phase / attack"), M("Damage Step timings (ygo)"),
              M("attack sub-steps (dm)"), M("the selected event"))

    @property
    def LEFT_TEXTS(self) -> tuple[str, ...]:  # noqa: N802  (the window's language: read when drawn)
        return tuple(text(m) for m in self._LEFT)

    @property
    def BAND_TEXTS(self) -> tuple[str, ...]:  # noqa: N802
        return tuple(text(m) for m in self._BANDS)

    def _title_width(self) -> float:
        bold = ui_font(9)
        bold.setBold(True)
        fm = QFontMetricsF(bold)
        return max(fm.horizontalAdvance(tr("Event markers (shape = what happened)")),
                   fm.horizontalAdvance(tr("Findings, notes, chains and bands"))) + 20

    def _columns(self) -> tuple[float, float, float]:
        """The marker columns' width, the x of the bands column, and the whole width."""
        w = self.fm.horizontalAdvance
        marker_col = 24 + max(w(name) for _, name in self._entries()) + 24
        x2 = 38 + max(w(t) for t in self.LEFT_TEXTS) + 28
        width = max(14 + 2 * marker_col, x2 + 34 + max(w(t) for t in self.BAND_TEXTS) + 14, self._title_width(), 640)
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
        marker_col, x2, width = self._columns()
        left, band_texts = self.LEFT_TEXTS, self.BAND_TEXTS
        p.setFont(bold)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(10, y, width - 20, 18), Qt.AlignVCenter, tr("Event markers (shape = what happened)"))
        y += 24
        p.setFont(self.font_)
        entries = self._entries()
        half = (len(entries) + 1) // 2
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
        p.drawText(QRectF(10, y, width - 20, 18), Qt.AlignVCenter, tr("Findings, notes, chains and bands"))
        y += 24
        p.setFont(self.font_)
        items = [("error", left[0]), ("warning", left[1]), ("info", left[2])]
        for k, (sev, text) in enumerate(items):
            draw_badge(p, 22, y + 9 + k * self.ROW, 6.5, sev, t)
            p.setFont(self.font_)
            p.setPen(QColor(t.text))
            p.drawText(QRectF(38, y + k * self.ROW, x2 - 38, 18), Qt.AlignVCenter, text)
        draw_badge(p, 22, y + 9 + 3 * self.ROW, 6.5, "error", t, dismissed=True)
        p.setFont(self.font_)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, y + 3 * self.ROW, x2 - 38, 18), Qt.AlignVCenter, left[3])
        draw_pin(p, 22, y + 15 + 4 * self.ROW, t, 4.0)
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, y + 4 * self.ROW, x2 - 38, 18), Qt.AlignVCenter, left[4])
        # chain bracket
        cy = y + 5 * self.ROW + 10
        pen = QPen(QColor(t.chain), 1.6)
        p.setPen(pen)
        p.drawLine(QPointF(14, cy), QPointF(34, cy))
        p.drawLine(QPointF(14, cy), QPointF(14, cy - 6))
        p.drawLine(QPointF(24, cy), QPointF(24, cy + 6))
        p.drawLine(QPointF(34, cy - 4), QPointF(34, cy + 4))
        p.setPen(QColor(t.text))
        p.drawText(QRectF(38, cy - 9, x2 - 38, 18), Qt.AlignVCenter, left[5])
        # bands
        bands = list(zip((t.turn["A"], t.turn["B"], t.phase_battle, t.timing, t.substep, t.selection), band_texts))
        for k, (color, text) in enumerate(bands):
            yy = y + k * self.ROW
            p.setPen(QPen(QColor(t.grid), 1))
            p.setBrush(QColor(color))
            p.drawRect(QRectF(x2, yy + 3, 26, 13))
            p.setPen(QColor(t.text))
            p.drawText(QRectF(x2 + 34, yy, width - x2 - 34, 18), Qt.AlignVCenter, text)
        p.end()


class LegendDialog(QDialog):
    """The marks and the keys, a page each; scrolls where the screen is smaller than the legend."""

    def __init__(self, theme: Theme, parent: QWidget | None = None, source: QWidget | None = None,
                 room: QSize | None = None):
        """``source``: the widget whose keys are listed (default: ``parent``); ``room``: the space the
        dialog may take (default: the screen's, less its panels)."""
        super().__init__(parent)
        self.setWindowTitle(tr("Legend"))
        if room is None:
            screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
            room = screen.availableGeometry().size() if screen is not None else QSize(1280, 720)
        self.room = QSize(int(room.width() * 0.96), int(room.height() * 0.96))
        canvas = LegendCanvas(theme, self)
        source = source if source is not None else parent
        #: (group, keys, what) as listed, read from the window's actions
        self.rows = window_keys(source) if source is not None else []
        keys = QLabel()
        keys.setTextFormat(Qt.RichText)
        keys.setText(keys_html(self.rows, theme.dim))
        if keys.sizeHint().width() + 80 > self.room.width():  # two columns do not fit across: one, scrolling down
            keys.setText(keys_html(self.rows, theme.dim, columns=1))
        self.keys = keys
        detail = QLabel(f"<p style='color:{theme.dim}'>" + html.escape(tr(
            "Level of detail: labels appear from 24 px per event, markers from 6 px; below that each pixel column "
            "shows how many events it holds and its worst finding. A band too narrow for its label writes a shorter "
            "form of it; its tooltip says the whole.")) + "</p>")
        detail.setTextFormat(Qt.RichText)
        detail.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        # two pages, each fits a laptop's screen: the marks, and the keys
        marks = QWidget()
        marks_layout = QVBoxLayout(marks)
        marks_layout.addWidget(canvas)
        marks_layout.addWidget(detail)
        marks_layout.addStretch(1)
        keys_page = QWidget()
        keys_layout = QVBoxLayout(keys_page)
        keys_layout.addWidget(keys)
        keys_layout.addStretch(1)
        self.tabs = QTabWidget()
        self.tabs.addTab(marks, tr("Marks and colours"))
        self.tabs.addTab(keys_page, tr("Keys"))
        body = self.tabs
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        # as large as the legend, and no larger than the screen (then it scrolls)
        want = body.sizeHint() + QSize(40, 70)
        self.resize(want.boundedTo(self.room))
