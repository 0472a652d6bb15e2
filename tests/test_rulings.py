"""The rulings as tests: every scenario log under samples/*/rulings gives exactly its expected findings.

A scenario states what it expects as a trailing note on the line at fault::

    A: activate "Honest" from hand   # expect: illegal-activation ygo.ds.atk-mod-after-calc

A scenario with no ``expect:`` note must give no error and no warning at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replayer import RULES, check

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "samples").glob("*/rulings/*.duel"))
EXPECT = re.compile(r"expect:\s*([a-z-]+)\s+([\w.-]+)")


def expected_findings(path: Path) -> set[tuple[int, str, str]]:
    result = check(path)
    return {(note.line, kind, rule) for note in result.match.notes for kind, rule in EXPECT.findall(note.text)}


def actual_findings(path: Path) -> set[tuple[int, str, str]]:
    return {(f.line, f.kind.value, f.rule) for f in check(path).findings if f.severity.value in ("error", "warning")}


def test_there_are_scenarios_for_both_games():
    games = {p.parent.parent.name for p in SCENARIOS}
    assert games == {"ygo", "dm"}
    assert sum(p.parent.parent.name == "ygo" for p in SCENARIOS) >= 40
    assert sum(p.parent.parent.name == "dm" for p in SCENARIOS) >= 25


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario_gives_exactly_its_expected_findings(path: Path):
    expected = expected_findings(path)
    actual = actual_findings(path)
    assert sorted(actual) == sorted(expected)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_expected_rule_ids_are_registered(path: Path):
    for _, kind, rule in expected_findings(path):
        assert rule in RULES, f"{rule} is not in the rule registry"
        assert RULES[rule].kind.value == kind, f"{rule} is registered as {RULES[rule].kind.value}, not {kind}"


def test_every_game_rule_is_triggered_by_a_scenario():
    # the rule registry is complete once replayer is imported
    triggered = set()
    for path in SCENARIOS:
        triggered |= {rule for _, _, rule in expected_findings(path)}
        # info findings (what could not be decided) are not written as expectations
        triggered |= {f.rule for f in check(path).findings if f.severity.value == "info"}
    game_rules = {r for r in RULES if r.startswith(("ygo.", "dm."))}
    assert game_rules, "no game rules registered"
    assert sorted(game_rules - triggered) == []
