"""Every exception replayer raises, under one root.

Problems in a log are findings, never exceptions; these are for misuse of the API and for files
or databases that cannot be used at all.
"""

from __future__ import annotations

from .i18n import M, Msg, current as _language, render


class ReplayerError(Exception):
    """Root of the errors replayer raises for misuse (not for problems in a log).

    Raised with a message (:class:`~replayer.i18n.Msg`), its text is that message in the chosen
    language (``--lang``, REPLAYER_LANG, the locale: what the command line prints), and
    :meth:`in_language` says it in another (the window's)."""

    message: Msg | None = None

    def __init__(self, *args: object):
        if args and isinstance(args[0], Msg):
            self.message = args[0]
            args = (args[0].render(_language()),) + args[1:]
        super().__init__(*args)

    def in_language(self, lang: str) -> str:
        """The error's message in ``lang`` (as raised, when it was raised with plain text)."""
        return render(self.message, lang) if self.message is not None else str(self)


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
                           path=path, error=error, verdict=verdict))
        self.verdict = verdict
