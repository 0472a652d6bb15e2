"""Card scripts run in the sandbox (replayer/cards/luarun.py), on a small library and scripts written here.

The library is this test's own: a few of the engine's constants (numbers of its API) and two helper
functions in the shape an install's ``utility.lua`` has them. The hostile scripts try what an
attacker would: loop, exhaust memory, reach the OS, the files, the loaders, Python, or the stand-ins.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("lupa")

from replayer.cards import derive  # noqa: E402
from replayer.cards.db import CardDB  # noqa: E402
from replayer.cards.importer import import_cards  # noqa: E402
from replayer.games import ALL as GAMES  # noqa: E402
from replayer.cards.luarun import LuaReader, library_root, probe_timings, read_script  # noqa: E402

CONSTANTS = """\
LOCATION_HAND=0x2
LOCATION_MZONE=0x4
LOCATION_SZONE=0x8
LOCATION_GRAVE=0x10
EFFECT_TYPE_SINGLE=0x1
EFFECT_TYPE_FIELD=0x2
EFFECT_TYPE_ACTIVATE=0x10
EFFECT_TYPE_FLIP=0x20
EFFECT_TYPE_IGNITION=0x40
EFFECT_TYPE_TRIGGER_O=0x80
EFFECT_TYPE_QUICK_O=0x100
EFFECT_TYPE_TRIGGER_F=0x200
EFFECT_TYPE_CONTINUOUS=0x800
EFFECT_FLAG_CARD_TARGET=0x10
EFFECT_FLAG_DAMAGE_STEP=0x4000
EFFECT_FLAG_DAMAGE_CAL=0x8000
EFFECT_FLAG_DELAY=0x10000
CATEGORY_DESTROY=0x1
CATEGORY_DISABLE=0x4000
CATEGORY_ATKCHANGE=0x200000
CATEGORY_NEGATE=0x10000000
EVENT_FREE_CHAIN=1002
EVENT_TO_GRAVE=1014
EVENT_CHAINING=1027
EVENT_BATTLE_DESTROYED=1140
EVENT_BATTLE_DAMAGE=1143
EVENT_PHASE=0x1000
PHASE_STANDBY=0x2
PHASE_MAIN1=0x4
PHASE_BATTLE_STEP=0x10
PHASE_DAMAGE=0x20
PHASE_DAMAGE_CAL=0x40
EFFECT_UPDATE_ATTACK=100
"""

UTILITY = """\
Auxiliary={}
aux=Auxiliary
function GetID() return self_table,self_code end
function Auxiliary.Stringid(code,n) return code*16+n end
-- until damage calculation (the shape of an install's helper of this kind)
function Auxiliary.UntilCalc()
  return not (Duel.GetCurrentPhase()==PHASE_DAMAGE and Duel.IsDamageCalculated())
end
-- a helper procedure that registers the card's activation with its caller's arguments
function Auxiliary.AddBoostProcedure(c,category,property,con)
  local e1=Effect.CreateEffect(c)
  e1:SetCategory(category)
  e1:SetType(EFFECT_TYPE_ACTIVATE)
  e1:SetCode(EVENT_FREE_CHAIN)
  e1:SetProperty(EFFECT_FLAG_CARD_TARGET+property)
  e1:SetCondition(con)
  c:RegisterEffect(e1)
  return e1
end
Duel.LoadScript("extra.lua")
"""

EXTRA = "EXTRA_LOADED=true\n"


def script(body: str, name: str = "Test Card") -> str:
    return f"--テスト\n--{name}\nlocal s,id=GetID()\nfunction s.initial_effect(c)\n" + textwrap.dedent(body) + "end\n"


@pytest.fixture
def install(tmp_path: Path) -> Path:
    root = tmp_path / "script"
    (root / "official").mkdir(parents=True)
    (root / "constant.lua").write_text(CONSTANTS, encoding="utf-8")
    (root / "utility.lua").write_text(UTILITY, encoding="utf-8")
    (root / "extra.lua").write_text(EXTRA, encoding="utf-8")
    return root


def write(install: Path, code: int, text: str) -> Path:
    path = install / "official" / f"c{code}.lua"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def reader(install: Path) -> LuaReader:
    r = LuaReader(install, instructions=200, memory=64 * 1024 * 1024)
    assert r.problem is None
    return r


# ---- what a script registers ------------------------------------------------------------------------
def test_effects_are_recorded_with_their_fields_lines_and_names(install, reader):
    path = write(install, 101, script("""\
        local e1=Effect.CreateEffect(c)
        e1:SetCategory(CATEGORY_DESTROY)
        e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_O)
        e1:SetProperty(EFFECT_FLAG_DELAY+EFFECT_FLAG_DAMAGE_STEP)
        e1:SetCode(EVENT_TO_GRAVE)
        c:RegisterEffect(e1)
        local e2=e1:Clone()
        e2:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_QUICK_O)
        e2:SetCode(EVENT_CHAINING)
        e2:SetRange(LOCATION_MZONE)
        e2:SetCountLimit(1)
        c:RegisterEffect(e2)
        local e3=Effect.CreateEffect(c)
        e3:SetType(EFFECT_TYPE_SINGLE)
        e3:SetCode(EFFECT_UPDATE_ATTACK)
        c:RegisterEffect(e3)
        """, "Test Avenger"))
    s = reader.read(path)
    assert s.names == {"ja": "テスト", "en": "Test Avenger"} and s.problems == [] and s.passcode == 101
    e1, e2, e3 = s.effects
    assert (e1.line, e1.type, e1.code, e1.flags, e1.categories) == (
        5, 0x81, "EVENT_TO_GRAVE", frozenset({"EFFECT_FLAG_DELAY", "EFFECT_FLAG_DAMAGE_STEP"}),
        frozenset({"CATEGORY_DESTROY"}))
    assert (e2.line, e2.type, e2.code, e2.range, e2.count_limit) == (11, 0x102, 1027, frozenset({"LOCATION_MZONE"}), True)
    assert (e3.code, e3.activated) == ("EFFECT_UPDATE_ATTACK", False)
    assert derive.event_words(e1) == {"on:to-grave", "self-event"} and derive.event_words(e2) == {"on:chaining"}


def test_a_helper_procedure_is_read_with_its_arguments(install, reader):
    path = write(install, 102, script("""\
        aux.AddBoostProcedure(c,CATEGORY_ATKCHANGE,EFFECT_FLAG_DAMAGE_STEP,aux.UntilCalc)
        """))
    (e,) = reader.read(path).effects
    assert e.categories == {"CATEGORY_ATKCHANGE"} and e.flags == {"EFFECT_FLAG_CARD_TARGET", "EFFECT_FLAG_DAMAGE_STEP"}
    assert e.line == 5 and e.helper == "aux.AddBoostProcedure"
    # its condition, run in each phase: until damage calculation; the gate then leaves out calc (no DAMAGE_CAL)
    assert e.probe == {"ds-start", "before-calc", "calc"}
    assert derive.engine_timings(e, "continuous-trap") == {"ds-start", "before-calc"}


def test_a_condition_that_shuts_the_damage_step_or_asks_what_is_unknown(install, reader):
    path = write(install, 103, script("""\
        local e1=Effect.CreateEffect(c)
        e1:SetType(EFFECT_TYPE_ACTIVATE)
        e1:SetCode(EVENT_FREE_CHAIN)
        e1:SetProperty(EFFECT_FLAG_DAMAGE_STEP)
        e1:SetCondition(function() return Duel.GetCurrentPhase()~=PHASE_DAMAGE end)
        c:RegisterEffect(e1)
        local e2=e1:Clone()
        e2:SetCondition(function(e,tp) return Duel.GetAttacker():IsControler(tp) end)
        c:RegisterEffect(e2)
        local e3=e1:Clone()
        e3:SetCondition(function() while true do end end)
        c:RegisterEffect(e3)
        """))
    e1, e2, e3 = reader.read(path).effects
    # true in the Battle Step, false in every Damage Step timing but damage calculation (a phase of its own
    # to a script), where the gate refuses it (no EFFECT_FLAG_DAMAGE_CAL): shut in the Damage Step
    assert e1.probe == {"calc"}
    assert derive.engine_timings(e1, "normal-trap") == frozenset()
    assert e2.probe is None  # the same wild answer everywhere: the probe tells nothing
    assert e3.probe is None  # a condition that loops: stopped, tells nothing; the script is still read


def test_probe_timings_reads_the_runs():
    assert probe_timings("TTTTTTT") == (None, False, False)
    assert probe_timings("TTTTFFF") == (frozenset({"ds-start", "before-calc"}), True, False)
    assert probe_timings("FFFFFTT") == (frozenset({"after-calc", "ds-end"}), False, True)
    assert probe_timings("FFFFFFF")[0] is None and probe_timings("TTEEEEE")[0] is None
    assert probe_timings("TTTTTTT", "TTTTTFF", "TFFTTTT")[0] == frozenset({"before-calc", "calc"})


# ---- hostile scripts ------------------------------------------------------------------------------------
HOSTILE = {
    "loop": ("while true do end", "instruction limit"),
    "memory": ('local t={} local s=string.rep("x",100000) for i=1,1e9 do t[i]=s..i end', "memory limit"),
    "os.execute": ('os.execute("touch {marker}")', "attempt to index a nil value"),
    "io.open": ('io.open("{marker}","w"):write("x")', "attempt to index a nil value"),
    "require": ('require("os").execute("touch {marker}")', "attempt to call a nil value"),
    "load": ('load("return 1")()', "attempt to call a nil value"),
    "loadstring": ('loadstring("return 1")()', "attempt to call a nil value"),
    "dofile": ('dofile("{marker}")', "attempt to call a nil value"),
    "string.dump": ("string.dump(function() end)", "attempt to call a nil value"),
    "debug": ("debug.sethook()", "attempt to index a nil value"),
    "coroutine": ("coroutine.wrap(function() while true do end end)()", "attempt to index a nil value"),
    "collectgarbage": ('collectgarbage("stop")', "attempt to call a nil value"),
    "python": ("python.eval('1')", "attempt to index a nil value"),
    "long string": ('string.rep("x", 10000000)', "string too long"),
    "pattern": ('local s=("a"):rep(150000) s=s..s string.find(s, ".-.-.-.-b")', "string too long"),
    "error": ('error("bad card")', "bad card"),
    "syntax": ("local = 1", "expected near"),
    "python object": ("local g=Duel.LoadScript.__globals__", "attempt to index a function value"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_script_is_stopped_and_reported_and_the_next_one_reads(install, reader, tmp_path, name):
    marker = tmp_path / "escaped"
    body, said = HOSTILE[name]
    path = write(install, 200, script(body.replace("{marker}", str(marker)) + "\n"))
    t = time.perf_counter()
    s = reader.read(path)
    assert time.perf_counter() - t < 30  # (a bound against hanging, not a speed target)
    assert s.effects == [] and len(s.problems) == 1, s.problems
    assert s.problems[0][1].startswith("stopped: ") and said in s.problems[0][1], s.problems
    assert not marker.exists()
    good = write(install, 201, script("""\
        local e1=Effect.CreateEffect(c)
        e1:SetType(EFFECT_TYPE_ACTIVATE)
        e1:SetCode(EVENT_FREE_CHAIN)
        c:RegisterEffect(e1)
        """))
    after = reader.read(good)
    assert after.problems == [] and [e.type for e in after.effects] == [0x10]


def test_a_script_cannot_replace_the_stand_ins_for_the_next_script(install, reader):
    write(install, 300, script("Effect.CreateEffect=function() return {} end\nCard.RegisterEffect=nil\n"))
    reader.read(install / "official" / "c300.lua")
    good = write(install, 301, script("""\
        local e1=Effect.CreateEffect(c)
        e1:SetType(EFFECT_TYPE_IGNITION)
        c:RegisterEffect(e1)
        """))
    assert [e.type for e in reader.read(good).effects] == [0x40]


def test_load_script_reads_only_library_files_by_name(install, reader, tmp_path):
    secret = tmp_path / "secret.lua"
    secret.write_text("SECRET=1\n", encoding="utf-8")
    path = write(install, 400, script(f"""\
        if Duel.LoadScript("../../secret.lua") or Duel.LoadScript("{secret}") then error("escaped") end
        if not EXTRA_LOADED then error("the library's own LoadScript did not run") end
        """))
    assert reader.read(path).problems == []


def test_the_static_reader_reads_where_the_libraries_are_missing(tmp_path):
    (tmp_path / "official").mkdir()
    path = tmp_path / "official" / "c500.lua"
    path.write_text(script("local e1=Effect.CreateEffect(c)\ne1:SetType(EFFECT_TYPE_IGNITION)\nc:RegisterEffect(e1)\n"),
                    encoding="utf-8")
    assert library_root(path) is None
    s = read_script(path)
    assert [e.type for e in s.effects] == [0x40] and all(e.probe is None for e in s.effects)


def test_the_import_reports_a_stopped_script_with_its_file_and_imports_the_rest(install, tmp_path):
    write(install, 600, script("while true do end\n", "Test Loop"))
    write(install, 601, script("""\
        aux.AddBoostProcedure(c,CATEGORY_ATKCHANGE,EFFECT_FLAG_DAMAGE_STEP,aux.UntilCalc)
        """, "Test Boost"))
    db = CardDB(tmp_path / "cards.db")
    summary = import_cards([install], db, games=GAMES, jobs=1)
    assert any("c600.lua" in p and "instruction limit" in p for p in summary.problems), summary.problems
    boost = db.find("ygo", "Test Boost")
    assert boost is not None and "atk-mod" in boost.effects[0]
    loop = db.find("ygo", "Test Loop")
    assert loop is not None and loop.effects == ()  # known by name, its effects unknown


def test_where_an_effect_is_used_from_and_the_window_a_continuous_trap_borrows():
    from replayer.cards import constants as K
    from replayer.cards.lua import ScriptEffect

    quick = ScriptEffect(1, type=K.QUICK_O | 0x2, code=1002, range=frozenset({"LOCATION_HAND"}))
    own = ScriptEffect(2, type=K.SINGLE | K.TRIGGER_O, code="EVENT_TO_GRAVE", range=frozenset({"LOCATION_MZONE"}))
    gy = ScriptEffect(3, type=0x2 | K.TRIGGER_O, code="EVENT_TO_GRAVE", range=frozenset({"LOCATION_GRAVE"}))
    assert derive.zone_words(quick) == {"from:hand"} and derive.zone_words(own) == set()
    assert derive.zone_words(gy) == {"from:gy"}
    bare = {"type": K.ACTIVATE, "event": "EVENT_FREE_CHAIN", "props": [], "damage_step": [], "from": "c1.lua:5"}
    optional = {"type": 0x2 | K.TRIGGER_O, "event": "EVENT_BATTLE_DESTROYED", "from": "c1.lua:9",
                "props": ["battle-trigger", "optional", "trigger", "on:battle-destroyed", "timing:ds-end"],
                "damage_step": ["ds-end"]}
    effects = [dict(bare), optional]
    derive.lend_trigger_window(effects)
    assert effects[0]["props"] == ["ds-ok", "on:battle-destroyed", "timing:ds-end"] and effects[0]["damage_step"] == ["ds-end"]
    mandatory = dict(optional, props=["battle-trigger", "mandatory", "trigger", "on:battle-damage",
                                      "timing:battle-damage"], type=0x2 | K.TRIGGER_F)
    effects = [dict(bare), mandatory]
    derive.lend_trigger_window(effects)
    assert effects[0]["props"] == [] and effects[0]["damage_step"] == []  # Robbin' Goblin and kin: not activated


# ---- a condition on the card's own place in the battle -------------------------------------------------
def quick_effect(condition: str) -> str:
    """A free-chain quick effect of a monster on the field, allowed in the Damage Step, with this condition."""
    return f"""\
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_QUICK_O)
    e1:SetCode(EVENT_FREE_CHAIN)
    e1:SetRange(LOCATION_MZONE)
    e1:SetProperty(EFFECT_FLAG_DAMAGE_STEP)
    e1:SetCondition({condition})
    c:RegisterEffect(e1)
    """


BATTLE_PLACE = quick_effect("function(e) return aux.UntilCalc() and e:GetHandler():GetAttackAnnouncedCount()<1 end")
WHILE_ATTACKING = quick_effect("function(e) return Duel.GetAttacker()==e:GetHandler() end") + """\
    local e2=e1:Clone()
    e2:SetCondition(function(e,tp) return Duel.GetAttacker():IsControler(tp) end)
    c:RegisterEffect(e2)
    """


def test_the_probe_runs_a_condition_on_the_cards_place_in_the_battle(install, reader):
    (e,) = reader.read(write(install, 700, script(BATTLE_PLACE))).effects
    # "if this card has not declared an attack this turn": never while it is the attacker; as the attacked
    # monster it has not attacked (its player's turn is not this one); another card: not known
    assert e.shut == {"attacker"}
    assert "shut-as:attacker" in derive.descriptive_words(e, "effect-monster")
    own, other = reader.read(write(install, 701, script(WHILE_ATTACKING))).effects
    assert own.shut == {"attack-target", "bystander"}  # "while this card attacks"
    assert other.shut == frozenset()  # asks the attacker's controller: not known, no claim


def test_an_effect_shut_for_the_attacker_is_an_error_there_and_nowhere_else(install, tmp_path):
    from replayer.cards.layers import use_cards_db
    from replayer.check import check_text

    write(install, 702, script(BATTLE_PLACE, "Test Sentinel"))
    db = CardDB(tmp_path / "cards.db")
    import_cards([install], db, games=GAMES, jobs=1)
    use_cards_db(tmp_path / "cards.db")
    try:
        def errors(text: str) -> list[tuple[int, str]]:
            result = check_text(text, "t.duel", None)
            return [(f.span.line, f.rule) for f in result.findings if f.severity.value == "error"]

        head = '[Game "ygo"]\nturn 3 A\nphase battle\n'
        attacks = head + 'A: attack "Test Sentinel" 1800/1000 -> "Other" 1000/1000 {normal-monster}\nstep damage\n'
        assert errors(attacks + 'timing ds-start\nA: activate "Test Sentinel"\nresolve\n') == [
            (7, "ygo.effect.battle-place")]
        attacked = head + 'A: attack "Other" 1800/1000 {normal-monster} -> "Test Sentinel" 1000/1000\nstep damage\n'
        assert errors(attacked + 'timing ds-start\nB: activate "Test Sentinel"\nresolve\n') == []
        # an excerpt that starts inside the Damage Step: the battle is not known, nor the card's place in it
        assert errors('[Game "ygo"]\ntiming ds-start\nA: activate "Test Sentinel"\nresolve\n') == []
    finally:
        use_cards_db(None)


def test_an_effect_used_only_from_the_back_row_is_not_used_by_a_monster_of_the_battle():
    from replayer.cards import constants as K
    from replayer.cards.luarun import shut_by_range

    pendulum = shut_by_range(0x2 | K.TRIGGER_O, frozenset({"LOCATION_PZONE"}))
    assert pendulum == {"attacker", "attack-target"}  # a Pendulum Effect: the card is in a Pendulum Zone
    assert shut_by_range(0x2 | K.TRIGGER_O, frozenset({"LOCATION_MZONE", "LOCATION_SZONE"})) == frozenset()
    assert shut_by_range(K.SINGLE | K.TRIGGER_O, frozenset({"LOCATION_SZONE"})) == frozenset()  # where it is
    assert shut_by_range(K.ACTIVATE, frozenset({"LOCATION_SZONE"})) == frozenset()


OPPONENTS_DAMAGE = """\
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_TRIGGER_O)
    e1:SetCode(EVENT_BATTLE_DAMAGE)
    e1:SetRange(LOCATION_MZONE)
    e1:SetCondition(function(e,tp,eg,ep) local rc=eg:GetFirst() return ep~=tp and rc:IsControler(tp) end)
    c:RegisterEffect(e1)
    """


def test_whose_damage_a_trigger_answers_is_read_from_its_condition(install, reader):
    (e,) = reader.read(write(install, 703, script(OPPONENTS_DAMAGE))).effects
    # with its own player damaged (ep = tp) the condition is false, whatever the card that dealt it
    assert e.shut == {"ep-self"}
    assert "event-player:opponent" in derive.descriptive_words(e, "effect-monster")


def test_a_trigger_on_the_opponents_damage_needs_the_opponent_damaged(install, tmp_path):
    from replayer.cards.layers import use_cards_db
    from replayer.check import check_text

    write(install, 704, script(OPPONENTS_DAMAGE, "Test Collector"))
    import_cards([install], CardDB(tmp_path / "cards.db"), games=GAMES, jobs=1)
    use_cards_db(tmp_path / "cards.db")
    try:
        def errors(attack: str, damaged: str, amount: int) -> list[tuple[int, str]]:
            text = ('[Game "ygo"]\nturn 3 A\nphase battle\n' + attack + "\nstep damage\ntiming ds-start\n"
                    "timing before-calc\ntiming calc\n" + f"{damaged}: damage {amount}\ntiming after-calc\n"
                    'A: activate "Test Collector"\nresolve\n')
            result = check_text(text, "t.duel", None)
            return [(f.span.line, f.rule) for f in result.findings if f.severity.value == "error"]

        attacks = 'A: attack "Test Collector" 1500/1000 -> direct'
        assert errors(attacks, "B", 1500) == []  # the opponent took it
        assert errors('A: attack "Test Collector" 500/1000 -> "Wall" 1000/2000 {normal-monster}', "A", 500) == [
            (11, "ygo.trigger.no-event")]  # its own player took it
    finally:
        use_cards_db(None)


OWN_MONSTER_DESTROYED = """\
    local e1=Effect.CreateEffect(c)
    e1:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_TRIGGER_O)
    e1:SetCode(EVENT_BATTLE_DESTROYED)
    e1:SetRange(LOCATION_SZONE)
    e1:SetCondition(function(e,tp,eg) return eg:IsExists(s.own,1,nil,tp) end)
    c:RegisterEffect(e1)
    local e2=e1:Clone()
    e2:SetCondition(function(e,tp,eg) return eg:IsExists(s.either,1,nil,tp) end)
    c:RegisterEffect(e2)
    local e3=e1:Clone()
    e3:SetCode(EVENT_TO_GRAVE)
    e3:SetCondition(function(e,tp,eg) return eg:GetFirst():IsPreviousControler(1-tp) end)
    c:RegisterEffect(e3)
end
function s.own(c,tp)
    return c:IsReason(0x20) and c:IsLocation(LOCATION_GRAVE) and c:IsPreviousControler(tp)
end
function s.either(c,tp)
    return c:IsPreviousControler(tp) or c:IsReason(0x40)
"""


def test_whose_card_an_event_happened_to_is_read_from_the_condition(install, reader):
    own, either, opponents = reader.read(write(install, 705, script(OWN_MONSTER_DESTROYED))).effects
    # "if a monster you control is destroyed by battle": false for the opponent's monster, whatever else
    def whose(e): return {p for p in e.shut if p.startswith("ec-")}  # (shut-as: its range is the back row)

    assert whose(own) == {"ec-opponent"}
    assert "event-player:self" in derive.descriptive_words(own, "continuous-trap")
    assert whose(either) == set()  # the opponent's card may pass by another test: no claim
    assert not any(w.startswith("event-player:") for w in derive.descriptive_words(either, "continuous-trap"))
    assert whose(opponents) == {"ec-own"}
    assert "event-player:opponent" in derive.descriptive_words(opponents, "continuous-trap")


def test_a_trigger_on_its_own_monsters_destruction_needs_its_own_monster_destroyed(install, tmp_path):
    from replayer.cards.layers import use_cards_db
    from replayer.check import check_text

    write(install, 706, script(OWN_MONSTER_DESTROYED.split("    local e2")[0] + "end\n"
                               + OWN_MONSTER_DESTROYED.split("end\n", 1)[1], "Test Graveyard"))
    import_cards([install], CardDB(tmp_path / "cards.db"), games=GAMES, jobs=1)
    use_cards_db(tmp_path / "cards.db")
    try:
        def errors(owner: str, loser: str) -> list[tuple[int, str]]:
            attack = ('A: attack "Big" 2000/1000 {normal-monster} -> "Small" 1000/1000 {normal-monster}'
                      if loser == "B" else
                      'A: attack "Small" 1000/1000 {normal-monster} -> "Big" 2000/1000 {normal-monster}')
            text = ('[Game "ygo"]\nturn 3 A\nphase battle\n' + attack + "\nstep damage\ntiming ds-start\n"
                    "timing before-calc\ntiming calc\n" + f'{loser}: destroy "Small" by battle\n'
                    f"{loser}: damage 1000\ntiming after-calc\ntiming ds-end\n"
                    f'{loser}: send "Small" to gy\n{owner}: activate "Test Graveyard"\nresolve\n')
            result = check_text(text, "t.duel", None)
            return [(f.span.line, f.rule) for f in result.findings if f.severity.value == "error"]

        assert errors("B", "B") == []  # its own player's monster was destroyed
        assert errors("A", "A") == []
        assert errors("A", "B") == [(14, "ygo.trigger.no-event")]  # the opponent's monster
        assert errors("B", "A") == [(14, "ygo.trigger.no-event")]
    finally:
        use_cards_db(None)
