"""The few numeric constants of the simulators' card data that the readers need, re-declared.

They are the values of ygopro-core / EDOPro (``datas.type`` bits, effect types, the two Damage
Step flags, the categories replayer maps, the battle events). Scripts are read by constant
*name*; these numbers decode a cdb's ``type`` column and numeric literals in scripts.
"""

from __future__ import annotations

# ---- datas.type bits ----------------------------------------------------------------------
TYPE_MONSTER = 0x1
TYPE_SPELL = 0x2
TYPE_TRAP = 0x4
TYPE_NORMAL = 0x10
TYPE_EFFECT = 0x20
TYPE_FUSION = 0x40
TYPE_RITUAL = 0x80
TYPE_TUNER = 0x1000
TYPE_SYNCHRO = 0x2000
TYPE_TOKEN = 0x4000
TYPE_QUICKPLAY = 0x10000
TYPE_CONTINUOUS = 0x20000
TYPE_EQUIP = 0x40000
TYPE_FIELD = 0x80000
TYPE_COUNTER = 0x100000
TYPE_FLIP = 0x200000
TYPE_XYZ = 0x800000
TYPE_PENDULUM = 0x1000000
TYPE_LINK = 0x4000000

# ---- effect types -------------------------------------------------------------------------
EFFECT_TYPES = {
    "EFFECT_TYPE_SINGLE": 0x1, "EFFECT_TYPE_FIELD": 0x2, "EFFECT_TYPE_EQUIP": 0x4,
    "EFFECT_TYPE_ACTIONS": 0x8, "EFFECT_TYPE_ACTIVATE": 0x10, "EFFECT_TYPE_FLIP": 0x20,
    "EFFECT_TYPE_IGNITION": 0x40, "EFFECT_TYPE_TRIGGER_O": 0x80, "EFFECT_TYPE_QUICK_O": 0x100,
    "EFFECT_TYPE_TRIGGER_F": 0x200, "EFFECT_TYPE_QUICK_F": 0x400, "EFFECT_TYPE_CONTINUOUS": 0x800,
    "EFFECT_TYPE_XMATERIAL": 0x1000, "EFFECT_TYPE_GRANT": 0x2000, "EFFECT_TYPE_TARGET": 0x4000,
}
SINGLE, FIELD, EQUIP = 0x1, 0x2, 0x4
ACTIVATE, FLIP, IGNITION, TRIGGER_O, QUICK_O, TRIGGER_F, QUICK_F, CONTINUOUS = (
    0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800)
XMATERIAL, GRANT = 0x1000, 0x2000
#: the types that are activated (ygopro-core's EFFECT_TYPE_ACTIONS mask, less its marker bit)
ACTIONS = ACTIVATE | FLIP | IGNITION | TRIGGER_O | QUICK_O | TRIGGER_F | QUICK_F

# ---- property flags and categories (by value, for numeric literals) ------------------------
FLAG_DAMAGE_STEP = 0x4000
FLAG_DAMAGE_CAL = 0x8000
FLAG_BITS = {0x4000: "EFFECT_FLAG_DAMAGE_STEP", 0x8000: "EFFECT_FLAG_DAMAGE_CAL", 0x10: "EFFECT_FLAG_CARD_TARGET"}
CATEGORY_BITS = {0x4000: "CATEGORY_DISABLE", 0x200000: "CATEGORY_ATKCHANGE", 0x400000: "CATEGORY_DEFCHANGE",
                 0x10000000: "CATEGORY_NEGATE"}

# ---- events ---------------------------------------------------------------------------------
EVENTS = {
    "EVENT_FREE_CHAIN": 1002, "EVENT_CHAINING": 1027, "EVENT_ATTACK_ANNOUNCE": 1130,
    "EVENT_BE_BATTLE_TARGET": 1131, "EVENT_BATTLE_START": 1132, "EVENT_BATTLE_CONFIRM": 1133,
    "EVENT_PRE_DAMAGE_CALCULATE": 1134, "EVENT_DAMAGE_CALCULATING": 1135, "EVENT_PRE_BATTLE_DAMAGE": 1136,
    "EVENT_BATTLE_END": 1137, "EVENT_BATTLED": 1138, "EVENT_BATTLE_DESTROYING": 1139,
    "EVENT_BATTLE_DESTROYED": 1140, "EVENT_DAMAGE_STEP_END": 1141, "EVENT_ATTACK_DISABLED": 1142,
    "EVENT_BATTLE_DAMAGE": 1143,
}
EVENT_NAMES = {v: k for k, v in EVENTS.items()}
#: the simulator's gate: in the Damage Step, events 1132-1149 need no flag; in damage calculation 1134-1136
DS_EVENTS = range(1132, 1150)
CALC_EVENTS = range(1134, 1137)
