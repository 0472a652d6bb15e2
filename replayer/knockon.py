"""Findings that may be knock-on effects of a line that could not be read.

A line that does not parse is a ``syntax`` finding and is otherwise skipped; what it said is
unknown. A rules error later in the same turn may then follow from the missing line alone (a
mistyped attack declaration makes every Damage Step line after it look like it has no attack),
so by the principle of no false errors such a finding is not an error: it becomes an ``info``
that says which line before it could not be read. The rule id is kept, so a reader can still
see what the replay found.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace

from . import events as ev
from .diagnostics import Finding, Severity
from .i18n import M


def soften_after_unread(events: list[ev.Event], syntax: list[Finding], rules: list[Finding]) -> list[Finding]:
    """``rules`` with each error that follows an unreadable line of its turn made an info."""
    unread = sorted({f.line for f in syntax if f.rule == "syntax.line"})
    if not unread:
        return rules
    turns = sorted(e.span.line for e in events if isinstance(e, ev.Turn) and e.span is not None)
    out = []
    for f in rules:
        if f.severity is Severity.ERROR:
            t = bisect_right(turns, f.line) - 1
            turn_start = turns[t] if t >= 0 else 0
            i = bisect_left(unread, f.line) - 1  # the nearest unreadable line before the finding's
            if i >= 0 and unread[i] > turn_start:
                said = M("{message} (not counted as an error: line {line} before it, in the same turn, could not "
                         "be read, and what it said may account for this)", message=f.text or f.message, line=unread[i])
                f = replace(f, severity=Severity.INFO, message=said.render("en"), text=said)
        out.append(f)
    return out
