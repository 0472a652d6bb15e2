"""replayer: read a trading card game match log and check it against the timing rules.

>>> from replayer import check_text
>>> result = check_text('[Game "ygo"]\\nturn 1 A\\nA: draw\\n')
>>> result.findings
[]
"""

from __future__ import annotations

from pathlib import Path

from . import games
from .check import CheckResult, check_bytes, check_file, check_match, check_text, read_bytes, read_log, read_text, validate
from .diagnostics import RULES, Finding, Kind, Severity, Span
from .errors import ReplayerError, UnknownGame, UnreadableFile
from .reader import Match

__version__ = "0.1.0"

__all__ = [
    "RULES", "Finding", "Kind", "Severity", "Span", "Match", "ReplayerError", "UnknownGame",
    "UnreadableFile", "games", "read_log", "read_text", "read_bytes", "validate", "check",
    "check_file", "check_bytes", "check_text", "check_match", "CheckResult",
]


def check(path: str | Path) -> CheckResult:
    """Read and validate one ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened."""
    return check_file(path)
