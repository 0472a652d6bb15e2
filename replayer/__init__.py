"""replayer: read a trading card game match log and check it against the timing rules.

>>> from replayer import check_text
>>> result = check_text('[Game "ygo"]\\nturn 1 A\\nA: draw\\n')
>>> result.findings
[]
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import RULES, Finding, Kind, Severity, Span
from .reader import Match, ReplayerError, UnreadableFile, read_bytes, read_log, read_text
from .validator import CheckResult, check_match, validate

__version__ = "0.1.0"

__all__ = [
    "RULES", "Finding", "Kind", "Severity", "Span", "Match", "ReplayerError", "UnreadableFile",
    "read_log", "read_text", "read_bytes", "validate", "check", "check_text", "CheckResult",
]


def check(path: str | Path) -> CheckResult:
    """Read and validate one ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened."""
    return check_match(read_log(path))


def check_text(text: str, path: str = "<log>") -> CheckResult:
    """Read and validate a log given as text."""
    return check_match(read_text(text, path))
