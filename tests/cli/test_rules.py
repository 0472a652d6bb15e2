"""`replayer rules ygo`: every column as wide as its cells, and --format json (issue 14, point 11)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from replayer.cli import cli


def test_the_table_columns_line_up_with_their_header():
    out = CliRunner().invoke(cli, ["rules", "ygo"]).output.splitlines()
    head_i = next(i for i, line in enumerate(out) if line.startswith("effect class"))
    head = out[head_i]
    starts = [m.start() for m in re.finditer(r"\S+(?: \S+)*", head)][1:]  # the timings' columns
    assert len(starts) == 5
    rows = []
    for line in out[head_i + 2:]:
        if not line.strip():
            break
        rows.append(line)
    assert len(rows) >= 8
    for row in rows:
        for start in starts:  # each cell begins at its column, after a space: nothing runs over
            assert row[start - 1] == " " and row[start] != " ", (row, start)
    assert any("named, once" in r for r in rows)
    assert "once named" not in "\n".join(rows)  # the overflow of the issue


def test_the_table_as_json():
    result = CliRunner().invoke(cli, ["rules", "ygo", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    atk = next(r for r in data["rows"] if r["class"] == "atk-mod")
    assert atk["cells"] == {"ds-start": "yes", "before-calc": "yes", "calc": "-", "after-calc": "-", "ds-end": "-"}
    assert atk["cite"]
    dm = json.loads(CliRunner().invoke(cli, ["rules", "dm", "--format", "json"]).output)
    assert dm["game"] == "dm" and "Declaration" in dm["text"]
