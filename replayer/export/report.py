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

from .. import games, i18n
from ..check import CheckResult
from ..diagnostics import CITE_LABEL, HINT_LABEL, SEVERITY_WORDS
from ..i18n import COMMA, M, render
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


# ---- the report's words (the `replayer` catalog; English: the msgid, today's report byte for byte) ----
TITLE = M("Review report: {name}")
SUBTITLE = M("{game} · rules {rules} · {events} events · generated {generated} by replayer")
H_MATCH, H_SUMMARY, H_FINDINGS = M.term("report", "Match"), M.term("report", "Summary"), M.term("report", "Findings")
H_ORPHANS = M("Earlier verdicts whose finding is gone")
H_NOTES, H_OTHER_TAGS = M("Notes in the log"), M("Other header tags")
NO_HEADER = M("The log has no header tags.")
NO_FINDINGS = M("No findings: the log follows the rules replayer checks.")
MORE = M("… and {n} more")
#: the column headings and the header block's labels, by their English (the code's keys)
LABELS = {"#": M.term("report", "#"), "Line": M.term("report", "Line"), "Finding": M.term("report", "Finding"),
          "Verdict": M.term("report", "Verdict"), "Rule": M.term("report", "Rule"),
          "Message": M.term("report", "Message"), "Note": M.term("report", "Note"),
          "Players": M.term("report", "Players"), "Reviewer": M.term("report", "Reviewer"),
          "Date": M.term("report", "Date"), "Report": M.term("report", "Report"), "Rules": M.term("report", "Rules")}
#: the header tags the notation defines, by name: the report in another language says what each is
#: (an English report, and a tag of the log's own, writes the tag as the log does)
TAG_LABELS = {"Game": M.term("header tag", "Game"), "Rules": M.term("header tag", "Rules"),
              "LP": M.term("header tag", "LP"), "Shields": M.term("header tag", "Shields"),
              "Event": M.term("header tag", "Event"), "Round": M.term("header tag", "Round"),
              "Table": M.term("header tag", "Table"), "Date": M.term("header tag", "Date"),
              "Video": M.term("header tag", "Video"), "VideoOffset": M.term("header tag", "VideoOffset"),
              "Reviewer": M.term("header tag", "Reviewer")}


def tag_label(tag: str, lang: str) -> str:
    """A header tag as the report in ``lang`` names it (``Round`` -> ラウンド, Runde)."""
    word = TAG_LABELS.get(tag)
    return word.render(lang) if word is not None and lang != "en" else tag


VERDICT_WORDS = {CONFIRMED: M.term("verdict", "confirmed"), DISMISSED: M.term("verdict", "dismissed"),
                 None: M.term("verdict", "not reviewed")}
NOT_GIVEN = M("not given")
ROUND, TABLE = M("round {value}"), M("table {value}")
REPORT_CELL = M("{generated} · {events} events")
ERRORS = (M("{n} error"), M("{n} errors"))
WARNINGS = (M("{n} warning"), M("{n} warnings"))
INFOS = M("{n} info")
REVIEWED = M("reviewed: {confirmed} confirmed, {dismissed} dismissed, {open} not reviewed.")
#: the footer every page of the PDF carries
FOOTER_PLAYERS = M("A {a} vs B {b}")
FOOTER_RULES, FOOTER_REVIEWER, FOOTER_DATE = M("rules {value}"), M("reviewer {value}"), M("date {value}")
#: the PDF writer's words (replayer.gui.report.pdf takes them rendered: it knows no catalog)
PAPER_WORDS = {"page": M("page {page} of {pages}"), "continued": M("(continued) "),
               "laying_out": M("Laying out the pages"), "writing": M("Writing page {page} of {pages}"),
               "written": M("Written")}
#: the window's export dialog (replayer.gui.report.job), in the report's language
EXPORT_WORDS = {"dialog": M("Laying out the report…"), "dialog_of": M("Laying out the report of {name}…"),
                "cancel": M("Cancel"), "title": M("Export report as PDF"),
                "cancelled": M("Export cancelled: no file written")}


def language(lang: str | None) -> str:
    """The report's language: ``lang``, else the process's (:func:`replayer.i18n.current`)."""
    return i18n.normalize(lang) or i18n.current() if lang else i18n.current()


def paper_words(lang: str | None = None) -> dict[str, str]:
    """The PDF writer's words in ``lang`` (``{page}``, ``{pages}``: filled in by the writer), and the
    window's export dialog's (:data:`EXPORT_WORDS`, ``{name}``: filled in by the dialog)."""
    return {k: v.render(language(lang)) for k, v in (PAPER_WORDS | EXPORT_WORDS).items()}


def _words(lang: str):
    """``word(msg)``: a word of the report in ``lang``, as HTML."""
    return lambda msg: _e(render(msg, lang))


def _e(text: object) -> str:
    """User text for the page: markup escaped, control characters and bidi overrides shown as
    ``\\x1b`` / ``\\u202e`` (:func:`replayer.safe.html_text`)."""
    return html_text(text)


def _verdict_cell(v: Verdict, text=None, lang: str = "en") -> str:
    css = v.status if v.status in (CONFIRMED, DISMISSED) else "open"
    word = VERDICT_WORDS[v.status if v.status in (CONFIRMED, DISMISSED) else None]
    head = f"<span class='{css}'>{_e(word.render(lang))}</span>"
    if v.note:
        head += f"<br>{text(v.note) if text is not None else _e(v.note)}"
    return head


def _source(result: CheckResult, line: int) -> str:
    lines = result.match.lines
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _finding_cells(result: CheckResult, f, v: Verdict, tc: str | None, k: int,
                   text=None, note=None, lang: str = "en") -> tuple[str, str, str, str]:
    """A finding's cells, as HTML: its number, its line (and footage), the finding, the verdict.
    ``text``, ``note``: user text to HTML (default :func:`_e`; the report for paper cuts long
    text, :func:`cut_text`). ``lang``: the finding's message, hint and citation in that language
    (a hint's keywords in the log's, :meth:`replayer.diagnostics.Finding.in_language`); the rule id
    and the kind stay as they are."""
    t = text or _e
    match = result.match
    source = _source(result, f.span.line).strip()
    shown = f.in_language(lang, result.hint_words) if lang != "en" else f
    cell = [f"<span class='{_e(f.severity.value)}'>{_e(render(SEVERITY_WORDS[f.severity], lang))}</span> "
            f"<code>[{_e(f.rule)}]</code> <span class='sub'>{_e(f.kind.value)}</span><br>{t(shown.message)}"]
    if source:
        cell.append(f"<br><code>{t(source)}</code>")
    if shown.hint:
        cell.append(f"<br><span class='hint'>{_e(HINT_LABEL.render(lang))}: {t(shown.hint)}</span>")
    if shown.cite:
        cell.append(f"<br><span class='cite'>{_e(CITE_LABEL.render(lang))}: <i>{t(shown.cite)}</i></span>")
    href = video_href(match, tc) if tc else None
    at = (f"<br><a href='{_e(href)}'>{_e(tc)}</a>" if href else f"<br>{_e(tc)}") if tc else ""
    return str(k), f"{f.span.line}:{f.span.column}{at}", "".join(cell), _verdict_cell(v, note, lang)


@dataclass
class _Facts:
    """What both layouts of the report say, taken once from the result and the verdicts."""

    name: str
    game: str
    verdicts: list[Verdict]
    summary: str  # the summary paragraph, as HTML
    generated: str
    lang: str = "en"  # the report's language

    @classmethod
    def of(cls, result: CheckResult, reviews: Reviews | None, lang: str = "en") -> _Facts:
        findings = result.findings
        counts = {"error": 0, "warning": 0, "info": 0}
        for f in findings:
            counts[f.severity.value] += 1
        verdicts = [reviews.get(f) if reviews is not None else Verdict() for f in findings]
        confirmed = sum(1 for v in verdicts if v.status == CONFIRMED)
        dismissed = sum(1 for v in verdicts if v.status == DISMISSED)
        errors, warnings = (ERRORS[counts["error"] != 1].replace(n=counts["error"]).render(lang),
                            WARNINGS[counts["warning"] != 1].replace(n=counts["warning"]).render(lang))
        infos = INFOS.replace(n=counts["info"]).render(lang)
        reviewed = REVIEWED.replace(confirmed=confirmed, dismissed=dismissed,
                                    open=len(findings) - confirmed - dismissed).render(lang)
        comma = _e(render(COMMA, lang))
        summary = (f"<p><span class='error'>{_e(errors)}</span>{comma}<span class='warning'>{_e(warnings)}</span>"
                   f"{comma}<span class='info'>{_e(infos)}</span> · {_e(reviewed)}</p>")
        title = games.get(result.match.game).title
        return cls(Path(result.match.path).name, render(i18n.title(title), lang), verdicts, summary,
                   datetime.now().strftime('%Y-%m-%d %H:%M'), lang)


_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


def report_language(result: CheckResult) -> str:
    """The report's ``lang``: the language of the log's keywords, else Japanese when its names or
    header are (a browser or Qt then picks Japanese glyphs for the CJK characters), else English."""
    if result.language != "en":
        return result.language
    if any(_JAPANESE.search(line) for line in result.match.lines[:2000]):
        return "ja"
    return "en"


def html_language(result: CheckResult, lang: str) -> str:
    """The page's ``<html lang>``: the report's language; an English report keeps the log's
    (:func:`report_language`: a browser then picks Japanese glyphs for a Japanese log's names)."""
    return report_language(result) if lang == "en" else lang


def _head(title: str, css: str, lang: str = "en") -> list[str]:
    return ["<!DOCTYPE html>", f"<html lang='{_e(lang)}'><head><meta charset='utf-8'>",
            f"<title>{_e(title)}</title>", f"<style>{css}</style></head><body>"]


def report_html(result: CheckResult, reviews: Reviews | None, *, for_pdf: bool = False,
                lang: str | None = None) -> str:
    """The review report as a standalone HTML page (user text escaped); ``for_pdf``: the same
    report laid out for paper (:func:`_paper_html`), which is what :func:`write_pdf` prints.
    ``lang``: the report's language (en, ja, de; None: the process's, :func:`replayer.i18n.current`):
    its headings, labels, findings and verdicts; the log's text, the rule ids and the citations'
    sources stay as they are (a citation with its label translated beside it)."""
    lang = language(lang)
    facts = _Facts.of(result, reviews, lang)
    if for_pdf:
        return _paper_html(result, reviews, facts)
    match = result.match
    findings = result.findings
    name, verdicts = facts.name, facts.verdicts
    word = _words(lang)
    out = _head(TITLE.replace(name=name).render(lang), _CSS, html_language(result, lang))
    out += [f"<h1>{_e(TITLE.render(lang)).replace('{name}', _e(name))}</h1>",
            f"<p class='sub'>{_e(SUBTITLE.replace(game=facts.game, rules=match.rules, events=len(match.events), generated=facts.generated).render(lang))}</p>"]
    # header tags
    out.append(f"<h2>{word(H_MATCH)}</h2><table>")
    keys = [k for k in HEADER_ORDER if k in match.header] + sorted(k for k in match.header if k not in HEADER_ORDER)
    if not keys:
        out.append(f"<tr><td class='sub'>{word(NO_HEADER)}</td></tr>")
    for key in keys:
        out.append(f"<tr><th>{_e(tag_label(key, lang))}</th><td>{_e(match.header[key])}</td></tr>")
    out.append("</table>")
    # summary
    out.append(f"<h2>{word(H_SUMMARY)}</h2>")
    out.append(facts.summary)
    # findings
    out.append(f"<h2>{word(H_FINDINGS)}</h2>")
    if not findings:
        out.append(f"<p>{word(NO_FINDINGS)}</p>")
    else:
        out.append("<table width='100%'><tr>" + "".join(f"<th>{word(LABELS[h])}</th>" for h in
                                                          ("#", "Line", "Finding", "Verdict")) + "</tr>")
        timecodes = finding_timecodes(match, findings)  # each finding's footage, linked to the video
        for k, (f, v) in enumerate(zip(findings, verdicts), 1):
            number, line, cell, verdict = _finding_cells(result, f, v, timecodes[k - 1], k, lang=lang)
            out.append(f"<tr><td>{number}</td><td>{line}</td><td>{cell}</td><td>{verdict}</td></tr>")
        out.append("</table>")
    if reviews is not None:
        orphans = reviews.orphans(findings)
        if orphans:
            out.append(f"<h2>{word(H_ORPHANS)}</h2><table><tr>"
                       + "".join(f"<th>{word(LABELS[h])}</th>" for h in ("Line", "Rule", "Message", "Verdict"))
                       + "</tr>")
            for e in orphans:
                out.append(f"<tr><td>{e.line}</td><td><code>{_e(e.rule)}</code></td><td>{_e(e.message)}</td>"
                           f"<td>{_verdict_cell(e.verdict, lang=lang)}</td></tr>")
            out.append("</table>")
    notes = [n for n in match.notes]
    if notes:
        out.append(f"<h2>{word(H_NOTES)}</h2><table width='100%'><tr><th>{word(LABELS['Line'])}</th>"
                   f"<th>{word(LABELS['Note'])}</th></tr>")
        for n in notes[:MAX_NOTES]:
            out.append(f"<tr><td>{n.line}</td><td>{_e(n.text)}</td></tr>")
        if len(notes) > MAX_NOTES:
            out.append(f"<tr><td></td><td class='sub'>{word(MORE.replace(n=len(notes) - MAX_NOTES))}</td></tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out)


# --- the report for paper ----------------------------------------------------------------------
# Every table fills the text width. A long table is written as one table per row, with its column
# headings in a table of their own (<thead>) before the first row, all with the same column
# widths: Qt's text engine has no keep-together for rows, so replayer.gui.report.pdf moves a whole table
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


#: the paper's text width (A4 less 15 mm margins, replayer/gui/report/pdf.py) in points, and what a cell of
#: the report's 10 pt text takes: a digit or a colon about 0.64 em, the padding and borders 14 pt
PAPER_TEXT_PT = (210 - 2 * 15) * 72 / 25.4
DIGIT_PT, CELL_PT = 6.4, 14.0


def fit_columns(columns: tuple[tuple[str, int], ...], widest: dict[str, int],
                grow: str, shown: dict[str, str] | None = None) -> tuple[tuple[str, int], ...]:
    """``columns`` with the narrow ones as wide as their content (``widest``: heading -> the most
    characters of a line of that column, digits and punctuation) and ``grow`` taking what is left:
    "#" of a 266-page report holds 3 digits and a timecode @1:03:40 is never wrapped. ``shown``:
    the headings as the report writes them (another language: 行 or Zeile for Line), whose width
    counts (a Japanese character as two digits, :func:`replayer.textwidth.width`)."""
    from ..textwidth import width

    out, used = {}, 0
    for head, pct in columns:
        if head in widest:
            need = max(widest[head], width((shown or {}).get(head, head))) * DIGIT_PT + CELL_PT
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
#: (a row taller than a page is cut into pieces, each a copy of the row: :mod:`replayer.gui.report.split`);
#: cut, a row costs a bounded time, and the report's time grows as its number of rows.
NAME_CHARS, LINE_CHARS, VERDICT_CHARS, NOTE_CHARS = 200, 2_000, 4_000, 30_000
CUT_MARK = M("[… cut here: {rest} more characters; the HTML report has the whole text]")


def cut_text(text: object, limit: int, lang: str | None = None) -> str:
    """User text as HTML (:func:`_e`), cut after ``limit`` characters with :data:`CUT_MARK` at the
    cut (in the report's grey italics; ``lang``: the mark's language, None: the process's)."""
    s = str(text)
    if len(s) <= limit:
        return _e(s)
    mark = CUT_MARK.replace(rest=f"{len(s) - limit:,}").render(language(lang))
    return f"{_e(s[:limit])} <span class='sub'><i>{_e(mark)}</i></span>"


class _Cut:
    """The report for paper's cuts of user text (:func:`cut_text`), with the mark in its language."""

    def __init__(self, lang: str):
        self.lang = lang

    def name(self, text: object) -> str:
        return cut_text(text, NAME_CHARS, self.lang)

    def line(self, text: object) -> str:
        return cut_text(text, LINE_CHARS, self.lang)

    def verdict_note(self, text: object) -> str:
        return cut_text(text, VERDICT_CHARS, self.lang)

    def note(self, text: object) -> str:
        return cut_text(text, NOTE_CHARS, self.lang)


def _plain_cut(text: str, limit: int) -> str:
    """Plain text (a page's footer, the PDF's title) cut after ``limit`` characters with ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rows_table(columns: tuple[tuple[str, int], ...], rows: list[list[str]], lang: str = "en") -> list[str]:
    """A long table for paper: the column headings, then each row (cells as HTML) a table of its own."""
    out = ["<table width='100%' cellspacing='0'><thead><tr>"
           + "".join(f"<th width='{w}%'>{_e(render(LABELS.get(h, h), lang))}</th>" for h, w in columns)
           + "</tr></thead></table>"]
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
    lang = facts.lang
    word, cut = _words(lang), _Cut(lang)
    _name, _line = cut.name, cut.line
    shown = {k: render(v, lang) for k, v in LABELS.items()}
    out = _head(_plain_cut(TITLE.replace(name=facts.name).render(lang), NAME_CHARS), _CSS + _PAPER_CSS,
                html_language(result, lang))
    out.append(f"<h1>{word(TITLE).replace('{name}', _name(facts.name))}</h1>")
    # the header block: what a page of an appeal must say first
    where = [header[k].strip() for k in ("Event",) if header.get(k, "").strip()]
    where += [(ROUND if k == "Round" else TABLE).replace(value=header[k].strip()).render(lang)
              for k in ("Round", "Table") if header.get(k, "").strip()]
    players = match.players
    not_given = f"<span class='sub'>{word(NOT_GIVEN)}</span>"
    cells = [(word(H_MATCH), " · ".join(_name(w) for w in [facts.name] + where)),
             (word(LABELS["Rules"]), f"{_name(match.rules)} <span class='sub'>({_e(facts.game)})</span>"),
             (word(LABELS["Players"]), f"A {_name(players['A'])} · B {_name(players['B'])}"),
             (word(LABELS["Reviewer"]), _name(reviewer(match, reviews)) or not_given),
             (word(LABELS["Date"]), _name(header.get("Date", "").strip()) or not_given),
             (word(LABELS["Report"]), word(REPORT_CELL.replace(generated=facts.generated, events=len(match.events))))]
    out.append("<table width='100%' cellspacing='0'>")
    for k in range(0, len(cells), 2):
        (k1, v1), (k2, v2) = cells[k], cells[k + 1]
        out.append(f"<tr><th width='14%'>{k1}</th><td width='36%'>{v1}</td>"
                   f"<th width='14%'>{k2}</th><td width='36%'>{v2}</td></tr>")
    out.append("</table>")
    others = [k for k in HEADER_ORDER if k in header and k not in SHOWN_IN_THE_HEADER_BLOCK]
    others += sorted(k for k in header if k not in HEADER_ORDER)
    if others:
        out.append(f"<h2>{word(H_OTHER_TAGS)}</h2><table width='100%' cellspacing='0'>")
        for key in others:
            out.append(f"<tr><th width='14%'>{_name(tag_label(key, lang))}</th><td width='86%'>{_line(header[key])}</td></tr>")
        out.append("</table>")
    out += [f"<h2>{word(H_SUMMARY)}</h2>", facts.summary, f"<h2>{word(H_FINDINGS)}</h2>"]
    if not findings:
        out.append(f"<p>{word(NO_FINDINGS)}</p>")
    else:
        timecodes = finding_timecodes(match, findings)
        line_chars = max(max(len(f"{f.span.line}:{f.span.column}"), len(tc or "")) for f, tc in zip(findings, timecodes))
        columns = fit_columns(FINDING_COLUMNS, {"#": len(str(len(findings))), "Line": line_chars}, "Finding", shown)
        out += _rows_table(columns, [list(_finding_cells(result, f, v, timecodes[k - 1], k, _line, cut.verdict_note,
                                                         lang))
                                     for k, (f, v) in enumerate(zip(findings, facts.verdicts), 1)], lang)
    orphans = reviews.orphans(findings) if reviews is not None else []
    if orphans:
        out.append(f"<h2>{word(H_ORPHANS)}</h2>")
        out += _rows_table(fit_columns(ORPHAN_COLUMNS, {"Line": max(len(str(e.line)) for e in orphans)}, "Message",
                                       shown),
                           [[str(e.line), f"<code>{_name(e.rule)}</code>", _line(e.message),
                             _verdict_cell(e.verdict, cut.verdict_note, lang)] for e in orphans], lang)
    notes = match.notes
    if notes:
        out.append(f"<h2>{word(H_NOTES)}</h2>")
        rows = [[str(n.line), cut.note(n.text)] for n in notes[:MAX_NOTES]]
        if len(notes) > MAX_NOTES:
            rows.append(["", f"<span class='sub'>{word(MORE.replace(n=len(notes) - MAX_NOTES))}</span>"])
        out += _rows_table(fit_columns(NOTE_COLUMNS, {"Line": max(len(str(n.line)) for n in notes)}, "Note", shown),
                           rows, lang)
    out.append("</body></html>")
    return "\n".join(out)


def write_html(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike, *,
               lang: str | None = None) -> Path:
    """The report as HTML at ``path``, whole or not at all: written beside it, every write and the
    size on the disk checked, renamed over an older report only then (a full disk leaves the old
    one as it was and raises ``OSError``). ``lang``: see :func:`report_html`."""
    from ..gui.shared.savefile import write_atomically  # (no Qt: the writer every save of replayer uses)

    p = Path(path)
    write_atomically(p, report_html(result, reviews, lang=lang).encode("utf-8"))
    return p


def pdf_parts(result: CheckResult, reviews: Reviews | None, *, lang: str | None = None) -> tuple[str, str, str]:
    """What the PDF report is made of: its HTML for paper, its title and the footer every page
    carries (:func:`write_pdf`; the window hands the same to its export process), in ``lang``
    (None: the process's; the PDF writer's own words: :func:`paper_words`)."""
    lang = language(lang)
    m = result.match
    players = m.players

    def short(text: str) -> str:  # a footer is one line: a long name is cut (the header block says more)
        return _plain_cut(text, FOOTER_NAME_CHARS)

    parts = [short(Path(m.path).name), FOOTER_PLAYERS.replace(a=short(players['A']), b=short(players['B'])).render(lang),
             FOOTER_RULES.replace(value=short(m.rules)).render(lang)]
    if reviewer(m, reviews):
        parts.append(FOOTER_REVIEWER.replace(value=short(reviewer(m, reviews))).render(lang))
    if m.header.get("Date", "").strip():
        parts.append(FOOTER_DATE.replace(value=short(m.header['Date'].strip())).render(lang))
    # every page's footer names the match, so a printed page that comes loose still says whose it is
    return (report_html(result, reviews, for_pdf=True, lang=lang),
            _plain_cut(TITLE.replace(name=Path(m.path).name).render(lang), NAME_CHARS), " · ".join(parts))


FOOTER_NAME_CHARS = 40


def write_pdf(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike, *, progress=None,
              lang: str | None = None) -> Path:
    """The report as PDF (A4, text kept as text), laid out by Qt's text engine. ``progress``:
    ``progress(fraction, what)``, called while it is laid out and written, may raise
    ``replayer.gui.report.pdf.Cancelled`` to stop (see :func:`replayer.gui.report.pdf.html_to_pdf`). ``lang``:
    see :func:`report_html` (the page numbers and the progress' words too)."""
    from ..gui.report.pdf import html_to_pdf  # PySide6 is imported only here

    html, title, footer = pdf_parts(result, reviews, lang=lang)
    return html_to_pdf(html, path, title=title, footer_text=footer, progress=progress, words=paper_words(lang))


def write_report(result: CheckResult, reviews: Reviews | None, path: str | os.PathLike, *,
                 progress=None, lang: str | None = None) -> Path:
    """The report in the format the file name asks for: ``.pdf`` or ``.html``/``.htm`` (``progress``:
    for a PDF, see :func:`write_pdf`; ``lang``: the report's language, None: the process's)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        return write_pdf(result, reviews, path, progress=progress, lang=lang)
    if suffix in (".html", ".htm"):
        return write_html(result, reviews, path, lang=lang)
    raise ValueError(f"a report is written as .html or .pdf, not {suffix or 'a file with no extension'}")
