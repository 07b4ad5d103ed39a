-- MARK: Tweakables (`params`) ------------------------------------------------------------

-- A script may declare values to tweak from outside (`--param rotate=50`, the
-- playground's controls):
--   params = { rotate = { value = 35, min = 0, max = 90, step = 1 },   -- a number (a slider)
--              wrap   = { value = true },                               -- on/off (a toggle)
--              style  = { value = "cover", options = { "cover", "flat" } },  -- one of (segments)
--              tilt   = { value = 0, min = 0, max = 1, label = "Viewpoint offset" } }
-- Once the script has run, the host calls I.params(): the declarations are checked and
-- kept here, and the global becomes a table of plain values (params.rotate == 35,
-- params.wrap == true, params.style == "cover"), so a callback reads a tweakable as fast
-- as any table field. I.setParams then writes the host's overrides (already checked by
-- the host against min…max or the options) into that table.
class([[
---@class cardlua.Param
---@field value number|boolean|string the value to start with (and to use unless overridden): a number (with min and max), a boolean (an on/off switch), or a string among `options`
---@field min? number a number's smallest value an override or a slider may set
---@field max? number a number's largest value an override or a slider may set
---@field step? number the step of a number's slider in `cardlua play`
---@field options? string[] the strings a string param may take (a segmented control in `cardlua play`)
---@field label? string what `cardlua play` shows for it (the name when absent)

---Tweakables: values to tweak from outside the script, with `--param rotate=50` (run,
---watch, check, play, export) or the controls of `cardlua play`. Declare each one as
---`rotate = { value = 35, min = 0, max = 90, step = 1 }` (a number), `wrap = { value = true }`
---(on/off) or `style = { value = "cover", options = { "cover", "flat" } }` (one of), each
---with an optional `label`; inside the callbacks `params.rotate` is then the VALUE in
---use (not the table). Read params inside the callbacks: a value copied at the script's
---top level keeps the declaration.
---@type table<string, number|boolean|string|cardlua.Param>?
params = nil]])

do
  local sformat, next = string.format, next
  local MAX_PARAMS = 100   -- a bound on what the host reads and the page draws
  local MAX_OPTIONS = 20   -- a segmented control's segments
  local MAX_TEXT = 80      -- a label's or an option's characters (bytes)
  local NUMBER_FIELDS = { value = true, min = true, max = true, step = true, label = true }
  local BOOLEAN_FIELDS = { value = true, label = true }
  local OPTION_FIELDS = { value = true, options = true, label = true }
  local KEYWORDS = {
    ["and"] = true, ["break"] = true, ["do"] = true, ["else"] = true, ["elseif"] = true, ["end"] = true,
    ["false"] = true, ["for"] = true, ["function"] = true, ["goto"] = true, ["if"] = true, ["in"] = true,
    ["local"] = true, ["nil"] = true, ["not"] = true, ["or"] = true, ["repeat"] = true, ["return"] = true,
    ["then"] = true, ["true"] = true, ["until"] = true, ["while"] = true,
  }
  local numbers   -- the table that replaced the global (name → value), once declared
  local choices   -- name → { option = true } for the string params

  local function shown(v)
    if type(v) == "string" then return sformat("%q", #v > 40 and ssub(v, 1, 40) .. "…" or v) end
    return tostring(v)
  end

  -- A read of a name the script does not declare (`params.tilte`): an error at the line
  -- that read it, naming the param it looks like (`params.tilte is not declared (did you
  -- mean tilt?)`, as `--param tilte=…` says), instead of a nil that fails further on as
  -- "attempt to perform arithmetic on a nil value". Only misses get here; rawget still
  -- answers nil.
  local VALUES = {
    __index = function (values, key)
      if type(key) ~= "string" then return nil end
      local declared = {}
      for name in next, values do declared[#declared + 1] = name end
      sort(declared)
      local shownKey = #key > 40 and ssub(key, 1, 40) .. "…" or key
      local guess = misspelt(key, declared)
      if guess then error("params." .. shownKey .. " is not declared (did you mean " .. guess .. "?)", 2) end
      if #declared == 0 then error("params." .. shownKey .. " is not declared (params declares none)", 2) end
      error("params." .. shownKey .. " is not declared (params declares " .. concat(declared, ", ") .. ")", 2)
    end,
  }

  -- A label or an option: one line of text the host can carry in its tab-separated lines.
  local function checkText(at, what, v)
    if type(v) ~= "string" then fail(at .. what .. " must be a string (got " .. shown(v) .. ")") end
    if v == "" then fail(at .. what .. " must not be empty") end
    if #v > MAX_TEXT then fail(at .. what .. " is longer than " .. MAX_TEXT .. " bytes") end
    if smatch(v, "%c") then fail(at .. what .. " must be one line, without tabs or other control characters") end
  end

  local function checkFields(at, entry, allowed, what)
    for key in next, entry do
      if not allowed[key] then
        fail(at .. "unknown field " .. shown(key) .. " (" .. what .. ")")
      end
    end
  end

  -- The declarations, checked, as records sorted by name (the host orders them as the
  -- script does; records.c reads them): { name, kind = "number" | "boolean" | "options",
  -- value, label?, and min, max, step? (a number) or options (one of) }. An empty list
  -- when the script declares none.
  function I.params()
    local declared = rawget(G, "params")
    if declared == nil then return {} end
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
      local value, label = entry.value, entry.label
      if label ~= nil then checkText(at, "label", label) end
      local p = { name = name, value = value, label = label }
      if type(value) == "boolean" then
        checkFields(at, entry, BOOLEAN_FIELDS, "an on/off tweakable has value = true or false and an optional label")
        p.kind = "boolean"
      elseif entry.options ~= nil or (type(value) == "string" and entry.min == nil and entry.max == nil) then
        checkFields(at, entry, OPTION_FIELDS, "a tweakable with options has value, options and an optional label")
        local options = entry.options
        if options == nil then
          fail(at .. "value " .. shown(value) .. " is a string: list the strings it may take, like options = { " .. shown(value) .. ", … }")
        end
        if type(options) ~= "table" then fail(at .. "options must be a list of strings like { \"cover\", \"flat\" } (got " .. shown(options) .. ")") end
        local n, seen = #options, {}
        if n < 2 then fail(at .. "options must list at least 2 strings") end
        if n > MAX_OPTIONS then fail(at .. "options: more than " .. MAX_OPTIONS .. " strings") end
        for key in next, options do
          if type(key) ~= "number" or key ~= floor(key) or key < 1 or key > n then
            fail(at .. "options must be a list of strings like { \"cover\", \"flat\" } (it has the key " .. shown(key) .. ")")
          end
        end
        for i = 1, n do
          checkText(at, "options[" .. i .. "]", options[i])
          if seen[options[i]] then fail(at .. "options lists " .. shown(options[i]) .. " twice") end
          seen[options[i]] = true
        end
        if type(value) ~= "string" then fail(at .. "value must be one of the options (got " .. shown(value) .. ")") end
        if not seen[value] then
          local listed = {}
          for i = 1, n do listed[i] = options[i] end
          fail(at .. "value " .. shown(value) .. " is not one of the options (" .. concat(listed, ", ") .. ")")
        end
        p.kind, p.options, p.choices = "options", options, seen
      else
        checkFields(at, entry, NUMBER_FIELDS, "a tweakable has value, min, max, an optional step and an optional label")
        for _, key in ipairs({ "value", "min", "max" }) do
          local v = entry[key]
          if v == nil then fail(at .. key .. " is missing") end
          if not isnumber(v) then fail(at .. key .. " must be a finite number (got " .. shown(v) .. ")") end
        end
        local low, high, step = entry.min, entry.max, entry.step
        if low > high then fail(at .. "min (" .. tostring(low) .. ") is above max (" .. tostring(high) .. ")") end
        if value < low or value > high then
          fail(at .. "value " .. tostring(value) .. " is outside min…max (" .. tostring(low) .. "…" .. tostring(high) .. ")")
        end
        if step ~= nil and (not isnumber(step) or step <= 0) then
          fail(at .. "step must be a positive number (got " .. shown(step) .. ")")
        end
        p.kind, p.min, p.max, p.step = "number", low, high, step
      end
      list[#list + 1] = p
    end
    sort(list, function (a, b) return a.name < b.name end)
    numbers, choices = setmetatable({}, VALUES), {}
    for _, p in ipairs(list) do
      numbers[p.name] = p.value
      if p.kind == "options" then choices[p.name] = p.choices end
    end
    rawset(G, "params", numbers)
    return list
  end

  -- The host's overrides, records { name = …, value = … } in order (records.c makes them):
  -- a finite number, true or false, or one of the options, as the declaration takes.
  function I.setParams(settings)
    if numbers == nil then fail("params: the script declares no tweakables") end
    for _, setting in ipairs(settings) do
      local name, value = setting.name, setting.value
      local old, v = rawget(numbers, name), nil
      if type(old) == "number" then
        if isnumber(value) then v = value end
      elseif type(old) == "boolean" then
        if type(value) == "boolean" then v = value end
      elseif type(old) == "string" and choices[name][value] then
        v = value
      end
      if v == nil then fail("params." .. name .. ": cannot be set to " .. tostring(value)) end
      numbers[name] = v
    end
    -- the same table stays the global (a script that replaced it gets it back)
    rawset(G, "params", numbers)
    return ""
  end
end
