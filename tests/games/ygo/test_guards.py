"""The Yu-Gi-Oh! restrictions are guard rows: each names a registered rule, is printed by
`replayer rules ygo` in the order it is applied, and decides the verdict of its scenario."""

from __future__ import annotations

from click.testing import CliRunner

from replayer import check_text
from replayer.cli import cli
from replayer.diagnostics import RULES
from replayer.games.ygo.model import ACTIVATION_GUARDS, DS_RESTRICTIONS

HEAD = '[Game "ygo"]\n[A "Yuki"]\n[B "Kaiba"]\n\nturn 3 A\nphase battle\n'
ATTACK = 'A: attack "Lyla" 1700/200 {effect-monster} -> "Blue-Eyes White Dragon" 3000/2500 {normal-monster}\n'


def rules_of(text: str) -> list[tuple[int, str]]:
    return [(f.span.line, f.rule) for f in check_text(HEAD + text).findings if f.severity.value == "error"]


def test_every_guard_names_a_registered_rule_and_has_a_unique_name():
    for table in (DS_RESTRICTIONS, ACTIVATION_GUARDS):
        assert len({g.name for g in table}) == len(table)
        for g in table:
            assert g.rule in RULES, g.rule
            assert g.on in ("card", "target", "cost", "before-cost")


def test_rules_ygo_prints_the_guards_in_the_order_they_are_applied():
    out = CliRunner().invoke(cli, ["rules", "ygo"]).output
    positions = [out.index(f"  {g.name}: {g.rule}") for g in DS_RESTRICTIONS]
    assert positions == sorted(positions)
    positions = [out.index(f"  {g.name} ({g.on}): {g.rule}") for g in ACTIVATION_GUARDS]
    assert positions == sorted(positions)


def test_the_first_restriction_decides_no_ds_before_a_named_timing():
    # both rows apply (an effect that says "not in the Damage Step" and names ds-end); the first decides
    log = ATTACK + "step damage\ntiming ds-start\nB: activate \"Odd Card\" {quick-play, no-ds, timing:ds-end}\n"
    assert rules_of(log) == [(10, "ygo.ds.no-ds")]


def test_a_named_timing_forbids_what_a_clause_would_allow():
    # a Counter Trap is allowed at every timing, but one that names ds-end only there
    log = ATTACK + "step damage\ntiming ds-start\nB: activate \"Odd Counter\" {counter-trap, timing:ds-end}\n"
    assert rules_of(log) == [(10, "ygo.ds.named-timing")]
    log = ATTACK + "step damage\ntiming ds-start\ntiming before-calc\ntiming calc\ntiming after-calc\n" \
                   "timing ds-end\nB: activate \"Odd Counter\" {counter-trap, timing:ds-end}\n"
    assert rules_of(log) == []
