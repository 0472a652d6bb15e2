"""Every keyword of notation §3-§5 has a Japanese and a German alias, listed in docs/notation.md,
and full-width (IME) input reads like ASCII (issue 14, points 5 and 6)."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import pytest

from replayer import check_text
from replayer.games import get as get_game
from replayer.check import read_text
from replayer.reader import fold_width

ROOT = Path(__file__).resolve().parent.parent


def _alias_rows() -> list[tuple[str, str, str, str]]:
    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    block = text[text.index("<!-- aliases:"):text.index("<!-- /aliases -->")]
    rows = []
    for line in block.splitlines():
        cells = re.findall(r"`([^`]*)`", line)
        if line.startswith("| ygo") or line.startswith("| dm"):
            game = line.split("|")[1].strip()
            assert len(cells) == 3, line
            rows.append((game, *cells))
    return rows


ROWS = _alias_rows()


def _event(line: str, game: str) -> dict:
    match = read_text(f'[Game "{game}"]\n{line}\n')
    assert [f.message for f in match.findings if f.kind.value == "syntax"] == [], line
    assert len(match.events) == 1, line
    got = asdict(match.events[0])

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("span", "column", "end_column")}
        if isinstance(value, (list, tuple)):
            return [strip(v) for v in value]
        return value

    return strip(got)


def test_the_table_covers_both_games_and_every_action():
    assert len(ROWS) >= 60
    assert {r[0] for r in ROWS} == {"ygo", "dm"}


@pytest.mark.parametrize("game,english,japanese,german", ROWS, ids=[f"{r[0]}:{r[1]}" for r in ROWS])
def test_every_alias_row_is_one_event(game, english, japanese, german):
    expected = _event(english, game)
    for line in (japanese, german):
        got = _event(line, game)
        for key in ("card", "target", "cost_card", "first", "second"):
            if isinstance(got.get(key), dict) and isinstance(expected.get(key), dict):
                got[key]["name"] = expected[key]["name"]  # クリボー is Kuriboh: the catalog's business
        assert got == expected, line


def test_damage_in_japanese_is_no_syntax_error():  # the line of the issue
    assert _event("B: ダメージ 1300", "ygo") == _event("B: damage 1300", "ygo")


def test_full_width_input_reads_like_ascii():
    assert fold_width("Ａ：ａｔｔａｃｋ　２") == "A:attack　2"
    for line in ['Ａ：攻撃 "Gearfried" -> "Sangan"', 'A：attack "Gearfried" -> "Sangan"',
                 'Ａ：ａｔｔａｃｋ "Gearfried" －＞ "Sangan"']:
        assert _event(line, "ygo") == _event('A: attack "Gearfried" -> "Sangan"', "ygo"), line
    assert _event("Ｂ：ｄａｍａｇｅ　１３００", "ygo") == _event("B: damage 1300", "ygo")
    assert _event("ｔｕｒｎ ３ Ａ", "ygo") == _event("turn 3 A", "ygo")


def test_full_width_input_keeps_the_columns_of_the_raw_line():
    match = read_text('[Game "ygo"]\nＡ：ａｔｔａｃｋ "Gearfried" ->\n')
    (finding,) = match.findings
    assert finding.rule == "syntax.line" and finding.span.column == 24  # the end of the line: one column a character


def test_half_width_katakana_names_find_their_card():
    catalog = get_game("ygo").catalog
    assert catalog.find("ｵﾈｽﾄ") is catalog.find("オネスト") is not None
    assert catalog.find("Ｈｏｎｅｓｔ") is catalog.find("Honest")
    log = ('[Game "ygo"]\nturn 3 A\nphase battle\nA: attack "Lyla" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500\n'
           "step damage\ntiming calc\nA: 発動 《ｵﾈｽﾄ》 手札から\nresolve\n")
    assert [f.rule for f in check_text(log).findings if f.severity.value == "error"] == ["ygo.ds.atk-mod-after-calc"]
