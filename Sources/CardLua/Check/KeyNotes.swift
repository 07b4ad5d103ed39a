/// A key a script wrote on `attributes` that the contract does not know (noted in check
/// mode), and the number of the item it was first written for.
struct AttributeKeyNote: Equatable {
    var key: String
    var item: Int
}

/// The unknown keys a state noted, worded (shared by `check` and `run`).
enum KeyNotes {
    /// One warning per unknown key, at the line that assigns it (else the callback's).
    static func unknownKeyWarnings(attributeKeys: [AttributeKeyNote], layoutKeys: [String],
                                   index: SourceIndex) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for note in attributeKeys {
            let key = note.key
            var message = "attributes.\(key) is not a field of attributes; cardlua ignores it (first written for item \(note.item))"
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
