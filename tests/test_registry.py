"""The rule registry and the names the models dispatch on.

* the registry (``replayer.diagnostics.RULES``) is complete once ``import replayer`` returns;
* every rule id is documented (docs/rules-ygo.md, docs/rules-dm.md, docs/notation.md);
* every rule id is triggered by a sample: a game's rules by the scenario logs under
  ``samples/<game>/rulings/`` (tests/test_rulings.py), the reader's own rules by the small
  sample files below;
* every ``handle_<Name>`` of a game's model names an event class, and every guard and table row
  of the Duel Masters and Yu-Gi-Oh! tables names a predicate that exists.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import replayer
from replayer import RULES, check, games
from replayer import events as ev
from replayer.cli import cli
from replayer.games.dm import rules as dm
from replayer.games.dm.model import Creature
from replayer.games.ygo import rules as ygo

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / name for name in ("rules-ygo.md", "rules-dm.md", "notation.md")]


def game_of(rule_id: str) -> str | None:
    """The game a rule belongs to (its id starts with the game's id), or None for the reader's."""
    prefix = rule_id.split(".", 1)[0]
    return prefix if prefix in games.ALL else None


# ---- complete once imported ----------------------------------------------------------------------
def test_the_registry_is_complete_once_replayer_is_imported():
    """In a fresh interpreter: the ids after `import replayer` are all there will ever be, even after
    checking a log of every game."""
    script = (
        "import json, replayer\n"
        "before = sorted(replayer.RULES)\n"
        "for g in replayer.games.ALL:\n"
        "    replayer.check_text(f'[Game \"{g}\"]\\nturn 1 A\\nresolve\\n')\n"
        "from replayer import cli, store  # the command line and the library register nothing either\n"
        "print(json.dumps([before, sorted(replayer.RULES)]))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    before, after = json.loads(out.stdout)
    assert before == after
    assert len(before) >= 70
    assert set(before) == set(RULES) - {r for r in RULES if r.startswith("test.")}


# ---- documented --------------------------------------------------------------------------------
def documented_ids() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS)
    return set(re.findall(r"`([a-z0-9-]+(?:\.[a-z0-9-]+)+)`", text))


def test_every_rule_id_is_documented():
    assert sorted(set(RULES) - documented_ids()) == []


def test_every_rule_of_a_game_is_documented_in_its_games_doc():
    text = {g: (ROOT / "docs" / f"rules-{g}.md").read_text(encoding="utf-8") for g in ("ygo", "dm")}
    for rule_id in RULES:
        game = game_of(rule_id)
        if game in text:
            assert f"`{rule_id}`" in text[game], rule_id


def test_every_documented_rule_id_exists():
    """A rule id in a doc that no code registers is a stale doc (or a typo)."""
    ids = {i for i in documented_ids() if game_of(i) or i.split(".")[0] in ("syntax", "file", "card")}
    assert sorted(ids - set(RULES)) == []


def test_the_registry_tables_in_the_docs_agree_with_the_registry():
    """Each row `| `id` | kind | severity | ...` of a doc's registry table says what the registry says."""
    rows = 0
    for path in DOCS:
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\|\s*`([\w.-]+)`\s*\|\s*([\w-]+)\s*\|\s*(error|warning|info)\s*\|", line)
            if m and m.group(1) in RULES:
                rule = RULES[m.group(1)]
                assert (m.group(2), m.group(3)) == (rule.kind.value, rule.severity.value), line
                rows += 1
    assert rows == len(RULES)  # every rule has a row


# ---- triggered by a sample -------------------------------------------------------------------------
#: the reader's rules (those of no game), each with a small sample that gives it
READER_SAMPLES: dict[str, bytes] = {
    "syntax.line": b'[Game "ygo"]\nturn 1 A\nA: activat "Honest"\n',
    "syntax.header": b'turn 1 A\nA: draw\n',
    "syntax.header-late": b'[Game "ygo"]\nturn 1 A\n[Round "3"]\nA: draw\n',
    "syntax.header-date": b'[Game "ygo"]\n[Date "the day after"]\nturn 1 A\nA: draw\n',
    "syntax.number": b'[Game "ygo"]\nturn 1 A\nB: damage 1234567890123456\n',
    "syntax.property": b'[Game "ygo"]\nturn 1 A\nA: normal summon "X" {quik}\n',
    "syntax.encoding": b'[Game "ygo"]\nturn 1 A\nA: activate "\xff"\n',
    "syntax.empty": b'[Game "ygo"]\n[A "Yugi"]\n',
    "card.unknown": b'[Game "ygo"]\nturn 1 A\nA: normal summon "Nobody Knows This Card"\n',
}


#: reader rules a plain sample file cannot give, and the test that gives them
TRIGGERED_ELSEWHERE = {
    "file.unreadable": "tests/test_registry.py",  # a file that cannot be opened: below
    "card.ability-not-read": "tests/games/dm/test_abilities.py",  # needs imported card text: a test's own card list
}


def test_every_rule_is_a_game_rule_or_has_a_reader_sample():
    reader_rules = {r for r in RULES if game_of(r) is None and not r.startswith("test.")}
    assert sorted(reader_rules) == sorted(set(READER_SAMPLES) | set(TRIGGERED_ELSEWHERE))


@pytest.mark.parametrize("rule_id", sorted(TRIGGERED_ELSEWHERE))
def test_the_rules_no_sample_gives_are_asserted_by_a_test(rule_id):
    text = (ROOT / TRIGGERED_ELSEWHERE[rule_id]).read_text(encoding="utf-8")
    assert re.search(r"assert .*" + re.escape(f'"{rule_id}"'), text), rule_id


@pytest.mark.parametrize("rule_id", sorted(READER_SAMPLES))
def test_each_reader_rule_is_triggered_by_its_sample(rule_id, tmp_path):
    path = tmp_path / "sample.duel"
    path.write_bytes(READER_SAMPLES[rule_id])
    rules = [f.rule for f in check(path).findings]
    assert rule_id in rules


def test_file_unreadable_is_given_for_a_file_that_cannot_be_opened(tmp_path):
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(tmp_path / "missing.duel")])
    assert result.exit_code == 2
    (line,) = result.output.splitlines()[-1:]
    assert [f["rule"] for f in json.loads(line)["findings"]] == ["file.unreadable"]


def test_every_game_has_its_own_rules_and_scenarios():
    # the scenarios that trigger each game's rules are checked in tests/test_rulings.py
    for game in games.ALL.values():
        assert any(game_of(r) == game.id for r in RULES), game.id
        assert list((ROOT / "samples" / game.id / "rulings").glob("*.duel")), game.id


# ---- dispatch names resolve ----------------------------------------------------------------------
EVENT_CLASSES = {name: cls for name, cls in vars(ev).items()
                 if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event}


@pytest.mark.parametrize("game_id", sorted(games.ALL))
def test_every_handler_names_an_event_class(game_id):
    model = games.get(game_id).model
    handlers = [name for name in dir(model) if name.startswith("handle_")]
    assert handlers, f"{game_id}'s model handles nothing"
    for name in handlers:
        assert name[len("handle_"):] in EVENT_CLASSES, f"{model.__name__}.{name} names no event class"
        assert callable(getattr(model, name))
        assert list(inspect.signature(getattr(model, name)).parameters) == ["self", "e"], name


@pytest.mark.parametrize("game_id", sorted(games.ALL))
def test_the_model_is_a_model(game_id):
    from replayer.replay import Model

    assert issubclass(games.get(game_id).model, Model)


def named_function_of(module, fn) -> bool:
    return inspect.isfunction(fn) and fn.__name__ != "<lambda>" and getattr(module, fn.__name__, None) is fn


def test_every_dm_guard_names_a_predicate_and_a_registered_rule():
    guards = [g for group in dm.ATTACK_GUARDS for g in group] + list(dm.DECLARATION_GUARDS)
    assert len(guards) == 16
    for g in guards:
        assert named_function_of(dm, g.fails), g.rule
        assert g.rule in RULES and game_of(g.rule) == "dm", g.rule
    assert len({g.rule for g in guards}) == len(guards)  # one guard a rule


def test_the_dm_guards_take_what_the_model_gives_them():
    """Each predicate answers on the object the model builds, and each message formats with the
    words the model fills in (a wrong placeholder would be a traceback on a real log)."""
    creature = Creature("x", "x", "X", "A", tapped=True)
    declaration = dm.Declaration(creature, frozenset({"cannot-attack"}), True, True, None)
    for group in dm.ATTACK_GUARDS:
        for g in group:
            assert isinstance(g.fails(declaration), bool), g.rule
            g.message.format(card='"X"', target='"Y"', by=' by "X"', source='"Z"', written='"X"')
            g.hint.format(card='"X"', target='"Y"', by=' by "X"', source='"Z"', written='"X"')
    for kind in ("block", "guardman", "redirect"):
        defence = dm.Defence(kind, frozenset(), True, True, True)
        for g in dm.DECLARATION_GUARDS:
            assert isinstance(g.fails(defence), bool), g.rule
            fill = {"card": '"X"', "ability": dm.ABILITY_OF[kind], "kind": kind, "target": '"Y"', "why": "",
                    "attacker": '"Z"', "written": '"X"', "word": dm.ABILITY_OF[kind]}
            g.message.format(**fill)
            g.hint.format(**fill)


def test_the_dm_line_table_names_event_classes_and_rows_that_exist():
    for cls, kind in dm._KINDS.items():
        assert cls in EVENT_CLASSES.values(), cls
        assert kind in dm.LINE_BY_KIND, kind
    for s in dm.SHOWINGS:
        assert s.kinds <= set(dm.LINE_BY_KIND), s.name
        assert s.rule in RULES, s.name
    assert set(dm.ABILITY_OF) <= set(dm.LINE_BY_KIND)


def test_every_ygo_clause_names_a_predicate_and_its_late_rule_exists():
    for cl in ygo.CLAUSES:
        assert named_function_of(ygo, cl.applies), cl.name
        assert cl.late_rule is None or cl.late_rule in RULES, cl.name
    assert set(ygo.ONCE_PER_TIMING) <= {cl.name for cl in ygo.CLAUSES}
    for revision in ygo.REVISIONS.values():
        assert set(revision.timings) | set(revision.once) <= {cl.name for cl in ygo.CLAUSES}
    assert set(ygo.REVISIONS) == set(games.get("ygo").revisions)


def test_the_package_exports_what_it_says():
    for name in replayer.__all__:
        assert hasattr(replayer, name), name
