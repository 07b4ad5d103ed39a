import CardLayout

/// SVG pictures of a timeline: one frame, or the whole timeline as one looping
/// SMIL-animated SVG.
///
/// The viewport is the canvas: its top-left corner is at (0, 0) and it is filled with
/// `Palette.background`, so an SVG and the HTML preview of the same frame line up pixel
/// for pixel. Each card is its projected quadrilateral (`LayoutAttributes.projectedQuad`)
/// as a `<polygon>` in its `Palette` fill, with its item index as a label at the
/// projected centre; cards are drawn in `zIndex` order, ties by index path. Hidden items,
/// cards with a corner at or behind the eye and cards whose back is toward the eye while
/// not double-sided (`LayoutAttributes.isBackFaceHidden`) are left out.
///
/// **Appearance** (`LayoutAttributes.appearance`), drawn in the card's own space and then
/// projected point by point, so it is exact under any transform, perspective included:
/// with a `cornerRadius` the polygon is the rounded rectangle's outline (each quarter arc
/// cut into chords fine enough for its size on screen); a shadow is the same outline
/// moved by `shadowOffset`, black at `shadowOpacity`, under the card, blurred by an
/// `feGaussianBlur` of standard deviation `shadowRadius` × the card's scale on screen
/// (the square root of its area ratio); `backgroundColor` replaces the palette fill (the
/// outline is the fill, darker); `blurRadius` blurs the card's group, shadow included.
/// Headers and footers (`Frame.supplementary`) are faint dashed rects labelled
/// `header N` / `footer N`, behind every card. A picture without any of these is exactly
/// what it was before they existed. Output is deterministic: the same timeline gives the
/// same bytes.
public enum SVGRenderer {
    /// One frame as a standalone SVG document, `frame.viewportSize` large.
    ///
    /// Coordinates carry at most three decimals. Each card is a
    /// `<g class="card" data-index="section.item" opacity="alpha">` holding its shadow
    /// (`<polygon class="shadow">`, when it has one), its `<polygon>` and its `<text>`
    /// label; filters are in a `<defs>` (ids `shadow-S-I`, `blur-S-I`); headers and footers
    /// are `<g class="supp" data-kind data-section>` before the cards; the viewport outline
    /// is drawn last.
    /// - Parameters:
    ///   - frame: the frame to draw (usually one of `timeline.frames`).
    ///   - timeline: the timeline it belongs to (for the script's name in the title).
    public static func render(frame: Frame, timeline: Timeline) -> String {
        let w = frame.viewportSize.width, h = frame.viewportSize.height
        let num = { (x: Double) in RenderSupport.compact(x) }
        var out = svgOpen(width: w, height: h, supplementary: !frame.supplementary.isEmpty)
        out += "<title>\(RenderSupport.escapeXML(frameTitle(frame, timeline: timeline)))</title>\n"
        var defs = "", body = ""
        for s in frame.supplementary {
            let r = s.frame
            body += supplementaryOpen(s.kind, section: s.section)
            body += "<rect x=\"\(num(r.minX - frame.contentOffset.x))\" y=\"\(num(r.minY - frame.contentOffset.y))\""
            body += " width=\"\(num(r.width))\" height=\"\(num(r.height))\"/>"
            body += "<text x=\"\(num(r.minX - frame.contentOffset.x + 4))\" y=\"\(num(r.minY - frame.contentOffset.y + 3))\">"
            body += "\(s.kind.rawValue) \(s.section)</text></g>\n"
        }
        for card in RenderCard.drawn(in: frame) {
            let a = card.attributes
            let id = "\(a.indexPath.section)-\(a.indexPath.item)"
            let points = { (corners: [Point]) in corners.map { "\(num($0.x)),\(num($0.y))" }.joined(separator: " ") }
            body += "<g class=\"card\" data-index=\"\(a.indexPath.section).\(a.indexPath.item)\""
            if a.alpha != 1 { body += " opacity=\"\(num(min(max(a.alpha, 0), 1)))\"" }
            if card.blur > 0 {
                // The whole card, its shadow included (as CSS `filter` blurs the HTML card).
                defs += blurFilter(id: "blur-" + id, deviation: num(card.blur))
                body += " filter=\"url(#blur-\(id))\""
            }
            body += ">"
            if let shadow = card.shadow {
                body += "<polygon class=\"shadow\" points=\"\(points(shadow.outline))\" fill=\"#000\""
                body += " fill-opacity=\"\(num(shadow.opacity))\" stroke=\"none\""
                if shadow.blur > 0 {
                    defs += blurFilter(id: "shadow-" + id, deviation: num(shadow.blur))
                    body += " filter=\"url(#shadow-\(id))\""
                }
                body += "/>"
            }
            body += "<polygon points=\"\(points(card.outline))\" fill=\"\(card.fill.hex)\""
            body += " stroke=\"\(card.stroke.hex)\"/>"
            body += "<text x=\"\(num(card.labelCenter.x))\" y=\"\(num(card.labelCenter.y))\""
            body += " font-size=\"\(RenderSupport.compact(card.labelFontSize, decimals: 1))\">"
            body += "\(RenderSupport.escapeXML(RenderSupport.label(for: a.indexPath)))</text>"
            body += "</g>\n"
        }
        if !defs.isEmpty { out += "<defs>" + defs + "</defs>\n" }
        out += "<rect class=\"viewport\" width=\"\(num(w))\" height=\"\(num(h))\" fill=\"\(Palette.background.hex)\"/>\n"
        out += body
        out += "<rect class=\"outline\" x=\"0.5\" y=\"0.5\" width=\"\(num(max(w - 1, 0)))\""
        out += " height=\"\(num(max(h - 1, 0)))\" fill=\"none\" stroke=\"\(Palette.viewportOutline.hex)\"/>\n"
        out += "</svg>\n"
        return out
    }

    /// The whole timeline as one self-contained, looping SVG animated with SMIL (no
    /// script, no external references), viewable in browsers and in a GitHub README.
    ///
    /// The loop lasts `last frame time − first frame time + 1/fps` seconds; every frame
    /// shows for its own span (`calcMode="discrete"`, `keyTimes` from the frame times),
    /// so playback is exact rather than interpolated. Below the viewport a caption strip
    /// shows the phase, the most recent snap target and a progress bar.
    ///
    /// Each item is one `<polygon>` whose `points` (and `fill`, `stroke`, when they
    /// change) are animated, inside a group whose `opacity` is animated (0 in frames where
    /// the item is absent, hidden, behind the eye or facing away while not double-sided);
    /// an item with a shadow or a blur in some frame also has its shadow polygon and its
    /// filters, their values animated; each header and footer is a group whose rect
    /// follows the frames and whose `visibility` is animated. Only changes are written, so
    /// still stretches cost nothing.
    ///
    /// **Z order.** SVG paints in document order, which an animation cannot change. The
    /// frames are therefore cut into the fewest consecutive *segments* in which one
    /// document order agrees with every frame's drawing order (`zIndex`, then index
    /// path); each segment is a `<g>` shown only during its frames (discrete
    /// `visibility` animation) holding its items in that order. A timeline whose
    /// relative order never flips — the usual case — is a single segment, and the
    /// result stays exact whatever the script does with `zIndex`.
    ///
    /// Viewers without SMIL show the first frame.
    public static func renderAnimated(timeline: Timeline) -> String {
        let frames = timeline.frames
        let fps = timeline.framesPerSecond.isFinite && timeline.framesPerSecond > 0
            ? timeline.framesPerSecond : 60
        let t0 = frames.first?.time ?? 0
        let duration = max((frames.last?.time ?? 0) - t0 + 1 / fps, 1e-3)
        let dur = RenderSupport.compact(duration) + "s"
        let keyTimes = frames.map { RenderSupport.compact(min(max(($0.time - t0) / duration, 0), 1), decimals: 5) }
        let p2 = { (x: Double) in RenderSupport.compact(x, decimals: 2) }
        let num = { (x: Double) in RenderSupport.compact(x) }

        let sizes = frames.isEmpty ? [timeline.viewportSize] : frames.map(\.viewportSize)
        let canvasWidth = max(sizes.map(\.width).max() ?? 0, 320)
        let viewportHeight = sizes.map(\.height).max() ?? 0
        let captionHeight = 30.0
        let canvasHeight = viewportHeight + captionHeight

        let hasSupplementary = frames.contains { !$0.supplementary.isEmpty }
        var out = svgOpen(width: canvasWidth, height: canvasHeight, supplementary: hasSupplementary)
        out += "<title>\(RenderSupport.escapeXML(timeline.scriptName)) · \(frames.count) frames · \(num(duration)) s loop</title>\n"
        out += "<rect width=\"\(num(canvasWidth))\" height=\"\(num(canvasHeight))\" fill=\"\(Palette.page.hex)\"/>\n"

        // The viewport: clip, background and outline follow its size.
        var vw = DiscreteTrack(), vh = DiscreteTrack(), ow = DiscreteTrack(), oh = DiscreteTrack()
        for (i, f) in frames.enumerated() {
            vw.add(keyTimes[i], num(f.viewportSize.width))
            vh.add(keyTimes[i], num(f.viewportSize.height))
            ow.add(keyTimes[i], num(max(f.viewportSize.width - 1, 0)))
            oh.add(keyTimes[i], num(max(f.viewportSize.height - 1, 0)))
        }
        if frames.isEmpty {
            vw.add("0", num(timeline.viewportSize.width)); vh.add("0", num(timeline.viewportSize.height))
            ow.add("0", num(max(timeline.viewportSize.width - 1, 0)))
            oh.add("0", num(max(timeline.viewportSize.height - 1, 0)))
        }
        let sizeAnimations = vw.animate("width", dur: dur) + vh.animate("height", dur: dur)
        out += "<defs><clipPath id=\"viewport\"><rect width=\"\(vw.initial)\" height=\"\(vh.initial)\">"
        out += sizeAnimations + "</rect></clipPath></defs>\n"
        out += "<rect class=\"viewport\" width=\"\(vw.initial)\" height=\"\(vh.initial)\" fill=\"\(Palette.background.hex)\">"
        out += sizeAnimations + "</rect>\n"

        // Cards, segment by segment.
        let drawn = frames.map { RenderCard.drawn(in: $0) }
        let keys = drawn.map(CardKey.keys)
        let segments = zOrderSegments(drawn)
        out += "<g clip-path=\"url(#viewport)\">\n"
        if hasSupplementary { out += animatedSupplementary(frames, keyTimes: keyTimes, dur: dur) }
        for (segmentIndex, segment) in segments.enumerated() {
            let multiple = segments.count > 1
            if multiple {
                var visibility = DiscreteTrack()
                if segment.frames.lowerBound > 0 { visibility.add("0", "hidden") }
                visibility.add(keyTimes[segment.frames.lowerBound], "visible")
                if segment.frames.upperBound < frames.count {
                    visibility.add(keyTimes[segment.frames.upperBound], "hidden")
                }
                out += "<g class=\"segment\" visibility=\"\(visibility.initial)\">"
                out += visibility.animate("visibility", dur: dur) + "\n"
            }
            for (n, indexPath) in segment.order.enumerated() {
                let key = CardKey(indexPath: indexPath, copy: segment.copies.isEmpty ? 0 : segment.copies[n])
                var points = DiscreteTrack(), opacity = DiscreteTrack()
                var labelX = DiscreteTrack(), labelY = DiscreteTrack(), fontSize = DiscreteTrack()
                var fill = DiscreteTrack(), stroke = DiscreteTrack()
                // Appearance: written only for an item that casts a shadow or is blurred in some frame.
                var shadowPoints = DiscreteTrack(), shadowOpacity = DiscreteTrack(), shadowBlur = DiscreteTrack()
                var blur = DiscreteTrack()
                var hasShadow = false, hasBlur = false
                for i in segment.frames {
                    let k = keyTimes[i]
                    guard let card = keys[i].firstIndex(of: key).map({ drawn[i][$0] }) else {
                        opacity.add(k, "0")
                        continue
                    }
                    opacity.add(k, num(min(max(card.attributes.alpha, 0), 1)))
                    points.add(k, card.outline.map { "\(p2($0.x)),\(p2($0.y))" }.joined(separator: " "))
                    labelX.add(k, p2(card.labelCenter.x))
                    labelY.add(k, p2(card.labelCenter.y))
                    fontSize.add(k, RenderSupport.compact(card.labelFontSize, decimals: 1))
                    fill.add(k, card.fill.hex)
                    stroke.add(k, card.stroke.hex)
                    if let shadow = card.shadow {
                        hasShadow = true
                        shadowPoints.add(k, shadow.outline.map { "\(p2($0.x)),\(p2($0.y))" }.joined(separator: " "))
                        shadowOpacity.add(k, num(shadow.opacity))
                        shadowBlur.add(k, p2(shadow.blur))
                    } else {
                        shadowOpacity.add(k, "0")
                    }
                    hasBlur = hasBlur || card.blur > 0
                    blur.add(k, p2(card.blur))
                }
                let id = "\(segmentIndex)-\(indexPath.section)-\(indexPath.item)"
                out += "<g class=\"card\" data-index=\"\(indexPath.section).\(indexPath.item)\""
                if opacity.initial != "1" { out += " opacity=\"\(opacity.initial)\"" }
                if hasBlur { out += " filter=\"url(#blur-\(id))\"" }
                out += ">" + opacity.animate("opacity", dur: dur)
                if hasShadow || hasBlur {
                    out += "<defs>"
                    if hasShadow {
                        out += blurFilter(id: "shadow-" + id, deviation: shadowBlur.initial,
                                          animation: shadowBlur.animate("stdDeviation", dur: dur))
                    }
                    if hasBlur {
                        out += blurFilter(id: "blur-" + id, deviation: blur.initial,
                                          animation: blur.animate("stdDeviation", dur: dur))
                    }
                    out += "</defs>"
                }
                if hasShadow {
                    out += "<polygon class=\"shadow\" points=\"\(shadowPoints.initial)\" fill=\"#000\""
                    out += " fill-opacity=\"\(shadowOpacity.initial)\" stroke=\"none\" filter=\"url(#shadow-\(id))\">"
                    out += shadowPoints.animate("points", dur: dur) + shadowOpacity.animate("fill-opacity", dur: dur)
                    out += "</polygon>"
                }
                let fillInitial = fill.values.isEmpty ? Palette.fill(for: indexPath).hex : fill.initial
                let strokeInitial = stroke.values.isEmpty ? Palette.stroke(for: indexPath).hex : stroke.initial
                out += "<polygon points=\"\(points.initial)\" fill=\"\(fillInitial)\""
                out += " stroke=\"\(strokeInitial)\">"
                out += points.animate("points", dur: dur) + fill.animate("fill", dur: dur)
                out += stroke.animate("stroke", dur: dur) + "</polygon>"
                out += "<text x=\"\(labelX.initial)\" y=\"\(labelY.initial)\" font-size=\"\(fontSize.initial)\">"
                out += labelX.animate("x", dur: dur) + labelY.animate("y", dur: dur)
                out += fontSize.animate("font-size", dur: dur)
                out += RenderSupport.escapeXML(RenderSupport.label(for: indexPath)) + "</text>"
                out += "</g>\n"
            }
            if multiple { out += "</g>\n" }
        }
        out += "</g>\n"
        out += "<rect class=\"outline\" x=\"0.5\" y=\"0.5\" width=\"\(ow.initial)\" height=\"\(oh.initial)\""
        out += " fill=\"none\" stroke=\"\(Palette.viewportOutline.hex)\">"
        out += ow.animate("width", dur: dur) + oh.animate("height", dur: dur) + "</rect>\n"

        // Caption strip: progress bar, phase and snap runs, name and loop length.
        let barY = viewportHeight + 1
        out += "<rect class=\"progress\" x=\"0\" y=\"\(num(barY))\" width=\"0\" height=\"3\" fill=\"\(Palette.viewportOutline.hex)\">"
        if !frames.isEmpty {
            out += "<animate attributeName=\"width\" values=\"0;\(num(canvasWidth))\" dur=\"\(dur)\" repeatCount=\"indefinite\"/>"
        }
        out += "</rect>\n"
        let baseline = num(viewportHeight + 21)
        var changes: [(frame: Int, label: String)] = []
        for (i, f) in frames.enumerated() {
            let label = caption(for: f, snaps: timeline.snaps, hasSnapRule: timeline.hasSnapRule)
            if changes.last?.label != label { changes.append((i, label)) }
        }
        var labels: [String] = []
        for change in changes where !labels.contains(change.label) { labels.append(change.label) }
        for label in labels {
            var track = DiscreteTrack()
            for change in changes {
                track.add(keyTimes[change.frame], change.label == label ? "visible" : "hidden")
            }
            out += "<text class=\"caption\" x=\"6\" y=\"\(baseline)\" visibility=\"\(track.initial)\">"
            out += track.animate("visibility", dur: dur) + RenderSupport.escapeXML(label) + "</text>\n"
        }
        out += "<text class=\"caption end\" x=\"\(num(canvasWidth - 6))\" y=\"\(baseline)\">"
        out += RenderSupport.escapeXML("\(timeline.scriptName) · \(num(duration)) s") + "</text>\n"
        out += "</svg>\n"
        return out
    }

    // MARK: Pieces

    /// The `<svg>` start tag and the shared style.
    static func svgOpen(width: Double, height: Double, supplementary: Bool = false) -> String {
        let w = RenderSupport.compact(width), h = RenderSupport.compact(height)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
        s += "<style>"
        s += "text{font-family:Helvetica,Arial,sans-serif;font-weight:bold;text-anchor:middle;"
        s += "dominant-baseline:central;fill:\(Palette.label.hex);stroke:#000;stroke-opacity:.45;"
        s += "stroke-width:3px;stroke-linejoin:round;paint-order:stroke}"
        s += "polygon{stroke-width:\(RenderSupport.compact(RenderSupport.cardStrokeWidth));stroke-linejoin:round}"
        s += "text.caption{font-size:13px;font-weight:normal;text-anchor:start;dominant-baseline:auto;"
        s += "fill:\(Palette.caption.hex);stroke:none}text.end{text-anchor:end}"
        if supplementary {
            // Headers and footers: faint, behind the cards (only in pictures that have them).
            s += ".supp rect{fill:\(Palette.viewportOutline.hex);fill-opacity:.14;stroke:\(Palette.viewportOutline.hex);"
            s += "stroke-dasharray:4 3}.supp text{font-size:11px;font-weight:normal;text-anchor:start;"
            s += "dominant-baseline:hanging;fill:\(Palette.caption.hex);fill-opacity:.8;stroke:none}"
        }
        s += "</style>\n"
        return s
    }

    /// The group of a header or footer.
    static func supplementaryOpen(_ kind: SupplementaryKind, section: Int, visibility: String? = nil) -> String {
        "<g class=\"supp\" data-kind=\"\(kind.rawValue)\" data-section=\"\(section)\""
            + (visibility.map { " visibility=\"\($0)\"" } ?? "") + ">"
    }

    /// A Gaussian blur over the whole canvas (user space, so a thin or turned card's blur
    /// is never cut by a bounding-box filter region).
    static func blurFilter(id: String, deviation: String, animation: String = "") -> String {
        "<filter id=\"\(id)\" filterUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100%\" height=\"100%\">"
            + "<feGaussianBlur stdDeviation=\"\(deviation)\">\(animation)</feGaussianBlur></filter>"
    }

    /// Every header and footer of the timeline as one group each (by section, header
    /// first), its rect and label following the frames, hidden in frames without it.
    static func animatedSupplementary(_ frames: [Frame], keyTimes: [String], dur: String) -> String {
        struct Key: Hashable, Comparable {
            var section: Int, footer: Bool
            static func < (a: Key, b: Key) -> Bool { (a.section, a.footer ? 1 : 0) < (b.section, b.footer ? 1 : 0) }
        }
        let p2 = { (x: Double) in RenderSupport.compact(x, decimals: 2) }
        var keys = Set<Key>()
        for f in frames { for s in f.supplementary { keys.insert(Key(section: s.section, footer: s.kind == .footer)) } }
        var out = ""
        for key in keys.sorted() {
            let kind: SupplementaryKind = key.footer ? .footer : .header
            var x = DiscreteTrack(), y = DiscreteTrack(), width = DiscreteTrack(), height = DiscreteTrack()
            var labelX = DiscreteTrack(), labelY = DiscreteTrack(), visibility = DiscreteTrack()
            for (i, f) in frames.enumerated() {
                let k = keyTimes[i]
                guard let s = f.supplementary.first(where: { $0.section == key.section && $0.kind == kind }) else {
                    visibility.add(k, "hidden")
                    continue
                }
                visibility.add(k, "visible")
                let left = s.frame.minX - f.contentOffset.x, top = s.frame.minY - f.contentOffset.y
                x.add(k, p2(left)); y.add(k, p2(top))
                width.add(k, p2(s.frame.width)); height.add(k, p2(s.frame.height))
                labelX.add(k, p2(left + 4)); labelY.add(k, p2(top + 3))
            }
            out += supplementaryOpen(kind, section: key.section,
                                     visibility: visibility.initial == "visible" ? nil : visibility.initial)
            out += visibility.animate("visibility", dur: dur)
            out += "<rect x=\"\(x.initial)\" y=\"\(y.initial)\" width=\"\(width.initial)\" height=\"\(height.initial)\">"
            out += x.animate("x", dur: dur) + y.animate("y", dur: dur) + width.animate("width", dur: dur)
            out += height.animate("height", dur: dur) + "</rect>"
            out += "<text x=\"\(labelX.initial)\" y=\"\(labelY.initial)\">"
            out += labelX.animate("x", dur: dur) + labelY.animate("y", dur: dur)
            out += "\(kind.rawValue) \(key.section)</text></g>\n"
        }
        return out
    }

    /// The title of a single-frame picture.
    static func frameTitle(_ frame: Frame, timeline: Timeline) -> String {
        let o = frame.contentOffset
        return "\(timeline.scriptName) · t=\(RenderSupport.compact(frame.time)) s · offset ("
            + "\(RenderSupport.compact(o.x)), \(RenderSupport.compact(o.y))) · \(frame.phase.rawValue)"
    }

    /// The caption of a frame in the animated SVG: its phase and the most recent
    /// release's target — "snap → …" when the effect has a snap rule, "rests at …"
    /// when the scroll view's physics alone decided.
    static func caption(for frame: Frame, snaps: [SnapEvent], hasSnapRule: Bool = true) -> String {
        var s = frame.phase.rawValue
        if let snap = snaps.last(where: { $0.time <= frame.time + 1e-9 }) {
            let t = snap.targetContentOffset
            let point = "(\(RenderSupport.compact(t.x, decimals: 1)), \(RenderSupport.compact(t.y, decimals: 1)))"
            s += hasSnapRule ? " · snap → \(point)" : " · rests at \(point) (no snap rule)"
        }
        return s
    }

    /// A run of frames that one document order draws correctly, and that order.
    struct Segment: Equatable {
        var frames: Range<Int>
        var order: [CardIndexPath]
        /// Which copy of its index path each entry of `order` is (a layout that wraps may
        /// show an item more than once in a frame, see ``CardKey``); empty when no frame
        /// shows an index path twice.
        var copies: [Int] = []
    }

    /// A card's identity across frames: its index path, and which copy of it (0, 1, …
    /// in drawing order) when a frame shows the same index path more than once.
    struct CardKey: Hashable, Comparable {
        var indexPath: CardIndexPath
        var copy: Int

        static func < (a: CardKey, b: CardKey) -> Bool { (a.indexPath, a.copy) < (b.indexPath, b.copy) }

        /// The keys of a frame's drawn cards, in the same order.
        static func keys(_ cards: [RenderCard]) -> [CardKey] {
            var seen: [CardIndexPath: Int] = [:]
            return cards.map { card in
                let p = card.attributes.indexPath
                let copy = seen[p, default: 0]
                seen[p] = copy + 1
                return CardKey(indexPath: p, copy: copy)
            }
        }
    }

    /// Cuts the frames into the fewest consecutive segments whose frames all agree with
    /// one document order (greedy: a segment grows while the union of its frames'
    /// drawing orders stays acyclic). Within a segment, items are ordered topologically,
    /// ties broken by their first `zIndex` in the segment, then index path.
    static func zOrderSegments(_ drawn: [[RenderCard]]) -> [Segment] {
        var segments: [Segment] = []
        var start = 0
        var edges: [CardKey: Set<CardKey>] = [:]
        var firstZ: [CardKey: Int] = [:]
        let keys = drawn.map(CardKey.keys)
        let copies = keys.contains { $0.contains { $0.copy > 0 } }
        func segment(_ frames: Range<Int>) -> Segment {
            let order = topologicalOrder(edges, priority: firstZ) ?? []
            return Segment(frames: frames, order: order.map(\.indexPath), copies: copies ? order.map(\.copy) : [])
        }

        func frameEdges(_ keys: [CardKey]) -> [(CardKey, CardKey)] {
            guard keys.count > 1 else { return [] }
            return (1..<keys.count).map { (keys[$0 - 1], keys[$0]) }
        }
        func merged(_ base: [CardKey: Set<CardKey>], _ keys: [CardKey]) -> [CardKey: Set<CardKey>] {
            var e = base
            for key in keys where e[key] == nil { e[key] = [] }
            for (a, b) in frameEdges(keys) { e[a, default: []].insert(b) }
            return e
        }

        for (i, cards) in drawn.enumerated() {
            let trial = merged(edges, keys[i])
            var trialZ = firstZ
            for (key, card) in zip(keys[i], cards) where trialZ[key] == nil {
                trialZ[key] = card.attributes.zIndex
            }
            if topologicalOrder(trial, priority: trialZ) != nil {
                edges = trial
                firstZ = trialZ
            } else {
                segments.append(segment(start..<i))
                start = i
                edges = merged([:], keys[i])
                firstZ = [:]
                for (key, card) in zip(keys[i], cards) { firstZ[key] = card.attributes.zIndex }
            }
        }
        if start < drawn.count || segments.isEmpty {
            segments.append(segment(start..<drawn.count))
        }
        return segments
    }

    /// Kahn's algorithm, always taking the ready node with the smallest
    /// (priority, index path, copy); nil when the graph has a cycle.
    static func topologicalOrder(_ edges: [CardKey: Set<CardKey>],
                                 priority: [CardKey: Int]) -> [CardKey]? {
        var indegree: [CardKey: Int] = [:]
        for (a, targets) in edges {
            if indegree[a] == nil { indegree[a] = 0 }
            for b in targets { indegree[b, default: 0] += 1 }
        }
        var ready = indegree.filter { $0.value == 0 }.map(\.key)
        var order: [CardKey] = []
        func key(_ p: CardKey) -> (Int, CardIndexPath, Int) { (priority[p] ?? 0, p.indexPath, p.copy) }
        while !ready.isEmpty {
            var best = 0
            for j in 1..<ready.count where key(ready[j]) < key(ready[best]) { best = j }
            let node = ready.remove(at: best)
            order.append(node)
            for b in edges[node] ?? [] {
                indegree[b]! -= 1
                if indegree[b] == 0 { ready.append(b) }
            }
        }
        return order.count == indegree.count ? order : nil
    }
}

/// The key times and values of one discrete SMIL animation, keeping only changes.
struct DiscreteTrack {
    private(set) var keyTimes: [String] = []
    private(set) var values: [String] = []

    /// Records `value` from `keyTime` on; the first value always starts at key time 0.
    mutating func add(_ keyTime: String, _ value: String) {
        if values.last == value { return }
        if keyTimes.last == keyTime {
            values[values.count - 1] = value
            if values.count > 1 && values[values.count - 2] == value {
                values.removeLast(); keyTimes.removeLast()
            }
            return
        }
        keyTimes.append(keyTimes.isEmpty ? "0" : keyTime)
        values.append(value)
    }

    /// The value at key time 0 (the static attribute for viewers without SMIL).
    var initial: String { values.first ?? "" }

    /// The `<animate>` element, or nothing when the value never changes.
    func animate(_ attribute: String, dur: String) -> String {
        guard values.count > 1 else { return "" }
        return "<animate attributeName=\"\(attribute)\" dur=\"\(dur)\" repeatCount=\"indefinite\""
            + " calcMode=\"discrete\" keyTimes=\"\(keyTimes.joined(separator: ";"))\""
            + " values=\"\(values.joined(separator: ";"))\"/>"
    }
}
