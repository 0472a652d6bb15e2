"""Text -> :class:`Match`: the header, the events, the notes and the syntax findings.

Lines are independent: each is parsed on its own, so a bad line becomes one ``syntax`` finding
and the reader goes on. Identical line bodies recur in real logs (``resolve``, ``A: pass``,
``timing calc``), so a line's parse is cached by its text.
"""

from __future__ import annotations

import copy
import difflib
import functools
import gc
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from . import events as ev
from .diagnostics import Finding, Span, make_finding, sort_findings
from . import games
from .errors import ReplayerError, UnknownGame, UnreadableFile  # noqa: F401  (re-exported)
from .games import Game
from .grammar import parser
from .makers import maker
from .numbers import NumberTooLong, too_long_message, whole_number
from .safe import shorten
from .templates import Template, make_template, own_fields
from .timecodes import OFFSET_FORMS, parse_offset
from .transform import ToEvents, canonical


_TIMECODE = re.compile(r"@(?:\d+:)?\d{1,2}:\d{2}(?=\s|$)")
_TAG = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+("[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”])\s*\]')
_ODD_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_OPENERS = {'"': '"', "《": "》", "「": "」", "„": "“”"}
_NOTE_SCAN = re.compile('[#"《「„]')
_SPACES = frozenset(" \t\u00a0\u3000")


@dataclass
class Match:
    """One log, read: what ``read_log`` returns."""

    path: str
    game: str
    rules: str
    header: dict[str, str]
    events: list[ev.Event]
    findings: list[Finding]
    lines: list[str]
    notes: list[ev.Note] = field(default_factory=list)  # every note, in order
    header_lines: dict[str, int] = field(default_factory=dict)

    @property
    def players(self) -> dict[str, str]:
        return {"A": self.header.get("A", "A"), "B": self.header.get("B", "B")}


def split_line(raw: str) -> tuple[int, str | None, str, str | None]:
    """Split a raw line into (body column, timecode, body, note).

    The note starts at the first ``#`` outside a card name that is not a copy suffix (a ``#``
    right after a closing quote, followed by a digit: ``"Kuriboh"#2``).
    """
    body = raw.lstrip(" \t\ufeff\u00a0\u3000")
    i = len(raw) - len(body)
    timecode = None
    if body[:1] == "@":
        m = _TIMECODE.match(raw, i)
        if m:
            timecode = m.group(0)
            i = m.end()
            while raw[i : i + 1] in _SPACES:  # "" (the end) is not a space: see _SPACES
                i += 1
            body = raw[i:]
    if "#" not in body:  # most lines: no note, no copy suffix
        return i + 1, timecode, body.rstrip(), None
    # the first `#` that starts the note: search and find jump from one `#` or quote to the next
    n = len(raw)
    j = i
    note = None
    while True:
        m = _NOTE_SCAN.search(raw, j)
        if m is None:
            j = n
            break
        j = m.start()
        ch = raw[j]
        if ch == "#":
            if j > 0 and raw[j - 1] in '"》」“”' and raw[j + 1 : j + 2].isdigit():
                j += 1  # a copy suffix
                continue
            note = raw[j + 1 :].strip()
            break
        closers = _OPENERS[ch]
        k = raw.find(closers[0], j + 1)
        if len(closers) > 1:  # „ closes with “ or ”
            k2 = raw.find(closers[1], j + 1)
            if k2 >= 0 and (k < 0 or k2 < k):
                k = k2
        if k < 0:
            k = n
        j = k + 1  # past the closing quote (or the end: an unclosed name runs to the end of the line)
    return i + 1, timecode, raw[i:j].rstrip(), note


#: full-width ASCII (what a Japanese IME types: Ａ：攻撃, ｄｒａｗ　２) to ASCII, and half-width
#: corner brackets and stops to full-width; one character for one, so columns stay the raw line's
_WIDTH_FOLD = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
_WIDTH_FOLD.update({0xFF61: 0x3002, 0xFF62: 0x300C, 0xFF63: 0x300D, 0xFF64: 0x3001})


def fold_width(text: str) -> str:
    """``text`` with full-width ASCII forms read as ASCII (NFKC's width folding, restricted to the
    characters that keep one column each; half-width katakana is left to name matching, which
    normalises with NFKC: see :func:`replayer.catalog.name_key`)."""
    if text.isascii() or _WIDE_FORMS.search(text) is None:  # translate costs ~1 µs a non-ASCII character
        return text
    return text.translate(_WIDTH_FOLD)


_WIDE_FORMS = re.compile("[\uff01-\uff5e\uff61-\uff64]")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, numbered as an editor numbers them: only \\n, \\r\\n and \\r end a line.

    (``str.splitlines`` also breaks at form feeds, U+2028 and others, which would shift every
    later line number; it is used, for its speed, only when none of those is in the text.)
    """
    if _ODD_BREAKS.search(text) is None:
        return text.splitlines()
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def detect_game(lines: list[str]) -> tuple[Game | None, int]:
    for number, raw in enumerate(lines, 1):
        m = _TAG.match(raw)
        if m and m.group(1).lower() == "game":
            return games.by_alias(m.group(2)[1:-1]), number
    return None, 0


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that does not read: its finding without the line number.

    It is what the line cache keeps for a bad line (a few hundred bytes), never lark's
    exception, which holds the parser's state (some 9 KB, and many objects for the garbage
    collector to walk).
    """

    rule: str
    column: int
    message: str
    hint: str = ""

    def finding(self, line: int) -> Finding:
        return make_finding(self.rule, Span(line, self.column), self.message, self.hint)


#: lines longer than this are not cached (nor their templates): they do not recur, and a cache
#: of long lines would hold a copy of the whole input across files
CACHED_LINE = 512


class LineReader:
    """Parses line bodies of one game into events, with a cache keyed by (body, column)."""

    def __init__(self, game: Game | str):
        self.game = game = games.get(game) if isinstance(game, str) else game
        self.parser = parser(game)
        self.transformer = ToEvents()
        self.cache: dict[tuple[str, int], Any] = {}
        self.templates: dict[str, Template | None] = {}
        self.events: dict[tuple[str, int], tuple[Any, tuple[Any, ...]]] = {}

    def parse(self, body: str, column: int) -> Any:
        """An event (no span yet), a ``("tag", key, value)`` tuple, or a :class:`BadLine`."""
        key = (body, column)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        # pad so that lark's columns are the columns of the raw line
        text = " " * (column - 1) + body
        try:
            result = self.transformer.transform(self.parser.parse(text))
        except UnexpectedInput as e:
            result = _bad_syntax(e, body, column, self.game)
        except VisitError as e:
            if not isinstance(e.orig_exc, NumberTooLong):
                raise
            result = BadLine("syntax.number", e.orig_exc.column or column, too_long_message(e.orig_exc.digits),
                             "no count of the game is that long: look for digits run together")
        if len(self.cache) < 200_000 and len(body) <= CACHED_LINE:
            self.cache[key] = result
        return result

    def _parse_shape(self, text: str) -> Any:
        """The event of a template's text (already padded), or None: a shape that does not parse
        is not explained (its lines are parsed as they are, and theirs is)."""
        try:
            return self.transformer.transform(self.parser.parse(text))
        except (UnexpectedInput, VisitError):
            return None

    def read(self, body: str, column: int, span: Span = ev.NO_SPAN, timecode: str | None = None,
             notes: tuple[str, ...] = ()) -> Any:
        """The event of a line (with its span, timecode and notes), a header tag tuple, or a
        :class:`BadLine`. A line body seen before is built from the fields kept for it; a line
        of a shape seen before is built from its template (see :mod:`replayer.templates`); only
        other lines are parsed."""
        key = (body, column)
        hit = self.events.get(key)
        if hit is None:
            hit = self._fields(body, column)
            if hit[0] is None:
                return hit[1]  # not an event: a header tag or a bad line (the line cache has those)
            if len(self.events) < EVENT_CACHE and len(body) <= CACHED_LINE:
                self.events[key] = hit
        make, values = hit
        return make(span, timecode, notes, *values)

    def _fields(self, body: str, column: int) -> Any:
        """(the event class's maker, its values of ``own_fields``) for an event line; else
        (None, what :meth:`parse` gives: a header tag tuple or a :class:`BadLine`)."""
        if body[0] != "[":
            padded = " " * (column - 1) + body
            made = make_template(padded)
            if made is not None:
                text, chunks, names, nums = made
                template = self.templates.get(text, _MISSING)
                if template is _MISSING:
                    parsed = self._parse_shape(text)
                    template = None
                    if isinstance(parsed, ev.Event):
                        template = Template.from_event(parsed, len(names), len(nums))
                    if len(self.templates) < 100_000 and len(text) <= CACHED_LINE:
                        self.templates[text] = template
                if template is not None:
                    return template.make, template.values(chunks, names, nums)
        result = self.parse(body, column)
        if isinstance(result, ev.Event):
            cls = type(result)
            return maker(cls), tuple(getattr(result, name) for name in own_fields(cls))
        return None, result


#: how many distinct line bodies a reader keeps the fields of (a long log repeats most of its lines)
EVENT_CACHE = 100_000

_MISSING = object()


_READERS: dict[Game, LineReader] = {}


def line_reader(game: Game | str) -> LineReader:
    if isinstance(game, str):
        game = games.get(game)
    r = _READERS.get(game)
    if r is None:
        r = _READERS[game] = LineReader(game)
    return r


def read_text(text: str, path: str = "<log>", game: str | None = None) -> Match:
    """Read a whole log. Never raises for problems in the log: they become findings.

    ``game`` (the id of one of :data:`replayer.games.ALL`) forces the game instead of the log's
    ``[Game]`` tag; :class:`UnknownGame` if it names none.
    """
    forced = games.get(game) if game is not None else None
    lines = split_lines(text)
    findings: list[Finding] = []
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    if not any(line.strip() for line in lines):
        f = make_finding("syntax.empty", Span(1, 1), "the file is empty", "a log starts with its header tags, "
                         f'e.g. [Game "{games.DEFAULT.id}"], then one event a line')
        g = forced or games.DEFAULT
        return Match(path, g.id, g.revisions[0], {}, [], [f], lines)
    detected, game_line = detect_game(lines)
    g = forced or detected
    if g is None:
        g = guess_game(lines)
        findings.append(make_finding(
            "syntax.header", Span(game_line or 1, 1),
            ("[Game] names no known game" if game_line else "no [Game] tag") + ": read as " + g.title,
            "start the log with " + " or ".join(f'[Game "{x}"]' for x in games.ALL)))
    reader = line_reader(g)
    events: list[ev.Event] = []
    notes: list[ev.Note] = []
    # the loop makes several objects a line, none of them in a cycle: the cycle collector's passes
    # over the growing lists are pure cost (about a tenth of the reading time), so it waits
    collecting = gc.isenabled()
    gc.disable()
    try:
        _read_lines(lines, reader, g, events, notes, findings, header, header_lines)
    finally:
        if collecting:
            gc.enable()
    rules = _rules_revision(header, header_lines, g, findings)
    _check_header_numbers(header, header_lines, g, findings)
    _check_header_date(header, header_lines, findings)
    _check_video_offset(header, header_lines, findings)
    if not events and not any(f.kind.value == "syntax" and f.rule == "syntax.line" for f in findings):
        findings.append(make_finding("syntax.empty", Span(1, 1), "the log has no events",
                                     "write one event a line after the header tags"))
    return Match(path, g.id, rules, header, events, sort_findings(findings), lines, notes, header_lines)


def _read_lines(lines, reader, g, events, notes, findings, header, header_lines) -> None:
    """The lines of a log, one by one, into ``events``, ``notes``, ``findings`` and the header."""
    pending: list[str] = []
    read, add, span = reader.read, events.append, maker(Span)
    for number, raw in enumerate(lines, 1):
        column, timecode, body, note = split_line(raw)
        if note is not None:
            notes.append(ev.Note(note, number))
        if not body:
            if note is not None:
                pending.append(note)
            if timecode is not None:
                findings.append(make_finding("syntax.line", Span(number, 1),
                                             "a timecode with no event after it",
                                             "write the event on the same line as its timecode"))
            continue
        if pending:
            own = (*pending, note) if note is not None else tuple(pending)
        else:
            own = (note,) if note is not None else ()
        if not body.isascii():  # only then can it hold full-width forms
            body = fold_width(body)
        result = read(body, column, span(number, column, number, column + len(body)), timecode, own)
        if isinstance(result, ev.Event):
            pending = []
            if "{" in body:  # only then can a card carry properties
                unknown = [(word, card) for card in result.cards() for word in card.props if not g.is_property(word)]
                if unknown:
                    findings.append(_property_finding(unknown, number, g))
            add(result)
            continue
        if isinstance(result, BadLine):
            findings.append(result.finding(number))
            if note is not None:
                pending.append(note)  # keep the note for the next event rather than losing it
            continue
        if isinstance(result, tuple):  # a header tag
            _, key, value = result
            if events:
                findings.append(make_finding("syntax.header-late", Span(number, column),
                                             f"header tag [{key}] after the first event",
                                             "move the tag lines to the top of the file"))
            header[key] = value
            header_lines[key] = number
            if note is not None:
                pending.append(note)


def find_logs(paths) -> list[Path]:
    """Files as given; a folder is searched for ``*.duel`` files (sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.rglob("*.duel")))
        else:
            out.append(p)
    return out


def read_log(path: str | Path, game: str | None = None) -> Match:
    """Read a ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened at all."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UnreadableFile(f"{path}: {e.strerror or e}") from None
    return read_bytes(data, str(path), game)


def read_bytes(data: bytes, path: str = "<log>", game: str | None = None) -> Match:
    """Read a log from bytes: a binary or non-UTF-8 file becomes one clear finding."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _unreadable(path, game, "the file is UTF-16 text, not UTF-8")
    if b"\x00" in data[:8192]:
        return _unreadable(path, game, "this is a binary file, not a text log")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start : e.start].decode("utf-8", errors="replace")) + 1
        lines = split_lines(data.decode("utf-8-sig", errors="replace"))  # to show the line at fault
        legacy = _legacy_encoding(data)
        message = f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} on line {line})"
        if legacy:
            message += f"; it looks like {legacy[0]} (Japanese Windows and older Japanese editors save so)"
            hint = (f"save the log as UTF-8 text, e.g. `iconv -f {legacy[1]} -t UTF-8 old.duel > new.duel`, "
                    "or choose UTF-8 in the editor's Save As")
            shown = split_lines(data.decode(legacy[2]))  # the line at fault as it was meant
            column = len(data[line_start : e.start].decode(legacy[2], errors="replace")) + 1
            f = make_finding("syntax.encoding", Span(line, column), message, hint)
            g = games.get(game) if game is not None else games.DEFAULT
            return Match(path, g.id, g.revisions[0], {}, [], [f], shown)
        return _unreadable(path, game, message, line, column, lines)
    return read_text(text, path, game)


def _legacy_encoding(data: bytes) -> tuple[str, str, str] | None:
    """(name, iconv's name, Python's codec) of Shift-JIS or EUC-JP when ``data`` decodes as that
    and holds Japanese text (kana or kanji); None otherwise."""
    for name, codec, iconv in (("Shift-JIS", "cp932", "CP932"), ("EUC-JP", "euc_jp", "EUC-JP")):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text):
            return name, iconv, codec
    return None


def _unreadable(path: str, game: str | None, message: str, line: int = 1, column: int = 1,
                lines: list[str] | None = None) -> Match:
    f = make_finding("syntax.encoding", Span(line, column), message, "save the log as UTF-8 text")
    g = games.get(game) if game is not None else games.DEFAULT
    return Match(path, g.id, g.revisions[0], {}, [], [f], lines or [])


def guess_game(lines: list[str]) -> Game:
    """With no [Game] tag: the game whose grammar reads more of the lines."""
    sample = [split_line(l) for l in lines[:200]]
    best, best_score = games.DEFAULT, -1
    for game in games.ALL.values():
        r = line_reader(game)
        score = sum(1 for col, _, body, _ in sample if body and not isinstance(r.parse(body, col), BadLine))
        if score > best_score:
            best, best_score = game, score
    return best


def _rules_revision(header, header_lines, game: Game, findings) -> str:
    default = game.revisions[0]
    value = header.get("Rules", default).strip().lower()
    if value in game.revisions:
        return value
    findings.append(make_finding(
        "syntax.header", Span(header_lines.get("Rules", 1), 1),
        f"unknown rules revision {header.get('Rules')!r} for {game.id}; judged by {default!r}",
        "known revisions: " + ", ".join(game.revisions)))
    return default


def _check_header_date(header, header_lines, findings) -> None:
    """A [Date] that is no date in a usual form: kept as written, but a search by date misses it."""
    from .dates import FORMS, parse_date

    value = header.get("Date")
    if value is not None and value.strip() and parse_date(value) is None:
        findings.append(make_finding("syntax.header-date", Span(header_lines.get("Date", 1), 1),
                                     f"[Date {value!r}] is not a date replayer can read; it is kept as "
                                     "written, and searches by date (--from/--to) will not find this match",
                                     f"write it as {FORMS}"))


def _check_header_numbers(header, header_lines, game: Game, findings) -> None:
    key = game.counter_tag
    if key in header and whole_number(header[key]) is None:
        findings.append(make_finding("syntax.header", Span(header_lines[key], 1),
                                     f"[{key}] must be a whole number of at most 15 digits, not "
                                     f"{shorten(repr(header[key]))}",
                                     f'e.g. [{key} "{game.counter_default}"]'))


def _check_video_offset(header, header_lines, findings) -> None:
    if "VideoOffset" in header and parse_offset(header["VideoOffset"]) is None:
        findings.append(make_finding("syntax.header", Span(header_lines["VideoOffset"], 1),
                                     f"[VideoOffset] is not an offset: {shorten(repr(header['VideoOffset']))}; "
                                     "timecodes are used as they are",
                                     f"write it as {OFFSET_FORMS}, e.g. [VideoOffset \"+0:12\"]"))


#: the unknown properties of a line named in its finding; the rest are counted
NAMED_PROPERTIES = 5


def _property_finding(unknown: list[tuple[str, ev.CardRef]], line: int, game: Game) -> Finding:
    """One finding for all the unknown properties of a line (at the first card that has one)."""
    word, card = unknown[0]
    if len(unknown) == 1:
        close = _close(word, tuple(game.all_property_words()))
        hint = f"did you mean `{close[0]}`?" if close else "see the property words of notation §6"
        return make_finding("syntax.property", Span(line, card.column, line, card.end_column),
                            f"unknown property `{shorten(word)}` on \"{shorten(card.name)}\"; it is ignored", hint)
    distinct = list(dict.fromkeys(w for w, _ in unknown))
    names = ", ".join(f"`{shorten(w)}`" for w in distinct[:NAMED_PROPERTIES])
    if len(distinct) > NAMED_PROPERTIES:
        names += f" and {len(distinct) - NAMED_PROPERTIES:,} more"
    cards = {id(c) for _, c in unknown}
    where = f'on "{shorten(card.name)}"' if len(cards) == 1 else f"on {len(cards):,} cards"
    last = unknown[-1][1]
    return make_finding("syntax.property", Span(line, card.column, line, last.end_column if len(cards) == 1
                                                else card.end_column),
                        f"{len(unknown):,} unknown properties {where}: {names}; they are ignored",
                        "see the property words of notation §6")


# ---- syntax findings -----------------------------------------------------------------------
# Only a line that does not parse comes here, so none of this is on the hot path.

#: the shared terminals (core.lark) described in words; a game adds its own (Game.terminal_names).
#: String keywords are shown as themselves (`from`, `->`).
_NAMES = {
    "CARD_NAME": "a card name in quotes", "INT": "a number", "PLAYER": "a player (A or B)",
    "PROPS": "{properties}", "COPY": "#N", "TAG_KEY": "a tag name",
    "$END": "the end of the line", "<END-OF-FILE>": "the end of the line",
}
_DECORATIONS = {"COPY", "STATS", "PROPS"}  # what may follow any card name

#: the words a shared terminal that is not a plain string matches, for "did you mean" hints
_WORDS_OF = {
    "PLAYER": ["A", "B"], "TURN": ["turn"], "RESOLVE": ["resolve"], "RESOLVE_ONE": ["resolve"],
    "ATTACK": ["attack"], "ENDS": ["ends"], "PHASE": ["phase"],
}

#: terminals that are not keywords (their words are not candidates for "did you mean")
_NOT_KEYWORDS = {"CARD_NAME", "COPY", "PROPS", "PLAYER", "CL", "INT", "SIGNED_INT", "STATS", "TAG_KEY",
                 "WS_INLINE"}


def _keyword_words(base: str, game: Game) -> list[str]:
    """The English words of a keyword terminal (``_SUMMON`` -> ``summon``: the terminals that carry
    their Japanese and German aliases); none for an alias-only one (``*_ALIAS``)."""
    listed = _words_of(base, game)
    if listed:
        return list(listed)
    if base.endswith("_ALIAS") or base in _NOT_KEYWORDS or not re.fullmatch(r"[A-Z_]+", base):
        return []
    return [base.lower().replace("_", " ")]

_QUOTES_HINT = 'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'
_LEAD = re.compile(r"\s*(?:CL\d+\s+)?(?:[^\s:]{1,3}:\s*)?(\S+)(?:\s+(\S+))?", re.I)


def _base_name(name: str) -> str:
    """``_core__TURN`` -> ``TURN``; ``_FROM`` -> ``FROM``; anonymous names are kept."""
    if name.startswith("__ANON"):
        return name
    return name.rsplit("__", 1)[-1].lstrip("_")


def _name_of(base: str, game: Game) -> str | None:
    return game.terminal_names.get(base) or _NAMES.get(base)


def _words_of(base: str, game: Game) -> tuple[str, ...] | list[str]:
    return game.terminal_words.get(base) or _WORDS_OF.get(base, ())


@functools.lru_cache(maxsize=None)
def _terminal_patterns(game: Game) -> dict[str, Any]:
    return {t.name: t.pattern for t in parser(game).terminals}


#: (game, the parser's state stack) -> the terminals it accepts there; LALR states are few, so
#: this stays small, and a bad line costs about as much as a good one
_ACCEPTABLE: dict[tuple, frozenset[str]] = {}


def _acceptable(err: UnexpectedInput, game: Game) -> set[str]:
    """The terminals the parser could really take where the line went wrong.

    LALR merges look-ahead sets, so ``err.expected`` names too much (everything that may follow
    any card); trying each choice on a copy of the parser state gives the exact set. (lark's own
    ``accepts()`` skips namespaced terminals like ``_core__TURN``, hence this.)
    """
    fallback = set(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    ip = getattr(err, "interactive_parser", None)
    if ip is None:
        return fallback
    key = (game, tuple(ip.parser_state.state_stack))
    known = _ACCEPTABLE.get(key)
    if known is not None:
        return set(known or fallback)
    terminals = _terminal_patterns(game)
    conf = copy.copy(ip.parser_state.parse_conf)
    conf.callbacks = {}
    out = set()
    for name in ip.choices():
        if name != "$END" and name not in terminals:
            continue
        trial = ip.copy(deepcopy_values=False)
        trial.parser_state.parse_conf = conf
        try:
            trial.feed_token(Token(name, ""))
        except UnexpectedInput:
            continue
        out.add(name)
    if len(_ACCEPTABLE) < 10_000:
        _ACCEPTABLE[key] = frozenset(out)
    return out or fallback


def _describe(expected: set[str], game: Game) -> str:
    return _describe_names(frozenset(str(n) for n in expected), game)


@functools.lru_cache(maxsize=4096)
def _describe_names(names: frozenset[str], game: Game) -> str:
    names = set(names)
    if names - _DECORATIONS:  # after a card: name what may come next, not #N / ATK/DEF / {…}
        names -= _DECORATIONS
    patterns = _terminal_patterns(game)
    words = set()
    for name in names:
        base = _base_name(name)
        if base.endswith("_ALIAS"):
            continue  # the same words in other languages
        described = _name_of(base, game)
        if described:
            words.add(described)
        elif isinstance(patterns.get(name), PatternStr):
            words.add(f"`{patterns[name].value}`")
        elif _words_of(base, game):
            words.add(f"`{_words_of(base, game)[0]}`")
        else:
            words.add(f"`{base.lower().replace('_', ' ')}`")
    ordered = sorted(words, key=lambda w: (not w.startswith("`"), w))
    if not ordered:
        return "something else"
    if len(ordered) > 8:
        ordered = ordered[:8] + ["…"]
        return ", ".join(ordered)
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]


def _candidate_words(expected: set[str], game: Game) -> list[str]:
    return list(_candidates(frozenset(expected), game))


@functools.lru_cache(maxsize=4096)
def _candidates(expected: frozenset[str], game: Game) -> tuple[str, ...]:
    patterns = _terminal_patterns(game)
    out: list[str] = []
    for name in expected:
        base = _base_name(name)
        pattern = patterns.get(name)
        if isinstance(pattern, PatternStr) and re.fullmatch(r"[^\W\d][\w -]*", pattern.value):
            out.append(pattern.value)
        elif not name.startswith("__ANON"):
            out.extend(_keyword_words(base, game))
    return tuple(sorted(set(out)))


def syntax_finding(err: UnexpectedInput, line: int, body: str, column: int, game: Game) -> Finding:
    """The ``syntax`` finding for a line that does not parse: where, what was expected, a hint."""
    return _bad_syntax(err, body, column, game).finding(line)


def _bad_syntax(err: UnexpectedInput, body: str, column: int, game: Game) -> BadLine:
    col = getattr(err, "column", None)
    if not isinstance(col, int) or col < 1:
        col = column
    text = " " * (column - 1) + body
    if isinstance(err, UnexpectedToken) and err.token.type == "$END" or isinstance(err, UnexpectedEOF):
        message = "the line ends too early"
        col = column + len(body)
    elif isinstance(err, UnexpectedToken):
        token = str(err.token)
        message = f"unexpected `{token if len(token) <= 40 else token[:39] + '…'}`"
    else:
        rest = text[col - 1 :].rstrip()
        if rest[:1] in _OPENERS:  # an unclosed card name: show all of it
            bad = rest if len(rest) <= 40 else rest[:39] + "…"
        else:
            bad = rest.split()[0] if rest.split() else text[col - 1 : col]
            bad = bad if len(bad) <= 40 else bad[:39] + "…"
        message = f"unexpected `{bad}`"
    expected = _acceptable(err, game)
    if expected:
        message += f"; expected {_describe(expected, game)}"
    return BadLine("syntax.line", col, message, _hint(text, col, game, expected))


def _hint(text: str, col: int, game: Game, expected: set[str]) -> str:
    before = text[: col - 1].split()
    rest = text[col - 1 :].split()
    word = rest[0] if rest else ""
    prev = before[-1] if before else ""
    if _unclosed_quote(text):
        return "a card name's closing quote is missing"
    if word[:1] and word[:1] in "'“‘”" or (word[:1] == '"' and not before):
        return _QUOTES_HINT
    if word.startswith("@"):
        return "a timecode is written `@m:ss` or `@h:mm:ss` at the start of the line"
    if not before and re.fullmatch(r"[^\sAB]:", word):
        return "the players are `A` and `B`"
    if word:
        candidates = _candidate_words(expected, game)
        phrase = " ".join(rest[:2]).lower()
        close = (_close(phrase, tuple(c for c in candidates if " " in c)) or _close(word.lower(), tuple(candidates)))
        if not close and prev.endswith(":"):  # the action word of an actor line
            low = word.lower()
            inside = [a for a in game.actions if low in a.split()[1:]]
            if inside:
                return "did you mean " + " or ".join(f"`{prev} {a}`" for a in inside) + "?"
            close = _close(phrase, tuple(game.actions)) or _close(low, tuple(game.actions))
        if close:
            if prev and re.fullmatch(r"[\w:-]+", prev) and not prev.isdigit():
                return f"did you mean `{prev} {close[0]}`?"
            return f"did you mean `{close[0]}`?"
    form = _form_of(text, game)
    return f"the form is {form}" if form else ""


def _close(word: str, candidates: tuple[str, ...]) -> list[str]:
    """The candidate closest to ``word`` (difflib, ratio 0.6 or more), as a list of none or one."""
    if not word or not candidates:
        return []
    # a word more than twice the longest candidate's length cannot reach the ratio: skip difflib
    if len(word) > 2 * max(map(len, candidates)) + 2:
        return []
    return list(_closest(word, candidates))


@functools.lru_cache(maxsize=8192)
def _closest(word: str, candidates: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(word, candidates, n=1, cutoff=0.6))


def _unclosed_quote(text: str) -> bool:
    if text.count('"') % 2:
        return True
    return any(text.count(o) > sum(text.count(c) for c in closers) for o, closers in _OPENERS.items() if o != '"')


def _form_of(text: str, game: Game) -> str | None:
    """The written form of the line's kind, from its first keyword (after ``CLn`` and ``A:``)."""
    if text.lstrip().startswith("["):
        return game.line_forms["["]
    m = _LEAD.match(text)
    if not m:
        return None
    first = m.group(1).lower()
    second = (m.group(2) or "").lower()
    key = canonical(first)
    if key not in game.line_forms and second:
        key = canonical(f"{first} {second}")
        if key not in game.line_forms:
            key = second  # `normal summon`, `flip summon`
    return game.line_forms.get(key)
