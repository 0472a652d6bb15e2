"""The one pipeline: text -> :class:`Match` -> the game's replay -> :class:`CheckResult` (findings + states).

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
from .states import Replay


def replay(match: Match, catalog: Catalog | None = None) -> tuple[list[Finding], Replay]:
    """Replay a read match once: its rules findings (without the syntax ones) and its states."""
    game = games.get(match.game)
    if any(f.rule == "syntax.encoding" for f in match.findings):
        return [], game.states(match, catalog)
    model = game.model(match, catalog)
    collecting = gc.isenabled()
    gc.disable()  # as in the reader: the replay's objects are not cycles, the collector's passes are cost
    try:
        findings = model.run()
    finally:
        if collecting:
            gc.enable()
    return findings, model.states


def validate(match: Match, catalog: Catalog | None = None) -> list[Finding]:
    """The rules findings of a read match (without its syntax findings)."""
    return replay(match, catalog)[0]


@dataclass
class CheckResult:
    match: Match
    findings: list[Finding]
    #: the position and state after every event, from the same replay as the findings
    states: Replay | None = None

    def __post_init__(self) -> None:
        if self.states is None:  # a result put together by hand: replay it for its states
            self.states = replay(self.match)[1]

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
    """Replay a read match: its syntax findings and its rules findings, in line order, and its states."""
    from .knockon import soften_after_unread

    findings, states = replay(match)
    rules = soften_after_unread(match.events, match.findings, findings)
    return CheckResult(match, sort_findings(list(match.findings) + rules), states)


def check_file(path: str | Path, game: str | None = None) -> CheckResult:
    """Read and check one ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened."""
    return check_match(read_log(path, game))


def check_bytes(data: bytes, path: str = "<log>", game: str | None = None) -> CheckResult:
    return check_match(read_bytes(data, path, game))


def check_text(text: str, path: str = "<log>", game: str | None = None) -> CheckResult:
    """Read and check a log given as text."""
    return check_match(read_text(text, path, game))


def unreadable_report(path: str, error: Exception) -> dict:
    """The JSON object ``replayer check --format json`` prints for a file that cannot be read
    (``error``: the :class:`~replayer.errors.UnreadableFile`); the import reports it so too."""
    from .diagnostics import Span, make_finding

    finding = make_finding("file.unreadable", Span(1, 1), f"cannot read {error}", "check the path and the file's permissions")
    return {"file": str(path), "game": None, "rules": None, "events": 0, "findings": [finding.to_dict()]}
