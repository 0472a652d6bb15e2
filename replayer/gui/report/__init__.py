"""The report as PDF: Qt's text engine lays the report's HTML out on A4 (:mod:`.pdf`: tables kept
whole; :mod:`.split`: a row taller than a page cut in pieces; :mod:`.elements`: the document's
blocks and tables) and :mod:`.job` writes it under a progress dialog with Cancel, a long report in
a process of its own.

Handed: the checked result and its verdicts (or the HTML), the path and a parent widget for the
dialog. It shows the dialog and returns the path written (None when cancelled); the export under
way is :data:`.job.last`. It speaks through the report's catalog (``replayer``), not the window's."""
