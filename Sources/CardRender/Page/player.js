(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("timeline").textContent);
  var frames = D.frames, N = frames.length;
  var $ = function (id) { return document.getElementById(id); };
  var vp = $("viewport"), outline = $("outline"), ui = $("ui"), scrub = $("scrub");
  var playButton = $("play"), info = $("info"), snapLine = $("snap"), count = $("count");
  // The markup draws the opening frame, appearance included; the palette's colours are
  // on the cards an appearance recolours (card.js draws the frames).
  var cards = D.items.map(function (_, k) {
    var el = $("c" + k);
    el.painted = true;
    el.rest = { fill: el.dataset.fill, stroke: el.dataset.stroke, ring: true };
    return el;
  });
  var t0 = N ? frames[0].t : 0;
  var duration = N ? frames[N - 1].t - t0 + 1 / D.fps : 0;
  var current = -1, playing = false, clock = 0, last = null;

  function num(x, d) {
    var s = String(Number(x.toFixed(d)));
    return s === "-0" ? "0" : s;
  }
  function fixed(x, d) { var s = x.toFixed(d); return /^-0\.?0*$/.test(s) ? s.slice(1) : s; }
  function point(x, y, d) { return "(" + num(x, d) + ", " + num(y, d) + ")"; }

  // Headers and footers (card.js), starting with the markup's.
  var supps = Array.prototype.slice.call(vp.querySelectorAll(".supp"));
  function showSupplementary(list) { cardluaCard.supplementary(list, supps, vp); }

  function show(i) {
    if (!N) { return; }
    i = Math.max(0, Math.min(N - 1, i | 0));
    current = i;
    var f = frames[i], w = f.v[0] + "px", h = f.v[1] + "px";
    vp.style.width = w; vp.style.height = h;
    outline.style.width = w; outline.style.height = h;
    ui.style.top = h; ui.style.width = Math.max(f.v[0], 420) + "px";
    var seen = [];
    for (var j = 0; j < f.c.length; j++) {
      var c = f.c[j];
      seen[c[0]] = true;
      cardluaCard.draw(cards[c[0]], c, 1);
    }
    showSupplementary(f.s);
    for (var k = 0; k < cards.length; k++) { if (!seen[k]) { cards[k].style.display = "none"; } }
    scrub.value = i;
    count.textContent = (i + 1) + " / " + N;
    info.textContent = "t = " + fixed(f.t, 3) + " s · offset " + point(f.o[0], f.o[1], 2) + " · " + f.p;
    var snap = null;
    for (var m = 0; m < D.snaps.length; m++) { if (D.snaps[m][0] <= f.t + 1e-9) { snap = D.snaps[m]; } }
    snapLine.textContent = snap && D.snapRule === false
      ? "release at " + fixed(snap[0], 3) + " s: rests at " + point(snap[5], snap[6], 2) +
        " (no snap rule) · velocity " + point(snap[3], snap[4], 3) + " pt/ms"
      : snap
      ? "snap at " + fixed(snap[0], 3) + " s: proposed " + point(snap[1], snap[2], 2) +
        " → target " + point(snap[5], snap[6], 2) + " · velocity " + point(snap[3], snap[4], 3) + " pt/ms"
      : (D.snaps.length ? "snap: none yet" : "snap: none");
  }

  function frameAt(t) {
    var lo = 0, hi = N - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (frames[mid].t <= t + 1e-9) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }

  function remember() {
    var hash = "#frame=" + current + (playing ? "&playing" : "");
    try { history.replaceState(null, "", hash); } catch (e) { location.hash = hash; }
  }

  function tick(now) {
    if (!playing) { return; }
    if (last !== null) {
      clock += (now - last) / 1000;
      if (clock >= duration) { clock = duration > 0 ? clock % duration : 0; }
    }
    last = now;
    var i = frameAt(t0 + clock);
    if (i !== current) { show(i); }
    requestAnimationFrame(tick);
  }

  function setPlaying(on) {
    if (on && N < 2) { on = false; }
    if (on === playing) { return; }
    playing = on;
    playButton.textContent = on ? "❚❚" : "▶";
    if (on) {
      clock = current >= N - 1 ? 0 : frames[current].t - t0;
      last = null;
      requestAnimationFrame(tick);
    } else {
      remember();
    }
  }

  function step(delta) { setPlaying(false); show(current + delta); remember(); }

  playButton.addEventListener("click", function () { setPlaying(!playing); });
  scrub.addEventListener("input", function () { setPlaying(false); show(+scrub.value); remember(); });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var k = e.key, big = e.shiftKey ? 10 : 1;
    if (k === " " || k === "Spacebar") { setPlaying(!playing); }
    else if (k === "ArrowRight" || k === "ArrowDown") { step(big); }
    else if (k === "ArrowLeft" || k === "ArrowUp") { step(-big); }
    else if (k === "Home") { step(-N); }
    else if (k === "End") { step(N); }
    else { return; }
    e.preventDefault();
  });

  var start = D.start, resume = false;
  var match = /(?:^#|&)frame=(\d+)/.exec(location.hash);
  if (match) { start = +match[1]; resume = /(?:^#|&)playing(?:&|$)/.test(location.hash); }
  if (!N) { scrub.disabled = true; playButton.disabled = true; }
  show(start);
  if (resume) { setPlaying(true); }

  if (D.reload) {
    var baseline, busy = false;
    $("live").textContent = " · live: reloads when " + D.reload + " changes";
    setInterval(function () {
      if (busy) { return; }
      busy = true;
      var s = document.createElement("script");
      s.src = D.reload + (D.reload.indexOf("?") < 0 ? "?" : "&") + "t=" + Date.now();
      s.onload = function () {
        s.remove(); busy = false;
        var stamp = window.cardluaReloadStamp;
        if (stamp === undefined) { return; }
        if (baseline === undefined) { baseline = stamp; return; }
        if (stamp !== baseline) { remember(); location.reload(); }
      };
      s.onerror = function () { s.remove(); busy = false; };
      document.head.appendChild(s);
    }, 500);
  }
})();
