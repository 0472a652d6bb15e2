"""Verdicts: the sidecar store, matching findings after edits, and swapping the store."""

from __future__ import annotations

import json

import pytest

from replayer.diagnostics import Finding, Kind, Severity, Span
from replayer import reviews as rv
from replayer.reviews import CONFIRMED, DISMISSED, Entry, Reviews, ReviewStoreError, SidecarStore, sidecar_path


def finding(line: int, rule: str = "ygo.lp.mismatch", message: str = "LP do not add up") -> Finding:
    return Finding(Severity.ERROR, Kind.STATE, rule, Span(line), message)


def test_sidecar_round_trip(tmp_path):
    log = tmp_path / "m.duel"
    lines = ["turn 1 A", "B: damage 500", "B: lp 7400"]
    log.write_text("\n".join(lines), encoding="utf-8")
    r = Reviews.open(str(log), lines)
    r.set(finding(3), CONFIRMED, "  checked on the video  ")
    path = sidecar_path(log)
    assert path.name == "m.duel.review.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["reviews"][0]["source"] == "B: lp 7400"
    again = Reviews.open(str(log), lines).get(finding(3))
    assert (again.status, again.note) == (CONFIRMED, "checked on the video")
    assert again.updated


def test_verdict_follows_its_line_when_lines_move(tmp_path):
    log = tmp_path / "m.duel"
    lines = ["turn 1 A", "B: damage 500", "B: lp 7400"]
    Reviews(str(log), lines).set(finding(3), DISMISSED, "typo in the transcript")
    moved = ["# a note added at the top", "turn 1 A", "B: damage 500", "B: lp 7400"]
    r = Reviews.open(str(log), moved)
    assert r.get(finding(4)).status == DISMISSED
    assert r.get(finding(3)).status is None
    assert r.orphans([finding(4)]) == []
    assert len(r.orphans([])) == 1  # kept, not dropped, while its finding is gone


def test_clearing_every_verdict_removes_the_sidecar(tmp_path):
    log = tmp_path / "m.duel"
    r = Reviews(str(log), ["x"])
    r.set(finding(1), CONFIRMED)
    assert sidecar_path(log).exists()
    r.set(finding(1), None, "")
    assert not sidecar_path(log).exists()


def test_a_broken_sidecar_is_reported_not_overwritten(tmp_path):
    log = tmp_path / "m.duel"
    sidecar_path(log).write_text("{not json", encoding="utf-8")
    with pytest.raises(ReviewStoreError):
        Reviews.open(str(log), [])
    assert sidecar_path(log).read_text(encoding="utf-8") == "{not json"


def test_unknown_verdict_is_misuse(tmp_path):
    with pytest.raises(ValueError):
        Reviews(str(tmp_path / "m.duel"), []).set(finding(1), "maybe")


class MemoryStore:
    """What the match library will do: keep verdicts somewhere else."""

    def __init__(self):
        self.saved: dict[str, list[Entry]] = {}

    def load(self, log_path):
        return list(self.saved.get(log_path, []))

    def save(self, log_path, entries):
        self.saved[log_path] = list(entries)


def test_the_store_can_be_replaced(tmp_path):
    store = MemoryStore()
    old = rv.set_store(store)
    try:
        log = str(tmp_path / "m.duel")
        Reviews.open(log, ["a"]).set(finding(1), CONFIRMED, "n")
        assert store.saved[log][0].verdict.note == "n"
        assert not sidecar_path(log).exists()
        assert Reviews.open(log, ["a"]).get(finding(1)).status == CONFIRMED
    finally:
        rv.set_store(old)
    assert isinstance(rv.store(), SidecarStore)
