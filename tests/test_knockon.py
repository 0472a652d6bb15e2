"""A line that could not be read makes no knock-on error later in its turn (issue 14, point 7)."""

from __future__ import annotations

from replayer import check_text

LOG = """[Game "ygo"]
turn 3 A
phase battle
A: atack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing before-calc
A: activate "Honest" from hand
resolve
"""


def test_a_finding_after_an_unreadable_line_of_its_turn_is_an_info_that_says_so():
    findings = check_text(LOG).findings
    assert [(f.line, f.rule, f.severity.value) for f in findings] == [
        (4, "syntax.line", "error"), (5, "ygo.ds.no-attack", "info")]
    assert "line 4 before it" in findings[1].message and "could not be read" in findings[1].message


def test_the_same_log_read_whole_has_no_such_finding():
    fixed = LOG.replace("atack", "attack")
    assert [f.rule for f in check_text(fixed).findings if f.severity.value == "error"] == []


def test_an_unreadable_line_in_an_earlier_turn_softens_nothing():
    log = ('[Game "ygo"]\nturn 2 B\nB: drwa\nturn 3 A\nphase battle\nstep damage\ntiming before-calc\n'
           'A: activate "Honest" from hand\nresolve\n')
    findings = [(f.line, f.rule, f.severity.value) for f in check_text(log).findings]
    assert (3, "syntax.line", "error") in findings
    assert (6, "ygo.ds.no-attack", "error") in findings
