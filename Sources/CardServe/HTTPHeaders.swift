import Foundation

/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Order and spelling are kept as received (or as added); lookups ignore ASCII case,
/// so `headers["content-length"]` finds `Content-Length`.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields in order, names spelled as given.
    package private(set) var fields: [(name: String, value: String)]

    /// Empty headers, or the given fields in order.
    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The number of fields (a repeated name counts each time).
    package var count: Int { fields.count }

    /// The value of the first field called `name` (any case), or nil.
    package subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.name.lowercased() == key }?.value
    }

    /// Every value of the fields called `name` (any case), in order.
    package func values(for name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    /// Whether a field called `name` (any case) is present.
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any earlier ones with the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field called `name` (any case) by one field with this value.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    /// Removes every field called `name` (any case).
    package mutating func remove(_ name: String) {
        let key = name.lowercased()
        fields.removeAll { $0.name.lowercased() == key }
    }

    /// Whether the comma-separated field `name` lists `token` (any case), as in
    /// `Connection: keep-alive, Upgrade`.
    package func hasToken(_ token: String, in name: String) -> Bool {
        let wanted = token.lowercased()
        return values(for: name).contains { value in
            value.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == wanted
            }
        }
    }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Same fields, same order, same spelling.
    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
