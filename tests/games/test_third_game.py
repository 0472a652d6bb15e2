"""A third game, defined inside this test: what code outside ``replayer/games/`` knows of games is
only what a :class:`~replayer.games.base.Game` tells it.

"Tiny" has three line forms (a turn, a draw, playing a card), one property word, a one-card
catalog and one rule: only the turn player draws. It is registered with
:func:`replayer.games.register`, checked through the public API (``replayer.check_text``) and
through ``replayer check`` (text and ``--format json``), its table printed by ``replayer rules``,
and unregistered afterwards. No file outside this test
knows of it.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import replayer
from replayer import events as ev
from replayer import games
from replayer.cli import cli
from replayer.diagnostics import RULES, Kind, define
from replayer.games.base import Game
from replayer.replay import Model

GRAMMAR = r"""
// Tiny: `turn 1 A`, `A: draw` / `A: draw 2`, `A: play "Card" {heavy}`
%import core (tag, turn, CARD_NAME, PROPS, PLAYER, INT, WS_INLINE)
%ignore WS_INLINE

?start: tag | turn | actor
actor: PLAYER ":" _action
_action: draw | set
draw: "draw"i INT?
set: "play"i card
card: CARD_NAME PROPS?
"""

RULE = "tiny.draw.out-of-turn"
CITE = "Tiny rulebook § 2 (drawing)"


class TinyModel(Model):
    """Only the turn player draws."""

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self.turn_player: str | None = None

    def handle_Turn(self, e: ev.Turn) -> None:
        self.turn_player = e.player

    def handle_Draw(self, e: ev.Draw) -> None:
        if self.turn_player is not None and e.player != self.turn_player:
            self.report(RULE, e, f"{e.player} draws during {self.turn_player}'s turn",
                        "only the turn player draws")

    @classmethod
    def describe(cls) -> str:
        return f"Tiny: only the turn player draws  [{CITE}]"


CATALOG = """
[[card]]
en = "Rock"
ja = "いし"
props = ["heavy"]
"""


def tiny_game(catalog_file=None) -> Game:
    return Game(
        id="tiny",
        title="Tiny",
        aliases=("tiny", "tiny game", "ちび"),
        revisions=("first", "second"),
        counter_tag="Points",
        counter_default=10,
        grammar=GRAMMAR,
        model=TinyModel,
        catalog_file=catalog_file,
        property_words=frozenset({"heavy"}),
        example_props='"Name" {heavy}',
        line_forms={"turn": "`turn 1 A`", "draw": "`A: draw` or `A: draw 2`", "play": '`A: play "Card"`'},
        actions=("draw", "play"),
    )


LOG = """[Game "Tiny Game"]
[Points "10"]
turn 1 A
A: draw
B: draw 2
A: play "Rock"
B: play "Paper"
A: jump
"""


@pytest.fixture
def tiny(tmp_path):
    catalog = tmp_path / "catalog.toml"
    catalog.write_text(CATALOG, encoding="utf-8")
    game = tiny_game(catalog)
    before = dict(RULES)
    define(RULE, Kind.WRONG_TIMING, "a player draws during the opponent's turn", CITE)
    games.register(game)
    try:
        yield game
    finally:
        games.unregister(game.id)
        RULES.clear()
        RULES.update(before)
    assert "tiny" not in games.ALL and RULE not in RULES


def test_a_registered_game_is_known_by_its_id_and_its_aliases(tiny):
    assert games.get("tiny") is tiny
    assert games.by_alias("  TINY game ") is tiny
    assert games.by_alias("ちび") is tiny
    assert [c.id for c in tiny.catalog.cards] == ["Rock"] and tiny.catalog.find("いし").props == {"heavy"}


def test_the_api_checks_a_log_of_it(tiny):
    result = replayer.check_text(LOG, path="tiny.duel")
    assert result.match.game == "tiny"
    assert result.match.rules == "first"
    assert [type(e).__name__ for e in result.match.events] == ["Turn", "Draw", "Draw", "SetCard", "SetCard"]
    assert [(f.line, f.severity.value, f.rule) for f in result.findings] == [
        (5, "error", RULE),
        (7, "warning", "card.unknown"),
        (8, "error", "syntax.line"),
    ]
    draw, unknown, syntax = result.findings
    assert (draw.kind, draw.cite, draw.message) == (Kind.WRONG_TIMING, CITE, "B draws during A's turn")
    assert unknown.message.startswith('"Paper" is not in the Tiny card catalog')
    assert unknown.hint == 'add its properties inline, e.g. "Name" {heavy}'
    assert (unknown.span.column, unknown.span.end_column) == (9, 16)
    assert "expected" in syntax.message
    assert result.errors == 2


def test_its_header_and_property_words_are_its_own(tiny):
    log = '[Game "tiny"]\n[Rules "third"]\n[Points "many"]\nturn 1 A\nA: play "Rock" {heavy, quick}\n'
    found = [(f.line, f.rule, f.message) for f in replayer.check_text(log).findings]
    assert found == [
        (2, "syntax.header", "unknown rules revision 'third' for tiny; judged by 'first'"),
        (3, "syntax.header", "[Points] must be a whole number of at most 15 digits, not 'many'"),
        (5, "syntax.property", 'unknown property `quick` on "Rock"; it is ignored'),
    ]
    assert replayer.check_text('[Game "tiny"]\n[Rules "second"]\nturn 1 A\n').match.rules == "second"
    # Yu-Gi-Oh!'s words mean nothing here
    assert "syntax.line" in {f.rule for f in replayer.check_text('[Game "tiny"]\nturn 1 A\nA: pass\n').findings}


def test_a_forced_game_and_the_hint_for_a_log_without_a_game_name_it(tiny):
    forced = replayer.check_text("turn 1 A\nA: draw\nB: draw\n", game="tiny")
    assert [(f.line, f.rule) for f in forced.findings] == [(3, RULE)]
    unknown = replayer.check_text('[Game "chess"]\nturn 1 A\nA: draw\n')
    (header,) = [f for f in unknown.findings if f.rule == "syntax.header"]
    assert '[Game "tiny"]' in header.hint


def test_replayer_check_reads_it(tiny, tmp_path):
    path = tmp_path / "tiny.duel"
    path.write_text(LOG, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "--color", "never", str(path)])
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert f"{path}:5:1: error[{RULE}]: B draws during A's turn" in out
    assert "  B: draw 2\n  ^~~~~~~~~\n  = hint: only the turn player draws\n" in out
    assert f"  = cite: {CITE}" in out
    assert f"{path}:7:9: warning[card.unknown]" in out
    assert f"{path}:8:" in out and "error[syntax.line]" in out
    assert "1 file checked: 2 errors, 1 warning" in result.stderr


def test_replayer_check_json_reads_it(tiny, tmp_path):
    path = tmp_path / "tiny.duel"
    path.write_text(LOG, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    assert result.exit_code == 1, result.output
    (line,) = result.stdout.splitlines()
    data = json.loads(line)
    assert {k: data[k] for k in ("file", "game", "rules", "events")} == {
        "file": str(path), "game": "tiny", "rules": "first", "events": 5}
    assert [(f["line"], f["rule"]) for f in data["findings"]] == [(5, RULE), (7, "card.unknown"), (8, "syntax.line")]
    assert data["findings"][0] == {
        "severity": "error", "kind": "wrong-timing", "rule": RULE, "line": 5, "column": 1,
        "message": "B draws during A's turn", "hint": "only the turn player draws", "cite": CITE}


def test_the_other_games_are_untouched_while_it_is_registered(tiny):
    assert replayer.check_text('[Game "ygo"]\nturn 1 A\nA: draw\n').findings == []
    dm = replayer.check_text('[Game "dm"]\nturn 1 A\nA: charge "X" {creature}\n')
    assert dm.match.game == "dm" and dm.findings == []


def test_replayer_rules_knows_it(tiny):
    runner = CliRunner()
    rules = runner.invoke(cli, ["rules", "TINY"])
    assert (rules.exit_code, rules.stdout) == (0, f"Tiny: only the turn player draws  [{CITE}]\n")
    assert "{ygo|dm|tiny}" in runner.invoke(cli, ["rules", "--help"]).stdout


def test_a_game_without_a_catalog_knows_no_card():
    bare = tiny_game()
    assert len(bare.catalog) == 0
