// Drawing one card of a frame (and the frame's headers and footers), the same on every
// page that plays frames: the HTML preview (player.js), the gallery (gallery.js) and
// `cardlua play` (play.js). Each page's script is this file followed by the page's own
// (see the embed.list files), so the pages cannot draw a card differently.
//
// A card in a frame is [key…, left, top, width, height, m11 … m44, alpha, zIndex, flags,
// appearance?] (HTMLRenderer.timelineJSON): left/top relative to the viewport, the CSS
// matrix3d from transform3D, any flag means not drawn (hidden, a corner at or behind the
// eye, its back toward the eye while not double-sided). The preview's key is one number
// (its slot), play's two (section, item): `at` is the index of `left`.
//
// An element carries `rest`, how it looks without an appearance: { fill, stroke, ring }
// (fill and stroke colours, or no fill to leave the colours alone; ring: the outline is a
// 1px ring in box-shadow drawn in --stroke, else the element's border in the stroke).
var cardluaCard = (function () {
  "use strict";

  // The label's font size for a card of w × h (RenderSupport.labelFontSize).
  function labelSize(w, h) { return Math.min(Math.max(Math.min(Math.abs(w), Math.abs(h)) * 0.2, 9), 72); }

  // A card's appearance, [cornerRadius, shadowOpacity, shadowRadius, offsetX, offsetY,
  // fill, stroke, blur] or undefined, as HTMLRenderer.appearanceCSS writes it: in the
  // card's own space, under its matrix3d. Without an appearance the page's own style;
  // with one, its radius (0 included).
  function paint(el, a) {
    var s = el.style, rest = el.rest || {};
    if (!a && !el.painted) { return; }
    // The same look as the last frame's: nothing to write (a rewrite would have the
    // browser restyle the card, and a shadow or a blur is dear to draw again).
    var key = a ? a.join(",") + "|" + (rest.fill || "") : "";
    if (el.paintKey === key) { return; }
    el.paintKey = key;
    el.painted = !!a;
    s.borderRadius = a ? a[0] + "px" : "";
    a = a || [0, 0, 0, 0, 0, null, null, 0];
    s.boxShadow = a[1] > 0
      ? (rest.ring ? "0 0 0 1px var(--stroke)," : "") + a[3] + "px " + a[4] + "px " + 2 * a[2] + "px rgba(0,0,0," + a[1] + ")"
      : "";
    s.filter = a[7] > 0 ? "blur(" + a[7] + "px)" : "";
    if (!rest.fill) { return; }
    s.background = a[5] || rest.fill;
    if (rest.ring) { s.setProperty("--stroke", a[6] || rest.stroke); } else { s.borderColor = a[6] || rest.stroke; }
  }

  // Draws card `c` (its left at c[at]) on `el`; false when a flag says it is not drawn.
  // Writes a style property only when its value changes: a card that only turns costs
  // the browser one transform, not a restyle of everything it draws.
  function set(el, name, value) {
    var last = el.written || (el.written = {});
    if (last[name] !== value) { last[name] = value; el.style[name] = value; }
  }

  function draw(el, c, at) {
    // display is compared with the element's own: the pages hide unused cards directly.
    if (c[at + 22]) { if (el.style.display !== "none") { el.style.display = "none"; } return false; }
    if (el.style.display !== "") { el.style.display = ""; }
    set(el, "left", c[at] + "px"); set(el, "top", c[at + 1] + "px");
    set(el, "width", c[at + 2] + "px"); set(el, "height", c[at + 3] + "px");
    set(el, "transform", "matrix3d(" + c.slice(at + 4, at + 20).join(",") + ")");
    set(el, "opacity", String(c[at + 20])); set(el, "zIndex", String(c[at + 21]));
    set(el, "fontSize", labelSize(c[at + 2], c[at + 3]) + "px");
    paint(el, c[at + 23]);
    return true;
  }

  // A frame's headers and footers, [[kind (0 header, 1 footer), section, left, top, width,
  // height], …] or undefined, on `supps` (the elements so far, reused in order; more are
  // made at the back of `box`, behind every card; the rest hidden).
  function supplementary(list, supps, box) {
    list = list || [];
    for (var j = 0; j < Math.max(list.length, supps.length); j++) {
      var e = list[j], el = supps[j];
      if (!e) { el.style.display = "none"; continue; }
      if (!el) { el = document.createElement("div"); el.className = "supp"; box.insertBefore(el, box.firstChild); supps.push(el); }
      var s = el.style;
      s.display = ""; s.left = e[2] + "px"; s.top = e[3] + "px"; s.width = e[4] + "px"; s.height = e[5] + "px";
      el.textContent = (e[0] ? "footer " : "header ") + e[1];
    }
  }

  // A real card image (`--cards`, CardPictures) on card `el`: a child covering its box,
  // under its transform, with its corners; `url` an image's address or `name` a class of
  // the page's style sheet that carries one. The label is hidden on a pictured card.
  function picture(el, url, name) {
    var pic = document.createElement("i");
    pic.className = "pic" + (name ? " " + name : "");
    if (url) { pic.style.backgroundImage = "url(\"" + url + "\")"; }
    el.classList.add("photo");
    el.insertBefore(pic, el.firstChild);
  }

  return { draw: draw, paint: paint, labelSize: labelSize, supplementary: supplementary, picture: picture };
})();
