import CardExport
import CardLayout
import CardLua

/// `cardlua export --tests`: the script's demo run again through the Lua engine with every
/// frame and release noted, as the ``XCTestPlan`` the generated XCTest file asserts.
///
/// The demo visits hundreds of offsets (one a frame, 60 a second); the tests take some of
/// the distinct ones, spread evenly over the run and in its order (the first and the last
/// among them): at most ``maximumVisits``, and fewer when each shows many cells, so that
/// the file keeps to about ``cellRowBudget`` rows (never fewer than ``minimumVisits``
/// offsets). Every release is kept.
enum ExportTestRecorder {
    /// How many content offsets the generated tests visit, at most.
    static let maximumVisits = 48
    /// How many they visit at least (when the run has that many).
    static let minimumVisits = 12
    /// The cells (rows of the table) the offsets are chosen to stay within.
    static let cellRowBudget = 240

    /// Runs `path`'s demo with `params` and returns what the layout `className` must
    /// answer at the offsets it visited.
    static func plan(path: String, params: [ParamOption], limits: ScriptLimits, className: String,
                     testModule: String?, command: String, exportedSwift: String) throws -> XCTestPlan {
        let effect = try LuaEffect(path: path, limits: limits)
        try effect.setParams(LuaEffect.parseParams(params.overrides, against: effect.params))
        let recording = RecordingEffect(effect)
        let viewport = Scenario.defaultViewportSize
        let items = Scenario.defaultNumberOfItems
        _ = try ScenarioRunner(effect: recording, scriptName: path)
            .runDemo(viewportSize: viewport, numberOfItems: items, framesPerSecond: Scenario.defaultFramesPerSecond)
        return XCTestPlan(className: className, testModule: testModule, scriptName: path, command: command,
                          viewport: XCTestPlan.Point(x: viewport.width, y: viewport.height), itemsPerSection: items,
                          delegateMethods: XCTestFile.delegateMethods(declaredIn: exportedSwift),
                          visits: sampled(recording.visits), releases: recording.releases)
    }

    /// The first visit of each distinct offset, as many as the limits allow, evenly spread.
    static func sampled(_ visits: [XCTestPlan.Visit]) -> [XCTestPlan.Visit] {
        var seen = Set<[Double]>()
        let distinct = visits.filter { seen.insert([$0.offset.x, $0.offset.y]).inserted }
        let cells = distinct.reduce(0) { $0 + $1.cells.count }
        let perVisit = max(1, Double(cells) / Double(max(1, distinct.count)))
        let wanted = min(maximumVisits, max(minimumVisits, Int(Double(cellRowBudget) / perVisit)))
        guard distinct.count > wanted else { return distinct }
        let last = Double(distinct.count - 1)
        return (0..<wanted).map { k in
            distinct[Int((Double(k) * last / Double(wanted - 1)).rounded())]
        }
    }
}

/// An ``Effect`` that forwards to the script's ``LuaEffect`` and notes each frame (a
/// `transform` call: the visible rect and the items as `transform` left them) and each
/// release (`targetContentOffset`: the visible rect, the proposal, the velocity, the answer).
private final class RecordingEffect: Effect {
    let inner: LuaEffect
    private(set) var visits: [XCTestPlan.Visit] = []
    private(set) var releases: [XCTestPlan.Release] = []

    init(_ inner: LuaEffect) { self.inner = inner }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        try inner.prepare(&configuration, viewportSize: viewportSize)
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                 numberOfItemsInSections: [Int]) throws {
        try inner.prepare(&configuration, viewportSize: viewportSize, numberOfItemsInSections: numberOfItemsInSections)
    }

    func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                           numberOfItems: [Int]) throws -> FlowLayoutMetrics? {
        try inner.flowLayoutMetrics(configuration: configuration, viewportSize: viewportSize, numberOfItems: numberOfItems)
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {
        try inner.transform(&attributes, layout: layout, context: context)
        let cells = attributes.map { a in
            let t = a.transform3D
            return XCTestPlan.Cell(
                section: a.indexPath.section, item: a.indexPath.item,
                frame: [a.frame.origin.x, a.frame.origin.y, a.size.width, a.size.height], center: [a.center.x, a.center.y],
                transform: [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                            t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44],
                alpha: a.alpha, zIndex: a.zIndex, isHidden: a.isHidden)
        }
        visits.append(XCTestPlan.Visit(offset: point(context.bounds.origin), cells: cells))
    }

    func layoutAttributesForElements(in rect: Rect, layout: some BaseLayoutProviding,
                                     context: ScrollContext) throws -> [LayoutAttributes]? {
        try inner.layoutAttributesForElements(in: rect, layout: layout, context: context)
    }

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        let target = try inner.targetContentOffset(proposed: proposed, velocity: velocity, layout: layout, context: context)
        releases.append(XCTestPlan.Release(offset: point(context.bounds.origin), proposed: point(proposed),
                                           velocity: point(velocity), target: point(target)))
        return target
    }

    private func point(_ p: Point) -> XCTestPlan.Point { XCTestPlan.Point(x: p.x, y: p.y) }
}
