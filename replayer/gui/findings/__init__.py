"""The Findings pane: the findings of the shown document in a table (filters, a search field), the
selected finding explained, and its verdict and note. Handed a document (``set_document``), the
selected line (``show_line``) and the theme; emits ``findingActivated(finding)`` when the user picks
one, ``verdictChanged`` when a verdict or note is set, ``storeFailed(message)`` when it cannot be kept."""
