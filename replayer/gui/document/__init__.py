"""A checked log ready for the window: the result, the replay and the lookups the panes need.

Pure Python, built off the GUI thread (see ``gui/window/loader.py``): everything that costs
time for a long log (the replay, the finding positions, the level-of-detail pyramid the timeline
draws when zoomed out) is computed here once. This is what the window's parts are handed (the
State pane's rows come from :mod:`.statetree`); it shows nothing and emits nothing.
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from contextlib import contextmanager
from itertools import compress, count, repeat
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Callable

from ... import events as ev
from ... import games
from ...diagnostics import Finding
from ...check import read_bytes, read_text
from ...reader import Match
from ...check import CheckResult, check_match
from ...states import GameState, Replay, cards_of
from ...store import _line_player
from .statetree import Node, build_tree
from ..shared.language import tr

SEVERITY_RANK = {"info": 1, "warning": 2, "error": 3}
RANK_SEVERITY = {1: "info", 2: "warning", 3: "error"}
LANES = ("A", "M", "B")  # player A, the table (lines with no player), player B

#: event kind -> marker category (the legend's names)
CATEGORY = {
    "summon": "summon", "set": "set", "main": "summon", "attack": "attack", "activate": "activate",
    "trigger": "activate", "declare": "activate", "s-trigger": "activate", "resolve-ability": "resolved",
    "damage": "damage", "lp": "lp", "break": "damage", "atk": "stat", "change": "stat", "flip": "stat",
    "destroy": "destroy", "move": "move", "negate": "negate", "pass": "pass", "draw": "draw",
    "block": "block", "redirect": "block", "tap": "tap", "resolve": "resolve", "battle": "battle",
    "attack-ends": "end", "end-battle-phase": "end", "direct-attack": "win", "win": "win",
    "turn": "structure", "phase": "structure", "step": "structure", "timing": "structure",
}
STRUCTURE = frozenset({"turn", "phase", "step", "timing"})
_AB = frozenset({"A", "B"})
_LANE_OF = {"A": "A", "B": "B"}  # a player -> their lane (anything else: "M")
_PLAYER = attrgetter("player")
_NOTES = attrgetter("notes")
_LINE = attrgetter("span.line")

# flags of the level-of-detail pyramid
F_BATTLE = 1  # inside a Battle Phase (ygo) / an attack (dm)
F_DAMAGE = 2  # inside a Damage Step (ygo)
F_CHAIN = 4  # a chain link
F_NOTE = 8  # the event has a note


@dataclass
class Bins:
    """Aggregates of bins ``b0 .. b0 + len - 1`` of one size (lists indexed from ``b0``)."""

    size: int
    b0: int
    count: dict[str, list[int]]  # lane -> events of that lane in the bin
    flags: list[int]  # F_* bits: something of that kind is in the bin
    turn_a: list[int]  # events of the bin that are in A's turns
    sev: dict[str, dict[int, int]]  # lane -> {bin: worst severity rank} (global bin numbers)


class Pyramid:
    """Level of detail for the zoomed-out timeline: per-bin counts, worst finding and flags.

    Built from one byte per event (lane, flags, turn player), so that a bin's numbers are a
    few C-level ``bytes.count`` / ``bytes.find`` calls; bins are computed only when a view
    asks for them, in chunks, and cached. Opening a long log costs building the bytes only.
    """

    CHUNK = 256

    def __init__(self, n: int, lane: bytes, flag_bytes: dict[int, bytes], turn_a: bytes,
                 sev: dict[str, dict[int, int]]):
        self.n = n
        self.lane = lane
        self.flag_bytes = flag_bytes
        self.turn_a = turn_a
        self._sev0 = sev
        self._sev: dict[int, dict[str, dict[int, int]]] = {1: sev}
        self._chunks: dict[tuple[int, int], tuple] = {}
        self._previous: Pyramid | None = None

    def adopt(self, previous: "Pyramid") -> None:
        """Reuse ``previous``'s computed chunks where their events' bytes are the same (a re-check
        while typing changes a few events: the bins away from the edit need not be counted again)."""
        previous._previous = None  # no chain of old documents kept alive
        self._previous = previous

    def _reusable(self, size: int, first: int, last: int) -> tuple | None:
        prev = self._previous
        if prev is None:
            return None
        hit = prev._chunks.get((size, first // self.CHUNK))
        if hit is None or min(first + self.CHUNK, prev.nbins(size)) != last:
            return None
        s, e = first * size, min(last * size, self.n)
        if min(last * size, prev.n) != e or prev.flag_bytes.keys() != self.flag_bytes.keys():
            return None
        if prev.lane[s:e] != self.lane[s:e] or prev.turn_a[s:e] != self.turn_a[s:e]:
            return None
        for bit, data in self.flag_bytes.items():
            if prev.flag_bytes[bit][s:e] != data[s:e]:
                return None
        return hit

    def nbins(self, size: int) -> int:
        return (self.n + size - 1) // size

    @staticmethod
    def size_for(ppe: float, min_px: float = 1.5) -> int:
        """The smallest power-of-two bin size whose bins are at least ``min_px`` pixels wide."""
        size = 1
        while size * ppe < min_px and size < (1 << 40):
            size *= 2
        return size

    def sev(self, size: int) -> dict[str, dict[int, int]]:
        hit = self._sev.get(size)
        if hit is None:
            shift = size.bit_length() - 1
            hit = {}
            for lane, d in self._sev0.items():
                out: dict[int, int] = {}
                for i, v in d.items():
                    b = i >> shift
                    if v > out.get(b, 0):
                        out[b] = v
                hit[lane] = out
            self._sev[size] = hit
        return hit

    def _chunk(self, size: int, c: int) -> tuple:
        key = (size, c)
        hit = self._chunks.get(key)
        if hit is not None:
            return hit
        n, lane, turn = self.n, self.lane, self.turn_a
        first = c * self.CHUNK
        last = min(first + self.CHUNK, self.nbins(size))
        hit = self._reusable(size, first, last)
        if hit is not None:
            self._chunks[key] = hit
            return hit
        ca, cb, cm, fl, ta = [], [], [], [], []
        flag_items = list(self.flag_bytes.items())
        for b in range(first, last):
            s, e = b * size, min((b + 1) * size, n)
            a_ = lane.count(65, s, e)  # "A"
            b_ = lane.count(66, s, e)  # "B"
            ca.append(a_)
            cb.append(b_)
            cm.append(e - s - a_ - b_)
            f = 0
            for bit, data in flag_items:
                if data.find(1, s, e) != -1:
                    f |= bit
            fl.append(f)
            ta.append(turn.count(1, s, e))
        hit = (ca, cb, cm, fl, ta)
        if len(self._chunks) > 4096:
            self._chunks.clear()
        self._chunks[key] = hit
        return hit

    def flag_runs(self, bit: int, size: int) -> list[tuple[int, int]]:
        """The bins of ``size`` events that hold an event with flag ``bit``, as runs ``(first,
        last)`` of adjacent bins (what :meth:`bins` says of that flag, bin by bin, without
        counting the other aggregates): two ``bytes.find`` calls a run of flagged events, the rest
        of the bin a run ends in skipped (it is flagged already: many short runs in a wide bin,
        as the overview strip's, cost a bin's calls, not a run's)."""
        data = self.flag_bytes.get(bit)
        if data is None:
            return []
        out: list[tuple[int, int]] = []
        find, n = data.find, self.n
        i = find(1)
        while i != -1:
            j = find(0, i)
            if j == -1:
                j = n
            b0, b1 = i // size, (j - 1) // size
            if out and b0 <= out[-1][1] + 1:
                out[-1] = (out[-1][0], b1)
            else:
                out.append((b0, b1))
            nxt = (b1 + 1) * size  # the first event of the next bin (j <= nxt: the run ends in bin b1)
            i = find(1, nxt) if nxt < n else -1
        return out

    def bins(self, size: int, b0: int, b1: int) -> Bins:
        """Aggregates of bins [b0, b1) of ``size`` events."""
        b0 = max(b0, 0)
        b1 = min(b1, self.nbins(size))
        ca, cb, cm, fl, ta = [], [], [], [], []
        if b1 > b0:
            for c in range(b0 // self.CHUNK, (b1 - 1) // self.CHUNK + 1):
                cca, ccb, ccm, cfl, cta = self._chunk(size, c)
                lo = max(b0 - c * self.CHUNK, 0)
                hi = min(b1 - c * self.CHUNK, len(cca))
                ca += cca[lo:hi]
                cb += ccb[lo:hi]
                cm += ccm[lo:hi]
                fl += cfl[lo:hi]
                ta += cta[lo:hi]
        return Bins(size, b0, {"A": ca, "B": cb, "M": cm}, fl, ta, self.sev(size))


@dataclass
class Document:
    """One opened log."""

    path: str
    result: CheckResult
    replay: Replay
    findings: list[Finding]
    finding_event: list[int]  # event index of each finding (the event before it if between events)
    finding_exact: list[bool]  # the finding is on an event's own line
    finding_player: list[str | None]
    event_findings: dict[int, list[int]]  # event index -> findings on its line
    gap_findings: dict[int, list[int]]  # event index -> findings on lines after it (no event there)
    line_findings: dict[int, list[int]]  # line -> findings
    lane: list[str]  # lane of each event
    lane_bytes: bytes  # the same, one byte an event (b"A", b"M", b"B")
    pyramid: Pyramid | None = None
    labels: dict[int, str] = field(default_factory=dict)  # cache of event labels
    states: dict[int, GameState] = field(default_factory=dict)  # cache of state_at (a few)
    trees: dict[int, tuple] = field(default_factory=dict)  # cache of state_tree (a few)
    translated: dict[tuple[str, int], Finding] = field(default_factory=dict)  # cache of finding_in
    labels_in: dict[tuple[str, int], str] = field(default_factory=dict)  # cache of label in another language

    @property
    def match(self) -> Match:
        return self.result.match

    @property
    def events(self) -> list[ev.Event]:
        return self.result.match.events

    @property
    def players(self) -> dict[str, str]:
        return self.match.players

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            out[f.severity.value] += 1
        return out

    def player_counts(self) -> dict[str | None, int]:
        out: dict[str | None, int] = {"A": 0, "B": 0, None: 0}
        for p in self.finding_player:
            out[p] = out.get(p, 0) + 1
        return out

    def first_finding(self) -> int:
        """The finding the window selects when the log is opened: the first of the worst (-1: none)."""
        if not self.findings:
            return -1
        worst = max(SEVERITY_RANK[f.severity.value] for f in self.findings)
        for k, f in enumerate(self.findings):
            if SEVERITY_RANK[f.severity.value] == worst:
                return k
        return 0

    def first_event(self) -> int:
        """The event selected when the log is opened: :meth:`first_finding`'s, else the first
        (-1: none, or the finding is before the first event)."""
        k = self.first_finding()
        if k >= 0:
            return self.finding_event[k]
        return 0 if self.events else -1

    def state_at(self, index: int) -> GameState:
        """The state after event ``index`` (the replay's, kept for the last few events asked:
        the re-check's worker asks for the cursor's before the window selects it)."""
        return _kept(self.states, index, lambda: self.replay.state_at(index))

    def state_tree(self, index: int) -> tuple[list[Node], list[int]]:
        """The State pane's rows of the state after event ``index`` (kept as :meth:`state_at`'s
        state: the re-check's worker builds the cursor's before the window shows it)."""
        return _kept(self.trees, index,
                     lambda: build_tree(self.state_at(index), self.players or {"A": "A", "B": "B"}))

    def finding_in(self, k: int, lang: str) -> Finding:
        """Finding ``k`` with its message, hint and citation in ``lang`` (the log's keywords kept in
        the lines a hint asks for: :meth:`CheckResult.findings_in`)."""
        if lang == "en":
            return self.findings[k]
        f = self.translated.get((lang, k))
        if f is None:
            f = self.translated[(lang, k)] = self.findings[k].in_language(lang, self.result.hint_words)
        return f

    def label(self, index: int, lang: str = "en") -> str:
        """Event ``index``'s label on the timeline, in ``lang`` (:mod:`replayer.gui.shared.labels`)."""
        if lang != "en":
            text = self.labels_in.get((lang, index))
            if text is None:
                from ..shared.labels import event_label_in
                from ..shared.words import word

                game = games.get(self.match.game)
                forms = game.band_forms

                def structure(kind: str, name: str) -> str | None:
                    f = forms.get((kind, name))
                    return word(game.id, f[0]) if f else None

                text = self.labels_in[(lang, index)] = event_label_in(
                    self.events[index], lang, self.replay, index, name=lambda ref: self.card_in(ref, lang),
                    structure=structure)
            return text
        text = self.labels.get(index)
        if text is None:
            text = self.labels[index] = event_label(self.events[index], self.replay, index)
        return text

    def card_in(self, ref: ev.CardRef, lang: str) -> str:
        """A card's name in ``lang`` where the game's card catalog has it, else as the log wrote it."""
        try:
            info = games.get(self.match.game).catalog.find(ref.name)
        except Exception:  # a game this build does not know
            info = None
        name = info.names.get(lang) if info is not None else None
        if not name:
            return ref.label
        return name if ref.copy is None else f"{name}#{ref.copy}"

    def lane_rank(self, i: int) -> int:
        """How many events of the same lane come before event ``i`` (labels alternate rows by it)."""
        return self.lane_bytes.count(self.lane_bytes[i], 0, i)

    def lane_neighbour(self, i: int, step: int, limit: int = 64) -> int:
        """The event ``step`` same-lane events after (``step`` > 0) or before ``i``; -1 / len if none
        within ``limit`` events (then the label has all the room it wants)."""
        lane = self.lane
        n = len(lane)
        own = lane[i]
        direction = 1 if step > 0 else -1
        left = abs(step)
        j = i
        for _ in range(limit):
            j += direction
            if j < 0:
                return -1
            if j >= n:
                return n
            if lane[j] == own:
                left -= 1
                if left == 0:
                    return j
        return -1 if direction < 0 else n

    def lane_neighbours(self, i: int, limit: int = 64) -> tuple[int, int, int, int]:
        """The two same-lane events before ``i`` and the two after it (nearest inner), as
        :meth:`lane_neighbour` gives them one by one, in one scan each way."""
        lane = self.lane
        n = len(lane)
        own = lane[i]
        before = [-1, -1]
        found = 0
        j = i
        for _ in range(limit):
            j -= 1
            if j < 0:
                break
            if lane[j] == own:
                before[found] = j
                found += 1
                if found == 2:
                    break
        after = [n, n]
        found = 0
        j = i
        for _ in range(limit):
            j += 1
            if j >= n:
                break
            if lane[j] == own:
                after[found] = j
                found += 1
                if found == 2:
                    break
        return before[1], before[0], after[0], after[1]

    def source(self, line: int) -> str:
        lines = self.match.lines
        return lines[line - 1] if 1 <= line <= len(lines) else ""


def _kept(cache: dict, key, make: Callable[[], object], most: int = 8):
    """``cache[key]``, made with ``make()`` the first time; the cache holds at most ``most``."""
    hit = cache.get(key)
    if hit is None:
        hit = make()
        if len(cache) >= most:
            cache.clear()
        cache[key] = hit
    return hit


def _short(ref: ev.CardRef) -> str:
    return ref.label


def event_label(e: ev.Event, r: Replay | None = None, index: int = -1) -> str:
    """A short label for the timeline: what happened, in a few words."""
    k = e.kind
    if k == "summon":
        return f"{e.method} summon {_short(e.card)}"
    if k == "set":
        return f"set {_short(e.card)}"
    if k == "main":
        return f"{e.verb} {_short(e.card)}"
    if k == "attack":
        if e.target is None:
            return f"{_short(e.attacker)} → {'direct' if e.target_position == 'direct' else 'player'}"
        return f"{_short(e.attacker)} → {_short(e.target)}"
    if k == "activate":
        link = r.link_of.get(index) if r is not None else None
        prefix = f"CL{link[1]} " if link else ""
        return prefix + _short(e.card)
    if k == "trigger":
        return f"trigger {_short(e.card)}"
    if k == "resolve-ability":
        return f"resolve {_short(e.card)}"
    if k == "declare":
        return f"{e.what.replace('-', ' ')} {_short(e.card)}"
    if k == "s-trigger":
        return "S-Trigger " + ", ".join(_short(c) for c in cards_of(e))
    if k == "damage":
        return f"{e.player or ''} −{e.amount}".strip()
    if k == "lp":
        return f"{e.player or ''} LP {e.value}".strip()
    if k == "break":
        return f"break {e.count}"
    if k == "atk":
        value = f"{e.value:+d}" if e.relative else str(e.value)
        return f"{_short(e.card)} ATK {value}"
    if k == "change":
        return f"{_short(e.card)} → {'ATK' if e.position == 'attack' else 'DEF'}"
    if k == "flip":
        return f"flip {_short(e.card)}"
    if k == "destroy":
        return f"destroy {_short(e.card)}" + (" (battle)" if e.by_battle else "")
    if k == "move":
        where = {"gy": "GY", "banished": "banished", "hand": "hand", "mana": "mana", "shields": "shields"}
        return f"{_short(e.card)} → {where.get(e.to, e.to)}"
    if k == "negate":
        return f"negate {_short(e.card)}"
    if k == "pass":
        return "pass"
    if k == "draw":
        return "draw" if e.count == 1 else f"draw {e.count}"
    if k == "block":
        return ("guardman " if e.guardman else "block: ") + _short(e.card)
    if k == "redirect":
        return f"redirect → {_short(e.target)}"
    if k == "tap":
        return ("tap " if e.tapped else "untap ") + _short(e.card)
    if k == "resolve":
        if r is not None and index in r.resolve_of:
            order = r.chains[r.resolve_of[index]].order
            if len(order) > 1:
                return "resolve " + "→".join(map(str, order))
        return "resolve"
    if k == "battle":
        return f"{_short(e.first)} vs {_short(e.second)}"
    if k == "attack-ends":
        return "attack ends"
    if k == "end-battle-phase":
        return "end Battle Phase"
    if k == "direct-attack":
        return "direct attack"
    if k == "win":
        return "wins"
    if k == "turn":
        return f"turn {e.number} {e.player}"
    if k in ("phase", "step", "timing"):
        return f"{k} {e.name}"
    return k


@contextmanager
def _no_gc(*, age: bool = False):
    """Pause the cyclic garbage collector while building many small objects: its full passes
    over a heap holding 100,000 events cost more than the building itself (nothing built here
    makes reference cycles worth collecting on the way).

    ``age``: what was made meanwhile is kept (the document the window shows): put it in the
    oldest generation at the end, as a full collection would leave it, without walking it. Left
    young, the first young collection after would walk every object made while the collector
    waited (~1 million for a 100,000-line log: 50-150 ms, on whichever thread allocates next, the
    first frame's or the loader's). ``gc.freeze()`` then ``gc.unfreeze()`` moves every tracked
    object to the oldest generation in constant time; not done when something else has frozen
    objects (the unfreeze would let go of them too). A cycle made meanwhile is collected by the
    next full collection, as an old one is."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if age and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def build_document(result: CheckResult, path: str | None = None,
                   progress: Callable[[str, int], None] | None = None) -> Document:
    """Everything the window shows about ``result``."""
    with _no_gc():
        return _build_document(result, path, progress)


def _build_document(result: CheckResult, path: str | None,
                    progress: Callable[[str, int], None] | None) -> Document:
    match = result.match
    r = result.states  # the states of the replay that gave the findings
    if progress:
        progress(tr("Laying out the timeline…"), 85)
    events = match.events
    n = len(events)
    findings = list(result.findings)
    finding_event: list[int] = []
    finding_exact: list[bool] = []
    finding_player: list[str | None] = []
    event_findings: dict[int, list[int]] = {}
    gap_findings: dict[int, list[int]] = {}
    line_findings: dict[int, list[int]] = {}
    for k, f in enumerate(findings):
        line = f.span.line
        line_findings.setdefault(line, []).append(k)
        # the events' lines, in order: a few findings bisected in the events, no list or dict of every line made
        before = bisect_right(events, line, key=_LINE) - 1 if n else -1
        if before >= 0 and events[before].span.line == line:  # the last event on the line, as index_of_line has it
            exact = before
            finding_event.append(exact)
            finding_exact.append(True)
            event_findings.setdefault(exact, []).append(k)
            player = events[exact].player
            finding_player.append(player if player in ("A", "B") else None)
        else:
            finding_event.append(before)
            finding_exact.append(False)
            gap_findings.setdefault(before, []).append(k)
            # a line that could not be read but starts `A:` / `B:` is that player's, as the
            # library's search counts it
            finding_player.append(_line_player(match.lines, line))
    # an event's lane: its player's, "M" for the table's lines and the structure (a turn line has a
    # player); one C-level pass: the structure's classes to "M", the others to their player's lane
    structure = {cls: "M" for cls in set(map(type, events)) if cls.kind in STRUCTURE}
    lane = list(map(structure.get, map(type, events), map(_LANE_OF.get, map(_PLAYER, events), repeat("M"))))
    doc = Document(path or match.path, result, r, findings, finding_event, finding_exact, finding_player,
                   event_findings, gap_findings, line_findings, lane, "".join(lane).encode("ascii"))
    doc.pyramid = build_pyramid(doc)
    return doc


def build_pyramid(doc: Document) -> Pyramid:
    """One byte per event for the level-of-detail pyramid (see :class:`Pyramid`)."""
    events = doc.events
    n = len(events)
    r = doc.replay
    lane = doc.lane_bytes
    battle = bytearray(n)
    damage = bytearray(n)
    chain = bytearray(n)
    note = bytearray(n)
    turn_a = bytearray(n)
    game = games.ALL.get(doc.match.game)
    if game is not None:  # which segments are "in battle" and "in a damage step" is the game's
        for kind in ("phase", "step", "substep", "timing"):
            names, starts, ends = r.spans(kind)  # (in order of their starts)
            for marks, out in ((game.in_battle, battle), (game.in_damage_step, damage)):
                said = {name: bool(marks(kind, name)) for name in set(names)}  # a kind's few names, each asked once
                if not any(said.values()):
                    continue
                first = last = -1  # the run of marked segments that meet or overlap: one write a run
                for start, end in compress(zip(starts, ends), map(said.__getitem__, names)):
                    if start <= last:
                        if end > last:
                            last = end
                    else:
                        if last > first:
                            out[first:last] = b"\x01" * (last - first)
                        first, last = start, end
                if last > first:
                    out[first:last] = b"\x01" * (last - first)
    for i in r.link_of:
        chain[i] = 1
    for i in compress(count(), map(_NOTES, events)):
        note[i] = 1
    for seg in r.turns:
        if seg.player == "A":
            turn_a[seg.start:seg.end] = b"\x01" * (seg.end - seg.start)
    sev: dict[str, dict[int, int]] = {l: {} for l in LANES}
    for i, ks in list(doc.event_findings.items()) + list(doc.gap_findings.items()):
        if i < 0:
            continue
        l = doc.lane[i] if i in doc.event_findings else "M"
        worst = max(SEVERITY_RANK[doc.findings[k].severity.value] for k in ks)
        if worst > sev[l].get(i, 0):
            sev[l][i] = worst
    flags = {F_BATTLE: bytes(battle), F_DAMAGE: bytes(damage), F_CHAIN: bytes(chain), F_NOTE: bytes(note)}
    return Pyramid(n, lane, flags, bytes(turn_a), sev)


def load_document(path: str, data: bytes | None = None,
                  progress: Callable[[str, int], None] | None = None, *, first: bool = False) -> Document:
    """Read, check and lay out a log file (or its bytes). Raises UnreadableFile if it can't be read.

    ``first``: also make the State pane's rows of :meth:`Document.first_event` (what the window
    shows first of a log it opens), here on the loader's thread rather than on the GUI thread."""
    from ...check import read_log

    # the collector waits for the whole load (as `replayer check` has it for a file: the reader's and
    # the model's objects are no cycles), and what the document keeps is aged at the end (see _no_gc)
    with _no_gc(age=True):
        if progress:
            progress(tr("Reading the log…"), 5)
        match = read_bytes(data, path) if data is not None else read_log(path)
        if progress:
            progress(tr("Checking the rules…"), 55)
        result = check_match(match)
        if progress:
            progress(tr("Replaying the events…"), 75)
        doc = build_document(result, path, progress)
        if first and doc.first_event() >= 0:
            doc.state_tree(doc.first_event())
    return doc


def document_from_text(text: str, path: str = "<log>") -> Document:
    return build_document(check_match(read_text(text, path)), path)
