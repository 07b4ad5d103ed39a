import CardLayout
import Foundation

/// One check run: the current Lua state (replaced after a limit error), what has been
/// found, and what has been noted along the way.
final class CheckSession {
    let source: String
    let chunkName: String
    let limits: ScriptLimits
    let index: SourceIndex
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
    private var attributeKeys: [AttributeKeyNote] = []
    private var layoutKeys: [String] = []
    private var alpha: AlphaFinding?

    /// `--rtl`: the direction every `prepare` is given.
    var layoutDirection = UserInterfaceLayoutDirection.leftToRight

    init(source: String, chunkName: String, limits: ScriptLimits) {
        self.source = source
        self.chunkName = chunkName
        self.limits = limits
        self.index = SourceIndex(source: source, chunkName: chunkName)
    }

    /// The viewports to check in: the two defaults, then `--viewport`'s if another.
    var viewports = ScriptChecker.viewports
    /// Lines across the scroll axis (rows of a horizontal flow, columns of a vertical
    /// one) at each viewport checked, with what decided them.
    private var lineCounts: [(viewport: Size, lines: Int, configuration: FlowLayoutConfiguration)] = []

    func run() {
        guard let first = load() else { return }
        effect = first
        checkGlobals()
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
            diagnostics += ScriptChecker.sizeRuleWarnings(layout, index: index,
                                                          insetsFromCallback: metrics?.sectionInsets != nil)
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
            let line = index.assignment(to: "sectionInset") ?? index.assignment(to: "itemSize") ?? index.definition(of: "prepare")
            diagnostics.append(Diagnostic(line: line, message: message, severity: .warning))
        }
    }

    func finish() -> [Diagnostic] {
        checkLineCounts()
        diagnostics += KeyNotes.unknownKeyWarnings(attributeKeys: attributeKeys, layoutKeys: layoutKeys, index: index)
        diagnostics += ScriptChecker.droppedResults(index)
        if let alpha {
            let times = alpha.count == 1 ? "once" : "\(alpha.count) times"
            let message = "transform: item \(alpha.item): attributes.alpha = \(Suggest.number(alpha.value)) is outside 0…1 "
                + "(at offset \(Suggest.number(alpha.offset)) in \(Suggest.number(alpha.viewport.width))x\(Suggest.number(alpha.viewport.height)); "
                + "\(times) in the sweep); UIKit clamps it"
            let line = index.assignment(to: "alpha") ?? index.definition(of: "transform")
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
    private func checkGlobals() {
        diagnostics += ScriptChecker.misspelledGlobals(index)
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
                recordOnce(Diagnostic(line: index.definition(of: "targetContentOffset"),
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
                record(error, line: index.scenario(named: name))
            } catch {
                recordOnce(Diagnostic(line: index.scenario(named: name), message: "\(error)", severity: .error))
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
                recordOnce(Diagnostic(line: index.definition(of: "transform"),
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
            recordOnce(Diagnostic(line: index.definition(of: callback), message: "\(callback): \(error)", severity: .error))
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
        if let key = error.field, let assigned = index.assignment(to: key) { found = assigned }
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
        if let notes = try? effect.attributeKeyNotes() {
            for entry in notes where !attributeKeys.contains(where: { $0.key == entry.key }) {
                attributeKeys.append(entry)
            }
        }
        if let paths = try? effect.layoutKeyNotes() {
            for path in paths where !layoutKeys.contains(path) { layoutKeys.append(path) }
        }
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
