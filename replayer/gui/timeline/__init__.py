"""The timeline: every event of the match along turns and phases, with findings' markers, zoomed from
the whole match to single events, and the overview strip under it. Handed a document
(``set_document``), the selected event (``set_current``) and the theme; emits
``eventActivated(index)`` when the user picks an event, ``viewChanged`` when the zoom or the
visible part changes and ``problem(message)`` when something cannot be shown."""
