import CLuaShims
import CardLayout
import Foundation

/// An `Effect` defined by a Lua 5.4 script (the contract of docs/script-api.md).
///
/// Every call goes through the C entry points of `CLuaShims`, each of which runs its
/// Lua work under `lua_pcall`: no Lua error can unwind a Swift frame (Sources/CLuaShims/README.md).
/// Swift passes numbers in and reads numbers back; it never calls the Lua API itself.
///
/// Thread safety: not `Sendable`. An effect owns one Lua state and is confined to one
/// thread at a time (an app's main thread, where `UICollectionViewLayout` is called);
/// calls must not overlap (a call made from one of the effect's own callbacks, a log sink
/// or a base layout, is refused). Separate effects are independent and may live on
/// different threads: they share no state.
public final class LuaEffect: Effect {
    /// The most items one `layout:layoutAttributesForElements(rect)` returns; a rect that
    /// meets more is a script error.
    public static let maxQueryItems = Int(CARDLUA_QUERY_MAX)

    /// The name shown in messages: the script's path as given.
    public let chunkName: String
    public let limits: ScriptLimits
    /// The script's text: where a scenario is defined, for errors about it (Lua cannot
    /// tell the line of a table). Also what `play` keeps as the last good text: the text
    /// this effect was loaded from, whatever the file holds now.
    package let source: String

    let host: OpaquePointer
    let query = LayoutQuery()
    private let log = LogSink()
    private var input: [Double] = []
    private var output: [Double] = []
    var state = [Double](repeating: 0, count: Int(CARDLUA_STATE_COUNT))
    /// Starting attributes for `transform` (LuaEffect+Elements.swift), when items do not
    /// start from the defaults.
    var starts: [Double] = []
    /// Whether the script defines `layoutAttributesForElements` (asked after loading and
    /// after each `prepare`, not every frame).
    var definesElementQuery = false
    /// The layout direction the last `prepare` was given (it holds until the next).
    private var isRightToLeft = false
    /// The tweakables the script declares (`params`), sorted by name, with the values in
    /// use (LuaParams.swift); empty when it declares none.
    public internal(set) var params: [ScriptParam] = []

    /// The prelude as every state loads it: compiled at build time (embed.list's
    /// preludeChunk), decoded once per process.
    private static let prelude: [UInt8] = Array(Data(base64Encoded: preludeChunk) ?? Data())

    /// Loads `source` into a fresh sandboxed state and runs it once.
    public convenience init(source: String, chunkName: String, limits: ScriptLimits = ScriptLimits()) throws(ScriptError) {
        try self.init(source: source, chunkName: chunkName, limits: limits, prelude: nil, measuring: false)
    }

    /// For measurements (CheckpointStepTests): `prelude`, a compiled chunk, instead of the
    /// build's (nil: the build's); with `measuring`, the budget is counted exactly from
    /// the script's loading on (``budgetUsed``).
    package init(source: String, chunkName: String, limits: ScriptLimits, prelude: [UInt8]?,
                 measuring: Bool) throws(ScriptError) {
        self.chunkName = chunkName
        self.limits = limits
        self.source = source
        // Refused before the text is copied or parsed (ScriptFile.swift).
        let size = source.utf8.count
        if size > ScriptFile.maxBytes { throw ScriptFile.tooLong(path: chunkName, bytes: size) }
        var failure: UnsafePointer<CChar>?
        var failed = CARDLUA_OK
        let opened = (prelude ?? Self.prelude).withUnsafeBufferPointer { prelude in
            prelude.withMemoryRebound(to: CChar.self) { chunk in
                cardlua_open(chunk.baseAddress, chunk.count, max(limits.maxMemory, 0),
                             Int64(max(limits.maxSteps, 1)), &failed, &failure)
            }
        }
        guard let opened else {
            let why = failure.map { String(cString: $0) } ?? "could not create a Lua state"
            // Only a memory failure is a limit (cardlua_open says which); a prelude that
            // fails to load is a bug.
            let memory = failed == CARDLUA_LIMIT
            throw ScriptError(kind: memory ? .limit : .failed, file: chunkName, line: 1,
                              limit: memory ? .memory : nil,
                              text: why + (memory ? " (memory limit \(limits.maxMemory) bytes)" : ""))
        }
        host = opened
        if measuring { cardlua_measure_budget(host, 1) }
        cardlua_set_time_limit(host, limits.maxTime)
        cardlua_set_run_time_limit(host, limits.maxRunTime)
        cardlua_set_query(host, layoutQueryCallback, Unmanaged.passUnretained(query).toOpaque())
        cardlua_set_item_query(host, itemQueryCallback, Unmanaged.passUnretained(query).toOpaque())
        // The whole text, NUL bytes included (strlen would stop at the first one, and a
        // script Lua rejects would pass for a shorter one).
        var bytes = Array(source.utf8)
        let length = bytes.count
        bytes.append(0)  // never empty: a base address to pass
        let status = bytes.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { chars in
                cardlua_load_script(host, chars.baseAddress!, length, chunkName)
            }
        }
        if status != CARDLUA_OK { throw error(status) }
        try readParams()
        definesElementQuery = definesFunction(Self.elementQueryName)
    }

    /// Reads and loads the script at `path`; a file over 8 MiB is refused before it is
    /// read (``ScriptFile``).
    public convenience init(path: String, limits: ScriptLimits = ScriptLimits()) throws(ScriptError) {
        try self.init(source: ScriptFile.read(path: path), chunkName: path, limits: limits)
    }

    deinit { cardlua_close(host) }

    /// What the budget was charged since the script's loading, for an effect made
    /// `measuring`: steps at checkpoints, VM instructions the count hook counted (a prelude
    /// or script without checkpoints), and C work (cardlua_budget_used).
    package var budgetUsed: (steps: Int, instructions: Int, hostWork: Int) {
        var steps: Int64 = 0, instructions: Int64 = 0, hostWork: Int64 = 0
        cardlua_budget_used(host, &steps, &instructions, &hostWork)
        return (Int(steps), Int(instructions), Int(hostWork))
    }

    /// Whether the script defines the global function `name` (`prepare`, `transform`, …).
    public func definesFunction(_ name: String) -> Bool {
        cardlua_has_function(host, name) != 0
    }

    /// Turns on `cardlua check`'s bookkeeping: keys written on `attributes` that the
    /// contract does not know are noted (read them back with `ScriptChecker`). Off by
    /// default; it costs a little per item.
    package func setCheckMode(_ on: Bool) {
        cardlua_set_check_mode(host, on ? 1 : 0)
    }

    /// When above 0, `run` and `watch`'s lighter bookkeeping: check mode is on for one
    /// `transform` call (one frame) in every `keyNoteInterval`, the first included, so
    /// that unknown keys are noted without costing every frame (see
    /// `ScriptChecker.warnings(after:path:)`). 0 (the default) leaves check mode alone.
    package var keyNoteInterval = 0
    var transformCalls = 0

    /// Receives each line a script prints (`print`, and `warn` as "name: warning: …"),
    /// one line per call without its newline, control characters escaped, instead of
    /// standard error (nil, the default: standard error, as `cardlua` wants). Called
    /// synchronously on the effect's thread while a callback runs. A call back into this
    /// effect from it is refused (a ``ScriptError``: "re-entered the effect during a
    /// call"), and the call under way goes on. Output past 1 MiB per effect is dropped, as
    /// on standard error.
    public var logSink: ((String) -> Void)? {
        get { log.sink }
        set {
            log.sink = newValue
            cardlua_set_log(host, newValue == nil ? nil : logCallback, Unmanaged.passUnretained(log).toOpaque())
        }
    }

    // MARK: Effect

    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        try refuseReentry()
        isRightToLeft = configuration.layoutDirection == .rightToLeft
        setState(ScrollContext(bounds: Rect(origin: .zero, size: viewportSize), contentSize: viewportSize))
        var numbers = [Double](repeating: 0, count: Int(CARDLUA_CFG_COUNT))
        let status = numbers.withUnsafeMutableBufferPointer { out in
            state.withUnsafeBufferPointer { cardlua_prepare(host, $0.baseAddress, out.baseAddress) }
        }
        if status != CARDLUA_OK { throw error(status) }
        definesElementQuery = definesFunction(Self.elementQueryName)
        configuration.scrollDirection = numbers[Int(CARDLUA_CFG_DIRECTION)] == 1 ? .horizontal : .vertical
        configuration.itemSize = Size(width: numbers[Int(CARDLUA_CFG_ITEM_W)], height: numbers[Int(CARDLUA_CFG_ITEM_H)])
        configuration.sectionInset = CardEdgeInsets(
            top: numbers[Int(CARDLUA_CFG_INSET_TOP)], left: numbers[Int(CARDLUA_CFG_INSET_LEFT)],
            bottom: numbers[Int(CARDLUA_CFG_INSET_BOTTOM)], right: numbers[Int(CARDLUA_CFG_INSET_RIGHT)])
        configuration.minimumLineSpacing = numbers[Int(CARDLUA_CFG_LINE_SPACING)]
        configuration.minimumInteritemSpacing = numbers[Int(CARDLUA_CFG_INTERITEM_SPACING)]
        configuration.headerReferenceSize = Size(width: numbers[Int(CARDLUA_CFG_HEADER_W)], height: numbers[Int(CARDLUA_CFG_HEADER_H)])
        configuration.footerReferenceSize = Size(width: numbers[Int(CARDLUA_CFG_FOOTER_W)], height: numbers[Int(CARDLUA_CFG_FOOTER_H)])
        configuration.decelerationRate = DecelerationRate(rawValue: numbers[Int(CARDLUA_CFG_DECELERATION)])
        configuration.isPagingEnabled = numbers[Int(CARDLUA_CFG_PAGING)] != 0
        configuration.wraps = numbers[Int(CARDLUA_CFG_WRAPS)] != 0
        configuration.flipsHorizontallyInOppositeLayoutDirection = numbers[Int(CARDLUA_CFG_FLIPS_RTL)] != 0
        configuration.bounces = numbers[Int(CARDLUA_CFG_BOUNCES)] != 0
        configuration.alwaysBounceHorizontal = numbers[Int(CARDLUA_CFG_ALWAYS_BOUNCE_H)] != 0
        configuration.alwaysBounceVertical = numbers[Int(CARDLUA_CFG_ALWAYS_BOUNCE_V)] != 0
    }

    public func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                          context: ScrollContext) throws {
        try refuseReentry()
        let count = attributes.count
        let inStride = Int(CARDLUA_IN_STRIDE), outStride = Int(CARDLUA_OUT_STRIDE)
        if input.count < count * inStride { input = [Double](repeating: 0, count: count * inStride) }
        if output.count < count * outStride { output = [Double](repeating: 0, count: count * outStride) }
        // Numbers in, numbers out, through raw buffers: this runs for every item of every
        // frame (BENCHMARKS.md).
        input.withUnsafeMutableBufferPointer { inp in
            attributes.withUnsafeBufferPointer { items in
                for i in 0..<count { writeBase(items[i], to: inp.baseAddress! + i * inStride) }
            }
        }
        // With an element query, items start from the values it returned (the script
        // reads them, and keeps what it does not set). A v1 script skips this: its items
        // start from the defaults, as in contract v1.
        let fromStarts = definesElementQuery && attributes.contains { !$0.hasDefaultStart }
        if fromStarts { fillStarts(attributes) }
        setState(context)
        if keyNoteInterval > 0 {
            cardlua_set_check_mode(host, transformCalls % keyNoteInterval == 0 ? 1 : 0)
            transformCalls += 1
        }
        // The layout is lent to the query callbacks for the length of the call.
        let status = query.lending(layout) {
            output.withUnsafeMutableBufferPointer { out in
                input.withUnsafeBufferPointer { inp in
                    state.withUnsafeBufferPointer { st in
                        guard fromStarts else {
                            return cardlua_transform(host, st.baseAddress, inp.baseAddress, count, out.baseAddress)
                        }
                        return starts.withUnsafeBufferPointer {
                            cardlua_transform_from(host, st.baseAddress, inp.baseAddress, $0.baseAddress, count,
                                                   out.baseAddress)
                        }
                    }
                }
            }
        }
        if status != CARDLUA_OK { throw error(status) }
        // Only CARDLUA_OUT_CHANGED is written for an item the script left alone.
        output.withUnsafeBufferPointer { out in
            attributes.withUnsafeMutableBufferPointer { items in
                for i in 0..<count {
                    let o = i * outStride
                    guard out[o + Int(CARDLUA_OUT_CHANGED)] != 0 else { continue }
                    items[i].center = Point(x: out[o + Int(CARDLUA_OUT_CENTER_X)], y: out[o + Int(CARDLUA_OUT_CENTER_Y)])
                    items[i].size = Size(width: out[o + Int(CARDLUA_OUT_WIDTH)], height: out[o + Int(CARDLUA_OUT_HEIGHT)])
                    let m = o + Int(CARDLUA_OUT_M11)
                    items[i].transform3D = Transform3D(
                        m11: out[m], m12: out[m + 1], m13: out[m + 2], m14: out[m + 3],
                        m21: out[m + 4], m22: out[m + 5], m23: out[m + 6], m24: out[m + 7],
                        m31: out[m + 8], m32: out[m + 9], m33: out[m + 10], m34: out[m + 11],
                        m41: out[m + 12], m42: out[m + 13], m43: out[m + 14], m44: out[m + 15])
                    items[i].alpha = out[o + Int(CARDLUA_OUT_ALPHA)]
                    items[i].zIndex = Int(out[o + Int(CARDLUA_OUT_ZINDEX)])
                    items[i].isHidden = out[o + Int(CARDLUA_OUT_HIDDEN)] != 0
                    if out[o + Int(CARDLUA_OUT_EXTRAS)] != 0 { readExtras(out, at: o, into: &items[i]) }
                }
            }
        }
    }

    public func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                    context: ScrollContext) throws -> Point {
        try refuseReentry()
        setState(context)
        var result = [proposed.x, proposed.y]
        let status = query.lending(layout) {
            result.withUnsafeMutableBufferPointer { out in
                state.withUnsafeBufferPointer {
                    cardlua_target_content_offset(host, $0.baseAddress, proposed.x, proposed.y,
                                                  velocity.x, velocity.y, out.baseAddress)
                }
            }
        }
        if status != CARDLUA_OK { throw error(status) }
        return Point(x: result[0], y: result[1])
    }

    // MARK: Internals

    /// Calls a prelude internal that returns numbers.
    func internalNumbers(_ name: String, argument: String?) throws(ScriptError) -> [Double] {
        var capacity = 64
        while true {
            var buffer = [Double](repeating: 0, count: capacity)
            var count = 0
            let status = buffer.withUnsafeMutableBufferPointer { out in
                callWithOptionalCString(argument) { arg in
                    cardlua_call_internal(host, name, arg, out.baseAddress, capacity, &count)
                }
            }
            if status != CARDLUA_OK { throw error(status) }
            if count <= capacity { return Array(buffer.prefix(count)) }
            capacity = count
        }
    }

    /// Calls a prelude internal that returns a string.
    func internalString(_ name: String, argument: String? = nil) throws(ScriptError) -> String {
        var status: Int32 = 0
        let text = callWithOptionalCString(argument) { arg in
            cardlua_call_internal_string(host, name, arg, &status).map { String(cString: $0) }
        }
        guard let text, status == CARDLUA_OK else { throw error(status) }
        return text
    }

    /// Memory the Lua state holds now, in bytes.
    public var memoryInUse: Int { cardlua_memory_in_use(host) }

    /// Calls an empty Lua function `count` times, each in its own `lua_pcall` (the
    /// benchmark's floor for any call into Lua).
    package func benchmarkEmptyProtectedCalls(_ count: Int) -> Bool {
        cardlua_bench_empty_pcalls(host, count) == CARDLUA_OK
    }

    /// Throws the re-entry refusal when a call of this effect is under way (a log sink or a
    /// base layout calling back into it): before a method touches the buffers and the state
    /// the call under way is using. The C entry points refuse too; this keeps Swift's own
    /// fields out of it.
    func refuseReentry() throws(ScriptError) {
        if cardlua_in_call(host) != 0 { throw error(CARDLUA_ERROR) }
    }

    func setState(_ context: ScrollContext) {
        state[Int(CARDLUA_STATE_OFFSET_X)] = context.bounds.origin.x
        state[Int(CARDLUA_STATE_OFFSET_Y)] = context.bounds.origin.y
        state[Int(CARDLUA_STATE_VIEW_W)] = context.bounds.size.width
        state[Int(CARDLUA_STATE_VIEW_H)] = context.bounds.size.height
        state[Int(CARDLUA_STATE_CONTENT_W)] = context.contentSize.width
        state[Int(CARDLUA_STATE_CONTENT_H)] = context.contentSize.height
        state[Int(CARDLUA_STATE_TIME)] = context.time
        state[Int(CARDLUA_STATE_TRACKING)] = context.isTracking ? 1 : 0
        state[Int(CARDLUA_STATE_DRAGGING)] = context.isDragging ? 1 : 0
        state[Int(CARDLUA_STATE_DECELERATING)] = context.isDecelerating ? 1 : 0
        state[Int(CARDLUA_STATE_RTL)] = isRightToLeft ? 1 : 0
    }

    func error(_ status: Int32) -> ScriptError {
        let e = cardlua_last_error(host)
        func string(_ p: UnsafePointer<CChar>?) -> String? {
            guard let p, p.pointee != 0 else { return nil }
            return String(cString: p)
        }
        let limits: [Int32: ScriptError.Limit] = [
            CARDLUA_LIMIT_INSTRUCTIONS: .instructions, CARDLUA_LIMIT_MEMORY: .memory,
            CARDLUA_LIMIT_TIME: .time, CARDLUA_LIMIT_RUN_TIME: .runTime, CARDLUA_LIMIT_OTHER: .other,
        ]
        // A call of a misspelled helper: say which name was meant.
        return ScriptError(kind: status == CARDLUA_LIMIT ? .limit : .failed, file: chunkName,
                           line: e.line > 0 ? Int(e.line) : nil, callback: string(e.callback),
                           item: e.has_item != 0 ? e.item : nil, field: string(e.field),
                           limit: limits[e.limit],
                           text: paramHint(Suggest.withDidYouMean(string(e.text) ?? "")),
                           details: string(e.details) ?? "")
    }
}

private func callWithOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    if let string { return string.withCString { body($0) } }
    return body(nil)
}

private struct QueryStopped: Error {}

/// Where a script's print and warn lines go (`LuaEffect.logSink`).
final class LogSink {
    var sink: ((String) -> Void)?
}

/// Called from C (inside a protected Lua call) with one cleaned line: hands it to the
/// sink. Touches no Lua and cannot fail.
private let logCallback: cardlua_log_fn = { context, line, length in
    guard let context, let line else { return }
    let log = Unmanaged<LogSink>.fromOpaque(context).takeUnretainedValue()
    let text = line.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    log.sink?(text)
}

/// The base layout that answers `layout:layoutAttributesForElements(rect)` (and
/// `layout:layoutAttributesForItem`) during a call: the one the call was handed, lent for
/// its length and never kept (the effect holds no layout between calls).
final class LayoutQuery {
    /// The call's layout when it is a ``FlowLayout`` (the simulator's): read in place.
    var flow: UnsafePointer<FlowLayout>?
    /// The call's layout otherwise (a host's own).
    var other: (any BaseLayoutProviding)?

    /// Runs `body` with `layout` lent to the query callbacks.
    func lending<R>(_ layout: some BaseLayoutProviding, _ body: () -> R) -> R {
        if let flowLayout = layout as? FlowLayout {
            // A pointer to the copy: no boxing per query, as the hot path wants (BENCHMARKS.md).
            return withUnsafePointer(to: flowLayout) { lent in
                flow = lent
                defer { flow = nil }
                return body()
            }
        }
        other = layout
        defer { other = nil }
        return body()
    }
}

/// Called from C (inside a protected Lua call): fills `buffer` with the base attributes
/// meeting the rect. Touches no Lua and cannot fail.
private let layoutQueryCallback: cardlua_query_fn = { context, x, y, width, height, buffer, capacity in
    guard let context else { return 0 }
    let query = Unmanaged<LayoutQuery>.fromOpaque(context).takeUnretainedValue()
    let rect = Rect(x: x, y: y, width: width, height: height)
    var count = 0
    let stride = Int(CARDLUA_IN_STRIDE)
    let most = Int(CARDLUA_QUERY_MAX)
    if let provider = query.other {
        // The host's answer, bounded the same way: one past the maximum says "too many".
        for item in provider.baseLayoutAttributes(in: rect, limit: most + 1).prefix(most + 1) {
            if count < capacity, let buffer { writeBase(item, to: buffer + count * stride) }
            count += 1
        }
        return count
    }
    guard let layout = query.flow else { return 0 }
    // Stops one past the maximum: the enumeration is bounded whatever the rect.
    try? layout.pointee.forEachItem(in: rect) { item in
        if count < capacity, let buffer { writeBase(item, to: buffer + count * stride) }
        count += 1
        if count > most { throw QueryStopped() }
    }
    return count
}

/// One item's base attributes as the C side reads them (CARDLUA_IN_STRIDE numbers):
/// section, item, centre x, centre y, width, height.
@inline(__always)
func writeBase(_ item: LayoutAttributes, to slot: UnsafeMutablePointer<Double>) {
    slot[0] = Double(item.indexPath.section)
    slot[1] = Double(item.indexPath.item)
    slot[2] = item.center.x
    slot[3] = item.center.y
    slot[4] = item.size.width
    slot[5] = item.size.height
}
