"""The one pipeline: text -> :class:`Match` -> the game's replay -> :class:`CheckResult` (findings + states).

Every way in (the command line, the window, the library, the API) checks a log here. This is
where a log's game is chosen, once (:func:`choose_game`: the caller's, the ``[Game]`` tag's, or
the one whose grammar reads more of it), with the card catalog it is checked against
(:func:`replayer.cards.layers.catalog_for`): the reader, the replay and the states are handed
that :class:`~replayer.games.Game` and look none up.

>>> from replayer.check import check_text
>>> check_text('[Game "ygo"]\\nturn 1 A\\nA: draw\\n').findings
[]
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import events as ev
from . import games
from .cards.layers import catalog_for
from .catalog import Catalog
from .diagnostics import Finding, Span, sort_findings
from .hints import localize_hint, log_language
from .makers import maker
from . import reader
from .games import Game
from .reader import Choose, GameChoice, Match, _read_lines, game_tag, line_reader, split_lines
from .records import record
from .restart import Restart, restart_at
from .states import Replay
from .templates import own_fields


def replay(match: Match, catalog: Catalog | None = None, *, edit_of: Restart | None = None,
           unchanged: int = 0) -> tuple[list[Finding], Replay, Restart | None]:
    """Replay a read match once: its rules findings (without the syntax ones), its states, and
    the rules model's restart for the next edit. ``edit_of``/``unchanged``: the match is an edit
    of a text whose replay kept that restart, and its first ``unchanged`` events are the same
    (:func:`check_edit`); the replay may start from the restart and keeps one at the edit."""
    game = games.get(match.game)
    if any(f.rule == "syntax.encoding" for f in match.findings):
        return [], game.states(match, game, catalog), None
    # the built-in catalog, then the imported card database when there is one (replayer/cards)
    model = game.model(match, game, catalog if catalog is not None else catalog_for(game))
    resume, keep = restart_at(edit_of, model.restart_key, model.catalog, unchanged) if unchanged > 0 \
        else (None, None)  # (a check of a file: no restart)
    collecting = gc.isenabled()
    gc.disable()  # as in the reader: the replay's objects are not cycles, the collector's passes are cost
    try:
        findings = model.run(resume, keep)
    finally:
        if collecting:
            gc.enable()
    return findings, model.states, model.restart


def validate(match: Match, catalog: Catalog | None = None) -> list[Finding]:
    """The rules findings of a read match (without its syntax findings)."""
    return replay(match, catalog)[0]


@dataclass
class CheckResult:
    match: Match
    findings: list[Finding]
    #: the position and state after every event, from the same replay as the findings
    states: Replay | None = None
    #: where the rules model's replay of an edit of this text may start (:func:`check_edit`)
    restart: Restart | None = field(default=None, compare=False, repr=False)
    #: the language of the log's keywords ("en", "ja", "de": :func:`replayer.hints.log_language`)
    language: str = field(default="en", compare=False)

    def __post_init__(self) -> None:
        if self.states is None:  # a result put together by hand: replay it for its states
            self.states = replay(self.match)[1]

    @property
    def game(self) -> Game:
        """The game the log was checked as: the one its replay was handed (what the store asks
        for the catalog the cards are named by)."""
        return self.states.game

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity.value == "error")

    @property
    def unreadable(self) -> bool:
        return any(f.rule == "syntax.encoding" for f in self.findings)

    @property
    def hint_words(self) -> dict[str, str]:
        """The log's own keywords (:func:`replayer.hints.localize_hint`'s table): a hint in any language
        writes the lines it asks for in them. Empty for an English log."""
        if self.language == "en":
            return {}
        return self.game.hint_words.get(self.language, {})

    def findings_in(self, lang: str) -> list[Finding]:
        """The findings with their messages, hints and citations in ``lang`` (:mod:`replayer.i18n`)."""
        if lang == "en":
            return self.findings
        words = self.hint_words
        return [f.in_language(lang, words) for f in self.findings]

    def to_dict(self, lang: str = "en") -> dict:
        """The JSON object of ``replayer check --format json`` (docs/notation.md § Output); the
        findings' messages in ``lang`` (and in English beside them: :meth:`Finding.to_dict`)."""
        words = self.hint_words if lang != "en" else None
        return {
            "file": self.match.path,
            "game": self.match.game,
            "rules": self.match.rules,
            "events": len(self.match.events),
            "findings": [f.to_dict(lang, words) for f in self.findings],
        }


def check_match(match: Match, *, edit_of: Restart | None = None, unchanged: int = 0) -> CheckResult:
    """Replay a read match: its syntax findings and its rules findings, in line order, and its
    states (``edit_of``, ``unchanged``: see :func:`replay`)."""
    from .knockon import soften_after_unread

    findings, states, restart = replay(match, edit_of=edit_of, unchanged=unchanged)
    rules = soften_after_unread(match.events, match.findings, findings)
    words = games.get(match.game).hint_words
    language = log_language(match.lines, words) if words else "en"
    if language != "en":  # the hints of the rules findings in the log's own keywords (syntax hints show forms)
        table = words.get(language, {})
        rules = [f if not f.hint else replace(f, hint=localize_hint(f.hint, table)) for f in rules]
        # (another language than English: Finding.in_language renders the hint and localizes it the same way)
    return CheckResult(match, sort_findings(list(match.findings) + rules), states, restart, language)


# ---- reading: the game of a log, chosen here --------------------------------------------------
def detect_game(lines: list[str]) -> tuple[Game | None, int]:
    """The game the log's ``[Game]`` tag names (None: no tag, or one naming no game) and its line."""
    value, number = game_tag(lines)
    return (games.by_alias(value) if value is not None else None), number


def guess_game(lines: list[str]) -> Game:
    """With no [Game] tag: the game whose grammar reads more of the lines."""
    best, best_score = games.DEFAULT, -1
    for game in games.ALL.values():
        score = reader.reads_of(game, lines)
        if score > best_score:
            best, best_score = game, score
    return best


def choose_game(game: str | None = None) -> Choose:
    """What the reader asks for the game of a log's lines: the game with id ``game`` when the
    caller forces one (:class:`~replayer.errors.UnknownGame` at once if there is none); else
    the one the ``[Game]`` tag names; else, guessed, the one whose grammar reads more of the
    lines (the default game for an empty log or a file that is not text)."""
    forced = games.get(game) if game is not None else None

    def choose(lines: list[str]) -> GameChoice:
        if forced is not None:
            return GameChoice(forced)
        if not any(line.strip() for line in lines):
            return GameChoice(games.DEFAULT)
        detected, _ = detect_game(lines)
        if detected is not None:
            return GameChoice(detected)
        return GameChoice(guess_game(lines), True, tuple(games.ALL))

    return choose


def read_text(text: str, path: str = "<log>", game: str | None = None) -> Match:
    """Read a whole log. Never raises for problems in the log: they become findings.

    ``game`` (the id of one of :data:`replayer.games.ALL`) forces the game instead of the log's
    ``[Game]`` tag; :class:`~replayer.errors.UnknownGame` if it names none.
    """
    return reader.read_text(text, path, choose_game(game))


def read_bytes(data: bytes, path: str = "<log>", game: str | None = None) -> Match:
    """Read a log from bytes: a binary or non-UTF-8 file becomes one clear finding."""
    return reader.read_bytes(data, path, choose_game(game))


def read_log(path: str | Path, game: str | None = None) -> Match:
    """Read a ``.duel`` file. Raises :class:`~replayer.errors.UnreadableFile` if it cannot be opened at all."""
    return reader.read_log(path, choose_game(game))


def check_file(path: str | Path, game: str | None = None) -> CheckResult:
    """Read and check one ``.duel`` file. Raises :class:`UnreadableFile` if it cannot be opened."""
    return check_match(read_log(path, game))


def check_bytes(data: bytes, path: str = "<log>", game: str | None = None) -> CheckResult:
    return check_match(read_bytes(data, path, game))


def check_text(text: str, path: str = "<log>", game: str | None = None) -> CheckResult:
    """Read and check a log given as text."""
    return check_match(read_text(text, path, game))


def unreadable_report(path: str, error: Exception, lang: str = "en") -> dict:
    """The JSON object ``replayer check --format json`` prints for a file that cannot be read
    (``error``: the :class:`~replayer.errors.UnreadableFile`); the import reports it so too."""
    from .diagnostics import Span, make_finding
    from .i18n import M

    finding = make_finding("file.unreadable", Span(1, 1), M("cannot read {error}", error=str(error)),
                           M("check the path and the file's permissions"))
    return {"file": str(path), "game": None, "rules": None, "events": 0, "findings": [finding.to_dict(lang)]}


# ---- re-checking an edited text -----------------------------------------------------------------
@record(slots=False)
class Change:
    """What :func:`check_edit` read again: lines ``first_line .. first_line + new_lines - 1`` of
    the new text replaced ``old_lines`` lines of the old one; the events before ``first_event``
    are the old ones, the same objects. ``full``: the whole text was read again."""

    first_line: int
    old_lines: int
    new_lines: int
    first_event: int
    full: bool = False

    @property
    def delta(self) -> int:
        """How many lines the edit added (negative: removed)."""
        return self.new_lines - self.old_lines


def _line_of(e) -> int:
    return e.span.line


def _shift_span(s: Span, d: int) -> Span:
    return Span(s.line + d, s.column, s.end_line + d if s.end_line is not None else None, s.end_column)


_EVENT_FIELDS: dict[type, tuple[str, ...]] = {}


def _shift_event(e, d: int):
    cls = type(e)
    names = _EVENT_FIELDS.get(cls)
    if names is None:
        names = _EVENT_FIELDS[cls] = own_fields(cls)
    return maker(cls)(_shift_span(e.span, d), e.timecode, e.notes, *[getattr(e, n) for n in names])


def read_edit(previous: Match | None, text: str, path: str = "<log>",
              game: str | None = None) -> tuple[Match, Change]:
    """Read ``text``, an edited version of the text ``previous`` was read from, reading again only
    the lines that changed (and the lines between them and the events around them, whose notes
    they may carry). The :class:`Match` is equal to ``read_text(text, path, game)``'s, field for
    field: whenever the edit could change anything beyond its lines (the header, the game, a log
    with no events yet) the whole text is read again (``Change.full``)."""
    lines = split_lines(text)

    def full() -> tuple[Match, Change]:
        m = read_text(text, path, game)
        return m, Change(1, len(previous.lines) if previous is not None else 0, len(lines), 0, True)

    if previous is None or not previous.events or (game is not None and game != previous.game):
        return full()
    if any(f.rule in ("syntax.encoding", "syntax.empty") for f in previous.findings):
        return full()
    old = previous.lines
    n0, n1 = len(old), len(lines)
    limit = min(n0, n1)
    p = 0  # lines 1 .. p are the same
    while p < limit and old[p] == lines[p]:
        p += 1
    s = 0  # so are the last s lines
    while s < limit - p and old[n0 - 1 - s] == lines[n1 - 1 - s]:
        s += 1
    if p == n0 == n1:
        return Match(path, previous.game, previous.rules, dict(previous.header), list(previous.events),
                     list(previous.findings), lines, list(previous.notes), dict(previous.header_lines)), \
            Change(n0 + 1, 0, 0, len(previous.events))
    if game is None:
        detected, _ = detect_game(lines)
        if detected is None or detected.id != previous.game:
            return full()
    events = previous.events
    # the notes of lines without an event go to the next event: read again from the line after
    # the last event before the change, through the first event after it
    j = bisect_left(events, p + 1, key=_line_of)  # events[:j] are on lines 1 .. p
    if j == 0:
        return full()
    start = events[j - 1].span.line + 1
    if start <= max(previous.header_lines.values(), default=0):
        return full()  # a header tag after that line: the edit may be in the header
    k = bisect_left(events, n0 - s + 1, key=_line_of)  # the first event of the unchanged end
    end_old = events[k].span.line if k < len(events) else n0  # re-read through this line
    delta = n1 - n0
    end_new = end_old + delta
    region = lines[start - 1:end_new]
    if any("[" in raw for raw in region) or any("[" in raw for raw in old[start - 1:end_old]):
        return full()  # a header tag, perhaps (or a bad one): the reader decides what it is
    g = games.get(previous.game)
    r_events: list = []
    r_notes: list = []
    r_findings: list[Finding] = []
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    collecting = gc.isenabled()
    gc.disable()
    try:
        _read_lines(region, line_reader(g), g, r_events, r_notes, r_findings, header, header_lines)
    finally:
        if collecting:
            gc.enable()
    if header:
        return full()
    d0 = start - 1  # the region was numbered from 1
    new_events = events[:j] + [_shift_event(e, d0) for e in r_events]
    tail = events[k + 1:]
    new_events += tail if delta == 0 else [_shift_event(e, delta) for e in tail]
    if not new_events:
        return full()
    findings = []
    for f in previous.findings:
        line = f.span.line
        if line < start:
            findings.append(f)
        elif line > end_old:
            findings.append(f if delta == 0 else replace(f, span=_shift_span(f.span, delta)))
    findings += [replace(f, span=_shift_span(f.span, d0)) for f in r_findings]
    notes = [n for n in previous.notes if n.line < start]
    notes += [ev.Note(n.text, n.line + d0) for n in r_notes]
    notes += [n if delta == 0 else ev.Note(n.text, n.line + delta) for n in previous.notes if n.line > end_old]
    match = Match(path, previous.game, previous.rules, dict(previous.header), new_events, sort_findings(findings),
                  lines, notes, dict(previous.header_lines))
    return match, Change(start, end_old - start + 1, end_new - start + 1, j)


def check_edit(previous: CheckResult | None, text: str, path: str = "<log>",
               game: str | None = None) -> tuple[CheckResult, Change]:
    """Check ``text``, an edited version of ``previous``'s log: the lines that did not change are
    not read again (:func:`read_edit`), and the states before the first changed event are taken
    from ``previous`` (its checkpoints). The findings are those of ``check_text(text, path, game)``."""
    match, change = read_edit(previous.match if previous is not None else None, text, path, game)
    if previous is None or change.full:
        return check_match(match), change
    result = check_match(match, edit_of=previous.restart, unchanged=change.first_event)
    if previous.states is not None:
        result.states.adopt(previous.states, change.first_event)
    return result, change
