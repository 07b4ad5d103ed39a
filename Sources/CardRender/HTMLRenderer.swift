import CardLayout

/// The interactive HTML preview of a timeline: one self-contained file (inline CSS and
/// JavaScript, the timeline embedded as JSON, nothing fetched from the network).
///
/// **Geometry.** The viewport is a clipped box (`overflow: hidden`) whose top-left corner
/// is the page's (0, 0), filled with `Palette.background`; the controls sit below it, so a
/// browser window exactly the viewport's size shows the viewport alone. Each card is an
/// absolutely positioned `<div>` of its untransformed size at its untransformed frame
/// minus the content offset, with `transform: matrix3d(m11, m12, …, m44)` — the fields
/// of `transform3D` in exactly that order (docs/json.md) — and `transform-origin:
/// 50% 50%`, which is Core Animation's anchor (0.5, 0.5). CSS maps a corner through the
/// matrix about that origin and divides by w, exactly as
/// `LayoutAttributes.projectedQuad` does; the container has neither `perspective` nor
/// `transform-style: preserve-3d`, so each card is flattened on its own (no depth
/// sorting) and painted by `z-index`, ties in document order, which is index-path
/// order — the drawing order (zIndex ascending, ties by index path). Hidden cards, cards with a corner at
/// or behind the eye and cards whose back is toward the eye while not double-sided
/// (`LayoutAttributes.isBackFaceHidden`, decided here and passed as a flag: CSS
/// `backface-visibility` judges a mirrored card otherwise) are not shown, as in the SVG. Fills and labels
/// come from `Palette`, the same as the SVG's. A card's `appearance` is CSS on the card's
/// own box, under its `matrix3d` (``appearanceCSS(_:size:)``): `border-radius`, a
/// `box-shadow`, the `background`, `filter: blur()`. Headers and footers are
/// `<div class="supp">` boxes below every card (the lowest `z-index`).
///
/// **Controls.** A scrubber over the frames; play/pause at the timeline's real speed
/// (time-based, `requestAnimationFrame`, looping); the frame's time, content offset and
/// phase; and the most recent snap (`timeline.snaps`) at or before the frame's time.
/// Keys: space plays or pauses, ←/→ step one frame (with Shift ten), Home/End jump to
/// the ends. The current frame is kept in the address's fragment (`#frame=12`, plus
/// `&playing`) when paused, stepped or reloaded, so a reload reopens the same frame.
///
/// **Live reload** (`reloadStampFile`). A `file://` page can neither `fetch` nor
/// `XMLHttpRequest` files in Chromium, but it may load a classic `<script>` from a
/// neighbouring file. So the writer of the page also writes a tiny sidecar script
/// (`reloadStampScript(stamp:)`, conventionally named `stampFileName(forHTMLFile:)`),
/// rewriting it with a new stamp after every rewrite of the page. The page adds
/// `<script src="SIDECAR?t=now">` every 500 ms; the first stamp it sees is its
/// baseline, and when a later load reports a different stamp it records the frame and
/// playing state in the fragment and calls `location.reload()`. A missing sidecar is
/// simply retried. Write the HTML first and the stamp second; works over `http://` too.
public enum HTMLRenderer {
    /// The preview page.
    /// - Parameters:
    ///   - timeline: what to show.
    ///   - frameIndex: the frame the page opens at (clamped to the timeline; nil opens
    ///     at the first). The page's static markup already shows this frame, so it reads
    ///     right even with scripts off. A `#frame=N` fragment in the address overrides it.
    ///   - reloadStampFile: when given, the page polls this sidecar script (a URL
    ///     relative to the page, e.g. `"preview.html.stamp.js"`) and reloads itself when
    ///     the stamp it sets changes. See the type's documentation.
    ///   - pictures: real card images (`--cards`): each card is drawn with its picture
    ///     (``CardPictures``), embedded once in the page's style sheet; nil: the palette.
    public static func render(timeline: Timeline, frameIndex: Int? = nil,
                              reloadStampFile: String? = nil, pictures: CardPictures? = nil) -> String {
        let frames = timeline.frames
        let start = frames.isEmpty ? 0 : min(max(frameIndex ?? 0, 0), frames.count - 1)
        let items = cardSlots(frames)
        let opening = frames.isEmpty ? nil : frames[start]
        let viewport = opening?.viewportSize ?? timeline.viewportSize
        let px = { (x: Double) in RenderSupport.exact(x) + "px" }

        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width\">\n"
        out += "<meta name=\"generator\" content=\"cardlua\">\n"
        out += "<title>\(RenderSupport.escapeXML(timeline.scriptName)) · cardlua</title>\n"
        out += "<style>\n" + css + (pictures.map { CardPictures.css + $0.classes() } ?? "") + "</style>\n</head>\n<body>\n"

        // The viewport and the cards, showing the opening frame.
        out += "<div id=\"viewport\" style=\"width:\(px(viewport.width));height:\(px(viewport.height))\">\n"
        // Headers and footers of the opening frame, behind every card.
        for s in opening?.supplementary ?? [] {
            let r = s.frame, o = opening?.contentOffset ?? Point(x: 0, y: 0)
            out += "<div class=\"supp\" style=\"left:\(px(r.minX - o.x));top:\(px(r.minY - o.y));"
            out += "width:\(px(r.width));height:\(px(r.height))\">\(s.kind.rawValue) \(s.section)</div>\n"
        }
        let recoloured = Set(frames.flatMap { f in
            f.items.filter { $0.appearance?.backgroundColor != nil }.map(\.indexPath)
        })
        for (k, indexPath) in items.enumerated() {
            var fill = Palette.fill(for: indexPath).hex, stroke = Palette.stroke(for: indexPath).hex
            out += "<div class=\"card\(pictures == nil ? "" : " photo")\" id=\"c\(k)\" data-index=\"\(indexPath.section).\(indexPath.item)\""
            if recoloured.contains(indexPath) {
                // The palette's colours, for the frames that do not set a background.
                out += " data-fill=\"\(fill)\" data-stroke=\"\(stroke)\""
            }
            out += " style=\""
            // The slot's copy of its index path (a layout that wraps may show an item twice).
            let copy = k - (items.firstIndex(of: indexPath) ?? k)
            if let frame = opening, let a = frame.items.filter({ $0.indexPath == indexPath }).dropFirst(copy).first,
               let card = RenderCard(a, contentOffset: frame.contentOffset) {
                let r = a.frame
                out += "left:\(px(r.minX - frame.contentOffset.x));top:\(px(r.minY - frame.contentOffset.y));"
                out += "width:\(px(r.width));height:\(px(r.height));"
                out += "transform:\(matrix3d(a.transform3D));"
                out += "z-index:\(cssZIndex(a.zIndex));opacity:\(RenderSupport.exact(cssOpacity(a.alpha)));"
                out += "font-size:\(px(RenderSupport.labelFontSize(for: a.size)));"
                if let look = a.appearance {
                    out += appearanceCSS(look, size: a.size)
                    if look.backgroundColor != nil { fill = card.fill.hex; stroke = card.stroke.hex }
                }
            } else {
                out += "display:none;"
            }
            out += "background:\(fill);--stroke:\(stroke)\">"
            if let pictures {
                let p = pictures.index(for: indexPath, numberOfItems: timeline.scenario?.numberOfItems)
                out += "<i class=\"pic p\(p)\"></i>"
            }
            out += "<span>\(RenderSupport.escapeXML(RenderSupport.label(for: indexPath)))</span></div>\n"
        }
        out += "</div>\n"
        out += "<div id=\"outline\" style=\"width:\(px(viewport.width));height:\(px(viewport.height))\"></div>\n"

        // The controls, below the viewport.
        out += "<div id=\"ui\" style=\"top:\(px(viewport.height));width:\(px(max(viewport.width, 420)))\">\n"
        out += "<div class=\"row\"><button id=\"play\" type=\"button\" title=\"play / pause (space)\">▶</button>"
        out += "<input id=\"scrub\" type=\"range\" min=\"0\" max=\"\(max(frames.count - 1, 0))\" step=\"1\" value=\"\(start)\""
        out += " aria-label=\"frame\"><span id=\"count\">\(frames.isEmpty ? 0 : start + 1) / \(frames.count)</span></div>\n"
        out += "<div id=\"info\">\(RenderSupport.escapeXML(opening.map(frameInfo) ?? "no frames"))</div>\n"
        out += "<div id=\"snap\"></div>\n"
        out += "<div class=\"dim\"><b>\(RenderSupport.escapeXML(timeline.scriptName))</b> · "
        out += "\(frames.count) frames at \(RenderSupport.compact(timeline.framesPerSecond)) fps"
        out += " · space play/pause · ←/→ step (shift ×10) · Home/End<span id=\"live\"></span></div>\n"
        out += "</div>\n"

        // The data and the player.
        out += "<script type=\"application/json\" id=\"timeline\">"
        out += timelineJSON(timeline, items: items, start: start, reloadStampFile: reloadStampFile)
        out += "</script>\n<script>\n" + script + "</script>\n</body>\n</html>\n"
        return out
    }

    /// One card element per index path, sorted; an index path that some frame shows more
    /// than once (a layout that wraps) gets that many, side by side: a frame's n-th copy of
    /// it (in its order) drives the n-th.
    static func cardSlots(_ frames: [Frame]) -> [CardIndexPath] {
        var most: [CardIndexPath: Int] = [:]
        for frame in frames {
            var count: [CardIndexPath: Int] = [:]
            for item in frame.items { count[item.indexPath, default: 0] += 1 }
            for (p, n) in count where n > most[p, default: 0] { most[p] = n }
        }
        return most.keys.sorted().flatMap { Array(repeating: $0, count: most[$0]!) }
    }

    /// The contents of the live-reload sidecar file: one statement setting the stamp
    /// the page compares (`window.cardluaReloadStamp`). Any text that changes on every
    /// rewrite will do as a stamp: a counter, a time, a hash of the page.
    public static func reloadStampScript(stamp: String) -> String {
        "window.cardluaReloadStamp = \(RenderSupport.jsonString(stamp));\n"
    }

    /// The conventional sidecar name for a page: its own file name plus `.stamp.js`
    /// (`preview.html` → `preview.html.stamp.js`). Pass the result, or a path relative
    /// to the page, as `reloadStampFile`. Any directory part of `htmlFile` is dropped.
    public static func stampFileName(forHTMLFile htmlFile: String) -> String {
        let name = htmlFile.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? htmlFile
        return name + ".stamp.js"
    }

    // MARK: Pieces

    /// `matrix3d(m11, m12, …, m44)` with every field written so it reads back exactly.
    static func matrix3d(_ t: Transform3D) -> String {
        "matrix3d(" + t.fields.map(RenderSupport.exact).joined(separator: ",") + ")"
    }

    /// The inline CSS of a card's appearance (the player's `appearance` function writes
    /// the same): `border-radius` (clamped as Core Animation does), a `box-shadow` after
    /// the outline ring (CSS blur radius = 2 × `shadowRadius`, which is the Gaussian's
    /// standard deviation; UIKit's y-down offset as it is), and `filter: blur()`. All in
    /// the card's own space, so `matrix3d` scales and turns them with the card.
    static func appearanceCSS(_ a: CardAppearance, size: Size) -> String {
        let v = appearanceValues(a, size: size)
        var out = ""
        if v.radius > 0 { out += "border-radius:\(RenderSupport.exact(v.radius))px;" }
        if v.shadowOpacity > 0 {
            out += "box-shadow:0 0 0 1px var(--stroke),\(RenderSupport.exact(v.offset.width))px "
            out += "\(RenderSupport.exact(v.offset.height))px \(RenderSupport.exact(2 * v.shadowRadius))px "
            out += "rgba(0,0,0,\(RenderSupport.exact(v.shadowOpacity)));"
        }
        if v.blur > 0 { out += "filter:blur(\(RenderSupport.exact(v.blur))px);" }
        return out
    }

    /// An appearance's numbers as drawn: the radius clamped, opacity to 0…1, radii not
    /// negative, non-finite values as 0.
    static func appearanceValues(_ a: CardAppearance, size: Size)
        -> (radius: Double, shadowOpacity: Double, shadowRadius: Double, offset: Size, blur: Double)
    {
        let finite = { (x: Double) in x.isFinite ? x : 0 }
        return (RenderCard.clampedRadius(a.cornerRadius, size: size), min(max(finite(a.shadowOpacity), 0), 1),
                max(finite(a.shadowRadius), 0), Size(width: finite(a.shadowOffset.width), height: finite(a.shadowOffset.height)),
                max(finite(a.blurRadius), 0))
    }

    /// CSS `z-index` is a 32-bit integer; the outline stays above every card.
    static func cssZIndex(_ z: Int) -> Int { min(max(z, -2_000_000_000), 2_000_000_000) }

    static func cssOpacity(_ alpha: Double) -> Double { alpha.isFinite ? min(max(alpha, 0), 1) : 1 }

    /// The info line of a frame (the script rebuilds the same text when it moves).
    static func frameInfo(_ f: Frame) -> String {
        "t = \(RenderSupport.fixed(f.time, 3)) s · offset ("
            + "\(RenderSupport.compact(f.contentOffset.x, decimals: 2)), "
            + "\(RenderSupport.compact(f.contentOffset.y, decimals: 2))) · \(f.phase.rawValue)"
    }

    /// The embedded data, compact:
    /// `{"script", "fps", "start", "reload", "viewport": [w, h],
    ///   "items": [[section, item, label], …]` (index-path order; card `k` is `#c{k}`),
    /// `"frames": [{"t", "o": [x, y], "p": phase, "v": [w, h], "c": [card, …]}, …]`,
    /// `"snaps": [[time, proposedX, proposedY, velocityX, velocityY, targetX, targetY], …]}`
    /// where a card is `[k, left, top, width, height, m11, …, m44, alpha, zIndex, flags]`
    /// (left/top relative to the viewport; flags: 1 hidden, 2 a corner at or behind the
    /// eye, 4 its back toward the eye while not double-sided — any flag: not drawn),
    /// followed by its appearance (``appearanceJSON(_:size:)``) only when it has one; a
    /// frame with headers or footers also has `"s": [[kind (0 header, 1 footer), section,
    /// left, top, width, height], …]`.
    ///
    /// `number` writes every number (the preview: ``RenderSupport/exact(_:)``, which reads
    /// back exactly; the gallery: six significant digits, a third of the size).
    static func timelineJSON(_ timeline: Timeline, items: [CardIndexPath], start: Int,
                             reloadStampFile: String?,
                             number n: (Double) -> String = RenderSupport.exact) -> String {
        var slot: [CardIndexPath: Int] = [:]
        for (k, p) in items.enumerated() where slot[p] == nil { slot[p] = k }
        var out = "{\"script\":\(RenderSupport.jsonString(timeline.scriptName))"
        let fps = timeline.framesPerSecond.isFinite && timeline.framesPerSecond > 0 ? timeline.framesPerSecond : 60
        out += ",\"fps\":\(n(fps)),\"start\":\(start)"
        out += ",\"reload\":" + (reloadStampFile.map(RenderSupport.jsonString) ?? "null")
        out += ",\"viewport\":[\(n(timeline.viewportSize.width)),\(n(timeline.viewportSize.height))]"
        out += ",\"items\":["
        out += items.map { "[\($0.section),\($0.item),\(RenderSupport.jsonString(RenderSupport.label(for: $0)))]" }
            .joined(separator: ",")
        out += "],\n\"frames\":[\n"
        var frameTexts: [String] = []
        frameTexts.reserveCapacity(timeline.frames.count)
        for f in timeline.frames {
            frameTexts.append(FrameWire.frame(f, identity: .slot(slot), number: n))
        }
        out += frameTexts.joined(separator: ",\n")
        out += "],\n\"snaps\":["
        out += timeline.snaps.map { e in
            [e.time, e.proposedContentOffset.x, e.proposedContentOffset.y, e.velocity.x, e.velocity.y,
             e.targetContentOffset.x, e.targetContentOffset.y].map(n).joined(separator: ",")
        }.map { "[\($0)]" }.joined(separator: ",")
        out += "]"
        // Only written when false, so pages of effects with a snap rule are unchanged.
        if !timeline.hasSnapRule { out += ",\"snapRule\":false" }
        out += "}"
        return out
    }

    /// A card's appearance in the embedded data (and `cardlua play`'s frames):
    /// `[cornerRadius, shadowOpacity, shadowRadius, shadowOffsetX, shadowOffsetY, fill,
    /// stroke, blurRadius]`, numbers as ``appearanceValues(_:size:)`` draws them, `fill`
    /// and `stroke` the background's `#rrggbb` and its outline colour, or null without a
    /// background.
    public static func appearanceJSON(_ a: CardAppearance, size: Size) -> String {
        let n = RenderSupport.exact, v = appearanceValues(a, size: size)
        let fill = a.backgroundColor.map { "\"\($0.hex)\"" } ?? "null"
        let stroke = a.backgroundColor.map { "\"\(Palette.Color($0).darkened(by: 0.45).hex)\"" } ?? "null"
        return "[\(n(v.radius)),\(n(v.shadowOpacity)),\(n(v.shadowRadius)),\(n(v.offset.width)),\(n(v.offset.height)),"
            + "\(fill),\(stroke),\(n(v.blur))]"
    }

    /// The page's style: Sources/CardRender/Page/player.css with the palette's colours.
    static let css = RenderSupport.filling(playerStyleTemplate, with: [
        "page": Palette.page.hex, "caption": Palette.caption.hex, "background": Palette.background.hex,
        "viewportOutline": Palette.viewportOutline.hex, "label": Palette.label.hex,
    ])

    /// The player: Sources/CardRender/Page/player.js.
    static let script = playerScript
}
