"""One line of a log -> an event: splitting a line, reading its body, and the fast path.

A line's parse does not depend on its neighbours, so each is read on its own: a bad line becomes a
:class:`BadLine` (its ``syntax`` finding, described here) and the reader goes on. Identical line
bodies recur in real logs (``resolve``, ``A: pass``, ``timing calc``) and line *shapes* recur far
more (:mod:`replayer.templates`), so a :class:`LineReader` keeps what it has read by body and by
shape. :mod:`replayer.reader` puts the lines of a log together into a :class:`~replayer.reader.Match`.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from . import events as ev
from .diagnostics import Finding, Span, make_finding
from .i18n import COMMA, OR, M, Msg, join
from .makers import maker
from .numbers import MAX_DIGITS, NumberTooLong, too_long_message  # noqa: F401
from .records import record
from .shapes import NO_EVENT, Shapes, decode_event
from .templates import Template, make_template, own_fields

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

    from .games import Game
    from .transform import ToEvents

# lark (the parser, its transformer) is imported only when a line is parsed: a shape kept from an
# earlier run (replayer.shapes) is read without it


_TIMECODE = re.compile(r"@(?:\d+:)?\d{1,2}:\d{2}(?=\s|$)")
#: what str.splitlines breaks a line at besides \n, \r\n and \r (looked for one by one with `in`,
#: which scans a long log's text ~10x faster than a search for the character class)
_ODD_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_OPENERS = {'"': '"', "《": "》", "「": "」", "„": "“”"}
#: what may come before a note: text that is no `#` or opening quote, a card name (an unclosed one
#: runs to the end), or a copy suffix (a `#` right after a closing quote, followed by a digit)
_TO_NOTE = re.compile(r'(?:[^#"《「„]++|"[^"]*+(?:"|\Z)|《[^》]*+(?:》|\Z)|「[^」]*+(?:」|\Z)|„[^“”]*+(?:[“”]|\Z)'
                      r'|(?<=["》」“”])#(?=\d))*+')
_SPACES = frozenset(" \t\u00a0\u3000")


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
    # the common case of a long log's other lines: every `#` is a copy suffix's (right after a
    # closing quote, before a digit), so none starts the note, whether or not it is in a name
    j = raw.find("#", i)
    while j > 0 and raw[j - 1] in '"》」“”' and raw[j + 1 : j + 2].isdigit():
        j = raw.find("#", j + 1)
    if j == -1:
        return i + 1, timecode, body.rstrip(), None
    # the first `#` that starts the note: _TO_NOTE runs over plain text, card names and copy
    # suffixes in one match, and stops at a `#` that may start the note (or at the end)
    n = len(raw)
    j = _TO_NOTE.match(raw, i).end()
    while j < n:
        if j > 0 and raw[j - 1] in '"》」“”' and raw[j + 1 : j + 2].isdigit():  # a copy suffix whose digit is not \d
            j = _TO_NOTE.match(raw, j + 1).end()
            continue
        return i + 1, timecode, raw[i:j].rstrip(), raw[j + 1 :].strip()
    return i + 1, timecode, raw[i:].rstrip(), None


#: full-width ASCII (what a Japanese IME types: Ａ：攻撃, ｄｒａｗ　２) to ASCII, and half-width
#: corner brackets and stops to full-width; one character for one, so columns stay the raw line's
_WIDTH_FOLD = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
_WIDTH_FOLD.update({0xFF61: 0x3002, 0xFF62: 0x300C, 0xFF63: 0x300D, 0xFF64: 0x3001})


def fold_width(text: str) -> str:
    """``text`` with full-width ASCII forms read as ASCII (NFKC's width folding, restricted to the
    characters that keep one column each; half-width katakana is :func:`fold_kana`'s)."""
    if text.isascii() or _WIDE_FORMS.search(text) is None:  # translate costs ~1 µs a non-ASCII character
        return text
    return text.translate(_WIDTH_FOLD)


_WIDE_FORMS = re.compile("[\uff01-\uff5e\uff61-\uff64]")
_HALF_KANA = re.compile("[\uff65-\uff9f]")
#: a card name (left as written: names are matched by NFKC, see catalog.name_key), or a run of
#: katakana, full- or half-width
_KANA_OR_NAME = re.compile(r'"[^"\n]*+(?:"|\Z)|《[^》\n]*+(?:》|\Z)|「[^」\n]*+(?:」|\Z)|„[^“”\n]*+(?:[“”]|\Z)'
                           r"|[\u30a0-\u30ff\uff65-\uff9f]+")
_SOUND_MARKS = "\uff9e\uff9f"  # ﾞ ﾟ: they join the kana before them (ﾀﾞ is ダ)


def fold_kana(text: str) -> tuple[str, list[int] | None]:
    """``text`` with half-width katakana outside card names read as full-width katakana, as NFKC
    reads them (``ﾀﾞﾒｰｼﾞ 1300`` is ``ダメージ 1300``), and where each character of the result
    starts in ``text`` (one more entry: the end), or None where nothing moved. A sound mark joins
    the kana before it, so the result can be shorter: the map turns its columns back into the
    line's own."""
    if _HALF_KANA.search(text) is None:
        return text, None
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _KANA_OR_NAME.finditer(text):
        run = m.group()
        if run[0] in _OPENERS or _HALF_KANA.search(run) is None:
            continue
        start = m.start()
        out.append(text[pos:start])
        where.extend(range(pos, start))
        i, n = 0, len(run)
        while i < n:
            if i + 1 < n and run[i + 1] in _SOUND_MARKS:
                joined = unicodedata.normalize("NFKC", run[i : i + 2])
                if len(joined) == 1:
                    out.append(joined)
                    where.append(start + i)
                    i += 2
                    continue
            out.append(unicodedata.normalize("NFKC", run[i]))
            where.append(start + i)
            i += 1
        pos = m.end()
    out.append(text[pos:])
    where.extend(range(pos, len(text) + 1))
    folded = "".join(out)
    return folded, (where if len(folded) != len(text) else None)


def unfold_column(col: int, column: int, where: list[int]) -> int:
    """A column of a line whose body (starting at ``column``) :func:`fold_kana` shortened, as a
    column of the line as written."""
    k = col - column
    if k < 0:
        return col
    if k >= len(where):
        return col + where[-1] - (len(where) - 1)
    return column + where[k]


def unfold_values(values: tuple, column: int, where: list[int]) -> tuple:
    """An event's values (:func:`~replayer.templates.own_fields`) with its cards' columns moved
    back to the line as written."""
    def card(c: ev.CardRef) -> ev.CardRef:
        return dataclasses.replace(c, column=unfold_column(c.column, column, where),
                                   end_column=unfold_column(c.end_column, column, where))

    out = []
    for v in values:
        if isinstance(v, ev.CardRef):
            v = card(v)
        elif isinstance(v, tuple) and v and isinstance(v[0], ev.CardRef):
            v = tuple(card(c) for c in v)
        out.append(v)
    return tuple(out)


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, numbered as an editor numbers them: only \\n, \\r\\n and \\r end a line.

    (``str.splitlines`` also breaks at form feeds, U+2028 and others, which would shift every
    later line number; it is used, for its speed, only when none of those is in the text.)
    """
    if not any(c in text for c in _ODD_BREAKS):
        return text.splitlines()
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@record
class BadLine:
    """A line that does not read: its finding without the line number.

    It is what the line cache keeps for a bad line (a few hundred bytes), never lark's
    exception, which holds the parser's state (some 9 KB, and many objects for the garbage
    collector to walk).
    """

    rule: str
    column: int
    message: str | Msg
    hint: str | Msg = ""
    end_column: int = 0  # (exclusive) the end of the token that does not fit: underlined whole

    def finding(self, line: int) -> Finding:
        if self.end_column > self.column:
            return make_finding(self.rule, Span(line, self.column, line, self.end_column), self.message, self.hint)
        return make_finding(self.rule, Span(line, self.column), self.message, self.hint)


#: a header tag line, ``[Key "Value"]``, exactly as core.lark's ``tag`` reads it (TAG_KEY, a
#: CARD_NAME in any of its four quotes, WS_INLINE ignored between them)
_WS = "[ \t\u00a0\u3000]*"
_TAG = re.compile(rf'\[{_WS}([A-Za-z][A-Za-z0-9_-]*){_WS}("[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”]){_WS}\]\Z')


def tag_of(body: str) -> tuple[str, str, str] | None:
    """A line body that is a header tag as ``("tag", key, value)``, as the grammar's `tag` reads
    it (without lark); else None."""
    m = _TAG.match(body)
    return None if m is None else ("tag", m.group(1), " ".join(m.group(2)[1:-1].split()))


#: lines longer than this are not cached (nor their templates): they do not recur, and a cache
#: of long lines would hold a copy of the whole input across files
CACHED_LINE = 512


class LineReader:
    """Parses line bodies of one game (the caller's :class:`~replayer.games.Game`) into events,
    with a cache keyed by (body, column)."""

    def __init__(self, game: Game):
        self.game = game
        self._parser: Lark | None = None
        self._transformer: ToEvents | None = None
        #: the shapes parsed in earlier runs (replayer.shapes)
        self.shapes = Shapes.open(game)
        self.cache: dict[tuple[str, int], Any] = {}
        self.templates: dict[str, Template | None] = {}
        self.events: dict[tuple[str, int], tuple[Any, tuple[Any, ...]]] = {}
        #: raw line -> (column, end column, timecode, note, maker, values) of an event line read
        #: before whose event needs nothing else (no unknown property): see reader._read_lines
        self.lines: dict[str, tuple[Any, ...]] = {}

    @property
    def parser(self) -> Lark:
        if self._parser is None:
            from .grammar import parser

            self._parser = parser(self.game)
        return self._parser

    @property
    def transformer(self) -> ToEvents:
        if self._transformer is None:
            from .transform import ToEvents

            self._transformer = ToEvents()
        return self._transformer

    def parse(self, body: str, column: int) -> Any:
        """An event (no span yet), a ``("tag", key, value)`` tuple, or a :class:`BadLine`."""
        key = (body, column)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        from lark.exceptions import UnexpectedInput, VisitError
        # pad so that lark's columns are the columns of the raw line
        text = " " * (column - 1) + body
        try:
            result = self.transformer.transform(self.parser.parse(text))
        except UnexpectedInput as e:
            result = _bad_syntax(e, body, column, self.game)
        except VisitError as e:
            if not isinstance(e.orig_exc, NumberTooLong):
                raise
            result = BadLine("syntax.number", e.orig_exc.column or column,
                             M("a number of {digits} digits; a number in a log has at most {most} digits",
                               digits=f"{e.orig_exc.digits:,}", most=MAX_DIGITS),
                             M("no count of the game is that long: look for digits run together"))
        if len(self.cache) < 200_000 and len(body) <= CACHED_LINE:
            self.cache[key] = result
        return result

    def _parse_shape(self, text: str) -> Any:
        """The event of a template's text (already padded), or None: a shape that does not parse
        is not explained (its lines are parsed as they are, and theirs is)."""
        from lark.exceptions import UnexpectedInput, VisitError

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
        make, values = self.entry(body, column)
        if make is None:
            return values  # not an event: a header tag or a bad line
        return make(span, timecode, notes, *values)

    def entry(self, body: str, column: int) -> tuple[Any, Any]:
        """(the event class's maker, its values of ``own_fields``) for an event line, kept for the
        next line with this body; else (None, a header tag tuple or a :class:`BadLine`)."""
        key = (body, column)
        hit = self.events.get(key)
        if hit is None:
            hit = self._fields(body, column)
            if hit[0] is not None and len(self.events) < EVENT_CACHE and len(body) <= CACHED_LINE:
                self.events[key] = hit  # (the line cache has the others)
        return hit

    def _fields(self, body: str, column: int) -> Any:
        """(the event class's maker, its values of ``own_fields``) for an event line; else
        (None, what :meth:`parse` gives: a header tag tuple or a :class:`BadLine`)."""
        if body[0] != "[":
            padded = " " * (column - 1) + body
            made = make_template(padded)
            if made is not None:
                shaped = self._shaped(made)
                if shaped is not None:
                    return shaped
            # a line with no shape to fill in (no name or number, or a template that cannot be
            # used): parsed as it is, and kept as it is
            kept = self._kept(padded)
            if kept is not None:
                return kept
        else:
            tag = tag_of(body)
            if tag is not None:
                return None, tag
        result = self.parse(body, column)
        if isinstance(result, ev.Event):
            cls = type(result)
            names = own_fields(cls)
            if body[0] != "[" and len(body) <= CACHED_LINE:
                self.shapes.add(padded, result, names)
            return maker(cls), tuple(getattr(result, name) for name in names)
        return None, result

    def _shaped(self, made: tuple[str, list[str | None]]) -> tuple[Any, tuple[Any, ...]] | None:
        """(maker, values) of a line from its template (``made``: :func:`make_template` of the line
        as padded), or None if its shape has no template it fits."""
        text, parts = made
        template = self.templates.get(text, _MISSING)
        if template is _MISSING:
            template = self._template(text, parts)
            if len(self.templates) < 100_000 and len(text) <= CACHED_LINE:
                self.templates[text] = template
        if template is not None and len(parts) == template.pieces:  # (pieces of this shape's layout)
            return template.make, template.fill(parts)
        return None

    def plain(self, raw: str) -> tuple[Any, tuple[Any, ...]] | None:
        """(maker, values) of a raw line that is its own body, from its shape's template; else None
        (the line is read as :func:`split_line` splits it).

        Most lines of a long log not seen before are such lines: ASCII, starting with no space,
        timecode or ``[``, ending with no space, and with no note (every ``#`` a copy suffix).
        :func:`split_line` would give (1, None, raw, None) for them, so the template of the raw line
        is the template of its body as padded, and the split, the body and the body's cache are
        skipped. A line with a ``#`` that is not ``"#`` before a digit is left to :func:`split_line`
        (it may start a note, or be in a name): on ASCII text such a ``#`` is a copy suffix or in a
        name, never a note, and it is looked for before any template is made (a line with a note
        is not templated twice)."""
        if raw[:1] in _NOT_PLAIN or raw[-1:].isspace() or not raw.isascii():
            return None
        if "#" in raw and _NOT_COPY.search(raw) is not None:
            return None  # a `#` that may start a note: split_line says (before any template is made)
        made = make_template(raw)
        if made is None:
            return None
        return self._shaped(made)

    def _template(self, text: str, parts: list[str | None]) -> Template | None:
        """The template of a shape: kept from an earlier run, else parsed (and kept)."""
        entry = self.shapes.get(text)
        if entry is not None:
            if entry == NO_EVENT:
                return None  # the shape does not parse as an event: its lines are parsed as they are
            event = decode_event(entry, own_fields)
            if event is not None:
                return Template.from_event(event, parts)  # (None, as when it was parsed: no template)
            self.shapes.drop(text)
        parsed = self._parse_shape(text)
        if not isinstance(parsed, ev.Event):
            if len(text) <= CACHED_LINE:
                self.shapes.add_no_event(text)
            return None
        if len(text) <= CACHED_LINE:
            self.shapes.add(text, parsed, own_fields(type(parsed)))
        return Template.from_event(parsed, parts)

    def _kept(self, padded: str) -> tuple[Any, tuple[Any, ...]] | None:
        """(maker, values) of a line (as padded) whose event an earlier run kept, or None."""
        entry = self.shapes.get(padded)
        if entry is None:
            return None
        event = decode_event(entry, own_fields)
        if event is None:
            self.shapes.drop(padded)
            return None
        cls = type(event)
        return maker(cls), tuple(getattr(event, name) for name in own_fields(cls))


#: how many distinct line bodies a reader keeps the fields of (a long log repeats most of its lines)
EVENT_CACHE = 100_000

_MISSING = object()
#: the first characters of a raw line that is not its own body at column 1 (see LineReader.plain):
#: what split_line strips, a timecode, a header tag
_NOT_PLAIN = frozenset(" \t\ufeff\u00a0\u3000@[#")
#: a `#` of a raw line that is not a copy suffix (`"Name"#2`): every other `#` may start a note, or be
#: in a name, which split_line tells apart (a line with one is not a plain line)
_NOT_COPY = re.compile(r'(?<!")#|#(?!\d)')


_READERS: dict[Game, LineReader] = {}


def drop_readers() -> None:
    """Forget every game's line reader and what it keeps. For a process that is about to end: the
    caches of a long log are ~100,000 objects, which the collector's passes at interpreter exit
    walk several times (~0.2 s after a 100,000-line log); freed here they cost ~0.02 s."""
    _READERS.clear()


def line_reader(game: Game) -> LineReader:
    """The line reader of ``game``, kept for the process."""
    r = _READERS.get(game)
    if r is None:
        r = _READERS[game] = LineReader(game)
    return r


# ---- syntax findings -----------------------------------------------------------------------
# Only a line that does not parse comes here, so none of this is on the hot path.

#: the shared terminals (core.lark) described in words; a game adds its own (Game.terminal_names).
#: String keywords are shown as themselves (`from`, `->`).
_NAMES = {
    "CARD_NAME": M("a card name in quotes"), "INT": M("a number"), "PLAYER": M("a player (A or B)"),
    "PROPS": "{properties}", "COPY": "#N", "TAG_KEY": M("a tag name"),
    "$END": M("the end of the line"), "<END-OF-FILE>": M("the end of the line"),
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

_QUOTES_HINT = M('card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“')
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
    from .grammar import parser

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
    from lark import Token
    from lark.exceptions import UnexpectedInput

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


def _describe(expected: set[str], game: Game) -> str | Msg:
    return _describe_names(frozenset(str(n) for n in expected), game)


@functools.lru_cache(maxsize=4096)
def _describe_names(names: frozenset[str], game: Game) -> str | Msg:
    from lark.lexer import PatternStr

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
    ordered = sorted(words, key=lambda w: (not str(w).startswith("`"), str(w)))
    if not ordered:
        return M("something else")
    if len(ordered) > 8:
        ordered = ordered[:8] + ["…"]
        return join(ordered, COMMA)
    return ordered[0] if len(ordered) == 1 else M("{items} or {last}", items=join(ordered[:-1], COMMA),
                                                  last=ordered[-1])


def _candidate_words(expected: set[str], game: Game) -> list[str]:
    return list(_candidates(frozenset(expected), game))


@functools.lru_cache(maxsize=4096)
def _candidates(expected: frozenset[str], game: Game) -> tuple[str, ...]:
    from lark.lexer import PatternStr

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
    from lark.exceptions import UnexpectedEOF, UnexpectedToken

    col = getattr(err, "column", None)
    if not isinstance(col, int) or col < 1:
        col = column
    text = " " * (column - 1) + body
    end = 0
    if isinstance(err, UnexpectedToken) and err.token.type == "$END" or isinstance(err, UnexpectedEOF):
        message = M("the line ends too early")
        col = column + len(body)
    elif isinstance(err, UnexpectedToken):
        token = str(err.token)
        message = M("unexpected `{token}`", token=token if len(token) <= 40 else token[:39] + '…')
        end = col + len(token.rstrip())
    else:
        rest = text[col - 1 :].rstrip()
        if rest[:1] in _OPENERS:  # an unclosed card name: show all of it
            whole = rest
        else:
            whole = rest.split()[0] if rest.split() else text[col - 1 : col]
        bad = whole if len(whole) <= 40 else whole[:39] + "…"
        end = col + len(whole)
        message = M("unexpected `{token}`", token=bad)
    expected = _acceptable(err, game)
    if expected:
        message = M("{message}; expected {expected}", message=message, expected=_describe(expected, game))
    return BadLine("syntax.line", col, message, _hint(text, col, game, expected), end)


def _hint(text: str, col: int, game: Game, expected: set[str]) -> str | Msg:
    before = text[: col - 1].split()
    rest = text[col - 1 :].split()
    word = rest[0] if rest else ""
    prev = before[-1] if before else ""
    if _unclosed_quote(text):
        return M("a card name's closing quote is missing")
    if word[:1] and word[:1] in "'“‘”" or (word[:1] == '"' and not before):
        return _QUOTES_HINT
    if word.startswith("@"):
        return M("a timecode is written `@m:ss` or `@h:mm:ss` at the start of the line")
    if not before and re.fullmatch(r"[^\sAB]:", word):
        return M("the players are `A` and `B`")
    if word:
        candidates = _candidate_words(expected, game)
        phrase = " ".join(rest[:2]).lower()
        close = (_close(phrase, tuple(c for c in candidates if " " in c)) or _close(word.lower(), tuple(candidates)))
        if not close and prev.endswith(":"):  # the action word of an actor line
            low = word.lower()
            inside = [a for a in game.actions if low in a.split()[1:]]
            if inside:
                return M("did you mean {lines}?", lines=join((f"`{prev} {a}`" for a in inside), OR))
            close = _close(phrase, tuple(game.actions)) or _close(low, tuple(game.actions))
        if close:
            if prev and re.fullmatch(r"[\w:-]+", prev) and not prev.isdigit():
                return M("did you mean {lines}?", lines=f"`{prev} {close[0]}`")
            return M("did you mean {lines}?", lines=f"`{close[0]}`")
    form = _form_of(text, game)
    return M("the form is {form}", form=form) if form else ""


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
    import difflib  # (only for a word no table knows: not at start-up)

    return tuple(difflib.get_close_matches(word, candidates, n=1, cutoff=0.6))


def _unclosed_quote(text: str) -> bool:
    if text.count('"') % 2:
        return True
    return any(text.count(o) > sum(text.count(c) for c in closers) for o, closers in _OPENERS.items() if o != '"')


def _form_of(text: str, game: Game) -> str | Msg | None:
    """The written form of the line's kind, from its first keyword (after ``CLn`` and ``A:``)."""
    from .transform import canonical

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
