"""The Findings pane (:class:`.pane.FindingsPane`): the findings of the shown document in a table
(severity, kind, player and verdict filters; a search field; the counts), the selected finding
explained, and its verdict and note.

Handed: the document and its verdicts (``set_document(doc, reviews)``, ``update_document`` after
a re-check), the row to select (``select_finding``), the theme and the language (``set_theme``,
``retranslate``). Emits ``findingActivated(index)`` when the user picks a finding,
``verdictChanged(index)`` when a verdict or note is set and ``storeFailed(message)`` when it
cannot be kept."""
