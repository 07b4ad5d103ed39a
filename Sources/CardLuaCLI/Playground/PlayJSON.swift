import Foundation

/// How `play` writes a JSON answer (``PlayState``, Export Swift, Record, the picker's
/// list): `JSONEncoder`, keys in name order (the same text for the same value, whatever
/// the platform's dictionaries do), `/` as itself. The page reads every answer with
/// `JSON.parse`; none is put into the page's HTML, which is served on its own.
enum PlayJSON {
    /// `value` as JSON text.
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The answers hold strings, whole numbers and finite doubles only (PlayState
        // writes NaN and the infinities as 0), which JSONEncoder never refuses.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
