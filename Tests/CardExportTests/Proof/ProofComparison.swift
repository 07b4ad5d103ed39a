import CardLayout
import Foundation

/// Compares the compiled layout's answers (the driver's output) with the Lua run's.
enum ProofComparison {
    static let tolerance = 1e-9

    /// The first mismatches (at most `limit`), each naming the script, the event, the
    /// item and the field; empty when everything agrees within ``tolerance``.
    static func mismatches(script: String, answers: [ProofAnswer], driverOutput: String, limit: Int = 5) -> [String] {
        var problems: [String] = []
        func note(_ text: String) { if problems.count < limit { problems.append("\(script): \(text)") } }
        var lines = driverOutput.split(separator: "\n").makeIterator()
        for (index, answer) in answers.enumerated() {
            guard let header = lines.next() else {
                note("event \(index): the driver stopped after \(index) of \(answers.count) events")
                return problems
            }
            let head = header.split(separator: " ")
            switch answer {
            case let .release(target):
                guard head.count == 3, head[0] == "release", let x = Double(String(head[1])), let y = Double(String(head[2])) else {
                    note("event \(index) (a release): the driver wrote \"\(header)\"")
                    return problems
                }
                if !close(x, target.x) || !close(y, target.y) {
                    note("release at event \(index): targetContentOffset is (\(x), \(y)), the script's (\(target.x), \(target.y))")
                }
            case let .frame(items, supplementary):
                guard head.count == 2, head[0] == "frame", let count = Int(String(head[1])) else {
                    note("event \(index) (a frame): the driver wrote \"\(header)\"")
                    return problems
                }
                var compiled: [CardIndexPath: [Double]] = [:]
                for _ in 0..<count {
                    guard let line = lines.next() else { note("frame \(index): output ends early"); return problems }
                    let numbers = line.split(separator: " ").map { Double(String($0)) ?? .nan }
                    guard numbers.count == 38 else { note("frame \(index): bad line \"\(line)\""); return problems }
                    compiled[CardIndexPath(item: Int(numbers[1]), section: Int(numbers[0]))] = Array(numbers.dropFirst(2))
                }
                let expected = Dictionary(items.map { ($0.indexPath, $0) }, uniquingKeysWith: { a, _ in a })
                let missing = expected.keys.filter { compiled[$0] == nil }.sorted()
                let extra = compiled.keys.filter { expected[$0] == nil }.sorted()
                if !missing.isEmpty || !extra.isEmpty {
                    note("frame \(index): items differ: the script shows \(describe(missing)) that the export does not, the export \(describe(extra)) that the script does not")
                }
                for (indexPath, item) in expected.sorted(by: { $0.key < $1.key }) {
                    guard let values = compiled[indexPath] else { continue }
                    let t = item.transform3D
                    let fields: [(String, Double)] = [
                        ("frame.x", item.frame.origin.x), ("frame.y", item.frame.origin.y),
                        ("frame.width", item.size.width), ("frame.height", item.size.height),
                        ("center.x", item.center.x), ("center.y", item.center.y),
                        ("m11", t.m11), ("m12", t.m12), ("m13", t.m13), ("m14", t.m14),
                        ("m21", t.m21), ("m22", t.m22), ("m23", t.m23), ("m24", t.m24),
                        ("m31", t.m31), ("m32", t.m32), ("m33", t.m33), ("m34", t.m34),
                        ("m41", t.m41), ("m42", t.m42), ("m43", t.m43), ("m44", t.m44),
                        ("alpha", item.alpha), ("zIndex", Double(item.zIndex)), ("isHidden", item.isHidden ? 1 : 0),
                    ] + appearanceFields(item)
                    for (k, field) in fields.enumerated() where !close(values[k], field.1) {
                        note("frame \(index), item \(indexPath.item) of section \(indexPath.section): \(field.0) is \(values[k]), the script's \(field.1)")
                    }
                }
                guard let views = lines.next(), views.hasPrefix("supplementary "),
                      let viewCount = Int(views.dropFirst("supplementary ".count)) else {
                    note("frame \(index): no supplementary line")
                    return problems
                }
                var shown: [String: [Double]] = [:]
                for _ in 0..<viewCount {
                    guard let line = lines.next() else { note("frame \(index): output ends early"); return problems }
                    let numbers = line.split(separator: " ").map { Double(String($0)) ?? .nan }
                    guard numbers.count == 23 else { note("frame \(index): bad line \"\(line)\""); return problems }
                    shown["\(numbers[0] == 0 ? "header" : "footer") of section \(Int(numbers[1]))"] = Array(numbers.dropFirst(2))
                }
                // The engine never transforms a header or footer: its frame, the identity, alpha 1.
                var wanted: [String: [Double]] = [:]
                for view in supplementary {
                    let f = view.frame
                    wanted["\(view.kind == .header ? "header" : "footer") of section \(view.section)"] =
                        [f.origin.x, f.origin.y, f.size.width, f.size.height, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1]
                }
                if Set(shown.keys) != Set(wanted.keys) {
                    note("frame \(index): headers and footers differ: the script shows \(wanted.keys.sorted()), the export \(shown.keys.sorted())")
                }
                let names = ["frame.x", "frame.y", "frame.width", "frame.height", "m11", "m12", "m13", "m14", "m21", "m22",
                             "m23", "m24", "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44", "alpha"]
                for (view, values) in wanted.sorted(by: { $0.key < $1.key }) {
                    guard let got = shown[view] else { continue }
                    for (k, name) in names.enumerated() where !close(got[k], values[k]) {
                        note("frame \(index), \(view): \(name) is \(got[k]), super's \(values[k])")
                    }
                }
            }
        }
        return problems
    }

    /// The engine's appearance of an item in the driver's order: CALayer's values (the
    /// defaults where the script sets none), the colour's components (−1s for none), the
    /// blur and double-sidedness.
    static func appearanceFields(_ item: LayoutAttributes) -> [(String, Double)] {
        let a = item.appearance ?? CardAppearance()
        let rgb = a.backgroundColor.map { c in [(c.rgb >> 16) & 0xFF, (c.rgb >> 8) & 0xFF, c.rgb & 0xFF].map { Double($0) / 255 } }
        let colour = rgb.map { $0 + [1] } ?? [-1, -1, -1, -1]
        return [("cornerRadius", a.cornerRadius), ("shadowOpacity", a.shadowOpacity), ("shadowRadius", a.shadowRadius),
                ("shadowOffset.width", a.shadowOffset.width), ("shadowOffset.height", a.shadowOffset.height),
                ("backgroundColor.red", colour[0]), ("backgroundColor.green", colour[1]),
                ("backgroundColor.blue", colour[2]), ("backgroundColor.alpha", colour[3]),
                ("blurRadius", a.blurRadius), ("isDoubleSided", item.isDoubleSided ? 1 : 0)]
    }

    static func close(_ a: Double, _ b: Double) -> Bool {
        if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
        if a.isInfinite || b.isInfinite { return a == b }
        return abs(a - b) <= tolerance
    }

    private static func describe(_ paths: [CardIndexPath]) -> String {
        paths.isEmpty ? "none" : "[" + paths.map { "\($0.section).\($0.item)" }.joined(separator: ", ") + "]"
    }
}
