import LuaSyntax

/// `cardlua export`'s entry point: a Lua effect script's text in, one Swift file out.
public enum Exporter {
    /// Translates a script into one self-contained Swift file: `import UIKit` and a
    /// `UICollectionViewFlowLayout` subclass (plus what it needs) that lays out and snaps as
    /// the script does. `params` overrides number tweakables (`--param k=v`) and
    /// `switches` on/off ones (`--param wrap=false`), by name; `choices` are overrides of
    /// tweakables with `options`, which export refuses (as it refuses their declaration).
    ///
    /// A construct the translator does not take is an `ExportError` at its line
    /// (`file:line: export: <construct> is not supported (why; what to write instead)`).
    ///
    /// `target` chooses the back end: `.swiftui` writes a SwiftUI carousel view instead
    /// (`className` is then the view's name, `--name`; nil derives it from the file name,
    /// lol.lua → LolCarousel), and its refusals say `export --swiftui`.
    public static func export(source: String, fileName: String, className: String?,
                              params: [String: Double], switches: [String: Bool] = [:],
                              choices: [String: String] = [:],
                              target: ExportTarget = .uikit) throws(ExportError) -> String {
        do {
            return try translate(source: source, fileName: fileName, className: className, params: params,
                                 switches: switches, choices: choices, target: target)
        } catch {
            var error = error
            error.target = target
            throw error
        }
    }

    private static func translate(source: String, fileName: String, className: String?,
                                  params: [String: Double], switches: [String: Bool],
                                  choices: [String: String], target: ExportTarget) throws(ExportError) -> String {
        let option = target == .uikit ? "--class" : "--name"
        if let className, let problem = classNameProblem(className) {
            throw ExportError(fileName: fileName, line: 1, message: "\(option): \(problem)")
        }
        let name: String
        switch target {
        case .uikit: name = className ?? Self.className(forFileName: fileName)
        case .swiftui: name = (className ?? Self.viewName(forFileName: fileName)) + "Layout"
        }
        let chunk: LuaChunk
        do {
            chunk = try parseLua(source, fileName: fileName)
        } catch {
            throw ExportError(fileName: error.fileName, line: error.line, message: error.message)
        }
        let translator = Translator(chunk: chunk, fileName: fileName, className: name, overrides: params)
        translator.target = target
        translator.switchOverrides = switches
        translator.choiceOverrides = choices
        translator.scriptNames = luaNameTokens(in: source)
        translator.sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        do {
            return try translator.run()
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(fileName: fileName, line: 1, message: "\(error)")
        }
    }

    /// Why `name` cannot name the exported class, or nil when it can: it must be a Swift
    /// identifier (ASCII letters, digits and `_`, not starting with a digit), and not a
    /// name taken already — a Swift keyword, a type of Swift, Foundation or UIKit (the file
    /// and the app use them: a class named so would hide them in the whole module), a name
    /// with the prefix of Apple's frameworks (`UI…`, `CG…`, `CA…`, `NS…`, `CF…`), or a
    /// name the exported file declares itself (its helpers).
    public static func classNameProblem(_ name: String) -> String? {
        let isIdentifier = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard isIdentifier else { return "expected a Swift type name, like LolLayout (got '\(name)')" }
        if SwiftText.keywords.contains(name) || SwiftText.unescapable.contains(name) {
            return "expected a Swift type name, like LolLayout (got '\(name)', a Swift keyword)"
        }
        let chars = Array(name)
        if SwiftText.typeNames.contains(name) || takenTypeNames.contains(name)
            || (chars.count > 2 && ["UI", "CG", "CA", "NS", "CF"].contains(String(chars[0...1])) && chars[2].isUppercase) {
            return "'\(name)' is taken (a type of Swift, Foundation or UIKit, or a name with the prefix of Apple's "
                + "frameworks: UI, CG, CA, NS, CF); choose another name, like \(name.hasSuffix("Layout") ? "My" + name : name + "Layout")"
        }
        if SwiftText.functionNames.contains(name) {
            return "'\(name)' is taken (the exported file declares or calls it); choose another name, like \(name)Layout"
        }
        return nil
    }

    /// Types of Swift's standard library and Foundation an app is likely to use, beyond
    /// those the exported file spells (``SwiftText/typeNames``).
    static let takenTypeNames: Set<String> = [
        "Character", "Dictionary", "Set", "Substring", "Error", "Result", "Int8", "Int16", "Int32", "Int64", "UInt",
        "UInt8", "UInt16", "UInt32", "UInt64", "Float16", "Float80", "Sequence", "Collection", "Range", "ClosedRange",
        "Equatable", "Hashable", "Comparable", "Codable", "Sendable", "Actor", "Task", "Data", "Date", "URL", "UUID",
        "IndexSet", "Decimal", "Notification", "Locale", "Calendar", "TimeInterval", "Bundle", "JSONEncoder",
        "JSONDecoder", "DispatchQueue", "ObjectIdentifier", "Unicode", "Mirror", "StaticString",
    ]

    /// The SwiftUI view's name derived from a file name: lol.lua → LolCarousel,
    /// card-scale.lua → CardScaleCarousel.
    public static func viewName(forFileName fileName: String) -> String {
        String(className(forFileName: fileName).dropLast("Layout".count)) + "Carousel"
    }

    /// The class name derived from a file name: lol.lua → LolLayout, card-scale.lua → CardScaleLayout,
    /// icarousel-coverflow2.lua → IcarouselCoverflow2Layout.
    public static func className(forFileName fileName: String) -> String {
        var base = Substring(fileName.split(separator: "/").last ?? "")
        if base.hasSuffix(".lua") { base = base.dropLast(4) }
        let parts = base.split(whereSeparator: { !($0.isLetter || $0.isNumber) || !$0.isASCII })
        var name = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.isEmpty { name = "Exported" }
        if name.first!.isNumber { name = "Script" + name }
        name += "Layout"
        // A name that is taken (UICollectionView.lua → UICollectionViewLayout, UIKit's) is not given.
        return classNameProblem(name) == nil ? name : "Script" + name
    }
}
