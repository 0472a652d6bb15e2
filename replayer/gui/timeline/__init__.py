"""The timeline (:class:`.view.TimelineView`, with the :class:`.view.OverviewStrip` under it):
every event of the match along turns and phases with the findings' marks, zoomed from the whole
match (:mod:`.coarse`: bins of events) to single events (:mod:`.detail`: labels), rows laid out by
:mod:`.layout`.

Handed: the document and its verdicts (``set_document``), the selected event (``set_selected``),
the theme and the language. Emits ``eventActivated(index)`` when the user picks an event,
``viewChanged()`` when the zoom or the visible part changes and ``problem(message)`` when
something could not be drawn."""
