"""The log pane: the log's text with the findings' lines marked, and the log as an editor (typing
re-checks it, completion, saving, New Log / New Match from Video). The view is handed a document and
the selected line and emits ``lineActivated(line)``; the editor is described in :mod:`.editor`."""
