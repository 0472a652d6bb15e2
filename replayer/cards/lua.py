"""EDOPro / YGOPro card scripts (``c<passcode>.lua``) read statically: no Lua runtime.

A script's ``initial_effect`` builds the card's effects with ``Effect.CreateEffect``, sets them
up with ``e:SetType(...)``, ``SetCategory``, ``SetProperty``, ``SetCode``, ``SetRange``,
``SetCondition``, ``SetCountLimit`` and registers them with ``c:RegisterEffect(e)``; ``e:Clone()``
copies one. The reader follows those statements line by line, evaluates the constant sums
(``CATEGORY_ATKCHANGE+CATEGORY_DEFCHANGE``, ``|`` too) by name, knows the common helper
procedures that register an activated effect (``aux.AddEquipProcedure``, ``Ritual.AddProc…``,
``Fusion.CreateSummonEff``, ``aux.AddPersistentProcedure``, ``Pendulum.AddProcedure``), and
notes, with its line, anything it could not read. The first two comment lines name the card in
Japanese and English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import constants as K
from ..i18n import M, Msg, Said
from ..safe import shorten

#: what a script's effect could not read, at a line of the script (the importer says it as ``file:line: what``)
_UNREAD = M("line {line}: {what}")


def _unread(line: int, what: Msg) -> Said:
    return Said(_UNREAD.replace(line=line, what=what))


def cut(message: Msg, name: str, value: str, limit: int = 200) -> Msg:
    """``message`` with the script's own text ``value`` as its parameter ``name``, cut so that the
    English message is at most ``limit`` characters (as the whole text was cut before it was a message)."""
    room = limit - len(message.text) + len("{" + name + "}")
    return message.replace(**{name: shorten(value, max(room, 2))})


@dataclass
class ScriptEffect:
    """One effect as ``initial_effect`` sets it up."""

    line: int  # where it was created (or cloned)
    type: int = 0
    categories: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    code: int | str | None = None  # an event number, or the constant's name when it is not an event
    range: frozenset[str] = frozenset()
    condition: str | None = None  # the condition function's name as written
    dscon: bool = False  # "only until damage calculation" (aux.dscon and its kin)
    after_calc: bool = False  # its condition asks for damage calculation to be over
    count_limit: bool = False
    helper: str = ""  # the helper procedure that made it
    label: str = ""  # the comment line above it ("--atkup")
    unread: list[str] = field(default_factory=list)  # what could not be read
    #: the Damage Step timings its condition, cost and target allow, when running them told (luarun.py)
    probe: frozenset[str] | None = None
    #: the places in a battle where its card cannot activate it in the Damage Step, the probe decided without
    #: guessing (``attacker``, ``attack-target``, ``bystander``; luarun.py ``shut_roles``)
    shut: frozenset[str] = frozenset()

    def copy(self, line: int) -> "ScriptEffect":
        return ScriptEffect(line, self.type, self.categories, self.flags, self.code, self.range,
                            self.condition, self.dscon, self.after_calc, self.count_limit, self.helper, self.label,
                            list(self.unread), self.probe, self.shut)

    @property
    def activated(self) -> bool:
        return bool(self.type & K.ACTIONS)


@dataclass
class Script:
    path: str
    passcode: int | None
    names: dict[str, str]  # "ja", "en" from the first two comment lines
    effects: list[ScriptEffect]
    problems: list[tuple[int, str]]  # (line, what could not be read)
    monster_hint: bool = False  # effects used from the Monster Zone: the card is a monster

    @property
    def complete(self) -> bool:
        return not self.problems and all(not e.unread for e in self.effects)


_CREATE = re.compile(r"^\s*(?:local\s+)?(\w+)\s*=\s*Effect\.CreateEffect\(")
_CLONE = re.compile(r"^\s*(?:local\s+)?(\w+)\s*=\s*(?<!\w)(\w+):Clone\(\)")
#: (each starts where a word starts: a long run of word characters is not tried again from each of them)
_SET = re.compile(r"(?<!\w)(\w+):(SetType|SetCategory|SetProperty|SetCode|SetRange|SetCondition|SetCountLimit)\((.*)")
_REGISTER = re.compile(r"\bc:RegisterEffect\(\s*(\w+)")
_REGISTER_CALL = re.compile(r"\bc:RegisterEffect\(\s*([A-Za-z_.]+)\(")
_HELPER_ASSIGN = re.compile(r"^\s*(?:local\s+)?(\w+)\s*=\s*([A-Z][A-Za-z]*\.[A-Za-z]+|aux\.[A-Za-z]+)\(")
_CALL = re.compile(r"^\s*((?:aux|Auxiliary|[A-Z][A-Za-z]+)\.[A-Za-z]+)\(")
_INITIAL = re.compile(r"^function\s+[\w.]+\.initial_effect\s*\(")
_END = re.compile(r"^end\b")
_FUNC = re.compile(r"^function\s+([\w.:]+)\s*\(")
_PASSCODE = re.compile(r"c(\d+)\.lua$")
_NAME_COMMENT = re.compile(r"^\s*--\s*(.*?)\s*$")
_GET_CATEGORY = re.compile(r"(?<!\w)(\w+):GetCategory\(\)")

#: helpers that register an effect the player activates, and what it is
ACTIVATING_HELPERS: dict[str, dict] = {
    "aux.AddEquipProcedure": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                              "categories": frozenset({"CATEGORY_EQUIP"}), "flags": frozenset({"EFFECT_FLAG_CARD_TARGET"})},
    "aux.AddPersistentProcedure": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                                   "flags": frozenset({"EFFECT_FLAG_CARD_TARGET"})},
    "Ritual.AddProcGreater": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                              "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Ritual.AddProcEqual": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                            "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Ritual.AddProcGreaterCode": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                                  "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Ritual.AddProcEqualCode": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                                "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Fusion.RegisterSummonEff": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                                 "categories": frozenset({"CATEGORY_SPECIAL_SUMMON", "CATEGORY_FUSION_SUMMON"})},
    "Pendulum.AddProcedure": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"], "pendulum": True},
}
#: helpers whose returned effect is then set up by the script (``local e1=Fusion.CreateSummonEff(...)``)
RETURNING_HELPERS: dict[str, dict] = {
    "Fusion.CreateSummonEff": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                               "categories": frozenset({"CATEGORY_SPECIAL_SUMMON", "CATEGORY_FUSION_SUMMON"})},
    "Ritual.CreateProc": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                          "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Ritual.AddProcGreater": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                              "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "Ritual.AddProcEqual": {"type": K.ACTIVATE, "code": K.EVENTS["EVENT_FREE_CHAIN"],
                            "categories": frozenset({"CATEGORY_SPECIAL_SUMMON"})},
    "aux.AddEquipProcedure": ACTIVATING_HELPERS["aux.AddEquipProcedure"],
}
#: helpers that add only summoning procedures, limits or hints: nothing a player activates in a battle
QUIET_HELPERS = frozenset({
    "Xyz.AddProcedure", "Synchro.AddProcedure", "Link.AddProcedure", "Fusion.AddProcMix", "Fusion.AddProcMixN",
    "Fusion.AddContactProc", "Fusion.AddProcMixRep", "Fusion.AddProcFunRep", "Fusion.AddProcCodeFun",
    "Fusion.AddProcFun2", "Fusion.AddProcCode2", "Fusion.AddProcCodeRep", "Fusion.AddProcFunFunRep",
    "Fusion.AddProcCode3", "Fusion.AddProcCode4", "Fusion.AddProcCodeFunRep", "Fusion.AddProcMixRepUnfix",
    "Gemini.AddProcedure", "aux.AddUnionProcedure", "Spirit.AddProcedure", "aux.AddValuesReset",
    "aux.AddEREquipLimit", "aux.AddZWEquipLimit", "aux.EnableCheckReincarnation", "aux.EnableNeosReturn",
    "aux.RegisterClientHint", "Auxiliary.RegisterClientHint", "aux.AddNormalSummonProcedure",
    "aux.AddNormalSetProcedure", "aux.AddMaleficSummonProcedure", "aux.AddLavaProcedure",
    "Ritual.AddWholeLevelTribute", "Synchro.AddMajesticProcedure", "Synchro.AddHandMaterialEffect",
    "Infernoid.RegisterSummonProcedure", "Arcana.RegisterCoinResult", "aux.GlobalCheck", "aux.EnableExtraDeckSummonCountLimit",
    "aux.AddCodeList", "aux.AddSetNameMonsterList", "aux.EnableGeminiAttribute", "aux.EnableReviveLimit",
    "aux.AddSynchroProcedure", "aux.AddXyzProcedure", "aux.AddFusionProcMix", "aux.AddLinkProcedure",
    "Pendulum.AddProcedure",  # also in ACTIVATING_HELPERS: the scale activation
})
#: conditions that mean "only until damage calculation"
DSCON_NAMES = ("aux.dscon", "aux.StatChangeDamageStepCondition")

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|0x[0-9A-Fa-f]+|\d+|[+|()]|\s+|.")


def _args(rest: str) -> list[str]:
    """The top-level comma-separated arguments of a call whose text starts after ``(``."""
    close = rest.find(")")
    if close >= 0:
        head = rest[:close]
        if "(" not in head and "{" not in head and "[" not in head:
            return [a.strip() for a in head.split(",")]
    depth, cur, out = 0, [], []
    for ch in rest:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            if depth == 0:
                out.append("".join(cur).strip())
                return out
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return out


def _names(expr: str) -> tuple[list[str | int], bool]:
    """The constants of a sum like ``A+B|0x4000``; False if anything else is in it."""
    out: list[str | int] = []
    ok = True
    for tok in _TOKEN.findall(expr):
        if tok.isspace() or tok in "+|()":
            continue
        if tok.startswith("0x"):
            out.append(int(tok, 16))
        elif tok.isdigit():
            if not tok.isascii() or len(tok) > 19:  # "⑸" is a digit to str.isdigit, not to int(); nor 5,000 digits
                ok = False
                continue
            out.append(int(tok))
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*", tok):
            out.append(tok)
        else:
            ok = False
    return out, ok


def _type_value(expr: str) -> tuple[int, bool]:
    value, names_ok = 0, True
    parts, ok = _names(expr)
    for p in parts:
        if isinstance(p, int):
            value |= p
        elif p in K.EFFECT_TYPES:
            value |= K.EFFECT_TYPES[p]
        else:
            names_ok = False
    return value, ok and names_ok


def _name_set(expr: str, prefix: str, bits: dict[int, str]) -> tuple[frozenset[str], bool]:
    parts, ok = _names(expr)
    out = set()
    for p in parts:
        if isinstance(p, int):
            out |= {name for bit, name in bits.items() if p & bit}
        elif p.startswith(prefix) or p in ("EFFECT_FLAG2_COF",):
            out.add(p)
        else:
            ok = False
    if expr.strip() in ("0", ""):
        ok = True
    return frozenset(out), ok


def _code_value(expr: str) -> tuple[int | str | None, bool]:
    expr = expr.strip()
    if expr in K.EVENTS:
        return K.EVENTS[expr], True
    if expr.isdigit():
        return (int(expr), True) if expr.isascii() and len(expr) <= 19 else (expr, False)
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", expr):
        return expr, True  # EFFECT_UPDATE_ATTACK, EVENT_SUMMON_SUCCESS, ...
    m = re.fullmatch(r"([A-Z][A-Z0-9_]*)\s*[+|]\s*[\w.()]+", expr)
    if m:
        return m.group(1), True  # EVENT_PHASE+PHASE_END, EVENT_CUSTOM+id: not battle events
    if re.fullmatch(r"[a-z_]\w*", expr):
        return expr, True  # a custom event number held in a variable (id): not a battle event
    return expr, False


def script_names(text: str, lines: list[str] | None = None) -> dict[str, str]:
    """The card's names from the script's first two comment lines (Japanese, then English)."""
    comments = []
    for line in (lines if lines is not None else text.split("\n", 3))[:3]:
        cm = _NAME_COMMENT.match(line)
        if not cm or line.lstrip().startswith("--[["):
            break
        comments.append(cm.group(1))
    if len(comments) >= 2:
        return {"ja": comments[0], "en": comments[1]}
    if len(comments) == 1:
        return {"en": comments[0]}
    return {}


def read_script(path: str | Path, text: str | None = None) -> Script:
    """Read one script file (or its ``text``)."""
    path = str(path)
    if text is None:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    lines = text.splitlines()
    m = _PASSCODE.search(path.replace("\\", "/").rsplit("/", 1)[-1])
    passcode = int(m.group(1)) if m else None
    names = script_names(text, lines)
    funcs = _LazyFunctions(lines)
    problems: list[tuple[int, str]] = []
    start = next((i for i, ln in enumerate(lines) if ln.startswith("function") and _INITIAL.match(ln)), None)
    if start is None:
        return Script(path, passcode, names, [], [(1, "no initial_effect function")])
    end = next((j for j in range(start + 1, len(lines)) if lines[j].startswith("end") and _END.match(lines[j])),
               len(lines))
    effects: dict[str, ScriptEffect] = {}
    registered: list[ScriptEffect] = []
    label = ""
    monster_hint = False
    depth_loop = 0
    for i in range(start + 1, end):
        raw = lines[i]
        lineno = i + 1
        code = raw.split("--", 1)[0] if "--" in raw and not re.search(r"['\"][^'\"]*--", raw) else raw
        stripped = code.strip()
        if not stripped:
            cm = _NAME_COMMENT.match(raw)
            if cm and raw.strip().startswith("--"):
                label = cm.group(1)
            continue
        if stripped.startswith(("for ", "while ", "repeat")):
            depth_loop += 1
        if "Effect" in code:
            m = _CREATE.match(code)
        else:
            m = None
        if m:
            effects[m.group(1)] = ScriptEffect(lineno, label=label)
            if depth_loop:
                effects[m.group(1)].unread.append(_unread(lineno, M("effect made in a loop")))
            continue
        m = _CLONE.match(code) if "Clone" in code else None
        if m:
            src = effects.get(m.group(2))
            if src is None:
                problems.append((lineno, Said(cut(M("clone of an unknown effect {name}"), "name", m.group(2)))))
                effects[m.group(1)] = ScriptEffect(lineno, label=label)  # the problem is noted once, above
            else:
                effects[m.group(1)] = src.copy(lineno)
            continue
        m = _HELPER_ASSIGN.match(code) if "=" in code else None
        if m and m.group(2) in RETURNING_HELPERS:
            spec = RETURNING_HELPERS[m.group(2)]
            effects[m.group(1)] = ScriptEffect(lineno, type=spec["type"], code=spec.get("code"),
                                               categories=spec.get("categories", frozenset()),
                                               flags=spec.get("flags", frozenset()), helper=m.group(2), label=label)
            if m.group(2) in ACTIVATING_HELPERS:  # it also registers the effect it returns
                registered.append(effects[m.group(1)])
            continue
        for sm in (_SET.finditer(code) if ":Set" in code else ()):
            var, method, rest = sm.groups()
            eff = effects.get(var)
            if eff is None:
                continue
            args = _args(rest)
            arg = args[0] if args else ""
            if method == "SetType":
                eff.type, ok = _type_value(arg)
                if not ok:
                    eff.unread.append(_unread(lineno, cut(M("type {value}"), "value", arg)))
            elif method == "SetCategory":
                inherited: frozenset[str] = frozenset()
                for other in _GET_CATEGORY.findall(arg):
                    if other in effects:
                        inherited |= effects[other].categories
                arg = _GET_CATEGORY.sub("0", arg)
                eff.categories, ok = _name_set(arg, "CATEGORY_", K.CATEGORY_BITS)
                eff.categories |= inherited
                if not ok:
                    eff.unread.append(_unread(lineno, cut(M("category {value}"), "value", arg)))
            elif method == "SetProperty":
                eff.flags, ok = _name_set(arg, "EFFECT_FLAG", K.FLAG_BITS)
                if not ok:
                    eff.unread.append(_unread(lineno, cut(M("property {value}"), "value", arg)))
            elif method == "SetCode":
                eff.code, ok = _code_value(arg)
                if not ok:
                    eff.unread.append(_unread(lineno, cut(M("code {value}"), "value", arg)))
            elif method == "SetRange":
                eff.range = frozenset(p for p in _names(arg)[0] if isinstance(p, str))
            elif method == "SetCondition":
                eff.condition = arg
                eff.dscon, eff.after_calc = _window(arg, funcs)
            elif method == "SetCountLimit":
                eff.count_limit = True
        if "(" not in code:
            if stripped == "end" and depth_loop:
                depth_loop -= 1
            continue
        m = _REGISTER.search(code) if "RegisterEffect" in code else None
        if m and m.group(1) in effects:
            eff = effects[m.group(1)]
            registered.append(eff.copy(eff.line))
            if eff.range & {"LOCATION_MZONE"} or eff.type & (K.FLIP | K.IGNITION):
                monster_hint = True
            continue
        m = _REGISTER_CALL.search(code) if "RegisterEffect" in code else None
        if m:
            name = m.group(1)
            spec = RETURNING_HELPERS.get(name)
            if spec:
                registered.append(ScriptEffect(lineno, type=spec["type"], code=spec.get("code"),
                                               categories=spec.get("categories", frozenset()), helper=name, label=label))
            else:
                problems.append((lineno, Said(cut(M("an effect made by {name}"), "name", name))))
            continue
        m = _CALL.match(code)
        if m:
            name = m.group(1)
            if name in ACTIVATING_HELPERS and not ACTIVATING_HELPERS[name].get("pendulum"):
                spec = ACTIVATING_HELPERS[name]
                registered.append(ScriptEffect(lineno, type=spec["type"], code=spec.get("code"),
                                               categories=spec.get("categories", frozenset()),
                                               flags=spec.get("flags", frozenset()), helper=name, label=label))
            elif name in QUIET_HELPERS or name.startswith(("Duel.", "Card.", "Effect.", "Group.", "Debug.")):
                pass
            elif re.match(r"^\w+\.(Add|Enable|Register|Create)", name):
                problems.append((lineno, Said(cut(M("helper {name} (its effects are not read)"), "name", name))))
        if stripped == "end" and depth_loop:
            depth_loop -= 1
    return Script(path, passcode, names, registered, problems, monster_hint)


def _functions(lines: list[str]) -> dict[str, str]:
    """Top-level ``function s.name(...)`` bodies by name (``s.name``), for conditions."""
    out: dict[str, str] = {}
    cur, body = None, []
    for ln in lines:
        m = _FUNC.match(ln) if ln.startswith("function") else None
        if m:
            if cur:
                out[cur] = "\n".join(body)
            cur, body = m.group(1), []
            continue
        if cur is not None:
            if ln.startswith("end") and _END.match(ln):
                out[cur] = "\n".join(body)
                cur, body = None, []
            else:
                body.append(ln)
    if cur:
        out[cur] = "\n".join(body)
    return out


class _LazyFunctions:
    """The script's top-level functions, split only when a condition asks for one; each body is read
    once, and what it tells of the Damage Step once (a script may name one condition on every line)."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self._starts: dict[str, int] | None = None
        self._bodies: dict[str, str | None] = {}
        self.windows: dict[str, tuple[bool, bool] | None] = {}

    def get(self, name: str) -> str | None:
        if name in self._bodies:
            return self._bodies[name]
        if self._starts is None:
            self._starts = {}
            for i, ln in enumerate(self.lines):
                if ln.startswith("function"):
                    m = _FUNC.match(ln)
                    if m:
                        self._starts.setdefault(m.group(1), i)
        start = self._starts.get(name)
        if start is None:
            self._bodies[name] = None
            return None
        body = []
        for ln in self.lines[start + 1:]:
            # a body ends at its `end`, or where the next top-level function starts (as _functions reads
            # them): the bodies do not overlap, so reading all of them reads the script once
            if ln.startswith("end") and _END.match(ln) or ln.startswith("function") and _FUNC.match(ln):
                break
            body.append(ln)
        text = self._bodies[name] = "\n".join(body)
        return text


def _window(arg: str, funcs: "_LazyFunctions | dict[str, str]") -> tuple[bool, bool]:
    """(only until damage calculation, only after it) from a condition and the functions it names."""
    arg = arg.strip()
    if any(n in arg for n in DSCON_NAMES):
        return True, False
    if "IsDamageCalculated" in arg:  # an inline function
        return _window_lines(arg)
    memo = funcs.windows if isinstance(funcs, _LazyFunctions) else {}
    for name in _IDENT.findall(arg):
        if name in memo:
            told = memo[name]
        else:
            told = memo[name] = _body_window(funcs.get(name))
        if told is not None:
            return told
    return False, False


_IDENT = re.compile(r"[A-Za-z_][\w.]*")
_DSCON_BODY = re.compile(r"aux\.dscon|StatChangeDamageStepCondition")


def _body_window(body: str | None) -> tuple[bool, bool] | None:
    """What a condition function's body tells, or None when it tells nothing."""
    if not body:
        return None
    if _DSCON_BODY.search(body):
        return True, False
    if "IsDamageCalculated" in body:
        return _window_lines(body)
    return None


def _window_lines(body: str) -> tuple[bool, bool]:
    for ln in body.splitlines():
        at = ln.find("IsDamageCalculated")
        if at < 0:
            continue
        if _negated(ln, at) or _THEN_FALSE.search(ln):
            return True, False
        return False, True
    return False, False


_THEN_FALSE = re.compile(r"\bthen\s+return\s+false")
_CALL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.(),= \t")


def _negated(line: str, at: int) -> bool:
    """Whether a ``not`` governs the ``IsDamageCalculated`` at ``at`` (``not Duel.IsDamageCalculated()``,
    ``not (a and Duel.IsDamageCalculated())``): the run of call characters before it holds a ``not``.
    (One walk back: a regex searched from every ``not`` of a long line would be quadratic.)"""
    start = at
    while start > 0 and line[start - 1] in _CALL_CHARS:
        start -= 1
    run = line[start:at]
    return re.search(r"\bnot\b", run) is not None
