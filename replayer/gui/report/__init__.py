"""The report's export to PDF: Qt's text engine laying the report's HTML out on A4 (:mod:`.pdf`,
rows kept whole, :mod:`.split` for rows taller than a page) and the window's export job with its
progress dialog (:mod:`.job`). It shows a progress dialog and emits when the file is written."""
