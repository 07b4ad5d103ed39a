/// The unknown keys a state noted, read and worded (shared by `check` and `run`).
enum KeyNotes {
    /// "key<TAB>item" lines → (key, item).
    static func attributeKeys(_ text: String) -> [(key: String, item: String)] {
        text.split(separator: "\n").compactMap { entry in
            let fields = entry.split(separator: "\t", maxSplits: 1).map(String.init)
            guard let key = fields.first else { return nil }
            return (key, fields.count > 1 ? fields[1] : "?")
        }
    }

    /// One "layout.itemsize" per line.
    static func layoutKeys(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// One warning per unknown key, at the line that assigns it (else the callback's).
    static func unknownKeyWarnings(attributeKeys: [(key: String, item: String)], layoutKeys: [String],
                                   index: SourceIndex) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (key, item) in attributeKeys {
            var message = "attributes.\(key) is not a field of attributes; cardlua ignores it (first written for item \(item))"
            if let guess = Suggest.closest(to: key, in: Suggest.attributeKeys) { message += " — did you mean \(guess)?" }
            let line = index.assignment(to: key) ?? index.definition(of: "transform")
            found.append(Diagnostic(line: line, message: message, severity: .warning))
        }
        for path in layoutKeys {
            let parts = path.split(separator: ".").map(String.init)
            let key = parts.last ?? path
            let onCollectionView = parts.count > 2
            var message = onCollectionView
                ? "\(path) is not a property cardlua reads; it is ignored"
                : "\(path) is not a flow layout property cardlua knows; it is ignored"
            let known = onCollectionView ? Suggest.collectionViewKeys : Suggest.layoutKeys
            if let guess = Suggest.closest(to: key, in: known) {
                message += " — did you mean \(onCollectionView ? "layout.collectionView." : "layout.")\(guess)?"
            }
            let line = index.assignment(to: key) ?? index.definition(of: "prepare")
            found.append(Diagnostic(line: line, message: message, severity: .warning))
        }
        return found
    }
}
