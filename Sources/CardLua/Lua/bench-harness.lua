-- cardlua bench --stock: the Lua floor. The same prelude and the same script's transform
-- as cardlua runs, called from a plain Lua loop in the stock interpreter: no lazy
-- attributes, no validation, no C boundary per item. Where cardlua's prelude installs C
-- functions (the transform math, the geometry constructors), this one installs their Lua
-- reference (Sources/CardLua/Lua/reference/).
--
-- The script is someone else's code, so it runs in the same sandbox as `cardlua run`:
-- the globals are the allowlist of Sources/CLuaShims/sandbox.c (no io, os, debug,
-- package, load, loadfile, dofile, require, collectgarbage, string.dump; setmetatable
-- refuses __gc; a fixed random seed), every call has the same budget of steps
-- (counted by a count hook), and the Lua heap has the same memory limit. A limit ends the
-- process at once (status 3), so no pcall in the script can catch it. cardlua runs this
-- under a time limit and an address-space limit (BenchProcesses.swift).
--
-- cardlua starts `lua5.4 -E -e BOOT` and writes everything on standard input (no file
-- is left anywhere); BOOT calls this chunk with: the settings ("iterations repeats
-- budget memory"), the prelude's text, the Lua reference's (Sources/CardLua/Lua/reference:
-- what stands in for the C functions the prelude installs), the script's name, its text,
-- the data chunk (`return { prepareState = {…}, state = {…}, items = {…} }`).
local settings, preludeSource, referenceSource, scriptName, scriptSource, dataSource = ...

-- What the harness keeps for itself, before the script's world is made.
local clock, stdout, stderr, exit = os.clock, io.stdout, io.stderr, os.exit
local sethook, getinfo, gc = debug.sethook, debug.getinfo, collectgarbage
local sformat, sort, type, rawset, rawget, setmetatable, getmetatable, load, select, error =
  string.format, table.sort, type, rawset, rawget, setmetatable, getmetatable, load, select, error
local tointeger, tonumber, pairs, ipairs, unpack = math.tointeger, tonumber, pairs, ipairs, table.unpack

local values = {}
for word in settings:gmatch("%S+") do values[#values + 1] = tointeger(tonumber(word)) end
local iterations, repeats, budget, memoryLimit = values[1], values[2], values[3], values[4]

-- MARK: Limits

-- The count hook runs every STEP instructions; a call may run `budget` steps (here a step
-- is exactly one VM instruction: the stock interpreter has no checkpoints).
local STEP = 1000
local ticks, tickLimit = 0, budget // STEP + 1
local memoryLimitKB = memoryLimit / 1024  -- raised by the harness's own tables below

local function stop(what)
  local info = getinfo(3, "Sl")
  local where = info and info.currentline and info.currentline > 0
    and sformat("%s:%d: ", info.short_src, info.currentline) or (scriptName .. ": ")
  stderr:write(where, what, "\n")
  exit(3)
end

sethook(function()
  ticks = ticks + 1
  if ticks > tickLimit then
    stop(sformat("exceeded the budget of %d steps (possible infinite loop)", budget))
  end
  if gc("count") > memoryLimitKB then
    stop(sformat("exceeded the memory limit of %d bytes", memoryLimit))
  end
end, "", STEP)

-- MARK: The sandbox

print = function(...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  stderr:write(table.concat(parts, "\t"), "\n")
end

local RANDOM_SEED = 20160119  -- sandbox.c's: reproducible runs
math.randomseed(RANDOM_SEED)

local function copy(library, without)
  local out = {}
  for name, value in pairs(library) do
    if name ~= without then out[name] = value end
  end
  return out
end

local S = {}
for _, name in ipairs({ "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "print",
  "rawequal", "rawget", "rawlen", "rawset", "select", "tonumber", "tostring", "type", "warn", "xpcall" }) do
  S[name] = _G[name]
end
S.setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: a metatable with __gc is not allowed in cardlua (finalizers cannot be limited)", 2)
  end
  return setmetatable(t, mt)
end
S._VERSION = _VERSION
S.string = copy(string, "dump")
S.table = copy(table)
S.math = copy(math)
local randomseed = math.randomseed
S.math.randomseed = function(...)
  if select("#", ...) == 0 then return randomseed(RANDOM_SEED) end
  return randomseed(...)
end
S.utf8 = copy(utf8)
S.coroutine = copy(coroutine)
S._G = S
-- Strings index the string library through their metatable: no dump there either, and
-- the metatable hidden, as in cardlua.
string.dump = nil -- luacheck: ignore 122 (the harness owns this interpreter)
getmetatable("").__metatable = false

-- MARK: Loading, as cardlua does

local function run(chunk, name, env, ...)
  local f, message = load(chunk, name, "t", env)
  if not f then error(message, 0) end
  ticks = 0
  return f(...)
end

local native = {
  query = function() return {} end,
  attributesIndex = function() return nil end,
  attributesNewindex = rawset,
}
local reference = run(referenceSource, "=cardlua reference", S, native)
native.transformMath, native.geometryMakers = reference.transformMath, reference.geometryMakers
native.elementMakers, native.elementNewindex = reference.elementMakers, reference.elementNewindex
local I = run(preludeSource, "=cardlua prelude", S, native)
local data = run(dataSource, "=bench data", {})
local prepareState, state, flat = data.prepareState, data.state, data.items
ticks = 0
I.setState(unpack(prepareState))
run(scriptSource, "@" .. scriptName, S)
-- The declared tweakables become plain numbers (params.tilt == 8), as after cardlua's load.
ticks = 0
I.params()
local layout = I.layout
local prepare = rawget(S, "prepare")
ticks = 0
if type(prepare) == "function" then prepare(layout) end
ticks = 0
I.readLayout(layout)
I.setState(unpack(state))
local transform = rawget(S, "transform")
if type(transform) ~= "function" then transform = function() end end

-- One plain attributes table per item, built before timing.
local PointMT, SizeMT = getmetatable(I.pool.center), getmetatable(I.pool.size)
local RectMT, IndexPathMT = getmetatable(I.pool.frame), getmetatable(I.pool.indexPath)
local items, n = {}, #flat // 6
for k = 0, n - 1 do
  ticks = 0
  local s, it, cx, cy, w, h = flat[k * 6 + 1], flat[k * 6 + 2], flat[k * 6 + 3], flat[k * 6 + 4], flat[k * 6 + 5], flat[k * 6 + 6]
  local a = {
    indexPath = setmetatable({ section = s, item = it, row = it }, IndexPathMT),
    center = setmetatable({ x = cx, y = cy }, PointMT),
    size = setmetatable({ width = w, height = h }, SizeMT),
    frame = setmetatable({ x = cx - w / 2, y = cy - h / 2, width = w, height = h }, RectMT),
    alpha = 1, zIndex = 0, hidden = false,
  }
  -- Absent reads a script may make: a fresh transform, the bounds.
  setmetatable(a, { __index = function(t, key)
    if key == "transform3D" then local v = I.identity3D(); rawset(t, key, v); return v
    elseif key == "transform" then return I.identityAffine()
    elseif key == "bounds" then return I.rect(0, 0, w, h)
    end
  end })
  items[k + 1] = a
end
-- The memory limit is the script's: the harness's own tables come on top.
memoryLimitKB = memoryLimitKB + gc("count")

-- MARK: Timing

-- Per item: reset what a script writes, call, keep the result. Nothing else: this is the
-- floor, the cost of the effect's own math in the stock interpreter (the count hook's
-- small share included, on both rows alike).
local sink = 0
local function loop(fn)
  local start = clock()
  for _ = 1, iterations do
    for k = 1, n do
      local a = items[k]
      a.transform3D, a.transform, a.alpha, a.zIndex, a.hidden = nil, nil, 1, 0, false
      ticks = 0
      if fn(a, layout) ~= nil then sink = sink + 1 end
    end
  end
  return (clock() - start) * 1e9 / (iterations * n)
end
local function median(fn)
  loop(fn) -- warm-up
  local samples = {}
  for i = 1, repeats do samples[i] = loop(fn) end
  sort(samples)
  local m = #samples // 2
  return #samples % 2 == 1 and samples[m + 1] or (samples[m] + samples[m + 1]) / 2
end
local empty = function() end
stdout:write(sformat("transform_ns %.6f\n", median(transform)))
stdout:write(sformat("empty_ns %.6f\n", median(empty)))
stdout:write(sformat("sink %.17g\n", sink))
