"""The one pipeline: text -> :class:`Match` -> the game's replay -> :class:`CheckResult`.

Every way in (the command line, the window, the library, the API) checks a log here.

>>> from replayer.check import check_text
>>> check_text('[Game "ygo"]\\nturn 1 A\\nA: draw\\n').findings
[]
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path

from . import games
from .catalog import Catalog
from .diagnostics import Finding, sort_findings
from .reader import Match, read_bytes, read_log, read_text


def validate(match: Match, catalog: Catalog | None = None) -> list[Finding]:
    """The rules findings of a read match (without its syntax findings)."""
    if any(f.rule == "syntax.encoding" for f in match.findings):
        return []
    game = games.get(match.game)
    collecting = gc.isenabled()
    gc.disable()  # as in the reader: the replay's objects are not cycles, the collector's passes are cost
    try:
        return game.model(match, catalog).run()
    finally:
        if collecting:
            gc.enable()


@dataclass
class CheckResult:
    match: Match
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity.value == "error")

    @property
    def unreadable(self) -> bool:
        return any(f.rule == "syntax.encoding" for f in self.findings)

    def to_dict(self) -> dict:
        """The JSON object of ``replayer check --format json`` (docs/notation.md § Output)."""
        return {
            "file": self.match.path,
            "game": self.match.game,
            "rules": self.match.rules,
            "events": len(self.match.events),
            "findings": [f.to_dict() for f in self.findings],
        }


def check_match(match: Match) -> CheckResult:
    """Replay a read match: its syntax findings and its rules findings, in line order."""
    from .knockon import soften_after_unread

    rules = soften_after_unread(match.events, match.findings, validate(match))
    return CheckResult(match, sort_findings(list(match.findings) + rules))


def check_file(path: str | Path, game: str | None = None) -> CheckResult:
    """Read and check one ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened."""
    return check_match(read_log(path, game))


def check_bytes(data: bytes, path: str = "<log>", game: str | None = None) -> CheckResult:
    return check_match(read_bytes(data, path, game))


def check_text(text: str, path: str = "<log>", game: str | None = None) -> CheckResult:
    """Read and check a log given as text."""
    return check_match(read_text(text, path, game))
