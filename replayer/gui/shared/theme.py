"""Light and dark palettes: the application palette and the colours the timeline and log use.

One :class:`Theme` holds every colour a view paints with, so the timeline, the log highlighter,
the legend and the exports agree. Severity colours keep their hue in both themes (red errors,
amber warnings, blue info) and are picked to read on either background.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

#: UI and monospace fonts, with fallbacks for Japanese names (the CJK fonts) and German ones
UI_FAMILIES = ["DejaVu Sans", "Noto Sans", "Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic",
               "Meiryo", "Segoe UI", "Helvetica Neue", "Arial", "sans-serif"]
MONO_FAMILIES = ["DejaVu Sans Mono", "Noto Sans Mono", "Noto Sans Mono CJK JP", "Noto Sans CJK JP", "Menlo",
                 "Consolas", "monospace"]


@dataclass(frozen=True)
class Theme:
    name: str
    dark: bool
    window: str
    base: str
    alt_base: str
    text: str
    dim: str
    grid: str
    highlight: str
    selection: str  # the selected event's column / log line
    turn: dict  # player -> band colour
    turn_text: str
    phase: str
    phase_battle: str
    step: str
    timing: str
    timing_text: str
    substep: str
    lane: str
    lane_alt: str
    severity: dict  # "error" | "warning" | "info" -> colour
    marker: dict  # marker category -> colour
    chain: str
    note: str
    note_text: str
    confirmed: str
    dismissed: str
    syntax: dict  # log highlighter: category -> colour

    def color(self, value: str) -> QColor:
        return QColor(value)

    def sev(self, severity: str) -> QColor:
        return QColor(self.severity.get(severity, self.severity["info"]))


LIGHT = Theme(
    name="light", dark=False,
    window="#eef0f3", base="#ffffff", alt_base="#f6f7f9", text="#1d2330", dim="#6b7385", grid="#d9dde5",
    highlight="#2f6fd6", selection="#dbe8ff",
    turn={"A": "#d6e6ff", "B": "#ffe0d4", None: "#e6e8ec"}, turn_text="#1d2330",
    phase="#eceef2", phase_battle="#e3e7f0", step="#e8ecf6", timing="#fff2c2", timing_text="#6a4f00",
    substep="#efe6ff",
    lane="#ffffff", lane_alt="#f8f9fb",
    severity={"error": "#d7263d", "warning": "#e08e0b", "info": "#2b7bd0"},
    marker={"summon": "#2e9e5b", "attack": "#2a2f3a", "activate": "#2f6fd6", "damage": "#e0701b",
            "move": "#8a93a6", "destroy": "#8a93a6", "stat": "#8e44ad", "pass": "#9aa2b1", "draw": "#9aa2b1",
            "block": "#0f8f8f", "resolve": "#6b4fbb", "structure": "#9aa2b1"},
    chain="#6b4fbb", note="#f2c94c", note_text="#6a4f00", confirmed="#2e9e5b", dismissed="#8a93a6",
    syntax={"keyword": "#1f5fbf", "player": "#a0368b", "card": "#1b7a3e", "number": "#b35900",
            "note": "#7a8190", "timecode": "#6b4fbb", "tag": "#8a5a00", "structure": "#1f5fbf"},
)

DARK = Theme(
    name="dark", dark=True,
    window="#1f232a", base="#15181d", alt_base="#1b1f25", text="#e4e8ef", dim="#9aa3b5", grid="#343a45",
    highlight="#5b9bff", selection="#233a5e",
    turn={"A": "#23406b", "B": "#5a3226", None: "#2a2f38"}, turn_text="#eef2f8",
    phase="#262b33", phase_battle="#2b3240", step="#283041", timing="#4a3f17", timing_text="#ffe08a",
    substep="#3a2f55",
    lane="#15181d", lane_alt="#191c22",
    severity={"error": "#ff5c6c", "warning": "#ffb02e", "info": "#5aa9ff"},
    marker={"summon": "#4cc683", "attack": "#e4e8ef", "activate": "#5b9bff", "damage": "#ff8a3d",
            "move": "#8c96aa", "destroy": "#8c96aa", "stat": "#c390e0", "pass": "#6f788a", "draw": "#6f788a",
            "block": "#3cc7c7", "resolve": "#a58cf0", "structure": "#6f788a"},
    chain="#a58cf0", note="#f2c94c", note_text="#ffe08a", confirmed="#4cc683", dismissed="#8c96aa",
    syntax={"keyword": "#7fb0ff", "player": "#f08cd8", "card": "#7fd89b", "number": "#ffb86b",
            "note": "#8d96a8", "timecode": "#b9a4ff", "tag": "#e0b860", "structure": "#7fb0ff"},
)

THEMES = {"light": LIGHT, "dark": DARK}


def palette(theme: Theme) -> QPalette:
    p = QPalette()
    c = QColor
    roles = {
        QPalette.Window: theme.window, QPalette.WindowText: theme.text, QPalette.Base: theme.base,
        QPalette.AlternateBase: theme.alt_base, QPalette.Text: theme.text, QPalette.Button: theme.window,
        QPalette.ButtonText: theme.text, QPalette.Highlight: theme.highlight,
        QPalette.HighlightedText: "#ffffff", QPalette.ToolTipBase: theme.base, QPalette.ToolTipText: theme.text,
        QPalette.PlaceholderText: theme.dim, QPalette.Link: theme.highlight, QPalette.Mid: theme.grid,
        QPalette.Midlight: theme.alt_base, QPalette.Dark: theme.grid, QPalette.Shadow: "#000000",
        QPalette.Light: theme.base, QPalette.BrightText: "#ffffff",
    }
    for role, value in roles.items():
        p.setColor(QPalette.All, role, c(value))
    for role in (QPalette.Text, QPalette.WindowText, QPalette.ButtonText):
        p.setColor(QPalette.Disabled, role, c(theme.dim))
    return p


def ui_font(point_size: float = 9.5) -> QFont:
    f = QFont()
    f.setFamilies(UI_FAMILIES)
    f.setPointSizeF(point_size)
    return f


def mono_font(point_size: float = 9.5) -> QFont:
    f = QFont()
    f.setFamilies(MONO_FAMILIES)
    f.setStyleHint(QFont.Monospace)
    f.setPointSizeF(point_size)
    return f


def apply(app: QApplication, theme: Theme) -> None:
    """Use ``theme`` for the whole application (Fusion style, so the palette is honoured)."""
    style = QStyleFactory.create("Fusion")
    if style is not None and app.style().objectName().lower() != "fusion":
        app.setStyle(style)
    app.setPalette(palette(theme))
    app.setFont(ui_font())


def system_prefers_dark(app: QApplication) -> bool:
    try:
        from PySide6.QtCore import Qt

        return app.styleHints().colorScheme() == Qt.ColorScheme.Dark
    except Exception:  # older Qt: no colour scheme hint
        return False
