import CardLayout
import CardLua
import Foundation

/// Runs a script through every callback for the safety tests (Sandbox, Limit, Fuzz,
/// Memory): load, prepare, one frame of transform, then targetContentOffset.
enum Safety {
    static let viewport = Size(width: 400, height: 600)

    /// What a run produced, or how it failed, and how long it took.
    struct Outcome {
        var items: [LayoutAttributes] = []
        var target: Point?
        var error: ScriptError?
        var seconds: Double = 0

        /// The failure, for tests that expect one (a success becomes a recognisable error).
        var failure: ScriptError {
            error ?? ScriptError(kind: .failed, message: "(the script succeeded)")
        }
    }

    /// The default limits, but a generous clock: tests about other limits must not race
    /// the time limit on a loaded machine (or under AddressSanitizer). Tests of the time
    /// limit set their own.
    static let limits = ScriptLimits(maxTime: 30)

    /// Loads `source` as `name`, then runs prepare, transform over `items` items at
    /// `offset`, and targetContentOffset (a fling with velocity 2 pt/ms), stopping at the
    /// first error.
    static func run(_ source: String, name: String = "hostile.lua", limits: ScriptLimits = Safety.limits,
                    items: Int = 5, offset: Double = 0) -> Outcome {
        var outcome = Outcome()
        let start = Date()
        defer { outcome.seconds = Date().timeIntervalSince(start) }
        do {
            let effect = try LuaEffect(source: source, chunkName: name, limits: limits)
            try exercise(effect, items: items, offset: offset, into: &outcome)
        } catch let error as ScriptError {
            outcome.error = error
        } catch {
            outcome.error = ScriptError(kind: .failed, message: "unexpected error: \(error)")
        }
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }

    /// prepare, one frame, targetContentOffset on an effect already loaded.
    static func exercise(_ effect: LuaEffect, items: Int = 5, offset: Double = 0,
                         into outcome: inout Outcome) throws {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport,
                                numberOfItemsInSections: [items])
        let bounds = Rect(x: offset, y: 0, width: viewport.width, height: viewport.height)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize)
        try effect.transform(&attributes, layout: layout, context: context)
        outcome.items = attributes
        outcome.target = try effect.targetContentOffset(proposed: Point(x: offset + 300, y: 0),
                                                        velocity: Point(x: 2, y: 0),
                                                        layout: layout, context: context)
    }

    /// One frame of `effect` over `items` items at offset 0, prepared first.
    static func frame(_ effect: LuaEffect, items: Int) throws -> [LayoutAttributes] {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport,
                                numberOfItemsInSections: [items])
        let bounds = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&attributes, layout: layout,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        return attributes
    }

    /// Whether `message` is one line that starts `name:LINE: ` (the contract of every
    /// script error, README.md).
    static func isLocated(_ message: String, name: String = "hostile.lua") -> Bool {
        guard !message.contains("\n"), message.hasPrefix(name + ":") else { return false }
        let rest = message.dropFirst(name.count + 1)
        let digits = rest.prefix(while: \.isNumber)
        return !digits.isEmpty && rest.dropFirst(digits.count).hasPrefix(": ")
    }
}
