"""The log pane's colours: :func:`syntax_runs` says what each run of a line is (keyword, player,
card, number, timecode, note), :class:`LogHighlighter` formats the lines on screen with it and
underlines each finding's columns (see :mod:`.pane`)."""

from __future__ import annotations

import logging
import re

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextDocument, QTextLayout

from ..document import SEVERITY_RANK, Document
from ..shared.theme import LIGHT, Theme

log = logging.getLogger("replayer.gui")

_TOKEN = re.compile(
    r'(?P<card>"[^"]*"?|《[^》]*》?|「[^」]*」?|„[^“”]*[“”]?)(?P<copy>#\d+)?'
    r"|(?P<note>#.*)"
    r"|(?P<props>\{[^}]*\}?)"
    r"|(?P<time>@(?:\d+:)?\d{1,2}:\d{2})"
    r"|(?P<num>[+-]?(?:\d+|\?)(?:/(?:\d+|\?))?(?![\w]))"
    r"|(?P<cl>(?<![\w])CL\d+(?![\w]))"
    r"|(?P<player>(?<![\w])[AB]\s*:)"
    r"|(?P<arrow>->)"
    r"|(?P<word>[^\W\d_][\w-]*)",
    re.IGNORECASE,
)

_TAG = re.compile(r'^\s*\[\s*([A-Za-z][\w-]*)\s+("[^"\n]*")\s*\]')


def syntax_runs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, category) runs of a log line, for colouring. Pure Python.

    >>> syntax_runs('A: attack "Lyla" -> direct')[:3]
    [(0, 2, 'player'), (3, 9, 'keyword'), (10, 16, 'card')]
    """
    m = _TAG.match(text)
    if m:
        return [(0, m.start(2), "tag"), (m.start(2), m.end(2), "card"), (m.end(2), len(text), "tag")]
    runs: list[tuple[int, int, str]] = []
    words: list[tuple[int, int]] = []
    actor = False
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        start, end = m.start(), m.end()
        if kind in ("card", "copy"):
            runs.append((start, end, "card"))
        elif kind == "note":
            runs.append((start, len(text), "note"))
            break
        elif kind == "props":
            runs.append((start, end, "props"))
        elif kind == "time":
            runs.append((start, end, "timecode"))
        elif kind == "num":
            runs.append((start, end, "number"))
        elif kind in ("player", "cl"):
            actor = actor or kind == "player"
            runs.append((start, end, "player"))
        elif kind == "arrow":
            runs.append((start, end, "keyword"))
        elif kind == "word":
            words.append((start, end))
    style = "keyword" if actor else "structure"
    runs.extend((a, b, style) for a, b in words)
    runs.sort()
    return runs


class LogHighlighter:
    """Colours log lines and underlines findings, one block at a time, on demand.

    A ``QSyntaxHighlighter`` formats every block of the document whenever the text is set: a
    Python call per line, and each needs Python's lock while the log is being checked on a
    worker thread. This highlighter does what ``QSyntaxHighlighter`` does inside (set the
    block layout's formats, mark the block dirty), but only for the blocks the view shows, so
    opening a 100,000-line log costs Qt's text layout and nothing more.
    """

    def __init__(self, document: QTextDocument, theme: Theme = LIGHT):
        self.document = document
        self.theme = theme
        self.doc: Document | None = None
        self.done: set[int] = set()
        self._formats: dict[tuple[str, str], QTextCharFormat] = {}
        self.generation = 0  # counts the times formats were set (a block's layout may change)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._formats.clear()

    def reset(self) -> None:
        self.done.clear()

    def _format(self, category: str, severity: str) -> QTextCharFormat:
        key = (category, severity)
        fmt = self._formats.get(key)
        if fmt is None:
            t = self.theme
            fmt = QTextCharFormat()
            if category:
                color = t.dim if category == "props" else t.syntax.get(category, t.text)
                fmt.setForeground(QColor(color))
            if category in ("structure", "player"):
                fmt.setFontWeight(QFont.Bold)
            if category == "note":
                fmt.setFontItalic(True)
            if severity:
                fmt.setUnderlineStyle(QTextCharFormat.WaveUnderline)
                fmt.setUnderlineColor(QColor(t.severity[severity]))
            self._formats[key] = fmt
        return fmt

    def ranges(self, text: str, line: int) -> list[QTextLayout.FormatRange]:
        """Non-overlapping format ranges of one line: syntax colours, finding underlines."""
        n = len(text)
        if n == 0:
            return []
        cat = [""] * n
        for a, b, c in syntax_runs(text):
            cat[a:b] = [c] * (min(b, n) - a)
        sev = [""] * n
        doc = self.doc
        ks = doc.line_findings.get(line) if doc is not None else None
        if ks:
            stripped = len(text.rstrip())
            for k in sorted(ks, key=lambda k: SEVERITY_RANK[doc.findings[k].severity.value]):
                fnd = doc.findings[k]
                span = fnd.span
                start = max(span.column - 1, 0)
                if span.end_column and span.end_line in (None, line) and span.end_column - 1 > start:
                    end = span.end_column - 1
                else:
                    end = stripped
                if start >= stripped:  # at the end of the line (e.g. "ends too early")
                    start = max(stripped - 1, 0)
                    end = max(stripped, start + 1)
                end = min(max(end, start + 1), n)
                sev[start:end] = [fnd.severity.value] * (end - start)
        out: list[QTextLayout.FormatRange] = []
        i = 0
        while i < n:
            j = i + 1
            while j < n and cat[j] == cat[i] and sev[j] == sev[i]:
                j += 1
            if cat[i] or sev[i]:
                r = QTextLayout.FormatRange()
                r.start, r.length, r.format = i, j - i, self._format(cat[i], sev[i])
                out.append(r)
            i = j
        return out

    def highlight(self, first: int, last: int, *, force: bool = False) -> int:
        """Format blocks ``first``..``last`` (numbers) not yet formatted; returns how many."""
        document = self.document
        last = min(last, document.blockCount() - 1)
        done_set = self.done
        todo = [n for n in range(max(first, 0), last + 1) if force or n not in done_set]
        done = 0
        k = 0
        while k < len(todo):  # runs of consecutive blocks: one lookup and one re-layout a run
            j = k
            while j + 1 < len(todo) and todo[j + 1] == todo[j] + 1:
                j += 1
            block = document.findBlockByNumber(todo[k])
            start_pos = block.position()
            end_pos = start_pos
            for number in range(todo[k], todo[j] + 1):
                if not block.isValid():
                    break
                try:
                    block.layout().setFormats(self.ranges(block.text(), number + 1))
                except Exception:  # a colouring error must never reach Qt
                    log.debug("highlighting line %d failed", number + 1, exc_info=True)
                done_set.add(number)
                done += 1
                end_pos = block.position() + block.length()
                block = block.next()
            if end_pos > start_pos:
                document.markContentsDirty(start_pos, end_pos - start_pos)
            k = j + 1
        if done:
            self.generation += 1
        return done
