"""The review report, as HTML and as PDF, from a checked log and the reviewer's verdicts.

No window needed: ``replayer report`` and the window's File ▸ Export both call these. The report
is the document an appeal needs: the header tags, then every finding with its line,
the line's text, the rule, the message, hint and citation, and the reviewer's verdict and note.
Card names, notes and header values are user text: everything taken from the log or the
reviewer is escaped with :func:`replayer.safe.html_text` before it goes into the HTML.
"""

from __future__ import annotations

import re

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .. import games
from ..check import CheckResult
from ..reviews import CONFIRMED, DISMISSED, Reviews, Verdict
from ..safe import html_text
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

MAX_NOTES = 500  # the log's notes listed in the report; the rest are counted
HEADER_ORDER = ("Game", "Rules", "A", "B", "LP", "Shields", "Event", "Round", "Table", "Date", "Video", "Reviewer")


def _e(text: object) -> str:
    """User text for the page: markup escaped, control characters and bidi overrides shown as
    ``\\x1b`` / ``\\u202e`` (:func:`replayer.safe.html_text`)."""
    return html_text(text)


def _verdict_cell(v: Verdict, text=None) -> str:
    if v.status == CONFIRMED:
        head = "<span class='confirmed'>confirmed</span>"
    elif v.status == DISMISSED:
        head = "<span class='dismissed'>dismissed</span>"
    else:
        head = "<span class='open'>not reviewed</span>"
    if v.note:
        head += f"<br>{text(v.note) if text is not None else _e(v.note)}"
    return head


def _source(result: CheckResult, line: int) -> str:
    lines = result.match.lines
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _finding_cells(result: CheckResult, f, v: Verdict, tc: str | None, k: int,
                   text=None, note=None) -> tuple[str, str, str, str]:
    """A finding's cells, as HTML: its number, its line (and footage), the finding, the verdict.
    ``text``, ``note``: user text to HTML (default :func:`_e`; the report for paper cuts long
    text, :func:`cut_text`)."""
    t = text or _e
    match = result.match
    source = _source(result, f.span.line).strip()
    cell = [f"<span class='{_e(f.severity.value)}'>{_e(f.severity.value)}</span> "
            f"<code>[{_e(f.rule)}]</code> <span class='sub'>{_e(f.kind.value)}</span><br>{t(f.message)}"]
    if source:
        cell.append(f"<br><code>{t(source)}</code>")
    if f.hint:
        cell.append(f"<br><span class='hint'>hint: {t(f.hint)}</span>")
    if f.cite:
        cell.append(f"<br><span class='cite'>cite: <i>{t(f.cite)}</i></span>")
    href = video_href(match, tc) if tc else None
    at = (f"<br><a href='{_e(href)}'>{_e(tc)}</a>" if href else f"<br>{_e(tc)}") if tc else ""
    return str(k), f"{f.span.line}:{f.span.column}{at}", "".join(cell), _verdict_cell(v, note)


@dataclass
class _Facts:
    """What both layouts of the report say, taken once from the result and the verdicts."""

    name: str
    game: str
    verdicts: list[Verdict]
    summary: str  # the summary paragraph, as HTML
    generated: str

    @classmethod
    def of(cls, result: CheckResult, reviews: Reviews | None) -> _Facts:
        findings = result.findings
        counts = {"error": 0, "warning": 0, "info": 0}
        for f in findings:
            counts[f.severity.value] += 1
        verdicts = [reviews.get(f) if reviews is not None else Verdict() for f in findings]
        confirmed = sum(1 for v in verdicts if v.status == CONFIRMED)
        dismissed = sum(1 for v in verdicts if v.status == DISMISSED)
        summary = (f"<p><span class='error'>{counts['error']} error{'s' if counts['error'] != 1 else ''}</span>, "
                   f"<span class='warning'>{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}</span>, "
                   f"<span class='info'>{counts['info']} info</span> · reviewed: {confirmed} confirmed, "
                   f"{dismissed} dismissed, {len(findings) - confirmed - dismissed} not reviewed.</p>")
        return cls(Path(result.match.path).name, games.get(result.match.game).title, verdicts, summary,
                   datetime.now().strftime('%Y-%m-%d %H:%M'))


_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


def report_language(result: CheckResult) -> str:
    """The report's ``lang``: the language of the log's keywords, else Japanese when its names or
    header are (a browser or Qt then picks Japanese glyphs for the CJK characters), else English."""
    if result.language != "en":
        return result.language
    if any(_JAPANESE.search(line) for line in result.match.lines[:2000]):
        return "ja"
    return "en"


def _head(title: str, css: str, lang: str = "en") -> list[str]:
    return ["<!DOCTYPE html>", f"<html lang='{_e(lang)}'><head><meta charset='utf-8'>",
            f"<title>{_e(title)}</title>", f"<style>{css}</style></head><body>"]


def report_html(result: CheckResult, reviews: Reviews | None, *, for_pdf: bool = False) -> str:
    """The review report as a standalone HTML page (user text escaped); ``for_pdf``: the same
    report laid out for paper (:func:`_paper_html`), which is what :func:`write_pdf` prints."""
    facts = _Facts.of(result, reviews)
    if for_pdf:
        return _paper_html(result, reviews, facts)
    match = result.match
    findings = result.findings
    name, verdicts = facts.name, facts.verdicts
    out = _head(f"Review report: {name}", _CSS, report_language(result))
    out += [f"<h1>Review report: {_e(name)}</h1>",
            f"<p class='sub'>{_e(facts.game)} · rules {_e(match.rules)} · {len(match.events)} events · "
            f"generated {_e(facts.generated)} by replayer</p>"]
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
    out.append(facts.summary)
    # findings
    out.append("<h2>Findings</h2>")
    if not findings:
        out.append("<p>No findings: the log follows the rules replayer checks.</p>")
    else:
        out.append("<table width='100%'><tr><th>#</th><th>Line</th><th>Finding</th><th>Verdict</th></tr>")
        timecodes = finding_timecodes(match, findings)  # each finding's footage, linked to the video
        for k, (f, v) in enumerate(zip(findings, verdicts), 1):
            number, line, cell, verdict = _finding_cells(result, f, v, timecodes[k - 1], k)
            out.append(f"<tr><td>{number}</td><td>{line}</td><td>{cell}</td><td>{verdict}</td></tr>")
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
        for n in notes[:MAX_NOTES]:
            out.append(f"<tr><td>{n.line}</td><td>{_e(n.text)}</td></tr>")
        if len(notes) > MAX_NOTES:
            out.append(f"<tr><td></td><td class='sub'>… and {len(notes) - MAX_NOTES} more</td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out)


# --- the report for paper ----------------------------------------------------------------------
# Every table fills the text width. A long table is written as one table per row, with its column
# headings in a table of their own (<thead>) before the first row, all with the same column
# widths: Qt's text engine has no keep-together for rows, so replayer.gui.pdf moves a whole table
# to the next page instead (and repeats the column headings there). A row's cells have no top
# border: the row above (or the headings) draws the line between them.

_PAPER_CSS = """
body { margin: 0; }
td.next { border-top-style: none; }
"""

# (heading, width in percent of the text width) of each long table's columns
FINDING_COLUMNS = (("#", 5), ("Line", 10), ("Finding", 65), ("Verdict", 20))
ORPHAN_COLUMNS = (("Line", 10), ("Rule", 25), ("Message", 45), ("Verdict", 20))
NOTE_COLUMNS = (("Line", 10), ("Note", 90))
SHOWN_IN_THE_HEADER_BLOCK = ("Game", "Rules", "A", "B", "Event", "Round", "Table", "Date", "Reviewer")


#: the paper's text width (A4 less 15 mm margins, replayer/gui/pdf.py) in points, and what a cell of
#: the report's 10 pt text takes: a digit or a colon about 0.64 em, the padding and borders 14 pt
PAPER_TEXT_PT = (210 - 2 * 15) * 72 / 25.4
DIGIT_PT, CELL_PT = 6.4, 14.0


def fit_columns(columns: tuple[tuple[str, int], ...], widest: dict[str, int],
                grow: str) -> tuple[tuple[str, int], ...]:
    """``columns`` with the narrow ones as wide as their content (``widest``: heading -> the most
    characters of a line of that column, digits and punctuation) and ``grow`` taking what is left:
    "#" of a 266-page report holds 3 digits and a timecode @1:03:40 is never wrapped."""
    out, used = {}, 0
    for head, pct in columns:
        if head in widest:
            need = max(widest[head], len(head)) * DIGIT_PT + CELL_PT
            pct = max(int(-(-need * 100 // PAPER_TEXT_PT)), 3)
            out[head] = pct
            used += pct
    rest = [h for h, _ in columns if h not in out]
    fixed = sum(p for h, p in columns if h in rest and h != grow)
    return tuple((h, out.get(h, (100 - used - fixed) if h == grow else p)) for h, p in columns)


#: the most characters of one piece of user text the report for paper prints: a name or a header
#: value; a line of the log or a finding's message; a verdict's note (its column is narrow: about
#: three pages); a note of the log (its own row, the width of the page: about four pages). Longer
#: text is cut there with a mark that says so (the HTML report holds the whole text). A row whose
#: cells each held 20,000 characters took 23 s to lay out, 40,000 two minutes and a megabyte hours
#: (a row taller than a page is cut into pieces, each a copy of the row: :mod:`replayer.gui.pdf_split`);
#: cut, a row costs a bounded time, and the report's time grows as its number of rows.
NAME_CHARS, LINE_CHARS, VERDICT_CHARS, NOTE_CHARS = 200, 2_000, 4_000, 30_000
CUT_MARK = "[… cut here: {rest:,} more characters; the HTML report has the whole text]"


def cut_text(text: object, limit: int) -> str:
    """User text as HTML (:func:`_e`), cut after ``limit`` characters with :data:`CUT_MARK` at the
    cut (in the report's grey italics)."""
    s = str(text)
    if len(s) <= limit:
        return _e(s)
    return f"{_e(s[:limit])} <span class='sub'><i>{_e(CUT_MARK.format(rest=len(s) - limit))}</i></span>"


def _name(text: object) -> str:
    return cut_text(text, NAME_CHARS)


def _line(text: object) -> str:
    return cut_text(text, LINE_CHARS)


def _verdict_note(text: object) -> str:
    return cut_text(text, VERDICT_CHARS)


def _note(text: object) -> str:
    return cut_text(text, NOTE_CHARS)


def _plain_cut(text: str, limit: int) -> str:
    """Plain text (a page's footer, the PDF's title) cut after ``limit`` characters with ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rows_table(columns: tuple[tuple[str, int], ...], rows: list[list[str]]) -> list[str]:
    """A long table for paper: the column headings, then each row (cells as HTML) a table of its own."""
    out = ["<table width='100%' cellspacing='0'><thead><tr>"
           + "".join(f"<th width='{w}%'>{_e(h)}</th>" for h, w in columns) + "</tr></thead></table>"]
    for row in rows:
        out.append("<table width='100%' cellspacing='0'><tr>"
                   + "".join(f"<td width='{w}%' class='next'>{cell}</td>" for (_, w), cell in zip(columns, row))
                   + "</tr></table>")
    return out


def reviewer(match, reviews: Reviews | None) -> str:
    """Who reviews the match: the log's ``[Reviewer]``, else the match library's reviewer whose
    verdicts these are (none with verdicts kept beside the log)."""
    named = match.header.get("Reviewer", "").strip()
    if named:
        return named
    return str(getattr(reviews.backend, "reviewer", "") or "") if reviews is not None else ""


def _paper_html(result: CheckResult, reviews: Reviews | None, facts: _Facts) -> str:
    match = result.match
    findings = result.findings
    header = match.header
    out = _head(_plain_cut(f"Review report: {facts.name}", NAME_CHARS), _CSS + _PAPER_CSS, report_language(result))
    out.append(f"<h1>Review report: {_name(facts.name)}</h1>")
    # the header block: what a page of an appeal must say first
    where = [header[k].strip() for k in ("Event",) if header.get(k, "").strip()]
    where += [f"{k.lower()} {header[k].strip()}" for k in ("Round", "Table") if header.get(k, "").strip()]
    players = match.players
    not_given = "<span class='sub'>not given</span>"
    cells = [("Match", " · ".join(_name(w) for w in [facts.name] + where)),
             ("Rules", f"{_name(match.rules)} <span class='sub'>({_e(facts.game)})</span>"),
             ("Players", f"A {_name(players['A'])} · B {_name(players['B'])}"),
             ("Reviewer", _name(reviewer(match, reviews)) or not_given),
             ("Date", _name(header.get("Date", "").strip()) or not_given),
             ("Report", f"{_e(facts.generated)} · {len(match.events)} events")]
    out.append("<table width='100%' cellspacing='0'>")
    for k in range(0, len(cells), 2):
        (k1, v1), (k2, v2) = cells[k], cells[k + 1]
        out.append(f"<tr><th width='14%'>{k1}</th><td width='36%'>{v1}</td>"
                   f"<th width='14%'>{k2}</th><td width='36%'>{v2}</td></tr>")
    out.append("</table>")
    others = [k for k in HEADER_ORDER if k in header and k not in SHOWN_IN_THE_HEADER_BLOCK]
    others += sorted(k for k in header if k not in HEADER_ORDER)
    if others:
        out.append("<h2>Other header tags</h2><table width='100%' cellspacing='0'>")
        for key in others:
            out.append(f"<tr><th width='14%'>{_name(key)}</th><td width='86%'>{_line(header[key])}</td></tr>")
        out.append("</table>")
    out += ["<h2>Summary</h2>", facts.summary, "<h2>Findings</h2>"]
    if not findings:
        out.append("<p>No findings: the log follows the rules replayer checks.</p>")
    else:
        timecodes = finding_timecodes(match, findings)
        line_chars = max(max(len(f"{f.span.line}:{f.span.column}"), len(tc or "")) for f, tc in zip(findings, timecodes))
        columns = fit_columns(FINDING_COLUMNS, {"#": len(str(len(findings))), "Line": line_chars}, "Finding")
        out += _rows_table(columns, [list(_finding_cells(result, f, v, timecodes[k - 1], k, _line, _verdict_note))
                                     for k, (f, v) in enumerate(zip(findings, facts.verdicts), 1)])
    orphans = reviews.orphans(findings) if reviews is not None else []
    if orphans:
        out.append("<h2>Earlier verdicts whose finding is gone</h2>")
        out += _rows_table(fit_columns(ORPHAN_COLUMNS, {"Line": max(len(str(e.line)) for e in orphans)}, "Message"),
                           [[str(e.line), f"<code>{_name(e.rule)}</code>", _line(e.message),
                             _verdict_cell(e.verdict, _verdict_note)] for e in orphans])
    notes = match.notes
    if notes:
        out.append("<h2>Notes in the log</h2>")
        rows = [[str(n.line), _note(n.text)] for n in notes[:MAX_NOTES]]
        if len(notes) > MAX_NOTES:
            rows.append(["", f"<span class='sub'>… and {len(notes) - MAX_NOTES} more</span>"])
        out += _rows_table(fit_columns(NOTE_COLUMNS, {"Line": max(len(str(n.line)) for n in notes)}, "Note"), rows)
    out.append("</body></html>")
    return "\n".join(out)


def write_html(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike) -> Path:
    """The report as HTML at ``path``, whole or not at all: written beside it, every write and the
    size on the disk checked, renamed over an older report only then (a full disk leaves the old
    one as it was and raises ``OSError``)."""
    from ..gui.savefile import write_atomically  # (no Qt: the writer every save of replayer uses)

    p = Path(path)
    write_atomically(p, report_html(result, reviews).encode("utf-8"))
    return p


def pdf_parts(result: CheckResult, reviews: Reviews | None) -> tuple[str, str, str]:
    """What the PDF report is made of: its HTML for paper, its title and the footer every page
    carries (:func:`write_pdf`; the window hands the same to its export process)."""
    m = result.match
    players = m.players

    def short(text: str) -> str:  # a footer is one line: a long name is cut (the header block says more)
        return _plain_cut(text, FOOTER_NAME_CHARS)

    parts = [short(Path(m.path).name), f"A {short(players['A'])} vs B {short(players['B'])}", f"rules {short(m.rules)}"]
    if reviewer(m, reviews):
        parts.append(f"reviewer {short(reviewer(m, reviews))}")
    if m.header.get("Date", "").strip():
        parts.append(f"date {short(m.header['Date'].strip())}")
    # every page's footer names the match, so a printed page that comes loose still says whose it is
    return (report_html(result, reviews, for_pdf=True), _plain_cut(f"Review report: {Path(m.path).name}", NAME_CHARS),
            " · ".join(parts))


FOOTER_NAME_CHARS = 40


def write_pdf(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike, *, progress=None) -> Path:
    """The report as PDF (A4, text kept as text), laid out by Qt's text engine. ``progress``:
    ``progress(fraction, what)``, called while it is laid out and written, may raise
    ``replayer.gui.pdf.Cancelled`` to stop (see :func:`replayer.gui.pdf.html_to_pdf`)."""
    from ..gui.pdf import html_to_pdf  # PySide6 is imported only here

    html, title, footer = pdf_parts(result, reviews)
    return html_to_pdf(html, path, title=title, footer_text=footer, progress=progress)


def write_report(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike, *,
                 progress=None) -> Path:
    """The report in the format the file name asks for: ``.pdf`` or ``.html``/``.htm`` (``progress``:
    for a PDF, see :func:`write_pdf`)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        return write_pdf(result, reviews, path, progress=progress)
    if suffix in (".html", ".htm"):
        return write_html(result, reviews, path)
    raise ValueError(f"a report is written as .html or .pdf, not {suffix or 'a file with no extension'}")
