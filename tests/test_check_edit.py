"""The incremental re-check (check.check_edit, what the editor runs as you type) gives exactly what
a full check of the final text gives: random edits typed into logs of both games, each compared
with ``read_text`` / ``check_text`` of the text as it is then."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replayer import replay as replay_mod
from replayer import states as states_mod
from replayer.check import check_edit, check_text, read_edit
from replayer.check import read_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
LOGS = sorted(SAMPLES.glob("ygo/*.duel")) + sorted(SAMPLES.glob("dm/*.duel"))

#: bits of lines a transcriber types (good and bad), in both games and all three languages
SNIPPETS = [
    "A: draw", "B: pass", "resolve", "phase battle", "phase main2", "phase end", "step damage",
    "timing calc", "timing before-calc", "B: damage 500", "A: lp 7500", "  # a note", "# only a note",
    "@1:23 A: draw", "@2:05", "turn 9 B", "A: attack \"Kuriboh\" -> \"Blue-Eyes White Dragon\"",
    'A: activate "Honest" from hand  # Honest', 'B: normal summon "Kuriboh" 300/200 {effect}',
    'A: set "Trap Card"#2 {normal-trap}', "A: destroy \"Kuriboh\"", "x", "A: atk \"Kuriboh\" +500",
    "ターン 3 A", "A: ドロー", "Phase Kampf", "A: attack", "B: block \"Bolshack Dragon\"", "A: break 2",
    'A: summon "Aqua Hulcus"', "end battle phase", "\"unclosed", "{", "", "   ",
]


def _edit(rng: random.Random, text: str, header: int) -> str:
    """One edit: mostly below the ``header`` first lines (where transcribing happens), now and then
    anywhere."""
    lines = text.split("\n")
    n = len(lines)
    lo = 0 if rng.random() < 0.08 or header >= n else header
    i = rng.randrange(lo, n)
    what = rng.random()
    if what < 0.25:  # type or delete a character in a line
        line = lines[i]
        c = rng.randrange(len(line) + 1)
        if line and rng.random() < 0.5:
            lines[i] = line[:max(c - 1, 0)] + line[c:]
        else:
            lines[i] = line[:c] + rng.choice("xA 1\"#{}:@>") + line[c:]
    elif what < 0.45:  # a new line
        lines.insert(i, rng.choice(SNIPPETS))
    elif what < 0.6:  # a line removed
        if n > 1:
            del lines[i]
    elif what < 0.75:  # a line replaced
        lines[i] = rng.choice(SNIPPETS)
    elif what < 0.85:  # a line of the log copied elsewhere
        lines.insert(i, lines[rng.randrange(lo, n)])
    elif what < 0.92:  # a block pasted / cut
        j = min(n, i + rng.randint(1, 6))
        if rng.random() < 0.5:
            lines[i:i] = lines[rng.randrange(lo, n):][:6]
        else:
            del lines[i:j]
    else:  # a note typed at the end of a line
        lines[i] += "  # seen on the video"
    return "\n".join(lines)


def _same_match(a, b) -> None:
    assert a.game == b.game and a.rules == b.rules and a.header == b.header
    assert a.header_lines == b.header_lines
    assert a.lines == b.lines
    assert a.events == b.events
    assert a.notes == b.notes
    assert a.findings == b.findings


def _same_outline(a, b) -> None:
    """The recorded states: positions, segments, chains (a replay restarted part-way included)."""
    assert a.changes() == b.changes()
    assert a._positions_of(0, len(a.events)) == list(b.positions())
    for kind in ("turns", "phases", "steps", "timings", "substeps", "chains", "link_of", "resolve_of"):
        assert getattr(a, kind) == getattr(b, kind), kind


@pytest.fixture
def restarts(monkeypatch) -> dict[str, int]:
    """How many times the rules model and the states' recording started from a restart."""
    count = {"model": 0, "states": 0}

    def counted(cls, key):
        load = cls.load

        def wrapper(self, restart):
            count[key] += 1
            return load(self, restart)
        monkeypatch.setattr(cls, "load", wrapper)

    counted(replay_mod.Model, "model")
    counted(states_mod.Replay, "states")
    return count


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_random_edits_give_the_full_check(log: Path, restarts) -> None:
    rng = random.Random(log.name)
    text = log.read_text(encoding="utf-8-sig")
    header = max(i for i, line in enumerate(text.split("\n")) if line.lstrip().startswith("[")) + 1
    result, change = check_edit(None, text, str(log))
    assert change.full
    incremental = 0
    for _ in range(60):
        text = _edit(rng, text, header)
        result, change = check_edit(result, text, str(log))
        full = check_text(text, str(log))
        _same_match(result.match, full.match)
        assert result.findings == full.findings, change
        n = len(full.match.events)
        for i in {0, change.first_event - 1, change.first_event, n // 2, n - 1}:
            if 0 <= i < n:
                assert result.states.state_at(i) == full.states.state_at(i), (i, change)
        _same_outline(result.states, full.states)
        incremental += not change.full
    assert incremental >= 20  # most edits were below the header: read again in part
    assert restarts["model"] >= 5 and restarts["states"] >= 5  # and replayed from a restart


@pytest.mark.parametrize("log", LOGS[::3], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_typing_a_line_replays_from_the_restart(log: Path, restarts) -> None:
    """Typing as a transcriber does: one character after another on one line, and Backspace; every
    key after the first starts both replays from the restart kept at the line, and gives the
    full check's findings and states."""
    text = log.read_text(encoding="utf-8-sig")
    lines = text.split("\n")
    result, _ = check_edit(None, text, str(log))
    result.states.record_all()
    at = max(len(lines) * 2 // 3, 1)
    typed = 'B: activate "Kuriboh" from hand'
    keys = [typed[:k] for k in range(1, len(typed) + 1)] + [typed[:k] for k in range(len(typed) - 1, -1, -1)]
    for k, line in enumerate(keys):
        edited = "\n".join(lines[:at] + [line] + lines[at:])
        result, change = check_edit(result, edited, str(log))
        full = check_text(edited, str(log))
        assert result.findings == full.findings, (k, line)
        _same_outline(result.states, full.states)
        for i in (change.first_event - 1, change.first_event, len(full.match.events) - 1):
            if 0 <= i < len(full.match.events):
                assert result.states.state_at(i) == full.states.state_at(i), (i, line)
    if result.match.events and change.first_event > 0:
        assert restarts["model"] >= len(keys) - 2 and restarts["states"] >= len(keys) - 2


def test_long_log_edit_reads_only_the_changed_lines(monkeypatch) -> None:
    body = ['[Game "ygo"]', '[A "Yuki"]', ""] + [f"turn {t} {'AB'[t % 2]}\nA: draw\nphase end" for t in range(1, 300)]
    text = "\n".join(body) + "\n"
    first, _ = read_edit(None, text)
    lines = text.split("\n")
    lines[450] += "  # a note"
    lines.insert(451, "A: draw")
    edited = "\n".join(lines)
    match, change = read_edit(first, edited)
    assert not change.full and change.first_line <= 451 and change.new_lines <= 4
    assert match.events[:change.first_event] == first.events[:change.first_event]
    assert match.events[0] is first.events[0]  # the same objects, not read again
    _same_match(match, read_text(edited))


def test_header_edits_read_everything_again() -> None:
    text = '[Game "ygo"]\n[LP "8000"]\nturn 1 A\nB: damage 500\nB: lp 7500\n'
    first, _ = check_edit(None, text)
    for edited in (text.replace("8000", "4000"), text.replace("ygo", "dm"), text + '[A "late"]\n',
                   text.replace("turn 1 A\n", "")):
        result, change = check_edit(first, edited)
        assert change.full
        assert result.findings == check_text(edited).findings
