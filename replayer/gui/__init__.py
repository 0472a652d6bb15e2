"""The review window (PySide6). The only part of replayer that imports Qt.

Import :mod:`replayer.gui.app` for the window; this package itself imports nothing from Qt,
so that ``replayer.cli.view`` can register the ``view`` command without loading PySide6.
"""
