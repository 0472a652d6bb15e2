"""The window's composition: :class:`replayer.gui.app.MainWindow` builds the parts and wires their
signals, here by concern: actions, menus and toolbar (:mod:`.actions`), files, exports and the
status bar (:mod:`.files`), selection, stepping and verdicts (:mod:`.navigation`), the loader that
checks a log off the GUI thread (:mod:`.loader`), and each part's place in the window with its
actions: the log editor (:mod:`.editing`), the Video pane (:mod:`.video`) and the library
(:mod:`.library`). Only this package and :mod:`replayer.gui.app` know the window
(``tests/test_import_graph.py`` checks it)."""
