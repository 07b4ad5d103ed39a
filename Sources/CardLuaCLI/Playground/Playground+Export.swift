import CardExport
import CardServe

/// Export Swift: the `UICollectionViewFlowLayout` subclass `cardlua export` writes for
/// the effect in use, with the values its controls have now.
extension Playground {
    /// What ``export()`` answers: the Swift and its class's name, or the error alone.
    struct ExportAnswer: Codable, Equatable {
        var swift: String?
        var className: String?
        /// `file:line: export: …`, for a script the translator does not take.
        var error: String?
    }

    /// `GET /export`: the Swift `cardlua export` writes for the effect in use, with the
    /// values its sliders have now baked in: `{"swift": …, "className": …}`, or
    /// `{"error": "file:line: export: …"}` for a script the translator does not take.
    func export() -> HTTPResponse {
        var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
        for p in effect.params {
            switch p.value {
            case let .number(x): values[p.name] = x
            case let .boolean(b): switches[p.name] = b
            case let .option(text): if p.value != p.defaultValue { choices[p.name] = text }
            }
        }
        let name = Exporter.className(forFileName: scriptPath)
        do {
            let swift = try Exporter.export(source: goodSource, fileName: scriptPath, className: name, params: values,
                                            switches: switches, choices: choices)
            return .json(PlayJSON.text(ExportAnswer(swift: swift, className: name)))
        } catch {
            return .json(PlayJSON.text(ExportAnswer(error: error.description)))
        }
    }
}
