"""The reader: whole logs in, header + events + notes + syntax findings out.

Every example of the notation spec (§1, §4, §5, §8, §10) is copied here as an inline string:
the tests must not read the spec's folder.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replayer import events as ev
from replayer.diagnostics import Span
from replayer.check import read_bytes, read_log, read_text
from replayer.reader import ReplayerError, UnknownGame, UnreadableFile, split_line

SPEC_10_YGO = """\
[Game "ygo"]
[A "Yuki"]
[B "Kaiba"]

turn 3 A
phase battle
A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing ds-start
timing before-calc
A: activate "Honest" from hand          # Honest: ATK up by the opponent's ATK
resolve
A: atk "Lyla, Lightsworn Sorceress" 4700
timing calc
B: damage 1700
B: lp 6300
B: destroy "Blue-Eyes White Dragon" by battle
timing after-calc
timing ds-end
B: send "Blue-Eyes White Dragon" to gy
step battle
"""

SPEC_10_DM = """\
[Game "dm"]
[A "Kaito"]
[B "Rin"]

turn 7 A
A: summon "Gatling Cyclone" {creature, power 3000, speed-attacker}
@21:05 A: attack "Gatling Cyclone" -> player
A: break 1
B: s-trigger "Terror Pit" {spell, s-trigger}   # destroys one of A's creatures
B: resolve "Terror Pit"
A: destroy "Gatling Cyclone"
attack ends
A: attack "Bolshack Dragon" 6000 {creature, w-breaker} -> player
A: break 2
attack ends
"""


def syntax(match) -> list[tuple[int, int, str]]:
    return [(f.line, f.span.column, f.rule) for f in match.findings if f.kind.value == "syntax"]


def kinds(match) -> list[str]:
    return [e.kind for e in match.events]


# ---- the spec's examples ------------------------------------------------------------------------
def test_spec_10_ygo_example_reads_completely():
    match = read_text(SPEC_10_YGO)
    assert match.findings == []
    assert (match.game, match.rules) == ("ygo", "current")
    assert match.header == {"Game": "ygo", "A": "Yuki", "B": "Kaiba"}
    assert match.players == {"A": "Yuki", "B": "Kaiba"}
    assert kinds(match) == ["turn", "phase", "attack", "step", "timing", "timing", "activate", "resolve", "atk",
                            "timing", "damage", "lp", "destroy", "timing", "timing", "move", "step"]
    assert [e.line for e in match.events] == [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
    honest = match.events[6]
    assert honest == ev.Activate(span=Span(11, 1, 11, 31), player="A", notes=("Honest: ATK up by the opponent's ATK",),
                                 card=ev.CardRef("Honest", column=13, end_column=21), from_zone="hand")
    assert match.events[12] == ev.Destroy(span=Span(17, 1, 17, 46), player="B", by_battle=True,
                                          card=ev.CardRef("Blue-Eyes White Dragon", column=12, end_column=36))


def test_spec_10_ygo_variant_with_honest_in_calc_and_mr2_reads():
    lines = SPEC_10_YGO.splitlines()
    moved = lines[:10] + [lines[13]] + lines[10:13] + lines[14:]
    match = read_text("\n".join(['[Rules "mr2"]'] + moved))
    assert match.findings == []
    assert match.rules == "mr2"
    assert kinds(match)[4:10] == ["timing", "timing", "timing", "activate", "resolve", "atk"]
    assert match.events[6] == ev.Timing(span=Span(12, 1, 12, 12), name="calc")
    assert match.events[7].line == 13


def test_spec_10_dm_example_reads_completely():
    match = read_text(SPEC_10_DM)
    assert match.findings == []
    assert match.game == "dm"
    assert kinds(match) == ["turn", "main", "attack", "break", "s-trigger", "resolve-ability", "destroy",
                            "attack-ends", "attack", "break", "attack-ends"]
    attack = match.events[2]
    assert (attack.timecode, attack.span) == ("@21:05", Span(7, 8, 7, 45))
    trigger = match.events[4]
    assert trigger.notes == ("destroys one of A's creatures",)
    assert trigger.triggers == (ev.CardRef("Terror Pit", props=("spell", "s-trigger"), column=14, end_column=45),)
    bolshack = match.events[8].attacker
    assert (bolshack.power, bolshack.props) == (6000, ("creature", "w-breaker"))


SPEC_1_LINES = [
    # §1: a card in the four quote styles, copies, stats and properties, timecodes
    ("ygo", 'A: activate "Honest"'), ("ygo", "A: activate 《オネスト》"), ("ygo", "A: activate 「オネスト」"),
    ("ygo", "A: activate „Ehrliche Haut“"), ("ygo", 'A: discard "Kuriboh"#2'),
    ("ygo", 'A: normal summon "Dark Magician" 2500/2100'), ("dm", 'A: summon "Bolshack Dragon" 6000'),
    ("ygo", 'A: activate "Rush Recklessly" {quick-play, atk-mod}'), ("ygo", "@1:23 A: pass"),
    ("ygo", "@1:02:03 A: pass"), ("ygo", "A: pass   # a trailing note"),
]
SPEC_3_4_LINES = [
    "turn 3 A", "phase draw", "phase standby", "phase main1", "phase battle", "phase main2", "phase end",
    "step start", "step battle", "step damage", "step end", "timing ds-start", "timing before-calc",
    "timing calc", "timing after-calc", "timing ds-end", "resolve",
    "A: draw", "A: draw 2", 'A: normal summon "C"', 'A: tribute summon "C"', 'A: special summon "C"',
    'A: special summon "C" from hand', 'A: special summon "C" from gy', 'A: special summon "C" from deck',
    'A: special summon "C" from banished', 'A: special summon "C" from extra', 'A: flip summon "C"', 'A: set "C"',
    'A: attack "C" -> "D"', 'A: attack "C" -> direct', 'A: attack "C" -> set "D"', 'A: attack "C" -> defense "D"',
    'A: activate "C"', 'A: flip "C"', 'A: destroy "C"', 'A: destroy "C" by battle', 'A: send "C" to gy',
    'A: banish "C"', 'A: return "C" to hand', 'A: discard "C"', 'A: change "C" to attack',
    'A: change "C" to defense', 'A: negate "C"', "A: damage 500", "A: lp 7500", 'A: atk "C" 3000',
    'A: atk "C" +500', "A: pass", "A: end battle phase",
    # the activate clauses, in order, each at most once
    'A: activate "C" effect 2', 'A: activate "C" flip effect', 'A: activate "C" trigger',
    'A: activate "C" from hand', 'A: activate "C" from field', 'A: activate "C" from gy',
    'A: activate "C" from banished', 'A: activate "C" from deck', 'A: activate "C" targeting "D"',
    'A: activate "C" targeting "D", "E"', 'A: activate "C" cost discard "X"', 'A: activate "C" cost send "X" to gy',
    'A: activate "C" cost tribute "X"',
    'A: activate "C" effect 2 from field targeting "D", "E" cost send "X" to gy',
    'CL2 A: activate "C"',
]
SPEC_5_LINES = [
    "turn 3 A", "resolve", "attack ends",
    'A: charge "C"', 'A: summon "C"', 'A: cast "C"', 'A: tap "C"', 'A: untap "C"', 'A: attack "C" -> player',
    'A: attack "C" -> "D"', 'A: trigger "C"', 'A: resolve "C"', 'A: ninja strike "C"', 'A: revolution 0 "C"',
    'A: invade "C"', 'A: revolution change "C"', 'A: block with "C"', 'A: guardman "C"', 'A: redirect "C" -> "D"',
    'battle "C" vs "D"', 'A: destroy "C"', 'A: return "C" to hand', 'A: put "C" into mana',
    'A: put "C" into shields', "A: break 2", "A: break 2 shields", 'A: s-trigger "C"', 'A: s-trigger "C", "D"',
    "A: direct attack", "A: win",
]
SPEC_8_LINES = [
    "ターン 3 A", "Zug 3 A", "バトルフェイズ", "Battle Phase", "ダメージステップ", "Damage Step",
    "ダメージステップ開始時", "Beginn des Damage Steps", "ダメージ計算前", "vor der Schadensberechnung",
    "ダメージ計算時", "Schadensberechnung", "ダメージ計算後", "nach der Schadensberechnung",
    "ダメージステップ終了時", "Ende des Damage Steps", 'A: 発動 "C"', 'A: aktiviert "C"', "解決", "Auflösung",
    'A: 攻撃 "C" -> "D"', 'A: greift an "C" -> "D"', 'A: activate "C" 手札から', 'A: activate "C" aus der Hand',
    "A: 発動 《オネスト》", "A: aktiviert „Ehrliche Haut“",
]
SPEC_LINES = (SPEC_1_LINES + [("ygo", l) for l in SPEC_3_4_LINES] + [("dm", l) for l in SPEC_5_LINES]
              + [("ygo", l) for l in SPEC_8_LINES])


@pytest.mark.parametrize("game,line", SPEC_LINES, ids=[f"{g}:{l}" for g, l in SPEC_LINES])
def test_every_spec_line_parses(game, line):
    match = read_text(f'[Game "{game}"]\n{line}\n')
    assert syntax(match) == []
    assert len(match.events) == 1


# ---- notes (spec §1) ------------------------------------------------------------------------------
def test_notes_attach_to_the_next_event_or_their_own_line():
    match = read_text("""\
# opening remark
[Game "ygo"]
turn 2 B
# judge: B considers for a while
# ... and then draws
B: draw    # the draw for turn

B: pass
# a note at the end belongs to no event
""")
    turn, draw, pss = match.events
    assert turn.notes == ("opening remark",)
    assert draw.notes == ("judge: B considers for a while", "... and then draws", "the draw for turn")
    assert pss.notes == ()
    assert [(n.line, n.text) for n in match.notes] == [
        (1, "opening remark"), (4, "judge: B considers for a while"), (5, "... and then draws"),
        (6, "the draw for turn"), (9, "a note at the end belongs to no event")]


def test_a_trailing_note_on_a_bad_line_is_kept_for_the_next_event():
    match = read_text('[Game "ygo"]\nturn 2 A\nA: drwa   # typo here\nA: pass\n')
    assert syntax(match) == [(3, 4, "syntax.line")]
    assert match.events[-1].notes == ("typo here",)


def test_a_hash_inside_a_card_name_or_a_copy_suffix_is_not_a_note():
    match = read_text('[Game "ygo"]\nA: activate "Card #1" targeting "Kuriboh"#2 # real note\n')
    (event,) = match.events
    assert event.card.name == "Card #1"
    assert event.targets[0].copy == 2
    assert event.notes == ("real note",)


@pytest.mark.parametrize("raw,expected", [
    ("A: pass", (1, None, "A: pass", None)),
    ("    A: pass  ", (5, None, "A: pass", None)),
    ("\tA: pass", (2, None, "A: pass", None)),
    ("@0:59 A: pass", (7, "@0:59", "A: pass", None)),
    ("  @1:02:03   A: pass # n", (14, "@1:02:03", "A: pass", "n")),
    ("# only a note", (1, None, "", "only a note")),
    ("#", (1, None, "", "")),
    ('A: discard "X"#2#3', (1, None, 'A: discard "X"#2', "3")),
    ('A: discard 《a#b》 # c # d', (1, None, "A: discard 《a#b》", "c # d")),
    ('A: discard "unclosed # x', (1, None, 'A: discard "unclosed # x', None)),
])
def test_split_line(raw, expected):
    assert split_line(raw) == expected


# ---- layout -------------------------------------------------------------------------------------
def test_blank_lines_and_indentation_are_meaningless():
    match = read_text('[Game "ygo"]\n\n\n    turn 2 A\n\t\tA: draw\n   \n')
    assert syntax(match) == []
    assert [(e.kind, e.span) for e in match.events] == [("turn", Span(4, 5, 4, 13)), ("draw", Span(5, 3, 5, 10))]


def test_windows_line_ends_and_a_byte_order_mark():
    data = '\ufeff[Game "ygo"]\r\nturn 2 A\r\nA: draw\r\n'.encode("utf-8")
    match = read_bytes(data)
    assert match.findings == []
    assert [(e.kind, e.span) for e in match.events] == [("turn", Span(2, 1, 2, 9)), ("draw", Span(3, 1, 3, 8))]


def test_line_numbers_count_only_real_line_breaks():
    # a form feed or U+2028 inside a note must not shift the lines after it
    match = read_text('[Game "ygo"]\n# page\x0cbreak \u2028 here\nturn 2 A\nA: drwa\n')
    assert [e.line for e in match.events] == [3]
    assert syntax(match) == [(4, 4, "syntax.line")]


def test_the_same_line_twice_keeps_its_own_span_and_notes():
    # line parses are cached by text: the cache must not leak line numbers, columns or notes
    match = read_text('[Game "ygo"]\nA: pass # one\n  A: pass\nA: pass # two\n')
    assert [(e.span, e.notes) for e in match.events] == [
        (Span(2, 1, 2, 8), ("one",)), (Span(3, 3, 3, 10), ()), (Span(4, 1, 4, 8), ("two",))]


def test_a_timecode_with_no_event_is_a_finding():
    match = read_text('[Game "ygo"]\n@1:23\nturn 2 A\n')
    assert syntax(match) == [(2, 1, "syntax.line")]
    assert kinds(match) == ["turn"]


# ---- header (spec §2) -------------------------------------------------------------------------------
def test_header_is_a_mapping_that_keeps_unknown_keys():
    match = read_text("""\
[Game "ygo"]
[Rules "current"]
[A "Yuki"]
[B "Kaiba"]
[LP "8000"]
[Event "Regional Qualifier, Kyoto"]
[Round "Top 8"]
[Table „1“]
[Date "2024-05-18"]
[Video "https://example.org/vod/123"]
[Reviewer 「ミナ」]
[Commentator "Nobody in particular"]
turn 2 A
""")
    assert match.findings == []
    assert match.header == {
        "Game": "ygo", "Rules": "current", "A": "Yuki", "B": "Kaiba", "LP": "8000",
        "Event": "Regional Qualifier, Kyoto", "Round": "Top 8", "Table": "1", "Date": "2024-05-18",
        "Video": "https://example.org/vod/123", "Reviewer": "ミナ", "Commentator": "Nobody in particular"}
    assert match.header_lines["Commentator"] == 12


def test_tag_lines_read_alike_whichever_way_they_are_read():
    # a tag line with no note is read at once (LineReader's split and look-up skipped); one with a
    # note, a timecode, indentation or a `#` goes through the split: the same header either way
    match = read_text("""\
[Game "ygo"]
[A "Yuki"]   \t
[B "Kaiba"] # the champion
  [Event "Cup #3"]
[Round "Top   8"]
turn 2 A
[Table "4"]
# a note before the next tag
[Judge "Mina"] # head judge
""")
    assert match.header == {"Game": "ygo", "A": "Yuki", "B": "Kaiba", "Event": "Cup #3", "Round": "Top 8",
                            "Table": "4", "Judge": "Mina"}
    assert match.header_lines == {"Game": 1, "A": 2, "B": 3, "Event": 4, "Round": 5, "Table": 7, "Judge": 9}
    late = [(f.rule, f.span.line, f.span.column) for f in match.findings]
    assert late == [("syntax.header-late", 7, 1), ("syntax.header-late", 9, 1)]
    assert [n.text for n in match.notes] == ["the champion", "a note before the next tag", "head judge"]
    assert [e.notes for e in match.events] == [("the champion",)]  # (a tag's note goes to the next event)


@pytest.mark.parametrize("value,game", [
    ("ygo", "ygo"), ("yugioh", "ygo"), ("Yu-Gi-Oh!", "ygo"), ("遊戯王", "ygo"),
    ("dm", "dm"), ("duel-masters", "dm"), ("デュエル・マスターズ", "dm"), ("DM", "dm")])
def test_game_names(value, game):
    match = read_text(f'[Game "{value}"]\nturn 2 A\n')
    assert (match.game, match.findings) == (game, [])


def test_players_default_to_a_and_b():
    assert read_text('[Game "dm"]\nturn 2 A\n').players == {"A": "A", "B": "B"}


def test_a_missing_game_tag_is_a_finding_and_the_game_is_guessed():
    match = read_text('turn 7 A\nA: attack "Bolshack Dragon" -> player\nA: break 2\nattack ends\n')
    assert match.game == "dm"
    assert [(f.line, f.rule, f.message) for f in match.findings] == [
        (1, "syntax.header", "no [Game] tag: read as Duel Masters")]
    assert len(match.events) == 4


def test_an_unknown_game_is_a_finding():
    match = read_text('[Game "chess"]\nturn 2 A\nA: draw\n')
    assert [(f.line, f.rule) for f in match.findings] == [(1, "syntax.header")]
    assert match.game in ("ygo", "dm")


def test_an_unknown_rules_revision_falls_back_to_current():
    match = read_text('[Game "ygo"]\n[Rules "mr9"]\nturn 2 A\n')
    assert match.rules == "current"
    assert [(f.line, f.rule) for f in match.findings] == [(2, "syntax.header")]
    assert "mr2" in match.findings[0].hint


def test_lp_must_be_a_number():
    match = read_text('[Game "ygo"]\n[LP "lots"]\nturn 2 A\n')
    assert [(f.line, f.rule, f.severity.value) for f in match.findings] == [(2, "syntax.header", "error")]


def test_a_header_tag_after_the_first_event_is_a_warning_and_still_kept():
    match = read_text('[Game "ygo"]\nturn 2 A\n[Round "3"]\nA: draw\n')
    assert [(f.line, f.rule, f.severity.value) for f in match.findings] == [(3, "syntax.header-late", "warning")]
    assert match.header["Round"] == "3"
    assert kinds(match) == ["turn", "draw"]


# ---- syntax findings (spec §9 kind `syntax`) --------------------------------------------------------
BAD_LOG = """\
[Game "ygo"]
turn 3 A
phase battel
A: attack "Gearfried" -> "Sangan"
step damage
timing before-calculation
A: activate "Honest from hand
timing calc
A: damage two
B: lp 6300
C: pass
A: pass
"""


def test_bad_lines_are_findings_on_exactly_their_lines_and_the_rest_is_read():
    match = read_text(BAD_LOG)
    assert syntax(match) == [(3, 7, "syntax.line"), (6, 8, "syntax.line"), (7, 13, "syntax.line"),
                             (9, 11, "syntax.line"), (11, 1, "syntax.line")]
    assert all(f.severity.value == "error" for f in match.findings)
    assert [e.line for e in match.events] == [2, 4, 5, 8, 10, 12]
    assert kinds(match) == ["turn", "attack", "step", "timing", "lp", "pass"]


@pytest.mark.parametrize("game,line,column,message,hint", [
    ("ygo", "timing before-calculation", 8,
     "unexpected `before-calculation`; expected a timing (ds-start, before-calc, calc, after-calc, ds-end)",
     "did you mean `timing before-calc`?"),
    ("ygo", "timing befor-calc", 8, None, "did you mean `timing before-calc`?"),
    ("ygo", "step dmg", 6, None, "did you mean `step damage`?"),
    ("ygo", "phase battel", 7, "unexpected `battel`; expected a phase (draw, standby, main1, battle, main2, end)",
     "did you mean `phase battle`?"),
    ("ygo", "timng calc", 1, None, "did you mean `timing`?"),
    ("ygo", 'A: activte "Honest" from hand', 4, None, "did you mean `A: activate`?"),
    ("ygo", 'CL2 B: actvate "Honest"', 8, None, "did you mean `B: activate`?"),
    ("ygo", 'A: activate "Honest" form hand', 22,
     "unexpected `form`; expected `cost`, `effect`, `flip`, `from`, `targeting`, `trigger` or the end of the line",
     "did you mean `from`?"),
    ("ygo", 'A: activate "Honest" from hnd', 27, None, "did you mean `from hand`?"),
    ("ygo", 'A: summon "Gearfried"', 4, None,
     "did you mean `A: normal summon` or `A: tribute summon` or `A: special summon` or `A: flip summon`?"),
    ("ygo", 'A: normal sumon "Gearfried"', 11, "unexpected `sumon`; expected `summon`", "did you mean `normal summon`?"),
    ("ygo", 'A: destroy "Sangan" by batle', 21, None, "did you mean `by battle`?"),
    ("ygo", 'A: attack "Gearfried" -> drect', 26, None, "did you mean `direct`?"),
    ("ygo", 'B: change "Sangan" to defence', 23, None, "did you mean `to defense`?"),
    ("ygo", "A: end battle", 8, None, "did you mean `end battle phase`?"),
    ("ygo", 'A: activate "Honest from hand', 13, None, "a card name's closing quote is missing"),
    ("ygo", "A: activate 《オネスト from hand", 13, None, "a card name's closing quote is missing"),
    ("ygo", "A: activate 'Honest'", 13, None,
     'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'),
    ("ygo", "A: activate “Honest”", 13, None,
     'card names are written in quotes: "Name", 《名前》, 「名前」 or „Name“'),
    ("ygo", "@1:5 A: pass", 1, None, "a timecode is written `@m:ss` or `@h:mm:ss` at the start of the line"),
    ("ygo", "C: pass", 1, None, "the players are `A` and `B`"),
    ("ygo", "A: lp 7,500", 8, "unexpected `,`; expected the end of the line", "the form is `A: lp 7500`"),
    ("ygo", "turn 3", 7, "the line ends too early; expected a player (A or B)",
     "the form is `turn 3 A` (turn number, then the turn player)"),
    ("ygo", 'A: attack "Gearfried" => "Sangan"', 23, "unexpected `=>`; expected `->`", None),
    ("ygo", 'A: send "Sangan" to the gy', 21, "unexpected `the`; expected `gy`", "the form is `A: send \"Card\" to gy`"),
    ("ygo", 'A: activate "C" cost discard "X" targeting "D"', 34, "unexpected `targeting`; expected the end of the line",
     None),
    ("ygo", "Zug A 3", 5, "unexpected `A`; expected a number",
     "the form is `turn 3 A` (turn number, then the turn player)"),
    ("ygo", "A: 発動 《オネスト》 手札", 14, None, 'the form is `A: activate "Card" [effect N | flip effect | trigger] '
     '[from hand|field|gy|banished|deck] [targeting "X", "Y"] [cost discard "X" | cost send "X" to gy | '
     'cost tribute "X"]` (clauses in this order)'),
    ("dm", 'A: attack "Bolshack Dragon" -> playr', 32, None, "did you mean `player`?"),
    ("dm", "A: brake 2", 4, None, "did you mean `A: break`?"),
    ("dm", 'A: s-triger "Terror Pit"', 4, None, "did you mean `A: s-trigger`?"),
    ("dm", 'A: put "Aqua Surfer" into manna', 27, None, "did you mean `into mana`?"),
    ("dm", "attack end", 8, "unexpected `end`; expected `ends`", "did you mean `attack ends`?"),
    ("dm", 'A: ninja strik "Hanzo"', 4, None, "did you mean `A: ninja strike`?"),
    ("dm", 'A: block "Aqua Guard"', 10, "unexpected `\"Aqua Guard\"`; expected `with`",
     'the form is `A: block with "Card"`'),
])
def test_syntax_finding_messages_and_hints(game, line, column, message, hint):
    match = read_text(f'[Game "{game}"]\n{line}\n')
    (finding,) = match.findings
    assert (finding.line, finding.span.column, finding.rule, finding.kind.value) == (2, column, "syntax.line", "syntax")
    if message is not None:
        assert finding.message == message
    if hint is not None:
        assert finding.hint == hint
    assert finding.cite


def test_activate_clauses_out_of_order_say_so_in_the_hint():
    (finding,) = read_text('[Game "ygo"]\nA: activate "C" cost discard "X" targeting "D"\n').findings
    assert "(clauses in this order)" in finding.hint


def test_unknown_property_word_is_a_warning_with_a_suggestion():
    match = read_text('[Game "ygo"]\nA: activate "Rush Recklessly" {quik-play, atk-mod}\n')
    (finding,) = match.findings
    assert (finding.line, finding.span.column, finding.span.end_column) == (2, 13, 51)
    assert (finding.rule, finding.severity.value, finding.hint) == ("syntax.property", "warning",
                                                                     "did you mean `quick-play`?")
    assert len(match.events) == 1


def test_dm_numbered_properties_are_known():
    match = read_text('[Game "dm"]\nB: ninja strike "Hanzo" {creature, power 5000, ninja-strike 7}\n')
    assert match.findings == []


# ---- files that are not logs ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n"])
def test_an_empty_file_is_one_finding(text):
    match = read_text(text)
    assert [(f.line, f.rule, f.message) for f in match.findings] == [(1, "syntax.empty", "the file is empty")]
    assert match.events == []


def test_a_log_with_only_a_header_has_no_events():
    match = read_text('[Game "ygo"]\n[A "Yuki"]\n# nothing happened\n')
    assert [(f.rule, f.message) for f in match.findings] == [("syntax.empty", "the log has no events")]


def test_binary_data_is_one_finding():
    match = read_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert [(f.line, f.rule, f.message) for f in match.findings] == [
        (1, "syntax.encoding", "this is a binary file, not a text log")]


def test_utf16_is_named():
    match = read_bytes('[Game "ygo"]\nturn 2 A\n'.encode("utf-16"))
    assert [f.message for f in match.findings] == ["the file is UTF-16 text, not UTF-8"]


def test_non_utf8_text_points_at_the_bad_byte():
    data = '[Game "ygo"]\nturn 2 A\nA: activate "Café"\n'.encode("latin-1")
    match = read_bytes(data)
    assert [(f.line, f.span.column, f.rule, f.message) for f in match.findings] == [
        (3, 17, "syntax.encoding", "the file is not UTF-8 text (byte 0xe9 on line 3)")]
    assert match.lines[2] == 'A: activate "Caf\ufffd"'  # shown with the finding
    assert match.events == []


def test_read_log_of_a_missing_file_or_a_folder_raises_unreadable(tmp_path: Path):
    with pytest.raises(UnreadableFile, match="No such file"):
        read_log(tmp_path / "missing.duel")
    with pytest.raises(UnreadableFile):
        read_log(tmp_path)


def test_read_log_reads_a_file(tmp_path: Path):
    path = tmp_path / "g.duel"
    path.write_text(SPEC_10_DM, encoding="utf-8")
    match = read_log(path)
    assert (match.path, match.game, len(match.events), match.findings) == (str(path), "dm", 11, [])


def test_nasty_inputs_become_findings_not_exceptions():
    for text in ["[", "]", "[Game", '[Game "ygo"', "A:", "CL", "CL1", "@", "#", "\x00", "„", "《》", "{}",
                 'A: activate ""', "turn 99999999999999999999 A", "A: attack -> ->", "\u2028\u2029\x85",
                 '[Game "dm"]\nA: break\nbattle "x" vs', '[Game "ygo"]\nA: atk "x" +']:
        match = read_text(text)
        assert match.findings, repr(text)


_ALPHABET = st.sampled_from(list('AB: "《》「」„“#@{}[]->,0123456789 \t\nCLturnphasebattleactivateresolve発動ターン'))


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=80).map("".join), st.sampled_from(["ygo", "dm"]))
def test_any_text_is_read_without_an_exception(text, game):
    match = read_text(f'[Game "{game}"]\n' + text)
    for f in match.findings:
        assert f.line >= 1 and f.span.column >= 1
    for e in match.events:
        assert 2 <= e.line <= len(match.lines)


# ---- the samples use every line form ------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


def _features(path: Path) -> set[str]:
    """What a sample log uses, as words like ``ygo:activate:cost=send`` or ``quote:《》``."""
    match = read_log(path)
    game = match.game
    out = {f"header:{key}" for key in match.header}
    if set(match.header) - {"Game", "Rules", "A", "B", "LP", "Shields", "Event", "Round", "Table", "Date",
                             "Video", "Reviewer"}:
        out.add("header:<unknown key>")
    for event in match.events:
        out.add(f"{game}:{event.kind}")
        for f in ("name", "method", "from_zone", "target_position", "how", "position", "verb", "what", "to"):
            value = getattr(event, f, None)
            if value is not None:
                out.add(f"{game}:{event.kind}:{f}={value}")
        if isinstance(event, ev.Activate):
            out |= {f"{game}:activate:{c}" for c, v in [("effect N", event.effect), ("flip effect", event.flip_effect),
                                                         ("trigger", event.trigger), ("targeting", event.targets),
                                                         ("cost=" + str(event.cost), event.cost)] if v}
            if len(event.targets) > 1:
                out.add(f"{game}:activate:targeting several")
        if isinstance(event, ev.AtkChange):
            out.add(f"{game}:atk:" + ("+" if event.value >= 0 else "-") if event.relative else f"{game}:atk:=")
        if isinstance(event, ev.Draw) and event.count > 1:
            out.add(f"{game}:draw N")
        if isinstance(event, ev.Break) and len(match.lines[event.line - 1].split()) > 3:
            out.add(f"{game}:break N shields")
        if isinstance(event, ev.STrigger) and len(event.triggers) > 1:
            out.add(f"{game}:s-trigger several")
        if event.chain_link:
            out.add("CLn")
        if event.timecode:
            out.add("timecode:" + ("h:mm:ss" if event.timecode.count(":") == 2 else "m:ss"))
        for card in event.cards():
            if card.copy is not None:
                out.add("card:#N")
            if card.props:
                out.add(f"{game}:card:props")
            if card.atk is not None or card.def_ is not None:
                out.add("ygo:card:stats")
            if (card.atk is None) != (card.def_ is None):
                out.add("ygo:card:stats with ?")
            if card.power is not None:
                out.add("dm:card:power")
            raw = match.lines[event.line - 1][card.column - 1]
            out.add("quote:" + raw)
    for i, raw in enumerate(match.lines, 1):
        _, _, body, note = split_line(raw)
        if note is not None:
            out.add("note:own line" if not body else "note:trailing")
        bare = re.sub(r'"[^"]*"|《[^》]*》|「[^」]*」|„[^“”]*[“”]', " ", body)
        for alias in SPEC_8_WORDS:
            # structure aliases are the whole line (`ターン 3 A` is the only one with more on it);
            # the activate/attack/from-hand aliases sit inside an actor line
            if bare == alias or bare.startswith(alias + " ") and alias in ("ターン", "Zug") \
                    or re.search(rf"(?<=[: ]){re.escape(alias)}(?= |$)", bare) and alias in ACTOR_ALIASES:
                out.add("alias:" + alias)
    return out


ACTOR_ALIASES = {"発動", "aktiviert", "攻撃", "greift an", "手札から", "aus der Hand"}


SPEC_8_WORDS = ["ターン", "Zug", "バトルフェイズ", "Battle Phase", "ダメージステップ", "Damage Step",
                "ダメージステップ開始時", "Beginn des Damage Steps", "ダメージ計算前", "vor der Schadensberechnung",
                "ダメージ計算時", "Schadensberechnung", "ダメージ計算後", "nach der Schadensberechnung",
                "ダメージステップ終了時", "Ende des Damage Steps", "発動", "aktiviert", "解決", "Auflösung",
                "攻撃", "greift an", "手札から", "aus der Hand"]

REQUIRED_FEATURES = (
    {f"header:{k}" for k in ("Game", "Rules", "A", "B", "LP", "Shields", "Event", "Round", "Table", "Date",
                             "Video", "Reviewer", "<unknown key>")}
    | {"note:own line", "note:trailing", "CLn", "timecode:m:ss", "timecode:h:mm:ss", "card:#N",
       'quote:"', "quote:《", "quote:「", "quote:„", "ygo:card:stats", "ygo:card:stats with ?", "ygo:card:props",
       "dm:card:power", "dm:card:props"}
    | {"alias:" + w for w in SPEC_8_WORDS}
    # Yu-Gi-Oh! (§3, §4)
    | {"ygo:turn", "ygo:resolve", "ygo:draw", "ygo:draw N", "ygo:set", "ygo:flip", "ygo:negate", "ygo:damage",
       "ygo:lp", "ygo:pass", "ygo:end-battle-phase", "ygo:atk:=", "ygo:atk:+", "ygo:atk:-"}
    | {f"ygo:phase:name={p}" for p in ("draw", "standby", "main1", "battle", "main2", "end")}
    | {f"ygo:step:name={s}" for s in ("start", "battle", "damage", "end")}
    | {f"ygo:timing:name={t}" for t in ("ds-start", "before-calc", "calc", "after-calc", "ds-end")}
    | {f"ygo:summon:method={m}" for m in ("normal", "tribute", "special", "flip")}
    | {f"ygo:summon:from_zone={z}" for z in ("hand", "gy", "deck", "banished", "extra")}
    | {f"ygo:attack:target_position={p}" for p in ("attack", "direct", "set", "defense")}
    | {f"ygo:activate:{c}" for c in ("effect N", "flip effect", "trigger", "targeting", "targeting several",
                                      "cost=discard", "cost=send", "cost=tribute")}
    | {f"ygo:activate:from_zone={z}" for z in ("hand", "gy", "field")}
    | {"ygo:destroy", "ygo:move:how=send", "ygo:move:how=banish", "ygo:move:how=return", "ygo:move:how=discard",
       "ygo:change:position=attack", "ygo:change:position=defense"}
    # Duel Masters (§3, §5)
    | {"dm:turn", "dm:resolve", "dm:attack-ends", "dm:tap", "dm:trigger", "dm:resolve-ability", "dm:block",
       "dm:redirect", "dm:battle", "dm:destroy", "dm:break", "dm:break N shields", "dm:s-trigger",
       "dm:s-trigger several", "dm:direct-attack", "dm:win", "dm:attack:target_position=player",
       "dm:attack:target_position=attack", "dm:move:to=hand", "dm:move:to=mana", "dm:move:to=shields"}
    | {f"dm:main:verb={v}" for v in ("charge", "summon", "cast")}
    | {f"dm:declare:what={w}" for w in ("ninja-strike", "revolution-0", "invade", "revolution-change")}
    | {f"dm:phase:name={p}" for p in ("start", "untap", "draw", "charge", "main", "attack", "end")}
)


def test_the_samples_use_every_line_form_of_the_spec():
    samples = sorted(p for game in ("ygo", "dm") for p in (ROOT / "samples" / game).glob("*.duel"))
    used: set[str] = set()
    for path in samples:
        used |= _features(path)
    assert sorted(REQUIRED_FEATURES - used) == []


def test_every_sample_opens_with_a_note_that_says_what_it_shows():
    for path in sorted((ROOT / "samples").glob("*/*.duel")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# ") and len(first) > 30, path.name


def test_forcing_a_game_overrides_the_tag_and_an_unknown_one_is_misuse():
    match = read_text('[Game "ygo"]\nA: break 2\n', game="dm")
    assert (match.game, match.findings, kinds(match)) == ("dm", [], ["break"])
    with pytest.raises(UnknownGame) as info:
        read_text("turn 1 A", game="chess")
    assert isinstance(info.value, ReplayerError)


def test_no_break_and_ideographic_spaces_separate_words():
    # text pasted from a web page carries U+00A0; Japanese input gives the full-width space U+3000
    match = read_text('[Game "ygo"]\n\u3000ターン\u30003\u3000A\nA:\u00a0draw\n@1:00\u3000A: pass\n')
    assert match.findings == []
    assert [(e.kind, e.span, e.timecode) for e in match.events] == [
        ("turn", Span(2, 2, 2, 9), None), ("draw", Span(3, 1, 3, 8), None), ("pass", Span(4, 7, 4, 14), "@1:00")]


# ---- half-width katakana in keywords (issue 14, point 5) -------------------------------------
def _events(text: str, game: str = "ygo"):
    match = read_text(f'[Game "{game}"]\nturn 1 A\n' + text + "\n")
    return match.events[1:], match.findings


def _without_span(event) -> dict:
    from dataclasses import fields

    return {f.name: getattr(event, f.name) for f in fields(event) if f.name != "span"}


@pytest.mark.parametrize("half, full", [
    ("B: ﾀﾞﾒｰｼﾞ 1300", "B: ダメージ 1300"),
    ("ｽﾃｯﾌﾟ ﾊﾞﾄﾙ", "ステップ バトル"),
    ("ﾌｪｲｽﾞ ﾄﾞﾛｰ", "フェイズ ドロー"),
    ('A: ｾｯﾄ "Sangan"', 'A: セット "Sangan"'),
    ("A: ﾗｲﾌ 7000", "A: ライフ 7000"),
])
def test_half_width_katakana_keywords_read_as_full_width(half, full):
    (got,), found = _events(half)
    (want,), _ = _events(full)
    assert found == []
    assert type(got) is type(want) and _without_span(got) == _without_span(want)
    assert (got.span.column, got.span.end_column) == (1, len(half) + 1)  # the line as written


def test_after_a_half_width_keyword_columns_are_the_line_as_written():
    (flip,), found = _events('A: ﾘﾊﾞｰｽ "Sangan"')  # リバース: ﾊﾞ is two characters of the line
    assert found == []
    assert (flip.card.name, flip.card.column, flip.card.end_column) == ("Sangan", 10, 18)
    line = 'A: ﾘﾊﾞｰｽ "Sangan" xyz'
    _, found = _events(line)
    assert [(f.rule, f.span.column) for f in found] == [("syntax.line", 19)]
    assert line[19 - 1 :] == "xyz"
    _, found = _events("A: ﾘﾊﾞｰｽ")
    assert [(f.rule, f.span.column, f.message.split(";")[0]) for f in found] == [
        ("syntax.line", 9, "the line ends too early")]


def test_half_width_katakana_in_card_names_is_kept_as_written():
    (flip,), found = _events('A: ﾘﾊﾞｰｽ 《ｻﾝｶﾞﾝ》 ')
    assert (flip.card.name, flip.card.column, flip.card.end_column) == ("ｻﾝｶﾞﾝ", 10, 17)


def test_find_logs_sorts_a_folder_as_its_paths_sort(tmp_path):
    # `a/b` before `a-b` and `a.b` (part by part), `a` before `ab`: the string key is the paths' order
    from replayer.reader import find_logs

    names = ["a/b.duel", "a-b/c.duel", "a.b/c.duel", "a/x/y.duel", "ab/c.duel", "a b/c.duel", "A/c.duel",
             "a/b.duel.duel", "z.duel", "a/_.duel", "é/c.duel", "a0/c.duel"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = find_logs([tmp_path])
    assert sorted(found) == found
    assert len(found) == len(names)
