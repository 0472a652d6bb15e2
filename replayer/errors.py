"""Every exception replayer raises, under one root.

Problems in a log are findings, never exceptions; these are for misuse of the API and for files
or databases that cannot be used at all.
"""

from __future__ import annotations

from .i18n import M, current as _language  # (an error's message, in the chosen language)


class ReplayerError(Exception):
    """Root of the errors replayer raises for misuse (not for problems in a log)."""


class UnreadableFile(ReplayerError):
    """The file could not be read at all (missing, a directory, permissions)."""


class UnknownGame(ReplayerError, ValueError):
    """A game replayer does not know was asked for."""


class LibraryError(ReplayerError):
    """The match library cannot be used (not a replayer library, too new, corrupt)."""


class ReviewStoreError(ReplayerError, OSError):
    """The reviewer's verdicts could not be read or written."""


class LibraryDamaged(LibraryError):
    """The library's file is corrupt: SQLite said so while it was used (``verdict``: what
    ``PRAGMA integrity_check`` says of it)."""

    def __init__(self, path: str, error: str, verdict: str):
        super().__init__(M("{path}: the library is damaged ({error}); PRAGMA integrity_check says: {verdict}. "
                           "Restore it from a backup, or import the logs again into a new library",
                           path=path, error=error, verdict=verdict).render(_language()))
        self.verdict = verdict
