"""The Video pane (:class:`.pane.VideoPane`): the match's footage, seeking to the selected event's
timecode plus ``[VideoOffset]``; the frame view, the slider and QtMultimedia's optional import in
:mod:`.parts`.

Handed: the document and the log's path (``set_document``), the selection (``on_selected``), the
theme and the language. Emits ``follow(index)`` (while it plays, the event the footage reached),
``headerWanted(key, value)`` (Sync here, Attach Video: a tag for the log) and ``message(text)``.
Its actions, keys, menu entries and tab are the window's (``gui/window/video.py``)."""
