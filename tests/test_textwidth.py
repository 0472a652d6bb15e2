"""Terminal tables and padding by display width (issue 23, point 8): Japanese names take two columns
a character, and the columns of `stats`, `search`, `rules`, `cards` and `doctor` line up under them."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from replayer.cli import cli
from replayer.textwidth import ljust, rjust, table, width


def expand(line: str) -> str:
    """The line as the terminal lays it out: a wide character is followed by a filler cell."""
    return "".join(c + "\0" * (width(c) - 1) for c in line)


def starts(line: str) -> list[int]:
    """The display columns at which the cells of a table line start (after two or more spaces)."""
    cells, out, prev = expand(line), [], 0
    for i, c in enumerate(cells):
        if c not in " \0" and (i == 0 or cells[i - 1] == " ") and (i < 2 or cells[i - 2:i] == "  " or i == prev):
            out.append(i)
    return out


def test_widths():
    assert [width(s) for s in ("全日本選手権", "全国大会 予選", "カイト", "十代", "Kaiba", "ｵﾈｽﾄ", "é", "e\u0301")] == \
        [12, 13, 6, 4, 5, 4, 1, 1]
    assert ljust("十代", 6) == "十代  " and rjust("十代", 6) == "  十代"
    lines = table([["event", "n"], ["全日本選手権", "2"], ["Locals", "10"]], numeric=[False, True]).splitlines()
    assert [width(line) for line in lines] == [16, 16, 16]
    assert [len(expand(line).rstrip()) for line in lines] == [16, 16, 16]  # the numbers end together


LOGS = {
    "a.duel": '[Game "ygo"]\n[A "十代"]\n[B "Kaiba"]\n[Event "全日本選手権"]\n[Date "2024-01-10"]\n'
              'turn 1 A\nA: frobnicate\n',
    "b.duel": '[Game "dm"]\n[A "カイト"]\n[B "Rin"]\n[Event "全国大会 予選"]\n[Table "12"]\n'
              'turn 1 A\nA: frobnicate\nB: frobnicate\n',
    "c.duel": '[Game "ygo"]\n[A "Yuki"]\n[B "Kaiba"]\n[Event "Locals Berlin"]\nturn 1 A\nA: frobnicate\n',
}


@pytest.fixture
def library(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    for name, text in LOGS.items():
        (tmp_path / "logs" / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "logs", "--db", "lib.db"])
    assert result.exit_code == 0, result.output
    return tmp_path / "lib.db"


def _tables(text: str) -> list[list[str]]:
    """The indented blocks of a command's text output (a table each)."""
    blocks, cur = [], []
    for line in text.splitlines():
        if line.startswith("  ") and not line.startswith("  …"):
            cur.append(line)
        else:
            if cur:
                blocks.append(cur)
            cur = []
    return blocks + ([cur] if cur else [])


def test_stats_tables_line_up_under_japanese_names(library):
    out = CliRunner().invoke(cli, ["stats", "--db", "lib.db"]).output
    assert "全日本選手権" in out and "カイト" in out and "十代" in out
    tables = _tables(out)
    assert len(tables) >= 3
    for block in tables:
        head = block[0]
        widths = {width(line) for line in block}
        # each row's last cell (a number, right-aligned) ends at the heading's last column
        assert widths == {width(head)}, block
        for line in block[1:]:  # and every column of the heading starts a cell in every row (or is blank there)
            cells = expand(line)
            for col in starts(head)[1:]:
                assert cells[col - 1] == " ", (line, col)


def test_search_matches_line_up(library):
    out = CliRunner().invoke(cli, ["search", "--db", "lib.db"]).output
    rows = [line for line in out.splitlines() if line.startswith("  logs") and ".duel:" not in line]
    assert len(rows) == 3
    for needle in ("ygo", "dm"):  # the game column: the same display column in every row
        cols = {expand(r).index(f"  {needle}  ") for r in rows if f"  {needle}  " in r}
        assert len(cols) == 1
    assert len({expand(r).index("[") for r in rows}) == 1  # the counts column


def test_the_rules_tables_line_up():
    out = CliRunner().invoke(cli, ["rules", "ygo"]).output.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("effect class"))
    block = [out[head]] + out[head + 2:out.index("", head)]
    for line in block[1:]:
        for col in starts(block[0])[1:]:
            assert expand(line)[col - 1] == " " and expand(line)[col] != " ", (line, col)
    out = CliRunner().invoke(cli, ["rules", "dm"]).output.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("line "))
    for line in out[head + 1:out.index("", head)]:
        for col in starts(out[head])[1:]:
            assert len(expand(line)) < col or expand(line)[col - 1] == " ", (line, col)
