import CardLayout

/// The JSON of design.md §5: the run's layout, every frame's items, every release.
///
/// Keys come in a fixed order and numbers in their shortest round-trip form, so the same
/// run always gives byte-identical output. One item per line keeps it readable and
/// diffable.
public enum JSONRenderer {
    /// The format version in the `"cardlua"` key.
    public static let formatVersion = 1

    public static func render(_ timeline: Timeline) -> String {
        var out = "{\n"
        out += "  \"cardlua\": \(formatVersion),\n"
        out += "  \"script\": \(string(timeline.scriptName)),\n"
        out += "  \"viewport\": \(size(timeline.viewportSize)),\n"
        out += "  \"layout\": \(layout(timeline.configuration)),\n"
        out += "  \"contentSize\": \(size(timeline.contentSize)),\n"
        out += "  \"fps\": \(NumberText.json(timeline.framesPerSecond)),\n"
        out += "  \"frames\": ["
        for (index, frame) in timeline.frames.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    { \"time\": \(NumberText.json(frame.time)), "
            out += "\"contentOffset\": \(point(frame.contentOffset)), "
            out += "\"phase\": \(string(frame.phase.rawValue)), "
            if frame.viewportSize != timeline.viewportSize {
                out += "\"viewport\": \(size(frame.viewportSize)), "
            }
            out += "\"items\": ["
            for (itemIndex, item) in frame.items.enumerated() {
                out += itemIndex == 0 ? "\n" : ",\n"
                out += "        " + attributes(item)
            }
            out += frame.items.isEmpty ? "] }" : " ] }"
        }
        out += timeline.frames.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"snaps\": ["
        for (index, snap) in timeline.snaps.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    { \"time\": \(NumberText.json(snap.time)), "
            out += "\"proposedContentOffset\": \(point(snap.proposedContentOffset)), "
            out += "\"velocity\": \(point(snap.velocity)), "
            out += "\"targetContentOffset\": \(point(snap.targetContentOffset)) }"
        }
        out += timeline.snaps.isEmpty ? "]\n" : "\n  ]\n"
        out += "}\n"
        return out
    }

    /// One item's attributes as a JSON object on one line.
    public static func attributes(_ item: LayoutAttributes) -> String {
        let f = item.frame
        let matrix = item.transform3D.fields.map(NumberText.json).joined(separator: ", ")
        return "{ \"section\": \(item.indexPath.section), \"item\": \(item.indexPath.item), "
            + "\"frame\": { \"x\": \(NumberText.json(f.minX)), \"y\": \(NumberText.json(f.minY)), "
            + "\"width\": \(NumberText.json(f.width)), \"height\": \(NumberText.json(f.height)) }, "
            + "\"center\": \(point(item.center)), "
            + "\"transform3D\": [\(matrix)], "
            + "\"alpha\": \(NumberText.json(item.alpha)), \"zIndex\": \(item.zIndex), "
            + "\"hidden\": \(item.isHidden) }"
    }

    static func layout(_ c: FlowLayoutConfiguration) -> String {
        "{ \"scrollDirection\": \(string(c.scrollDirection.rawValue)), "
            + "\"itemSize\": \(size(c.itemSize)), "
            + "\"sectionInset\": { \"top\": \(NumberText.json(c.sectionInset.top)), "
            + "\"left\": \(NumberText.json(c.sectionInset.left)), "
            + "\"bottom\": \(NumberText.json(c.sectionInset.bottom)), "
            + "\"right\": \(NumberText.json(c.sectionInset.right)) }, "
            + "\"minimumLineSpacing\": \(NumberText.json(c.minimumLineSpacing)), "
            + "\"minimumInteritemSpacing\": \(NumberText.json(c.minimumInteritemSpacing)), "
            + "\"headerReferenceSize\": \(size(c.headerReferenceSize)), "
            + "\"footerReferenceSize\": \(size(c.footerReferenceSize)), "
            + "\"decelerationRate\": \(NumberText.json(c.decelerationRate.rawValue)), "
            + "\"isPagingEnabled\": \(c.isPagingEnabled) }"
    }

    static func point(_ p: Point) -> String {
        "{ \"x\": \(NumberText.json(p.x)), \"y\": \(NumberText.json(p.y)) }"
    }

    static func size(_ s: Size) -> String {
        "{ \"width\": \(NumberText.json(s.width)), \"height\": \(NumberText.json(s.height)) }"
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
