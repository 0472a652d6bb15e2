"""The match library (:class:`.view.LibraryView`): the stored matches with their search fields.

Handed: the library's database path. Emits ``open_requested(path)`` when the user opens a match
and ``open_revision(path, revision)`` for one whose file is gone (the text the library kept). Its
dock and menu entry are the window's (``gui/window/library.py``)."""
