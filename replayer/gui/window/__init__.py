"""The window's composition: :class:`replayer.gui.app.MainWindow` and its actions, menus and toolbar
(:mod:`.actions`), files (:mod:`.files`), navigation (:mod:`.navigation`) and the loader that checks a
log off the GUI thread (:mod:`.loader`). Only this package and :mod:`replayer.gui.app` know the
window; the parts are handed what they show."""
