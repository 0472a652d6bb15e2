"""The editor's re-check as you type, off the GUI thread and incremental.

:class:`Rechecker` runs :func:`replayer.check.check_edit` on a one-thread pool: the lines that did
not change since the text it checked last are not read again, and the states before the change
are taken over; then it lays out the document (:func:`~replayer.gui.document.build_document`)
and computes, still on the worker, what the window asks first (the state at the cursor's line),
so that the GUI thread only updates its panes. ``done(generation, document, change, base)`` and
``failed(generation, message)`` arrive on the GUI thread; the answer to an older request (more
keys were typed meanwhile) is dropped, as the window's loader does (``gui/window/loader.py``).
"""

from __future__ import annotations

import logging
import time
import traceback

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ...check import CheckResult, check_edit
from ...errors import ReplayerError
from ..document import build_document
from ..shared.language import tr

log = logging.getLogger("replayer.gui")


class _Signals(QObject):
    done = Signal(int, object, object, object)
    failed = Signal(int, str)


class _Task(QRunnable):
    def __init__(self, owner: Rechecker, generation: int, path: str, text: str, line: int):
        super().__init__()
        self.owner = owner
        self.generation = generation
        self.path = path
        self.text = text
        self.line = line
        self.setAutoDelete(True)

    def run(self) -> None:
        owner, g = self.owner, self.generation
        signals = owner._signals
        try:
            if g != owner.generation:
                return  # more keys came: only the last text matters
            base = owner.base
            started = time.thread_time()
            result, change = check_edit(base, self.text, self.path)
            owner.base = result  # the next edit is compared with this text
            doc = build_document(result, self.path)
            if doc.events and self.line > 0:
                # the state the window shows first (the cursor's), computed here and kept
                index = doc.replay.event_for_line(self.line)
                doc.state_tree(0 if self.line < doc.events[0].span.line else index)  # and its rows
            owner.last_cost = time.thread_time() - started
        except ReplayerError as e:
            signals.failed.emit(g, str(e))
        except Exception as e:  # a bug below the window: say so, keep the traceback in the log
            log.debug("re-checking %s failed:\n%s", self.path, traceback.format_exc())
            signals.failed.emit(g, tr("replayer could not check this text ({error}). This is a bug in replayer.",
                                      error=f"{type(e).__name__}: {e}"))
        else:
            signals.done.emit(g, doc, change, base)


class Rechecker(QObject):
    """Re-checks the text being edited on a worker thread, one request at a time."""

    #: (generation, document, the check.Change from ``base``, ``base``: the result it started from)
    done = Signal(int, object, object, object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.generation = 0
        #: the last result checked (by the worker, or the window's when it read the file): any
        #: result is a correct starting point, the text is compared with its lines
        self.base: CheckResult | None = None
        #: the worker's CPU seconds for the last re-check that finished (bench/video.py reports it)
        self.last_cost = 0.0
        self._signals = _Signals(self)
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)

    def request(self, path: str, text: str, line: int = 0) -> int:
        """Check ``text`` (``line``: the cursor's, whose state the window shows); returns its generation."""
        self.generation += 1
        self.pool.start(_Task(self, self.generation, path, text, line))
        return self.generation

    def busy(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def wait(self, msecs: int = -1) -> bool:
        return self.pool.waitForDone(msecs)

    def _on_done(self, g: int, doc, change, base) -> None:
        if g == self.generation:
            self.done.emit(g, doc, change, base)

    def _on_failed(self, g: int, message: str) -> None:
        if g == self.generation:
            self.failed.emit(g, message)
