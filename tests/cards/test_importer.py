"""The card data readers and the card database (replayer/cards), on small fixtures made here.

The fixtures are written by the tests in the formats users have on disk: a cdb with the real
``datas``/``texts`` schema, scripts in the style of the EDOPro collection, a YGOProDeck
``cardinfo`` dump and a Duel Masters card list. No real card data is used.
"""

from __future__ import annotations

import json
import sqlite3
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.cards import derive
from replayer.cards.db import CardDB
from replayer.cards.importer import import_cards
from replayer.games import ALL as GAMES
from replayer.cards.layers import LayeredCatalog, use_cards_db
from replayer.cards.lua import read_script
from replayer.cards.names import Suggester, name_key
from replayer.cards.text import dm_words, text_effects
from replayer.games import get as get_game
from replayer.cli import cli

SCHEMA = """
CREATE TABLE "datas" ("id" INTEGER, "ot" INTEGER, "alias" INTEGER, "setcode" INTEGER, "type" INTEGER,
    "atk" INTEGER, "def" INTEGER, "level" INTEGER, "race" INTEGER, "attribute" INTEGER, "category" INTEGER,
    PRIMARY KEY("id"));
CREATE TABLE "texts" ("id" INTEGER, "name" TEXT, "desc" TEXT, "str1" TEXT, "str2" TEXT, "str3" TEXT,
    "str4" TEXT, "str5" TEXT, "str6" TEXT, "str7" TEXT, "str8" TEXT, "str9" TEXT, "str10" TEXT, "str11" TEXT,
    "str12" TEXT, "str13" TEXT, "str14" TEXT, "str15" TEXT, "str16" TEXT, PRIMARY KEY("id"));
"""

# made-up cards: (passcode, type bits, atk, def, level, English name, text)
CARDS = [
    (1001, 0x2 | 0x10000, 0, 0, 0, "Test Surge", "Target 1 face-up monster; it gains 700 ATK."),
    (1002, 0x4, 0, 0, 0, "Test Snare", "When a monster declares an attack: destroy it."),
    (1003, 0x4 | 0x100000, 0, 0, 0, "Test Veto", "When a card is activated: negate the activation."),
    (1004, 0x1 | 0x20, 1200, 800, 4, "Test Knight", "(Quick Effect): You can target 1 face-up monster; negate its effects."),
    (1005, 0x1 | 0x20 | 0x200000, 500, 1500, 3, "Test Flipper", "FLIP: Destroy 1 monster."),
    (1006, 0x1 | 0x20, 1000, 1000, 4, "Test Shield Guard", "During damage calculation: you take no battle damage."),
    (1007, 0x1 | 0x20, 1500, 1000, 4, "Test Avenger", "If you take damage: you can Special Summon this card."),
    (1008, 0x2 | 0x10000, 0, 0, 0, "Test Rally", "Target 1 monster; it gains 300 ATK. You can only use this once."),
    (1009, 0x2 | 0x10000, 0, 0, 0, "Test Text Only", "Target 1 face-up monster; it gains 500 ATK."),
]

SCRIPTS = {
    1001: """\
        --テスト・サージ
        --Test Surge
        local s,id=GetID()
        function s.initial_effect(c)
        \t--Activate
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_ATKCHANGE)
        \te1:SetType(EFFECT_TYPE_ACTIVATE)
        \te1:SetProperty(EFFECT_FLAG_CARD_TARGET+EFFECT_FLAG_DAMAGE_STEP)
        \te1:SetCode(EVENT_FREE_CHAIN)
        \te1:SetHintTiming(TIMING_DAMAGE_STEP)
        \te1:SetCondition(aux.StatChangeDamageStepCondition)
        \tc:RegisterEffect(e1)
        end
        """,
    1002: """\
        --テスト・スネア
        --Test Snare
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_DESTROY)
        \te1:SetType(EFFECT_TYPE_ACTIVATE)
        \te1:SetCode(EVENT_ATTACK_ANNOUNCE)
        \tc:RegisterEffect(e1)
        end
        """,
    1003: """\
        --テスト・ベトー
        --Test Veto
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_NEGATE|CATEGORY_DESTROY)
        \te1:SetType(EFFECT_TYPE_ACTIVATE)
        \te1:SetCode(EVENT_CHAINING)
        \te1:SetCondition(s.condition)
        \tc:RegisterEffect(e1)
        end
        function s.condition(e,tp,eg,ep,ev,re,r,rp)
        \treturn Duel.IsChainNegatable(ev)
        end
        """,
    1004: """\
        --テスト・ナイト
        --Test Knight
        local s,id=GetID()
        function s.initial_effect(c)
        \t--disable
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_DISABLE)
        \te1:SetType(EFFECT_TYPE_QUICK_O)
        \te1:SetCode(EVENT_FREE_CHAIN)
        \te1:SetRange(LOCATION_MZONE)
        \te1:SetCountLimit(1)
        \tc:RegisterEffect(e1)
        \t--atk up when summoned
        \tlocal e2=Effect.CreateEffect(c)
        \te2:SetCategory(CATEGORY_ATKCHANGE)
        \te2:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_O)
        \te2:SetCode(EVENT_SUMMON_SUCCESS)
        \tc:RegisterEffect(e2)
        \tlocal e3=e2:Clone()
        \te3:SetCode(EVENT_SPSUMMON_SUCCESS)
        \tc:RegisterEffect(e3)
        end
        """,
    1005: """\
        --テスト・フリッパー
        --Test Flipper
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_DESTROY)
        \te1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_FLIP)
        \tc:RegisterEffect(e1)
        end
        """,
    1006: """\
        --テスト・シールド
        --Test Shield Guard
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetType(EFFECT_TYPE_QUICK_O)
        \te1:SetRange(LOCATION_HAND)
        \te1:SetCode(EVENT_PRE_DAMAGE_CALCULATE)
        \tc:RegisterEffect(e1)
        end
        """,
    1007: """\
        --テスト・アベンジャー
        --Test Avenger
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_SPECIAL_SUMMON)
        \te1:SetType(EFFECT_TYPE_FIELD+EFFECT_TYPE_TRIGGER_O)
        \te1:SetCode(EVENT_DAMAGE)
        \te1:SetProperty(EFFECT_FLAG_DAMAGE_STEP+EFFECT_FLAG_DELAY)
        \te1:SetRange(LOCATION_HAND)
        \tc:RegisterEffect(e1)
        end
        """,
    1008: """\
        --テスト・ラリー
        --Test Rally
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_ATKCHANGE)
        \te1:SetType(EFFECT_TYPE_ACTIVATE)
        \te1:SetCode(EVENT_FREE_CHAIN)
        \tc:RegisterEffect(e1)
        end
        """,
}


@pytest.fixture(autouse=True)
def _no_card_database_left_behind(monkeypatch):
    """`--cards-db` sets the choice for the process (and its workers): undo it after each test."""
    monkeypatch.setenv("REPLAYER_CARDS_DB", "")
    yield
    use_cards_db(None)


def write_cdb(path: Path, cards, lang_names: dict[int, str] | None = None) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    for pid, typ, atk, def_, level, name, desc in cards:
        conn.execute("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", (pid, 3, 0, 0, typ, atk, def_, level, 0, 0, 0))
        conn.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)",
                     (pid, (lang_names or {}).get(pid, name), desc))
    conn.commit()
    conn.close()


@pytest.fixture
def install(tmp_path: Path) -> Path:
    """A folder laid out like an EDOPro install: cards.cdb, a German language cdb, script/."""
    root = tmp_path / "edopro"
    (root / "script" / "official").mkdir(parents=True)
    write_cdb(root / "cards.cdb", CARDS)
    (root / "config" / "languages" / "de-DE").mkdir(parents=True)
    write_cdb(root / "config" / "languages" / "de-DE" / "cards.cdb", [CARDS[0]], {1001: "Testwoge"})
    for pid, text in SCRIPTS.items():
        (root / "script" / "official" / f"c{pid}.lua").write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.fixture
def dm_list(tmp_path: Path) -> Path:
    path = tmp_path / "dm-cards.json"
    path.write_text(json.dumps({"cards": [
        {"name": "Test Wall", "type": "Creature", "civilizations": ["Water"], "cost": 2, "power": "2000",
         "text": "Blocker (Whenever an opponent's creature attacks, you may tap this creature.)\nThis creature can't attack.",
         "printings": [{"set": "X", "id": "1", "rarity": "C", "illustrator": "-"}]},
        {"name": "Test Racer", "type": "Creature", "civilizations": ["Fire"], "cost": 5, "power": "6000",
         "text": "Speed attacker (This creature doesn't get summoning sickness.)\nDouble breaker",
         "printings": [{"set": "X", "id": "2", "rarity": "C", "illustrator": "-"}]},
        {"name": "Test Herald", "type": "Creature", "civilizations": ["Fire"], "cost": 3, "power": "1000",
         "text": "Each creature in the battle zone that has Dragon in its race has \"speed attacker.\"",
         "printings": [{"set": "X", "id": "3", "rarity": "C", "illustrator": "-"}]},
    ]}), encoding="utf-8")
    return path


@pytest.fixture
def cards_db(tmp_path: Path, install: Path, dm_list: Path):
    db_path = tmp_path / "cards.db"
    summary = import_cards([install, dm_list], CardDB(db_path), games=GAMES, jobs=1)
    use_cards_db(db_path)
    yield db_path, summary
    use_cards_db(None)


# ---- the script reader -------------------------------------------------------------------------
def test_a_script_gives_its_effects_types_categories_flags_and_names(tmp_path):
    path = tmp_path / "c1004.lua"
    path.write_text(textwrap.dedent(SCRIPTS[1004]), encoding="utf-8")
    s = read_script(path)
    assert s.passcode == 1004 and s.names == {"ja": "テスト・ナイト", "en": "Test Knight"}
    assert s.complete
    quick, trig, clone = s.effects
    assert quick.type == 0x100 and quick.categories == {"CATEGORY_DISABLE"} and quick.count_limit
    assert quick.range == {"LOCATION_MZONE"} and quick.line == 6
    assert trig.type == 0x1 | 0x80 and trig.code == "EVENT_SUMMON_SUCCESS"
    assert clone.categories == {"CATEGORY_ATKCHANGE"} and clone.code == "EVENT_SPSUMMON_SUCCESS"


def test_constant_sums_conditions_and_what_cannot_be_read(tmp_path):
    s = read_script(tmp_path / "c1.lua", textwrap.dedent("""\
        --x
        --X
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetCategory(CATEGORY_ATKCHANGE+CATEGORY_DEFCHANGE)
        \te1:SetType(EFFECT_TYPE_QUICK_O)
        \te1:SetProperty(EFFECT_FLAG_DAMAGE_STEP|EFFECT_FLAG_DAMAGE_CAL)
        \te1:SetCondition(s.con)
        \tc:RegisterEffect(e1)
        \tlocal e2=Effect.CreateEffect(c)
        \te2:SetType(some_variable)
        \tc:RegisterEffect(e2)
        \tMystery.AddSomething(c)
        end
        function s.con(e,tp)
        \treturn Duel.GetCurrentPhase()~=PHASE_DAMAGE or not Duel.IsDamageCalculated()
        end
        """))
    e1, e2 = s.effects
    assert e1.categories == {"CATEGORY_ATKCHANGE", "CATEGORY_DEFCHANGE"}
    assert e1.flags == {"EFFECT_FLAG_DAMAGE_STEP", "EFFECT_FLAG_DAMAGE_CAL"} and e1.dscon
    assert e2.unread and "line 11" in e2.unread[0]
    assert (13, "helper Mystery.AddSomething (its effects are not read)") in s.problems
    assert not s.complete


def test_helper_procedures_register_an_activation(tmp_path):
    s = read_script(tmp_path / "c2.lua", "--a\n--A\nfunction s.initial_effect(c)\n\taux.AddEquipProcedure(c)\n"
                    "\tlocal e1=Effect.CreateEffect(c)\n\te1:SetType(EFFECT_TYPE_EQUIP)\n"
                    "\te1:SetCode(EFFECT_UPDATE_ATTACK)\n\tc:RegisterEffect(e1)\nend\n")
    assert [e.type for e in s.effects] == [0x10, 0x4] and s.effects[0].helper == "aux.AddEquipProcedure"


# ---- the simulator's gate and the property words ------------------------------------------------
def _effects(pid: int, tmp_path: Path):
    path = tmp_path / f"c{pid}.lua"
    path.write_text(textwrap.dedent(SCRIPTS[pid]), encoding="utf-8")
    return [e for e in read_script(path).effects if e.activated]


@pytest.mark.parametrize("pid, kind, timings", [
    (1001, "quick-play", {"ds-start", "before-calc"}),  # DS flag + "until damage calculation"
    (1002, "normal-trap", set()),  # no permission, an event outside the Damage Step
    (1003, "counter-trap", set(derive.ALL)),  # a Counter Trap's activation
    (1005, "flip-monster", set(derive.ALL)),  # a flip effect
    (1006, "effect-monster", {"calc"}),  # EVENT_PRE_DAMAGE_CALCULATE
    (1007, "effect-monster", {"ds-start", "before-calc", "after-calc", "ds-end"}),  # DS flag without DAMAGE_CAL
    (1008, "quick-play", set()),  # an ATK changer without the permission
])
def test_engine_gate_and_replayers_rules_agree(tmp_path, pid, kind, timings):
    (e,) = _effects(pid, tmp_path)[:1]
    words, allowed = derive.effect_words(e, kind, GAMES["ygo"])
    assert allowed == timings
    assert derive.replayer_timings(words, kind, GAMES["ygo"]) == timings


def test_words_say_what_the_effect_is(tmp_path):
    quick, trig, _ = _effects(1004, tmp_path)
    assert derive.effect_words(quick, "effect-monster", GAMES["ygo"])[0] >= {"quick", "negates-effect"}
    assert derive.effect_words(trig, "effect-monster", GAMES["ygo"])[0] >= {"trigger", "optional", "self-trigger", "atk-mod"}
    (surge,) = _effects(1001, tmp_path)
    assert derive.effect_words(surge, "quick-play", GAMES["ygo"])[0] == {"atk-mod", "targets"}
    (rally,) = _effects(1008, tmp_path)
    assert "no-ds" in derive.effect_words(rally, "quick-play", GAMES["ygo"])[0]


def test_kind_from_type_bits():
    assert derive.kind_of(0x2 | 0x10000) == "quick-play"
    assert derive.kind_of(0x4 | 0x100000) == "counter-trap"
    assert derive.kind_of(0x4 | 0x20000) == "continuous-trap"
    assert derive.kind_of(0x1 | 0x20 | 0x200000) == "flip-monster"
    assert derive.kind_of(0x1 | 0x10) == "normal-monster"


# ---- card text ------------------------------------------------------------------------------------
def test_text_markers():
    (quick,) = text_effects("(Quick Effect): You can target 1 face-up monster; negate its effects.", "effect-monster")
    assert quick[0] >= {"quick", "negates-effect", "targets"} and "(Quick Effect)" in quick[1]
    (flip,) = text_effects("FLIP: Destroy 1 monster on the field.", "flip-monster")
    assert "flip" in flip[0]
    (st,) = text_effects("Target 1 face-up monster; it gains 500 ATK. (This card's effect can be activated during "
                         "the Damage Step.)", "quick-play")
    assert {"atk-mod", "ds-ok"} <= st[0]
    (calc,) = text_effects("During damage calculation (Quick Effect): You can discard this card; you take no "
                           "battle damage.", "effect-monster")
    assert {"quick", "timing:calc"} <= calc[0]
    (nods,) = text_effects("Destroy 1 monster (except during the Damage Step).", "quick-play")
    assert "no-ds" in nods[0]


def test_dm_keywords_only_of_the_card_itself():
    assert [w for w, _ in dm_words("Blocker (...)\nThis creature can't attack.")] == ["blocker", "cannot-attack"]
    assert [w for w, _ in dm_words("This creature can't attack players.")] == ["cannot-attack-players"]
    assert [w for w, _ in dm_words("Triple breaker (This creature breaks 3 shields.)")] == ["t-breaker"]
    assert dm_words('Each of your creatures has "speed attacker."') == []
    assert [w for w, _ in dm_words("スピードアタッカー\nW・ブレイカー")] == ["speed-attacker", "w-breaker"]


# ---- names ------------------------------------------------------------------------------------------
def test_every_name_form_has_one_key():
    assert name_key("Ｅ・ＨＥＲＯ Ｎｅｏｓ") == name_key("E-HERO  neos") == name_key("e hero neos")
    assert name_key("Rush Recklessly") == name_key("RUSH-RECKLESSLY!")


def test_did_you_mean():
    s = Suggester(["Rush Recklessly", "Honest", "オネスト", "Mirror Force"])
    assert s.suggest("Rush Recklesly")[0] == "Rush Recklessly"
    assert s.suggest("オネスド") == ["オネスト"]
    assert s.suggest("Something Else Entirely") == []


# ---- the import and the card database ----------------------------------------------------------------
def test_import_reads_cdb_scripts_languages_and_dm_list(cards_db):
    db_path, summary = cards_db
    assert summary.cards == {"ygo": len(CARDS), "dm": 3}
    assert summary.scripts == len(SCRIPTS) and summary.complete_scripts == len(SCRIPTS)
    db = CardDB(db_path)
    surge = db.find("ygo", "Test Surge")
    assert surge.kind == "quick-play" and surge.effects == (frozenset({"atk-mod", "targets"}),)
    assert surge.effect_sources == ("c1001.lua:6 (script)",)
    assert db.find("ygo", "テスト・サージ") is surge or db.find("ygo", "テスト・サージ").id == "Test Surge"
    assert db.find("ygo", "Testwoge").id == "Test Surge"  # the German language cdb
    assert db.find("ygo", "ＴＥＳＴ ＳＵＲＧＥ").id == "Test Surge"
    text_only = db.find("ygo", "Test Text Only")  # a cdb row with no script: its text
    assert "atk-mod" in text_only.effects[0] and "text" in text_only.effect_sources[0]
    wall = db.find("dm", "Test Wall")
    assert {"creature", "blocker", "cannot-attack"} <= wall.props and wall.power == 2000
    assert "speed-attacker" not in db.find("dm", "Test Herald").props


def test_reimport_writes_only_what_changed(tmp_path, install, dm_list):
    db = CardDB(tmp_path / "c.db")
    first = import_cards([install, dm_list], db, games=GAMES, jobs=1)
    again = import_cards([install, dm_list], db, games=GAMES, jobs=1)
    assert first.written == first.cards["ygo"] + 3 and again.written == 0
    script = install / "script" / "official" / "c1008.lua"
    script.write_text(script.read_text().replace("EFFECT_TYPE_ACTIVATE)", "EFFECT_TYPE_ACTIVATE)\n"
                                                 "\te1:SetProperty(EFFECT_FLAG_DAMAGE_STEP)"))
    third = import_cards([install], db, games=GAMES, jobs=1)
    assert third.written == 1
    assert "no-ds" not in db.find("ygo", "Test Rally").effects[0]
    assert db.find("dm", "Test Wall") is not None  # an import of other files keeps what was there


def test_unreadable_input_is_reported_not_raised(tmp_path):
    bad = tmp_path / "broken.cdb"
    bad.write_bytes(b"not sqlite at all")
    summary = import_cards([bad], CardDB(tmp_path / "c.db"), games=GAMES, jobs=1)
    assert summary.cards.get("ygo", 0) == 0 and "not a card database" in summary.problems[0]


# ---- layers: inline > built-in catalog > imported ---------------------------------------------------------
def test_builtin_catalog_wins_over_imported_data(tmp_path):
    write_cdb(tmp_path / "x.cdb", [(37742478, 0x2 | 0x10000, 0, 0, 0, "Honest", "nothing")])
    db = CardDB(tmp_path / "c.db")
    import_cards([tmp_path / "x.cdb"], db, games=GAMES, jobs=1)
    layered = LayeredCatalog(get_game("ygo").catalog, db)
    assert layered.find("Honest").kind == "effect-monster"  # the catalog's, not the imported Spell


def _check(cards_db_path, body: str, *extra: str):
    runner = CliRunner()
    path = Path(cards_db_path).parent / "log.duel"
    path.write_text('[Game "ygo"]\nturn 3 A\nphase battle\nA: attack "Test Knight" -> "Test Flipper"\nstep damage\n'
                    + body, encoding="utf-8")
    return runner.invoke(cli, ["check", "--cards-db", str(cards_db_path), *extra, str(path)])


def test_check_judges_imported_cards_and_says_where_the_facts_came_from(cards_db):
    db_path, _ = cards_db
    result = _check(db_path, "timing calc\nA: activate \"Test Surge\"\nresolve\n")
    assert result.exit_code == 1, result.output
    assert "ygo.ds.atk-mod-after-calc" in result.output
    assert "= from: Test Surge: imported card data, c1001.lua:6 (script)" in result.output
    result = _check(db_path, "timing calc\nA: activate \"Test Surge\"\nresolve\n", "--format", "json")
    (finding,) = [f for f in json.loads(result.output)["findings"] if f["rule"].startswith("ygo.")]
    assert finding["from"].endswith("c1001.lua:6 (script)")


@pytest.mark.parametrize("body, rule", [
    ("timing before-calc\nA: activate \"Test Surge\"\nresolve\n", None),
    # it answers an attack declaration: in the Battle Step, never in the Damage Step
    ("timing before-calc\nB: activate \"Test Snare\"\nresolve\n", "ygo.trigger.no-event"),
    ("timing before-calc\nA: activate \"Test Surge\"\nB: activate \"Test Veto\"\nresolve\n", None),
    # it negates an activation: with nothing on the chain there is none to answer
    ("timing calc\nB: activate \"Test Veto\"\nresolve\n", "ygo.trigger.no-event"),
    ("timing before-calc\nA: activate \"Test Knight\" effect 1\nresolve\n", "ygo.ds.not-allowed"),
    ("timing before-calc\nB: activate \"Test Shield Guard\" from hand\nresolve\n", "ygo.ds.named-timing"),
    ("timing calc\nB: activate \"Test Shield Guard\" from hand\nresolve\n", None),
    ("timing calc\nB: activate \"Test Avenger\" from hand\nresolve\n", "ygo.ds.no-calc"),
    ("timing calc\nB: damage 700\ntiming after-calc\nB: activate \"Test Avenger\" from hand\nresolve\n", None),
    # "if you take damage": no damage in the log
    ("timing after-calc\nB: activate \"Test Avenger\" from hand\nresolve\n", "ygo.trigger.no-event"),
    ("timing ds-start\nA: activate \"Test Rally\"\nresolve\n", "ygo.ds.no-ds"),
    ("timing before-calc\nA: activate \"Test Surge\" {no-ds}\nresolve\n", "ygo.ds.no-ds"),  # inline wins
])
def test_imported_verdicts(cards_db, body, rule):
    db_path, _ = cards_db
    result = _check(db_path, body, "--format", "json")
    rules = {f["rule"] for f in json.loads(result.output)["findings"] if f["severity"] != "info"}
    assert rules == ({rule} if rule else set()), result.output


def test_an_open_effect_is_one_that_may_be_activated_and_an_info_says_so(cards_db):
    db_path, _ = cards_db
    result = _check(db_path, "timing calc\nA: special summon \"Test Knight\" from gy\nA: activate \"Test Knight\"\n"
                    "resolve\n", "--format", "json")
    findings = json.loads(result.output)["findings"]
    assert [f["rule"] for f in findings] == ["ygo.effect.assumed"]
    assert "taken as effect 2 (" in findings[0]["message"] and "c1004.lua:14 (script))" in findings[0]["message"]


def test_an_unknown_name_gets_did_you_mean_in_check(cards_db):
    db_path, _ = cards_db
    result = _check(db_path, "timing calc\nA: activate \"Test Surgee\"\nresolve\n")
    assert 'did you mean "Test Surge"?' in result.output and result.exit_code == 0


def test_did_you_mean_from_the_builtin_catalog_without_a_card_database(tmp_path):
    path = tmp_path / "log.duel"
    path.write_text('[Game "ygo"]\nturn 3 A\nphase battle\nA: attack "Honest" -> direct\nstep damage\n'
                    'timing calc\nA: activate "Rush Recklesly"\nresolve\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert 'did you mean "Rush Recklessly"?' in result.output


# ---- replayer cards ------------------------------------------------------------------------------------------
def test_cards_shows_effects_properties_and_sources(cards_db):
    db_path, _ = cards_db
    result = CliRunner().invoke(cli, ["cards", "ygo", "--cards-db", str(db_path), "テスト・ナイト"])
    assert result.exit_code == 0, result.output
    assert "Test Knight  (imported: c1004.lua (script))" in result.output
    assert "from: c1004.lua:6 (script)" in result.output and "Damage Step: not allowed" in result.output
    result = CliRunner().invoke(cli, ["cards", "ygo", "--cards-db", str(db_path), "--format", "json", "Test Knight"])
    data = json.loads(result.output)
    assert data["effects"][0]["from"] == "c1004.lua:6 (script)" and data["effects"][0]["count_limit"] is True
    result = CliRunner().invoke(cli, ["cards", "ygo", "--cards-db", str(db_path), "Test Knigt"])
    assert result.exit_code == 1 and 'did you mean "Test Knight"' in result.output


def test_cards_import_command_prints_a_summary(tmp_path, install):
    result = CliRunner().invoke(cli, ["cards", "import", "--cards-db", str(tmp_path / "c.db"), str(install)])
    use_cards_db(None)
    assert result.exit_code == 0, result.output
    assert f"{len(CARDS)} Yu-Gi-Oh!" in result.output and "8 of 8 read completely" in result.output


def test_ygoprodeck_dumps_in_english_and_german(tmp_path):
    en = tmp_path / "cardinfo.json"
    en.write_text(json.dumps({"data": [
        {"id": 2001, "name": "Test Mirror", "type": "Trap Card", "race": "Counter",
         "desc": "When a card is activated: negate the activation."},
        {"id": 2002, "name": "Test Guard", "type": "Effect Monster", "race": "Warrior", "atk": 1000, "def": 900,
         "level": 3, "desc": "During damage calculation (Quick Effect): You can discard this card; you take no "
                             "battle damage."}]}), encoding="utf-8")
    de = tmp_path / "cardinfo.de.json"
    de.write_text(json.dumps({"data": [{"id": 2001, "name": "Testspiegel", "type": "Trap Card", "race": "Counter",
                                        "desc": "…"}]}), encoding="utf-8")
    db = CardDB(tmp_path / "c.db")
    summary = import_cards([en, de], db, games=GAMES, jobs=1)
    assert summary.cards == {"ygo": 2}
    mirror = db.find("ygo", "Testspiegel")
    assert mirror.id == "Test Mirror" and mirror.kind == "counter-trap" and mirror.names["de"] == "Testspiegel"
    guard = db.find("ygo", "test guard")
    assert guard.atk == 1000 and {"quick", "timing:calc"} <= guard.effects[0]
    assert "(text:" in guard.effect_sources[0]


def test_every_name_a_source_gives_is_a_name_of_the_card(tmp_path):
    """An older cdb beside newer scripts: the cdb's name and the script's current one both find the card,
    and an invisible format character in a name is not kept."""
    root = tmp_path / "edopro"
    (root / "script" / "official").mkdir(parents=True)
    write_cdb(root / "cards.cdb", [(2001, 0x2, 0, 0, 0, "Test Old Party\u200e", "Draw 1 card.")])
    (root / "script" / "official" / "c2001.lua").write_text(textwrap.dedent("""\
        --テスト・パーティー
        --Test New Party
        local s,id=GetID()
        function s.initial_effect(c)
        \tlocal e1=Effect.CreateEffect(c)
        \te1:SetType(EFFECT_TYPE_ACTIVATE)
        \te1:SetCode(EVENT_FREE_CHAIN)
        \tc:RegisterEffect(e1)
        end
        """), encoding="utf-8")
    db = CardDB(tmp_path / "c.db")
    import_cards([root], db, games=GAMES, jobs=1)
    old, new = db.find("ygo", "Test Old Party"), db.find("ygo", "Test New Party")
    assert old is not None and new is not None and old.id == new.id == "Test Old Party"
    assert db.find("ygo", "テスト・パーティー") is not None
