"""The loader: how long the check of the last request has worked (the log view's fallback)."""

from __future__ import annotations

import time

from replayer.gui.window.loader import Loader


def test_worked_is_the_cpu_of_the_last_requests_check(qtbot, ygo_log):
    loader = Loader()
    assert loader.worked() == 0.0  # nothing asked
    with qtbot.waitSignal(loader.loaded, timeout=20_000):
        loader.request(str(ygo_log))
    first = loader.worked()
    assert first is not None and 0.0 < first < time.process_time()
    loader.generation += 1  # a request not yet taken by the thread: no work done on it
    assert loader.worked() == 0.0
    loader.wait()
