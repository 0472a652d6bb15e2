"""Text -> :class:`Match`: the header, the events, the notes and the syntax findings.

Lines are independent: each is parsed on its own, so a bad line becomes one ``syntax`` finding
and the reader goes on. Identical line bodies recur in real logs (``resolve``, ``A: pass``,
``timing calc``), so a line's parse is cached by its text.
"""

from __future__ import annotations

import copy
import difflib
import functools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from . import events as ev
from .diagnostics import Finding, Span, make_finding, sort_findings
from .grammar import parser
from .numbers import NumberTooLong, too_long_message, whole_number
from .properties import all_words, is_known
from .safe import shorten
from .templates import Template, make_template
from .transform import ToEvents, canonical


class ReplayerError(Exception):
    """Root of the errors replayer raises for misuse (not for problems in a log)."""


class UnreadableFile(ReplayerError):
    """The file could not be read at all (missing, a directory, permissions)."""


class UnknownGame(ReplayerError, ValueError):
    """A game other than ``ygo`` or ``dm`` was asked for."""


GAME_ALIASES = {
    "ygo": "ygo", "yugioh": "ygo", "yu-gi-oh!": "ygo", "yu-gi-oh": "ygo", "遊戯王": "ygo",
    "dm": "dm", "duel-masters": "dm", "duel masters": "dm", "デュエル・マスターズ": "dm",
    "デュエルマスターズ": "dm",
}
RULES_REVISIONS = {"ygo": ("current", "mr2"), "dm": ("current",)}

_TIMECODE = re.compile(r"@(?:\d+:)?\d{1,2}:\d{2}(?=\s|$)")
_TAG = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+("[^"\n]*"|《[^》\n]*》|「[^」\n]*」|„[^“”\n]*[“”])\s*\]')
_ODD_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
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
    n = len(raw)
    i = n - len(raw.lstrip(" \t\ufeff\u00a0\u3000"))
    timecode = None
    if raw.startswith("@", i):
        m = _TIMECODE.match(raw, i)
        if m:
            timecode = m.group(0)
            i = m.end()
            while i < n and raw[i] in " \t\u00a0\u3000":
                i += 1
    start = i
    if "#" not in raw:  # most lines: no note, no copy suffix
        return start + 1, timecode, raw[start:].rstrip(), None
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


def detect_game(lines: list[str]) -> tuple[str | None, int]:
    for number, raw in enumerate(lines, 1):
        m = _TAG.match(raw)
        if m and m.group(1).lower() == "game":
            return GAME_ALIASES.get(m.group(2)[1:-1].strip().casefold()), number
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

    def __init__(self, game: str):
        self.game = game
        self.parser = parser(game)
        self.transformer = ToEvents(game)
        self.cache: dict[tuple[str, int], Any] = {}
        self.templates: dict[str, Template | None] = {}

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

    def read(self, body: str, column: int, **extra: Any) -> Any:
        """The event of a line (with ``extra`` fields: span, timecode, notes), a header tag
        tuple, or a :class:`BadLine`. Lines of a shape seen before are built from its template
        (see :mod:`replayer.templates`) without a parse."""
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
                    return template.build(chunks, names, nums, **extra)
        result = self.parse(body, column)
        if isinstance(result, ev.Event):
            return replace(result, **extra)
        return result


_MISSING = object()


_READERS: dict[str, LineReader] = {}


def line_reader(game: str) -> LineReader:
    r = _READERS.get(game)
    if r is None:
        r = _READERS[game] = LineReader(game)
    return r


def read_text(text: str, path: str = "<log>", game: str | None = None) -> Match:
    """Read a whole log. Never raises for problems in the log: they become findings.

    ``game`` forces the game (``"ygo"`` or ``"dm"``) instead of the log's ``[Game]`` tag.
    """
    if game is not None and game not in RULES_REVISIONS:
        raise UnknownGame(f"unknown game {game!r}: replayer reads 'ygo' and 'dm' logs")
    lines = split_lines(text)
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
            ("[Game] names no known game" if game_line else "no [Game] tag") + ": read as "
            + ("Yu-Gi-Oh!" if game == "ygo" else "Duel Masters"),
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
        own = tuple(pending) + ((note,) if note is not None else ())
        result = reader.read(body, column, span=Span(number, column, number, column + len(body)),
                             timecode=timecode, notes=own)
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
            continue
        pending = []
        event = result
        if "{" in body:  # only then can a card carry properties
            unknown = [(word, card) for card in event.cards() for word in card.props if not is_known(word, game)]
            if unknown:
                findings.append(_property_finding(unknown, number, game))
        events.append(event)
    rules = _rules_revision(header, header_lines, game, findings)
    _check_header_numbers(header, header_lines, game, findings)
    if not events and not any(f.kind.value == "syntax" and f.rule == "syntax.line" for f in findings):
        findings.append(make_finding("syntax.empty", Span(1, 1), "the log has no events",
                                     "write one event a line after the header tags"))
    return Match(path, game, rules, header, events, sort_findings(findings), lines, notes, header_lines)


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
        return _unreadable(path, game, f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} on line {line})",
                           line, column, lines)
    return read_text(text, path, game)


def _unreadable(path: str, game: str | None, message: str, line: int = 1, column: int = 1,
                lines: list[str] | None = None) -> Match:
    f = make_finding("syntax.encoding", Span(line, column), message, "save the log as UTF-8 text")
    return Match(path, game or "ygo", "current", {}, [], [f], lines or [])


def guess_game(lines: list[str]) -> str:
    """With no [Game] tag: the game whose grammar reads more of the lines."""
    sample = [split_line(l) for l in lines[:200]]
    best, best_score = "ygo", -1
    for game in ("ygo", "dm"):
        r = line_reader(game)
        score = sum(1 for col, _, body, _ in sample if body and not isinstance(r.parse(body, col), BadLine))
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
    if key in header and whole_number(header[key]) is None:
        findings.append(make_finding("syntax.header", Span(header_lines[key], 1),
                                     f"[{key}] must be a whole number of at most 15 digits, not "
                                     f"{shorten(repr(header[key]))}",
                                     f'e.g. [{key} "{8000 if key == "LP" else 5}"]'))


#: the unknown properties of a line named in its finding; the rest are counted
NAMED_PROPERTIES = 5


def _property_finding(unknown: list[tuple[str, ev.CardRef]], line: int, game: str) -> Finding:
    """One finding for all the unknown properties of a line (at the first card that has one)."""
    word, card = unknown[0]
    if len(unknown) == 1:
        close = _close(word, tuple(all_words(game)))
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

#: terminals described in words; string keywords are shown as themselves (`from`, `->`)
_NAMES = {
    "CARD_NAME": "a card name in quotes", "INT": "a number", "SIGNED_INT": "+N or -N",
    "PLAYER": "a player (A or B)", "STATS": "ATK/DEF", "PROPS": "{properties}", "COPY": "#N",
    "TIMING_NAME": "a timing (ds-start, before-calc, calc, after-calc, ds-end)",
    "PHASE_NAME:ygo": "a phase (draw, standby, main1, battle, main2, end)",
    "PHASE_NAME:dm": "a phase (start, untap, draw, charge, main, attack, end)",
    "STEP_NAME": "a step (start, battle, damage, end)",
    "ZONE": "a zone (hand, gy, deck, banished, extra, field)", "POSITION": "attack or defense",
    "TAG_KEY": "a tag name", "BY_BATTLE": "`by battle`", "PUT_ZONE": "mana or shields",
    "PLAYER_WORD": "`player`", "$END": "the end of the line", "<END-OF-FILE>": "the end of the line",
    "DECLARATION": "a declaration (ninja strike, revolution 0, revolution change, invade)",
    "SUMMON_KIND": "a summon (normal, tribute, special, flip, …)", "MAIN_VERB": "charge, summon or cast",
    "TAP_VERB": "tap or untap", "CL": "a chain link (CL1, CL2, …)", "BATTLE_PHASE": "`battle phase`",
}
_DECORATIONS = {"COPY", "STATS", "PROPS"}  # what may follow any card name

#: the words a terminal that is not a plain string matches, for "did you mean" hints
_WORDS_OF = {
    "TIMING_NAME": ["ds-start", "before-calc", "calc", "after-calc", "ds-end"],
    "STEP_NAME": ["start", "battle", "damage", "end"],
    "PHASE_NAME:ygo": ["draw", "standby", "main1", "battle", "main2", "end"],
    "PHASE_NAME:dm": ["start", "untap", "draw", "charge", "main", "attack", "end"],
    "ZONE": ["hand", "gy", "deck", "banished", "extra", "field"],
    "POSITION": ["attack", "defense"], "PUT_ZONE": ["mana", "shields"],
    "SUMMON_KIND": ["normal", "tribute", "special", "fusion", "synchro", "xyz", "ritual", "link", "pendulum"],
    "DECLARATION": ["ninja strike", "revolution 0", "revolution change", "invade"],
    "MAIN_VERB": ["charge", "summon", "cast"], "TAP_VERB": ["tap", "untap"], "PLAYER_WORD": ["player"],
    "BY_BATTLE": ["by battle"], "BATTLE_PHASE": ["battle phase"], "PLAYER": ["A", "B"],
    "TURN": ["turn"], "RESOLVE": ["resolve"], "RESOLVE_ONE": ["resolve"], "ATTACK": ["attack"],
    "ENDS": ["ends"], "PHASE": ["phase"], "STEP": ["step"], "TIMING": ["timing"], "ACTIVATE": ["activate"],
    "FROM": ["from"], "GY": ["gy"], "SHIELDS": ["shields"],
}

#: the written form of each line, by its first keyword, shown when nothing closer can be said
_FORMS = {
    "ygo": {
        "turn": "`turn 3 A` (turn number, then the turn player)",
        "phase": "`phase draw|standby|main1|battle|main2|end`",
        "step": "`step start|battle|damage|end`",
        "timing": "`timing ds-start|before-calc|calc|after-calc|ds-end`",
        "resolve": "`resolve` alone on its line",
        "[": '`[Key "value"]`',
        "draw": "`A: draw` or `A: draw 2`",
        "summon": '`A: normal|tribute|special|flip summon "Card"` (special: `from hand|gy|deck|banished|extra`)',
        "set": '`A: set "Card"`',
        "attack": '`A: attack "Card" -> "Target"` (or `-> direct`, `-> set "Target"`, `-> defense "Target"`)',
        "activate": '`A: activate "Card" [effect N | flip effect | trigger] [from hand|field|gy|banished|deck] '
                    '[targeting "X", "Y"] [cost discard "X" | cost send "X" to gy | cost tribute "X"]` '
                    "(clauses in this order)",
        "flip": '`A: flip "Card"`', "destroy": '`A: destroy "Card"` or `A: destroy "Card" by battle`',
        "send": '`A: send "Card" to gy`', "banish": '`A: banish "Card"`',
        "return": '`A: return "Card" to hand`', "discard": '`A: discard "Card"`',
        "change": '`A: change "Card" to attack|defense`', "negate": '`A: negate "Card"`',
        "damage": "`A: damage 500`", "lp": "`A: lp 7500`", "atk": '`A: atk "Card" 3000` or `A: atk "Card" +500`',
        "pass": "`A: pass`", "end": "`A: end battle phase`",
    },
    "dm": {
        "turn": "`turn 3 A` (turn number, then the turn player)",
        "phase": "`phase start|untap|draw|charge|main|attack|end`",
        "resolve": '`resolve` alone, or `A: resolve "Card"`', "[": '`[Key "value"]`',
        "battle": '`battle "Card" vs "Card"`',
        "attack": '`A: attack "Card" -> player` or `A: attack "Card" -> "Creature"`',
        "charge": '`A: charge "Card"`', "summon": '`A: summon "Card"`', "cast": '`A: cast "Card"`',
        "tap": '`A: tap "Card"`', "untap": '`A: untap "Card"`', "trigger": '`A: trigger "Card"`',
        "ninja": '`A: ninja strike "Card"`',
        "revolution": '`A: revolution 0 "Card"` or `A: revolution change "Card"`',
        "invade": '`A: invade "Card"`', "block": '`A: block with "Card"`', "guardman": '`A: guardman "Card"`',
        "redirect": '`A: redirect "Card" -> "Creature"`', "destroy": '`A: destroy "Card"`',
        "return": '`A: return "Card" to hand`', "put": '`A: put "Card" into mana|shields`',
        "break": "`A: break 2` or `A: break 2 shields`", "s-trigger": '`A: s-trigger "Card", "Card"`',
        "direct": "`A: direct attack`", "win": "`A: win`",
    },
}
_ACTIONS = {
    "ygo": ["draw", "normal summon", "tribute summon", "special summon", "flip summon", "set",
            "attack", "activate", "flip", "destroy", "send", "banish", "return", "discard", "change",
            "negate", "damage", "lp", "atk", "pass", "end battle phase"],
    "dm": ["charge", "summon", "cast", "tap", "untap", "attack", "trigger", "resolve", "ninja strike",
           "revolution 0", "invade", "revolution change", "block with", "guardman", "redirect",
           "destroy", "return", "put", "break", "s-trigger", "direct attack", "win"],
}
_QUOTES_HINT = 'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'
_LEAD = re.compile(r"\s*(?:CL\d+\s+)?(?:[^\s:]{1,3}:\s*)?(\S+)(?:\s+(\S+))?", re.I)


def _base_name(name: str) -> str:
    """``_core__TURN`` -> ``TURN``; ``_FROM`` -> ``FROM``; anonymous names are kept."""
    if name.startswith("__ANON"):
        return name
    return name.rsplit("__", 1)[-1].lstrip("_")


@functools.lru_cache(maxsize=None)
def _terminal_patterns(game: str) -> dict[str, Any]:
    return {t.name: t.pattern for t in parser(game).terminals}


#: (game, the parser's state stack) -> the terminals it accepts there; LALR states are few, so
#: this stays small, and a bad line costs about as much as a good one
_ACCEPTABLE: dict[tuple, frozenset[str]] = {}


def _acceptable(err: UnexpectedInput, game: str) -> set[str]:
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


def _describe(expected: set[str], game: str) -> str:
    return _describe_names(frozenset(str(n) for n in expected), game)


@functools.lru_cache(maxsize=4096)
def _describe_names(names: frozenset[str], game: str) -> str:
    names = set(names)
    if names - _DECORATIONS:  # after a card: name what may come next, not #N / ATK/DEF / {…}
        names -= _DECORATIONS
    patterns = _terminal_patterns(game)
    words = set()
    for name in names:
        base = _base_name(name)
        if base.endswith("_ALIAS"):
            continue  # the same words in other languages
        if base in _NAMES or f"{base}:{game}" in _NAMES:
            words.add(_NAMES.get(base) or _NAMES[f"{base}:{game}"])
        elif isinstance(patterns.get(name), PatternStr):
            words.add(f"`{patterns[name].value}`")
        elif base in _WORDS_OF:
            words.add(f"`{_WORDS_OF[base][0]}`")
        else:
            words.add(f"`{base.lower().replace('_', ' ')}`")
    ordered = sorted(words, key=lambda w: (not w.startswith("`"), w))
    if not ordered:
        return "something else"
    if len(ordered) > 8:
        ordered = ordered[:8] + ["…"]
        return ", ".join(ordered)
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]


def _candidate_words(expected: set[str], game: str) -> list[str]:
    return list(_candidates(frozenset(expected), game))


@functools.lru_cache(maxsize=4096)
def _candidates(expected: frozenset[str], game: str) -> tuple[str, ...]:
    patterns = _terminal_patterns(game)
    out: list[str] = []
    for name in expected:
        base = _base_name(name)
        pattern = patterns.get(name)
        if isinstance(pattern, PatternStr) and re.fullmatch(r"[^\W\d][\w -]*", pattern.value):
            out.append(pattern.value)
        out.extend(_WORDS_OF.get(f"{base}:{game}", _WORDS_OF.get(base, ())))
    return tuple(sorted(set(out)))


def syntax_finding(err: UnexpectedInput, line: int, body: str, column: int, game: str) -> Finding:
    """The ``syntax`` finding for a line that does not parse: where, what was expected, a hint."""
    return _bad_syntax(err, body, column, game).finding(line)


def _bad_syntax(err: UnexpectedInput, body: str, column: int, game: str) -> BadLine:
    col = getattr(err, "column", None)
    if not isinstance(col, int) or col < 1:
        col = column
    text = " " * (column - 1) + body
    if isinstance(err, UnexpectedToken) and err.token.type == "$END" or isinstance(err, UnexpectedEOF):
        message = "the line ends too early"
        col = column + len(body)
    elif isinstance(err, UnexpectedToken):
        message = f"unexpected `{shorten(str(err.token))}`"
    else:
        rest = text[col - 1 :].rstrip()
        if rest[:1] in _OPENERS:  # an unclosed card name: show all of it
            bad = rest if len(rest) <= 40 else rest[:39] + "…"
        else:
            bad = shorten(rest.split(None, 1)[0]) if rest.split(None, 1) else text[col - 1 : col]
        message = f"unexpected `{bad}`"
    expected = _acceptable(err, game)
    if expected:
        message += f"; expected {_describe(expected, game)}"
    return BadLine("syntax.line", col, message, _hint(text, col, game, expected))


def _hint(text: str, col: int, game: str, expected: set[str]) -> str:
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
            inside = [a for a in _ACTIONS[game] if low in a.split()[1:]]
            if inside:
                return "did you mean " + " or ".join(f"`{prev} {a}`" for a in inside) + "?"
            close = _close(phrase, tuple(_ACTIONS[game])) or _close(low, tuple(_ACTIONS[game]))
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


def _form_of(text: str, game: str) -> str | None:
    """The written form of the line's kind, from its first keyword (after ``CLn`` and ``A:``)."""
    if text.lstrip().startswith("["):
        return _FORMS[game]["["]
    m = _LEAD.match(text)
    if not m:
        return None
    first = m.group(1).lower()
    second = (m.group(2) or "").lower()
    key = canonical(first)
    if key not in _FORMS[game] and second:
        key = canonical(f"{first} {second}")
        if key not in _FORMS[game]:
            key = second  # `normal summon`, `flip summon`
    return _FORMS[game].get(key)
