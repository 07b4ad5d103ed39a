import CardLayout
import Foundation

/// One effect of the gallery: what it is called and where it comes from, and its demo.
public struct GalleryEntry: Sendable {
    /// The name for `cardlua new --from`.
    public var name: String
    /// One line: what it looks like.
    public var summary: String
    /// Where it comes from (library, version, file).
    public var source: String
    /// The group it is shown in (the library).
    public var group: String
    /// Its demo run.
    public var timeline: Timeline

    public init(name: String, summary: String, source: String, group: String, timeline: Timeline) {
        self.name = name
        self.summary = summary
        self.source = source
        self.group = group
        self.timeline = timeline
    }
}

/// The gallery: one self-contained page (inline CSS and JavaScript, every demo embedded,
/// nothing fetched) with every effect playing its demo in a small viewport, side by
/// side, grouped by library in the order given; a click (or Enter) opens that effect's
/// full preview over the page — full size, with play/pause, a scrubber, ←/→ stepping and
/// the `cardlua new` line to start from it; Escape closes it.
///
/// Cards are drawn as in ``HTMLRenderer``: a `<div>` per card at its untransformed frame
/// minus the content offset, `transform: matrix3d(…)` about its centre, painted by
/// `z-index` with ties in index-path order, and left out when hidden, behind the eye or
/// turned away while single-sided (the flags Swift decides). A frame keeps only the cards
/// that can be seen (``shown(_:)``), and the numbers are written short (``short(_:)``),
/// which keeps the whole catalogue under 3 MB.
public enum GalleryRenderer {
    /// The page.
    /// - Parameter pictures: real card images (`--cards`), embedded once in the page's
    ///   style sheet and drawn on every effect's cards (``CardPictures``); nil: the palette.
    public static func render(_ entries: [GalleryEntry], title: String = "cardlua gallery",
                              pictures: CardPictures? = nil) -> String {
        var groups: [(name: String, entries: [Int])] = []
        for (k, entry) in entries.enumerated() {
            if let g = groups.firstIndex(where: { $0.name == entry.group }) {
                groups[g].entries.append(k)
            } else {
                groups.append((entry.group, [k]))
            }
        }
        let x = RenderSupport.escapeXML
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width\">\n<meta name=\"generator\" content=\"cardlua\">\n"
        out += "<title>\(x(title))</title>\n<style>\n" + css + (pictures.map { CardPictures.css + $0.classes() } ?? "")
        out += "</style>\n</head>\n<body>\n"
        out += "<header><h1>\(x(title))</h1><p>\(entries.count) effects from \(groups.count) sources, "
        out += "each playing cardlua's demo (a sweep, a fling that snaps, a fling to the end). "
        out += "Click one for its full preview; start from it with "
        out += "<code>cardlua new fx.lua --from NAME</code>.</p></header>\n"
        for group in groups {
            out += "<section><h2>\(x(group.name))</h2>\n<div class=\"grid\">\n"
            for k in group.entries {
                let entry = entries[k]
                out += "<figure class=\"tile\" id=\"\(x(entry.name))\" data-k=\"\(k)\" tabindex=\"0\" role=\"button\""
                out += " aria-label=\"\(x(entry.name)): \(x(entry.summary))\">"
                out += "<div class=\"stage\"></div><figcaption><b>\(x(entry.name))</b><span>\(x(entry.summary))</span>"
                out += "</figcaption></figure>\n"
            }
            out += "</div></section>\n"
        }
        out += "<div id=\"overlay\" hidden><div id=\"panel\"><div id=\"big\"></div><div id=\"side\">"
        out += "<h2 id=\"name\"></h2><p id=\"summary\"></p><p class=\"dim\" id=\"source\"></p>"
        out += "<p><code id=\"start\"></code></p>"
        out += "<p class=\"dim\">drag it, flick it, tune it live:</p><p><code id=\"play-line\"></code></p>"
        out += "<div class=\"row\"><button id=\"play\" type=\"button\" title=\"play / pause (space)\">❚❚</button>"
        out += "<input id=\"scrub\" type=\"range\" min=\"0\" value=\"0\" step=\"1\" aria-label=\"frame\"></div>"
        out += "<p id=\"info\"></p><p class=\"dim\">space play/pause · ←/→ step (shift ×10) · Esc close</p>"
        out += "<button id=\"close\" type=\"button\">close</button></div></div></div>\n"
        out += "<script type=\"application/json\" id=\"gallery\">[\n"
        out += entryJSONs(entries, pictures: pictures).joined(separator: ",\n")
        out += "\n]</script>\n<script>\n" + galleryScript + "</script>\n</body>\n</html>\n"
        return out
    }

    /// Every entry's data, encoded side by side on as many threads as there are cores
    /// (each entry's text depends on nothing but the entry), in the entries' order.
    static func entryJSONs(_ entries: [GalleryEntry], pictures: CardPictures?) -> [String] {
        let texts = ConcurrentSlots<String>(count: entries.count)
        DispatchQueue.concurrentPerform(iterations: entries.count) { k in
            texts[k] = entryJSON(entries[k], pictures: pictures)
        }
        return (0..<entries.count).map { texts[$0] ?? "" }
    }

    /// One entry's data: its names, and its demo in the preview's format
    /// (``HTMLRenderer/timelineJSON(_:items:start:reloadStampFile:number:)``) plus each
    /// card's colours.
    /// With pictures, `"pics"` has each card's picture class number (`.pN`).
    static func entryJSON(_ entry: GalleryEntry, pictures: CardPictures? = nil) -> String {
        let (timeline, box) = shown(entry.timeline)
        let items = HTMLRenderer.cardSlots(timeline.frames)
        let colours = items.map { "[\"\(Palette.fill(for: $0).hex)\",\"\(Palette.stroke(for: $0).hex)\"]" }
        let j = RenderSupport.jsonString
        var pics = ""
        if let pictures {
            let numbers = items.map { String(pictures.index(for: $0, numberOfItems: timeline.scenario?.numberOfItems)) }
            pics = "\"pics\":[" + numbers.joined(separator: ",") + "],"
        }
        var out = "{\"name\":\(j(entry.name)),\"summary\":\(j(entry.summary)),\"source\":\(j(entry.source)),"
        out += "\"box\":[\([box.minX, box.minY, box.width, box.height].map(short).joined(separator: ","))],"
        out += "\"colours\":[\(colours.joined(separator: ","))]," + pics + "\"timeline\":"
        out += HTMLRenderer.timelineJSON(timeline, items: items, start: 0, reloadStampFile: nil, number: short)
        return out + "}"
    }

    /// The demo as the gallery keeps it, and the part of the viewport its cards use.
    ///
    /// A frame keeps only the cards that can be seen: drawn (``RenderCard/drawn(in:)``'s
    /// rule: not hidden, in front of the eye, not turned away while single-sided), not fully
    /// transparent, and meeting the viewport — a paging layout hands every page to every
    /// frame, most of them off screen, and they were most of the page's weight. The box is
    /// the union of those cards' extents over the demo, within the viewport, with a
    /// margin: a tile shows that part, so that a carousel of short cards in a tall
    /// viewport fills its tile instead of drawing a thin band in it.
    static func shown(_ timeline: Timeline) -> (Timeline, box: Rect) {
        var kept = timeline
        let viewport = timeline.viewportSize
        var union: (minX: Double, maxX: Double, minY: Double, maxY: Double)?
        for (index, frame) in timeline.frames.enumerated() {
            let size = frame.viewportSize
            var visible = Set<LayoutAttributes>()
            // RenderCard's rule for what is drawn, without the outline and shadow it builds.
            for card in frame.items where card.alpha > 0 && !card.isHidden && !card.isBackFaceHidden {
                guard let quad = card.projectedQuad(contentOffset: frame.contentOffset) else { continue }
                let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
                let e = (minX: xs.min() ?? 0, maxX: xs.max() ?? 0, minY: ys.min() ?? 0, maxY: ys.max() ?? 0)
                guard e.maxX > 0, e.minX < size.width, e.maxY > 0, e.minY < size.height else { continue }
                visible.insert(card)
                let clipped = (minX: max(e.minX, 0), maxX: min(e.maxX, viewport.width),
                               minY: max(e.minY, 0), maxY: min(e.maxY, viewport.height))
                guard clipped.minX < clipped.maxX, clipped.minY < clipped.maxY else { continue }
                union = union.map { (min($0.minX, clipped.minX), max($0.maxX, clipped.maxX),
                                     min($0.minY, clipped.minY), max($0.maxY, clipped.maxY)) } ?? clipped
            }
            // In the data's order (section, item), as the preview expects.
            kept.frames[index].items = frame.items.filter { visible.contains($0) }
        }
        // A frame that shows what the one before it shows (the demo's pauses) adds
        // nothing: the player keeps showing a frame until the next one's time. The last
        // frame stays, for the loop's length.
        var previous: Frame?
        kept.frames = kept.frames.enumerated().filter { index, frame in
            defer { previous = frame }
            guard let before = previous, index < kept.frames.count - 1 else { return true }
            return !(before.contentOffset == frame.contentOffset && before.phase == frame.phase
                     && before.viewportSize == frame.viewportSize && before.items == frame.items
                     && before.supplementary == frame.supplementary)
        }.map(\.element)
        guard let u = union else { return (kept, Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)) }
        // A margin of 4 % of the viewport, within it.
        let mx = viewport.width * 0.04, my = viewport.height * 0.04
        let minX = max(0, u.minX - mx), maxX = min(viewport.width, u.maxX + mx)
        let minY = max(0, u.minY - my), maxY = min(viewport.height, u.maxY + my)
        return (kept, Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
    }

    /// A number to four significant digits below 1000 and six above, without trailing
    /// zeros (`0.002`, `0.1564`, `231.6`, `1234.57`, `-0` as `0`): a hundredth of a point
    /// on a card, a ten-thousandth of a matrix's scale — below what a 170-pixel tile, or
    /// the full preview, can show — and offsets and times still to a hundredth.
    static func short(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        // Whole numbers (a matrix's zeros and ones, a card's size) are most of them, and
        // both formats write them as they are.
        if x.rounded(.towardZero) == x, abs(x) < 1e6 { return String(Int(x)) }
        // Formatted by the C library into a stack buffer and trimmed as bytes: the
        // gallery writes about two million numbers, and Foundation's `String(format:)`
        // with its string searches was half of the whole command's time.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer -> String in
            guard let base = buffer.baseAddress else { return "0" }
            let written = withVaList([x]) { vsnprintf(base, 40, abs(x) < 1000 ? "%.4g" : "%.6g", $0) }
            var count = Int(max(0, min(written, 39)))
            let bytes = UnsafeRawBufferPointer(start: base, count: count)
            let dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
            if !bytes.contains(UInt8(ascii: "e")) && bytes.contains(dot) {
                while count > 0 && bytes[count - 1] == zero { count -= 1 }
                if count > 0 && bytes[count - 1] == dot { count -= 1 }
            }
            if count == 2 && bytes[0] == UInt8(ascii: "-") && bytes[1] == zero { return "0" }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self)
        }
    }

    static let css = RenderSupport.filling(galleryStyleTemplate, with: [
        "page": Palette.page.hex, "caption": Palette.caption.hex, "background": Palette.background.hex,
        "viewportOutline": Palette.viewportOutline.hex, "label": Palette.label.hex,
    ])
}
