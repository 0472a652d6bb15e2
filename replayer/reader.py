"""Text -> :class:`Match`: the header, the events, the notes and the syntax findings.

Lines are independent: each is parsed on its own, so a bad line becomes one ``syntax`` finding
and the reader goes on. Identical line bodies recur in real logs (``resolve``, ``A: pass``,
``timing calc``), so a line's parse is cached by its text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import events as ev
from .diagnostics import Finding, Span, make_finding, sort_findings
from .grammar import parser
from .properties import all_words, is_known
from .transform import ToEvents


class ReplayerError(Exception):
    """Root of the errors replayer raises for misuse (not for problems in a log)."""


class UnreadableFile(ReplayerError):
    """The file could not be read at all (missing, a directory, permissions)."""


GAME_ALIASES = {
    "ygo": "ygo", "yugioh": "ygo", "yu-gi-oh!": "ygo", "yu-gi-oh": "ygo", "遊戯王": "ygo",
    "dm": "dm", "duel-masters": "dm", "duel masters": "dm", "デュエル・マスターズ": "dm",
    "デュエルマスターズ": "dm",
}
RULES_REVISIONS = {"ygo": ("current", "mr2"), "dm": ("current",)}

_TIMECODE = re.compile(r"@(?:\d+:)?\d{1,2}:\d{2}(?=\s|$)")
_TAG = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"([^"\n]*)"\s*\]')
_OPENERS = {'"': '"', "《": "》", "「": "」", "„": "“”"}


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
    i, n = 0, len(raw)
    timecode = None
    while i < n and raw[i] in " \t\ufeff":
        i += 1
    m = _TIMECODE.match(raw, i)
    if m:
        timecode = m.group(0)
        i = m.end()
        while i < n and raw[i] in " \t":
            i += 1
    start = i
    note = None
    j = i
    while j < n:
        ch = raw[j]
        if ch in _OPENERS:
            closers = _OPENERS[ch]
            k = j + 1
            while k < n and raw[k] not in closers:
                k += 1
            j = k + 1
            continue
        if ch == "#":
            after_quote = j > 0 and raw[j - 1] in '"》」“”'
            if not (after_quote and j + 1 < n and raw[j + 1].isdigit()):
                note = raw[j + 1 :].strip()
                break
        j += 1
    body = raw[start:j].rstrip()
    return start + 1, timecode, body, note


def detect_game(lines: list[str]) -> tuple[str | None, int]:
    for number, raw in enumerate(lines, 1):
        m = _TAG.match(raw)
        if m and m.group(1).lower() == "game":
            return GAME_ALIASES.get(m.group(2).strip().casefold()), number
    return None, 0


class LineReader:
    """Parses line bodies of one game into events, with a cache keyed by (body, column)."""

    def __init__(self, game: str):
        self.game = game
        self.parser = parser(game)
        self.transformer = ToEvents(game)
        self.cache: dict[tuple[str, int], Any] = {}

    def parse(self, body: str, column: int) -> Any:
        """An event (no span yet), a ``("tag", key, value)`` tuple, or an ``UnexpectedInput``."""
        key = (body, column)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        # pad so that lark's columns are the columns of the raw line
        text = " " * (column - 1) + body
        try:
            result = self.transformer.transform(self.parser.parse(text))
        except UnexpectedInput as e:
            result = e
        if len(self.cache) < 200_000:
            self.cache[key] = result
        return result


_READERS: dict[str, LineReader] = {}


def line_reader(game: str) -> LineReader:
    r = _READERS.get(game)
    if r is None:
        r = _READERS[game] = LineReader(game)
    return r


def read_text(text: str, path: str = "<log>", game: str | None = None) -> Match:
    """Read a whole log. Never raises for problems in the log: they become findings."""
    lines = text.splitlines()
    findings: list[Finding] = []
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    if not any(line.strip() for line in lines):
        f = make_finding("syntax.empty", Span(1, 1), "the file is empty", "a log starts with its header tags, "
                         'e.g. [Game "ygo"], then one event a line')
        return Match(path, game or "ygo", "current", {}, [], [f], lines)
    detected, game_line = detect_game(lines)
    if game is None:
        game = detected
    if game is None:
        game = guess_game(lines)
        findings.append(make_finding(
            "syntax.header", Span(game_line or 1, 1),
            "no valid [Game] tag: read as " + ("Yu-Gi-Oh!" if game == "ygo" else "Duel Masters"),
            'start the log with [Game "ygo"] or [Game "dm"]'))
    reader = line_reader(game)
    events: list[ev.Event] = []
    notes: list[ev.Note] = []
    pending: list[str] = []
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
        result = reader.parse(body, column)
        if isinstance(result, UnexpectedInput):
            findings.append(syntax_finding(result, number, body, column, game))
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
            continue
        own = tuple(pending) + ((note,) if note is not None else ())
        pending = []
        event = replace(result, span=Span(number, column, number, column + len(body)),
                        timecode=timecode, notes=own)
        for card in event.cards():
            for word in card.props:
                if not is_known(word, game):
                    findings.append(_property_finding(word, number, card, game))
        events.append(event)
    rules = _rules_revision(header, header_lines, game, findings)
    _check_header_numbers(header, header_lines, game, findings)
    if not events and not any(f.kind.value == "syntax" and f.rule == "syntax.line" for f in findings):
        findings.append(make_finding("syntax.empty", Span(1, 1), "the log has no events",
                                     "write one event a line after the header tags"))
    return Match(path, game, rules, header, events, sort_findings(findings), lines, notes, header_lines)


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
    if b"\x00" in data[:8192]:
        return _unreadable(path, game, "this is a binary file, not a text log")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return _unreadable(path, game, f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} on line {line})",
                           line)
    return read_text(text, path, game)


def _unreadable(path: str, game: str | None, message: str, line: int = 1) -> Match:
    f = make_finding("syntax.encoding", Span(line, 1), message, "save the log as UTF-8 text")
    return Match(path, game or "ygo", "current", {}, [], [f], [])


def guess_game(lines: list[str]) -> str:
    """With no [Game] tag: the game whose grammar reads more of the lines."""
    sample = [split_line(l) for l in lines[:200]]
    best, best_score = "ygo", -1
    for game in ("ygo", "dm"):
        r = line_reader(game)
        score = sum(1 for col, _, body, _ in sample if body and not isinstance(r.parse(body, col), UnexpectedInput))
        if score > best_score:
            best, best_score = game, score
    return best


def _rules_revision(header, header_lines, game, findings) -> str:
    value = header.get("Rules", "current").strip().lower()
    if value in RULES_REVISIONS[game]:
        return value
    findings.append(make_finding(
        "syntax.header", Span(header_lines.get("Rules", 1), 1),
        f"unknown rules revision {header.get('Rules')!r} for {game}; judged by 'current'",
        "known revisions: " + ", ".join(RULES_REVISIONS[game])))
    return "current"


def _check_header_numbers(header, header_lines, game, findings) -> None:
    key = "LP" if game == "ygo" else "Shields"
    if key in header and not header[key].strip().isdigit():
        findings.append(make_finding("syntax.header", Span(header_lines[key], 1),
                                     f"[{key}] must be a whole number, not {header[key]!r}",
                                     f'e.g. [{key} "{8000 if key == "LP" else 5}"]'))


def _property_finding(word: str, line: int, card: ev.CardRef, game: str) -> Finding:
    close = difflib.get_close_matches(word, all_words(game), n=1, cutoff=0.6)
    hint = f"did you mean `{close[0]}`?" if close else "see the property words of notation §6"
    return make_finding("syntax.property", Span(line, card.column, line, card.end_column),
                        f"unknown property `{word}` on \"{card.name}\"; it is ignored", hint)


# ---- syntax findings -----------------------------------------------------------------------
_NAMES = {
    "CARD_NAME": "a card name in quotes", "INT": "a number", "SIGNED_INT": "+N or -N",
    "PLAYER": "a player (A or B)", "STATS": "ATK/DEF", "PROPS": "{properties}", "COPY": "#N",
    "TIMING_NAME": "a timing (ds-start, before-calc, calc, after-calc, ds-end)",
    "PHASE_NAME": "a phase name", "STEP_NAME": "a step (start, battle, damage, end)",
    "ZONE": "a zone (hand, gy, deck, banished, extra, field)", "POSITION": "attack or defense",
    "COLON": "`:`", "MORETHAN": "`->`", "RSQB": "`]`", "LSQB": "`[`", "COMMA": "`,`",
    "TAG_KEY": "a tag name", "BY_BATTLE": "`by battle`", "PUT_ZONE": "mana or shields",
    "PLAYER_WORD": "`player`", "$END": "the end of the line", "DECLARATION": "a declaration",
    "SUMMON_KIND": "a summon kind", "MAIN_VERB": "charge, summon or cast", "TAP_VERB": "tap or untap",
}

#: words a line may continue with, by what came before, for "did you mean" hints
_KNOWN_WORDS = {
    "timing": ["ds-start", "before-calc", "calc", "after-calc", "ds-end"],
    "step": ["start", "battle", "damage", "end"],
    "phase": ["draw", "standby", "main1", "battle", "main2", "end", "start", "charge", "main", "attack"],
    "from": ["hand", "gy", "deck", "banished", "extra", "field"],
    "to": ["gy", "hand", "attack", "defense"],
}
_ACTIONS = {
    "ygo": ["draw", "normal summon", "tribute summon", "special summon", "flip summon", "set",
            "attack", "activate", "flip", "destroy", "send", "banish", "return", "discard", "change",
            "negate", "damage", "lp", "atk", "pass", "end battle phase"],
    "dm": ["charge", "summon", "cast", "tap", "untap", "attack", "trigger", "resolve", "ninja strike",
           "revolution 0", "invade", "revolution change", "block with", "guardman", "redirect",
           "destroy", "return", "put", "break", "s-trigger", "direct attack", "win"],
}
_LINE_STARTS = {
    "ygo": ["turn", "phase", "step", "timing", "resolve", "A:", "B:", "CL1", "["],
    "dm": ["turn", "phase", "resolve", "attack ends", "battle", "A:", "B:", "["],
}


def _describe(expected: set[str]) -> str:
    words = []
    for name in sorted(expected):
        if name in _NAMES:
            words.append(_NAMES[name])
        elif name.startswith("__ANON") or name.startswith("_"):
            continue
        else:
            words.append(f"`{name.lower().replace('_', ' ')}`")
    words = sorted(set(words))
    if not words:
        return "something else"
    if len(words) > 6:
        return ", ".join(words[:6]) + ", …"
    return " or ".join(words) if len(words) <= 2 else ", ".join(words[:-1]) + " or " + words[-1]


def syntax_finding(err: UnexpectedInput, line: int, body: str, column: int, game: str) -> Finding:
    col = getattr(err, "column", None) or column
    if not isinstance(col, int) or col < 1:
        col = column
    text = " " * (column - 1) + body
    if isinstance(err, UnexpectedCharacters):
        bad = text[col - 1 : col - 1 + 20].split()[0] if text[col - 1 :].strip() else text[col - 1 :]
        message = f"unexpected `{bad}`"
        expected = set(err.allowed or ())
    elif isinstance(err, UnexpectedToken):
        if err.token.type == "$END":
            message = "the line ends too early"
            col = column + len(body)
        else:
            message = f"unexpected `{err.token}`"
            bad = str(err.token)
        expected = set(err.expected or ())
    else:  # UnexpectedEOF
        message = "the line ends too early"
        col = column + len(body)
        expected = set(getattr(err, "expected", ()) or ())
    if expected:
        message += f"; expected {_describe(expected)}"
    hint = _hint(text, col, game)
    return make_finding("syntax.line", Span(line, col), message, hint)


def _hint(text: str, col: int, game: str) -> str:
    before = text[: col - 1].split()
    rest = text[col - 1 :].strip()
    word = rest.split()[0] if rest.split() else ""
    prev = before[-1].lower() if before else ""
    if prev in _KNOWN_WORDS and word:
        close = difflib.get_close_matches(word.lower(), _KNOWN_WORDS[prev], n=1, cutoff=0.4)
        if close:
            return f"did you mean `{prev} {close[0]}`?"
    if prev.endswith(":") and word:  # the action word of an actor line
        close = difflib.get_close_matches(" ".join(rest.split()[:2]).lower(), _ACTIONS[game], n=1, cutoff=0.5) \
            or difflib.get_close_matches(word.lower(), _ACTIONS[game], n=1, cutoff=0.5)
        if close:
            return f"did you mean `{before[-1]} {close[0]}`?"
    if not before and word:
        close = difflib.get_close_matches(word.lower(), [s.lower() for s in _LINE_STARTS[game]], n=1, cutoff=0.6)
        if close:
            return f"a line starts with {', '.join('`' + s + '`' for s in _LINE_STARTS[game])}; did you mean `{close[0]}`?"
        if word[:1] in "'“‘”":
            return 'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'
    if "'" in rest or "“" in rest:
        return 'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'
    if re.search(r'"[^"]*$', text):
        return "a card name's closing quote is missing"
    return ""
