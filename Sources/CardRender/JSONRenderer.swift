import CardLayout

/// The JSON of docs/json.md (schema: docs/cardlua.schema.json): the run's layout, every frame's items, every release.
///
/// Keys come in a fixed order and numbers in their shortest round-trip form, so the same
/// run always gives byte-identical output. One item per line keeps it readable and
/// diffable.
public enum JSONRenderer {
    /// The format version in the `"cardlua"` key.
    public static let formatVersion = 1

    /// The whole timeline as one JSON document.
    public static func render(_ timeline: Timeline) -> String {
        let output = StringOutput()
        let writer = JSONTimelineWriter(output: output)
        // Writing to a string cannot fail.
        try? writer.begin(timeline)
        for frame in timeline.frames { try? writer.frame(frame) }
        try? writer.end(timeline)
        return output.text
    }

    /// The document's opening, up to the frames array.
    static func header(_ timeline: Timeline) -> String {
        var out = "{\n"
        out += "  \"cardlua\": \(formatVersion),\n"
        out += "  \"script\": \(RenderSupport.jsonString(timeline.scriptName)),\n"
        out += "  \"viewport\": \(size(timeline.viewportSize)),\n"
        out += "  \"layout\": \(layout(timeline.configuration)),\n"
        out += "  \"contentSize\": \(size(timeline.contentSize)),\n"
        out += "  \"fps\": \(RenderSupport.exact(timeline.framesPerSecond)),\n"
        if !timeline.params.isEmpty {  // only for a script that declares tweakables
            out += "  \"params\": { " + timeline.params.map {
                "\(RenderSupport.jsonString($0.name)): \(RenderSupport.json($0.value))"
            }.joined(separator: ", ") + " },\n"
        }
        out += "  \"frames\": ["
        return out
    }

    /// One frame's object (without the separator before it).
    static func frame(_ frame: Frame, viewportSize: Size) -> String {
        var out = "    { \"time\": \(RenderSupport.exact(frame.time)), "
        out += "\"contentOffset\": \(point(frame.contentOffset)), "
        out += "\"phase\": \(RenderSupport.jsonString(frame.phase.rawValue)), "
        if frame.viewportSize != viewportSize {
            out += "\"viewport\": \(size(frame.viewportSize)), "
        }
        out += "\"items\": ["
        for (itemIndex, item) in frame.items.enumerated() {
            out += itemIndex == 0 ? "\n" : ",\n"
            out += "        " + attributes(item)
        }
        out += frame.items.isEmpty ? "]" : " ]"
        if !frame.supplementary.isEmpty {
            out += ", \"supplementary\": ["
            for (index, s) in frame.supplementary.enumerated() {
                out += (index == 0 ? "\n" : ",\n") + "        " + supplementary(s)
            }
            out += " ]"
        }
        return out + " }"
    }

    /// The end of the frames array, the snaps and the closing brace.
    static func trailer(snaps: [SnapEvent], hadFrames: Bool) -> String {
        var out = hadFrames ? "\n  ],\n" : "],\n"
        out += "  \"snaps\": ["
        for (index, snap) in snaps.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    { \"time\": \(RenderSupport.exact(snap.time)), "
            out += "\"proposedContentOffset\": \(point(snap.proposedContentOffset)), "
            out += "\"velocity\": \(point(snap.velocity)), "
            out += "\"targetContentOffset\": \(point(snap.targetContentOffset)) }"
        }
        out += snaps.isEmpty ? "]\n" : "\n  ]\n"
        out += "}\n"
        return out
    }

    /// One item's attributes as a JSON object on one line.
    public static func attributes(_ item: LayoutAttributes) -> String {
        let f = item.frame
        let matrix = item.transform3D.fields.map(RenderSupport.exact).joined(separator: ", ")
        return "{ \"section\": \(item.indexPath.section), \"item\": \(item.indexPath.item), "
            + "\"frame\": { \"x\": \(RenderSupport.exact(f.minX)), \"y\": \(RenderSupport.exact(f.minY)), "
            + "\"width\": \(RenderSupport.exact(f.width)), \"height\": \(RenderSupport.exact(f.height)) }, "
            + "\"center\": \(point(item.center)), "
            + "\"transform3D\": [\(matrix)], "
            + "\"alpha\": \(RenderSupport.exact(item.alpha)), \"zIndex\": \(item.zIndex), "
            + "\"hidden\": \(item.isHidden)"
            // Contract v2: written only when they differ from a plain v1 card.
            + (item.isDoubleSided ? "" : ", \"isDoubleSided\": false")
            + (item.appearance.map { ", \"appearance\": " + appearance($0) } ?? "")
            + " }"
    }

    /// A card's `appearance` object; `backgroundColor` only when set.
    static func appearance(_ a: CardAppearance) -> String {
        var out = "{ \"cornerRadius\": \(RenderSupport.exact(a.cornerRadius)), "
        out += "\"shadowOpacity\": \(RenderSupport.exact(a.shadowOpacity)), "
        out += "\"shadowRadius\": \(RenderSupport.exact(a.shadowRadius)), "
        out += "\"shadowOffset\": \(size(a.shadowOffset)), "
        if let color = a.backgroundColor { out += "\"backgroundColor\": \"\(color.hex)\", " }
        out += "\"blurRadius\": \(RenderSupport.exact(a.blurRadius)) }"
        return out
    }

    /// A header or footer on one line.
    static func supplementary(_ s: SupplementaryAttributes) -> String {
        "{ \"kind\": \"\(s.kind.rawValue)\", \"section\": \(s.section), \"frame\": { "
            + "\"x\": \(RenderSupport.exact(s.frame.minX)), \"y\": \(RenderSupport.exact(s.frame.minY)), "
            + "\"width\": \(RenderSupport.exact(s.frame.width)), \"height\": \(RenderSupport.exact(s.frame.height)) } }"
    }

    static func layout(_ c: FlowLayoutConfiguration) -> String {
        "{ \"scrollDirection\": \(RenderSupport.jsonString(c.scrollDirection.rawValue)), "
            + "\"itemSize\": \(size(c.itemSize)), "
            + "\"sectionInset\": { \"top\": \(RenderSupport.exact(c.sectionInset.top)), "
            + "\"left\": \(RenderSupport.exact(c.sectionInset.left)), "
            + "\"bottom\": \(RenderSupport.exact(c.sectionInset.bottom)), "
            + "\"right\": \(RenderSupport.exact(c.sectionInset.right)) }, "
            + "\"minimumLineSpacing\": \(RenderSupport.exact(c.minimumLineSpacing)), "
            + "\"minimumInteritemSpacing\": \(RenderSupport.exact(c.minimumInteritemSpacing)), "
            + "\"headerReferenceSize\": \(size(c.headerReferenceSize)), "
            + "\"footerReferenceSize\": \(size(c.footerReferenceSize)), "
            + "\"decelerationRate\": \(RenderSupport.exact(c.decelerationRate.rawValue)), "
            + "\"isPagingEnabled\": \(c.isPagingEnabled)"
            // New fields only when they are not the v1 meaning (v1 output unchanged).
            + (c.layoutDirection == .rightToLeft ? ", \"layoutDirection\": \"rightToLeft\"" : "")
            + (c.wraps ? ", \"wraps\": true }" : " }")
    }

    static func point(_ p: Point) -> String {
        "{ \"x\": \(RenderSupport.exact(p.x)), \"y\": \(RenderSupport.exact(p.y)) }"
    }

    static func size(_ s: Size) -> String {
        "{ \"width\": \(RenderSupport.exact(s.width)), \"height\": \(RenderSupport.exact(s.height)) }"
    }
}

/// ``JSONRenderer``'s document, written frame by frame as a run goes: the same bytes as
/// `JSONRenderer.render` of the whole timeline, holding one frame at a time.
public final class JSONTimelineWriter: TimelineSink {
    private let output: any TextOutput
    private var viewportSize = Size(width: 0, height: 0)
    private var frames = 0

    public init(output: any TextOutput) { self.output = output }

    public func begin(_ header: Timeline) throws {
        viewportSize = header.viewportSize
        try output.write(JSONRenderer.header(header))
    }

    public func frame(_ frame: Frame) throws {
        try output.write((frames == 0 ? "\n" : ",\n") + JSONRenderer.frame(frame, viewportSize: viewportSize))
        frames += 1
    }

    public func end(_ summary: Timeline) throws {
        try output.write(JSONRenderer.trailer(snaps: summary.snaps, hadFrames: frames > 0))
    }
}

extension JSONRenderer {
    /// `text` as a JSON string literal (quotes included), also safe inside an HTML
    /// `<script>` element: for other JSON the tools write (the `play` server's answers).
    public static func stringLiteral(_ text: String) -> String { RenderSupport.jsonString(text) }
}
