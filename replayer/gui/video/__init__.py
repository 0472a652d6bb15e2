"""The Video pane: the match's footage beside the timeline, seeking to the selected event's
timecode, with its keys (frame steps, shuttle, sync). Handed the document and the selected event;
emits what the user picked in the footage (see :mod:`.pane`)."""
