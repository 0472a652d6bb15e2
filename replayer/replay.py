"""Replays a match's events through a game's rules model and returns findings.

The machinery both games share lives here: dispatch of each event to ``handle_<EventClass>``,
card identity (a card is the same whatever language or quote style names it), the merge of the
catalog's properties with the log's inline ``{...}``, the ``unknown-card`` warnings, and
``report`` which turns a registered rule id into a finding at the right line and column.
A game's rules model (``replayer/games/<id>/model.py``) subclasses :class:`Model`; it keeps its
own game state and has no side effects beyond its findings. Its :attr:`Model.states` (the game's
:class:`~replayer.states.Replay` of the same events) records the positions and the outline the
first time they are asked, so a check that wants only the findings never pays for them. Nothing
here knows a game by name, nor Qt or SQLite; :mod:`replayer.check` is the pipeline that calls it,
and hands a model the :class:`~replayer.games.Game` it works for and the card catalog to use.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable

from . import events as ev
from .catalog import Catalog, CardInfo, name_key
from .diagnostics import Finding, Span, make_finding, sort_findings
from .i18n import M, Msg, Name, card_name, join, title
from .restart import Restart, copy_state

if TYPE_CHECKING:
    from .games import Game
    from .reader import Match
    from .states import Replay


@dataclass
class CardFacts:
    """What is known about one card of this match: catalog entry merged with the log's mentions."""

    key: str
    name: str  # as first written
    info: CardInfo | None
    props: frozenset[str]
    atk: int | None = None
    def_: int | None = None
    power: int | None = None
    inline: bool = False  # the log gave properties for it

    @property
    def known(self) -> bool:
        return self.info is not None or self.inline

    def effect_props(self, effect: int | None = None, *, flip: bool = False, trigger: bool = False) -> frozenset[str]:
        if self.info is None:
            return self.props
        return self.info.effect_props(effect, flip=flip, trigger=trigger) | self.props

    @property
    def imported_from(self) -> str:
        """Where the card's facts came from when they are imported card data (not the catalog, not inline)."""
        if self.inline or self.info is None:
            return ""
        effects = getattr(self.info, "effect_sources", ())
        return effects[0] if len(effects) == 1 else getattr(self.info, "source", "")


@lru_cache(maxsize=None)  # once a process (a model's dispatch is per run: an import replays thousands of logs)
def _learner(cls: type) -> Callable[..., None] | None:
    """For an event class that names cards, a function ``(event, name keys, facts, learn)`` that calls
    ``learn(ref, event)`` for each card of :meth:`~replayer.events.Event.cards`, in order, that may
    teach something: a plain mention of a card already known teaches nothing, and is skipped without
    the call. Written out for the class's card fields (no tuple of the cards is made); None for a
    class that names no cards."""
    names = ev.card_fields(cls)
    if not names:
        return None
    if cls.cards is not ev.Event.cards:  # a class that says its cards itself
        def learns(event, name_keys, facts, learn):
            for ref in event.cards():
                if ref.props or ref.atk is not None or ref.def_ is not None or ref.power is not None \
                        or name_keys.get(ref.name) not in facts:
                    learn(ref, event)
        return learns
    teaches = ("if {r}.props or {r}.atk is not None or {r}.def_ is not None or {r}.power is not None "
               "or name_keys.get({r}.name) not in facts:")
    lines = ["def learns(event, name_keys, facts, learn):"]
    for name in names:  # as Event.cards: a card, or a (non-empty) tuple of them
        lines += [f"    v = event.{name}",
                  "    if isinstance(v, _CardRef):",
                  "        " + teaches.format(r="v"),
                  "            learn(v, event)",
                  "    elif v:",
                  "        for ref in v:",
                  "            " + teaches.format(r="ref"),
                  "                learn(ref, event)"]
    env: dict[str, object] = {"_CardRef": ev.CardRef}
    exec("\n".join(lines), env)  # noqa: S102  (code built from the class's own field names)
    learns = env["learns"]
    learns.__qualname__ = f"learns({cls.__name__})"  # type: ignore[attr-defined]
    return learns  # type: ignore[return-value]


#: per card catalog, for every model that replays with it in this process: a card name as written
#: -> (the key its facts are kept under, its catalog entry), and (model class, game, name) -> the
#: message and hint of its ``card.unknown`` finding. A catalog's answers for a name do not change
#: (the built-in catalog is data; a layered one keeps its own answers; a new card database is a new
#: catalog), so an import of thousands of logs folds and looks up each name once, not once a log.
_BY_CATALOG: dict[Catalog, tuple[dict[str, tuple[str, "CardInfo | None"]], dict[tuple, tuple[Msg, Msg]]]] = {}
#: names kept per catalog before its entry starts again empty (and catalogs kept in all)
NAMES_KEPT, CATALOGS_KEPT = 50_000, 8


def _kept_for(catalog: Catalog) -> tuple[dict[str, tuple[str, "CardInfo | None"]], dict[tuple, tuple[Msg, Msg]]]:
    kept = _BY_CATALOG.get(catalog)
    if kept is None or len(kept[0]) + len(kept[1]) > NAMES_KEPT:
        if kept is None and len(_BY_CATALOG) >= CATALOGS_KEPT:
            _BY_CATALOG.clear()
        kept = _BY_CATALOG[catalog] = ({}, {})
    return kept


class Model:
    """Base of a game's rules model. ``run()`` replays the events and returns the findings.

    It is handed the :class:`~replayer.games.Game` it works for (the match's) and the card
    catalog to use (:func:`replayer.check.replay` hands the built-in catalog, then the imported
    card database when there is one: :func:`replayer.cards.layers.catalog_for`); without one, the
    game's built-in catalog."""

    def __init__(self, match: "Match", game: "Game", catalog: Catalog | None = None):
        self.match = match
        self.game: "Game" = game
        self.catalog = catalog if catalog is not None else game.catalog
        self.rules = match.rules
        self.findings: list[Finding] = []
        self.facts: dict[str, CardFacts] = {}
        self._reported: set[tuple[int, int, str]] = set()
        self.event: ev.Event | None = None  # the event being replayed
        self._name_keys: dict[str, str] = {}
        #: the catalog's keys and entries of names, and unknown cards' messages, shared (:func:`_kept_for`)
        self._keys, self._unknown = _kept_for(self.catalog)
        #: the states of this match's events (:mod:`replayer.states`), recorded when first asked
        self.states: "Replay" = game.states(match, game, self.catalog)
        #: where a replay of an edited text of this match may start (:meth:`run`'s ``keep``)
        self.restart: Restart | None = None

    # ---- the replay ---------------------------------------------------------------------
    def run(self, resume: Restart | None = None, keep: int | None = None) -> list[Finding]:
        """Replay the events: the findings (sorted). :attr:`states` records its states when first asked.

        ``resume``: start from that :class:`~replayer.restart.Restart` (a replay of a match whose
        events before its index are this match's, with the same :attr:`restart_key`) instead of
        from the first event. ``keep``: take a restart before event ``keep`` (:attr:`restart`), for
        the next edit of the text; without it :attr:`restart` is the one the replay started from."""
        events = self.match.events
        start = 0
        if resume is not None:
            self.load(resume)
            start = resume.index
        self.restart = resume
        # event class -> (its handler or None, does it name cards)
        dispatch: dict[type, tuple] = {}
        if keep is not None and start <= keep <= len(events):
            self._replay(events[start:keep], dispatch)
            self.restart = self.save(keep)
            self._replay(events[keep:], dispatch)
        else:
            self._replay(events[start:] if start else events, dispatch)
        self.event = None
        self.finish()
        return sort_findings(self.findings)

    def _replay(self, events: list[ev.Event], dispatch: dict[type, tuple]) -> None:
        facts = self.facts
        name_keys = self._name_keys
        learn = self.learn
        for event in events:
            self.event = event
            cls = type(event)
            entry = dispatch.get(cls)
            if entry is None:
                entry = dispatch[cls] = (getattr(self, "handle_" + cls.__name__, None), _learner(cls))
            handler, learns = entry
            if learns is not None:  # the event names cards: what they teach (see _learner)
                learns(event, name_keys, facts, learn)
            if handler is not None:
                handler(event)

    # ---- restarting part-way (replayer.restart) ------------------------------------------------
    #: what is not the replay's state: set by the constructor from the match, or the findings and
    #: restart, which a :class:`~replayer.restart.Restart` holds apart
    NOT_STATE = frozenset({"match", "game", "catalog", "rules", "states", "event", "findings", "restart",
                           "_keys", "_unknown"})

    @property
    def restart_key(self) -> tuple:
        """What the state depends on besides the events and the card data."""
        return type(self), self.rules, tuple(self.match.header.items())

    def save(self, index: int) -> Restart:
        """The state before event ``index`` (the replay is there now) as a restart."""
        state = copy_state({k: v for k, v in vars(self).items() if k not in self.NOT_STATE})
        return Restart(index, self.restart_key, self.catalog, state, tuple(self.findings))

    def load(self, restart: Restart) -> None:
        """Take a copy of ``restart``'s state (the restart itself stays as it is, for the next edit)."""
        self.__dict__.update(copy_state(restart.state))
        self.findings = list(restart.findings)

    def finish(self) -> None:
        """Called after the last event (a log may end anywhere: no finding for that)."""

    # ---- cards --------------------------------------------------------------------------
    def card_name_key(self, ref: ev.CardRef) -> str:
        """The card whatever its language, quote style or copy: what its facts are kept under."""
        name = ref.name
        key = self._name_keys.get(name)
        if key is None:
            known = self._keys.get(name)
            if known is None:
                info = self.catalog.find(name)
                known = self._keys[name] = (info.id if info else name_key(name), info)
            key = self._name_keys[name] = known[0]
        return key

    def card_key(self, ref: ev.CardRef) -> str:
        """One physical card: the name key plus the copy suffix (``"Kuriboh"#2``)."""
        key = self._name_keys.get(ref.name)  # (card_name_key's own first step, for the common case)
        if key is None:
            key = self.card_name_key(ref)
        return key if ref.copy is None else f"{key}#{ref.copy}"

    def learn(self, ref: ev.CardRef, event: ev.Event) -> CardFacts:
        key = self.card_name_key(ref)
        facts = self.facts.get(key)
        if facts is not None and not ref.props and ref.atk is None and ref.def_ is None and ref.power is None:
            return facts  # a plain mention of a known card: nothing to learn
        if facts is None:
            known = self._keys.get(ref.name)  # (card_name_key has just looked it up)
            info = known[1] if known is not None else self.catalog.find(ref.name)
            facts = CardFacts(key, ref.label, info, frozenset(),
                              atk=info.atk if info else None, def_=info.def_ if info else None,
                              power=info.power if info else None)
            self.facts[key] = facts
            first = True
        else:
            first = False
        words = self.game.known_properties(ref.props) if ref.props else ()
        if words:  # the words the reader warned about are ignored here too
            facts.props |= frozenset(words)
            facts.inline = True
            for word in words:
                n = self.game.numbered(word)
                if n is not None and n[0] == "power":
                    facts.power = n[1]
        if ref.atk is not None:
            facts.atk = ref.atk
        if ref.def_ is not None:
            facts.def_ = ref.def_
        if ref.power is not None:
            facts.power = ref.power
        if first and not facts.known:
            message, hint = self.unknown_card(ref.name)
            self.report("card.unknown", event, message, hint, card=ref)
        return facts

    def unknown_card(self, name: str) -> tuple[Msg, Msg]:
        """The message and hint of the ``card.unknown`` finding of a card named ``name`` (made once a
        process for a name, a game and a catalog: the same for every log)."""
        said = (type(self), self.game, name)
        made = self._unknown.get(said)
        if made is not None:
            return made
        maybe = self.catalog.suggest(name)
        message = M('"{card}" is not in the {game} card catalog and the log gives no properties for it; '
                    "rules that depend on it are not checked", card=name, game=self.game_term)
        if maybe:
            message = M("{message}; did you mean {names}?", message=message,
                        names=join(M('"{card}"', card=m) for m in maybe))
            hint = M('if it is "{card}", correct the name; otherwise add its properties inline, e.g. {example}',
                     card=maybe[0], example=self.example_props())
        else:
            hint = M("add its properties inline, e.g. {example}", example=self.example_props())
        made = self._unknown[said] = (message, hint)
        return made

    def facts_of(self, ref: ev.CardRef) -> CardFacts:
        return self.facts.get(self.card_name_key(ref)) or self.learn(ref, self.event or ev.Pass())

    @property
    def game_name(self) -> str:
        return self.game.title

    @property
    def game_term(self) -> Msg | str:
        """The game's title as a word of the messages (a proper name: 遊戯王, デュエル・マスターズ)."""
        return title(self.game.title)

    def card_name(self, ref: ev.CardRef | str) -> Name:
        """A card's name as a message parameter: as the log wrote it (``ref.label``), and the catalog's
        names in the other languages (issue 24: a finding names a card in the reader's language)."""
        label = ref if isinstance(ref, str) else ref.label
        facts = self.facts.get(self._name_keys.get(label, "")) if isinstance(ref, str) else \
            self.facts.get(self.card_name_key(ref))
        info = facts.info if facts is not None else None
        return card_name(label, info.names if info is not None else None)

    def example_props(self) -> str:
        return self.game.example_props

    # ---- findings -----------------------------------------------------------------------
    def amend(self, rule_id: str, event: ev.Event, card: ev.CardRef, more: str | Msg) -> bool:
        """Add ``more`` to the message of ``rule_id``'s finding at ``card`` on ``event``'s line, if there is one.

        One finding a problem: a second rule about the same card at the same place says its part in
        the first one's message instead of a finding of its own (issue 23).
        """
        line = event.span.line
        for i in range(len(self.findings) - 1, -1, -1):
            f = self.findings[i]
            if f.span.line != line:
                if f.span.line < line:
                    break
                continue
            if f.rule == rule_id and f.span.column == card.column:
                text = f.text
                if text is not None:  # the part before "did you mean" says more
                    if text.text.startswith("{message}; did you mean "):
                        text = text.replace(message=M("{message}; {more}", message=text.param("message"), more=more))
                    else:
                        text = M("{message}; {more}", message=text, more=more)
                    self.findings[i] = dataclasses.replace(f, message=text.render("en"), text=text)
                else:
                    head, sep, tail = f.message.partition("; did you mean ")
                    self.findings[i] = dataclasses.replace(f, message=f"{head}; {more}{sep}{tail}")
                return True
        return False

    def report(self, rule_id: str, event: ev.Event, message: str | Msg, hint: str | Msg = "", *,
               card: ev.CardRef | None = None, related: Iterable[ev.Event | Span] = (),
               rests_on: str | None = None) -> None:
        """Add a finding for ``rule_id`` at ``event`` (at ``card``'s column if given).

        One rule gives at most one finding a place: a mistake is reported once. ``rests_on``: the
        facts key of the card whose data the verdict rests on, when it is not ``card``'s.
        """
        place = (event.span.line, card.column if card is not None else 0, rule_id)
        if place in self._reported:
            return
        self._reported.add(place)
        if card is not None and card.column:
            span = Span(event.span.line, card.column, event.span.line, card.end_column)
        else:
            span = event.span
        rel = tuple(r.span if isinstance(r, ev.Event) else r for r in related) if related else ()
        finding = make_finding(rule_id, span, message, hint, related=rel)
        if card is not None and rule_id != "card.unknown":
            facts = self.facts.get(rests_on if rests_on is not None else self.card_name_key(card))
            source = facts.imported_from if facts is not None else ""
            if source:  # the verdict rests on imported card data: say which
                said = M("{card}: imported card data, {source}",
                         card=card_name(facts.name, facts.info.names if facts.info is not None else None), source=source)
                finding = dataclasses.replace(finding, source=said.render("en"), source_text=said)
        self.findings.append(finding)
