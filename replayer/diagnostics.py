"""Findings: what the reader and the validators say about a log.

A finding is data, never an exception (python-chess's way): ``severity``, ``kind``, ``rule`` (a
stable dotted id from :data:`RULES`), the :class:`Span` at fault, ``message``, ``hint`` and ``cite``.
Every rule id is registered once, with its kind, severity, title and citation; a finding takes
its kind, severity and citation from the registry so that they cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import field
from enum import Enum
from typing import Iterable, Mapping, Sequence

from .i18n import M, Msg, cite_in, render
from .records import record


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Kind(str, Enum):
    SYNTAX = "syntax"
    ILLEGAL_ACTIVATION = "illegal-activation"
    WRONG_TIMING = "wrong-timing"
    ORDERING = "ordering"
    STATE = "state"
    UNKNOWN_CARD = "unknown-card"


@record
class Span:
    """Where an event or finding is: 1-based line and column; ``end_column`` is exclusive."""

    line: int
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None


@record
class Rule:
    """One entry of the rule registry."""

    id: str
    kind: Kind
    severity: Severity
    title: str
    cite: str = ""


class Registry(dict):
    """The rule ids by id. A game's rules are registered when its rules module is imported, which
    its model imports the first time a log of that game is checked; a look at the whole registry
    (iterating it, its length, ``in`` or an id not yet there) first runs the loaders that games
    added (:meth:`add_loader`), so it is complete whenever it is looked at as a whole."""

    def __init__(self) -> None:
        super().__init__()
        self._loaders: list = []
        self._loading = False

    def add_loader(self, load) -> None:
        """``load()`` registers more rules (a game's): run once, before the registry is looked at whole."""
        self._loaders.append(load)

    def _complete(self) -> None:
        if self._loading or not self._loaders:
            return
        self._loading = True
        try:
            while self._loaders:
                self._loaders.pop(0)()
        finally:
            self._loading = False

    def __missing__(self, key: str) -> Rule:
        self._complete()
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key, default=None):
        if not dict.__contains__(self, key):
            self._complete()
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        if not dict.__contains__(self, key):
            self._complete()
        return dict.__contains__(self, key)

    def __iter__(self):
        self._complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._complete()
        return dict.__len__(self)

    def keys(self):
        self._complete()
        return dict.keys(self)

    def values(self):
        self._complete()
        return dict.values(self)

    def items(self):
        self._complete()
        return dict.items(self)


#: Every rule id a finding may carry, by id.
RULES: Registry = Registry()


def register(id: str, kind: Kind | str, severity: Severity | str, title: str, cite: str = "") -> Rule:
    """Register a rule id (idempotent for identical entries) and return it."""
    rule = Rule(id, Kind(kind), Severity(severity), title, cite)
    old = dict.get(RULES, id)
    if old is not None and old != rule:
        raise ValueError(f"rule {id!r} registered twice with different data")
    dict.__setitem__(RULES, id, rule)
    return rule


def define(id: str, kind: Kind | str, title: str, cite: str, severity: Severity | str = Severity.ERROR) -> str:
    """Register a rule (error unless told) and return its id: ``R_X = define("ygo.x", ...)``."""
    register(id, kind, severity, title, cite)
    return id


@record
class Finding:
    severity: Severity
    kind: Kind
    rule: str
    span: Span
    message: str
    hint: str = ""
    cite: str = ""
    related: tuple[Span, ...] = field(default=())
    source: str = ""  # where the card facts the finding rests on came from, when imported (the `from` line)
    #: the message and the hint as messages (:mod:`replayer.i18n`: the English text and the parameters),
    #: rendered in another language where the finding leaves; ``message``/``hint`` are their English
    text: Msg | None = field(default=None, compare=False)
    hint_text: Msg | None = field(default=None, compare=False)
    source_text: Msg | None = field(default=None, compare=False)

    @property
    def line(self) -> int:
        return self.span.line

    def in_language(self, lang: str, words: Mapping[str, str] | None = None) -> "Finding":
        """This finding with its message, hint, citation and `from` line in ``lang`` (English: itself).

        ``words``: the log's keywords (:func:`replayer.hints.localize_hint`'s table), for the lines
        the hint tells the user to write: a log's own language is kept there whatever ``lang`` is."""
        if lang == "en":
            return self
        from .hints import localize_hint

        message = self.text.render(lang) if self.text is not None else self.message
        hint = self.hint
        if self.hint_text is not None:
            hint = self.hint_text.render(lang)
            if words and self.kind is not Kind.SYNTAX:  # (a syntax hint shows the forms as the notation has them)
                hint = localize_hint(hint, words)
        source = self.source_text.render(lang) if self.source_text is not None else self.source
        return dataclasses.replace(self, message=message, hint=hint, cite=cite_in(self.cite, lang), source=source)

    def to_dict(self, lang: str = "en", words: Mapping[str, str] | None = None) -> dict:
        """The JSON shape of ``replayer check --format json`` (docs/notation.md). In another language
        than English, ``message`` and ``hint`` are in it and the English ones are kept beside them
        (``message_en``, ``hint_en``: what a script matched before); in English the object is as it
        always was."""
        f = self.in_language(lang, words)
        return {
            "severity": self.severity.value,
            "kind": self.kind.value,
            "rule": self.rule,
            "line": self.span.line,
            "column": self.span.column,
            "message": f.message,
            **({"message_en": self.message} if lang != "en" else {}),
            "hint": f.hint,
            **({"hint_en": self.hint} if lang != "en" else {}),
            "cite": f.cite,
            **({"from": f.source} if self.source else {}),
        }


def make_finding(rule_id: str, span: Span, message: str | Msg, hint: str | Msg = "", *,
                 related: Iterable[Span] = (), severity: Severity | None = None) -> Finding:
    """A finding for a registered rule; kind, severity and citation come from the registry.
    ``message`` and ``hint`` are best :class:`~replayer.i18n.Msg` (then they can be rendered in
    another language); a plain string is English only."""
    rule = RULES[rule_id]
    text = message if isinstance(message, Msg) else None
    hint_text = hint if isinstance(hint, Msg) else None
    return Finding(severity or rule.severity, rule.kind, rule.id, span, render(message), render(hint), rule.cite,
                   tuple(related), text=text, hint_text=hint_text)


# ---- the reader's own rules ----------------------------------------------------------------
SYNTAX_CITE = "replayer log notation v1"
register("syntax.line", Kind.SYNTAX, Severity.ERROR, "the line does not parse", SYNTAX_CITE + " §3-§5")
register("syntax.header", Kind.SYNTAX, Severity.ERROR, "a header tag is missing or wrong", SYNTAX_CITE + " §2")
register("syntax.header-late", Kind.SYNTAX, Severity.WARNING, "a header tag after the first event",
         SYNTAX_CITE + " §2")
register("syntax.header-date", Kind.SYNTAX, Severity.WARNING, "a header Date that cannot be read as a date",
         SYNTAX_CITE + " §2")
register("syntax.property", Kind.SYNTAX, Severity.WARNING, "an unknown card property", SYNTAX_CITE + " §6")
register("syntax.number", Kind.SYNTAX, Severity.ERROR, "a number too long to be a count", SYNTAX_CITE + " §3-§5")
register("syntax.encoding", Kind.SYNTAX, Severity.ERROR, "the file is not UTF-8 text", SYNTAX_CITE + " §1")
register("file.unreadable", Kind.SYNTAX, Severity.ERROR, "the file cannot be read", SYNTAX_CITE + " §1")
register("syntax.empty", Kind.SYNTAX, Severity.ERROR, "the file has no events", SYNTAX_CITE + " §1")
register("card.unknown", Kind.UNKNOWN_CARD, Severity.WARNING,
         "a card with no catalog entry and no inline properties", SYNTAX_CITE + " §6")


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.span.line, f.span.column, f.rule))


# ---- rendering -----------------------------------------------------------------------------
_COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m", Severity.INFO: "\x1b[1;36m"}
_BOLD, _DIM, _RESET, _GREEN = "\x1b[1m", "\x1b[2m", "\x1b[0m", "\x1b[32m"


#: how much of a long source line a finding shows: this many characters before its column and
#: after it (a finding's output stays the same size however long the line is)
SHOWN_BEFORE, SHOWN_AFTER = 60, 100


#: the words of a finding's text rendering: its severity and the labels of its last lines
SEVERITY_WORDS = {Severity.ERROR: M.term("severity", "error"), Severity.WARNING: M.term("severity", "warning"),
                  Severity.INFO: M.term("severity", "info")}
HINT_LABEL, CITE_LABEL, FROM_LABEL = M.term("label", "hint"), M.term("label", "cite"), M.term("label", "from")


def render_text(path: str, findings: Sequence[Finding], lines: Sequence[str], *, colour: bool = False,
                lang: str = "en", words: Mapping[str, str] | None = None) -> str:
    """Render findings like a compiler: location, message, source line, caret, hint, citation.

    Everything that comes from the log (the path, messages, hints, source lines) goes through
    :func:`replayer.safe.visible`, so no escape sequence of a log reaches the terminal; a long
    source line is shown around the finding's column only, with ``…`` where it is cut.
    """
    from .safe import visible

    out: list[str] = []
    path = visible(path)
    hint_label, cite_label, from_label = (render(w, lang) for w in (HINT_LABEL, CITE_LABEL, FROM_LABEL))
    for f in findings:
        f = f.in_language(lang, words)
        sev = render(SEVERITY_WORDS[f.severity], lang)
        head = f"{path}:{f.span.line}:{f.span.column}: "
        message = visible(f.message)
        if colour:
            out.append(f"{_BOLD}{head}{_RESET}{_COLOURS[f.severity]}{sev}[{f.rule}]{_RESET}: {_BOLD}{message}{_RESET}")
        else:
            out.append(f"{head}{sev}[{f.rule}]: {message}")
        if 1 <= f.span.line <= len(lines):
            raw = lines[f.span.line - 1].rstrip("\r\n")
            col = min(max(f.span.column, 1), len(raw) + 1)
            width = 1
            if f.span.end_column and (f.span.end_line in (None, f.span.line)) and f.span.end_column > col:
                width = f.span.end_column - col
            width = max(min(width, len(raw) - col + 1, SHOWN_AFTER), 1)
            first = max(col - 1 - SHOWN_BEFORE, 0)
            last = min(col - 1 + max(width, SHOWN_AFTER), len(raw))
            before = visible(raw[first : col - 1])
            marked = visible(raw[col - 1 : col - 1 + width])
            src = ("…" if first else "") + before + visible(raw[col - 1 : last]) + ("…" if last < len(raw) else "")
            out.append(f"  {src}")
            # keep tabs, and measure by display width, as a terminal does: a wide (CJK) character takes
            # two columns, a combining mark none; the run under the token is as wide as the token shows
            prefix = ("  " if first and _is_wide("…") else " " if first else "") + "".join(
                "\t" if ch == "\t" else " " * char_width(ch) for ch in before)
            carets = "^" + "~" * (max(text_width(marked), 1) - 1)
            out.append(f"  {prefix}{_GREEN if colour else ''}{carets}{_RESET if colour else ''}")
        if f.hint:
            out.append(f"  = {hint_label}: {visible(f.hint)}")
        if f.cite:
            out.append(f"  = {_DIM if colour else ''}{cite_label}: {f.cite}{_RESET if colour else ''}")
        if f.source:
            out.append(f"  = {from_label}: {visible(f.source)}")
    return "\n".join(out)


def char_width(ch: str) -> int:
    from .textwidth import char_width as w

    return w(ch)


def text_width(text: str) -> int:
    from .textwidth import width

    return width(text)


def _is_wide(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


def render_json(obj: dict) -> str:
    """One JSON object on one line. JSON escapes C0 controls itself; the C1 controls and the
    bidi characters a terminal would act on are written as ``\\uXXXX`` too (the same string to
    a JSON reader)."""
    from .safe import json_safe

    return json_safe(json.dumps(obj, ensure_ascii=False))
