"""Header dates: the usual forms read and stored as ISO, a warning for one that cannot be read,
and a bad --from/--to is a usage error (issue 14, point 8)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from replayer import check_text
from replayer.cli import cli
from replayer.dates import parse_date


@pytest.mark.parametrize("written", ["2024-05-18", "2024-5-18", "2024/05/18", "2024.05.18", "18.05.2024",
                                     "18.5.2024", "2024年5月18日", "２０２４年５月１８日", "18 May 2024",
                                     "May 18, 2024", "18. Mai 2024", " 2024-05-18 "])
def test_the_usual_forms_read_as_iso(written):
    assert parse_date(written) == "2024-05-18"


@pytest.mark.parametrize("written", ["notadate", "05/06/2024", "2024-02-30", "18.13.2024", "", "2024"])
def test_what_is_no_date_or_ambiguous_is_not_read(written):
    assert parse_date(written) is None


def test_a_long_text_reads_as_a_short_one_does():
    # (the short ones are kept by their text: the same answer, asked again or not)
    for _ in range(2):
        assert parse_date(" " * 50 + "2024-05-18") == parse_date("2024-05-18") == "2024-05-18"
        assert parse_date("18 May 2024" + " " * 50) == "2024-05-18"
        assert parse_date("x" * 100) is None


def _log(date: str) -> str:
    return f'[Game "ygo"]\n[Date "{date}"]\n[A "Yuki"]\n[B "Kaiba"]\nturn 1 A\nA: draw\n'


def test_check_warns_about_a_date_it_cannot_read():
    (finding,) = check_text(_log("Mai 2024, zweiter Tag")).findings
    assert (finding.rule, finding.severity.value, finding.line) == ("syntax.header-date", "warning", 2)
    assert check_text(_log("18.05.2024")).findings == []


def test_import_stores_iso_and_search_by_date_finds_it(tmp_path):
    db = str(tmp_path / "lib.db")
    for name, date in [("may.duel", "18.05.2024"), ("march.duel", "2024/03/02"), ("bad.duel", "someday")]:
        (tmp_path / name).write_text(_log(date), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["import", str(tmp_path), "--db", db, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "bad.duel" in result.output and "'someday'" in result.output and "warning" in result.output
    found = runner.invoke(cli, ["search", "--db", db, "--from", "2024-01-01", "--format", "json"])
    assert found.exit_code == 0, found.output
    assert "may.duel" in found.output and "march.duel" in found.output and "bad.duel" not in found.output
    found = runner.invoke(cli, ["search", "--db", db, "--from", "01.05.2024", "--format", "json"])
    assert "may.duel" in found.output and "march.duel" not in found.output
    assert "2024-05-18" in found.output


@pytest.mark.parametrize("option", ["--from", "--to"])
def test_a_bad_date_option_is_a_usage_error(tmp_path, option):
    result = CliRunner().invoke(cli, ["search", "--db", str(tmp_path / "lib.db"), option, "notadate"])
    assert result.exit_code == 2
    assert "notadate" in result.output and "is not a date" in result.output
