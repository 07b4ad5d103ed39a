import Foundation
import Testing

/// `docs/cardlua.schema.json` describes what `cardlua run --format json` prints: real
/// output of the seeds (one offset, a fling, the demo) and of a scenario with a resize
/// validates against it, with a small validator for the part of JSON Schema it uses.
@Suite struct JSONSchemaTests {
    static func schema() throws -> JSONValue {
        let url = CLI.packageRoot.appendingPathComponent("docs/cardlua.schema.json")
        return try JSONValue.parse(try Data(contentsOf: url))
    }

    static let seeds = ["lol.lua", "card-scale.lua", "photo-browser.lua"]

    @Test(arguments: seeds)
    func realOutputValidates(_ seed: String) throws {
        let schema = try Self.schema()
        // The demo at 15 frames a second: every kind of frame it has, a quarter as many
        // to validate (a debug build under the sanitizers validates slowly).
        for options in [["--offset", "150"], ["--fling", "2"], ["--offset", "300", "--fling", "-1.5"], ["--fps", "15"]] {
            let result = try CLI.run(["run", CLI.script(seed), "--format", "json"] + options)
            try #require(result.status == 0, "\(result.stderr)")
            let output = try JSONValue.parse(Data(result.stdout.utf8))
            let problems = SchemaValidator(root: schema).validate(output)
            #expect(problems.isEmpty, "\(seed) \(options): \(problems.prefix(5))")
        }
    }

    /// A scenario with every kind of step, a resize among them (frames then carry their
    /// own viewport), validates too.
    @Test func aScenarioWithAResizeValidates() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 300)
        end
        scenarios = { all = { items = 8, fps = 20, steps = {
          { jump = 50 }, { drag = 120, duration = 0.2 }, { wait = 0.1 }, { fling = -1 },
          { scrollToItem = 3 }, { resize = "600x400" },
        } } }

        """, named: "effect.lua", in: directory)
        let result = try CLI.run(["run", "effect.lua", "--scenario", "all", "--format", "json"], directory: directory)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"viewport\": { \"width\": 600, \"height\": 400 }, \"items\""))
        let problems = SchemaValidator(root: try Self.schema()).validate(try JSONValue.parse(Data(result.stdout.utf8)))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// The schema is strict enough to catch a changed output: a renamed, missing or extra
    /// key, a wrong type, an unknown phase, a negative size, a short matrix.
    @Test func theSchemaRejectsChangedOutput() throws {
        let schema = try Self.schema()
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--offset", "150", "--format", "json"])
        let good = result.stdout
        let mutations: [(String, String)] = [
            ("\"phase\": \"idle\"", "\"phase\": \"resting\""),
            ("\"cardlua\": 1", "\"cardlua\": 2"),
            ("\"zIndex\": 1", "\"zIndex\": 1.5"),
            ("\"hidden\": false", "\"hidden\": 0"),
            ("\"snaps\": []", "\"snaps\": [], \"extra\": true"),
            ("\"fps\": 60,", ""),
            ("\"itemSize\": { \"width\": 300", "\"itemSize\": { \"width\": -300"),
            ("\"transform3D\": [0.8872122245750945, ", "\"transform3D\": ["),
            ("\"scrollDirection\": \"horizontal\"", "\"scrollDirection\": \"sideways\""),
            ("\"center\": { \"x\": 200, \"y\": 368 }", "\"center\": { \"x\": 200 }"),
        ]
        #expect(SchemaValidator(root: schema).validate(try JSONValue.parse(Data(good.utf8))).isEmpty)
        for (from, to) in mutations {
            try #require(good.contains(from), "the output no longer has \(from)")
            let bad = good.replacingOccurrences(of: from, with: to)
            let problems = SchemaValidator(root: schema).validate(try JSONValue.parse(Data(bad.utf8)))
            #expect(!problems.isEmpty, "\(to) passed")
        }
    }

    /// The validator itself, keyword by keyword, on small schemas.
    @Test func theValidatorChecksEachKeyword() throws {
        func check(_ schema: String, _ value: String) throws -> Bool {
            SchemaValidator(root: try JSONValue.parse(Data(schema.utf8)))
                .validate(try JSONValue.parse(Data(value.utf8))).isEmpty
        }
        #expect(try check(#"{"type": "integer"}"#, "3"))
        #expect(try !check(#"{"type": "integer"}"#, "3.5"))
        #expect(try check(#"{"type": "number"}"#, "3.5"))
        #expect(try !check(#"{"type": "number"}"#, "true"))
        #expect(try !check(#"{"type": "boolean"}"#, "1"))
        #expect(try check(#"{"type": "boolean"}"#, "false"))
        #expect(try !check(#"{"type": "string"}"#, "1"))
        #expect(try !check(#"{"type": "array"}"#, "{}"))
        #expect(try !check(#"{"type": "object"}"#, "[]"))
        #expect(try check(#"{"enum": ["a", 1]}"#, "1"))
        #expect(try !check(#"{"enum": ["a", 1]}"#, "\"b\""))
        #expect(try check(#"{"minimum": 0}"#, "0"))
        #expect(try !check(#"{"minimum": 0}"#, "-0.5"))
        #expect(try check(#"{"minimum": 0}"#, "\"not a number: minimum does not apply\""))
        #expect(try !check(#"{"required": ["a"]}"#, #"{"b": 1}"#))
        #expect(try !check(#"{"properties": {"a": {"type": "string"}}}"#, #"{"a": 1}"#))
        #expect(try check(#"{"properties": {"a": {"type": "string"}}}"#, #"{"b": 1}"#))
        #expect(try !check(#"{"properties": {"a": {}}, "additionalProperties": false}"#, #"{"b": 1}"#))
        #expect(try check(#"{"properties": {"a": {}}, "additionalProperties": false}"#, #"{"a": 1}"#))
        #expect(try !check(#"{"items": {"type": "number"}}"#, #"[1, "x"]"#))
        #expect(try !check(#"{"minItems": 2}"#, "[1]"))
        #expect(try !check(#"{"maxItems": 1}"#, "[1, 2]"))
        #expect(try !check(##"{"$defs": {"n": {"type": "number"}}, "items": {"$ref": "#/$defs/n"}}"##, #"["x"]"#))
        #expect(try check(##"{"$defs": {"n": {"type": "number"}}, "items": {"$ref": "#/$defs/n"}}"##, "[1, 2]"))
    }
}

// MARK: - A JSON value and a validator for the subset of JSON Schema (draft 2020-12) used

/// A parsed JSON value; integers are kept apart from other numbers for `"type": "integer"`.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String)
    case array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    var number: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .number(let v): return v
        default: return nil
        }
    }

    /// Equality as JSON Schema's `enum` means it: 1 and 1.0 are the same number.
    func sameValue(as other: JSONValue) -> Bool {
        if let a = number, let b = other.number { return a == b }
        return self == other
    }
}

/// Validates against: type, enum, minimum, required, properties, additionalProperties
/// (a boolean or a schema), items, minItems, maxItems, and `$ref` to `#/$defs/NAME`.
/// Other keywords (title, description, $schema, $id) are annotations and ignored.
struct SchemaValidator {
    let root: JSONValue

    /// Every violation, as "path: what"; empty when the value is valid.
    func validate(_ value: JSONValue) -> [String] {
        var problems: [String] = []
        check(value, against: root, at: "$", into: &problems)
        return problems
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into problems: inout [String]) {
        guard case .object(let s) = schema else { return }  // `true`/`{}`-like: anything goes
        if case .string(let ref)? = s["$ref"] {
            let prefix = "#/$defs/"
            guard ref.hasPrefix(prefix), case .object(let top) = root, case .object(let defs)? = top["$defs"],
                  let target = defs[String(ref.dropFirst(prefix.count))] else {
                problems.append("\(path): unresolvable $ref \(ref)")
                return
            }
            check(value, against: target, at: path, into: &problems)
        }
        if case .string(let type)? = s["type"], !Self.has(type: type, value) {
            problems.append("\(path): expected \(type)")
            return
        }
        // `"type": [kinds]`: any one of them.
        if case .array(let types)? = s["type"],
           !types.contains(where: { if case .string(let type) = $0 { Self.has(type: type, value) } else { false } }) {
            problems.append("\(path): expected one of the types \(types)")
            return
        }
        if case .array(let options)? = s["enum"], !options.contains(where: { $0.sameValue(as: value) }) {
            problems.append("\(path): not one of the enum")
        }
        if let minimum = s["minimum"]?.number, let v = value.number, v < minimum {
            problems.append("\(path): \(v) below the minimum \(minimum)")
        }
        if case .object(let object) = value {
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where object[key] == nil { problems.append("\(path): missing \(key)") }
            }
            var known: [String: JSONValue] = [:]
            if case .object(let properties)? = s["properties"] { known = properties }
            for (key, child) in object {
                if let propertySchema = known[key] {
                    check(child, against: propertySchema, at: "\(path).\(key)", into: &problems)
                } else if let extra = s["additionalProperties"] {
                    if extra == .bool(false) { problems.append("\(path): unexpected key \(key)") }
                    else { check(child, against: extra, at: "\(path).\(key)", into: &problems) }
                }
            }
        }
        if case .array(let array) = value {
            if let minimum = s["minItems"]?.number, Double(array.count) < minimum { problems.append("\(path): too few items") }
            if let maximum = s["maxItems"]?.number, Double(array.count) > maximum { problems.append("\(path): too many items") }
            if let itemSchema = s["items"] {
                for (index, element) in array.enumerated() {
                    check(element, against: itemSchema, at: "\(path)[\(index)]", into: &problems)
                }
            }
        }
    }

    private static func has(type: String, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
        case ("number", .integer), ("number", .number), ("integer", .integer): return true
        case ("integer", .number(let v)): return v == v.rounded()  // 2.0 is an integer in JSON Schema
        default: return false
        }
    }
}

/// The project's own documentation covers the whole script API and is self-contained.
@Suite struct DocumentationTests {
    /// Every global, class method and callback `cardlua types` defines is named on
    /// docs/script-api.md.
    @Test func theScriptAPIPageNamesEveryName() throws {
        let page = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/script-api.md"), encoding: .utf8)
        let types = try CLI.run(["types"]).stdout
        var names: [String] = []
        for line in types.split(separator: "\n") {
            if line.hasPrefix("function ") {
                let signature = line.dropFirst("function ".count).prefix(while: { $0 != "(" })
                // `CATransform3D:rotate` is documented as `t:rotate`, a layout method as `layout:…`.
                names.append(String(signature.split(separator: ":").last ?? signature))
            } else if line.hasSuffix(" = nil"), !line.hasPrefix("-") {
                names.append(String(line.dropLast(" = nil".count)))
            }
        }
        #expect(names.count > 80)
        let missing = names.filter { !page.contains($0) }
        #expect(missing.isEmpty, "docs/script-api.md does not mention \(missing)")
    }

    /// No file in the repository cites documents that are not in it.
    @Test func nothingCitesADocumentOutsideTheRepository() throws {
        let root = CLI.packageRoot
        var offenders: [String] = []
        for folder in ["Sources", "Tests", "scripts", "docs"] {
            guard let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder),
                                                             includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in files where !url.hasDirectoryPath {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                // Spelled in two parts so that this file does not cite it either.
                if text.contains("design" + ".md") || text.contains("../" + "shared") { offenders.append(url.lastPathComponent) }
            }
        }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        if readme.contains("design" + ".md") { offenders.append("README.md") }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
