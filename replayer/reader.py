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
import gc
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import events as ev
from .diagnostics import Finding, Span, make_finding, sort_findings
from .errors import ReplayerError, UnknownGame, UnreadableFile  # noqa: F401  (re-exported)
from .lines import (CACHED_LINE, EVENT_CACHE, BadLine, LineReader, _close, fold_kana, fold_width,  # noqa: F401  (the line API, re-exported)
                    line_reader, split_line, split_lines, syntax_finding, unfold_column, unfold_values)
from .makers import maker
from .numbers import whole_number
from .safe import shorten
from .timecodes import OFFSET_FORMS, parse_offset

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


@dataclass(frozen=True)
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
        f = make_finding("syntax.empty", Span(1, 1), "the file is empty", "a log starts with its header tags, "
                         f'e.g. [Game "{g.id}"], then one event a line')
        return Match(path, g.id, g.revisions[0], {}, [], [f], lines)
    chosen = choose(lines)
    g = chosen.game
    if chosen.guessed:
        _, game_line = game_tag(lines)
        findings.append(make_finding(
            "syntax.header", Span(game_line or 1, 1),
            ("[Game] names no known game" if game_line else "no [Game] tag") + ": read as " + g.title,
            "start the log with " + " or ".join(f'[Game "{x}"]' for x in chosen.known)))
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
    entry, add, span, note_of = reader.entry, events.append, maker(Span), maker(ev.Note)
    # most lines of a long log are exact repeats of an earlier one (`phase battle`, `A: pass`):
    # an event line read before is built from what was kept for its raw text, with no split
    known = reader.lines
    remember = len(known) < EVENT_CACHE
    for number, raw in enumerate(lines, 1):
        hit = known.get(raw)
        if hit is not None and not pending:
            column, end, timecode, note, make, values = hit
            if note is None:
                add(make(span(number, column, number, end), timecode, (), *values))
            else:
                notes.append(note_of(note, number))
                add(make(span(number, column, number, end), timecode, (note,), *values))
            continue
        column, timecode, body, note = split_line(raw)
        if note is not None:
            notes.append(note_of(note, number))
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
            result = make(span(number, column, number, end), timecode, own, *values)
            pending = []
            if "{" in body:  # only then can a card carry properties
                unknown = [(word, card) for card in result.cards() for word in card.props if not g.is_property(word)]
                if unknown:
                    findings.append(_property_finding(unknown, number, g))
                    add(result)
                    continue
            add(result)
            if remember and len(raw) <= CACHED_LINE:
                known[raw] = (column, end, timecode, note, make, values)
                remember = len(known) < EVENT_CACHE
            continue
        result = values
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
        return _unreadable(path, choose, "the file is UTF-16 text, not UTF-8")
    if b"\x00" in data[:8192]:
        return _unreadable(path, choose, "this is a binary file, not a text log")
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


def _unreadable(path: str, choose: Choose, message: str, line: int = 1, column: int = 1,
                lines: list[str] | None = None) -> Match:
    f = make_finding("syntax.encoding", Span(line, column), message, "save the log as UTF-8 text")
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
