-- MARK: Scenarios ------------------------------------------------------------------

local STEP_KINDS = { "jump", "drag", "fling", "wait", "scrollToItem", "resize", "autoplay" }
-- CARDLUA_STEP_* in CLuaShims.h (cardlua_step_name; ConstantsTests fails if this drifts).
local STEP_CODE = { jump = 1, drag = 2, fling = 3, wait = 4, scrollToItem = 5, resize = 6, autoplay = 7 }
local NOT_SET = 0 / 0
-- Scenario.maxItems and Scenario.maxSteps on the Swift side: counts are checked here,
-- before the host converts them, and read by their entries (never by a __len).
local MAX_ITEMS, MAX_STEPS = 1000000, 10000

local function viewportOf(v, where)
  if v == nil then return NOT_SET, NOT_SET end
  local w, h
  if type(v) == "string" then
    local a, b = smatch(v, "^%s*(%d+%.?%d*)%s*[xX]%s*(%d+%.?%d*)%s*$")
    w, h = tonumber(a), tonumber(b)
  elseif type(v) == "table" then
    w, h = v.width or v[1], v.height or v[2]
  end
  if not isnumber(w) or not isnumber(h) or w <= 0 or h <= 0 then
    fail(where .. "viewport must be \"WxH\" or { width = …, height = … } with positive sizes (got " .. tostring(v) .. ")")
  end
  return w, h
end

local function names(t)
  local out = {}
  for k in pairs(t) do if type(k) == "string" then out[#out + 1] = k end end
  sort(out)
  return out
end

-- A scenario's items as a list of whole numbers (items per section), checked: at most
-- MAX_ITEMS in all, read by index (never by a __len).
function I.sectionCounts(items, where)
  local counts, total, i = {}, 0, 1
  while true do
    local n = rawget(items, i)
    if n == nil then break end
    if not isnumber(n) or n < 0 or n ~= floor(n) then
      fail(where .. "items[" .. i .. "] must be a whole number of zero or more (got " .. tostring(n) .. ")")
    end
    total = total + n
    if total > MAX_ITEMS then fail(where .. "items: more than " .. MAX_ITEMS .. " items in all") end
    counts[i] = n
    i = i + 1
  end
  return counts
end

-- The names in the script's `scenarios` table, a sorted list (read by records.c).
function I.scenarioNames()
  local s = rawget(G, "scenarios")
  if type(s) ~= "table" then return {} end
  return names(s)
end

-- A scenario as numbers: viewport w, h, items, fps, step count, then per step a kind
-- code and three numbers. NaN means "not set here".
function I.scenario(name)
  local all = rawget(G, "scenarios")
  if type(all) ~= "table" then fail("scenario '" .. name .. "': the script defines no scenarios table") end
  local s = all[name]
  if s == nil then
    local known = names(all)
    fail("unknown scenario '" .. name .. "'" .. (#known > 0 and (" (the script defines: " .. concat(known, ", ") .. ")") or ""))
  end
  local where = "scenario '" .. name .. "': "
  if type(s) ~= "table" then fail(where .. "expected a table, got a " .. type(s)) end
  local out = {}
  out[1], out[2] = viewportOf(s.viewport, where)
  local items = s.items
  if type(items) == "table" then
    I.sectionCounts(items, where)  -- checked here; I.scenarioSections hands them over
    items = nil
  elseif items ~= nil and (not isnumber(items) or items < 0 or items ~= floor(items) or items > MAX_ITEMS) then
    fail(where .. "items must be a whole number from 0 to " .. MAX_ITEMS .. ", or a list like { 5, 8, 3 } (got " .. tostring(items) .. ")")
  end
  out[3] = items or NOT_SET
  if s.rtl ~= nil and type(s.rtl) ~= "boolean" then fail(where .. "rtl must be true or false (got " .. tostring(s.rtl) .. ")") end
  local fps = s.fps
  if fps ~= nil and (not isnumber(fps) or fps <= 0) then fail(where .. "fps must be a positive number (got " .. tostring(fps) .. ")") end
  out[4] = fps or NOT_SET
  local steps = s.steps
  if type(steps) ~= "table" then fail(where .. "steps must be a list of steps") end
  local count = 0
  for i, step in ipairs(steps) do
    if i > MAX_STEPS then fail(where .. "steps: more than " .. MAX_STEPS .. " steps") end
    count = i
    local at = where .. "step " .. i .. ": "
    if type(step) ~= "table" then fail(at .. "expected a table like { fling = 2 }, got a " .. type(step)) end
    local kind
    for k in pairs(step) do
      if STEP_CODE[k] then
        if kind then fail(at .. "has both " .. kind .. " and " .. k .. "; one step does one thing") end
        kind = k
      elseif k ~= "duration" and k ~= "section" and k ~= "velocity" then
        fail(at .. "unknown key '" .. tostring(k) .. "' (a step is one of " .. concat(STEP_KINDS, ", ") .. ", with an optional duration)")
      end
    end
    if not kind then fail(at .. "names no step (expected one of " .. concat(STEP_KINDS, ", ") .. ")") end
    local v, duration = step[kind], step.duration
    if duration ~= nil and (not isnumber(duration) or duration < 0) then
      fail(at .. "duration must be zero or more seconds (got " .. tostring(duration) .. ")")
    end
    local a; local b, c = NOT_SET, duration or NOT_SET  -- every kind sets a
    if kind == "resize" then
      a, b = viewportOf(v, at .. "resize: ")
    elseif kind == "scrollToItem" then
      local section = step.section
      if type(v) == "table" then  -- { item = 7, section = 1 }
        if section ~= nil then fail(at .. "give the section once: scrollToItem = { item = …, section = … } or section = …") end
        v, section = v.item, v.section
        if v == nil then fail(at .. "scrollToItem = { item = …, section = … } needs an item") end
      end
      if not isnumber(v) or v < 0 or v ~= floor(v) or v > MAX_ITEMS then fail(at .. "scrollToItem must be an item number, or { item = …, section = … } (got " .. tostring(v) .. ")") end
      if section ~= nil and (not isnumber(section) or section < 0 or section ~= floor(section) or section > MAX_ITEMS) then
        fail(at .. "section must be a section number, 0 or more (got " .. tostring(section) .. ")")
      end
      a, b = v, section or 0
    else
      if not isnumber(v) then fail(at .. kind .. " must be a finite number (got " .. tostring(v) .. ")") end
      if kind == "wait" and v < 0 then fail(at .. "wait must be zero or more seconds (got " .. tostring(v) .. ")") end
      if kind == "autoplay" and v <= 0 then fail(at .. "autoplay must be a positive number of seconds (got " .. tostring(v) .. ")") end
      a = v
      if kind == "drag" and step.velocity ~= nil then
        -- a recorded drag's release velocity (pt/ms, as measured); without it, the drag's own speed
        if not isnumber(step.velocity) then fail(at .. "velocity must be a finite number (got " .. tostring(step.velocity) .. ")") end
        b = step.velocity
      end
    end
    local base = 5 + (i - 1) * 4
    out[base + 1], out[base + 2], out[base + 3], out[base + 4] = STEP_CODE[kind], a, b, c
  end
  out[5] = count
  return out
end


-- What a scenario says about the layout beyond I.scenario's numbers: rtl (1, 0, or NaN
-- when not set), then the section count (NaN when items is not a list) and the counts.
function I.scenarioSections(name)
  local s = rawget(G, "scenarios")[name]
  local out = { NOT_SET, NOT_SET }
  if s.rtl ~= nil then out[1] = s.rtl and 1 or 0 end
  if type(s.items) == "table" then
    local counts = I.sectionCounts(s.items, "scenario '" .. name .. "': ")
    out[2] = #counts
    for i = 1, #counts do out[2 + i] = counts[i] end
  end
  return out
end
