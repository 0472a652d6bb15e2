-- replayer: the stand-ins for the engine's objects while a card script's initial_effect runs.
--
-- This chunk is run once in a fresh sandboxed Lua state (replayer/cards/luarun.py) with the few
-- things it keeps for itself and never gives to a script: the raw text loader, the instruction
-- hook, the stack reader and the reader of library files. It defines the tables the engine gives
-- every script (Card, Effect, Duel, Group, Debug), records every effect a card registers, and
-- answers, for a condition, cost or target function, whether it holds in each phase of a battle
-- (the probe). Anything a script asks that is not answered here is a "wild" value: truthy, callable,
-- indexable, comparable, and noted as asked, so that an answer that depended on it is not trusted.
local load, sethook, getinfo, read_library = ...
local type, pairs, ipairs, error, pcall, select, setmetatable, rawset, tostring =
      type, pairs, ipairs, error, pcall, select, setmetatable, rawset, tostring

-- ---- limits: an instruction budget, spent by a count hook ---------------------------------------
local budget = 100 -- (this chunk's own set-up; each script and probe is given its own)
sethook(function()
  budget = budget - 1
  if budget < 0 then
    budget = 0
    local info = getinfo(2, "Sl")
    error("instruction limit" .. (info and (" (in " .. info.short_src .. ":" .. tostring(info.currentline) .. ")") or ""), 0)
  end
end, "", 1000)

-- ---- the engine's objects are userdata to a script: type() says so of the stand-ins too -------------
local objects = setmetatable({}, {__mode = "k"})
local function object(t) objects[t] = true; return t end
_G.type = function(v)
  local t = type(v)
  if t == "table" and objects[v] then return "userdata" end
  return t
end

-- ---- the wild value ------------------------------------------------------------------------------
local asked = false -- set whenever a wild value is used
local W
local wildmt = {}
W = object(setmetatable({}, wildmt))
local function wild() asked = true; return W end
wildmt.__index = wild
wildmt.__call = wild
wildmt.__newindex = function() asked = true end
for _, op in ipairs({"__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv", "__band", "__bor",
                     "__bxor", "__shl", "__shr", "__bnot"}) do wildmt[op] = wild end
wildmt.__lt = function() asked = true; return true end
wildmt.__le = function() asked = true; return true end
wildmt.__eq = function() asked = true; return false end
wildmt.__len = function() asked = true; return 1 end
wildmt.__concat = function() asked = true; return "" end
wildmt.__tostring = function() return "?" end

-- a table of the engine's functions: what is not defined here (or by the libraries) is wild
local function namespace()
  local t = setmetatable({}, {__index = wild})
  rawset(t, "__index", t) -- the engine's tables are their objects' metatables
  return t
end
Card, Effect, Duel, Group, Debug = namespace(), namespace(), namespace(), namespace(), namespace()

-- ---- the battle the probe puts the functions in --------------------------------------------------
-- role: nil (the battle is wild), or the place of the effect's own card in the battle: "attacker",
-- "attacker-direct" (it attacks directly), "attack-target", "bystander" (neither; another monster attacks
-- one), "bystander-direct" (another monster attacks directly). battle_asked: a function asked the battle.
local state = {phase = 0x4, calculated = false, role = nil, handler = nil}
local battle_asked = false

-- another card: nothing is known of it but that it is not the effect's own card
local strangermt = {}
for k, v in pairs(wildmt) do strangermt[k] = v end
strangermt.__eq = function() return false end
local S = object(setmetatable({}, strangermt))

-- ---- effects -------------------------------------------------------------------------------------
local current = {source = "", code = 0, card = nil, effects = {}}
local effect_mt = {__index = Effect}

local function where()
  -- the line of the card's own script that led to this call, and the library function it went through
  local via = nil
  for level = 3, 60 do
    local info = getinfo(level, "Sln")
    if not info then break end
    if info.source == current.source then return info.currentline, via end
    if info.source ~= "=[standins]" and info.source:sub(1, 1) == "=" then
      via = info.source:sub(2) .. (info.name and (" " .. info.name) or "") -- the outermost library call
    end
  end
  return 0, via
end

local function new_effect(owner)
  local line, via = where()
  return object(setmetatable({_f = {type = 0, code = 0, property = 0, category = 0, range = 0, owner = owner,
                             line = line, via = via, count = false}}, effect_mt))
end

local E = {}
function E.CreateEffect(c) return new_effect(c) end
local nobody = object(setmetatable({_code = 0}, Card)) -- the owner of a global effect (code 0)
function E.GlobalEffect() return new_effect(nobody) end
function E.Clone(e)
  local n = new_effect(e._f.owner)
  for k, v in pairs(e._f) do if k ~= "line" and k ~= "via" then n._f[k] = v end end
  return n
end
local function setter(field) return function(e, v) e._f[field] = v end end
local function getter(field) return function(e) return e._f[field] end end
for name, field in pairs({Type = "type", Code = "code", Category = "category", Range = "range",
                          Condition = "condition", Cost = "cost", Target = "target", Operation = "operation",
                          Description = "description", Value = "value", Label = "label",
                          LabelObject = "labelobject", Reset = "reset", OwnerPlayer = "ownerplayer"}) do
  E["Set" .. name] = setter(field)
  E["Get" .. name] = getter(field)
end
function E.SetProperty(e, p) e._f.property = p or 0 end
function E.GetProperty(e) return e._f.property end
function E.SetCountLimit(e) e._f.count = true end
function E.GetHandler(e) return e._f.owner end
function E.GetOwner(e) return e._f.owner end
function E.IsHasType(e, t) return (e._f.type or 0) & t ~= 0 end
function E.IsHasProperty(e, p) return (e._f.property or 0) & p ~= 0 end
function E.IsHasCategory(e, c) return (e._f.category or 0) & c ~= 0 end
function E.IsHasRange(e, r) return (e._f.range or 0) & r ~= 0 end
function E.GetHandlerPlayer() return 0 end
function E.SetHintTiming() end
function E.SetTargetRange() end
function E.SetAbsoluteRange() end

-- ---- cards ---------------------------------------------------------------------------------------
local C = {}
function C.RegisterEffect(c, e)
  if type(e) == "table" and e._f and c == current.card then
    local list = current.effects
    list[#list + 1] = e
  end
  return e
end
function C.IsStatus()  -- a card being read has no status (not copying, not summoned…); in a battle: unknown
  if state.role then asked = true end
  return false
end
function C.GetAttackAnnouncedCount(c)
  battle_asked = true
  if state.role and c == state.handler then
    if state.role == "attacker" or state.role == "attacker-direct" then return 1 end
    if state.role == "attack-target" then return 0 end -- the monster of the player whose turn it is not
  end
  asked = true
  return W
end
function C.IsRelateToBattle(c)
  battle_asked = true
  if state.role and c == state.handler then return state.role ~= "bystander" and state.role ~= "bystander-direct" end
  asked = true
  return W
end
function C.GetCode(c) return c._code end
function C.GetOriginalCode(c) return c._code end
function C.IsCode(c, ...)
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if v == c._code then return true end
    if type(v) == "table" then for _, x in ipairs(v) do if x == c._code then return true end end end
  end
  return false
end

-- ---- the duel ------------------------------------------------------------------------------------
local D = {}
function D.GetCurrentPhase() return state.phase end
function D.IsPhase(p) return state.phase & p ~= 0 end
function D.IsDamageCalculated() return state.calculated end
function D.RegisterEffect() end -- a global effect: not one of the card's
function D.GetAttacker()
  battle_asked = true
  local r = state.role
  if r == "attacker" or r == "attacker-direct" then return state.handler end
  if r then return S end
  asked = true
  return W
end
function D.GetAttackTarget()
  battle_asked = true
  local r = state.role
  if r == "attack-target" then return state.handler end
  if r == "attacker-direct" or r == "bystander-direct" then return nil end
  if r then return S end
  asked = true
  return W
end
function D.LoadScript(name)
  if type(name) ~= "string" then return false end
  local text = read_library(name)
  if not text then return false end
  local chunk, err = load(text, "=" .. name, "t", _G)
  if not chunk then error(err, 0) end
  chunk()
  return true
end

-- keep these whatever a script does to the tables: put them back before every script
local function install()
  for k, f in pairs(E) do rawset(Effect, k, f) end
  for k, f in pairs(C) do rawset(Card, k, f) end
  for k, f in pairs(D) do rawset(Duel, k, f) end
end
install()

-- ---- probing a function in each phase of a battle ------------------------------------------------
-- Main Phase 1, the Battle Step, then the five Damage Step timings (ds-start and before-calc are the
-- same phase to a script: the start of the Damage Step is told apart only by its events).
local PROBES = {{0x4, false}, {0x10, false}, {0x20, false}, {0x20, false}, {0x40, false}, {0x20, true}, {0x20, true}}
local PROBE_BUDGET = 20 -- thousands of instructions: a condition asks a few things

-- As the engine asks whether an effect can be activated: its condition, then its cost and its target
-- with chk=0 (a cost may leave a label the target reads), in each phase of `phases` (indices of PROBES),
-- each from the effect as it was set up; eg and ep are the event's cards and player given to them.
-- Returns the three functions' letters (nil for a function the effect does not have).
local function run_probes(e, phases, eg, ep)
  local f = e._f
  local fns = {f.condition, f.cost, f.target}
  local out = {{}, {}, {}}
  local saved = {}
  for k, v in pairs(f) do saved[k] = v end
  for _, i in ipairs(phases) do
    local p = PROBES[i]
    state.phase, state.calculated = p[1], p[2]
    for j = 1, 3 do
      local fn = fns[j]
      if type(fn) == "function" then
        asked = false
        budget = PROBE_BUDGET
        local ok, r
        if j == 1 then ok, r = pcall(fn, e, 0, eg, ep, W, W, W, W) else ok, r = pcall(fn, e, 0, eg, ep, W, W, W, W, 0) end
        budget = PROBE_BUDGET -- (the probe's own bookkeeping after a function spent its budget)
        out[j][#out[j] + 1] = (not ok) and "E" or (r and (asked and "t" or "T") or (asked and "f" or "F"))
      end
    end
    for k in pairs(f) do f[k] = nil end
    for k, v in pairs(saved) do f[k] = v end
  end
  state.phase, state.calculated = 0x4, false
  local function s(j) return type(fns[j]) == "function" and table.concat(out[j]) or nil end
  return s(1), s(2), s(3)
end

local ALL_PHASES, DS_PHASES = {}, {}
for i = 1, #PROBES do ALL_PHASES[i] = i; if i >= 3 then DS_PHASES[#DS_PHASES + 1] = i end end

local function probe(e) return run_probes(e, ALL_PHASES, W, W) end

-- The same in the five Damage Step timings for each place of the effect's card in the battle, when the
-- functions asked the battle: role -> the three functions' letters joined by "|"; and, for an effect
-- that answers damage or a gain of LP (its event's player is the `ep` its functions are given), with
-- that player its own (ep = tp) and the opponent (ep = 1 - tp): "ep-self", "ep-opponent".
local ROLES = {"attacker", "attacker-direct", "attack-target", "bystander", "bystander-direct"}
-- the cards of a player's event (the monster that dealt the battle damage): a group of one card that is
-- known to be there and nothing else (which card it is, whether it is the effect's own card: unknown)
local event_group_mt = {__index = function(_, k) asked = true; return W end, __len = function() return 1 end}
local function event_group(card)
  card = card or S
  local g = object(setmetatable({}, event_group_mt))
  rawset(g, "GetFirst", function() return card end)
  rawset(g, "GetNext", function() return nil end)
  rawset(g, "GetCount", function() return 1 end)
  rawset(g, "IsExists", function(_, fn, n, ex, ...)
    if type(fn) ~= "function" then asked = true; return W end
    local r = fn(card, ...)
    return (r and 1 or 0) >= (n or 1)
  end)
  return g
end
local PLAYER_EVENTS = {[1111] = true, [1112] = true, [1143] = true} -- EVENT_DAMAGE, EVENT_RECOVER, EVENT_BATTLE_DAMAGE
-- the events that happen to cards (sent to the GY, destroyed, destroyed by battle, leaves the field, banished,
-- to the hand, Tributed, discarded, flipped, its position changes, Summoned): whose card it was is told
-- apart by a card whose controller (now and before the event) is known and nothing else: "ec-own" (the
-- effect's player's, tp), "ec-opponent" (1 - tp)
local CARD_EVENTS = {[1014] = true, [1029] = true, [1140] = true, [1015] = true, [1011] = true, [1012] = true,
                     [1017] = true, [1018] = true, [1001] = true, [1016] = true, [1100] = true, [1101] = true,
                     [1102] = true}
local function controlled_by(p)
  local mt = {}
  for k, v in pairs(strangermt) do mt[k] = v end
  local methods = {
    IsControler = function(_, q) return q == p end, IsPreviousControler = function(_, q) return q == p end,
    GetControler = function() return p end, GetPreviousControler = function() return p end}
  mt.__index = function(_, k) local m = methods[k]; if m then return m end; asked = true; return W end
  return object(setmetatable({}, mt))
end
local function probe_roles(e, roles_wanted)
  local roles = {}
  for _, role in ipairs(roles_wanted) do
    local ep, eg = W, W
    if role == "ep-self" then ep, eg = 0, event_group() elseif role == "ep-opponent" then ep, eg = 1, event_group()
    elseif role == "ec-own" then eg = event_group(controlled_by(0)) elseif role == "ec-opponent" then
      eg = event_group(controlled_by(1))
    else state.role, state.handler = role, e._f.owner end
    local c, k, t = run_probes(e, DS_PHASES, eg, ep)
    roles[role] = (c or "") .. "|" .. (k or "") .. "|" .. (t or "")
    state.role, state.handler = nil, nil
  end
  return roles
end

-- ---- loading a helper library (a larger budget: utility.lua loads the rest) --------------------------
function __replayer_load_library(text, name, limit)
  budget = limit
  local chunk, err = load(text, "=" .. name, "t", _G)
  if not chunk then error(err, 0) end
  chunk()
  budget = 0
end

-- ---- running one script --------------------------------------------------------------------------
-- returns a list of records, one per effect the card registered, or raises the script's error
function __replayer_run(text, name, code, limit)
  budget = limit
  install()
  current = {source = "=" .. name, code = code, card = nil, effects = {}}
  local env = setmetatable({}, {__index = _G})
  local s = setmetatable({}, Card)
  rawset(s, "__index", s)
  self_table, self_code = s, code
  rawset(_G, "c" .. tostring(code), s)
  budget = limit
  local chunk, err = load(text, "=" .. name, "t", env)
  if not chunk then error(err, 0) end
  chunk()
  local c = object(setmetatable({_code = code}, s)) -- the card: its script's table is its metatable
  current.card = c
  local init = s.initial_effect
  if type(init) ~= "function" then return nil end
  init(c)
  local out = {}
  for i, e in ipairs(current.effects) do
    local f = e._f
    local condition, cost, target, roles
    if (f.type or 0) & 0x7f0 ~= 0 then -- activated effects only
      battle_asked = false
      condition, cost, target = probe(e)
      local wanted = {}
      if battle_asked then for _, r in ipairs(ROLES) do wanted[#wanted + 1] = r end end
      if PLAYER_EVENTS[f.code] then wanted[#wanted + 1] = "ep-self"; wanted[#wanted + 1] = "ep-opponent" end
      if CARD_EVENTS[f.code] and (f.type or 0) & 0x1 == 0 then -- (a SINGLE effect's event is its own card's)
        wanted[#wanted + 1] = "ec-own"; wanted[#wanted + 1] = "ec-opponent"
      end
      if #wanted > 0 then roles = probe_roles(e, wanted) end
    end
    local function num(v) return math.type(v) == "integer" and v or 0 end
    out[i] = {type = num(f.type), code = num(f.code), property = num(f.property), category = num(f.category),
              range = num(f.range), count = f.count, line = f.line, via = f.via or "",
              condition = condition, cost = cost, target = target, roles = roles}
  end
  current = {source = "", code = 0, card = nil, effects = {}}
  return out
end
