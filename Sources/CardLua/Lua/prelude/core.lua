-- cardlua prelude: the script API of docs/script-api.md, written in Lua so that nothing a
-- script calls is a Swift frame. Compiled at build time (embed.list's preludeChunk) and
-- loaded once per state, before the script. It receives the native (C) functions it
-- needs and returns the host's internals. Every public name is registered with `define`
-- (the C functions from the rows of C's own table: defineAll), from which `cardlua types`
-- writes the LuaCATS definitions: the two cannot drift.
local native = ...
local G = _G
local type, rawget, rawset, setmetatable, error, tostring, pairs, ipairs =
  type, rawget, rawset, setmetatable, error, tostring, pairs, ipairs
local abs, floor = math.abs, math.floor
local concat, sort = table.concat, table.sort
local tonumber, smatch, gmatch, ssub, select = tonumber, string.match, string.gmatch, string.sub, select

local I = {}          -- internals for the host (never reachable from scripts)
local api = {}        -- the public API, in order, for `cardlua types`
local classes = {}    -- LuaCATS class definitions, in order

local function define(name, signature, doc, value)
  api[#api + 1] = { name = name, signature = signature, doc = doc, defined = true }
  G[name] = value
end

local function class(text) classes[#classes + 1] = text end

local function isnumber(v) return type(v) == "number" and v == v and v - v == 0 end

-- MARK: Misspelt fields --------------------------------------------------------------------

-- A read of a field the API does not have returns nil, as in plain Lua, unless the name
-- looks like a misspelling of one it has: `layout.collectionview`, `bounds.midx`,
-- `size.widht`. Then the read raises at the script's line, with the right name, instead
-- of a nil that fails later as "attempt to index a nil value". Only misses get here.
local slower, slen, sbyte = string.lower, string.len, string.byte

-- Optimal string alignment distance (a transposition counts as one edit), for short names.
local function editDistance(a, b)
  local la, lb = slen(a), slen(b)
  local previous, current, before = {}, {}, {}
  for j = 0, lb do previous[j] = j end
  for i = 1, la do
    current[0] = i
    for j = 1, lb do
      local cost = sbyte(a, i) == sbyte(b, j) and 0 or 1
      local best = previous[j] + 1
      if current[j - 1] + 1 < best then best = current[j - 1] + 1 end
      if previous[j - 1] + cost < best then best = previous[j - 1] + cost end
      if i > 1 and j > 1 and sbyte(a, i) == sbyte(b, j - 1) and sbyte(a, i - 1) == sbyte(b, j)
        and before[j - 2] + 1 < best then best = before[j - 2] + 1 end
      current[j] = best
    end
    before, previous, current = previous, current, before
  end
  return previous[lb]
end

-- The known name `key` misspells: the same in another case, or (for names of four letters
-- or more) within two edits; nil otherwise.
local function misspelt(key, known)
  if type(key) ~= "string" or slen(key) > 64 then return nil end
  local lower = slower(key)
  for i = 1, #known do
    if slower(known[i]) == lower and known[i] ~= key then return known[i] end
  end
  if slen(key) < 4 then return nil end
  for i = 1, #known do
    if editDistance(lower, slower(known[i])) <= 2 then return known[i] end
  end
  return nil
end

-- Raises "owner.key: no such field — did you mean X?" at the line that read it, when
-- `key` misspells one of `known`; returns nil otherwise. Every __index calls it as a tail
-- call (`return missingField(…)`), which leaves no frame of its own: level 2 is the read.
local function missingField(owner, key, known)
  local intended = misspelt(key, known)
  if intended then
    error(owner .. "." .. tostring(key) .. ": no such field — did you mean " .. intended .. "?", 2)
  end
  return nil
end

-- MARK: Argument checks -----------------------------------------------------------------

-- Every helper tests its arguments inline (a type() or nil test each: this is the hot
-- path) and, only when one is wrong, calls argError to say which, at the script's line
-- (level 3: argError, the helper, its caller). `params` names them ("t, angle, x, y, z";
-- a method's first is self and is not shown), `kinds` has one letter per parameter:
-- n number, T CATransform3D, A CGAffineTransform, R CGRect, P CGPoint, S CGSize.
-- The helper passes one more argument than it declares, so that an extra one is caught.
local KIND_NAMES = { T = "a CATransform3D", A = "a CGAffineTransform", R = "a CGRect", P = "a CGPoint", S = "a CGSize" }
local KIND_FIELD = { T = "m11", A = "a", R = "width", P = "x", S = "width" }
local TRANSFORMS = { CATransform3D = "T", CGAffineTransform = "A" }
-- A transform's type name, else nil: in cardlua a transform is a userdata whose
-- metatable is hidden behind its name (transform_math.c); in the stock interpreter a
-- table whose metatable has that __name.
local function transformName(v)
  local mt = getmetatable(v)
  if type(mt) == "table" then mt = rawget(mt, "__name") end
  if TRANSFORMS[mt] then return mt end
  return nil
end
local function argError(fn, params, kinds, ...)
  local names = {}
  for name in gmatch(params, "[%w_]+") do names[#names + 1] = name end
  local method = smatch(fn, ":") ~= nil
  local shown = concat(names, ", ", method and 2 or 1)
  local expected = fn .. ": expected (" .. shown .. ")"
  local count = select("#", ...)
  for i = 1, #kinds do
    local kind, v = ssub(kinds, i, i), (select(i, ...))
    local ok
    if kind == "n" then ok = type(v) == "number"
    elseif type(v) == "userdata" then ok = TRANSFORMS[transformName(v)] == kind
    else ok = type(v) == "table" and v[KIND_FIELD[kind]] ~= nil end
    if not ok then
      local got
      if v == nil then
        local later = false
        for j = i + 1, count do if select(j, ...) ~= nil then later = true end end
        got = later and "nil" or "missing"
      elseif transformName(v) and TRANSFORMS[transformName(v)] ~= kind then got = "a " .. transformName(v)
      elseif type(v) == "table" and kind ~= "n" then got = "a table without ." .. KIND_FIELD[kind]
      else got = "a " .. type(v) end
      if kind == "n" then
        -- "fn: expected (t, angle, x, y, z); x is missing"
        error(expected .. "; " .. names[i] .. " is " .. got .. (v == nil and "" or ", not a number"), 3)
      end
      -- "fn: expected a CGRect as r, got nothing (fn(r))"
      error(fn .. ": expected " .. KIND_NAMES[kind] .. " as " .. (method and i == 1 and "self" or names[i]) ..
        ", got " .. (got == "missing" and "nothing" or got) .. " (" .. fn .. "(" .. shown .. "))", 3)
    end
  end
  error(expected .. "; got more arguments", 3)
end


-- Defines the functions a C installer returns (transform_math.c, geometry_native.c), in
-- the order its array part lists them, each with the signature its row gives: the
-- parameters with their kinds' types, and its result (or the row's own signature). A row
-- without parameters is a value _G's __index makes: listed, not set.
local KIND_TYPES = { n = "number", T = "CATransform3D", A = "CGAffineTransform", R = "CGRect", P = "CGPoint", S = "CGSize" }
local function defineAll(functions)
  for _, row in ipairs(functions) do
    if row.params == nil then
      api[#api + 1] = { name = row.name, signature = row.returns, doc = row.doc }
    else
      local parts, i = {}, 0
      for name in gmatch(row.params, "[%w_]+") do
        i = i + 1
        parts[i] = name .. ": " .. KIND_TYPES[ssub(row.kinds, i, i)]
      end
      define(row.name, row.signature or "fun(" .. concat(parts, ", ") .. "): " .. tostring(row.returns), row.doc,
        functions[row.name])
    end
  end
end
