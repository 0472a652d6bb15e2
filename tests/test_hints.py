"""Hints in the log's language (issue 23, point 3): a Japanese or German log is told what to write
in its own keywords (replayer/hints.py, the games' HINT_WORDS)."""

from __future__ import annotations

import dataclasses

import pytest

from replayer import check_text
from replayer.games import ygo, dm
from replayer.hints import localize_hint, log_language
from replayer.check import read_text

YGO_JA = """[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
ターン 3 A
バトルフェイズ
A: 攻撃 "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
ダメージステップ
ダメージステップ開始時
ダメージ計算前
ダメージ計算時
A: 発動 《オネスト》 手札から
解決
"""
YGO_DE = """[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]
Zug 3 A
Battle Phase
A: greift an "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
Damage Step
Beginn des Damage Steps
vor der Schadensberechnung
Schadensberechnung
A: aktiviert „Ehrliche Haut“ aus der Hand
Auflösung
"""
TAIL = " (before Master Rule 3, [Rules \"mr2\"], damage calculation was allowed too)"


def only(text: str):
    (f,) = [f for f in check_text(text).findings if f.severity.value == "error"]
    return f.line, f.rule, f.hint


def test_a_japanese_log_is_told_what_to_write_in_japanese():
    assert only(YGO_JA) == (11, "ygo.ds.atk-mod-after-calc",
                            "activate it under `ダメージステップ開始時` or `ダメージ計算前`" + TAIL)
    assert check_text(YGO_JA).language == "ja"


def test_a_german_log_is_told_what_to_write_in_german():
    assert only(YGO_DE) == (11, "ygo.ds.atk-mod-after-calc",
                            "activate it under `Beginn des Damage Steps` or `vor der Schadensberechnung`" + TAIL)
    assert check_text(YGO_DE).language == "de"


def test_an_english_log_with_japanese_card_names_is_english():
    text = YGO_JA.replace("ターン", "turn").replace("バトルフェイズ", "phase battle") \
        .replace("ダメージステップ開始時", "timing ds-start").replace("ダメージステップ", "step damage") \
        .replace("ダメージ計算前", "timing before-calc").replace("ダメージ計算時", "timing calc") \
        .replace("攻撃", "attack").replace("発動", "activate").replace("手札から", "from hand").replace("解決", "resolve")
    assert only(text)[2] == "activate it under `timing ds-start` or `timing before-calc`" + TAIL
    assert check_text(text).language == "en"


def test_a_duel_masters_hint_in_japanese():
    text = '[Game "dm"]\nターン 3 A\nA: 攻撃 "Bolshack Dragon" -> プレイヤー\nA: ブレイク 1\n攻撃終了\n'
    assert only(text) == (4, "dm.break.count", "write `ブレイク 2`")


def test_names_commands_and_header_tags_stay_as_written():
    table = ygo.vocabulary.HINT_WORDS["ja"]
    assert localize_hint('write `A: activate "Attack Turn" effect 2`, see `replayer rules ygo`', table) == \
        'write `A: 発動 "Attack Turn" 効果 2`, see `replayer rules ygo`'
    assert localize_hint("write `CL2`", table) == "write `チェーン2`"
    assert localize_hint("activate it under timing calc", table) == "activate it under timing calc"


@pytest.mark.parametrize("game", [ygo.GAME, dm.GAME], ids=["ygo", "dm"])
@pytest.mark.parametrize("lang", ["ja", "de"])
def test_every_whole_line_a_hint_writes_reads_as_the_english_line(game, lang):
    """A hint's line in the log's language is the same event as the English one (the grammar's aliases)."""
    lines = {"ygo": ["timing ds-start", "timing before-calc", "timing calc", "timing after-calc", "timing ds-end",
                     "step damage", "step battle", "step end", "resolve", "turn 3 B", "A: lp 7500", "A: damage 500",
                     "A: end battle phase", "A: pass", "A: draw", 'A: set "X"', 'A: flip "X"',
                     'A: destroy "X" by battle', 'A: activate "X" effect 2 from hand', 'A: activate "X" trigger',
                     'A: activate "X" flip effect', 'CL2 A: activate "X"', 'A: attack "X" -> "Y"'],
             "dm": ["attack ends", "turn 3 B", "A: break 2", 'battle "X" vs "Y"', 'B: block with "X"', "resolve",
                    'A: untap "X"', 'A: tap "X"', 'A: summon "X"', 'A: cast "X"', 'A: charge "X"',
                    'B: s-trigger "X"', "A: direct attack", 'A: attack "X" -> player', 'B: trigger "X"',
                    'B: destroy "X"']}[game.id]
    table = game.hint_words[lang]
    header = f'[Game "{game.id}"]\nturn 1 A\n'
    for line in lines:
        there = localize_hint(f"`{line}`", table)[1:-1]
        assert there != line, line
        a, b = read_text(header + line + "\n"), read_text(header + there + "\n")
        assert not b.findings, (line, there, b.findings)
        assert [same(e) for e in a.events] == [same(e) for e in b.events], (line, there)


def same(e) -> tuple:
    """An event without where it is written (its span, its card names' columns)."""
    def plain(v):
        if dataclasses.is_dataclass(v):
            return (type(v).__name__,) + tuple(plain(getattr(v, f.name)) for f in dataclasses.fields(v)
                                               if f.name not in ("span", "column", "end_column", "timecode"))
        if isinstance(v, (list, tuple)):
            return tuple(plain(x) for x in v)
        return v
    return plain(e)


def test_the_language_is_the_one_a_good_part_of_the_keyword_lines_are_written_in():
    words = ygo.vocabulary.HINT_WORDS
    assert log_language(["turn 1 A", "A: draw", "phase main1", "phase battle", "A: 発動 《オネスト》"], words) == "en"
    assert log_language(["ターン 1 A", "A: ドロー", "A: activate 《オネスト》 # 手札"], words) == "ja"
    # a Japanese judge's transcript keeps some English keywords (samples/ygo/japanese-transcript.duel)
    assert log_language(["ターン 7 A", "phase main1", "A: tribute summon 《青眼の白龍》 # 2体をリリース",
                         "バトルフェイズ", "step battle", "A: 攻撃 《青眼の白龍》 -> 《ライラ》", "ダメージステップ",
                         "A: damage 1700", "A: lp 6300", "step end", "phase end"], words) == "ja"
    assert log_language(["Zug 1 A", "A: zieht", "A: aktiviert „Ehrliche Haut“"], words) == "de"
    assert log_language([], words) == "en"
