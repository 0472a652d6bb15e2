"""The review report, as HTML and as PDF, from a checked log and the reviewer's verdicts.

No window needed: ``replayer report`` and the window's File ▸ Export both call these. The report
is the document an appeal needs: the header tags, then every finding with its line,
the line's text, the rule, the message, hint and citation, and the reviewer's verdict and note.
Card names, notes and header values are user text: everything taken from the log or the
reviewer is escaped with :func:`html.escape` before it goes into the HTML.
"""

from __future__ import annotations

import html
import os
from datetime import datetime
from pathlib import Path

from .. import games
from ..check import CheckResult
from ..reviews import CONFIRMED, DISMISSED, Reviews, Verdict
from .footage import finding_timecodes, video_href

_CSS = """
body { font-family: 'DejaVu Sans', 'Noto Sans', 'Noto Sans CJK JP', sans-serif; color: #1d2330;
       margin: 24px; font-size: 10pt; }
h1 { font-size: 16pt; margin-bottom: 2px; }
h2 { font-size: 12pt; margin-top: 18px; border-bottom: 1px solid #c9ced8; }
.sub { color: #6b7385; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d9dde5; padding: 4px 6px; vertical-align: top; text-align: left; }
th { background: #eef0f3; }
code { font-family: 'DejaVu Sans Mono', 'Noto Sans Mono CJK JP', monospace; font-size: 9pt; }
.error { color: #c0182d; font-weight: bold; }
.warning { color: #a86400; font-weight: bold; }
.info { color: #1f62b0; font-weight: bold; }
.confirmed { color: #1f7a44; font-weight: bold; }
.dismissed { color: #6b7385; font-weight: bold; }
.open { color: #6b7385; }
.hint, .cite { color: #4a5262; }
"""

HEADER_ORDER = ("Game", "Rules", "A", "B", "LP", "Shields", "Event", "Round", "Table", "Date", "Video", "Reviewer")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _verdict_cell(v: Verdict) -> str:
    if v.status == CONFIRMED:
        head = "<span class='confirmed'>confirmed</span>"
    elif v.status == DISMISSED:
        head = "<span class='dismissed'>dismissed</span>"
    else:
        head = "<span class='open'>not reviewed</span>"
    if v.note:
        head += f"<br>{_e(v.note)}"
    return head


def _source(result: CheckResult, line: int) -> str:
    lines = result.match.lines
    return lines[line - 1] if 0 < line <= len(lines) else ""


def report_html(result: CheckResult, reviews: Reviews | None, *, for_pdf: bool = False) -> str:
    """The review report as a standalone HTML page (user text escaped)."""
    match = result.match
    findings = result.findings
    name = Path(match.path).name
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    verdicts = [reviews.get(f) if reviews is not None else Verdict() for f in findings]
    confirmed = sum(1 for v in verdicts if v.status == CONFIRMED)
    dismissed = sum(1 for v in verdicts if v.status == DISMISSED)
    game = games.get(match.game).title
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>Review report: {_e(name)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>Review report: {_e(name)}</h1>",
           f"<p class='sub'>{_e(game)} · rules {_e(match.rules)} · {len(match.events)} events · "
           f"generated {_e(datetime.now().strftime('%Y-%m-%d %H:%M'))} by replayer</p>"]
    # header tags
    out.append("<h2>Match</h2><table>")
    keys = [k for k in HEADER_ORDER if k in match.header] + sorted(k for k in match.header if k not in HEADER_ORDER)
    if not keys:
        out.append("<tr><td class='sub'>The log has no header tags.</td></tr>")
    for key in keys:
        out.append(f"<tr><th>{_e(key)}</th><td>{_e(match.header[key])}</td></tr>")
    out.append("</table>")
    # summary
    out.append("<h2>Summary</h2>")
    out.append(f"<p><span class='error'>{counts['error']} error{'s' if counts['error'] != 1 else ''}</span>, "
               f"<span class='warning'>{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}</span>, "
               f"<span class='info'>{counts['info']} info</span> · reviewed: {confirmed} confirmed, "
               f"{dismissed} dismissed, {len(findings) - confirmed - dismissed} not reviewed.</p>")
    # findings
    out.append("<h2>Findings</h2>")
    if not findings:
        out.append("<p>No findings: the log follows the rules replayer checks.</p>")
    else:
        out.append("<table width='100%'><tr><th>#</th><th>Line</th><th>Finding</th><th>Verdict</th></tr>")
        timecodes = finding_timecodes(match, findings)  # each finding's footage, linked to the video
        for k, (f, v) in enumerate(zip(findings, verdicts), 1):
            source = _source(result, f.span.line).strip()
            cell = [f"<span class='{_e(f.severity.value)}'>{_e(f.severity.value)}</span> "
                    f"<code>[{_e(f.rule)}]</code> <span class='sub'>{_e(f.kind.value)}</span><br>{_e(f.message)}"]
            if source:
                cell.append(f"<br><code>{_e(source)}</code>")
            if f.hint:
                cell.append(f"<br><span class='hint'>hint: {_e(f.hint)}</span>")
            if f.cite:
                cell.append(f"<br><span class='cite'>cite: <i>{_e(f.cite)}</i></span>")
            tc = timecodes[k - 1]
            href = video_href(match, tc) if tc else None
            at = (f"<br><a href='{_e(href)}'>{_e(tc)}</a>" if href else f"<br>{_e(tc)}") if tc else ""
            out.append(f"<tr><td>{k}</td><td>{f.span.line}:{f.span.column}{at}</td><td>{''.join(cell)}</td>"
                       f"<td>{_verdict_cell(v)}</td></tr>")
        out.append("</table>")
    if reviews is not None:
        orphans = reviews.orphans(findings)
        if orphans:
            out.append("<h2>Earlier verdicts whose finding is gone</h2><table>"
                       "<tr><th>Line</th><th>Rule</th><th>Message</th><th>Verdict</th></tr>")
            for e in orphans:
                out.append(f"<tr><td>{e.line}</td><td><code>{_e(e.rule)}</code></td><td>{_e(e.message)}</td>"
                           f"<td>{_verdict_cell(e.verdict)}</td></tr>")
            out.append("</table>")
    notes = [n for n in match.notes]
    if notes:
        out.append("<h2>Notes in the log</h2><table width='100%'><tr><th>Line</th><th>Note</th></tr>")
        for n in notes[:500]:
            out.append(f"<tr><td>{n.line}</td><td>{_e(n.text)}</td></tr>")
        if len(notes) > 500:
            out.append(f"<tr><td></td><td class='sub'>… and {len(notes) - 500} more</td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out)


def write_html(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike) -> Path:
    p = Path(path)
    p.write_text(report_html(result, reviews), encoding="utf-8")
    return p


def write_pdf(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike) -> Path:
    """The report as PDF (A4, text kept as text), laid out by Qt's text engine."""
    from ..gui.pdf import html_to_pdf  # PySide6 is imported only here

    m = result.match
    players = m.players
    parts = [Path(m.path).name, f"A {players['A']} vs B {players['B']}", f"rules {m.rules}"]
    for key in ("Reviewer", "Date"):
        if m.header.get(key, "").strip():
            parts.append(f"{key.lower()} {m.header[key].strip()}")
    # every page's footer names the match, so a printed page that comes loose still says whose it is
    return html_to_pdf(report_html(result, reviews, for_pdf=True), path,
                       title=f"Review report: {Path(m.path).name}", footer_text=" · ".join(parts))


def write_report(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike) -> Path:
    """The report in the format the file name asks for: ``.pdf`` or ``.html``/``.htm``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        return write_pdf(result, reviews, path)
    if suffix in (".html", ".htm"):
        return write_html(result, reviews, path)
    raise ValueError(f"a report is written as .html or .pdf, not {suffix or 'a file with no extension'}")
