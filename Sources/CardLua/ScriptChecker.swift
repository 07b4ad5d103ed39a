import CardLayout
import Foundation

/// One problem `cardlua check` found in a script.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is. An error makes `cardlua check` exit with status 1; a warning too
    /// with `--strict`.
    package enum Severity: String, Sendable {
        /// The script fails, or produces a value that breaks the contract (NaN, infinity).
        case error
        /// The script runs, but very likely not as its author meant (a misspelled field or
        /// callback, an alpha outside 0…1).
        case warning
    }

    /// The line in the script, 1-based; nil when the problem has no place in the source
    /// (the file cannot be read).
    package var line: Int?
    /// One line, without the file and line prefix: `transform: item 2: attempt to …`.
    package var message: String
    package var severity: Severity
    /// Further lines (the script's own traceback), possibly empty.
    package var details: String
    /// How many times `check` met this problem (in as many frames or calls): one line
    /// says it once, with the count.
    package var occurrences = 1
    /// What a repeat is counted in: "frames" for the per-frame callbacks, else "calls".
    package var unit = "calls"

    package init(line: Int?, message: String, severity: Severity, details: String = "") {
        self.line = line
        self.message = message
        self.severity = severity
        self.details = details
    }

    /// `file:line: message`, with `warning: ` before the message of a warning and, for a
    /// problem met more than once, how often (`(in 12 frames)`).
    package func formatted(file: String) -> String {
        let place = line.map { "\(file):\($0): " } ?? "\(file): "
        let repeated = occurrences > 1 ? " (in \(occurrences) \(unit))" : ""
        return place + (severity == .warning ? "warning: " : "") + message + repeated
    }

    package var description: String { formatted(file: "script") }
}

/// `cardlua check`: loads a script and exercises every callback the way the runner would,
/// and more (two viewports, both ends of the content and a little past them, flings both
/// ways), collecting every problem instead of stopping at the first.
///
/// What it finds: load and runtime errors (each once per callback and place, with the
/// script's traceback), limit errors (the callback is then left out and the others are
/// checked on a fresh state), NaN or infinite values, alpha outside 0…1, keys written on
/// `attributes` or `layout` that the contract does not know (with a "did you mean"),
/// transform results computed and dropped (`t:rotate(…)` as a statement), globals that
/// look like a misspelled callback (`tranform`, `Prepare`), and broken `scenarios` tables.
package struct ScriptChecker {
    /// The viewports `prepare` is called for: a phone and a tablet, portrait.
    package static let viewports = [Size(width: 414, height: 736), Size(width: 768, height: 1024)]
    /// Items in section 0 while checking.
    package static let numberOfItems = 20

    /// Checks the script at `path`; an empty result means no problems.
    package static func check(path: String, limits: ScriptLimits = ScriptLimits(),
                              layoutDirection: UserInterfaceLayoutDirection = .leftToRight) -> [Diagnostic] {
        (try? check(path: path, limits: limits, params: [], layoutDirection: layoutDirection)) ?? []
    }

    /// Checks the script at `path` with its tweakables set to `params` (`--param`) in
    /// every state it loads; an override the script does not declare, or out of its
    /// range, is thrown (wrong usage, not a problem of the script).
    package static func check(path: String, limits: ScriptLimits = ScriptLimits(),
                              params: [(name: String, text: String)],
                              layoutDirection: UserInterfaceLayoutDirection = .leftToRight,
                              viewport: Size? = nil) throws(ParamOverrideError) -> [Diagnostic] {
        let source: String
        do {
            source = try ScriptFile.read(path: path)
        } catch {
            // The reason without the path (a diagnostic is shown under it).
            let reason = error.message.hasPrefix(path + ": ") ? String(error.message.dropFirst(path.count + 2)) : error.message
            return [Diagnostic(line: nil, message: reason, severity: .error)]
        }
        let session = CheckSession(source: source, chunkName: path, limits: limits)
        session.overrides = params
        session.layoutDirection = layoutDirection
        if let viewport, !session.viewports.contains(viewport) { session.viewports.append(viewport) }
        session.run()
        if let refused = session.refusedOverride { throw refused }
        return session.finish()
    }

    /// The warnings `run` and `watch` print after a run of `effect` (loaded from `path`):
    /// the keys written on `attributes` or `layout` that the contract does not know (as
    /// far as the frames noted saw them: set `keyNoteInterval` before the run), and
    /// transform results computed and dropped. Each once, by line.
    package static func warnings(after effect: LuaEffect, path: String) -> [Diagnostic] {
        let source = effect.source  // the text that ran (the file may have changed since)
        let locator = SourceLocator(source: source)
        let attributeKeys = (try? effect.internalString("attributeNotes")).map(Notes.attributeKeys) ?? []
        let layoutKeys = (try? effect.internalString("layoutNotes")).map(Notes.layoutKeys) ?? []
        let found = CheckSession.misspelledGlobals(effect, locator: locator)
            + Notes.unknownKeyWarnings(attributeKeys: attributeKeys, layoutKeys: layoutKeys, locator: locator)
            + droppedResults(in: source)
        return found.enumerated().sorted { a, b in
            let la = a.element.line ?? 0, lb = b.element.line ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
    }

    /// Statements that compute a transform and drop it — `t:rotate(…)` or
    /// `CATransform3DScale(t, …)` alone, whose value is a new transform — as warnings.
    /// A source scan: a statement (at the start of a line that does not continue the one
    /// before, or after `;`, `then`, `do`, `else`) that is only such a call.
    package static func droppedResults(in source: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var previous = ""
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = DroppedResultScanner.code(of: rawLine)
            defer { if !DroppedResultScanner.isBlank(line) { previous = line } }
            // Most lines call no transform function: they skip the scan.
            guard DroppedResultScanner.mayHoldCall(line) else { continue }
            let before = previous
            lazy var continues = DroppedResultScanner.continues(before)
            let scalars = Array(line.unicodeScalars)
            for call in DroppedResultScanner.calls(in: line) {
                // A call at the start of a line may be the tail of the previous line's
                // expression (`t = a +⏎ CATransform3D…`): then its value is used.
                if scalars[..<call.start].allSatisfy(DroppedResultScanner.isSpace) && continues { continue }
                let message: String
                if let receiver = call.receiver, let method = call.method {
                    message = "\(receiver):\(method)(…) returns a new transform and leaves \(receiver) as it was; "
                        + "its result is dropped (write \(receiver) = \(receiver):\(method)(…))"
                } else if let name = call.function {
                    message = "\(name)(…) returns a new value and changes nothing; its result is dropped "
                        + "(assign it, like t = \(name)(t, …))"
                } else { continue }
                found.append(Diagnostic(line: index + 1, message: message, severity: .warning))
            }
        }
        return found
    }

    /// How many items sit side by side across the scroll axis at the start: the rows of
    /// a horizontal flow, the columns of a vertical one.
    package static func linesAcross(_ layout: FlowLayout) -> Int {
        let horizontal = layout.configuration.scrollDirection == .horizontal
        let first = layout.layoutAttributesForElements(in: Rect(origin: .zero, size: layout.viewportSize))
            .filter { $0.indexPath.section == 0 }
        guard let leader = first.first else { return 0 }
        // The items of the first line share its position along the scroll axis.
        let along = horizontal ? leader.center.x : leader.center.y
        return first.filter { abs((horizontal ? $0.center.x : $0.center.y) - along) < 1e-6 }.count
    }

    /// Why a flow lays out several lines across its scroll axis, and what keeps one — as
    /// UIKit's flow fills a line while items fit: `horizontal flow lays out 3 rows at
    /// 820×1180 (1 at 414×736): itemSize.height 380 ≤ (1180 − insets 0)/2; raise
    /// sectionInset.top/bottom to keep one row` (the part in parentheses with `oneLineAt`).
    package static func severalLinesNote(lines: Int, viewport: Size, configuration c: FlowLayoutConfiguration,
                                         oneLineAt first: Size? = nil) -> String {
        let horizontal = c.scrollDirection == .horizontal
        let n = Suggest.number
        let (extent, item, low, high) = horizontal
            ? (viewport.height, c.itemSize.height, c.sectionInset.top, c.sectionInset.bottom)
            : (viewport.width, c.itemSize.width, c.sectionInset.left, c.sectionInset.right)
        let compared = first.map { " (1 at \(n($0.width))×\(n($0.height)))" } ?? ""
        return "\(horizontal ? "horizontal" : "vertical") flow lays out \(lines) \(horizontal ? "rows" : "columns") at "
            + "\(n(viewport.width))×\(n(viewport.height))\(compared): "
            + "itemSize.\(horizontal ? "height" : "width") \(n(item)) ≤ (\(n(extent)) − insets \(n(low + high)))/2; "
            + "raise sectionInset.\(horizontal ? "top/bottom" : "left/right") to keep one \(horizontal ? "row" : "column")"
    }

    /// Checks `source`, shown in messages as `chunkName`; an empty result means no problems.
    package static func check(source: String, chunkName: String,
                             limits: ScriptLimits = ScriptLimits(),
                             layoutDirection: UserInterfaceLayoutDirection = .leftToRight) -> [Diagnostic] {
        let session = CheckSession(source: source, chunkName: chunkName, limits: limits)
        session.layoutDirection = layoutDirection
        session.run()
        return session.finish()
    }
}

// MARK: - The session

/// One check run: the current Lua state (replaced after a limit error), what has been
/// found, and what has been noted along the way.
private final class CheckSession {
    let source: String
    let chunkName: String
    let limits: ScriptLimits
    let locator: SourceLocator
    /// `--param` values, set in every state loaded.
    /// `--param NAME=TEXT` as written: read as each param's kind takes it once loaded.
    var overrides: [(name: String, text: String)] = []
    /// An override the script refused (the check then stops).
    private(set) var refusedOverride: ParamOverrideError?

    private var effect: LuaEffect?
    /// Callbacks left out after a limit error (they would only hit it again).
    private var stopped: Set<String> = []
    /// The viewport the current state was last prepared for (a fresh state is prepared
    /// again before it is used).
    private var viewport = ScriptChecker.viewports[0]
    private var needsPrepare = false

    private var diagnostics: [Diagnostic] = []
    /// Each problem recorded, by its key: its index in ``diagnostics``.
    private var seenErrors: [String: Int] = [:]
    private var attributeKeys: [(key: String, item: String)] = []
    private var layoutKeys: [String] = []
    private var alpha: AlphaFinding?

    /// `--rtl`: the direction every `prepare` is given.
    var layoutDirection = UserInterfaceLayoutDirection.leftToRight

    init(source: String, chunkName: String, limits: ScriptLimits) {
        self.source = source
        self.chunkName = chunkName
        self.limits = limits
        self.locator = SourceLocator(source: source)
    }

    /// The viewports to check in: the two defaults, then `--viewport`'s if another.
    var viewports = ScriptChecker.viewports
    /// Lines across the scroll axis (rows of a horizontal flow, columns of a vertical
    /// one) at each viewport checked, with what decided them.
    private var lineCounts: [(viewport: Size, lines: Int, configuration: FlowLayoutConfiguration)] = []

    func run() {
        guard let first = load() else { return }
        effect = first
        checkGlobals(first)
        for size in viewports {
            viewport = size
            let configuration = prepare()
            // The per-item and per-section callbacks (sizeForItem, insetForSection, …),
            // their values checked as run checks them.
            let counts = [ScriptChecker.numberOfItems]
            let metrics = Self.metricsCallbacksDefined(effect)
                ? call("sizeForItem") { effect in
                    try effect.flowLayoutMetrics(configuration: configuration, viewportSize: size, numberOfItems: counts)
                } ?? nil
                : nil
            let layout = FlowLayout(configuration: configuration, viewportSize: size,
                                    numberOfItemsInSections: counts, metrics: metrics)
            lineCounts.append((size, ScriptChecker.linesAcross(layout), configuration))
            sweep(layout)
            fling(layout)
            harvestNotes()
        }
        checkScenarios()
        harvestNotes()
    }


    /// A carousel that becomes a grid at another viewport: one line across the scroll axis
    /// at the first viewport and several at another (one warning per such viewport). UIKit does the same (a flow fills a
    /// line while items fit), which is why a tall preset silently shows 2–3 rows; this
    /// says why, and what keeps one.
    private func checkLineCounts() {
        guard let first = lineCounts.first, first.lines == 1 else { return }
        for entry in lineCounts.dropFirst() where entry.lines > 1 {
            let message = ScriptChecker.severalLinesNote(lines: entry.lines, viewport: entry.viewport,
                                                        configuration: entry.configuration, oneLineAt: first.viewport)
            let line = locator.assignment(to: "sectionInset") ?? locator.assignment(to: "itemSize") ?? locator.definition(of: "prepare")
            diagnostics.append(Diagnostic(line: line, message: message, severity: .warning))
        }
    }

    func finish() -> [Diagnostic] {
        checkLineCounts()
        diagnostics += Notes.unknownKeyWarnings(attributeKeys: attributeKeys, layoutKeys: layoutKeys, locator: locator)
        diagnostics += ScriptChecker.droppedResults(in: source)
        if let alpha {
            let times = alpha.count == 1 ? "once" : "\(alpha.count) times"
            let message = "transform: item \(alpha.item): attributes.alpha = \(Suggest.number(alpha.value)) is outside 0…1 "
                + "(at offset \(Suggest.number(alpha.offset)) in \(Suggest.number(alpha.viewport.width))x\(Suggest.number(alpha.viewport.height)); "
                + "\(times) in the sweep); UIKit clamps it"
            let line = locator.assignment(to: "alpha") ?? locator.definition(of: "transform")
            diagnostics.append(Diagnostic(line: line, message: message, severity: .warning))
        }
        // By line, keeping the order found within a line (a stable sort).
        return diagnostics.enumerated().sorted { a, b in
            let la = a.element.line ?? 0, lb = b.element.line ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Steps

    /// A fresh state with the script loaded and check mode on, or nil (the error recorded).
    private func load() -> LuaEffect? {
        do {
            let loaded = try LuaEffect(source: source, chunkName: chunkName, limits: limits)
            loaded.setCheckMode(true)
            do {
                try loaded.setParams(LuaEffect.parseParams(overrides, against: loaded.params))
            } catch {
                refusedOverride = error
                return nil
            }
            return loaded
        } catch {
            record(error)
            return nil
        }
    }

    /// Globals that look like a callback with a typo: cardlua never calls them.
    private func checkGlobals(_ effect: LuaEffect) {
        diagnostics += Self.misspelledGlobals(effect, locator: locator)
    }

    /// The script's globals that look like a callback (or `scenarios`, `params`) with a
    /// typo, as warnings: `run`, `watch` and `play` print them too, since a misspelt
    /// `tranform` otherwise runs cleanly with flat cards.
    static func misspelledGlobals(_ effect: LuaEffect, locator: SourceLocator) -> [Diagnostic] {
        guard let text = try? effect.internalString("userGlobals"), !text.isEmpty else { return [] }
        var found: [Diagnostic] = []
        for entry in text.split(separator: "\n") {
            let fields = entry.split(separator: "\t").map(String.init)
            guard fields.count == 2 else { continue }
            let (name, type) = (fields[0], fields[1])
            guard let intended = Suggest.misspelledCallback(name, type: type) else { continue }
            let message = type == "function"
                ? "function '\(name)' is never called by cardlua — did you mean \(intended)?"
                : "global '\(name)' is never read by cardlua — did you mean \(intended)?"
            found.append(Diagnostic(line: locator.definition(of: name), message: message, severity: .warning))
        }
        return found
    }

    /// `prepare` for the current viewport; the configuration it set, or UIKit's defaults
    /// when it failed (so that the other callbacks are still checked).
    private func prepare() -> FlowLayoutConfiguration {
        needsPrepare = false
        let size = viewport
        return call("prepare") { effect in
            var configuration = FlowLayoutConfiguration()
            configuration.layoutDirection = layoutDirection
            try effect.prepare(&configuration, viewportSize: size, numberOfItemsInSections: [ScriptChecker.numberOfItems])
            return configuration
        } ?? FlowLayoutConfiguration()
    }

    /// The element query (`layoutAttributesForElements`, when the script defines it) and
    /// `transform` at both ends, a little past them, and three offsets between.
    private func sweep(_ layout: FlowLayout) {
        let elementQuery = "layoutAttributesForElements"
        guard defines("transform") || defines(elementQuery) else { return }
        let axis = Axis(layout.configuration.scrollDirection)
        let extent = axis.value(of: layout.viewportSize)
        let maximum = axis.value(of: layout.maximumContentOffset)
        let offsets = [-0.15 * extent, 0, maximum / 4, maximum / 2, maximum * 3 / 4, maximum, maximum + 0.15 * extent]
        for (index, offset) in offsets.enumerated() {
            let bounds = Rect(origin: axis.point(offset), size: layout.viewportSize)
            let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize,
                                        time: Double(index) / 10)
            var attributes = layout.layoutAttributesForElements(in: bounds)
            if defines(elementQuery) {
                let elements: [LayoutAttributes]?? = call(elementQuery) { effect in
                    try effect.layoutAttributesForElements(in: bounds, layout: layout, context: context)
                }
                guard let elements else { continue }  // failed: recorded; transform needs its elements
                if let elements { attributes = elements }
            }
            guard defines("transform") else { continue }
            let done: Bool? = call("transform") { effect in
                try effect.transform(&attributes, layout: layout, context: context)
                return true
            }
            guard done == true else {
                if stopped.contains("transform") { return }
                continue
            }
            inspect(attributes, offset: offset, viewport: layout.viewportSize)
        }
    }

    /// `targetContentOffset` for flings both ways: from the middle, and towards each end.
    private func fling(_ layout: FlowLayout) {
        guard defines("targetContentOffset") else { return }
        let axis = Axis(layout.configuration.scrollDirection)
        let maximum = axis.value(of: layout.maximumContentOffset)
        let rate = layout.configuration.decelerationRate.rawValue
        let releases: [(from: Double, velocity: Double)] = [
            (maximum / 2, 2), (maximum / 2, -2), (maximum / 2, 0.3), (0, -1.5), (maximum, 1.5),
        ]
        for release in releases {
            let proposed = ScrollPhysics.proposedOffset(from: release.from, velocity: release.velocity,
                                                        rate: rate, range: 0...max(0, maximum))
            let bounds = Rect(origin: axis.point(release.from), size: layout.viewportSize)
            let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize,
                                        isDragging: true)
            let result: Point? = call("targetContentOffset") { effect in
                try effect.targetContentOffset(proposed: axis.point(proposed), velocity: axis.point(release.velocity),
                                               layout: layout, context: context)
            }
            if let result, !(result.x.isFinite && result.y.isFinite) {
                recordOnce(Diagnostic(line: locator.definition(of: "targetContentOffset"),
                                      message: "targetContentOffset: returned a point that is not finite (\(result.x), \(result.y))",
                                      severity: .error))
            }
            if stopped.contains("targetContentOffset") { return }
        }
    }

    /// Every scenario in the script's `scenarios` table, read and validated (not run).
    /// Each is read the way `run` reads it: from a state just loaded, before any callback
    /// (a scenario table's metamethods may behave differently after them).
    private func checkScenarios() {
        guard let listing = load(), let names = try? listing.scenarioNames() else { return }
        for name in names {
            do {
                let effect = try LuaEffect(source: source, chunkName: chunkName, limits: limits)
                let scenario = try effect.scenario(named: name, defaults: Scenario(name: name, steps: []))
                try scenario.validate()
            } catch let error as ScriptError {
                record(error, line: locator.scenario(named: name))
            } catch {
                recordOnce(Diagnostic(line: locator.scenario(named: name), message: "\(error)", severity: .error))
            }
        }
    }

    // MARK: Values

    private func inspect(_ attributes: [LayoutAttributes], offset: Double, viewport: Size) {
        for item in attributes {
            let m = item.transform3D
            let numbers = [item.center.x, item.center.y, item.size.width, item.size.height,
                           m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                           m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44, item.alpha]
            if numbers.contains(where: { !$0.isFinite }) {
                recordOnce(Diagnostic(line: locator.definition(of: "transform"),
                                      message: "transform: item \(item.indexPath.item): a value is NaN or infinite",
                                      severity: .error),
                           key: "transform: a value is NaN or infinite")
            }
            if item.alpha < 0 || item.alpha > 1 {
                if alpha == nil {
                    alpha = AlphaFinding(item: item.indexPath.item, value: item.alpha, offset: offset,
                                         viewport: viewport, count: 0)
                }
                alpha?.count += 1
            }
        }
    }

    // MARK: Calls and errors

    /// Whether to call `callback` at all. A script without it is still called: the host's
    /// default stands in, and a non-function under that name is an error worth reporting.
    private func defines(_ callback: String) -> Bool {
        !stopped.contains(callback) && currentEffect() != nil
    }

    /// The state to call into: the current one, or a fresh one (prepared for the current
    /// viewport) after a limit error discarded it.
    private func currentEffect() -> LuaEffect? {
        if let effect { return effect }
        guard let fresh = load() else { return nil }
        effect = fresh
        if needsPrepare, !stopped.contains("prepare") {
            var configuration = FlowLayoutConfiguration()
            configuration.layoutDirection = layoutDirection
            do {
                try fresh.prepare(&configuration, viewportSize: viewport,
                                  numberOfItemsInSections: [ScriptChecker.numberOfItems])
            } catch { record(error) }
        }
        return effect
    }

    /// Runs one callback; records its error and returns nil when it fails. After a limit
    /// error the state is dropped (its notes kept) and the callback is left out from then on.
    /// Whether the script defines any of the metrics callbacks (`sizeForItem`, …).
    private static func metricsCallbacksDefined(_ effect: LuaEffect?) -> Bool {
        guard let effect else { return false }
        return LuaEffect.metricsCallbacks.contains { effect.definesFunction($0) }
    }

    private func call<T>(_ callback: String, _ body: (LuaEffect) throws -> T) -> T? {
        guard !stopped.contains(callback), let effect = currentEffect() else { return nil }
        do {
            return try body(effect)
        } catch let error as ScriptError {
            record(error)
            if error.kind == .limit {
                harvestNotes()
                stopped.insert(callback)
                self.effect = nil
                needsPrepare = callback != "prepare"
            }
            return nil
        } catch {
            recordOnce(Diagnostic(line: locator.definition(of: callback), message: "\(callback): \(error)", severity: .error))
            return nil
        }
    }

    private func record(_ error: Error, line: Int? = nil) {
        guard let error = error as? ScriptError else {
            recordOnce(Diagnostic(line: line, message: "\(error)", severity: .error))
            return
        }
        // An error from the host always had a line (1 when none of the script applied).
        var found = line ?? error.line ?? (error.file != nil ? 1 : nil)
        // A NaN or infinity caught after the call points at the callback's first line; the
        // assignment that wrote it is more use.
        if let key = error.field, let assigned = locator.assignment(to: key) { found = assigned }
        // The same problem on another item, or with another value, counts once: the key
        // leaves the item out and every number of the text.
        var diagnostic = Diagnostic(line: found, message: error.unlocated, severity: .error, details: error.details)
        if let callback = error.callback, Self.perFrameCallbacks.contains(callback) { diagnostic.unit = "frames" }
        recordOnce(diagnostic, key: "\(error.callback ?? ""): \(Self.withoutNumbers(error.text))")
    }

    /// The callbacks `check` calls once per frame of its sweep.
    static let perFrameCallbacks: Set<String> = ["transform", "layoutAttributesForElements"]

    /// `text` with every number replaced by `#`, so that one problem met with other values
    /// (`zIndex is 14.28…`, `… is 74.28…`) is recognised as the same.
    static func withoutNumbers(_ text: String) -> String {
        var result = ""
        var inNumber = false
        for character in text {
            let numeric = character.isNumber || (inNumber && (character == "." || character == "e" || character == "-"))
            if numeric {
                if !inNumber { result.append("#") }
                inNumber = true
            } else {
                inNumber = false
                result.append(character)
            }
        }
        return result
    }

    /// Adds `diagnostic` unless the same problem (same line, same `key`, by default the
    /// message) is already there; then it counts one more occurrence of that one.
    private func recordOnce(_ diagnostic: Diagnostic, key: String? = nil) {
        let key = "\(diagnostic.line ?? 0)|" + (key ?? diagnostic.message)
        if let index = seenErrors[key] {
            diagnostics[index].occurrences += 1
            return
        }
        seenErrors[key] = diagnostics.count
        diagnostics.append(diagnostic)
    }

    /// Collects the keys noted by the current state so far.
    private func harvestNotes() {
        guard let effect else { return }
        if let text = try? effect.internalString("attributeNotes") {
            for entry in Notes.attributeKeys(text) where !attributeKeys.contains(where: { $0.key == entry.key }) {
                attributeKeys.append(entry)
            }
        }
        if let text = try? effect.internalString("layoutNotes") {
            for path in Notes.layoutKeys(text) where !layoutKeys.contains(path) { layoutKeys.append(path) }
        }
    }
}

/// The unknown keys a state noted, read and worded (shared by `check` and `run`).
private enum Notes {
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
                                   locator: SourceLocator) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (key, item) in attributeKeys {
            var message = "attributes.\(key) is not a field of attributes; cardlua ignores it (first written for item \(item))"
            if let guess = Suggest.closest(to: key, in: Suggest.attributeKeys) { message += " — did you mean \(guess)?" }
            let line = locator.assignment(to: key) ?? locator.definition(of: "transform")
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
            let line = locator.assignment(to: key) ?? locator.definition(of: "prepare")
            found.append(Diagnostic(line: line, message: message, severity: .warning))
        }
        return found
    }
}

/// The first alpha outside 0…1, and how often it happened.
private struct AlphaFinding {
    var item: Int
    var value: Double
    var offset: Double
    var viewport: Size
    var count: Int
}

/// The scroll axis of a layout.
private struct Axis {
    let horizontal: Bool
    init(_ direction: ScrollDirection) { horizontal = direction == .horizontal }
    func value(of size: Size) -> Double { horizontal ? size.width : size.height }
    func value(of point: Point) -> Double { horizontal ? point.x : point.y }
    func point(_ value: Double) -> Point { horizontal ? Point(x: value, y: 0) : Point(x: 0, y: value) }
}

// MARK: - Finding lines in the source

/// Finds where in the source a name is defined or a field assigned (by text: good enough
/// to point an author at the right line).
struct SourceLocator {
    let lines: [Substring]

    init(source: String) {
        lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The first line that assigns `.key = …` or `["key"] = …` (not `==`), outside comments.
    func assignment(to key: String) -> Int? {
        firstLine { code in
            for pattern in [".\(key)", "[\"\(key)\"]", "['\(key)']"] {
                var searchRange = code.startIndex..<code.endIndex
                while let found = code.range(of: pattern, range: searchRange) {
                    searchRange = found.upperBound..<code.endIndex
                    // Not a longer name (`.alphaValue` is not `.alpha`).
                    if let next = code[found.upperBound...].first, next.isLetter || next.isNumber || next == "_" { continue }
                    let after = code[found.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                    if after.hasPrefix("="), !after.hasPrefix("==") { return true }
                }
            }
            return false
        }
    }

    /// The line of `function name(` or `name = …` at the start of a line.
    func definition(of name: String) -> Int? {
        firstLine { code in
            let trimmed = code.drop(while: { $0 == " " || $0 == "\t" })
            for prefix in ["function \(name)", "\(name)"] where trimmed.hasPrefix(prefix) {
                let after = trimmed.dropFirst(prefix.count).drop(while: { $0 == " " || $0 == "\t" })
                if prefix.hasPrefix("function") ? after.hasPrefix("(") : (after.hasPrefix("=") && !after.hasPrefix("==")) {
                    return true
                }
            }
            return false
        }
    }

    /// Where the scenario `name` is defined, or the `scenarios` table.
    func scenario(named name: String) -> Int? {
        firstLine { code in
            let trimmed = code.drop(while: { $0 == " " || $0 == "\t" })
            return trimmed.hasPrefix("\(name) =") || trimmed.hasPrefix("\(name)=") || trimmed.hasPrefix("[\"\(name)\"]")
        } ?? definition(of: "scenarios")
    }

    private func firstLine(where matches: (Substring) -> Bool) -> Int? {
        for (index, line) in lines.enumerated() {
            let code = line.range(of: "--").map { line[..<$0.lowerBound] } ?? line
            if matches(code) { return index + 1 }
        }
        return nil
    }
}

// MARK: - Names

/// Spelling suggestions and small text helpers.
enum Suggest {
    static let callbacks = ["prepare", "transform", "targetContentOffset", "layoutAttributesForElements",
                            "sizeForItem", "insetForSection", "referenceSizeForHeader", "referenceSizeForFooter"]
    /// The keys a script may assign (the C list, ScriptConstants), and UIKit's `isHidden`.
    static let attributeKeys = ScriptConstants.attributeKeys.filter(\.writable).map(\.name) + ["isHidden"]
    static let layoutKeys = ["scrollDirection", "itemSize", "sectionInset", "minimumLineSpacing",
                             "minimumInteritemSpacing", "headerReferenceSize", "footerReferenceSize",
                             "decelerationRate", "isPagingEnabled", "collectionView", "wraps",
                             "flipsHorizontallyInOppositeLayoutDirection"]
    static let collectionViewKeys = ["decelerationRate", "isPagingEnabled", "bounces", "alwaysBounceHorizontal",
                                     "alwaysBounceVertical"]

    /// The callback (or `scenarios`, `params`) a global's name looks like a misspelling
    /// of: the same name in another case, or — for a function (a table for `scenarios`;
    /// never for `params`, near too many common words) — within two edits of it.
    static func misspelledCallback(_ name: String, type: String) -> String? {
        if callbacks.contains(name) || name == "scenarios" || name == "params" { return nil }
        for callback in callbacks + ["scenarios", "params"] {
            if name.lowercased() == callback.lowercased() { return callback }
            let wantedType = callback == "scenarios" ? "table" : "function"
            if callback != "params", type == wantedType, name.count >= 5, distance(name.lowercased(), callback.lowercased()) <= 2 {
                return callback
            }
        }
        return nil
    }

    /// The known name nearest to `name`: the same in another case, or within two edits
    /// (for names of four letters or more).
    static func closest(to name: String, in known: [String]) -> String? {
        // A word far longer than any name is no typo of one, and its edit distance would
        // take seconds (a 100 000-character `--param` name).
        guard name.utf8.count <= 64 else { return nil }
        if let same = known.first(where: { $0.lowercased() == name.lowercased() }) { return same }
        guard name.count >= 4 else { return nil }
        let scored = known.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Edit distance with transpositions counted as one edit (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// Every global name a script finds defined: the prelude's API (read from its source,
    /// where each is registered with `define` or listed in `api`) and the sandbox's base
    /// library.
    static let globalNames: [String] = {
        var names: [String] = []
        for marker in ["define(\"", "{ name = \""] {
            var rest = Substring(preludeSource)
            while let found = rest.range(of: marker) {
                rest = rest[found.upperBound...]
                let name = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                if !name.isEmpty, !names.contains(String(name)) { names.append(String(name)) }
            }
        }
        return names + ["assert", "error", "ipairs", "next", "pairs", "pcall", "print", "rawequal", "rawget",
                        "rawlen", "rawset", "select", "setmetatable", "getmetatable", "tonumber", "tostring",
                        "type", "xpcall", "warn", "string", "table", "math", "utf8", "coroutine"]
    }()

    /// Lua's `attempt to call a nil value (global 'CATransform3DRotat')` with
    /// `; did you mean CATransform3DRotate?` added when a defined global is within two
    /// edits of the name; any other message unchanged.
    static func withDidYouMean(_ message: String) -> String {
        let marker = "attempt to call a nil value (global '"
        guard let start = message.range(of: marker) else { return message }
        let name = message[start.upperBound...].prefix(while: { $0 != "'" })
        let end = message.index(start.upperBound, offsetBy: name.count)
        guard message[end...].hasPrefix("')"), !name.isEmpty,
              let guess = closest(to: String(name), in: globalNames), guess != String(name) else { return message }
        let close = message.index(end, offsetBy: 2)
        return String(message[..<close]) + "; did you mean \(guess)?" + message[close...]
    }

    /// A number as a person writes it: 1 not 1.0, at most three decimals.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
