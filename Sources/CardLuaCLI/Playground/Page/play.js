// cardlua play: the page sends input to the engine and plays the frames it answers.
// Cards are drawn by the static preview's own code (CardRender's Page/card.js, which
// comes before this file in the page's script): left/top from the frame (relative to the
// viewport), CSS matrix3d from transform3D (m11 … m44), opacity and z-index; none when a
// flag says so (hidden, a corner behind the eye, the back toward the eye while not
// double-sided: the engine decides, LayoutAttributes.isBackFaceHidden); the appearance,
// and the headers and footers when the frame has them. A frame's card is [section, item,
// left, …].
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var stage = $("stage"), wrap = $("wrap"), errorBox = $("error");
  var clockBase = 0;                 // page clock = performance.now()/1000 + clockBase (engine seconds)
  var queue = [];                    // frames not shown yet, by time
  var shown = null;                  // the frame on the stage
  var state = null;                  // the engine's latest answer (state)
  var cards = {};                    // "section:item" → element
  var scale = 1;
  var pending = [], busy = false;    // requests go one at a time, in order
  var framesAsked = false;
  var finger = null;                 // { id, x0, y0, samples: [[ms, x, y], …] }
  var rtts = [];
  var ticks = [], fps = 0, dirty = true, rttText = "–";
  var panelAt = 0;                   // when the panel was last written (ms)
  var drawn = [];                    // frames drawn since window.cardlua.drawn() last read them
  var wheel = null;                  // a wheel gesture: { distance, samples: [[ms, content delta]], timer }

  function now() { return performance.now() / 1000 + clockBase; }
  function num(x, d) { var s = String(Number(x.toFixed(d))); return s === "-0" ? "0" : s; }
  function pt(p, d) { return "(" + num(p.x, d) + ", " + num(p.y, d) + ")"; }

  // Every request is by a URL relative to the page ("/state" is asked as "state"): under
  // `play --lan` the page is at /t/TOKEN/ and each of its requests carries the token in
  // its path that way (LANAccess.swift); no cookie ever does.
  function here(path) { return path.replace(/^\//, ""); }

  // MARK: requests, serialized so the engine sees inputs in the order they happened
  function enqueue(request) {
    var last = pending[pending.length - 1];
    if (request.body && request.body.type === "move" && last && last.body && last.body.type === "move") {
      pending[pending.length - 1] = request;   // a newer finger position replaces an unsent one
    } else if (request.path === "/params" && last && last.path === "/params" && last.body.name === request.body.name) {
      pending[pending.length - 1] = request;   // a newer slider value replaces an unsent one
    } else {
      pending.push(request);
    }
    pump();
  }
  function pump() {
    if (busy || !pending.length) { return; }
    busy = true;
    var r = pending.shift(), sent = performance.now();
    var options = r.body !== undefined
      ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(r.body) }
      : { method: r.method || "GET" };
    fetch(here(r.path), options).then(function (response) {
      if (!response.ok) { return response.text().then(function (t) { throw new Error(response.status + " " + t); }); }
      return response.json();
    }).then(function (answer) {
      if (r.body && r.body.type === "move") { rtts.push(performance.now() - sent); if (rtts.length > 200) { rtts.shift(); } }
      if (r.done) { r.done(answer); } else { accept(answer, !r.append); }
    }).catch(function (e) {
      showError("cardlua play: " + e.message);
    }).then(function () {
      if (r.append) { framesAsked = false; }
      busy = false;
      pump();
    });
  }
  // Drags on a 0.01 pt grid and velocities on a 0.001 pt/ms one: what Record writes
  // (rounded) is then exactly what the engine used, and the replay makes the same releases.
  function round(x, places) { var k = Math.pow(10, places), y = Math.round((x || 0) * k) / k; return y === 0 ? 0 : y; }
  function input(type, x, y) {
    var places = type === "up" ? 3 : type === "move" ? 2 : 6;
    enqueue({ path: "/input", body: { type: type, t: now(), x: round(x, places), y: round(y, places) } });
  }

  // An answer: the state, and frames that replace what was queued (an input changed the
  // future) or follow it (more of the same motion).
  function accept(answer, replace) {
    state = answer.state;
    var frames = answer.frames || [];
    if (replace) {
      queue = frames.slice();
    } else {
      var lastT = queue.length ? queue[queue.length - 1].t : (shown ? shown.t : -1);
      for (var i = 0; i < frames.length; i++) { if (frames[i].t > lastT) { queue.push(frames[i]); } }
    }
    showError(state.error);
    showWarnings((state.warnings || []).concat(state.layoutNote ? [state.layoutNote] : []));
    sliders(state.params || []);
    followExport();
    dirty = true;
  }

  // MARK: params: a control per tweakable the script declares, named by its label (or
  // its name): a slider for a number; a toggle for an on/off one (`value = true`, and a
  // number 0…1 in steps of 1); a segmented control for one with `options`. Moving one
  // runs the script again with that value (POST /params), keeping the position. The
  // values shown and copied are exactly the declared ones or the ones the user set
  // (`values`), never a control's rounding of them to its step grid. Each control has a
  // reset to the declared value (the state's `default`), each group one for its params,
  // and the head one for all; A and B keep two sets of values to flip between.
  var sliderKey = null, sliding = null, declared = [], values = {};
  function isToggle(p) { return p.kind === "boolean" || (p.kind === "number" && p.min === 0 && p.max === 1 && p.step === 1); }
  // The shortest form that reads back as the same number (a rounded one could leave the range).
  function luaNumber(x) { return x === 0 ? "0" : String(x); }
  function luaValue(x) { return typeof x === "number" ? luaNumber(x) : typeof x === "boolean" ? String(x) : luaString(x); }
  function luaString(text) { return '"' + String(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"'; }
  // A --param as a shell takes it: quoted unless plain.
  function paramText(p) {
    var v = typeof p.value === "number" ? luaNumber(p.value) : String(p.value);
    return "--param " + (/^[\w.+-]+$/.test(v) ? p.name + "=" + v : "'" + p.name + "=" + v.replace(/'/g, "'\\''") + "'");
  }
  // The run options, one unbreakable piece per `--param name=value` (play.css): the line
  // wraps between options, never inside one.
  function paramsLine() {
    var line = $("paramsline"), args = declared.map(function (p) { return paramText({ name: p.name, value: values[p.name] }); });
    if (line.textContent === args.join(" ")) { return; }   // every answer comes here: no rewrite for nothing
    line.textContent = "";
    args.forEach(function (text, i) {
      if (i) { line.appendChild(document.createTextNode(" ")); }
      var arg = document.createElement("span");
      arg.className = "arg";
      arg.textContent = text;
      line.appendChild(arg);
    });
  }
  // The script's `params = { … }` block with the values, ready to paste over the
  // declaration (min, max, step, options and label as declared).
  function paramsBlock() {
    var lines = ["params = {"];
    declared.forEach(function (p) {
      var entry = "value = " + luaValue(values[p.name]);
      if (p.kind === "number") {
        entry += ", min = " + luaNumber(p.min) + ", max = " + luaNumber(p.max);
        if (p.step !== null) { entry += ", step = " + luaNumber(p.step); }
      } else if (p.kind === "options") {
        entry += ", options = { " + p.options.map(luaString).join(", ") + " }";
      }
      if (p.label !== null && p.label !== undefined) { entry += ", label = " + luaString(p.label); }
      lines.push("  " + p.name + " = { " + entry + " },");
    });
    lines.push("}");
    return lines.join("\n") + "\n";
  }
  // A name's parts between its break opportunities: at each camelCase hump (aB, 2B),
  // before an acronym's last capital (URLLoader: URL, Loader) and after a _ or -. A name
  // wraps there, never inside a part (no regex lookbehind: older Safari lacks it).
  function humps(name) {
    var parts = [], start = 0;
    for (var i = 1; i < name.length; i++) {
      var a = name.charAt(i - 1), b = name.charAt(i), c = name.charAt(i + 1);
      var upper = /[A-Z]/.test(b);
      if ((upper && /[a-z0-9]/.test(a)) || (upper && /[A-Z]/.test(a) && /[a-z]/.test(c))
          || (/[_-]/.test(a) && !/[_-]/.test(b))) {
        parts.push(name.slice(start, i));
        start = i;
      }
    }
    parts.push(name.slice(start));
    return parts;
  }
  // A control's label: the script's label as written (it wraps at its spaces), else the
  // name with a <wbr> at each hump.
  function labelText(element, p) {
    element.textContent = "";
    if (p.label) { element.textContent = p.label; return; }
    humps(p.name).forEach(function (part, i) {
      if (i) { element.appendChild(document.createElement("wbr")); }
      element.appendChild(document.createTextNode(part));
    });
  }

  // Groups: params declare none, so a param goes with those whose name starts with the
  // same word, a leading min or max aside (shadowOpacityMin, shadowRadiusMax: shadow;
  // minScale, scaleRatio: scale). A word only one param starts with puts it in
  // "general". Groups come in the order of their first param, each in the script's order.
  function groupWord(name) {
    var parts = humps(name), first = parts.length > 1 && /^(min|max)$/i.test(parts[0]) ? parts[1] : parts[0];
    return first.replace(/[_-]+$/, "").toLowerCase() || name.toLowerCase();
  }
  function paramGroups(params) {
    var byWord = {}, words = [];
    params.forEach(function (p) {
      var w = groupWord(p.name);
      if (!byWord.hasOwnProperty(w)) { byWord[w] = []; words.push(w); }
      byWord[w].push(p);
    });
    var list = [], general = null;
    words.forEach(function (w) {
      if (byWord[w].length > 1) { list.push({ key: "g:" + w, title: w, params: byWord[w] }); return; }
      if (!general) { general = { key: "general", title: "general", params: [] }; list.push(general); }
      general.params.push(byWord[w][0]);
    });
    return list;
  }
  var folded = {};   // group key → folded (kept across the rebuilds a save makes)

  function sameValue(a, b) { return a === b; }
  // Whether `v` is a value the param takes (a stored set may predate a save that changed it).
  function takes(p, v) {
    if (p.kind === "number") { return typeof v === "number" && isFinite(v) && v >= p.min && v <= p.max; }
    if (p.kind === "boolean") { return typeof v === "boolean"; }
    return p.options.indexOf(v) >= 0;
  }
  function rowOf(name) { return $("sliders").querySelector('.slider[data-name="' + name + '"]'); }
  // A control showing `v` (the value in use: set by the user, or the state's).
  function showValue(p, v) {
    var row = rowOf(p.name);
    if (!row) { return; }
    var control = row.children[1], out = row.children[2];
    if (p.kind === "options") {
      markSegment(control, v);
    } else if (control.type === "checkbox") {
      var on = v === true || (typeof v === "number" && v !== 0);
      control.checked = on;
      out.textContent = on ? "on" : "off";
    } else {
      control.value = v;
      out.textContent = num(v, 4);
    }
  }
  // After any change of `values`: the --param line, each reset (shown on a param off its
  // declared value), the groups' and the head's, and which of A and B is on screen.
  function valuesChanged() {
    paramsLine();
    var anyChanged = false, groupChanged = {};
    declared.forEach(function (p) {
      var row = rowOf(p.name);
      if (!row) { return; }
      var changed = !sameValue(values[p.name], p["default"]);
      anyChanged = anyChanged || changed;
      if (changed) { groupChanged[row.dataset.group] = true; }
      if (row.classList.contains("changed") !== changed) { row.classList.toggle("changed", changed); }
      var reset = row.children[3];
      if (reset.disabled === changed) { reset.disabled = !changed; }
    });
    Array.prototype.forEach.call($("sliders").querySelectorAll(".groupreset"), function (b) {
      var changed = !!groupChanged[b.dataset.group];
      if (b.disabled === changed) { b.disabled = !changed; }
    });
    if ($("resetall").disabled === anyChanged) { $("resetall").disabled = !anyChanged; }
    showSets();
  }
  function setParam(name, value) {
    values[name] = value;
    valuesChanged();
    queue = [];
    enqueue({ path: "/params", body: { t: now(), name: name, value: value } });
  }
  // Several params at once (a reset, A or B): one request each, in order, the last
  // answer drawn (the ones before it would show a mix of old and new values).
  function setParams(wanted) {
    var changes = declared.filter(function (p) {
      return wanted.hasOwnProperty(p.name) && takes(p, wanted[p.name]) && !sameValue(values[p.name], wanted[p.name]);
    });
    if (!changes.length) { return; }
    queue = [];
    changes.forEach(function (p, i) {
      values[p.name] = wanted[p.name];
      showValue(p, wanted[p.name]);
      var request = { path: "/params", body: { t: now(), name: p.name, value: wanted[p.name] } };
      if (i < changes.length - 1) { request.done = function () {}; }
      enqueue(request);
    });
    valuesChanged();
  }
  function defaults(params) {
    var wanted = {};
    params.forEach(function (p) { wanted[p.name] = p["default"]; });
    return wanted;
  }
  function resetButton(className, title, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = "↺";
    b.title = title;
    b.disabled = true;
    b.addEventListener("click", action);
    return b;
  }
  function shownDefault(p) {
    return p.kind === "number" ? (isToggle(p) ? (p["default"] ? "on" : "off") : luaNumber(p["default"]))
      : p.kind === "boolean" ? (p["default"] ? "on" : "off") : p["default"];
  }
  function control(p, out) {
    var input;
    if (p.kind === "options") {
      input = document.createElement("div");
      input.className = "segments";
      input.setAttribute("role", "radiogroup");
      input.setAttribute("aria-label", p.label || p.name);
      input.dataset.name = p.name;
      p.options.forEach(function (option) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = option;
        b.dataset.option = option;
        b.setAttribute("role", "radio");
        b.addEventListener("click", function () {
          if (values[p.name] === option) { return; }
          markSegment(input, option);
          setParam(p.name, option);
        });
        input.appendChild(b);
      });
      return input;
    }
    input = document.createElement("input");
    input.dataset.name = p.name;
    input.id = "param-" + p.name;
    if (isToggle(p)) {
      input.type = "checkbox";
      input.setAttribute("role", "switch");
      input.addEventListener("change", function () {
        out.textContent = input.checked ? "on" : "off";
        setParam(p.name, p.kind === "boolean" ? input.checked : (input.checked ? 1 : 0));
      });
    } else {
      input.type = "range";
      input.min = p.min; input.max = p.max; input.step = p.step === null ? "any" : p.step;
      input.addEventListener("input", function () {
        sliding = p.name;
        out.textContent = num(+input.value, 4);
        setParam(p.name, +input.value);
      });
      input.addEventListener("change", function () { sliding = null; });
    }
    return input;
  }
  function fold(group, on) {
    folded[group.key] = on;
    Array.prototype.forEach.call($("sliders").querySelectorAll('[data-group="' + group.key + '"]'), function (e) {
      e.classList.toggle("folded", on);
    });
    var head = $("sliders").querySelector('.group[data-group="' + group.key + '"] .fold');
    if (head) { head.setAttribute("aria-expanded", on ? "false" : "true"); }
  }
  function buildControls(params) {
    var box = $("sliders"), groups = paramGroups(params);
    box.textContent = "";
    groups.forEach(function (group) {
      // One group only (every word once): no heading, the list as the script declares it.
      if (groups.length > 1) {
        var head = document.createElement("div"), toggle = document.createElement("button"), count = document.createElement("span");
        head.className = "group";
        head.dataset.group = group.key;
        toggle.type = "button";
        toggle.className = "fold";
        toggle.textContent = group.title;
        toggle.setAttribute("aria-expanded", "true");
        toggle.addEventListener("click", function () { fold(group, !folded[group.key]); });
        count.className = "count";
        count.textContent = String(group.params.length);
        var reset = resetButton("groupreset small", "this group's params back to the script's values", function () {
          setParams(defaults(group.params));
        });
        reset.textContent = "reset";
        reset.dataset.group = group.key;
        head.appendChild(toggle); head.appendChild(count); head.appendChild(reset);
        box.appendChild(head);
      }
      group.params.forEach(function (p) {
        var row = document.createElement("div"), name = document.createElement("label");
        var out = document.createElement("output"), input = control(p, out);
        row.className = "slider" + (p.kind === "options" ? " options" : isToggle(p) ? " toggle" : "");
        row.dataset.name = p.name;
        row.dataset.group = group.key;
        labelText(name, p);
        name.title = "params." + p.name;
        if (input.id) { name.htmlFor = input.id; }
        var reset = resetButton("reset", "back to " + shownDefault(p) + ", the script's value", function () {
          var wanted = {};
          wanted[p.name] = p["default"];
          setParams(wanted);
        });
        row.appendChild(name); row.appendChild(input); row.appendChild(out); row.appendChild(reset);
        box.appendChild(row);
      });
      if (folded[group.key]) { fold(group, true); }
    });
  }
  var paramsScript = null;   // the script the params (and A and B) are of
  function sliders(params) {
    var key = JSON.stringify(params.map(function (p) { return [p.name, p.kind, p.min, p.max, p.step, p.label, p.options, p["default"]]; }));
    $("params").hidden = !params.length;
    if (state && state.script !== paramsScript) {   // another script: its own A and B
      paramsScript = state.script;
      sets.A = sets.B = null;
    }
    declared = params;
    if (key !== sliderKey) {   // a save changed the declarations: build them again
      sliderKey = key;
      buildControls(params);
    }
    params.forEach(function (p) {
      if (sliding === p.name) { return; }
      values[p.name] = p.value;
      showValue(p, p.value);
    });
    valuesChanged();
  }
  function markSegment(group, option) {
    Array.prototype.forEach.call(group.children, function (b) {
      var on = b.dataset.option === option;
      b.classList.toggle("on", on);
      b.setAttribute("aria-checked", on ? "true" : "false");
    });
  }
  $("resetall").addEventListener("click", function () { setParams(defaults(declared)); });

  // A and B: two sets of values, kept by Store A / Store B; pressing A or B plays with
  // that set, ⇄ with the other one than on screen. A or B is marked while the values on
  // screen are that set's.
  var sets = { A: null, B: null };
  function snapshot() {
    var set = {};
    declared.forEach(function (p) { set[p.name] = values[p.name]; });
    return set;
  }
  function onScreen(set) {
    return !!set && declared.every(function (p) { return !set.hasOwnProperty(p.name) || sameValue(set[p.name], values[p.name]); });
  }
  function differences() {
    if (!sets.A || !sets.B) { return ""; }
    var names = declared.filter(function (p) { return !sameValue(sets.A[p.name], sets.B[p.name]); }).map(function (p) { return p.name; });
    return names.length ? "A and B differ in " + names.join(", ") : "A and B are the same values";
  }
  function showSets() {
    ["A", "B"].forEach(function (name) {
      var b = $("show" + name.toLowerCase()), on = onScreen(sets[name]);
      if (b.disabled !== !sets[name]) { b.disabled = !sets[name]; }
      if (b.classList.contains("on") !== on) { b.classList.toggle("on", on); b.setAttribute("aria-checked", on ? "true" : "false"); }
    });
    var both = !!(sets.A && sets.B);
    if ($("abflip").disabled !== !both) { $("abflip").disabled = !both; }
    var text = differences() || "keep two tunings and flip between them";
    if ($("abrow").title !== text) { $("abrow").title = text; }
  }
  function store(name) { sets[name] = snapshot(); showSets(); }
  function showSet(name) { if (sets[name]) { setParams(sets[name]); showSets(); } }
  function flip() { showSet(onScreen(sets.A) ? "B" : "A"); }
  $("storea").addEventListener("click", function () { store("A"); });
  $("storeb").addEventListener("click", function () { store("B"); });
  $("showa").addEventListener("click", function () { showSet("A"); });
  $("showb").addEventListener("click", function () { showSet("B"); });
  $("abflip").addEventListener("click", flip);

  function showError(text) {
    if (text) { errorBox.textContent = text; errorBox.hidden = false; } else { errorBox.hidden = true; }
  }

  // MARK: drawing
  function color(section, item) {
    var hue = (item * 47 + section * 131) % 360;
    return { fill: "hsl(" + hue + ",58%,52%)", stroke: "hsl(" + hue + ",58%,32%)" };
  }
  // copy: which occurrence of the item in the frame (a wrapping layout may show it twice).
  function card(section, item, copy) {
    var key = section + ":" + item + (copy ? ":" + copy : ""), el = cards[key];
    if (!el) {
      el = document.createElement("div");
      el.className = "card";
      var c = color(section, item);
      // Without an appearance: these colours, the outline the card's border (play.css).
      el.rest = { fill: c.fill, stroke: c.stroke, ring: false };
      el.style.background = c.fill;
      el.style.borderColor = c.stroke;
      el.textContent = section ? section + "·" + item : String(item);
      picture(el, section, item);
      stage.appendChild(el);
      cards[key] = el;
    }
    return el;
  }
  // Real card images (`--cards`, CardPictures): GET /cards answers { images: [url, …],
  // sections: [items per section] }; item n in index-path order shows image n mod count.
  var pictures = null;
  function picture(el, section, item) {
    if (!pictures || !pictures.images.length || el.querySelector(".pic")) { return; }
    var n = item;
    for (var k = 0; k < section && k < pictures.sections.length; k++) { n += pictures.sections[k]; }
    cardluaCard.picture(el, pictures.images[n % pictures.images.length]);
  }
  fetch(here("/cards")).then(function (r) { return r.ok ? r.json() : null; }).then(function (answer) {
    pictures = answer;
    for (var key in cards) { var p = key.split(":"); picture(cards[key], +p[0], +p[1]); }
  }).catch(function () {});
  // Headers and footers, faint, behind every card (card.js).
  var supps = [];
  function showSupplementary(list) { cardluaCard.supplementary(list, supps, stage); }
  function draw(f) {
    if (!shown || shown.v[0] !== f.v[0] || shown.v[1] !== f.v[1]) { fit(f.v[0], f.v[1]); }
    shown = f;
    drawn.push(f);
    if (drawn.length > 2000) { drawn.shift(); }
    var seen = {}, copies = {}, shownCards = [];
    for (var j = 0; j < f.c.length; j++) {
      var c = f.c[j], id = c[0] + ":" + c[1], copy = copies[id] || 0;
      copies[id] = copy + 1;
      seen[id + (copy ? ":" + copy : "")] = true;
      var el = card(c[0], c[1], copy);
      cardluaCard.draw(el, c, 2);
      shownCards.push({ section: c[0], item: c[1], copy: copy, el: el });
    }
    inIndexPathOrder(shownCards);
    showSupplementary(f.s);
    for (var key in cards) { if (!seen[key]) { cards[key].style.display = "none"; } }
  }
  // Equal zIndex: the later index path on top, as UIKit draws (run's strip, the SVG and
  // the HTML do the same). The page paints equal z-index in document order, so the shown
  // cards are kept in index-path order in the stage, moved only when out of it.
  function inIndexPathOrder(list) {
    list.sort(function (a, b) { return a.section - b.section || a.item - b.item || a.copy - b.copy; });
    for (var k = 1; k < list.length; k++) {
      var before = list[k - 1].el;
      if (before.nextSibling !== list[k].el) { stage.insertBefore(list[k].el, before.nextSibling); }
    }
  }
  // The viewport drawn as large as the stage (all the width the panel leaves, the
  // window's height) lets it, up to twice its size, in the stage's middle. On a phone
  // (play --lan) the panel goes under the stage (play.css): the stage takes the width and
  // at most 80% of the window's height, and is as tall as the drawing.
  var STAGE_MARGIN = 16;
  function fit(w, h) {
    var phone = window.matchMedia("(max-width: 640px)").matches;
    wrap.style.height = "";
    var margin = phone ? 0 : STAGE_MARGIN;
    var availW = Math.max(100, wrap.clientWidth - 2 * margin);
    var availH = phone ? Math.max(100, window.innerHeight * 0.8) : Math.max(100, wrap.clientHeight - 2 * margin);
    scale = Math.min(availW / w, availH / h, 2);
    stage.style.width = w + "px"; stage.style.height = h + "px";
    stage.style.transform = "scale(" + scale + ")";
    if (phone) { wrap.style.height = Math.ceil(h * scale) + "px"; }
    stage.style.left = Math.max(0, Math.round((wrap.clientWidth - w * scale) / 2)) + "px";
    stage.style.top = Math.max(0, Math.round((wrap.clientHeight - h * scale) / 2)) + "px";
    $("viewport").textContent = "viewport " + w + " × " + h + " pt, shown at " + num(scale * 100, 0) + "%";
  }
  function refit() { if (shown) { fit(shown.v[0], shown.v[1]); } }
  window.addEventListener("resize", refit);
  if (window.ResizeObserver) { new ResizeObserver(refit).observe(wrap); }

  function panel() {
    var f = shown;
    if (f) {
      $("offset").textContent = pt({ x: f.o[0], y: f.o[1] }, 2);
      $("phase").textContent = f.p;
    }
    if (state) {
      var c = centred();
      $("centred").textContent = c ? "item " + c[1] + (c[0] ? " of section " + c[0] : "") + " of " + state.items : "none";
      var s = state.lastSnap;
      $("release").textContent = s ? "velocity " + pt(s.velocity, 3) + " pt/ms · " + pt(s.proposedContentOffset, 1) +
        " → " + pt(s.targetContentOffset, 1) : "none yet";
      $("version").textContent = state.script + " · version " + state.scriptVersion + (state.error ? " · error" : "");
      $("script").textContent = "· " + state.script;
      if (!$("pickerrow").hidden && document.activeElement !== $("picker") && $("picker").value !== state.script) { $("picker").value = state.script; }
    }
    $("fps").textContent = fps ? String(fps) : "–";
    if (rtts.length && ticks.length % 30 === 0) {
      var sorted = rtts.slice().sort(function (a, b) { return a - b; });
      rttText = num(sorted[sorted.length >> 1], 2) + " ms (median of the last " + rtts.length + " drag steps)";
    }
    $("rtt").textContent = rttText;
  }

  // The centred item of the frame shown: the engine's answer at its offset (the frame's
  // "ci", as state.centredItem), never worked out from the cards on the page (an element
  // query may place every card at the centre).
  function centred() {
    return shown && shown.ci ? shown.ci : null;
  }

  // MARK: the display loop
  function tick(ms) {
    ticks.push(ms);
    while (ticks.length && ticks[0] < ms - 1000) { ticks.shift(); }
    fps = ticks.length;
    var t = now(), f = null;
    while (queue.length && queue[0].t <= t + 0.004) { f = queue.shift(); }
    if (f) { draw(f); }
    // More of a motion in progress, before the queue runs dry.
    var last = queue.length ? queue[queue.length - 1] : shown;
    if (!finger && !framesAsked && last && last.p !== "idle" && (queue.length ? last.t : t) < t + 0.07) {
      // Little ahead: frames made ahead are lost when an input comes first (see the server).
      framesAsked = true;
      enqueue({ path: "/frames?now=" + Math.max(0, t) + "&until=" + (t + 0.15), body: {}, append: true });
    }
    // The panel follows every drawn frame, and twice a second anyway (the display rate
    // goes on when nothing moves).
    if (f || dirty || ms - panelAt > 500) { panel(); dirty = false; panelAt = ms; }
    requestAnimationFrame(tick);
  }

  // MARK: input
  stage.addEventListener("pointerdown", function (e) {
    if (finger || e.button > 0) { return; }
    e.preventDefault();
    endWheel();
    stage.focus();
    try { stage.setPointerCapture(e.pointerId); } catch (ignored) { // synthetic events have no active pointer
    }
    stage.classList.add("down");
    finger = { id: e.pointerId, x0: e.clientX, y0: e.clientY, samples: [[e.timeStamp, e.clientX, e.clientY]] };
    queue = [];   // a new touch stops a motion where it is
    input("down");
  });
  stage.addEventListener("pointermove", function (e) {
    if (!finger || e.pointerId !== finger.id) { return; }
    finger.samples.push([e.timeStamp, e.clientX, e.clientY]);
    input("move", (e.clientX - finger.x0) / scale, (e.clientY - finger.y0) / scale);
  });
  function lift(e) {
    if (!finger || e.pointerId !== finger.id) { return; }
    var samples = finger.samples;
    samples.push([e.timeStamp, e.clientX, e.clientY]);
    if (e.clientX !== samples[samples.length - 2][1] || e.clientY !== samples[samples.length - 2][2]) {
      input("move", (e.clientX - finger.x0) / scale, (e.clientY - finger.y0) / scale);
    }
    var v = velocity(samples, e.timeStamp);
    finger = null;
    stage.classList.remove("down");
    input("up", v.x / scale, v.y / scale);
  }
  // UIPanGestureRecognizer's velocity: the finger's movement over the last ~100 ms, in
  // points per millisecond (0 when the finger rested before lifting).
  function velocity(samples, at) {
    var recent = samples.filter(function (s) { return s[0] >= at - 100; });
    if (recent.length < 2) { return { x: 0, y: 0 }; }
    var a = recent[0], b = recent[recent.length - 1], dt = b[0] - a[0];
    return dt > 0 ? { x: (b[1] - a[1]) / dt, y: (b[2] - a[2]) / dt } : { x: 0, y: 0 };
  }
  stage.addEventListener("pointerup", lift);
  stage.addEventListener("pointercancel", lift);
  // A wheel or trackpad scroll is a pan, as on iPadOS and Mac Catalyst: its events up to
  // a pause of ~100 ms are one drag (the content moves by the deltas, the rubber band
  // past an edge), released with the velocity of its last 100 ms (the distance the
  // content moved in the 100 ms up to the last event, over 100 ms) through the same
  // targetContentOffset and deceleration as a finger.
  var WHEEL_PAUSE = 100;
  stage.addEventListener("wheel", function (e) {
    e.preventDefault();
    if (finger) { return; }   // one finger scrolls; the wheel waits
    var k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    var horizontal = !state || state.horizontal, delta = (horizontal ? e.deltaX : e.deltaY) * k;
    if (!delta) { return; }   // across the scroll axis: not a pan of this collection view
    if (!wheel) {
      wheel = { distance: 0, samples: [], timer: 0 };
      queue = [];   // a new touch stops a motion where it is
      input("down");
    }
    wheel.distance += delta;
    wheel.samples.push([e.timeStamp, delta]);
    // The finger goes the other way from the content (the wheel's delta points the way
    // the content offset goes).
    input("move", horizontal ? -wheel.distance : 0, horizontal ? 0 : -wheel.distance);
    clearTimeout(wheel.timer);
    wheel.timer = setTimeout(endWheel, WHEEL_PAUSE);
  }, { passive: false });
  function endWheel() {
    if (!wheel) { return; }
    var samples = wheel.samples, last = samples[samples.length - 1][0], moved = 0;
    clearTimeout(wheel.timer);
    wheel = null;
    samples.forEach(function (s) { if (s[0] > last - WHEEL_PAUSE) { moved += s[1]; } });
    var v = -moved / WHEEL_PAUSE, horizontal = !state || state.horizontal;
    input("up", horizontal ? v : 0, horizontal ? 0 : v);
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && !$("codeview").hidden) { closeCode(); stage.focus(); return; }
    if (e.target && (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) { return; }
    if (e.target && e.target.closest && e.target.closest("#codeview")) { return; }   // the arrows scroll the code
    var back = e.key === "ArrowLeft" || e.key === "ArrowUp", on = e.key === "ArrowRight" || e.key === "ArrowDown";
    if (!back && !on) { return; }
    e.preventDefault();
    queue = [];
    input("step", back ? -1 : 1);
  });
  Array.prototype.forEach.call(document.querySelectorAll("#presets button[data-w]"), function (b) {
    b.addEventListener("click", function () { queue = []; input("resize", +b.dataset.w, +b.dataset.h); });
  });
  $("rotate").addEventListener("click", function () {
    var v = state ? state.viewport : [414, 736];
    queue = [];
    input("resize", v[1], v[0]);
  });
  // Record is a toggle: the first press starts a recording, the second stops it and shows
  // what happened in between as a scenarios block.
  var recording = false;
  function toggleRecord(done) {
    if (!recording) {
      recording = true;
      $("record").textContent = "■ Stop";
      $("record").classList.add("on");
      enqueue({ path: "/record", body: { t: now(), action: "start" }, done: function (a) { accept(a, false); if (done) { done(null); } } });
    } else {
      recording = false;
      $("record").textContent = "● Record";
      $("record").classList.remove("on");
      enqueue({ path: "/record", body: { t: now(), action: "stop" }, done: function (a) {
        $("recorded").value = a.lua;
        $("recorded").hidden = false;
        $("copy").hidden = false;
        if (done) { done(a.lua); }
      } });
    }
  }
  $("record").addEventListener("click", function () { toggleRecord(); });
  $("copyparams").addEventListener("click", function () {
    var text = paramsBlock();
    $("copyparams").dataset.copied = text;  // what went to the clipboard (read by the browser tests)
    copyText(text);
    $("copyparams").textContent = "Copied";
    setTimeout(function () { $("copyparams").textContent = "Copy params"; }, 1200);
  });
  $("copy").addEventListener("click", function () { copyText($("recorded").value); });

  // MARK: warnings: what `cardlua check` would say about the script (a misspelt callback…)
  function showWarnings(list) {
    var text = list.join("\n");
    if ($("warnings").textContent !== text) { $("warnings").textContent = text; }
    $("warnings").hidden = !list.length;
  }

  // MARK: Export Swift: the file `cardlua export` writes, for the params in use
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).catch(function () {});
    } else {
      var area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      document.body.removeChild(area);
    }
  }
  // The code view (over the stage, play.css): the file in colour (swift-highlight.js),
  // Copy, and Download as CLASSNAME.swift. While it is open it follows the values and
  // the saves: a change asks for the file again, after the change's own request (the
  // requests go in order). A refusal closes it and shows its `file:line: message`
  // beside the Export button.
  var exported = null, exportedFor = null, exportTimer = 0, downloadURL = null;
  // UIKit (`cardlua export`) or SwiftUI (`cardlua export --swiftui`), as the select says.
  function exportTarget() { return $("exporttarget").value === "swiftui" ? "swiftui" : "uikit"; }
  function exportKey() {
    return exportTarget() + ":" + (state ? state.script + "#" + state.scriptVersion : "") + JSON.stringify(snapshot());
  }
  function exportSwift() {
    clearTimeout(exportTimer);
    exportedFor = exportKey();
    var swiftUI = exportTarget() === "swiftui";
    $("codenote").innerHTML = "what <code>cardlua export" + (swiftUI ? " --swiftui" : "") + "</code> writes, with the values on screen";
    enqueue({ path: "/export" + (swiftUI ? "?target=swiftui" : ""), done: showExport });
  }
  function showExport(a) {
    $("exporterror").hidden = !a.error;
    $("exporterror").textContent = a.error || "";
    if (a.error) { closeCode(); return; }
    exported = { swift: a.swift, file: a.className + ".swift" };
    cardluaSwift.render($("exported"), a.swift);
    $("codename").textContent = exported.file;
    if (downloadURL) { URL.revokeObjectURL(downloadURL); }
    downloadURL = URL.createObjectURL(new Blob([a.swift], { type: "text/x-swift;charset=utf-8" }));
    $("downloadswift").href = downloadURL;
    $("downloadswift").setAttribute("download", exported.file);
    $("codeview").hidden = false;
  }
  function closeCode() { clearTimeout(exportTimer); $("codeview").hidden = true; }
  // From accept(): the values or the script changed under an open code view.
  function followExport() {
    if ($("codeview").hidden || exportKey() === exportedFor) { return; }
    clearTimeout(exportTimer);
    exportTimer = setTimeout(exportSwift, 250);
  }
  $("export").addEventListener("click", exportSwift);
  // Another target under an open code view: that target's file at once.
  $("exporttarget").addEventListener("change", function () { if (!$("codeview").hidden) { exportSwift(); } });
  $("closeswift").addEventListener("click", function () { closeCode(); stage.focus(); });
  $("copyswift").addEventListener("click", function () {
    if (!exported) { return; }
    copyText(exported.swift);
    $("copyswift").dataset.copied = exported.swift;  // read by the browser tests
    $("copyswift").textContent = "Copied";
    setTimeout(function () { $("copyswift").textContent = "Copy Swift"; }, 1200);
  });

  // MARK: the picker (`cardlua play FOLDER`): the folder's scripts; picking one plays it
  // at the same item count and viewport, the centred item kept where it exists.
  function pickScript(name, done) {
    queue = [];
    enqueue({ path: "/script", body: { t: now(), name: name }, done: function (a) { accept(a, true); if (done) { done(a); } } });
  }
  function showPicker(list) {
    if (!list.scripts.length) { return; }
    var picker = $("picker");
    picker.textContent = "";
    list.scripts.forEach(function (name) {
      var o = document.createElement("option");
      o.value = name;
      o.textContent = name.replace(/\.lua$/, "");
      picker.appendChild(o);
    });
    picker.value = list.current;
    $("pickercount").textContent = list.scripts.length + " in " + list.folder + "/";
    $("pickerrow").hidden = false;
  }
  $("picker").addEventListener("change", function () { pickScript($("picker").value); $("stage").focus(); });
  fetch(here("/scripts")).then(function (r) { return r.json(); }).then(showPicker).catch(function () {});

  // MARK: live reload: the server says the script changed; the next request reloads it
  var events = new EventSource(here("/events"));
  events.addEventListener("changed", function () { queue = []; enqueue({ path: "/reload", body: { t: now() } }); });

  // MARK: automation (tests, benchmarks)
  window.cardlua = {
    stage: stage,
    // The frames drawn since the last call, oldest first ({ t, o, p, v, c, s? } as the
    // engine answered them), and forgets them.
    drawn: function () { var list = drawn; drawn = []; return list; },
    state: function () {
      return {
        contentOffset: shown ? { x: shown.o[0], y: shown.o[1] } : null,
        phase: shown ? shown.p : null,
        lastSnap: state && state.lastSnap,
        scriptVersion: state && state.scriptVersion,
        error: state && state.error,
        centredItem: centred(),
        viewport: state && state.viewport,
        horizontal: state ? state.horizontal : true,
        params: state && state.params,
        script: state && state.script,
        items: state && state.items,
        settled: !finger && !wheel && !busy && !pending.length && !queue.length && !!shown && shown.p === "idle",
        fps: fps,
        time: now()
      };
    },
    // What a slider sends (any value, to see the server's answer to a bad one).
    setParam: function (name, value) { queue = []; enqueue({ path: "/params", body: { t: now(), name: name, value: value } }); },
    // Presses Record (start, or stop: then `done` gets the scenarios block).
    record: function (done) { toggleRecord(done); },
    recording: function () { return recording; },
    // Picks a script of the folder, as the picker does (`done` gets the answer).
    pick: function (name, done) { $("picker").value = name; pickScript(name, done); },
    // The card images in use (`--cards`), or null.
    pictures: function () { return pictures; }
  };

  // Start: the engine's clock goes on from where the session is.
  fetch(here("/state")).then(function (r) { return r.json(); }).then(function (answer) {
    clockBase = answer.state.time + 0.01 - performance.now() / 1000;
    accept(answer, true);
    requestAnimationFrame(tick);
  });
})();
