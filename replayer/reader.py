"""Text -> :class:`Match`: the header, the events, the notes and the syntax findings.

Each line is read on its own (:mod:`replayer.lines`: splitting, the game's grammar, the caches
and templates of the fast path), so a bad line becomes one ``syntax`` finding and the reader
goes on. This module puts a log's lines together: the ``[Game]`` tag (or a guess), the header,
notes attached to the next event, the header's own checks, and files that are not UTF-8 text.
It knows no game by name and looks none up: the caller hands it ``choose``, which gives the
:class:`~replayer.games.Game` a log's lines are read as (:func:`replayer.check.choose_game`:
the caller's, the ``[Game]`` tag's, or a guess), and it asks that game.
"""

from __future__ import annotations

import dataclasses
import os
import gc
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import events as ev
from .diagnostics import Finding, Span, make_finding, sort_findings
from .i18n import OR, M, join, title
from .errors import ReplayerError, UnknownGame, UnreadableFile  # noqa: F401  (re-exported)
from .lines import (CACHED_LINE, EVENT_CACHE, BadLine, LineReader, _close, fold_kana, fold_width,  # noqa: F401  (the line API, re-exported)
                    line_reader, split_line, split_lines, syntax_finding, tag_of, unfold_column, unfold_values)
from .makers import line_maker, maker
from .numbers import whole_number
from .records import record
from .safe import shorten
from .timecodes import OFFSET_FORMS, is_url, parse_offset, url_problem

if TYPE_CHECKING:
    from .games import Game


_TAG = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+("[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”])\s*\]')


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


@record(slots=False)
class GameChoice:
    """The game a log is read as, chosen by the caller (:func:`replayer.check.choose_game`).
    ``guessed``: the log names no game the caller knows, so it was read as ``game``; the reader
    says so in a finding that offers the tags of ``known``."""

    game: Game
    guessed: bool = False
    known: tuple[str, ...] = ()


#: what the caller hands the reader: a log's lines (none for a file that is not text) -> the game
Choose = Callable[[list[str]], GameChoice]


def game_tag(lines: list[str]) -> tuple[str | None, int]:
    """The value of the log's ``[Game "…"]`` tag (without its quotes) and its line; (None, 0) with none."""
    for number, raw in enumerate(lines, 1):
        m = _TAG.match(raw)
        if m and m.group(1).lower() == "game":
            return m.group(2)[1:-1], number
    return None, 0


def read_text(text: str, path: str, choose: Choose) -> Match:
    """Read a whole log. Never raises for problems in the log: they become findings.

    ``choose`` gives the game its lines are read as (:func:`replayer.check.read_text` hands the
    one that forces the caller's game or reads the ``[Game]`` tag).
    """
    lines = split_lines(text)
    findings: list[Finding] = []
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    if not any(line.strip() for line in lines):
        g = choose(lines).game
        f = make_finding("syntax.empty", Span(1, 1), M("the file is empty"), M("a log starts with its header tags, "
                         'e.g. [Game "{game}"], then one event a line', game=g.id))
        return Match(path, g.id, g.revisions[0], {}, [], [f], lines)
    chosen = choose(lines)
    g = chosen.game
    if chosen.guessed:
        _, game_line = game_tag(lines)
        findings.append(make_finding(
            "syntax.header", Span(game_line or 1, 1),
            M("[Game] names no known game: read as {game}", game=title(g.title)) if game_line
            else M("no [Game] tag: read as {game}", game=title(g.title)),
            M("start the log with {tags}", tags=join((f'[Game "{x}"]' for x in chosen.known), OR))))
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
    _check_video(header, header_lines, findings)
    if not events and not any(f.kind.value == "syntax" and f.rule == "syntax.line" for f in findings):
        findings.append(make_finding("syntax.empty", Span(1, 1), M("the log has no events"),
                                     M("write one event a line after the header tags")))
    return Match(path, g.id, rules, header, events, sort_findings(findings), lines, notes, header_lines)


def _read_lines(lines, reader, g, events, notes, findings, header, header_lines) -> None:
    """The lines of a log, one by one, into ``events``, ``notes``, ``findings`` and the header."""
    pending: list[str] = []
    entry, plain, add, note_of = reader.entry, reader.plain, events.append, maker(ev.Note)
    # the event of a line in one call, its span with it (makers.line_maker), per event class's maker
    builders: dict[Callable, Callable] = {}
    # most lines of a long log are exact repeats of an earlier one (`phase battle`, `A: pass`):
    # an event line read before is built from what was kept for its raw text, with no split
    known = reader.lines
    remember = len(known) < EVENT_CACHE
    for number, raw in enumerate(lines, 1):
        hit = known.get(raw)
        if hit is not None and not pending:
            column, end, timecode, note, build, values = hit
            if note is None:
                add(build(number, column, end, timecode, (), values))
            else:
                notes.append(note_of(note, number))
                add(build(number, column, end, timecode, (note,), values))
            continue
        if raw[:1] == "[" and "#" not in raw and raw.isascii():
            # a header tag line with no note (its own body at column 1, as split_line would find):
            # the tag read from it, with no split and no look-up (most of a short log's new lines)
            tag = tag_of(raw.rstrip())
            if tag is not None:
                _header_tag(tag, number, 1, events, findings, header, header_lines)
                continue
        # a line not seen before that is its own body (column 1, no timecode, no note), of a shape
        # with a template: built from the template of the raw line, with no split
        shaped = plain(raw)
        if shaped is not None:
            make, values = shaped
            column, timecode, body, note = 1, None, raw, None
            own = tuple(pending) if pending else ()
            end = 1 + len(raw)
        else:
            column, timecode, body, note = split_line(raw)
            if note is not None:
                notes.append(note_of(note, number))
            if not body:
                if note is not None:
                    pending.append(note)
                if timecode is not None:
                    findings.append(make_finding("syntax.line", Span(number, 1),
                                                 M("a timecode with no event after it"),
                                                 M("write the event on the same line as its timecode")))
                continue
            if pending:
                own = (*pending, note) if note is not None else tuple(pending)
            else:
                own = (note,) if note is not None else ()
            end = column + len(body)
            where = None
            if not body.isascii():  # only then can it hold full-width or half-width forms
                body, where = fold_kana(fold_width(body))
            make, values = entry(body, column)
            if where is not None:  # half-width kana folded: the columns go back to the line's own
                if make is not None:
                    values = unfold_values(values, column, where)
                elif isinstance(values, BadLine):
                    values = dataclasses.replace(values, column=unfold_column(values.column, column, where))
        if make is not None:
            build = builders.get(make)
            if build is None:
                build = builders[make] = line_maker(make.cls)
            result = build(number, column, end, timecode, own, values)
            pending = []
            if "{" in body:  # only then can a card carry properties
                unknown = [(word, card) for card in result.cards() for word in card.props if not g.is_property(word)]
                if unknown:
                    findings.append(_property_finding(unknown, number, g))
                    add(result)
                    continue
            add(result)
            if remember and len(raw) <= CACHED_LINE:
                known[raw] = (column, end, timecode, note, build, values)
                remember = len(known) < EVENT_CACHE
            continue
        result = values
        if isinstance(result, BadLine):
            findings.append(result.finding(number))
            if note is not None:
                pending.append(note)  # keep the note for the next event rather than losing it
            continue
        if isinstance(result, tuple):  # a header tag
            _header_tag(result, number, column, events, findings, header, header_lines)
            if note is not None:
                pending.append(note)


def _header_tag(tag: tuple[str, str, str], number: int, column: int, events, findings, header, header_lines) -> None:
    """A header tag line (``tag``: :func:`~replayer.lines.tag_of`'s) into the header."""
    _, key, value = tag
    if events:
        findings.append(make_finding("syntax.header-late", Span(number, column),
                                     M("header tag [{key}] after the first event", key=key),
                                     M("move the tag lines to the top of the file")))
    header[key] = value
    header_lines[key] = number


def _path_order(path: Path) -> str:
    """A path as a string that sorts as the path does (part by part) where the separator is ``/``:
    the separator made the smallest character (``a/b`` before ``a-b``), ~2x faster than
    comparing the paths themselves (5,000 logs: ~14 ms less)."""
    return str(path).replace("/", "\0")


def find_logs(paths) -> list[Path]:
    """Files as given; a folder is searched for ``*.duel`` files (sorted)."""
    out: list[Path] = []
    # (Windows' paths sort case-insensitively: they keep the paths' own order)
    order = _path_order if os.sep == "/" and not os.altsep else None
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(p.rglob("*.duel"), key=order))
        else:
            out.append(p)
    return out


def read_log(path: str | Path, choose: Choose) -> Match:
    """Read a ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened at all."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UnreadableFile(f"{path}: {e.strerror or e}") from None
    return read_bytes(data, str(path), choose)


def read_bytes(data: bytes, path: str, choose: Choose) -> Match:
    """Read a log from bytes: a binary or non-UTF-8 file becomes one clear finding."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _unreadable(path, choose, M("the file is UTF-16 text, not UTF-8"))
    if b"\x00" in data[:8192]:
        return _unreadable(path, choose, M("this is a binary file, not a text log"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start : e.start].decode("utf-8", errors="replace")) + 1
        lines = split_lines(data.decode("utf-8-sig", errors="replace"))  # to show the line at fault
        legacy = _legacy_encoding(data)
        message = M("the file is not UTF-8 text (byte {byte} on line {line})", byte=f"0x{data[e.start]:02x}", line=line)
        if legacy:
            message = M("{message}; it looks like {encoding} (Japanese Windows and older Japanese editors save so)",
                        message=message, encoding=legacy[0])
            hint = M("save the log as UTF-8 text, e.g. `iconv -f {encoding} -t UTF-8 old.duel > new.duel`, "
                     "or choose UTF-8 in the editor's Save As", encoding=legacy[1])
            shown = split_lines(data.decode(legacy[2]))  # the line at fault as it was meant
            column = len(data[line_start : e.start].decode(legacy[2], errors="replace")) + 1
            f = make_finding("syntax.encoding", Span(line, column), message, hint)
            g = choose([]).game
            return Match(path, g.id, g.revisions[0], {}, [], [f], shown)
        return _unreadable(path, choose, message, line, column, lines)
    return read_text(text, path, choose)


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


def _unreadable(path: str, choose: Choose, message, line: int = 1, column: int = 1,
                lines: list[str] | None = None) -> Match:
    f = make_finding("syntax.encoding", Span(line, column), message, M("save the log as UTF-8 text"))
    g = choose([]).game
    return Match(path, g.id, g.revisions[0], {}, [], [f], lines or [])


def reads_of(game: Game, lines: list[str]) -> int:
    """How many of a log's first 200 lines ``game``'s grammar reads (to guess a log's game)."""
    sample = [split_line(l) for l in lines[:200]]
    r = line_reader(game)
    return sum(1 for col, _, body, _ in sample if body and not isinstance(r.parse(body, col), BadLine))


def _rules_revision(header, header_lines, game: Game, findings) -> str:
    default = game.revisions[0]
    value = header.get("Rules", default).strip().lower()
    if value in game.revisions:
        return value
    findings.append(make_finding(
        "syntax.header", Span(header_lines.get("Rules", 1), 1),
        M("unknown rules revision {revision} for {game}; judged by {default}", revision=repr(header.get('Rules')),
          game=game.id, default=repr(default)),
        M("known revisions: {revisions}", revisions=", ".join(game.revisions))))
    return default


def _check_header_date(header, header_lines, findings) -> None:
    """A [Date] that is no date in a usual form: kept as written, but a search by date misses it."""
    from .dates import FORMS, parse_date

    value = header.get("Date")
    if value is not None and value.strip() and parse_date(value) is None:
        findings.append(make_finding("syntax.header-date", Span(header_lines.get("Date", 1), 1),
                                     M("[Date {value}] is not a date replayer can read; it is kept as "
                                       "written, and searches by date (--from/--to) will not find this match",
                                       value=repr(value)),
                                     M("write it as {forms}", forms=FORMS)))


def _check_header_numbers(header, header_lines, game: Game, findings) -> None:
    key = game.counter_tag
    if key in header and whole_number(header[key]) is None:
        findings.append(make_finding("syntax.header", Span(header_lines[key], 1),
                                     M("[{key}] must be a whole number of at most 15 digits, not {value}", key=key,
                                       value=shorten(repr(header[key]))),
                                     M('e.g. [{key} "{value}"]', key=key, value=game.counter_default)))


def _check_video_offset(header, header_lines, findings) -> None:
    if "VideoOffset" in header and parse_offset(header["VideoOffset"]) is None:
        findings.append(make_finding("syntax.header", Span(header_lines["VideoOffset"], 1),
                                     M("[VideoOffset] is not an offset: {value}; timecodes are used as they are",
                                       value=shorten(repr(header['VideoOffset']))),
                                     M('write it as {forms}, e.g. [VideoOffset "+0:12"]', forms=OFFSET_FORMS)))


def _check_video(header, header_lines, findings) -> None:
    """A ``[Video]`` web address that cannot be opened (the window never opens it)."""
    value = header.get("Video", "")
    problem = url_problem(value) if is_url(value) else None
    if problem is not None:
        findings.append(make_finding("syntax.header", Span(header_lines["Video"], 1),
                                     f"[Video] is not a web address to open: {shorten(repr(value.strip()))} "
                                     f"({shorten(problem)}); the video is not opened",
                                     'write the address as the browser shows it, e.g. '
                                     '[Video "https://www.youtube.com/watch?v=…"], or a video file\'s name'))


#: the unknown properties of a line named in its finding; the rest are counted
NAMED_PROPERTIES = 5


def _property_finding(unknown: list[tuple[str, ev.CardRef]], line: int, game: Game) -> Finding:
    """One finding for all the unknown properties of a line (at the first card that has one)."""
    word, card = unknown[0]
    if len(unknown) == 1:
        close = _close(word, tuple(game.all_property_words()))
        hint = M("did you mean {lines}?", lines=f"`{close[0]}`") if close else M("see the property words of notation §6")
        return make_finding("syntax.property", Span(line, card.column, line, card.end_column),
                            M('unknown property `{word}` on "{card}"; it is ignored', word=shorten(word),
                              card=shorten(card.name)), hint)
    distinct = list(dict.fromkeys(w for w, _ in unknown))
    names = ", ".join(f"`{shorten(w)}`" for w in distinct[:NAMED_PROPERTIES])
    if len(distinct) > NAMED_PROPERTIES:
        names = M("{names} and {n} more", names=names, n=f"{len(distinct) - NAMED_PROPERTIES:,}")
    cards = {id(c) for _, c in unknown}
    where = M('on "{card}"', card=shorten(card.name)) if len(cards) == 1 else M("on {n} cards", n=f"{len(cards):,}")
    last = unknown[-1][1]
    return make_finding("syntax.property", Span(line, card.column, line, last.end_column if len(cards) == 1
                                                else card.end_column),
                        M("{n} unknown properties {where}: {names}; they are ignored", n=f"{len(unknown):,}",
                          where=where, names=names),
                        M("see the property words of notation §6"))
