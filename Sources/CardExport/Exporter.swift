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
    public static func export(source: String, fileName: String, className: String?,
                              params: [String: Double], switches: [String: Bool] = [:],
                              choices: [String: String] = [:]) throws(ExportError) -> String {
        let chunk: LuaChunk
        do {
            chunk = try parseLua(source, fileName: fileName)
        } catch {
            throw ExportError(fileName: error.fileName, line: error.line, message: error.message)
        }
        let translator = Translator(chunk: chunk, fileName: fileName,
                                    className: className ?? Self.className(forFileName: fileName),
                                    overrides: params)
        translator.switchOverrides = switches
        translator.choiceOverrides = choices
        translator.sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        do {
            return try translator.run()
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(fileName: fileName, line: 1, message: "\(error)")
        }
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
        return name + "Layout"
    }
}
