"""A checked log (a :class:`~replayer.check.CheckResult`) as rows ready to insert (:class:`Prepared`).

The store never reads nor checks a file: :mod:`replayer.importing` does, in its worker processes,
and calls :func:`rows_of` there."""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from .. import events as ev
from .jsontext import _ASCII_LOWER, _dumps, _dumps_header
from .paths import key_for
from .schema import _CARDS_AT

_LINE_PLAYER = re.compile(r"^\s*(?:@[\d:]+\s+)?(?:CL\d+\s+)?([ABab])\s*:")


@dataclass
class Prepared:
    """A checked log as rows ready to insert (``status="ok"``), or a file whose content the library
    already has (``"unchanged"``: not read again, no rows).

    ``events_json`` is the JSON array of the file's events (one array an event, fields in the
    order of :data:`EVENT_FIELDS`), stored as it is in ``match_revisions.events_json``; ``cards``
    is ``match_revisions.cards`` (the distinct cards, a JSON array; "" for none); ``findings``
    and ``notes`` rows start with the index (``seq``) of their event (``None``: no event), then
    their columns (the notes go into ``match_revisions.notes_json`` as they are). The ids are
    added when the file is written. Strings and tuples, not dicts: they cross from worker
    processes cheaply.
    """

    path: str  # the file's key in the library (relative to its root, or absolute)
    content_hash: str
    status: str = "ok"  # ok | unchanged
    match: tuple = ()  # the values of MATCH_COLUMNS
    text: str = ""
    events_json: str = ""
    cards: str = ""
    findings: list[tuple] = field(default_factory=list)
    notes: list[tuple] = field(default_factory=list)

    @property
    def events(self) -> list[list]:
        """The events, decoded from :attr:`events_json` (one list an event)."""
        return json.loads(self.events_json) if self.events_json else []


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def normalize_date(value: str | None) -> str | None:
    """A header Date as ISO (``18.05.2024``, ``2024/05/18``, ``2024年5月18日`` -> ``2024-05-18``:
    :func:`replayer.dates.parse_date`); text that is no date stays as written (``check`` warns)."""
    if value is None:
        return None
    from ..dates import parse_date

    return parse_date(value) or value.strip() or None


def library_path(path: str | os.PathLike[str]) -> str:
    """A file's absolute path, symbolic links resolved: what its key in a library is made from
    (:func:`replayer.store.paths.library_key`: relative to the library's root when under it). A
    link that leads round in a loop (or a path that cannot be resolved) keeps its absolute path as
    written: reading it fails, and the import reports the file as unreadable and goes on."""
    try:
        return str(Path(path).resolve())
    except (RuntimeError, OSError):  # (Python 3.11: RuntimeError "Symlink loop"; 3.13: OSError)
        return os.path.abspath(path)


def library_paths(files: Iterable[str | os.PathLike[str]], root: str | None = None) -> Iterator[str]:
    """The keys of many files in a library whose root is ``root`` (None: their absolute paths),
    one by one as they are asked for (an import starts its workers on the first files meanwhile),
    resolving each folder once (not each file's)."""
    real_dirs: dict[str, str] = {}
    for f in files:
        name = os.fspath(f)
        head, tail = os.path.split(name)
        if tail in ("", ".", "..") or os.path.islink(name):
            yield key_for(library_path(name), root)
            continue
        real = real_dirs.get(head)
        if real is None:
            real = real_dirs[head] = str(Path(head or ".").resolve())
        yield key_for(os.path.join(real, tail), root)


#: per game: a card name as written -> (its catalog name, that name folded as SQLite's NOCASE does)
_CANONICAL: dict[str, tuple[Any, dict[str, tuple[str, str]]]] = {}
#: event class -> whether its events can name cards (:func:`events.names_cards`)
_CARD_CLASSES: dict[type, bool] = {}


def rows_of(result: Any, path: str, digest: str, data: bytes | None = None) -> Prepared:
    """Rows of a checked log: its match, findings and states (a :class:`~replayer.check.CheckResult`).

    ``path`` names it in the library (:func:`library_path`), ``digest`` is the content hash of
    its bytes ``data`` (the text kept; without them the match's lines). Each event's turn,
    phase, step, timing and sub-step are the position the replay recorded (:mod:`replayer.states`);
    a card is kept under the name the built-in catalog of the result's game (``result.game``, the
    one its replay was handed) gives it."""
    match, findings, states = result.match, result.findings, result.states
    catalog = result.game.catalog
    names = match.players
    header = match.header
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    text = data.decode("utf-8-sig", "replace") if data is not None else "\n".join(match.lines)
    prepared = Prepared(path, digest, "ok", text=text)
    prepared.match = (
        match.game, match.rules, names["A"], names["B"], _tag(header, "Event"), _tag(header, "Round"),
        _tag(header, "Table"), normalize_date(header.get("Date")), _dumps_header(header),
        len(match.events), counts["error"], counts["warning"], counts["info"],
    )
    lines = match.lines
    nlines = len(lines)
    find = catalog.find
    card_classes = _CARD_CLASSES  # event class -> whether its events can name cards
    turn = turn_player = phase = step = timing = substep = None
    cached = _CANONICAL.get(match.game)
    if cached is None or cached[0] is not catalog or len(cached[1]) > 50_000:
        cached = _CANONICAL[match.game] = (catalog, {})
    canonical = cached[1]  # as written -> (card, folded)
    mentioned: dict[str, str] = {}  # key -> card, in the order of first mention
    events: list[list] = []
    append = events.append
    # the text of each line, stripped (index 0: no line)
    texts = [""]
    texts += [line.strip() for line in lines]
    # the positions change at a few events only: walk the changes alongside the events
    change_at, change_pos = states.changes()
    k, nk = 0, len(change_at)
    next_change = change_at[0] if nk else -1
    for i, event in enumerate(match.events):
        if i == next_change:
            turn, turn_player, phase, step, timing, substep, _ = change_pos[k]
            k += 1
            next_change = change_at[k] if k < nk else -1
        kind = event.kind
        span = event.span
        line = span.line
        text = texts[line] if 0 < line <= nlines else ""
        cls = type(event)
        named = card_classes.get(cls)
        if named is None:
            named = card_classes[cls] = ev.names_cards(cls)
        refs = event.cards() if named else ()
        if refs:
            cards = []
            for ref in refs:
                written = ref.name
                known = canonical.get(written)
                if known is None:
                    info = find(written)
                    card = info.id if info else " ".join(written.split())
                    known = canonical[written] = (card, card.translate(_ASCII_LOWER))
                if known[1] not in mentioned:
                    mentioned[known[1]] = known[0]
                cards.append([known[0], written, ref.copy])
            append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                    cards[0][0], substep, event.chain_link, event.timecode, cards])
        else:
            # the fields most often null come last, and trailing nulls are left out
            timecode = event.timecode
            if timecode is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep, event.chain_link, timecode])
            elif event.chain_link is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep, event.chain_link])
            elif substep is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing,
                        None, substep])
            elif timing is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step, timing])
            elif step is not None:
                append([line, span.column, kind, text, turn, turn_player, phase, event.player, step])
            else:
                row = [line, span.column, kind, text, turn, turn_player, phase, event.player]
                while row[-1] is None:
                    row.pop()
                append(row)
    prepared.events_json = _dumps(events)
    # the events are in line order: the first event on a line, by bisection
    event_lines = [row[0] for row in events]
    nevents = len(event_lines)
    prepared.cards = _dumps(list(mentioned.values())) if mentioned else ""
    # line by line (check_match gives them so already): a revision's findings get their ids in
    # this order, and a search lists findings in id order
    for f in sorted(findings, key=_finding_line):
        line = f.span.line
        seq = bisect.bisect_left(event_lines, line)
        if seq < nevents and event_lines[seq] == line:
            row = events[seq]
            if len(row) > _CARDS_AT:
                player, card = row[7], row[10]
                on_line = row[_CARDS_AT]
                cards = _dumps([card] if len(on_line) == 1 else list(dict.fromkeys([c[0] for c in on_line])))
            else:
                player, card, cards = row[7] if len(row) > 7 else None, None, None
        else:
            seq = None
            player, card, cards = _line_player(lines, line), None, None
        prepared.findings.append((
            seq, line, f.span.column, f.severity.value, f.kind.value, f.rule, f.message, f.hint, f.cite,
            player, names.get(player) if player else None, card, cards,
        ))
    for note in match.notes:
        # a trailing note belongs to its line's event, a note on its own line to the next event
        seq = bisect.bisect_left(event_lines, note.line)
        prepared.notes.append((seq if seq < nevents else None, note.line, note.text))
    return prepared


def _finding_line(finding: Any) -> int:
    return finding.span.line


def _tag(header: dict[str, str], key: str) -> str | None:
    value = header.get(key)
    return value.strip() or None if value is not None else None


def _line_player(lines: Sequence[str], line: int) -> str | None:
    if 0 < line <= len(lines):
        m = _LINE_PLAYER.match(lines[line - 1])
        if m:
            return m.group(1).upper()
    return None

