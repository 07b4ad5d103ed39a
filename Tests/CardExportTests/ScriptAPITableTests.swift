@testable import CardExport
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The exporter's table of the script API (Sources/CardExport/API/ScriptAPI.swift) against
/// the runtime and against the translator: every name the runtime defines has a row, every
/// row is a name of the runtime or a callback, each row's verdict is the translator's, and
/// docs/export.md shows the table as it is.
@Suite struct ScriptAPITableTests {
    /// What a fresh sandbox defines, as the runtime lists it.
    static let runtimeNames: [String] = (try? LuaEffect.scriptNames()) ?? []

    /// The callbacks and tables a script defines itself (the runtime defines none of them).
    static let scriptDefined: Set<String> = [
        "prepare", "transform", "targetContentOffset", "layoutAttributesForElements", "sizeForItem", "insetForSection",
        "referenceSizeForHeader", "referenceSizeForFooter", "params", "scenarios",
    ]

    @Test("every name the runtime defines has a row")
    func runtimeNamesHaveRows() {
        #expect(Self.runtimeNames.count > 150, "the runtime's names: \(Self.runtimeNames.count)")
        let missing = Self.runtimeNames.filter { ScriptAPI.entry($0) == nil && !Self.scriptDefined.contains($0) }
        #expect(missing.isEmpty, "names the runtime defines that ScriptAPI.swift lacks: \(missing)")
    }

    @Test("every row is a name of the runtime or a callback, once")
    func rowsAreRuntimeNames() {
        let runtime = Set(Self.runtimeNames)
        let stale = ScriptAPI.entries.map(\.name).filter { !runtime.contains($0) && !Self.scriptDefined.contains($0) }
        #expect(stale.isEmpty, "rows for names the runtime does not define: \(stale)")
        let names = ScriptAPI.entries.map(\.name)
        #expect(Set(names).count == names.count, "a name with two rows")
    }

    /// The LuaCATS parameter types of each function and method the runtime documents.
    static let parameterTypes: [String: [String]] = {
        var result: [String: [String]] = [:]
        var pending: [String] = []
        for line in ((try? LuaEffect.typeDefinitions()) ?? "").split(separator: "\n").map(String.init) {
            if line.hasPrefix("---@param ") {
                let words = line.split(separator: " ")
                if words.count >= 3 { pending.append(String(words[2])) }
            } else if line.hasPrefix("function "), let open = line.firstIndex(of: "(") {
                result[String(line.dropFirst(9)[..<open])] = pending
                pending = []
            } else if !line.hasPrefix("---") {
                pending = []
            }
        }
        return result
    }()

    /// A value of each Lua type a parameter takes.
    static let samples: [String: String] = [
        "number": "0.5", "integer": "1", "boolean": "true", "CGPoint": "CGPointMake(1, 2)", "CGSize": "CGSizeMake(3, 4)",
        "CGRect": "CGRectMake(0, 0, 10, 20)", "UIEdgeInsets": "UIEdgeInsetsMake(1, 2, 3, 4)",
        "CATransform3D": "CATransform3DIdentity", "CGAffineTransform": "CGAffineTransformIdentity",
        "IndexPath": "IndexPath(0, 0)",
    ]

    /// Lua that uses `name`, and whether it goes in `prepare` (layout settings) or `transform`.
    static func use(of name: String) -> (code: String, inPrepare: Bool) {
        switch name {
        case "UICollectionViewScrollDirectionVertical", "UICollectionViewScrollDirectionHorizontal":
            return ("layout.scrollDirection = \(name)", true)
        case "UIScrollViewDecelerationRateNormal", "UIScrollViewDecelerationRateFast":
            return ("layout.decelerationRate = \(name)", true)
        case "ipairs": return ("local t = { 1, 2 }\n  for k, v in ipairs(t) do attributes.zIndex = k + v end", false)
        case "pairs": return ("for k, v in pairs({ 1 }) do attributes.zIndex = v end", false)
        case "print", "warn": return ("\(name)(\"x\")", false)
        case "table.insert": return ("local t = {}\n  table.insert(t, 1)\n  attributes.zIndex = #t", false)
        case "table.sort": return ("local t = { 2, 1 }\n  table.sort(t, function(a, b) return a < b end)\n  attributes.zIndex = t[1]", false)
        case "string.format": return ("attributes.backgroundColor = string.format(\"#%02x%02x%02x\", 1, 2, 3)", false)
        case "math.tointeger": return ("attributes.zIndex = math.tointeger(attributes.indexPath.item)", false)
        case "math.atan": return ("local v = math.atan(1, 2)", false)
        case "math.min", "math.max", "math.fmod", "math.atan2", "math.pow", "math.ult", "math.ldexp":
            return ("local v = \(name)(5, 3)", false)
        case "math.log": return ("local v = math.log(8, 2)", false)
        case "UICollectionView:numberOfItems": return ("local v = layout.collectionView:numberOfItems(0)", false)
        default: break
        }
        if name.hasPrefix("UICollectionViewFlowLayout:") {
            let method = String(name.dropFirst("UICollectionViewFlowLayout:".count))
            let arguments = (parameterTypes[name] ?? []).map { samples[$0] ?? "0.5" }.joined(separator: ", ")
            return ("local v = layout:\(method)(\(arguments))", false)
        }
        if let types = parameterTypes[name] {
            let arguments = types.map { samples[$0.replacingOccurrences(of: "?", with: "")] ?? "0.5" }.joined(separator: ", ")
            if let colon = name.firstIndex(of: ":") {
                let receiver = samples[String(name[..<colon])] ?? "nil"
                return ("local v = \(receiver):\(name[name.index(after: colon)...])(\(arguments))", false)
            }
            return ("local v = \(name)(\(arguments))", false)
        }
        if name.hasPrefix("math."), ["pi", "huge", "maxinteger", "mininteger"].contains(name.dropFirst(5)) {
            return ("local v = \(name)", false)
        }
        if name.hasPrefix("math.") { return ("local v = \(name)(0.5)", false) }
        if name.contains(".") { return ("local v = \(name)(\"a\")", false) }
        return ("local v = \(name)", false)
    }

    static func export(using name: String) -> Result<String, ExportError> {
        let (code, inPrepare) = use(of: name)
        let script = inPrepare
            ? "function prepare(layout)\n  \(code)\nend\nfunction transform(attributes, layout) attributes.alpha = 1 end\n"
            : "function transform(attributes, layout)\n  \(code)\n  attributes.alpha = 1\nend\n"
        return Result { () throws(ExportError) -> String in
            try Exporter.export(source: script, fileName: "api.lua", className: "APILayout", params: [:])
        }
    }

    @Test("the translator takes what the table translates and refuses what it refuses, with its words")
    func translatorAgreesWithTheTable() {
        var disagreements: [String] = []
        for entry in ScriptAPI.entries where !Self.scriptDefined.contains(entry.name) {
            switch (entry.form, Self.export(using: entry.name)) {
            case (.swift, .success), (.dropped, .success): break
            case (.refused, .failure(let error)):
                if !error.message.contains(ScriptAPI.refusal(entry.name) ?? "?") {
                    disagreements.append("\(entry.name): refused as '\(error.message)', the table says '\(ScriptAPI.refusal(entry.name) ?? "")'")
                }
            case (.swift, .failure(let error)), (.dropped, .failure(let error)):
                disagreements.append("\(entry.name): the table translates it, the translator says '\(error.message)'")
            case (.refused, .success):
                disagreements.append("\(entry.name): the table refuses it, the translator takes it")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test("a translated row's Swift is what the file spells")
    func translatedRowsSpellTheirSwift() throws {
        // The functions whose Swift is a call or a property of the same name stand for the rest.
        let spelt: [(name: String, swift: String)] = [
            ("CATransform3DRotate", "CATransform3DRotate(CATransform3DIdentity, 0.5, 0.5, 0.5, 0.5)"),
            ("CGAffineTransform:scale", "CGAffineTransform.identity.scaledBy(x: 0.5, y: 0.5)"),
            ("CGRectGetMidX", "CGRect(x: 0, y: 0, width: 10, height: 20).midX"),
            ("math.deg", "0.5 * (180 / CGFloat.pi)"),
            ("math.atan2", "atan2(5, 3)"),
            ("UICollectionView:numberOfItems", "collectionView.numberOfItems(inSection: 0)"),
        ]
        for (name, swift) in spelt {
            let file = try Self.export(using: name).get()
            #expect(file.contains(swift), "\(name): \(file)")
        }
    }

    /// The table as docs/export.md shows it.
    static func markdownTable() -> String {
        var lines = ["| Lua | Swift, or why not |", "|---|---|"]
        for entry in ScriptAPI.entries {
            let text: String
            switch entry.form {
            case .swift(let swift): text = "`\(swift.replacingOccurrences(of: "|", with: "\\|"))`"
            case .dropped(let reason): text = "left out: \(reason)"
            case let .refused(why, instead): text = "refused: \(why); \(instead)"
            }
            lines.append("| `\(entry.name)` | \(text) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("docs/export.md shows the table as it is")
    func docsShowTheTable() throws {
        let docs = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/export.md"), encoding: .utf8)
        let begin = "<!-- script-api-table: generated from Sources/CardExport/API/ScriptAPI.swift -->\n"
        let end = "<!-- end of script-api-table -->"
        let start = try #require(docs.range(of: begin)).upperBound
        let stop = try #require(docs.range(of: end, range: start..<docs.endIndex)).lowerBound
        #expect(String(docs[start..<stop]) == Self.markdownTable(), "docs/export.md's table should read:\n\(Self.markdownTable())")
    }
}
