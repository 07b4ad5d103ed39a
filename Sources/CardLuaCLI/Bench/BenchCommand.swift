import CardLayout
import CardLua
import Foundation
import SeedTwins

/// `cardlua bench SCRIPT… [options]`: what an effect costs, side by side in one run
/// (BENCHMARKS.md). For each script: the per-item cost of its `transform` through
/// cardlua, the same script's `transform` in the stock `lua5.4` interpreter (the Lua
/// floor), the native Swift twin when the script is one of the seeds, and a whole frame.
/// Once per run: a bare `lua_pcall` of an empty function (the floor of any call) and an
/// empty `transform` through cardlua. On request: flow-layout scale, a cold `cardlua run`
/// and watch's save-to-output latency. Medians over repeated runs; never asserted on.
enum BenchCommand {
    /// What the command line asks for.
    struct Options {
        var scripts: [String] = []
        var viewport = Scenario.defaultViewportSize
        /// Items per transform call in the per-item measurements.
        var batch = 1000
        var repeats = 7
        /// Transform calls per repeat (nil: about 20 000 items per repeat).
        var iterations: Int?
        /// Frames per repeat in the frame measurement (a sweep across the content).
        var frames = 600
        var lua: String?
        /// `--stock`: the stock interpreter's rows (opt-in: it runs the script in another
        /// interpreter, sandboxed by the harness and confined by ``ConfinedProcess``).
        var stock = false
        var twin: String?
        var scale = false
        var coldRun = false
        var watchLatency = false
        var smoke = false
        var markdown = false
        /// `--targets`: the engine's own performance targets as verdicts (met / MISSED),
        /// for the project's benchmark (scripts/bench). A user's run shows what the
        /// script costs, with the floors as context, and judges nothing.
        var targets = false

        var callsPerRepeat: Int {
            iterations ?? max(1, (smoke ? 100 : 20_000) / max(batch, 1))
        }
    }

    static let declaration: CommandDeclaration = {
        let defaults = Options()
        return CommandDeclaration(
            name: "bench", synopsis: "bench SCRIPT", summary: "per-item and per-frame cost, side by side",
            arguments: .oneOrMore("SCRIPT", missing: "the script to measure"),
            argumentsWith: (.scale, .any),  // --scale needs no script
            options: [
                OptionSpec(.items, value: "N", summary: "items per transform call, per-item figures",
                           defaultText: String(defaults.batch)),
                OptionSpec(.iterations, value: "N", summary: "transform calls per repeat",
                           defaultText: "~20000 items", defaultInWords: true),
                OptionSpec(.repeats, value: "N", summary: "timed repeats; the median is shown",
                           defaultText: String(defaults.repeats)),
                OptionSpec(.frames, value: "N", summary: "offsets in the frame sweep", defaultText: String(defaults.frames)),
                OptionSpec(.viewport, value: "WxH", summary: "collection view size in points",
                           defaultText: OptionTable.viewport(defaults.viewport)),
                OptionSpec(.twin, value: "NAME", summary: "native twin: lol | card-scale | photo-browser | none",
                           defaultText: "from the script's file name", defaultInWords: true),
                OptionSpec(.lua, value: "PATH", summary: "the stock interpreter", defaultText: "lua5.4 on PATH"),
                OptionSpec(.stock, summary: "also time the script in the stock interpreter, sandboxed as in run "
                           + "(no io/os/load, the same budget and memory limit, "
                           + "\(OptionTable.number(StockInterpreter.defaultTimeLimit)) s at most)"),
                OptionSpec(.scale, summary: "flow layout at 10^3…10^6 items: prepare and a visible-rect query, "
                           + "uniform and per-item sizes (no script needed)"),
                OptionSpec(.coldRun, summary: "time `cardlua run SCRIPT` (the demo) end to end, first SCRIPT"),
                OptionSpec(.watchLatency, summary: "time `cardlua watch SCRIPT -o out.json` from save to output"),
                OptionSpec(.markdown, summary: "print the table as Markdown"),
                OptionSpec(.targets, summary: "judge the engine's own performance targets (scripts/bench)"),
                OptionSpec(.smoke, summary: "tiny counts: checks that it all runs; figures mean nothing"),
            ],
            help: { options in """
            cardlua bench — measure an effect script, side by side with its floors

            USAGE: cardlua bench SCRIPT... [options]

            For each script, what it costs: µs per card (its transform), and the demo's busiest
            frame (the most cards: the element query, if any, and every card's transform) in µs
            and as a share of a 120 Hz display's 8.33 ms frame. Beside the per-card figure: the
            native Swift twin for the seeds (lol, card-scale, photo-browser), and with --stock
            the same script's transform run by the stock lua5.4 interpreter in a plain Lua loop
            (the Lua floor: same prelude, same items, the same sandbox and limits as run, in a
            process that dies with cardlua; only then the × lua5.4 column). Then the floors the
            ratios are against: a bare lua_pcall of an empty function from C (× pcall: the
            floor of any call) and an empty transform through cardlua. Medians over repeated
            runs after a warm-up. In-process figures are CPU time; cold runs and watch latency
            are wall clock. Build with -c release for real figures (scripts/bench does).
            Nothing is judged unless --targets asks for the engine's own targets (the project's
            benchmark, which adds a frame over a sweep of offsets and the element query's cost).

            \(options)

            EXAMPLES:
              cardlua bench scripts/lol.lua
              cardlua bench scripts/*.lua --scale --cold-run --watch-latency --markdown
            """ },
            run: main)
    }()

    static func main(_ arguments: Arguments) throws -> Int32 {
        let options = try parse(arguments)
        #if DEBUG
        let release = false
        #else
        let release = true
        #endif
        var table = BenchTable(markdown: options.markdown, judged: release && !options.smoke,
                               showsTargets: options.targets, showsStock: options.stock)
        do {
            try run(options, into: &table)
        } catch {
            table.flush()  // the figures so far, then the error (CardLuaCommand reports it)
            throw error is ScriptError ? error : CommandFailure("cardlua: bench: \(error)")
        }
        table.flush()
        return 0
    }

    static func parse(_ arguments: Arguments) throws(UsageError) -> Options {
        var o = Options()
        o.smoke = arguments.isSet(.smoke)
        if o.smoke {
            o.batch = 20
            o.repeats = 1
            o.frames = 10
        }
        func count(_ key: OptionKey, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = arguments.value(key) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw UsageError("\(key.spelled): expected a whole number from \(range.lowerBound) to \(range.upperBound) "
                                 + "(got '\(Echo.safe(text))')", command: declaration.name)
            }
            return n
        }
        if let n = try count(.items, 1...1_000_000) { o.batch = n }
        if let n = try count(.repeats, 1...1000) { o.repeats = n }
        if let n = try count(.iterations, 1...100_000_000) { o.iterations = n }
        if let n = try count(.frames, 1...1_000_000) { o.frames = n }
        if let text = arguments.value(.viewport) { o.viewport = try RunOptions.parseViewport(text, command: declaration.name) }
        o.lua = arguments.value(.lua)
        if let twin = arguments.value(.twin) {
            guard twin == "none" || SeedTwin(rawValue: twin) != nil else {
                throw UsageError("--twin: expected lol, card-scale, photo-browser or none (got '\(Echo.safe(twin))')",
                                 command: declaration.name)
            }
            o.twin = twin
        }
        o.stock = arguments.isSet(.stock)
        o.scale = arguments.isSet(.scale)
        o.coldRun = arguments.isSet(.coldRun)
        o.watchLatency = arguments.isSet(.watchLatency)
        o.markdown = arguments.isSet(.markdown)
        o.targets = arguments.isSet(.targets)
        o.scripts = arguments.positional
        if (o.coldRun || o.watchLatency) && o.scripts.isEmpty {
            throw UsageError("--cold-run and --watch-latency need a script", command: declaration.name)
        }
        return o
    }

    // MARK: - The run

    static func run(_ options: Options, into table: inout BenchTable) throws {
        // Every script loads, prepares and transforms once before anything is timed: a
        // broken one fails at once.
        var scripts: [(path: String, effect: LuaEffect, setup: Setup)] = []
        for path in options.scripts {
            let effect = try LuaEffect(path: path)
            let setup = try Setup(effect: effect, options: options)
            var probe = setup.items
            try effect.transform(&probe, layout: setup.layout, context: setup.context)
            scripts.append((path, effect, setup))
        }
        table.header(machineDescription(options))
        let stock = options.stock ? StockInterpreter.find(options.lua) : nil
        if options.stock && stock == nil {
            table.note("stock interpreter: \(Echo.safe(options.lua ?? "lua5.4 on the PATH")) not found (its rows are skipped; scripts/bootstrap --test installs lua5.4)")
        }

        // What the user asked first: each script's cost per card (one figure, with its
        // native twin and the stock interpreter beside it when there are) and at its
        // demo's busiest frame, as a share of a 120 Hz display's frame; then the floors
        // those are compared with.
        if !scripts.isEmpty {
            let floor = try measureFloors(options, stock: stock)
            for script in scripts {
                table.section("\(Echo.safe(script.path)): what it costs")
                try measureCost(script.path, script.effect, script.setup, options, floor: floor, stock: stock,
                                table: &table)
            }
            table.section("context: the floors those figures are compared with")
            printFloors(floor, table: &table)
        }
        // The engine's own figures (the project's benchmark, --targets): a frame over a
        // sweep of offsets against the native twin, and the element query's cost.
        if options.targets, !scripts.isEmpty {
            for script in scripts {
                table.section("\(Echo.safe(script.path)): a frame over a sweep of offsets")
                try measureSweep(script.path, script.effect, options, table: &table)
            }
            table.section("the element query (contract v2): the same per-card work, per frame")
            try measureElementQuery(options, table: &table)
        }
        if options.scale {
            table.section("flow layout scale (pure Swift; vertical, viewport \(format(options.viewport)))")
            measureScale(options, table: &table)
            table.section("sizeForItem: a Lua script's sizes vs a native closure (whole prepare)")
            measureSizeForItem(options, table: &table)
        }
        if let script = options.scripts.first, options.coldRun || options.watchLatency {
            table.section("processes (wall clock)")
            if options.coldRun { BenchProcesses.coldRun(script, options, table: &table) }
            if options.watchLatency { BenchProcesses.watchLatency(script, options, table: &table) }
        }
    }

    /// One 120 Hz display frame (ProMotion), in nanoseconds: the budget a frame of cards
    /// shares with everything else the app draws.
    static let frameBudget120Hz = 1e9 / 120

    /// A script's cost as its author wants it: per card (its transform; beside it the
    /// same script in the stock interpreter with --stock, and the native Swift twin for
    /// a seed, in the same unit), and the demo's busiest frame (the frame with the most
    /// cards: its element query, if any, and every card's transform, as `run` computes
    /// it), also as a share of a 120 Hz frame.
    static func measureCost(_ path: String, _ effect: LuaEffect, _ setup: Setup, _ options: Options,
                            floor: Floors, stock: StockInterpreter?, table: inout BenchTable) throws {
        let name = Echo.safe(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        let twin = SeedTwin(rawValue: options.twin ?? name)
        let perCard = try perItem(effect, setup, options)
        var stockNs: Double?
        if let stock {
            stockNs = try stock.measure(script: path, source: nil, setup: setup, options: options).transform
        }
        let nativeNs = try twin.map { try perItem($0.makeEffect(), setup, options) }
        // The targets of the performance issue: per item against the native twin.
        let target = twin.flatMap { twin in
            nativeNs.map { Target(limit: twin == .lol ? 12 : 25, what: "× Swift", value: perCard / $0) }
        }
        table.row("\(name): per card (transform)", ns: perCard, unit: .usPerItem,
                  lua: stockNs.map { perCard / $0 }, pcall: perCard / floor.pcall, swift: nativeNs.map { perCard / $0 },
                  target: target)
        if let stockNs {
            table.row("\(name): per card, stock lua5.4", ns: stockNs, unit: .usPerItem,
                      lua: 1, pcall: stockNs / floor.pcall, swift: nativeNs.map { stockNs / $0 },
                      note: "same prelude, same script")
        }
        if let nativeNs, let twin {
            table.row("\(name): per card, native Swift", ns: nativeNs, unit: .usPerItem,
                      lua: stockNs.map { nativeNs / $0 }, pcall: nativeNs / floor.pcall, swift: 1,
                      note: "\(twin.typeName)")
        }
        guard let busiest = try busiestDemoFrame(path, options) else { return }
        var frameOptions = options
        frameOptions.viewport = busiest.viewport
        let ns = try perFrame(effect, frameOptions, at: busiest.offset)
        let nativeFrame = try twin.map { try perFrame($0.makeEffect(), frameOptions, at: busiest.offset) }
        let share = ns.ns / frameBudget120Hz * 100
        table.row("\(name): the demo's busiest frame (\(Int(ns.cards.rounded())) cards)", ns: ns.ns, unit: .usPerFrame,
                  swift: nativeFrame.map { ns.ns / $0.ns },
                  note: String(format: "%.2f %% of a 120 Hz frame (8.33 ms)", share))
        if let nativeFrame {
            table.row("\(name): the same frame, native Swift", ns: nativeFrame.ns, unit: .usPerFrame, swift: 1)
        }
    }

    /// The demo's frame with the most cards: its content offset and viewport (nil when
    /// the demo shows none).
    static func busiestDemoFrame(_ path: String, _ options: Options) throws -> (offset: Point, viewport: Size)? {
        let effect = try LuaEffect(path: path)
        let timeline = try ScenarioRunner(effect: effect, scriptName: (path as NSString).lastPathComponent)
            .runDemo(viewportSize: options.viewport)
        guard let frame = timeline.frames.max(by: { $0.items.count < $1.items.count }), !frame.items.isEmpty else {
            return nil
        }
        return (frame.contentOffset, frame.viewportSize)
    }

    /// The reference figures every script row is compared with.
    struct Floors {
        /// ns per bare lua_pcall of an empty function.
        var pcall: Double
        /// ns per item of an empty transform through cardlua.
        var emptyTransform: Double
        /// ns per item of an empty transform in the stock interpreter's loop (--stock).
        var stockEmptyTransform: Double?
    }

    static let emptyTransformSource = "function transform(attributes, layout) end\n"

    static func measureFloors(_ options: Options, stock: StockInterpreter?) throws -> Floors {
        let probe = try LuaEffect(source: "", chunkName: "floor.lua")
        let calls = options.smoke ? 1000 : 200_000
        let pcall = Benchmark.medianOf(repeats: options.repeats) { () -> Double in
            var ok = true
            let ns = Benchmark.cpuTime { ok = probe.benchmarkEmptyProtectedCalls(calls) }
            return ok ? ns / Double(calls) : .nan
        }
        let empty = try LuaEffect(source: emptyTransformSource, chunkName: "empty.lua")
        let setup = try Setup(effect: empty, options: options)
        let emptyNs = try perItem(empty, setup, options)
        let stockEmpty = try stock.map {
            try $0.measure(script: nil, source: emptyTransformSource, setup: setup, options: options).transform
        }
        return Floors(pcall: pcall, emptyTransform: emptyNs, stockEmptyTransform: stockEmpty)
    }

    static func printFloors(_ floor: Floors, table: inout BenchTable) {
        table.row("bare lua_pcall of an empty function, from C", ns: floor.pcall, unit: .nsPerCall,
                  pcall: 1, note: "the floor of any call")
        table.row("empty transform per card, cardlua", ns: floor.emptyTransform, unit: .nsPerItem,
                  pcall: floor.emptyTransform / floor.pcall,
                  target: Target(limit: 1.6, what: "× lua_pcall", value: floor.emptyTransform / floor.pcall))
        if let stockEmpty = floor.stockEmptyTransform {
            table.row("empty transform per card, stock lua5.4 loop", ns: stockEmpty, unit: .nsPerItem,
                      pcall: stockEmpty / floor.pcall, note: "a Lua-to-Lua call")
        }
    }

    /// A frame: the visible-rect query and the transform of every visible card, over a
    /// sweep of offsets across the content (what the scenario runner does per frame),
    /// against the native twin for the seeds (the project's benchmark).
    static func measureSweep(_ path: String, _ effect: LuaEffect, _ options: Options,
                             table: inout BenchTable) throws {
        let name = Echo.safe(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        let twin = SeedTwin(rawValue: options.twin ?? name)
        let frame = try perFrame(effect, options)
        var nativeFrame: (ns: Double, cards: Double)?
        if let twin { nativeFrame = try perFrame(twin.makeEffect(), options) }
        table.row("\(name): frame (\(String(format: "%.1f", frame.cards)) cards), cardlua", ns: frame.ns, unit: .usPerFrame,
                  swift: nativeFrame.map { frame.ns / $0.ns },
                  target: twin == .lol ? nativeFrame.map { Target(limit: 10, what: "× Swift", value: frame.ns / $0.ns) } : nil)
        if let nativeFrame {
            table.row("\(name): frame, native Swift", ns: nativeFrame.ns, unit: .usPerFrame, swift: 1)
        }
    }

    // MARK: - Per item

    /// The items a per-item measurement transforms, and the scroll state around them.
    struct Setup {
        var layout: FlowLayout
        var context: ScrollContext
        var viewportContext: ScrollContext
        var items: [LayoutAttributes]

        /// `options.batch` cards on the scroll axis whose distances from the centre of the
        /// visible rect spread evenly over ±1.5 viewports (every branch of a seed: the
        /// active zone and both sides beyond it), sized as the effect's `prepare` says.
        init(effect: any Effect, options: Options) throws {
            var configuration = FlowLayoutConfiguration()
            try effect.prepare(&configuration, viewportSize: options.viewport,
                               numberOfItemsInSections: Scenario.defaultNumberOfItems)
            let metrics = try effect.flowLayoutMetrics(configuration: configuration, viewportSize: options.viewport,
                                                       numberOfItems: Scenario.defaultNumberOfItems)
            layout = FlowLayout(configuration: configuration, viewportSize: options.viewport,
                                numberOfItemsInSections: Scenario.defaultNumberOfItems, metrics: metrics)
            let horizontal = configuration.scrollDirection == .horizontal
            let maxOffset = layout.maximumContentOffset
            let offset = horizontal ? Point(x: maxOffset.x / 2, y: 0) : Point(x: 0, y: maxOffset.y / 2)
            let bounds = Rect(origin: offset, size: options.viewport)
            context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize)
            viewportContext = ScrollContext(bounds: Rect(origin: .zero, size: options.viewport),
                                            contentSize: options.viewport)
            let extent = horizontal ? options.viewport.width : options.viewport.height
            let n = options.batch
            items = (0..<n).map { k in
                let spread = n == 1 ? 0 : -1.5 + 3 * Double(k) / Double(n - 1)
                let along = (horizontal ? bounds.midX : bounds.midY) + spread * extent
                let center = horizontal ? Point(x: along, y: bounds.midY) : Point(x: bounds.midX, y: along)
                let size = configuration.itemSize
                return LayoutAttributes(indexPath: CardIndexPath(item: k, section: 0),
                                        frame: Rect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                                                    width: size.width, height: size.height))
            }
        }
    }

    /// Median CPU nanoseconds per item of `effect.transform` over the setup's items. Each
    /// call starts from the base attributes (restored untimed), so an effect that moves
    /// cards does not drift.
    static func perItem(_ effect: any Effect, _ setup: Setup, _ options: Options) throws -> Double {
        var work = setup.items
        let calls = options.callsPerRepeat
        return try Benchmark.medianOf(repeats: options.repeats) { () throws -> Double in
            var total = 0.0
            for _ in 0..<calls {
                work.withUnsafeMutableBufferPointer { w in
                    setup.items.withUnsafeBufferPointer { b in
                        for i in 0..<b.count { w[i] = b[i] }
                    }
                }
                total += try Benchmark.cpuTime { () throws in
                    try effect.transform(&work, layout: setup.layout, context: setup.context)
                }
            }
            return total / Double(calls * max(1, work.count))
        }
    }

    /// Median CPU nanoseconds per frame, and the mean number of cards a frame shows.
    /// A frame's cost: the visible-rect query (or the effect's own element query) and the
    /// transform of every card. Over a sweep of `options.frames` offsets across the
    /// content, or `options.frames` times at `offset`.
    static func perFrame(_ effect: any Effect, _ options: Options, at offset: Point? = nil) throws -> (ns: Double, cards: Double) {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: options.viewport,
                           numberOfItemsInSections: Scenario.defaultNumberOfItems)
        let metrics = try effect.flowLayoutMetrics(configuration: configuration, viewportSize: options.viewport,
                                                   numberOfItems: Scenario.defaultNumberOfItems)
        let layout = FlowLayout(configuration: configuration, viewportSize: options.viewport,
                                numberOfItemsInSections: Scenario.defaultNumberOfItems, metrics: metrics)
        let horizontal = configuration.scrollDirection == .horizontal
        let maxOffset = horizontal ? layout.maximumContentOffset.x : layout.maximumContentOffset.y
        let frames = options.frames
        let contexts = (0..<frames).map { k -> ScrollContext in
            let along = frames == 1 ? 0 : maxOffset * Double(k) / Double(frames - 1)
            let origin = offset ?? (horizontal ? Point(x: along, y: 0) : Point(x: 0, y: along))
            return ScrollContext(bounds: Rect(origin: origin, size: options.viewport),
                                 contentSize: layout.collectionViewContentSize, time: Double(k) / 60)
        }
        var cards = 0
        let ns = try Benchmark.medianOf(repeats: options.repeats) { () throws -> Double in
            cards = 0
            let time = try Benchmark.cpuTime { () throws in
                for context in contexts {
                    // As a frame does: the effect's own element query when it has one.
                    var items = try effect.layoutAttributesForElements(in: context.bounds, layout: layout,
                                                                       context: context)
                        ?? layout.layoutAttributesForElements(in: context.bounds)
                    try effect.transform(&items, layout: layout, context: context)
                    cards += items.count
                }
            }
            return time / Double(frames)
        }
        return (ns, Double(cards) / Double(frames))
    }

    // MARK: - The element query

    /// One horizontal row of cards, each made half transparent: by `transform` (the v1
    /// path: the host's query, then a call per card) and by a script-defined
    /// `layoutAttributesForElements` (one call per frame that copies super's elements,
    /// changes them and returns them; the host reads them back). Per frame, side by side.
    static let elementQueryLayout = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(120, 200)
      layout.minimumLineSpacing = 10
    end

    """
    static let elementQueryV1 = elementQueryLayout + "function transform(attributes) attributes.alpha = 0.5 end\n"
    static let elementQueryV2 = elementQueryLayout + """
    function layoutAttributesForElements(rect, layout)
      local all = layout:layoutAttributesForElements(rect)
      for _, attributes in ipairs(all) do attributes.alpha = 0.5 end
      return all
    end

    """

    static func measureElementQuery(_ options: Options, table: inout BenchTable) throws {
        let v1 = try LuaEffect(source: elementQueryV1, chunkName: "transform.lua")
        let v2 = try LuaEffect(source: elementQueryV2, chunkName: "elements.lua")
        let perCard = try perFrame(v1, options)
        let query = try perFrame(v2, options)
        table.row("alpha per card: frame (\(String(format: "%.1f", perCard.cards)) cards), transform", ns: perCard.ns,
                  unit: .usPerFrame, note: "the v1 path (1.00×)")
        table.row("alpha per card: frame (\(String(format: "%.1f", query.cards)) cards), element query", ns: query.ns,
                  unit: .usPerFrame,
                  note: String(format: "%.2f× the v1 path", query.ns / perCard.ns))
    }

    // MARK: - Scale

    static func measureScale(_ options: Options, table: inout BenchTable) {
        let viewport = options.viewport
        var uniformConfiguration = FlowLayoutConfiguration()
        uniformConfiguration.itemSize = Size(width: 100, height: 100)
        let perItemConfiguration = FlowLayoutConfiguration()
        let exponents = options.smoke ? [3, 4] : [3, 4, 5, 6]
        let queries = options.smoke ? 20 : 2000
        let repeats = options.smoke ? 1 : max(options.repeats, 5)
        for e in exponents {
            let n = Int(pow(10.0, Double(e)))
            let label = "10^\(e)"
            // Uniform sizes: nothing per item.
            let builds = options.smoke ? 10 : 1000
            let uniformPrepare = Benchmark.medianOf(repeats: repeats) { () -> Double in
                Benchmark.cpuTime {
                    for _ in 0..<builds {
                        consume(FlowLayout(configuration: uniformConfiguration, viewportSize: viewport,
                                           numberOfItemsInSections: [n]))
                    }
                } / Double(builds)
            }
            let uniform = FlowLayout(configuration: uniformConfiguration, viewportSize: viewport,
                                     numberOfItemsInSections: [n])
            let uniformQuery = queryTime(uniform, viewport: viewport, queries: queries, repeats: repeats)
            table.row("uniform \(label) items: prepare", ns: uniformPrepare, unit: .usPerCall)
            table.row("uniform \(label) items: visible-rect query (\(uniformQuery.items) items)",
                      ns: uniformQuery.ns, unit: .usPerCall)
            if e == 6 {
                let sum = uniformPrepare + uniformQuery.ns
                table.row("uniform 10^6 items: prepare + query", ns: sum, unit: .usPerCall,
                          target: Target(limit: 1_000_000, what: "ns", value: sum))
            }
            // Per-item sizes: O(n) prepare into frames and a line table.
            let perItemPrepare = Benchmark.medianOf(repeats: repeats) { () -> Double in
                Benchmark.cpuTime {
                    consume(FlowLayout(configuration: perItemConfiguration, viewportSize: viewport,
                                       numberOfItemsInSections: [n], sizeForItem: variedSize))
                }
            }
            let perItem = FlowLayout(configuration: perItemConfiguration, viewportSize: viewport,
                                     numberOfItemsInSections: [n], sizeForItem: variedSize)
            let perItemQuery = queryTime(perItem, viewport: viewport, queries: queries, repeats: repeats)
            table.row("per-item sizes \(label) items: prepare", ns: perItemPrepare, unit: .msPerCall,
                      target: e == 6 ? Target(limit: 150_000_000, what: "ns", value: perItemPrepare) : nil)
            table.row("per-item sizes \(label) items: visible-rect query (\(perItemQuery.items) items)",
                      ns: perItemQuery.ns, unit: .usPerCall,
                      target: e == 6 ? Target(limit: 10_000, what: "ns", value: perItemQuery.ns) : nil)
        }
    }

    /// `sizeForItem` from a Lua script (the same sizes as ``variedSize``) against the native
    /// closure: the whole prepare of a per-item layout — the script called for every item
    /// in one protected call (sizes.c), then the frames — side by side. Two scripts: one
    /// returns a `CGSize` (`CGSizeMake`), one the two numbers (`return w, h`), which builds
    /// no table per item.
    static func measureSizeForItem(_ options: Options, table: inout BenchTable) {
        let viewport = options.viewport
        let n = options.smoke ? 1_000 : 1_000_000
        let label = options.smoke ? "10^3" : "10^6"
        let repeats = options.smoke ? 1 : max(options.repeats, 3)
        let sizes = "local i = indexPath.item\n  local w, h = 60 + (i * 37) % 97, 60 + (i * 53) % 71\n"
        let scripts: [(form: String, result: String, limitMs: Int)] = [
            ("CGSizeMake(w, h)", "CGSizeMake(w, h)", 1_000),
            ("w, h", "w, h", 500),
        ]
        let configuration = FlowLayoutConfiguration()
        let native = Benchmark.medianOf(repeats: repeats) { () -> Double in
            Benchmark.cpuTime {
                consume(FlowLayout(configuration: configuration, viewportSize: viewport,
                                   numberOfItemsInSections: [n], sizeForItem: variedSize))
            }
        }
        for script in scripts {
            let row = "sizeForItem \(label) items: prepare, Lua `return \(script.form)`"
            do {
                let source = "function sizeForItem(indexPath, layout)\n  \(sizes)  return \(script.result)\nend\n"
                let effect = try LuaEffect(source: source, chunkName: "sizes.lua",
                                           limits: ScriptLimits(maxRunTime: 0))
                var prepared = configuration
                try effect.prepare(&prepared, viewportSize: viewport, numberOfItemsInSections: [n])
                var failure: Error?
                let lua = Benchmark.medianOf(repeats: repeats) { () -> Double in
                    Benchmark.cpuTime {
                        do {
                            let metrics = try effect.flowLayoutMetrics(configuration: prepared, viewportSize: viewport,
                                                                       numberOfItems: [n])
                            consume(FlowLayout(configuration: prepared, viewportSize: viewport,
                                               numberOfItemsInSections: [n], metrics: metrics))
                        } catch {
                            failure = error
                        }
                    }
                }
                if let failure { throw failure }
                let limit = Double(script.limitMs) * 1_000_000
                table.row(row, ns: lua, unit: .msPerCall, swift: lua / native,
                          target: options.smoke ? nil : Target(limit: limit, what: "ns", value: lua))
            } catch {
                table.missing(row, reason: "\(error)")
            }
        }
        table.row("sizeForItem \(label) items: prepare, native Swift closure", ns: native, unit: .msPerCall, swift: 1)
    }

    /// Varied item sizes for the per-item layouts: 60…156 wide, 60…130 high, a few per row.
    @Sendable static func variedSize(_ indexPath: CardIndexPath) -> Size {
        let i = indexPath.item
        return Size(width: Double(60 + (i &* 37) % 97), height: Double(60 + (i &* 53) % 71))
    }

    /// Median CPU nanoseconds of `layoutAttributesForElements(in:)` for a viewport-sized
    /// rect, over offsets spread across the content; and the items a query returns.
    static func queryTime(_ layout: FlowLayout, viewport: Size, queries: Int,
                          repeats: Int) -> (ns: Double, items: Int) {
        let maxOffset = layout.maximumContentOffset.y
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let rects = (0..<queries).map { _ -> Rect in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let u = Double(state >> 11) / Double(1 << 53)
            return Rect(x: 0, y: (maxOffset * u).rounded(), width: viewport.width, height: viewport.height)
        }
        var found = 0
        let ns = Benchmark.medianOf(repeats: repeats) { () -> Double in
            found = 0
            return Benchmark.cpuTime {
                for rect in rects { found += layout.layoutAttributesForElements(in: rect).count }
            } / Double(queries)
        }
        return (ns, found / max(queries, 1))
    }

    // MARK: - Helpers

    static func format(_ size: Size) -> String {
        "\(Int(size.width))x\(Int(size.height))"
    }

    static func machineDescription(_ options: Options) -> [String] {
        var lines: [String] = []
        #if DEBUG
        let build = "debug build (figures are not representative)"
        #else
        let build = "release build"
        #endif
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        lines.append("cardlua \(Help.version) bench, \(build); \(cpu), \(cores) cores")
        lines.append("viewport \(format(options.viewport)); per item: \(options.batch) items × \(options.callsPerRepeat) calls; "
            + "frames: \(options.frames) offsets across \(Scenario.defaultNumberOfItems[0]) items; "
            + "median of \(options.repeats) after a warm-up; CPU time in-process, wall clock across processes")
        if options.smoke { lines.append("smoke run: tiny counts, the figures mean nothing") }
        return lines
    }
}

/// Keeps a value alive so that the optimizer cannot drop the work that made it.
@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

/// The seeds' native Swift twins (the SeedTwins module), by script name.
enum SeedTwin: String {
    case lol
    case cardScale = "card-scale"
    case photoBrowser = "photo-browser"

    func makeEffect() -> any Effect {
        switch self {
        case .lol: LeagueOfLegendsEffect()
        case .cardScale: CardScaleEffect()
        case .photoBrowser: PhotoBrowserEffect()
        }
    }

    var typeName: String {
        switch self {
        case .lol: "LeagueOfLegendsEffect"
        case .cardScale: "CardScaleEffect"
        case .photoBrowser: "PhotoBrowserEffect"
        }
    }
}

/// A target of the performance issue: met when `value ≤ limit`.
struct Target {
    var limit: Double
    /// "× lua5.4", "× lua_pcall", "× Swift", or "ns" (then limit and value are nanoseconds).
    var what: String
    var value: Double

    /// The bound, and whether it is met when `judged` (a release build at full counts:
    /// the targets are about those).
    func text(judged: Bool) -> String {
        let bound: String
        if what == "ns" {
            bound = "≤ " + BenchTable.human(limit)
        } else {
            bound = "≤ " + String(format: "%g", limit) + what
        }
        guard judged else { return "target " + bound }
        guard value.isFinite else { return bound + " n/a" }
        return bound + (value <= limit ? " met" : " MISSED")
    }
}
