"""replayer/replay.py: the machinery every game's rules model shares.

Dispatch of each event to ``handle_<EventClass>``, card identity (one card whatever its language,
quote style or copy), the merge of catalog and inline properties, the ``card.unknown`` warning
and ``report``. The models here are small subclasses of :class:`Model` written for the test; the
logs are Yu-Gi-Oh! lines because a match needs a game to be read.
"""

from __future__ import annotations

import pytest

from replayer import events as ev
from replayer.catalog import CardInfo, Catalog
from replayer.diagnostics import RULES, Kind, Span, define
from replayer.games import get as get_game
from replayer.check import read_text
from replayer.replay import Model

HEADER = '[Game "ygo"]\n'


def match_of(body: str):
    return read_text(HEADER + body)


def made(cls, match, catalog=None):
    """A model of class ``cls`` for ``match``, handed the match's game (as check.replay does)."""
    return cls(match, get_game(match.game), catalog)


CATALOG = Catalog("ygo", [
    CardInfo("Honest", "ygo", {"en": "Honest", "ja": "オネスト", "de": "Ehrliche Haut"}, kind="effect-monster",
             atk=1100, def_=1900, props=frozenset({"effect-monster", "quick", "atk-mod"})),
    CardInfo("Kuriboh", "ygo", {"en": "Kuriboh", "ja": "クリボー"}, kind="effect-monster", atk=300, def_=200,
             props=frozenset({"effect-monster", "quick"})),
])


@pytest.fixture
def test_rule():
    """A rule id of the test's own, removed from the registry afterwards."""
    before = dict(RULES)
    yield define("test.replay.seen", Kind.STATE, "a card the test model reports", "the test")
    RULES.clear()
    RULES.update(before)


# ---- dispatch -------------------------------------------------------------------------------
class Recorder(Model):
    """Records what it is called with."""

    def __init__(self, match, game, catalog=None):
        super().__init__(match, game, catalog)
        self.calls: list[tuple[str, int]] = []
        self.finished_after: list[tuple[str, int]] | None = None

    def handle_Turn(self, e: ev.Turn) -> None:
        assert self.event is e  # the event being replayed is known while it is handled
        self.calls.append(("turn", e.line))

    def handle_Summon(self, e: ev.Summon) -> None:
        self.calls.append(("summon", e.line))

    def finish(self) -> None:
        assert self.event is None
        self.finished_after = list(self.calls)


def test_each_event_goes_to_the_handler_named_after_its_class_and_the_others_are_skipped():
    model = made(Recorder, match_of('turn 1 A\nA: draw\nA: normal summon "Kuriboh"\nphase battle\nturn 2 B\n'),
                     CATALOG)
    assert model.run() == []
    assert model.calls == [("turn", 2), ("summon", 4), ("turn", 6)]  # lines count the header
    assert model.finished_after == model.calls  # finish() comes after the last event


def test_a_subclass_handler_of_a_base_class_name_is_not_called_for_a_subclass_event():
    # dispatch is by the event's exact class: a `handle_Event` catch-all is never called
    class CatchAll(Model):
        seen = 0

        def handle_Event(self, e):
            CatchAll.seen += 1

    made(CatchAll, match_of("turn 1 A\nA: draw\n"), CATALOG).run()
    assert CatchAll.seen == 0


def test_run_returns_the_findings_sorted(test_rule):
    class Backwards(Model):
        def handle_Summon(self, e):
            self.report(test_rule, e, f"line {e.line}")

        def finish(self):  # reported last, lies first
            self.report(test_rule, ev.Pass(span=Span(1, 1)), "line 1")

    found = made(Backwards, match_of('turn 1 A\nA: normal summon "Kuriboh"\nA: normal summon "Honest"\n'),
                      CATALOG).run()
    assert [f.message for f in found] == ["line 1", "line 3", "line 4"]


def test_the_model_knows_its_game_and_rules_revision():
    model = made(Model, read_text('[Game "ygo"]\n[Rules "mr2"]\nturn 1 A\n'))
    assert model.game.id == "ygo" and model.game_name == "Yu-Gi-Oh!" and model.rules == "mr2"
    # the built-in catalog (then the imported card database, if any) unless one is given
    assert model.catalog.find("Honest") is model.game.catalog.find("Honest") is not None
    assert made(Model, match_of("turn 1 A\n"), CATALOG).catalog is CATALOG


# ---- card identity ------------------------------------------------------------------------------
def refs(model: Model, body: str) -> list[ev.CardRef]:
    return [ref for e in read_text(HEADER + body).events for ref in e.cards()]


@pytest.mark.parametrize("spelling", ['"Honest"', '《オネスト》', '「オネスト」', '„Ehrliche Haut“', '"honest"',
                                      '"  Honest "'])
def test_a_catalog_card_is_one_card_in_every_language_and_quote_style(spelling):
    model = made(Model, match_of("turn 1 A\n"), CATALOG)
    (ref,) = refs(model, f"A: normal summon {spelling}\n")
    assert model.card_name_key(ref) == "Honest"
    assert model.card_key(ref) == "Honest"


def test_an_unknown_card_is_one_card_whatever_its_case_spacing_or_quotes():
    model = made(Model, match_of("turn 1 A\n"), CATALOG)
    keys = {model.card_name_key(r) for r in refs(model, 'A: normal summon "Night  Owl"\nA: set 「night owl」\n'
                                                        'A: flip „NIGHT OWL“\n')}
    assert keys == {"night owl"}


def test_copies_are_different_cards_of_the_same_name():
    model = made(Model, match_of("turn 1 A\n"), CATALOG)
    plain, one, two, two_ja = refs(model, 'A: set "Kuriboh"\nA: set "Kuriboh"#1\nA: set "Kuriboh"#2\n'
                                          "A: set 《クリボー》#2\n")
    assert {model.card_name_key(r) for r in (plain, one, two, two_ja)} == {"Kuriboh"}
    assert [model.card_key(r) for r in (plain, one, two, two_ja)] == ["Kuriboh", "Kuriboh#1", "Kuriboh#2",
                                                                     "Kuriboh#2"]


def test_copies_share_the_facts_of_their_card():
    model = made(Model, match_of('turn 1 A\nA: set "Night Owl"#1 {quick}\nA: set "Night Owl"#2\n'), CATALOG)
    assert model.run() == []  # the second copy is known through the first: no unknown-card warning
    assert list(model.facts) == ["night owl"]
    assert model.facts["night owl"].name == "Night Owl#1"  # as first written


# ---- what is known about a card ------------------------------------------------------------------
def test_catalog_and_inline_properties_are_merged():
    model = made(Model, match_of('turn 1 A\nA: normal summon "Honest"\nA: activate 《オネスト》 {ds-ok}\n'), CATALOG)
    model.run()
    facts = model.facts["Honest"]
    assert facts.info is CATALOG.find("Honest")
    assert facts.inline and facts.known
    assert facts.props == frozenset({"ds-ok"})  # what the log said
    assert facts.effect_props() == frozenset({"effect-monster", "quick", "atk-mod", "ds-ok"})


def test_inline_stats_override_the_catalogs_and_power_comes_from_its_word():
    model = made(Model, match_of('turn 1 A\nA: normal summon "Honest" 1500/?\nA: set "Night Owl" {power 4000}\n'),
                  CATALOG)
    model.run()
    honest = model.facts["Honest"]
    assert (honest.atk, honest.def_) == (1500, 1900)  # `?` keeps what the catalog says
    # `power` is no Yu-Gi-Oh! property: the reader warns that it is ignored, and so it is (issue 13)
    assert model.facts["night owl"].power is None
    dm = made(Model, read_text('[Game "dm"]\nturn 1 A\nA: summon "Night Owl" {creature, power 4000}\n'))
    dm.run()
    assert dm.facts["night owl"].power == 4000


def test_a_card_known_only_from_the_log_has_no_catalog_entry():
    model = made(Model, match_of('turn 1 A\nA: activate "Night Owl" {quick-play}\n'), CATALOG)
    assert model.run() == []
    facts = model.facts["night owl"]
    assert facts.info is None and facts.inline and facts.known
    assert facts.effect_props() == frozenset({"quick-play"})
    assert facts.effect_props(2, trigger=True) == frozenset({"quick-play"})  # no effects to choose from


def test_facts_of_a_card_not_mentioned_yet_learns_it():
    model = made(Model, match_of("turn 1 A\n"), CATALOG)
    facts = model.facts_of(ev.CardRef("Kuriboh"))
    assert facts.info is CATALOG.find("Kuriboh") and (facts.atk, facts.def_) == (300, 200)
    assert model.facts_of(ev.CardRef("クリボー")) is facts


# ---- the unknown-card warning ------------------------------------------------------------------
def test_an_unknown_card_is_warned_about_once_at_its_first_mention():
    body = 'turn 1 A\nA: normal summon "Night Owl"\nA: set "Night Owl"\nA: flip 「night owl」#2\n'
    found = made(Model, match_of(body), CATALOG).run()
    assert [(f.rule, f.severity.value, f.span) for f in found] == [
        ("card.unknown", "warning", Span(3, 18, 3, 29))]  # the card's columns on line 3
    assert found[0].message == ('"Night Owl" is not in the Yu-Gi-Oh! card catalog and the log gives no '
                                "properties for it; rules that depend on it are not checked")
    assert found[0].hint == "add its properties inline, e.g. " + made(Model, match_of(""), CATALOG).example_props()


def test_each_unknown_card_gets_its_own_warning():
    found = made(Model, match_of('turn 1 A\nA: attack "Night Owl" -> "Day Hawk"\n'), CATALOG).run()
    assert [(f.rule, f.span.column) for f in found] == [("card.unknown", 11), ("card.unknown", 26)]


def test_a_card_in_the_catalog_or_with_inline_properties_is_not_unknown():
    body = 'turn 1 A\nA: normal summon 《オネスト》\nA: set "Night Owl" {flip}\nA: set "Night Owl"\n'
    assert made(Model, match_of(body), CATALOG).run() == []


def test_a_card_given_only_stats_is_still_unknown_and_warned_about_once():
    found = made(Model, match_of('turn 1 A\nA: normal summon "Night Owl" 1000/1000\nA: atk "Night Owl" 1500\n'
                           'A: attack "Night Owl" 1500/1000 -> direct\n'), CATALOG).run()
    assert [(f.line, f.rule) for f in found] == [(3, "card.unknown")]


# ---- report --------------------------------------------------------------------------------------
class Reporter(Model):
    """Reports the test rule at every card of a summon, and once more for the whole line."""

    rule = ""

    def handle_Attack(self, e: ev.Attack) -> None:
        for _ in range(2):  # a mistake is reported once, however often a model notices it
            self.report(self.rule, e, "at the attacker", card=e.attacker)
            self.report(self.rule, e, "at the target", "h", card=e.target, related=[ev.Pass(span=Span(2, 1)),
                                                                                     Span(1, 3)])
            self.report(self.rule, e, "the line")


def test_report_gives_one_finding_a_place_and_puts_it_at_the_cards_columns(test_rule):
    Reporter.rule = test_rule
    found = made(Reporter, match_of('turn 1 A\nA: attack "Honest" -> "Kuriboh"\n'), CATALOG).run()
    assert [(f.message, f.span) for f in found] == [
        ("the line", Span(3, 1, 3, 32)),  # the event's own span
        ("at the attacker", Span(3, 11, 3, 19)),
        ("at the target", Span(3, 23, 3, 32)),
    ]
    target = found[2]
    assert target.hint == "h" and target.related == (Span(2, 1), Span(1, 3))
    assert (target.kind, target.cite) == (Kind.STATE, "the test")  # from the registry


def test_the_same_rule_on_another_line_is_another_finding(test_rule):
    Reporter.rule = test_rule
    found = made(Reporter, match_of('turn 1 A\nA: attack "Honest" -> "Kuriboh"\nA: attack "Honest" -> "Kuriboh"\n'),
                     CATALOG).run()
    assert len(found) == 6


def test_a_card_without_columns_is_reported_at_the_event(test_rule):
    class AtCard(Model):
        def handle_Turn(self, e):
            self.report(test_rule, e, "m", card=ev.CardRef("Honest"))

    (f,) = made(AtCard, match_of("turn 1 A\n"), CATALOG).run()
    assert f.span == Span(2, 1, 2, 9)


def test_a_card_learner_is_written_once_a_process_not_once_a_replay():
    # an import replays thousands of short logs: writing (exec) the learner of each event class at
    # every replay cost more than the replay itself
    from replayer import replay as replay_module
    from replayer.check import check_text

    replay_module._learner.cache_clear()
    log = '[Game "ygo"]\nturn 1 A\nphase main1\nA: normal summon "Breaker the Magical Warrior"\n'
    check_text(log)
    written = replay_module._learner.cache_info().misses
    assert written  # the classes of the log's events: their learners were written
    check_text(log)
    check_text(log.replace("Breaker the Magical Warrior", "Dark Magician"))
    info = replay_module._learner.cache_info()
    assert info.misses == written and info.hits >= written  # asked again, written no more


class _Counting(Catalog):
    """A catalog that counts what it is asked."""

    def __init__(self, *a):
        super().__init__(*a)
        self.finds = self.suggests = 0

    def find(self, name):
        self.finds += 1
        return super().find(name)

    def suggest(self, name, limit=3):
        self.suggests += 1
        return super().suggest(name, limit)


def test_a_catalogs_names_and_unknown_cards_messages_are_made_once_a_process_for_every_replay():
    # an import replays thousands of short logs with one catalog: each log looked every name up and
    # made its unknown cards' messages again
    catalog = _Counting("ygo", list(CATALOG.cards))
    log = 'turn 1 A\nphase main1\nA: activate "Honest" from hand\nA: activate "Kurbioh" from hand\n'
    first = made(Model, match_of(log), catalog)
    findings = first.run()
    asked = catalog.finds, catalog.suggests
    assert asked[0] and asked[1] == 1
    again = made(Model, match_of(log + 'A: activate "オネスト" from hand\n'), catalog)
    assert again.run() == findings  # the same findings; the new spelling is looked up, no other name
    assert (catalog.finds, catalog.suggests) == (asked[0] + 1, 1)
    assert again.facts["Honest"].info is CATALOG.find("Honest") and again.card_name_key(ev.CardRef("オネスト")) == "Honest"
    # each replay's own names stay its own (what it saw), and are no part of what it shares
    assert "オネスト" in again._name_keys and "オネスト" not in first._name_keys
    assert {"_keys", "_unknown"} <= Model.NOT_STATE
    # another catalog is asked itself: nothing is shared between catalogs
    other = _Counting("ygo", list(CATALOG.cards))
    assert made(Model, match_of(log), other).run() == findings and other.finds and other.suggests == 1
