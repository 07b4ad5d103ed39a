import CardExport
import CardLayout
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
    /// `GET /export?target=swiftui`: `cardlua export --swiftui`'s view instead (`className`
    /// is the view's name; errors say `export --swiftui`).
    func export(target: ExportTarget) -> HTTPResponse {
        var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
        for p in effect.params {
            switch p.value {
            case let .number(x): values[p.name] = x
            case let .boolean(b): switches[p.name] = b
            case let .option(text): if p.value != p.defaultValue { choices[p.name] = text }
            }
        }
        let name = target == .uikit ? Exporter.className(forFileName: scriptPath) : Exporter.viewName(forFileName: scriptPath)
        do {
            if target == .swiftui {
                try ExportCommand.checkOneCardALine(goodSource, path: scriptPath, params: values.mapValues(ParamSetting.number)
                    .merging(switches.mapValues(ParamSetting.boolean)) { a, _ in a })
            }
            let swift = try Exporter.export(source: goodSource, fileName: scriptPath, className: name, params: values,
                                            switches: switches, choices: choices, target: target)
            return .json(PlayJSON.text(ExportAnswer(swift: swift, className: name)))
        } catch let failure as RunFailure {
            return .json(PlayJSON.text(ExportAnswer(error: failure.message)))
        } catch {
            return .json(PlayJSON.text(ExportAnswer(error: String(describing: error))))
        }
    }
}
