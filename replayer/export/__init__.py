"""Exports of a checked log: the review report as HTML or PDF (:mod:`.report`).

Each takes a :class:`~replayer.check.CheckResult` and the verdicts; none needs a window. The
text and JSON outputs of ``replayer check`` are :func:`replayer.diagnostics.render_text` and
:func:`replayer.diagnostics.render_json`.
"""

from .report import report_html, write_html, write_pdf, write_report

__all__ = ["report_html", "write_html", "write_pdf", "write_report"]
