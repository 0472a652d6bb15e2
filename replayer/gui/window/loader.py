"""Reading and checking a log off the GUI thread.

:class:`Loader` runs :func:`~replayer.gui.document.load_document` on its own one-thread pool and
reports back with Qt signals (delivered on the GUI thread): ``progress(generation, text, percent)``,
``loaded(generation, document)`` and ``failed(generation, message)``. Each request carries a
generation number so that the answer to an older request (the file changed again meanwhile)
is recognised and dropped.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ...reader import ReplayerError
from ..document import Document, load_document
from ..shared.language import tr

log = logging.getLogger("replayer.gui")


class _Signals(QObject):
    progress = Signal(int, str, int)
    loaded = Signal(int, object)
    failed = Signal(int, str)

    #: (generation, its thread's CPU clock or None, that clock's reading at the start) of the
    #: request the pool's thread took last (set on that thread: :meth:`Loader.worked`)
    running: tuple[int, int | None, float] | None = None


def _cpu_clock() -> tuple[int | None, float]:
    """This thread's CPU clock and its reading now (None and the wall clock where the platform
    has no clock of a thread's CPU)."""
    try:
        clock = time.pthread_getcpuclockid(threading.get_ident())
        return clock, time.clock_gettime(clock)
    except (AttributeError, OSError):
        return None, time.monotonic()


class _Task(QRunnable):
    def __init__(self, signals: _Signals, generation: int, path: str, data: bytes | None, first: bool = False):
        super().__init__()
        self.first = first
        self.signals = signals
        self.generation = generation
        self.path = path
        self.data = data
        self.setAutoDelete(True)

    def run(self) -> None:
        g = self.generation
        self.signals.running = (g, *_cpu_clock())
        try:
            doc = load_document(self.path, self.data,
                                progress=lambda text, pct: self.signals.progress.emit(g, text, pct), first=self.first)
        except ReplayerError as e:
            self.signals.failed.emit(g, str(e))
        except Exception as e:  # a bug below the window: say so plainly, keep the traceback in the log
            log.debug("checking %s failed:\n%s", self.path, traceback.format_exc())
            self.signals.failed.emit(g, tr("replayer could not check this log ({error}). This is a bug in replayer; "
                                           "the log text is shown as it is.", error=f"{type(e).__name__}: {e}"))
        else:
            self.signals.loaded.emit(g, doc)


class Loader(QObject):
    """Checks logs on a worker thread, one at a time."""

    progress = Signal(int, str, int)
    loaded = Signal(int, object)
    failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.generation = 0
        self.answered = 0  # the generation of the last answer passed on
        self._signals = _Signals(self)
        self._signals.progress.connect(self._on_progress)
        self._signals.loaded.connect(self._on_loaded)
        self._signals.failed.connect(self._on_failed)

    def request(self, path: str, data: bytes | None = None, *, first: bool = False) -> int:
        """Start checking ``path`` (or its given bytes); returns the request's generation.
        ``first``: the window will show the document's first event (see ``load_document``)."""
        self.generation += 1
        self.pool.start(_Task(self._signals, self.generation, path, data, first))
        return self.generation

    def pending(self) -> bool:
        """Whether the last request is still unanswered (its check runs or waits)."""
        return self.answered != self.generation

    def worked(self) -> float | None:
        """The seconds of CPU the check of the last request has had so far (0 while it waits for
        the thread; None where a thread's CPU cannot be read: the log view then goes by wall time)."""
        running = self._signals.running
        if running is None or running[0] != self.generation:
            return 0.0
        generation, clock, start = running
        if clock is None:
            return None
        try:
            return time.clock_gettime(clock) - start
        except OSError:  # (the pool's thread is gone: its check is long done)
            return None

    def busy(self) -> bool:
        return self.pool.activeThreadCount() > 0

    def wait(self, msecs: int = -1) -> bool:
        return self.pool.waitForDone(msecs)

    def _on_progress(self, g: int, text: str, pct: int) -> None:
        if g == self.generation:
            self.progress.emit(g, text, pct)

    def _on_loaded(self, g: int, doc: Document) -> None:
        if g == self.generation:
            self.answered = g
            self.loaded.emit(g, doc)

    def _on_failed(self, g: int, message: str) -> None:
        if g == self.generation:
            self.answered = g
            self.failed.emit(g, message)


def load_now(path: str, data: bytes | None = None) -> Document:
    """Synchronous loading (the ``--screenshot`` path and tests)."""
    return load_document(path, data)
