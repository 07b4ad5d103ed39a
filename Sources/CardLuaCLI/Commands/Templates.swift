import Foundation

/// The starter scripts of `cardlua new`.
///
/// `lol`, `card-scale`, `photo-browser` and the contract-v2 examples `stacked-deck`,
/// `paging-layout` and `wrap-carousel` are the shipped `scripts/*.lua` themselves, and
/// the catalogue's ports are `scripts/effects/*.lua`, all embedded at build time
/// (Templates/embed.list); `blank` has every callback doing what UIKit does. `script(named:fileName:)` puts a header for newcomers on top and
/// `---@param` annotations on the callbacks, for the Lua language server.
enum Templates {
    /// A starter script: its name for `--from`, and its text.
    struct Template {
        var name: String
        var body: String
        /// One line: what it looks like.
        var summary: String
        /// Where it comes from: the library it ports (the catalogue's group), or cardlua.
        var source: String
        /// The `Source:` line of a catalogue script (library, version, file); nil for ours.
        var catalogueSource: String? = nil

        /// Where it comes from, as fully as known: the `Source:` line, or `source`.
        var sourceLine: String { catalogueSource ?? source }
    }

    /// The group of the seeds and of cardlua's own examples.
    static let seedSource = "cardlua's seeds"
    static let exampleSource = "cardlua's examples"

    /// Every template: the default (`blank`) first, then the seeds and the contract-v2
    /// examples in scripts/, then the catalogue (scripts/effects/).
    static let all: [Template] = [
        Template(name: "blank", body: blankTemplate,
                 summary: "every callback doing what UIKit does, with commented examples", source: exampleSource),
        Template(name: "lol", body: lolTemplate,
                 summary: "League of Legends skin picker: cards turn about y, up to 35°", source: seedSource),
        Template(name: "card-scale", body: cardScaleTemplate,
                 summary: "cards scale by cos(distance / width · π/4)", source: seedSource),
        Template(name: "photo-browser", body: photoBrowserTemplate,
                 summary: "photos shrink linearly away from the centre, paging", source: seedSource),
        // Contract v2: the layout's own element query, and a layout that wraps.
        Template(name: "stacked-deck", body: stackedDeckTemplate,
                 summary: "passed cards stay pinned in a stack (own element query)", source: exampleSource),
        Template(name: "paging-layout", body: pagingLayoutTemplate,
                 summary: "every frame is the visible rect; cards move themselves", source: exampleSource),
        Template(name: "wrap-carousel", body: wrapCarouselTemplate,
                 summary: "the cards repeat endlessly both ways (layout.wraps)", source: exampleSource),
    ] + Catalogue.effects.map {
        Template(name: $0.name, body: $0.text, summary: $0.summary, source: $0.library, catalogueSource: $0.source)
    }

    static func named(_ name: String) -> Template? { all.first { $0.name == name } }

    /// The text `cardlua new` writes for `template` into a file called `fileName`.
    static func script(_ template: Template, fileName: String) -> String {
        header(fileName: fileName, template: template) + "\n" + annotated(template.body)
    }

    /// What a newcomer needs to know, as Lua comments.
    static func header(fileName: String, template: Template) -> String {
        let origin = template.name == "blank" ? "" : " (started from the \"\(template.name)\" example)"
        // A Lua comment ends at a line break: the name, escaped, cannot end it early.
        let fileName = Echo.safe(fileName, limit: nil)
        return filling(headerTemplate, with: [
            "fileName": fileName, "origin": origin, "tryIt": tryIt(fileName),
        ])
    }

    /// `template` with each `{{name}}` replaced by `values[name]`, in one pass (a value
    /// that itself holds `{{…}}`, such as a file name, is left as it is).
    static func filling(_ template: String, with values: [String: String]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}"),
              let value = values[String(rest[open.upperBound..<close.lowerBound])] {
            out += rest[..<open.lowerBound] + value
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The "Try it" lines of the header, descriptions in one column.
    private static func tryIt(_ fileName: String) -> String {
        let lines = [
            ("cardlua play \(fileName)", "drag and flick it in the browser, live as you"),
            ("", "save; sliders for the params"),
            ("cardlua run \(fileName)", "the demo scroll, as a table"),
            ("cardlua run \(fileName) --offset 150", "one frame, at content offset 150"),
            ("cardlua watch \(fileName) -o preview.html", "open preview.html in a browser: it"),
            ("", "reloads itself whenever you save"),
            ("cardlua check \(fileName)", "call everything, list the problems"),
            ("cardlua help run", "every option"),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { command, what in
            "--   " + command + String(repeating: " ", count: width - command.count) + "  " + what
        }.joined(separator: "\n")
    }

    /// The parameter types of each callback, by position.
    static let callbackParameters: [String: [String]] = [
        "prepare": ["UICollectionViewFlowLayout"],
        "transform": ["UICollectionViewLayoutAttributes", "UICollectionViewFlowLayout"],
        "targetContentOffset": ["CGPoint", "CGPoint", "UICollectionViewFlowLayout"],
        "sizeForItem": ["IndexPath", "UICollectionViewFlowLayout"],
        "insetForSection": ["integer", "UICollectionViewFlowLayout"],
        "referenceSizeForHeader": ["integer", "UICollectionViewFlowLayout"],
        "referenceSizeForFooter": ["integer", "UICollectionViewFlowLayout"],
    ]

    /// `body` with `---@param` lines (and `---@return` for targetContentOffset) above each
    /// `function prepare(…)`, `transform(…)` and `targetContentOffset(…)` at the start of
    /// a line, using the script's own parameter names. Nothing else changes.
    static func annotated(_ body: String) -> String {
        var out: [Substring] = []
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("function "), let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"),
               open < close {
                let name = String(line[line.index(line.startIndex, offsetBy: 9)..<open])
                let alreadyAnnotated = out.last?.hasPrefix("---@") ?? false
                if let types = callbackParameters[name], !alreadyAnnotated {
                    let parameters = line[line.index(after: open)..<close].split(separator: ",")
                        .map { $0.trimmingCharacters(in: .whitespaces) }
                    for (parameter, type) in zip(parameters, types) where !parameter.isEmpty {
                        out.append("---@param \(parameter) \(type)")
                    }
                    if name == "targetContentOffset" { out.append("---@return CGPoint|number") }
                }
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// `.luarc.json`: points the Lua language server (LuaLS) at the definitions, with
    /// Lua 5.4 and the libraries the sandbox leaves out turned off.
    static let luarc = luarcTemplate
}
