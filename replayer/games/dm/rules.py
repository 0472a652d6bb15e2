"""Duel Masters' rules as tables and small named guards: what ``replayer rules dm`` prints.

Source: the Japanese rules explanation of an attack (the project's seed on the attack, cited as
``Duel Masters attack procedure, …``; labels as in docs/rules-dm.md), with notation §5 and §6 for
the log forms. Three tables carry the rules: :data:`STEPS` (the seven sub-steps and what may
happen in each), :data:`LINES` (which sub-steps each kind of log line belongs to; the sub-step of
a line is the earliest of its sub-steps not before the one already reached, and none means the
line goes back) and :data:`SHOWINGS` (what is declared once, in one go). Legality of an attack
and of a sub-step 4 declaration is a list of small named guards (:data:`ATTACK_GUARDS`,
:data:`DECLARATION_GUARDS`). Every rule id is registered here with its citation. The handlers
that apply them to a log are :mod:`replayer.games.dm.model`.
"""

from __future__ import annotations

from ...textwidth import table as text_table

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Callable

from ... import events as ev
from ...diagnostics import Kind, RULES, Severity, define
from .abilities import BLOCK_POWER_AT_LEAST, BLOCK_POWER_AT_MOST, civs_of, numbers
from .vocabulary import AttackStep
from .words import M, civilization
from ...i18n import Msg

if TYPE_CHECKING:
    from .model import Creature

# ---- citations (docs/rules-dm.md, "Citation labels") ---------------------------------------
SOURCE = "Duel Masters attack procedure"
WHO = f"{SOURCE}, who may attack"
TARGETS = f"{SOURCE}, attack targets"
PRINCIPLE = f"{SOURCE}, principle"
STEP1, STEP2, STEP3, STEP4, STEP5 = (f"{SOURCE}, step {n}" for n in range(1, 6))
STEP6A, STEP6B, STEP6C = (f"{SOURCE}, step 6-{c}" for c in "ABC")
STEP7 = f"{SOURCE}, step 7"
BATTLES = f"{SOURCE}, battles"
PLAYERS = f"{SOURCE}, attacking players"
SIMULTANEOUS = f"{SOURCE}, simultaneous abilities"
ABORTED = f"{SOURCE}, aborted attacks"
MISTAKES = f"{SOURCE}, common mistakes"


# ---- the rule registry -------------------------------------------------------------------
_rule = define  # the rule registry: replayer.diagnostics.RULES


R_NOT_TURN_PLAYER = _rule("dm.attack.not-turn-player", Kind.WRONG_TIMING, "only the turn player attacks", STEP1)
R_TAPPED_ATTACKER = _rule("dm.attack.tapped-attacker", Kind.ILLEGAL_ACTIVATION,
                          "the attacking creature is tapped", WHO)
R_CANNOT_ATTACK = _rule("dm.attack.cannot-attack", Kind.ILLEGAL_ACTIVATION,
                        "the attacking creature cannot attack", WHO)
R_SUMMONING_SICK = _rule("dm.attack.summoning-sick", Kind.ILLEGAL_ACTIVATION,
                         "the attacking creature entered this turn and has no speed attacker", WHO)
R_MACH_PLAYER = _rule("dm.attack.mach-fighter-player", Kind.ILLEGAL_ACTIVATION,
                      "a mach fighter attacks the player on the turn it entered", WHO)
R_CANNOT_ATTACK_PLAYERS = _rule("dm.attack.cannot-attack-players", Kind.ILLEGAL_ACTIVATION,
                                "a creature that cannot attack players attacks the player (shields included)",
                                PLAYERS)
R_UNTAPPED_TARGET = _rule("dm.attack.untapped-target", Kind.ILLEGAL_ACTIVATION,
                          "the attacked creature is untapped and the attacker may not attack untapped creatures",
                          TARGETS)
R_EARLY_TRIGGER = _rule("dm.attack.trigger-before-declaration", Kind.ORDERING,
                        "an attack trigger is used before its creature's attack is declared", MISTAKES,
                        Severity.WARNING)
R_ABORTED = _rule("dm.attack.aborted", Kind.STATE,
                  "the attack was aborted (attacker, target or blocker left) but goes on in the log", ABORTED)
R_END_ABILITY_LEFT = _rule("dm.attack.end-ability-left", Kind.STATE,
                           'an "at the end of the attack" ability of a creature no longer in the battle zone',
                           STEP7)
R_BACKWARDS = _rule("dm.substep.backwards", Kind.ORDERING, "a line belongs to a sub-step already finished",
                    PRINCIPLE)
R_ACTIVE_FIRST = _rule("dm.order.active-first", Kind.ORDERING,
                       "the non-turn player resolves while the turn player's abilities wait", SIMULTANEOUS)
R_NINJA_BEFORE_TRIGGERS = _rule("dm.order.ninja-before-triggers", Kind.ORDERING,
                                "ninja strike or revolution 0 declared before the turn player's attack "
                                "triggers resolved", STEP3)
R_END_BEFORE_AFTER = _rule("dm.order.end-before-after", Kind.ORDERING,
                           'an "after the attack" ability resolves while an "at the end of the attack" '
                           "ability waits", STEP7)
R_NINJA_NO_BLOCK = _rule("dm.ninja.no-block", Kind.WRONG_TIMING, "the turn player's ninja strike without a block",
                         STEP5)
R_NINJA_AFTER_BLOCK = _rule("dm.ninja.after-block-abilities", Kind.ORDERING,
                             "the turn player's ninja strike declared after the blocking player's \"when it "
                             "blocks\" abilities resolved", STEP5)
R_TURN_PLAYER_FIRST = _rule("dm.order.turn-player-declares-first", Kind.ORDERING,
                            "revolution change or invasion declared after the non-turn player's ninja strike or "
                            "revolution 0", STEP3)
R_REV0_SECOND = _rule("dm.rev0.second-batch", Kind.ORDERING, "revolution 0 cards not all shown at once", STEP3)
R_BLOCK_TWICE = _rule("dm.block.twice", Kind.ORDERING,
                      "block, guardman or redirect declared after the declarations were made", STEP4)
R_ONE_BLOCKER = _rule("dm.block.one-blocker", Kind.ILLEGAL_ACTIVATION,
                      "a second block declared on an attack that one blocker already blocks",
                      f"{STEP4} (2021-09-07 revision)")
R_NO_ABILITY = _rule("dm.block.no-ability", Kind.ILLEGAL_ACTIVATION,
                     "the creature has no blocker / guardman / redirect ability", STEP4)
R_GUARDMAN_PLAYER = _rule("dm.block.guardman-vs-player", Kind.ILLEGAL_ACTIVATION,
                          "guardman against an attack on the player", STEP4)
R_BLOCKER_TAPPED = _rule("dm.block.blocker-tapped", Kind.ILLEGAL_ACTIVATION,
                         "a tapped creature blocks or uses guardman", STEP4)
R_REDIRECT_UNTAPPED = _rule("dm.redirect.untapped", Kind.ILLEGAL_ACTIVATION,
                            "an untapped creature redirects the attack", STEP4)
R_REDIRECT_TARGET = _rule("dm.redirect.target", Kind.ILLEGAL_ACTIVATION,
                          "the attack is redirected to an untapped creature other than the redirecting one", STEP4)
R_BATTLE_OPPONENT = _rule("dm.battle.opponent", Kind.STATE,
                          "the battle is not between the attacker and the creature the attack aims at", STEP6A)
R_BATTLE_RESULT = _rule("dm.battle.result", Kind.STATE, "the destroy lines disagree with who won the battle",
                        BATTLES)
R_BREAK_COUNT = _rule("dm.break.count", Kind.STATE,
                      "the number of shields broken is not min(breaker count, shields left)", STEP6B)
R_BREAK_TWICE = _rule("dm.break.twice", Kind.ORDERING, "the attack's shields are broken in more than one go",
                      STEP6B)
R_NOT_PLAYER = _rule("dm.break.not-player", Kind.STATE, "shields broken by an attack that did not reach the player",
                     STEP6B)
R_SHIELDS_LEFT = _rule("dm.direct.shields-left", Kind.STATE, "a direct attack while the player still has shields",
                       STEP6C)
R_STRIGGER_SECOND = _rule("dm.strigger.second-batch", Kind.ORDERING, "S-Triggers of one break not all used at once",
                          STEP6B)
R_STRIGGER_NO_BREAK = _rule("dm.strigger.no-break", Kind.ILLEGAL_ACTIVATION,
                            "an S-Trigger in an attack that broke no shield (blocked, redirected, or aimed at a "
                            "creature)", STEP6B)
R_STRIGGER_MORE = _rule("dm.strigger.more-than-broken", Kind.STATE,
                        "more S-Triggers named than shields this attack broke", STEP6B)
R_CANNOT_ATTACK_CREATURES = _rule("dm.attack.cannot-attack-creatures", Kind.ILLEGAL_ACTIVATION,
                                  "a creature that cannot attack creatures attacks a creature", WHO)
R_CANNOT_BE_ATTACKED = _rule("dm.attack.cannot-be-attacked", Kind.ILLEGAL_ACTIVATION,
                             "the attacked creature cannot be attacked (by this attacker)", TARGETS)
R_ENTERED_THIS_TURN = _rule("dm.attack.entered-this-turn", Kind.ILLEGAL_ACTIVATION,
                            "a card in the battle zone keeps the creature from attacking on the turn it entered",
                            WHO)
R_UNBLOCKABLE = _rule("dm.block.unblockable", Kind.ILLEGAL_ACTIVATION,
                      "the attacking creature cannot be blocked (by this creature, in this attack)", STEP4)
R_CANNOT_BLOCK = _rule("dm.block.cannot-block", Kind.ILLEGAL_ACTIVATION, "the creature cannot block", STEP4)
R_STRIGGER_NO_ABILITY = _rule("dm.strigger.no-ability", Kind.ILLEGAL_ACTIVATION,
                              "an S-Trigger used from a card that has no shield trigger", STEP6B)
R_NOT_READ = _rule("card.ability-not-read", Kind.STATE,
                   "an ability in the card's text that replayer does not read is not applied",
                   "replayer's Duel Masters card text reader (docs/rules-dm.md §12)", Severity.INFO)
R_SPELL_FIRST = _rule("dm.strigger.spell-first", Kind.ORDERING,
                      "an S-Trigger creature's cip ability resolves before an S-Trigger spell", STEP6B)


# ---- the sub-steps -----------------------------------------------------------------------
# The game's one representation of them: vocabulary.AttackStep, run in the order of their number
# (never back); sub-step 6 is one of three cases, 6A (a battle), 6B (a shield break), 6C (a direct
# attack), which are the same sub-step in that order.
OUTCOMES = (AttackStep.BATTLE, AttackStep.BREAK, AttackStep.DIRECT)


def step_label(step: AttackStep) -> str:
    """How the rules table and the findings write a sub-step: ``3``, ``6-A``."""
    return f"{step.number}-{step.case}" if step.case else str(step.number)


@dataclass(frozen=True)
class Step:
    """One row of the sub-step table: what may happen there, and where the source says so."""

    step: AttackStep
    title: str
    happens: str
    cite: str

    @property
    def label(self) -> str:
        return step_label(self.step)


STEPS: tuple[Step, ...] = (
    Step(AttackStep.DECLARATION, M("Declaration").text,
         M("the turn player picks one creature that may attack (untapped, not summoning sick unless speed "
         "attacker or mach fighter, no 'cannot attack'), taps it and names the target: the opposing player "
         "(never the shields) or a tapped opposing creature (untapped only with an ability that allows it)").text,
         f"{STEP1}; {WHO}; {TARGETS}"),
    Step(AttackStep.CONTINUOUS, M("Continuous abilities").text,
         M("'while attacking' and 'while tapped' abilities start to apply and last until the attack is over; "
         "nothing is declared").text, STEP2),
    Step(AttackStep.ATTACK_TRIGGERS, M("Attack triggers").text,
         M("'when it attacks / is attacked' abilities trigger; the turn player's resolve first and the turn "
         "player declares invasion or revolution change; then the non-turn player's abilities and "
         "declarations: ninja strike and revolution 0 (all shown at once), only after the turn player's "
         "attack triggers have resolved").text, STEP3),
    Step(AttackStep.BLOCK, M("Block / redirect").text,
         M("the non-turn player declares block, guardman and attack redirect, together and once, each judged on "
         "the state before the declarations; a blocker or guardman must be untapped and taps (guardman never "
         "against an attack on the player), a redirecting creature must be tapped and untaps, and the attack "
         "then aims at it or at another tapped creature of its owner").text, STEP4),
    Step(AttackStep.BLOCK_TRIGGERS, M("Block-related abilities").text,
         M("'when blocked / not blocked / when it blocks' abilities, the turn player's first; the turn player's "
         "ninja strike, only after a block, is declared here").text, STEP5),
    Step(AttackStep.BATTLE, M("Battle").text,
         M("when the attack aims at a creature (blocked, redirected, or a creature attacked): the two battle; "
         "the higher power wins, equal power destroys both, wins-all-battles wins (two such creatures both "
         "survive); the loser is destroyed; battle abilities resolve, turn player first").text,
         f"{STEP6A}; {BATTLES}"),
    Step(AttackStep.BREAK, M("Shield break").text,
         M("when the attack reaches a player who has shields: the attacker breaks min(breaker count, shields), "
         "chosen all at once; the defender shows all S-Triggers of that break at once; S-Trigger spells "
         "resolve before S-Trigger creatures' cip abilities").text, f"{STEP6B}; {PLAYERS}"),
    Step(AttackStep.DIRECT, M("Direct attack").text,
         M("when the attack reaches a player who has no shields: a direct attack, and the attacker's player wins").text,
         STEP6C),
    Step(AttackStep.END, M("End of the attack").text,
         M("'at the end of the attack' abilities trigger (only if their creature is still in the battle zone) and "
         "resolve, turn player first; then the 'after the attack' abilities resolve, turn player first, even if "
         "their creature has left").text, STEP7),
)


class Need(Enum):
    """What a line needs of the attack it is part of."""

    NOTHING = "-"
    LIVE = "live"  # an attack that was not aborted
    PLAYER = "player"  # an attack not aborted that reaches the player (not blocked, not redirected)


ABILITY_STEPS = (AttackStep.ATTACK_TRIGGERS, AttackStep.BLOCK_TRIGGERS) + OUTCOMES + (AttackStep.END,)
ABILITY_CITE = f"{STEP3}; {STEP5}; {STEP6A}; {STEP6B}; {STEP7}"


@dataclass(frozen=True)
class Line:
    """One row of the line table: a kind of log line and the sub-steps it may belong to."""

    kind: str
    form: str  # how the log writes it (notation §5)
    steps: tuple[AttackStep, ...] | None  # None: any sub-step (the result of an ability), no sub-step of its own
    needs: Need = Need.NOTHING
    cite: str = ""


LINES: tuple[Line, ...] = (
    Line("attack", "A: attack C -> player | D", (AttackStep.DECLARATION,), cite=STEP1),
    Line("trigger", "A: trigger C", ABILITY_STEPS, cite=ABILITY_CITE),
    Line("resolve", "A: resolve C", ABILITY_STEPS, cite=ABILITY_CITE),
    Line("resolve-all", "resolve", ABILITY_STEPS, cite=ABILITY_CITE),
    Line("invade", "A: invade C (turn player)", (AttackStep.ATTACK_TRIGGERS,), cite=STEP3),
    Line("revolution-change", "A: revolution change C (turn player)", (AttackStep.ATTACK_TRIGGERS,), cite=STEP3),
    Line("ninja-strike", "B: ninja strike C (non-turn player)", (AttackStep.ATTACK_TRIGGERS,), cite=STEP3),
    Line("revolution-0", "B: revolution 0 C", (AttackStep.ATTACK_TRIGGERS,), cite=STEP3),
    Line("block", "B: block with C", (AttackStep.BLOCK,), needs=Need.LIVE, cite=STEP4),
    Line("guardman", "B: guardman C", (AttackStep.BLOCK,), needs=Need.LIVE, cite=STEP4),
    Line("redirect", "B: redirect C -> D", (AttackStep.BLOCK,), needs=Need.LIVE, cite=STEP4),
    Line("turn-player-ninja-strike", "A: ninja strike C (turn player)", (AttackStep.BLOCK_TRIGGERS,), cite=STEP5),
    Line("battle", "battle C vs D", (AttackStep.BATTLE,), Need.LIVE, STEP6A),
    Line("break", "A: break N", (AttackStep.BREAK,), Need.PLAYER, STEP6B),
    Line("s-trigger", "B: s-trigger C, D", (AttackStep.BREAK,), Need.LIVE, STEP6B),
    Line("direct-attack", "A: direct attack", (AttackStep.DIRECT,), Need.LIVE, STEP6C),
    Line("attack-ends", "attack ends", (AttackStep.END,), cite=STEP7),
    Line("win", "A: win", None),
    Line("tap", "A: tap C · untap C", None),
    Line("destroy", "A: destroy C", None),
    Line("move", "A: return C to hand · put C into mana | shields", None),
)
LINE_BY_KIND = {row.kind: row for row in LINES}


def line_kind(e: ev.Event, turn_player: str | None) -> str | None:
    """The row of :data:`LINES` an event belongs to (None: not a line of an attack)."""
    if isinstance(e, ev.Declare):
        if e.what == "ninja-strike" and turn_player is not None and e.player == turn_player:
            return "turn-player-ninja-strike"
        return e.what
    if isinstance(e, ev.Block):
        return "guardman" if e.guardman else "block"
    return _KINDS.get(type(e))


_KINDS: dict[type, str] = {
    ev.Attack: "attack", ev.TriggerAbility: "trigger", ev.ResolveAbility: "resolve", ev.ResolveAll: "resolve-all",
    ev.Redirect: "redirect", ev.Battle: "battle", ev.Break: "break", ev.STrigger: "s-trigger",
    ev.DirectAttack: "direct-attack", ev.AttackEnds: "attack-ends", ev.Win: "win", ev.Tap: "tap",
    ev.Destroy: "destroy", ev.Move: "move",
}


def row_label(row: Line, sep: str = ", ") -> str:
    """The sub-steps of a row, e.g. ``3, 5, 6, 7`` (all three cases of 6 are 6) or ``6-B``."""
    if row.steps is None:
        return "any"
    every_case = all(o in row.steps for o in OUTCOMES)
    labels = [str(s.number) if every_case and s in OUTCOMES else step_label(s) for s in row.steps]
    return sep.join(dict.fromkeys(labels))


def reached_step(row: Line, current: AttackStep) -> AttackStep | None:
    """The sub-step a line of this row puts the attack in, or None when it would go back: the one
    reached if the row has it, else the row's earliest not before it (a case of sub-step 6 may
    follow another: they are one sub-step)."""
    steps = row.steps
    if steps is None or current in steps:
        return current
    number = current.number
    return next((s for s in steps if s.number >= number), None)


@dataclass(frozen=True)
class Showing:
    """Something declared once per attack, in one go: a second go is a finding."""

    name: str
    kinds: frozenset[str]
    consecutive: bool  # one go = a run of consecutive lines (else: one line)
    rule: str
    message: Msg  # the finding on a second go


SHOWINGS: tuple[Showing, ...] = (
    Showing("block, guardman and redirect", frozenset({"block", "guardman", "redirect"}), True, R_BLOCK_TWICE,
            M("block, guardman and redirect were already declared in this attack; they are declared together, "
            "once, and nothing can be added once blocking is under way")),
    Showing("revolution 0", frozenset({"revolution-0"}), True, R_REV0_SECOND,
            M("revolution 0 cards were already shown in this attack; all of them are shown at once, and a card "
            "not shown then cannot be added after seeing how the first ones turned out")),
    Showing("S-Triggers", frozenset({"s-trigger"}), False, R_STRIGGER_SECOND,
            M("S-Triggers of this break were already used; all of them are shown at once (one `s-trigger` line), "
            "none can be added later")),
    Showing("shield break", frozenset({"break"}), False, R_BREAK_TWICE,
            M("shields were already broken in this attack; the attacker chooses all its shields at once and "
            "breaks them together (one `break` line)")),
)

#: declarations whose creature takes over the attack (not an abort: the new creature carries on)
TAKES_OVER = frozenset({"invade", "revolution-change"})

#: breaker words and how many shields they break; a creature with none breaks one
BREAKERS = {"w-breaker": 2, "t-breaker": 3}


def breaker_counts(props: frozenset[str]) -> frozenset[int]:
    return frozenset(n for word, n in BREAKERS.items() if word in props) or frozenset({1})


def shields_to_break(props: frozenset[str], shields: int) -> frozenset[int]:
    """The numbers of shields the attacker may break: min(breaker count, shields) for each breaker it has."""
    return frozenset(min(n, shields) for n in breaker_counts(props))


# ---- battles -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fighter:
    key: str
    power: int | None  # in this battle: a "while attacking" bonus included (power attacker)
    wins_all: bool | None  # None: its properties are not known
    props: frozenset[str] = frozenset()  # its abilities (slayer, civilizations), when known
    power_open: str | None = None  # an ability not read may change ``power``: "more" (only up) or "any"

    def slays(self, other: "Fighter") -> bool:
        """Does it destroy ``other`` after the battle (slayer, or slayer of ``other``'s civilization)?"""
        return "slayer" in self.props or any(f"slayer:{c}" in self.props for c in civs_of(other.props))


def battle_outcome(a: Fighter, b: Fighter) -> tuple[frozenset[str], frozenset[str]] | None:
    """(winners, losers) of a battle by power and wins-all-battles (slayer: :func:`slain`), or None
    when the log does not tell enough to decide."""
    if a.wins_all is None or b.wins_all is None:
        return None
    if a.wins_all and b.wins_all:
        return frozenset({a.key, b.key}), frozenset()
    if a.wins_all or b.wins_all:
        w, l = (a, b) if a.wins_all else (b, a)
        return frozenset({w.key}), frozenset({l.key})
    if a.power is None or b.power is None:
        return None
    if a.power_open or b.power_open:
        if a.power == b.power or "any" in (a.power_open, b.power_open):
            return None  # either may have had more: which is not known
    if a.power == b.power:
        return frozenset(), frozenset({a.key, b.key})
    w, l = (a, b) if a.power > b.power else (b, a)
    if l.power_open:
        return None  # it may have had more than the winner
    return frozenset({w.key}), frozenset({l.key})


def slain(a: Fighter, b: Fighter) -> frozenset[str]:
    """The creatures a slayer destroys after this battle (the other creature, whoever won)."""
    return frozenset(({b.key} if a.slays(b) else set()) | ({a.key} if b.slays(a) else set()))


#: property words that tell a creature's state at a mention, not an ability
STATE_WORDS = frozenset({"tapped", "untapped", "summoned"})

# ---- guards: who may attack, and what ----------------------------------------------------------
@dataclass(frozen=True)
class Declaration:
    """What the guards of an attack declaration look at."""

    attacker: Creature
    props: frozenset[str]
    known: bool
    entered_now: bool  # it entered the battle zone this turn
    target: Creature | None  # None: the player
    target_props: frozenset[str] = frozenset()
    target_known: bool = False

    @property
    def sick(self) -> bool:
        """Summoning sick: entered this turn and has neither speed attacker nor evolution (an evolution
        creature goes on a creature already in the battle zone and may attack at once)."""
        return self.entered_now and "speed-attacker" not in self.props and "evolution" not in self.props


def is_tapped(d: Declaration) -> bool:
    return d.attacker.tapped


def cannot_attack(d: Declaration) -> bool:
    return d.known and "cannot-attack" in d.props


def summoning_sick(d: Declaration) -> bool:
    return d.known and d.sick and "mach-fighter" not in d.props


def mach_fighter_at_player(d: Declaration) -> bool:
    return d.known and d.sick and "mach-fighter" in d.props and d.target is None


def at_player_it_cannot_attack(d: Declaration) -> bool:
    return d.known and d.target is None and "cannot-attack-players" in d.props


def kept_from_attacking_on_entry(d: Declaration) -> bool:
    return d.known and d.entered_now and "cannot-attack-turn-entered" in d.props


def at_creature_it_cannot_attack(d: Declaration) -> bool:
    return d.known and d.target is not None and "cannot-attack-creatures" in d.props


def at_unattackable(d: Declaration) -> bool:
    if d.target is None or not d.target_known:
        return False
    if "cannot-be-attacked" in d.target_props:
        return True
    if d.known and "cannot-be-attacked-by:non-evolution" in d.target_props and "evolution" not in d.props:
        return True
    return d.known and any(f"cannot-be-attacked-by:{c}" in d.target_props for c in civs_of(d.props))


def at_untapped_creature(d: Declaration) -> bool:
    if d.target is None or d.target.tapped or not d.known:
        return False
    allowed = "can-attack-untapped" in d.props or (d.entered_now and "mach-fighter" in d.props) \
        or any(f"can-attack-untapped:{c}" in d.props for c in civs_of(d.target_props))
    if not allowed and not d.target_known and any(p.startswith("can-attack-untapped:") for p in d.props):
        return False  # the target's civilization is not known: it may be one it can attack
    return not allowed


@dataclass(frozen=True)
class Guard:
    rule: str
    fails: Callable
    message: Msg  # {card} {target}
    hint: Msg


#: who may attack: at most one finding from each group, the first guard that fails
ATTACK_GUARDS: tuple[tuple[Guard, ...], ...] = (
    (
        Guard(R_TAPPED_ATTACKER, is_tapped, M("{card} is tapped and cannot be declared as an attacker"),
              M("a creature that attacked or was tapped earlier this turn attacks again only if something "
              "untapped it: write that `untap` line, or check the attacker")),
        Guard(R_CANNOT_ATTACK, cannot_attack, M("{card} cannot attack"),
              M("a creature with \"cannot attack\" may still block, but never attack")),
        Guard(R_SUMMONING_SICK, summoning_sick, M("{card} entered the battle zone this turn and has no speed "
              "attacker: it is summoning sick"),
              M("it may attack from its owner's next turn on; if it has speed "
              "attacker, add it inline: {written} {speed-attacker}")),
        Guard(R_ENTERED_THIS_TURN, kept_from_attacking_on_entry, M("{card} entered the battle zone this turn, and "
              "{source} in the battle zone keeps creatures like it (speed attackers) from attacking on the turn they "
              "are put into the battle zone"),
              M("it may attack from its owner's next turn on, or once {source} has "
              "left the battle zone")),
        Guard(R_MACH_PLAYER, mach_fighter_at_player, M("{card} is a mach fighter that entered this turn: it may "
              "attack creatures only, not the player"),
              M("attack a creature, or attack the player next turn")),
    ),
    (
        Guard(R_CANNOT_ATTACK_PLAYERS, at_player_it_cannot_attack, M("{card} cannot attack players, and an attack "
              "on the opponent is an attack on the player, shields or no shields"),
              M("it may attack a tapped opposing creature instead")),
        Guard(R_CANNOT_ATTACK_CREATURES, at_creature_it_cannot_attack, M("{card} cannot attack creatures"),
              M("it may attack the player instead")),
        Guard(R_CANNOT_BE_ATTACKED, at_unattackable, M("{target} cannot be attacked{by}"),
              M("choose the player or another tapped creature")),
        Guard(R_UNTAPPED_TARGET, at_untapped_creature, M("{target} is untapped, and {card} may attack only tapped "
              "creatures"),
              M("choose the player or a tapped creature; the target is chosen before any attack "
              "trigger (a creature tapped by an attack trigger cannot be the target of that same attack)")),
    ),
)


# ---- guards: sub-step 4 declarations ---------------------------------------------------------
@dataclass(frozen=True)
class Defence:
    """What the guards of a block, guardman or redirect declaration look at (state before the batch)."""

    kind: str  # block | guardman | redirect
    props: frozenset[str]
    known: bool
    was_tapped: bool
    on_player: bool  # the attack aimed at the player
    destination: str | None = None  # redirect: the creature the attack is sent to
    destination_was_tapped: bool = True
    itself: bool = True  # redirect: sent to the redirecting creature itself
    attacker_props: frozenset[str] = frozenset()  # the attacking creature's (block: can it be blocked?)
    attacker_known: bool = False
    on_creature: bool = False  # the attack was declared on a creature
    power: int | None = None  # the blocking creature's
    maybe_ability: bool = False  # an unread sentence of its text may give it the ability ("Dragon blocker")


def unblockable(d: Defence) -> Msg | None:
    """Why the attacking creature cannot be blocked by this one (None: it can, or it is not known)."""
    if d.kind != "block" or not d.attacker_known:
        return None
    ap = d.attacker_props
    if "cannot-be-blocked" in ap:
        return M("it cannot be blocked")
    if d.on_creature and "cannot-be-blocked-attacking-creatures" in ap:
        return M("while it attacks a creature it cannot be blocked")
    if not d.on_creature and "cannot-be-blocked-attacking-players" in ap:
        return M("while it attacks a player it cannot be blocked")
    if d.power is not None and d.known:
        for n in numbers(ap, BLOCK_POWER_AT_LEAST):
            if d.power >= n:
                return M("it cannot be blocked by creatures that have power {n} or more (the blocker has {power})", n=n,
                         power=d.power)
        for n in numbers(ap, BLOCK_POWER_AT_MOST):
            if d.power <= n:
                return M("it cannot be blocked by creatures that have power {n} or less (the blocker has {power})", n=n,
                         power=d.power)
    for c in civs_of(d.props) if d.known else ():
        if f"cannot-be-blocked-by:{c}" in ap:
            return M("it cannot be blocked by {civilization} creatures", civilization=civilization(c))
    if d.known and "cannot-be-blocked-by:non-evolution" in ap and "evolution" not in d.props:
        return M("it cannot be blocked by non-evolution creatures")
    return None


def blocks_unblockable(d: Defence) -> bool:
    return unblockable(d) is not None


def cannot_block(d: Defence) -> bool:
    return d.kind in ("block", "guardman") and "cannot-block" in d.props


ABILITY_OF = {"block": "blocker", "guardman": "guardman", "redirect": "redirect"}


def lacks_ability(d: Defence) -> bool:
    if not d.known or ABILITY_OF[d.kind] in d.props or d.maybe_ability:
        return False
    if d.kind == "block" and any(p.startswith("blocker:") for p in d.props):
        # "darkness blocker": it blocks only creatures of that civilization (an attacker's not known: it may)
        civs = civs_of(d.attacker_props)
        return bool(civs) and not any(f"blocker:{c}" in d.props for c in civs)
    return True


def guardman_for_player(d: Defence) -> bool:
    return d.kind == "guardman" and d.on_player


def taps_while_tapped(d: Defence) -> bool:
    return d.kind in ("block", "guardman") and d.was_tapped


def untaps_while_untapped(d: Defence) -> bool:
    return d.kind == "redirect" and not d.was_tapped


def sent_to_untapped(d: Defence) -> bool:
    return d.kind == "redirect" and not d.itself and not d.destination_was_tapped


DECLARATION_GUARDS: tuple[Guard, ...] = (
    Guard(R_NO_ABILITY, lacks_ability, M("{card} has no {ability} ability"),
              M("if an effect gave it one, add it inline: {written} {{word}}")),
    Guard(R_CANNOT_BLOCK, cannot_block, M("{card} cannot block{why}"),
              M("remove the block; the attack goes on "
          "unblocked")),
    Guard(R_UNBLOCKABLE, blocks_unblockable, M("{card} blocks {attacker}, but {why}"),
              M("remove the block: a block whose condition is not met at the declaration cannot be declared")),
    Guard(R_GUARDMAN_PLAYER, guardman_for_player, M("guardman is declared against an attack on the player; it "
          "only takes attacks aimed at its owner's other creatures"),
              M("remove the guardman declaration")),
    Guard(R_BLOCKER_TAPPED, taps_while_tapped, M("{card} was tapped when the {kind} was declared; blocking and "
          "guardman tap the creature, so it must be untapped"),
              M("only the turn player's creatures untap at the "
          "start of a turn: a creature that attacked on its owner's turn is still tapped")),
    Guard(R_REDIRECT_UNTAPPED, untaps_while_untapped, M("{card} was untapped when the redirect was declared; a "
          "redirect untaps the creature, so it must be tapped"),
              M("every sub-step 4 declaration is judged on the "
          "state before any of them is carried out (a creature cannot block, then redirect)")),
    Guard(R_REDIRECT_TARGET, sent_to_untapped, M("the attack is sent to {target}, which is untapped; a redirect "
          "sends it to the redirecting creature itself or to another tapped creature of its owner"),
              M("redirect to {card} itself or to a tapped creature")),
)


def quote(label: str) -> str:
    return f'"{label}"'


def lines_of(step: Step) -> list[Line]:
    """The rows of :data:`LINES` that may belong to a sub-step (in sub-step 6, to its case)."""
    return [row for row in LINES if row.steps and step.step in row.steps]


def describe_table(lang: str = "en") -> str:
    """``replayer rules dm``: the sub-steps, the line table, the showings and the rule ids, in
    ``lang`` (the notation's forms, kinds and rule ids as they are; the titles, descriptions,
    headings and rule titles translated; the citations in their source's language)."""
    from ...i18n import cite_in, sources

    def t(msg) -> str:
        return msg.render(lang)

    def cite(label: str) -> str:
        return cite_in(label, lang)

    out = [t(M("Duel Masters — the attack sub-steps (run in order, never back)")), ""]
    may, lines_label = t(M.term("rules table", "may happen:")), t(M.term("rules table", "log lines:"))
    pad = max(len(may), len(lines_label)) + 1
    for step in STEPS:
        out.append(f"{step.label:<4} {M.translate(lang, step.title)}")
        out.append(f"     {may:<{pad}}{M.translate(lang, step.happens)}" if lang != "en"
                   else f"     may happen: {step.happens}")
        forms = [f"`{row.form}`" for row in lines_of(step)]
        shown = " · ".join(forms) if forms else t(M("none (nothing is declared)"))
        out.append(f"     {lines_label:<{pad}}{shown}" if lang != "en" else "     log lines:  " + shown)
        out.append(f"     [{cite(step.cite)}]")
        out.append("")
    out.append(t(M("Lines of any sub-step (the results of abilities; no sub-step of their own): {forms}",
                   forms=" · ".join(f"`{row.form}`" for row in LINES if row.steps is None))))
    out += ["", t(M("How a line's sub-step is found: the earliest of its sub-steps not before the one reached; "
                    "none means it goes back")) + f"  [{cite(PRINCIPLE)}]", ""]
    heads = [t(M.term("rules table", "line")), t(M.term("rules table", "sub-steps")), t(M.term("rules table", "needs")),
             t(M("citation ({source}, …)", source=cite(SOURCE)))]
    # the cells without the source's name the heading gives (English: "step 3"; Japanese: "§ ３、…")
    own = next((src.own for src in sources() if src.label == SOURCE), SOURCE)  # (its own language's name)
    within = SOURCE + ", " if lang == "en" else own + " "
    out += text_table([heads] + [[row.kind, row_label(row), row.needs.value, cite(row.cite).replace(within, "")]
                                 for row in LINES]).split("\n")
    out += ["", t(M("needs: live = not in an aborted attack; player = the attack reaches the player (not blocked, "
                    "not redirected)")) + f"  [{cite(ABORTED)}; {cite(STEP6B)}]", "",
            t(M("Declared once per attack, in one go:"))]
    for s in SHOWINGS:
        how = t(M("consecutive lines")) if s.consecutive else t(M("one line"))
        out.append("  " + t(M("{name} (one go = {how}): a second go is {rule}", name=s.name, how=how, rule=s.rule)))
    out += ["", t(M("Breakers: {breakers}, otherwise 1; the attacker breaks min(breaker count, shields)",
                    breakers=", ".join(f"{w} {n}" for w, n in BREAKERS.items()))), "",
            t(M.term("rules table", "Rule ids:"))]
    for rid, rule in sorted(RULES.items()):
        if rid.startswith("dm."):
            out.append(f"  {rid:38} {rule.severity.value:8} {rule.kind.value:19} {M.translate(lang, rule.title)}  "
                       f"[{cite(rule.cite)}]")
    return "\n".join(out)
