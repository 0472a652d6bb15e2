"""Is there a font for Japanese? Without one Qt draws Japanese names as boxes ("tofu") and says
nothing; the window says it once, in its status bar and on the terminal, with the package."""

from __future__ import annotations

import re
import sys
from typing import Iterable

from PySide6.QtGui import QFontDatabase

#: the Debian/Ubuntu package with a font for Japanese (the README names it too)
CJK_FONT_PACKAGE = "fonts-noto-cjk"
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")
_said = False


def has_cjk_text(lines: Iterable[str]) -> bool:
    return any(_CJK.search(line) for line in lines)


def japanese_font_families() -> list[str]:
    """The installed font families that cover Japanese (Qt's font database)."""
    return list(QFontDatabase.families(QFontDatabase.WritingSystem.Japanese))


def missing_font_message(lines: Iterable[str], families: list[str] | None = None) -> str | None:
    """What to tell the user when ``lines`` hold Japanese text and no font covers it (else None)."""
    if not has_cjk_text(lines):
        return None
    if families is None:
        families = japanese_font_families()
    if families:
        return None
    install = f"sudo apt install {CJK_FONT_PACKAGE}" if sys.platform.startswith("linux") else \
        "install a font that covers Japanese (Noto Sans CJK JP)"
    return f"No installed font covers Japanese: Japanese names show as boxes. To fix it: {install}"


def warn_once(lines: Iterable[str], show, families: list[str] | None = None) -> str | None:
    """Say :func:`missing_font_message` once a session: to ``show`` (the status bar) and stderr."""
    global _said
    if _said:
        return None
    message = missing_font_message(lines, families)
    if message:
        _said = True
        show(message)
        print(f"replayer: {message}", file=sys.stderr)
    return message
