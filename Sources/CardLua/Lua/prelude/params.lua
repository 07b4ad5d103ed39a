-- MARK: Tweakables (`params`) ------------------------------------------------------------

-- A script may declare numbers to tweak from outside (`--param rotate=50`, the
-- playground's sliders):
--   params = { rotate = { value = 35, min = 0, max = 90, step = 1 } }
-- Once the script has run, the host calls I.params(): the declarations are checked and
-- kept here, and the global becomes a table of plain numbers (params.rotate == 35), so a
-- callback reads a tweakable as fast as any table field. I.setParams then writes the
-- host's overrides (already checked against min…max by the host) into that table.
class([[
---@class cardlua.Param
---@field value number the value to start with (and to use unless overridden)
---@field min number the smallest value an override or a slider may set
---@field max number the largest value an override or a slider may set
---@field step? number the step of the slider in `cardlua play`

---Tweakables: numbers to tweak from outside the script, with `--param rotate=50` (run,
---watch, check, play) or the sliders of `cardlua play`. Declare each one as
---`rotate = { value = 35, min = 0, max = 90, step = 1 }`; inside the callbacks
---`params.rotate` is then the NUMBER in use (not the table). Read params inside the
---callbacks: a value copied at the script's top level keeps the declaration.
---@type table<string, number|cardlua.Param>?
params = nil]])

do
  local sformat, next = string.format, next
  local MAX_PARAMS = 100   -- a bound on what the host reads and the page draws
  local PARAM_FIELDS = { value = true, min = true, max = true, step = true }
  local KEYWORDS = {
    ["and"] = true, ["break"] = true, ["do"] = true, ["else"] = true, ["elseif"] = true, ["end"] = true,
    ["false"] = true, ["for"] = true, ["function"] = true, ["goto"] = true, ["if"] = true, ["in"] = true,
    ["local"] = true, ["nil"] = true, ["not"] = true, ["or"] = true, ["repeat"] = true, ["return"] = true,
    ["then"] = true, ["true"] = true, ["until"] = true, ["while"] = true,
  }
  local numbers   -- the table that replaced the global (name → number), once declared

  local function shown(v)
    if type(v) == "string" then return sformat("%q", #v > 40 and ssub(v, 1, 40) .. "…" or v) end
    return tostring(v)
  end

  -- The declarations, checked, as "name\tvalue\tmin\tmax\tstep" lines sorted by name
  -- (step empty when not given); "" when the script declares none.
  function I.params()
    local declared = rawget(G, "params")
    if declared == nil then return "" end
    if type(declared) ~= "table" then
      fail("params must be a table like { rotate = { value = 35, min = 0, max = 90 } } (got a " .. type(declared) .. ")")
    end
    local list, count = {}, 0
    for name, entry in next, declared do
      count = count + 1
      if count > MAX_PARAMS then fail("params: more than " .. MAX_PARAMS .. " tweakables") end
      if type(name) ~= "string" or not smatch(name, "^[%a_][%w_]*$") or KEYWORDS[name] then
        fail("params[" .. shown(name) .. "]: a tweakable's name must be an identifier, like rotate")
      end
      local at = "params." .. name .. ": "
      if type(entry) ~= "table" then
        fail(at .. "expected a table like { value = 35, min = 0, max = 90 } (got " ..
          (type(entry) == "number" and tostring(entry) or "a " .. type(entry)) .. ")")
      end
      for key in next, entry do
        if not PARAM_FIELDS[key] then
          fail(at .. "unknown field " .. shown(key) .. " (a tweakable has value, min, max and an optional step)")
        end
      end
      for _, key in ipairs({ "value", "min", "max" }) do
        local v = entry[key]
        if v == nil then fail(at .. key .. " is missing") end
        if not isnumber(v) then fail(at .. key .. " must be a finite number (got " .. shown(v) .. ")") end
      end
      local value, low, high, step = entry.value, entry.min, entry.max, entry.step
      if low > high then fail(at .. "min (" .. tostring(low) .. ") is above max (" .. tostring(high) .. ")") end
      if value < low or value > high then
        fail(at .. "value " .. tostring(value) .. " is outside min…max (" .. tostring(low) .. "…" .. tostring(high) .. ")")
      end
      if step ~= nil and (not isnumber(step) or step <= 0) then
        fail(at .. "step must be a positive number (got " .. shown(step) .. ")")
      end
      list[#list + 1] = { name = name, value = value, min = low, max = high, step = step }
    end
    sort(list, function (a, b) return a.name < b.name end)
    numbers = {}
    local out = {}
    for i, p in ipairs(list) do
      numbers[p.name] = p.value
      out[i] = sformat("%s\t%.17g\t%.17g\t%.17g\t%s", p.name, p.value, p.min, p.max,
        p.step and sformat("%.17g", p.step) or "")
    end
    rawset(G, "params", numbers)
    return concat(out, "\n")
  end

  -- The host's overrides, "name\tvalue" lines (values in a form tonumber reads exactly).
  function I.setParams(text)
    if numbers == nil then fail("params: the script declares no tweakables") end
    for name, value in gmatch(text or "", "([^\t\n]+)\t([^\n]+)") do
      local v = tonumber(value)
      if numbers[name] == nil or not isnumber(v) then fail("params." .. name .. ": cannot be set to " .. value) end
      numbers[name] = v
    end
    -- the same table stays the global (a script that replaced it gets it back)
    rawset(G, "params", numbers)
    return ""
  end
end
