"""EDOPro card scripts read as the engine reads them: ``initial_effect`` run in a sandboxed Lua 5.4.

The engine loads its helper libraries (``constant.lua``, ``utility.lua``, ``proc_*.lua`` at the root of
an install's ``script/`` folder) and then each card's script, and runs ``initial_effect(c)``: every
effect the card has is built there, by the script itself or by a helper procedure with its arguments
(``aux.AddPersistentProcedure(c, …, CATEGORY_ATKCHANGE, EFFECT_FLAG_DAMAGE_STEP, …)``). This module
does the same with stand-ins for the engine's objects (``standins.lua``): the effects a card registers
are recorded with their type, event, property flags, categories, range and count limit, the line of the
card's script they came from, and the helper they went through; and each effect's condition, cost
and target functions are run in each phase of a battle (Main Phase 1, the Battle Step, the five
Damage Step timings) to see which of them they allow (:attr:`ScriptEffect.probe`).

The scripts are untrusted input. The Lua state has no ``io``, ``os``, ``package``, ``require``,
``load``, ``loadstring``, ``dofile``, ``loadfile``, ``string.dump``, ``debug``, ``coroutine``,
``collectgarbage`` or access to Python objects; text is loaded as text only (no bytecode); each script
has an instruction budget and the state a memory limit; string functions refuse subjects longer than
a card script needs. A script that exceeds them, loops or errors is reported with its file and line
and read no further: the card's effects are then unknown (the static reader, :mod:`.lua`, is not
asked, so that one mechanism decides). Without lupa (the binding of Lua for Python) or without the
helper libraries beside the scripts, the static reader reads them instead.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from . import constants as K
from ..i18n import M, Msg, Said
from .lua import QUIET_HELPERS, Script, ScriptEffect, cut, script_names

#: the libraries an install has at the root of ``script/``: their presence marks that root
LIBRARY_MARKERS = ("constant.lua", "utility.lua")
INSTRUCTIONS = 2_000  # a script's budget, in thousands of Lua instructions (an official initial_effect needs < 100)
MEMORY = 256 * 1024 * 1024  # the whole state: libraries (~15 MB) and every script read in it
LONGEST_STRING = 200_000  # no card script handles a longer string
_SAFE_NAME = re.compile(r"[\w.-]+\.lua")

#: the probe's order of phases (standins.lua: PROBES) -> the Damage Step timing words
PROBE_PHASES = ("main1", "battle-step", "ds-start", "before-calc", "calc", "after-calc", "ds-end")
DS_TIMINGS = PROBE_PHASES[2:]


def available() -> bool:
    try:
        import lupa.lua54  # noqa: F401
    except ImportError:
        return False
    return True


def library_root(script: str | os.PathLike[str]) -> Path | None:
    """The folder with the helper libraries for this script: the script's folder or one above it."""
    return _library_root(os.path.dirname(os.path.abspath(script)))


@lru_cache(maxsize=256)
def _library_root(folder: str) -> Path | None:
    p = Path(folder)
    for folder in (p, p.parent):
        if all((folder / name).is_file() for name in LIBRARY_MARKERS):
            return folder
    return None


class SandboxError(Exception):
    """A script the sandbox stopped or could not run: its message names the file and the line."""


class LuaReader:
    """One sandboxed Lua state with the libraries of one ``script/`` folder loaded, reading scripts."""

    def __init__(self, root: str | os.PathLike[str], *, instructions: int = INSTRUCTIONS, memory: int = MEMORY):
        self.root = Path(root)
        self.instructions = instructions
        self.memory = memory
        self._lua = None
        self._run = None
        self.problem: str | None = None  # why the libraries could not be loaded (then nothing is read here)
        self._start()

    # ---- the sandbox ---------------------------------------------------------------------------
    def _read_library(self, name) -> str | None:
        if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
            return None
        for folder in (self.root, self.root / "official"):
            path = folder / name
            try:
                if path.is_file() and path.stat().st_size < 4_000_000:
                    return path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                return None
        return None

    def _start(self) -> None:
        from lupa import lua54

        def no_attributes(obj, name, is_setting):
            raise AttributeError("no access to Python objects from a card script")

        lua = lua54.LuaRuntime(register_eval=False, register_builtins=False, unpack_returned_tuples=True,
                               attribute_filter=no_attributes, max_memory=self.memory)
        g = lua.globals()
        raw_load, sethook, getinfo = g.load, g.debug.sethook, g.debug.getinfo
        for name in ("io", "os", "package", "require", "dofile", "loadfile", "load", "loadstring", "debug",
                     "coroutine", "collectgarbage", "python", "print", "warn"):
            g[name] = None
        lua.execute(_STRING_GUARD, LONGEST_STRING)
        prelude = (Path(__file__).with_name("standins.lua")).read_text(encoding="utf-8")
        chunk = raw_load(prelude, "=[standins]", "t")
        chunk(raw_load, sethook, getinfo, self._read_library)
        self._lua, self._run = lua, g["__replayer_run"]
        try:
            for name in LIBRARY_MARKERS:
                text = self._read_library(name)
                if text is None:
                    raise SandboxError(Said(M("{path}: missing", path=str(self.root / name))))
                self._guarded(lambda t=text, n=name: self._load_library(t, n))
        except SandboxError as e:
            self.problem = _why(e)
        self._names = self._constant_names()

    def _load_library(self, text: str, name: str):
        g = self._lua.globals()
        g["__replayer_lib_text"], g["__replayer_lib_name"] = text, name
        self._lua.execute(f"__replayer_budget_libs({self.instructions * 50})")
        g["__replayer_lib_text"] = g["__replayer_lib_name"] = None

    def _guarded(self, call):
        from lupa import lua54

        try:
            return call()
        except lua54.LuaMemoryError:
            raise SandboxError(Said(M("memory limit"))) from None
        except lua54.LuaError as e:
            raise SandboxError(_lua_message(e)) from None
        except RecursionError:
            raise SandboxError(Said(M("too deep"))) from None

    def _constant_names(self) -> dict[str, dict[int, str]]:
        """The constants' names by value, from the libraries themselves (``CATEGORY_*``, ``EFFECT_FLAG_*``…)."""
        out: dict[str, dict[int, str]] = {p: {} for p in ("CATEGORY_", "EFFECT_FLAG_", "LOCATION_", "EVENT_",
                                                         "EFFECT_")}
        try:
            for k, v in self._lua.globals().items():
                if not isinstance(k, str) or not isinstance(v, int) or isinstance(v, bool):
                    continue
                for prefix in ("CATEGORY_", "EFFECT_FLAG_", "LOCATION_", "EVENT_"):
                    if k.startswith(prefix):
                        if v in out[prefix] and out[prefix][v] != k:
                            _aliases.setdefault((prefix, v), set()).update({k, out[prefix][v]})
                            k = min(k, out[prefix][v], key=lambda n: (len(n), n))
                        out[prefix][v] = k
                        break
                else:
                    if k.startswith("EFFECT_") and not k.startswith("EFFECT_TYPE_"):
                        out["EFFECT_"].setdefault(v, k)
        except Exception:  # noqa: BLE001  (a broken library table: no names)
            pass
        known = set(K.FLAG_BITS.values()) | set(K.CATEGORY_BITS.values())
        for prefix in ("CATEGORY_", "EFFECT_FLAG_"):  # a value with several names: the one replayer reads
            for value, name in list(out[prefix].items()):
                for k in _aliases.get((prefix, value), ()):
                    if k in known:
                        out[prefix][value] = k
        out["LOCATION_"].update(LOCATIONS)
        return out

    # ---- reading one script ------------------------------------------------------------------------
    def read(self, path: str | os.PathLike[str], text: str | None = None) -> Script:
        """The script's effects as its ``initial_effect`` registers them; problems name the file and line."""
        path = str(path)
        name = os.path.basename(path)
        m = re.search(r"c(\d+)\.lua$", name)
        passcode = int(m.group(1)) if m else None
        if text is None:
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError as e:
                return Script(path, passcode, {}, [], [(0, Said(M("cannot read: {error}", error=str(e.strerror or e))))])
        names = script_names(text)
        if self.problem:
            return Script(path, passcode, names, [], [(0, Said(M("the helper libraries could not be loaded: {why}",
                                                                   why=self.problem)))])
        try:
            records = self._guarded(lambda: self._run(text, name, passcode or 0, self.instructions))
        except SandboxError as e:
            if str(e) == "memory limit":
                self._restart()
            return Script(path, passcode, names, [], [(_line_in(str(e), name),
                                                     Said(_stopped(e)))])
        effects = [self._effect(records[i]) for i in range(1, len(records) + 1)] if records is not None else []
        # the card's own effects first, then those of its summoning procedures and kin (a Spirit's return,
        # an Xyz procedure): `effect N` numbers the effects a player reads on the card
        effects.sort(key=lambda e: e.helper in QUIET_HELPERS or e.helper.split(".", 1)[0] in PROCEDURES)
        problems = [] if records is not None else [(0, Said(M("no initial_effect")))]
        return Script(path, passcode, names, effects, problems,
                      monster_hint=any(e.range & {"LOCATION_MZONE"} for e in effects if e.activated))

    def _restart(self) -> None:
        self._lua = self._run = None
        self._start()

    def _bits(self, value: int, prefix: str) -> frozenset[str]:
        names = self._names[prefix]
        out = set()
        bit = 1
        while value and bit <= value:
            if value & bit:
                out.add(names.get(bit, f"{prefix}0x{bit:x}"))
            bit <<= 1
        return frozenset(out)

    def _code(self, code: int, activated: bool) -> int | str | None:
        if not code:
            return None
        if activated:
            if code in K.EVENT_NAMES:
                return code
            if code >= 0x10000000:
                return "EVENT_CUSTOM"
            if 0x1000 <= code < 0x3000 and code & 0xFFF:
                return "EVENT_PHASE" if code < 0x2000 else "EVENT_PHASE_START"
            return self._names["EVENT_"].get(code, code)
        return self._names["EFFECT_"].get(code, code)

    def _effect(self, r) -> ScriptEffect:
        typ = int(r["type"] or 0)
        activated = bool(typ & K.ACTIONS)
        probe, dscon, after = probe_timings(r["condition"], r["cost"], r["target"])
        via = helper_name(str(r["via"] or ""))
        return ScriptEffect(int(r["line"] or 0), type=typ, categories=self._bits(int(r["category"] or 0), "CATEGORY_"),
                            flags=self._bits(int(r["property"] or 0), "EFFECT_FLAG_"),
                            code=self._code(int(r["code"] or 0), activated),
                            range=self._bits(int(r["range"] or 0), "LOCATION_"), dscon=dscon, after_calc=after,
                            count_limit=bool(r["count"]), helper=via, probe=probe,
                            shut=shut_roles(r["roles"]) | shut_by_range(typ, self._bits(int(r["range"] or 0), "LOCATION_")))


#: the table each library file's procedures live in (``proc_spirit.lua AddProcedure`` is ``Spirit.AddProcedure``)
LIBRARY_TABLES = {"proc_spirit.lua": "Spirit", "proc_xyz.lua": "Xyz", "proc_synchro.lua": "Synchro",
                  "proc_link.lua": "Link", "proc_fusion.lua": "Fusion", "proc_fusion_spell.lua": "Fusion",
                  "proc_ritual.lua": "Ritual", "proc_gemini.lua": "Gemini", "proc_pendulum.lua": "Pendulum",
                  "proc_maximum.lua": "Maximum"}


#: the tables of summoning procedures (and a Pendulum Scale's activation): effects the card's text does not list
PROCEDURES = frozenset({"Pendulum", "Xyz", "Synchro", "Link", "Spirit", "Gemini", "Maximum"}) | frozenset(
    f"proc_{n}" for n in ("pendulum", "xyz", "synchro", "link", "spirit", "gemini", "maximum", "fusion", "union", "normal"))


def helper_name(via: str) -> str:
    """``proc_spirit.lua AddProcedure`` -> ``Spirit.AddProcedure``; a function of utility.lua and kin: ``aux.…``."""
    if not via:
        return ""
    file, _, func = via.partition(" ")
    table = LIBRARY_TABLES.get(file)
    if not func:  # a procedure reached by a tail call has no name of its own: its file's table
        return file.removesuffix(".lua") + ".*"
    return f"{table or 'aux'}.{func}"


#: a place of the card in the battle -> the probe's roles that make it up (standins.lua: ROLES): a monster that
#: attacks may attack a monster or directly, a bystander may watch either
ROLE_RUNS = {"attacker": ("attacker", "attacker-direct"), "attack-target": ("attack-target",),
             "bystander": ("bystander", "bystander-direct")}


def shut_roles(roles) -> frozenset[str]:
    """The places in the battle (``attacker``, ``attack-target``, ``bystander``) where one of the effect's
    condition, cost and target is false at every Damage Step timing, decided from what the probe knows (the
    phase, damage calculation, the card's own place in the battle): no wild answer was asked (letters F);
    ``ep-self`` / ``ep-opponent``: the same when the damage (or the gain of LP) it answers is its own player's
    / the opponent's; ``ec-own`` / ``ec-opponent``: one of them is false when the card the event happened to
    (destroyed, sent to the GY, Summoned…) is its own player's / the opponent's, and true for the other's
    (:func:`turned_by`)."""
    if roles is None:
        return frozenset()
    runs = {str(k): str(v) for k, v in roles.items()}
    def shut(name: str) -> bool:
        return any(len(fn) == len(DS_TIMINGS) and set(fn) == {"F"} for fn in runs.get(name, "").split("|"))

    out = {place for place, names in ROLE_RUNS.items() if all(shut(n) for n in names)}
    # whose damage (or gain of LP) it answers: shut for one player and not for the other
    if "ep-self" in runs and shut("ep-self") != shut("ep-opponent"):
        out.add("ep-self" if shut("ep-self") else "ep-opponent")
    # whose card the event happened to: the two runs differ only in that card's controller
    for own, other in (("ec-own", "ec-opponent"), ("ec-opponent", "ec-own")):
        if own in runs and other in runs and turned_by(runs[own], runs[other]):
            out.add(own)
    return frozenset(out)


def turned_by(shut: str, open_: str) -> bool:
    """Two probe runs that differ in one fact only (``condition|cost|target`` letters at the Damage Step
    timings): one of the functions is false at every timing in ``shut`` and true at one at least in
    ``open_``, neither erring. What else the functions asked was answered alike in both runs (the same wild
    values), so that fact turned the answer. (A condition that asks the card's controller under a negation
    of an unknown, ``IsControler(tp) or not IsReason(…)``, could be misread: scripts filter an event's cards
    with conjunctions.)"""
    for a, b in zip(shut.split("|"), open_.split("|")):
        if len(a) == len(b) == len(DS_TIMINGS) and set(a) <= {"F", "f"} and set(b) & {"T", "t"} \
                and "E" not in a + b:
            return True
    return False


#: the zones of the field that are not Monster Zones: an effect used only from there is not used by a monster
#: that battles (it is in a Monster Zone)
BACK_ROW = frozenset({"LOCATION_SZONE", "LOCATION_FZONE", "LOCATION_PZONE"})


def shut_by_range(typ: int, range_: frozenset[str]) -> frozenset[str]:
    """``attacker`` and ``attack-target`` for an activated effect used only from the Spell & Trap, Field or
    Pendulum Zones (a Pendulum Monster's Pendulum Effect): the monsters of the battle are in Monster Zones.
    A SINGLE effect's range is where its card is, not where the effect is used from: no claim."""
    if not typ & K.ACTIONS or typ & (K.SINGLE | K.ACTIVATE) or not range_ or not range_ <= BACK_ROW:
        return frozenset()
    return frozenset({"attacker", "attack-target"})


def probe_timings(*runs) -> tuple[frozenset[str] | None, bool, bool]:
    """The Damage Step timings at which the effect's condition, cost and target all hold, from the probe
    runs (one letter a phase: T/t true, F/f false, E an error), or None when they do not tell.

    The same wild answers stand for what the probe does not know in every phase, so where a function's
    answer changes from one timing to another, the timing changed it. A function true in every timing
    restricts nothing; one that errors or is false everywhere tells nothing (it asked what the probe
    cannot know), unless it holds in Main Phase 1 or the Battle Step and in no Damage Step timing: it
    is shut there.
    """
    allowed: set[str] | None = None
    for run in runs:
        if not run or len(run) != len(PROBE_PHASES) or "E" in run[2:].upper():
            continue
        truth = [c in "Tt" for c in run]
        ds = {t for t, ok in zip(DS_TIMINGS, truth[2:]) if ok}
        if len(ds) == len(DS_TIMINGS):
            continue
        if not ds and not (truth[0] or truth[1]):
            continue
        allowed = ds if allowed is None else allowed & ds
    if allowed is None:
        return None, False, False
    probe = frozenset(allowed)
    dscon = bool(probe) and not probe & {"after-calc", "ds-end"}
    after = bool(probe) and probe <= {"after-calc", "ds-end"}
    return probe, dscon, after


def _lua_message(e: Exception) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:300]


def _stopped(e: SandboxError) -> Msg:
    """What a script the sandbox stopped says: ours as a message, Lua's message as it said it (cut)."""
    why = _why(e)
    return M("stopped: {why}", why=why) if isinstance(why, Said) else cut(M("stopped: {why}"), "why", why)


#: the sandbox's own messages as Lua raises them (standins.lua, the string guard): said as messages
_OWN_LUA_MESSAGES = ((re.compile(r"^instruction limit \(in (?P<place>.+)\)$"), M("instruction limit (in {place})")),
                     (re.compile(r"^instruction limit$"), M("instruction limit")),
                     (re.compile(r"^(?P<place>.+): string too long$"), M("{place}: string too long")))


def _why(e: SandboxError) -> str:
    """The sandbox's message: ours as a message (:class:`~replayer.i18n.Said`), Lua's as it said it."""
    if e.args and isinstance(e.args[0], Said):
        return e.args[0]
    text = str(e)
    for pattern, message in _OWN_LUA_MESSAGES:
        m = pattern.match(text)
        if m:
            return Said(message.replace(**m.groupdict()))
    return text


def _line_in(message: str, name: str) -> int:
    m = re.search(re.escape(name) + r":(\d+):", message)
    return int(m.group(1)) if m else 0


#: string functions that refuse subjects (and results) longer than a card script needs: a pattern
#: match runs in C, where the instruction hook cannot stop it
_STRING_GUARD = """
local limit = ...
local string, error, type = string, error, type
for _, name in ipairs({"find", "match", "gmatch", "gsub", "rep", "format", "byte", "upper", "lower", "reverse"}) do
  local f = string[name]
  string[name] = function(s, a, b, ...)
    if type(s) == "string" and #s > limit then error("string too long", 2) end
    if name == "rep" and type(a) == "number" and type(s) == "string" and #s * a > limit then
      error("string too long", 2) end
    if name == "gsub" and type(b) == "string" and #b > limit then error("string too long", 2) end
    return f(s, a, b, ...)
  end
end
string.dump = nil
-- loading the helper libraries (their own, larger budget)
function __replayer_budget_libs(n)
  __replayer_load_library(__replayer_lib_text, __replayer_lib_name, n)
end
"""

_readers: dict[str, LuaReader] = {}
_aliases: dict[tuple[str, int], set[str]] = {}
#: the zones of ``SetRange`` by bit (the engine's own numbering; other constants share some values)
LOCATIONS = {0x1: "LOCATION_DECK", 0x2: "LOCATION_HAND", 0x4: "LOCATION_MZONE", 0x8: "LOCATION_SZONE",
             0x10: "LOCATION_GRAVE", 0x20: "LOCATION_REMOVED", 0x40: "LOCATION_EXTRA", 0x80: "LOCATION_OVERLAY",
             0x100: "LOCATION_FZONE", 0x200: "LOCATION_PZONE"}


def reader_for(script: str | os.PathLike[str]) -> LuaReader | None:
    """The reader of the scripts beside these libraries (one state a library folder and process), or
    None when lupa or the libraries are missing (then the static reader reads the script)."""
    root = library_root(script)
    if root is None or not available():
        return None
    key = str(root)
    r = _readers.get(key)
    if r is None:
        r = _readers[key] = LuaReader(root)
    return r


def read_script(path: str | os.PathLike[str]) -> Script:
    """Read one script: by running it where the sandbox can, else statically."""
    from .lua import read_script as read_static

    r = reader_for(path)
    return r.read(path) if r is not None else read_static(path)
