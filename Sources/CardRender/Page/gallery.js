(function () {
  "use strict";
  // Every effect's demo in the preview's format (HTMLRenderer.timelineJSON): a card is
  // [k, left, top, width, height, m11 … m44, alpha, zIndex, flags, appearance?], drawn by
  // card.js as the preview draws it. Tiles play their demos in a loop while on screen; a
  // click opens the full preview.
  var G = JSON.parse(document.getElementById("gallery").textContent);
  var $ = function (id) { return document.getElementById(id); };

  // One effect's demo drawn into `stage` at `width` pixels wide. With `box` ([x, y, w, h]
  // of the viewport: where the demo's cards are), the stage shows that part, at most
  // `maxHeight` pixels high, centred: a tile frames the cards, not the empty viewport.
  function Viewer(entry, stage, width, box, maxHeight) {
    var D = entry.timeline, frames = D.frames, N = frames.length;
    box = box || [0, 0, D.viewport[0], D.viewport[1]];
    var scale = width / box[2];
    if (maxHeight && box[3] * scale > maxHeight) { scale = maxHeight / box[3]; }
    var height = box[3] * scale, left = (width - box[2] * scale) / 2;
    stage.style.width = width + "px";
    stage.style.height = height + "px";
    var vp = document.createElement("div");
    vp.className = "vp";
    vp.style.width = D.viewport[0] + "px";
    vp.style.height = D.viewport[1] + "px";
    vp.style.transform = "translate(" + (left - box[0] * scale) + "px," + (-box[1] * scale) + "px) scale(" + scale + ")";
    stage.appendChild(vp);
    var cards = D.items.map(function (item, k) {
      var el = document.createElement("div"), label = document.createElement("span");
      el.className = "card";
      el.rest = { fill: entry.colours[k][0], stroke: entry.colours[k][1], ring: true };
      el.style.background = el.rest.fill;
      el.style.setProperty("--stroke", el.rest.stroke);
      el.style.display = "none";
      label.textContent = item[2];
      if (entry.pics) { cardluaCard.picture(el, null, "p" + entry.pics[k]); }
      el.appendChild(label);
      vp.appendChild(el);
      return el;
    });
    var t0 = N ? frames[0].t : 0;
    this.N = N;
    this.duration = N ? frames[N - 1].t - t0 + 1 / D.fps : 0;
    this.current = -1;
    this.clock = 0;
    this.show = function (i) {
      if (!N) { return; }
      i = Math.max(0, Math.min(N - 1, i | 0));
      this.current = i;
      var f = frames[i], seen = [];
      for (var j = 0; j < f.c.length; j++) {
        var c = f.c[j];
        seen[c[0]] = true;
        cardluaCard.draw(cards[c[0]], c, 1);
      }
      for (var k = 0; k < cards.length; k++) { if (!seen[k]) { cards[k].style.display = "none"; } }
    };
    this.frame = function (i) { return frames[i]; };
    // The frame showing at `clock` seconds into the loop.
    this.seek = function (clock) {
      var t = t0 + clock, lo = 0, hi = N - 1;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (frames[mid].t <= t + 1e-9) { lo = mid; } else { hi = mid - 1; }
      }
      if (lo !== this.current) { this.show(lo); }
    };
    this.advance = function (seconds) {
      if (N < 2) { return; }
      this.clock = (this.clock + seconds) % this.duration;
      this.seek(this.clock);
    };
    this.show(0);
  }

  // The tiles: each plays while it is on screen.
  var tiles = Array.prototype.slice.call(document.querySelectorAll(".tile")).map(function (figure) {
    var entry = G[+figure.dataset.k];
    var viewer = new Viewer(entry, figure.querySelector(".stage"), 168, entry.box, 210);
    // Start a little into the sweep, where the cards are between rest positions: a
    // still of the page (or a slow machine) shows each effect at work.
    viewer.advance(viewer.duration * 0.12);
    viewer.visible = !("IntersectionObserver" in window);
    viewer.figure = figure;
    return viewer;
  });
  if ("IntersectionObserver" in window) {
    var watcher = new IntersectionObserver(function (changes) {
      changes.forEach(function (change) {
        tiles.forEach(function (v) { if (v.figure === change.target) { v.visible = change.isIntersecting; } });
      });
    });
    tiles.forEach(function (v) { watcher.observe(v.figure); });
  }

  // The full preview.
  var overlay = $("overlay"), big = $("big"), scrub = $("scrub"), playButton = $("play"), info = $("info");
  var open = null, playing = false, opener = null;

  function num(x, d) { var s = String(Number(x.toFixed(d))); return s === "-0" ? "0" : s; }
  function describe() {
    var f = open.frame(open.current);
    scrub.value = open.current;
    info.textContent = "frame " + (open.current + 1) + " / " + open.N + " · t = " + f.t.toFixed(3) +
      " s · offset (" + num(f.o[0], 2) + ", " + num(f.o[1], 2) + ") · " + f.p;
  }
  function setPlaying(on) {
    playing = on && open && open.N > 1;
    playButton.textContent = playing ? "❚❚" : "▶";
    if (playing) { open.clock = open.frame(open.current).t - open.frame(0).t; }
  }
  function show(k, from) {
    var entry = G[k];
    big.textContent = "";
    var room = Math.max(200, Math.min(window.innerWidth - 380, (window.innerHeight - 40) * entry.timeline.viewport[0] / entry.timeline.viewport[1]));
    var stage = document.createElement("div");
    stage.className = "stage";
    big.appendChild(stage);
    open = new Viewer(entry, stage, Math.min(entry.timeline.viewport[0], room));
    $("name").textContent = entry.name;
    $("summary").textContent = entry.summary;
    $("source").textContent = entry.source;
    $("start").textContent = "cardlua new fx.lua --from " + entry.name;
    $("play-line").textContent = "cardlua new fx.lua --from " + entry.name + " && cardlua play fx.lua";
    scrub.max = Math.max(open.N - 1, 0);
    overlay.hidden = false;
    opener = from;
    setPlaying(true);
    describe();
    playButton.focus();
  }
  function close() {
    overlay.hidden = true;
    open = null;
    big.textContent = "";
    if (opener) { opener.focus(); }
  }
  function step(delta) { setPlaying(false); open.show(open.current + delta); describe(); }

  tiles.forEach(function (v) {
    v.figure.addEventListener("click", function () { show(+v.figure.dataset.k, v.figure); });
    v.figure.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(+v.figure.dataset.k, v.figure); }
    });
  });
  $("close").addEventListener("click", close);
  overlay.addEventListener("click", function (e) { if (e.target === overlay) { close(); } });
  playButton.addEventListener("click", function () { setPlaying(!playing); });
  scrub.addEventListener("input", function () { setPlaying(false); open.show(+scrub.value); describe(); });
  document.addEventListener("keydown", function (e) {
    if (!open || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var k = e.key, n = e.shiftKey ? 10 : 1;
    if (k === "Escape") { close(); }
    else if (k === " " || k === "Spacebar") { setPlaying(!playing); }
    else if (k === "ArrowRight") { step(n); }
    else if (k === "ArrowLeft") { step(-n); }
    else { return; }
    e.preventDefault();
  });

  // One clock for everything that plays.
  var last = null;
  function tick(now) {
    var dt = last === null ? 0 : Math.min((now - last) / 1000, 0.25);
    last = now;
    if (open) {
      if (playing) { open.advance(dt); describe(); }
    } else {
      tiles.forEach(function (v) { if (v.visible) { v.advance(dt); } });
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);

  // For tests and the curious: what is showing.
  window.cardluaGallery = {
    state: function () {
      return {
        open: open ? $("name").textContent : null, playing: playing, frame: open ? open.current : null,
        tiles: tiles.map(function (v) { return v.current; })
      };
    }
  };
  // page.html#NAME opens NAME's preview (on load, and when the address changes).
  function openFromAddress() {
    var wanted = decodeURIComponent(location.hash.slice(1));
    tiles.forEach(function (v) { if (G[+v.figure.dataset.k].name === wanted) { show(+v.figure.dataset.k, v.figure); } });
  }
  window.addEventListener("hashchange", openFromAddress);
  if (location.hash.length > 1) { openFromAddress(); }
})();
