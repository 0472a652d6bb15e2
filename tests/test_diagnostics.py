"""replayer/diagnostics.py: findings as data, the rule registry, and how findings are rendered."""

from __future__ import annotations

import json

import pytest

from replayer import diagnostics as dg
from replayer.diagnostics import (RULES, Finding, Kind, Severity, Span, define, make_finding, register,
                                  render_json, render_text, sort_findings)


@pytest.fixture
def scratch_rules():
    """Rule ids registered by a test are removed afterwards: the registry is global."""
    before = dict(RULES)
    yield
    RULES.clear()
    RULES.update(before)


# ---- the registry ------------------------------------------------------------------------------
def test_define_registers_an_error_and_returns_the_id(scratch_rules):
    rid = define("test.diag.one", Kind.STATE, "a title", "Some rulebook § 1")
    assert rid == "test.diag.one"
    rule = RULES[rid]
    assert (rule.kind, rule.severity, rule.title, rule.cite) == (Kind.STATE, Severity.ERROR, "a title",
                                                                 "Some rulebook § 1")


def test_define_takes_kind_and_severity_as_words(scratch_rules):
    define("test.diag.two", "ordering", "t", "c", "warning")
    assert RULES["test.diag.two"].kind is Kind.ORDERING
    assert RULES["test.diag.two"].severity is Severity.WARNING


def test_registering_the_same_rule_twice_is_harmless_but_different_data_is_refused(scratch_rules):
    define("test.diag.three", Kind.STATE, "t", "c")
    define("test.diag.three", Kind.STATE, "t", "c")  # a module imported twice
    with pytest.raises(ValueError, match="test.diag.three"):
        define("test.diag.three", Kind.STATE, "another title", "c")
    assert RULES["test.diag.three"].title == "t"


def test_an_unknown_kind_or_severity_is_refused(scratch_rules):
    with pytest.raises(ValueError):
        register("test.diag.bad", "no-such-kind", "error", "t")
    with pytest.raises(ValueError):
        register("test.diag.bad", "state", "fatal", "t")
    assert "test.diag.bad" not in RULES


def test_the_readers_own_rules_are_registered_by_diagnostics_itself():
    for rid in ("syntax.line", "syntax.header", "syntax.header-late", "syntax.property", "syntax.encoding",
                "syntax.empty", "file.unreadable"):
        assert RULES[rid].kind is Kind.SYNTAX, rid
    assert RULES["card.unknown"].kind is Kind.UNKNOWN_CARD
    assert RULES["card.unknown"].severity is Severity.WARNING
    assert RULES["syntax.header-late"].severity is Severity.WARNING
    assert RULES["syntax.line"].severity is Severity.ERROR


# ---- findings ----------------------------------------------------------------------------------
def test_make_finding_takes_kind_severity_and_cite_from_the_registry(scratch_rules):
    define("test.diag.f", Kind.WRONG_TIMING, "t", "The rulebook § 7", Severity.WARNING)
    f = make_finding("test.diag.f", Span(3, 5, 3, 9), "the message", "the hint", related=[Span(1)])
    assert f == Finding(Severity.WARNING, Kind.WRONG_TIMING, "test.diag.f", Span(3, 5, 3, 9), "the message",
                        "the hint", "The rulebook § 7", (Span(1),))
    assert f.line == 3
    # a caller may raise or lower one finding's severity, never its kind or citation
    assert make_finding("test.diag.f", Span(1), "m", severity=Severity.INFO).severity is Severity.INFO


def test_make_finding_of_an_unregistered_rule_is_a_bug_not_a_finding():
    with pytest.raises(KeyError):
        make_finding("test.diag.never-registered", Span(1), "m")


def test_to_dict_is_the_json_shape_of_the_notation():
    f = make_finding("syntax.line", Span(4, 2, 4, 8), "unexpected `x`", "did you mean `y`?")
    assert f.to_dict() == {
        "severity": "error", "kind": "syntax", "rule": "syntax.line", "line": 4, "column": 2,
        "message": "unexpected `x`", "hint": "did you mean `y`?", "cite": "replayer log notation v1 §3-§5",
    }


def test_findings_sort_by_line_then_column_then_rule():
    a = make_finding("syntax.line", Span(2, 9), "a")
    b = make_finding("syntax.header", Span(2, 9), "b")
    c = make_finding("syntax.line", Span(2, 1), "c")
    d = make_finding("syntax.empty", Span(1, 30), "d")
    assert [f.message for f in sort_findings([a, b, c, d])] == ["d", "c", "b", "a"]


# ---- text rendering ----------------------------------------------------------------------------
LINES = ['[Game "ygo"]', 'A: activate "Honest" from hand']


def test_text_rendering_is_location_message_source_caret_hint_cite():
    f = make_finding("syntax.property", Span(2, 13, 2, 21), "the message", "the hint")
    assert render_text("x.duel", [f], LINES) == "\n".join([
        "x.duel:2:13: warning[syntax.property]: the message",
        '  A: activate "Honest" from hand',
        "              ^~~~~~~~",  # under "Honest": columns 13 to 20
        "  = hint: the hint",
        "  = cite: replayer log notation v1 §6",
    ])


def test_no_hint_line_without_a_hint_and_one_caret_without_an_end():
    f = make_finding("syntax.line", Span(2, 4), "m")
    out = render_text("x.duel", [f], LINES).splitlines()
    assert out[2] == "     ^"
    assert not any(line.startswith("  = hint") for line in out)
    assert out[-1] == "  = cite: replayer log notation v1 §3-§5"


def test_the_caret_stops_at_the_end_of_the_line():
    f = make_finding("syntax.line", Span(2, 29, 2, 80), "m")
    assert render_text("x.duel", [f], LINES).splitlines()[2] == "  " + " " * 28 + "^~"


def test_a_span_over_several_lines_gets_one_caret():
    f = make_finding("syntax.line", Span(2, 4, 3, 2), "m")
    assert render_text("x.duel", [f], LINES).splitlines()[2] == "     ^"


def test_tabs_are_kept_and_wide_characters_take_two_columns():
    lines = ["\tA: 発動 《オネスト》"]
    f = make_finding("syntax.line", Span(1, 8), "m")
    # tab, "A: " (3), "発動" (2 wide), " " (1): the caret is under 《, as wide as it
    assert render_text("x.duel", [f], lines).splitlines()[2] == "  \t" + " " * 3 + " " * 4 + " " + "^~"  # (《 is two columns wide: the run covers both)


def test_a_finding_outside_the_file_has_no_source_line():
    f = make_finding("file.unreadable", Span(1, 1), "cannot read")
    assert render_text("gone.duel", [f], []).splitlines() == [
        "gone.duel:1:1: error[file.unreadable]: cannot read", "  = cite: replayer log notation v1 §1"]


def test_colour_only_when_asked():
    f = make_finding("syntax.line", Span(2, 1), "m", "h")
    plain = render_text("x.duel", [f], LINES)
    coloured = render_text("x.duel", [f], LINES, colour=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31merror[syntax.line]" in coloured  # errors in red
    assert dg._RESET in coloured
    warning = make_finding("syntax.header-late", Span(2, 1), "m")
    assert "\x1b[1;33mwarning[syntax.header-late]" in render_text("x.duel", [warning], LINES, colour=True)


def test_findings_are_rendered_in_the_order_given():
    first = make_finding("syntax.line", Span(2, 1), "second line")
    second = make_finding("syntax.header", Span(1, 1), "first line")
    out = render_text("x.duel", [first, second], LINES)
    assert out.index("second line") < out.index("first line")


# ---- JSON rendering ----------------------------------------------------------------------------
def test_json_is_one_line_and_keeps_non_ascii_text():
    text = render_json({"file": "日本語.duel", "findings": [make_finding("syntax.line", Span(1), "「x」").to_dict()]})
    assert "\n" not in text
    assert "日本語.duel" in text and "「x」" in text
    assert json.loads(text)["findings"][0]["rule"] == "syntax.line"


def test_carets_are_as_wide_as_the_token_shows_and_a_syntax_error_underlines_its_token():
    """Issue 23 (9): under 《オネスト》 (12 columns) the run was 6 long; a syntax error had a single ^."""
    from replayer import check_text
    from replayer.diagnostics import render_text
    from replayer.textwidth import width

    text = ('[Game "ygo"]\nturn 3 A\nphase battle\nA: attack "Lyla, Lightsworn Sorceress" 1700/200 -> '
            '"Blue-Eyes White Dragon" 3000/2500\nstep damage\ntiming calc\nA: 発動 《オネスト》 手札から\n'
            'A: frobnicate "Pot"\nA: 発動 《オネスト》 手札から zzz\n')
    result = check_text(text)
    out = render_text("m.duel", result.findings, result.match.lines).splitlines()

    def under(source: str) -> tuple[int, int]:
        i = out.index("  " + source)
        caret = out[i + 1]
        return width(caret[: caret.index("^")]), len(caret.strip())

    assert under("A: 発動 《オネスト》 手札から") == (2 + width("A: 発動 "), width("《オネスト》")) == (10, 12)
    assert under('A: frobnicate "Pot"') == (2 + len("A: "), len("frobnicate"))
    assert under("A: 発動 《オネスト》 手札から zzz") == (2 + width("A: 発動 《オネスト》 手札から "), 3)
    syntax = [f for f in result.findings if f.rule == "syntax.line"]
    assert [(f.span.column, f.span.end_column) for f in syntax] == [(4, 14), (19, 22)]
