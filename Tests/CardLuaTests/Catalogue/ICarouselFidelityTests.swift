import CardLayout
import CardLua
import Foundation
import Testing

/// iCarousel 1.8.3 (iCarousel/iCarousel.m), written out here from the source, independently of
/// the Lua ports: `transformForItemViewWithOffset:`, `alphaForItemWithOffset:`,
/// `circularCarouselItemCount`, `updateNumberOfVisibleItems`, `loadUnloadViews`,
/// `offsetForItemAtIndex:`, `compareViewDepth`, the backface rule of `transformItemView:atIndex:`
/// and the release of `didPan:` / `startDecelerating`. Horizontal, 200-pt views, every view
/// centred in the carousel's bounds.
private struct ICarousel {
    enum Kind {
        case linear, rotary, invertedRotary, cylinder, invertedCylinder, wheel, invertedWheel
        case coverFlow, coverFlow2, timeMachine, invertedTimeMachine
    }

    let kind: Kind
    let itemWidth = 200.0
    static let maxVisibleItems = 30

    // The options (`carousel:valueForOption:withDefault:`) with iCarousel's defaults.
    var wrap: Bool
    var showBackfaces: Bool
    var spacing: Double
    var tilt = 0.0
    var arc = 2 * Double.pi
    var radius: Double?
    var count: Int?
    var fadeMin = -Double.infinity, fadeMax = Double.infinity, fadeRange = 1.0, fadeMinAlpha = 0.0
    var perspective = -1.0 / 500
    /// CoverFlow2 only: the port's stretch of scroll (items) over which a card flips.
    var flip = 0.3

    init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel: wrap = true
        default: wrap = false
        }
        showBackfaces = kind != .invertedCylinder
        switch kind {
        case .coverFlow, .coverFlow2: (tilt, spacing) = (0.9, 0.25)
        case .timeMachine, .invertedTimeMachine: (tilt, spacing) = (0.3, 1)
        default: spacing = 1
        }
        if kind == .timeMachine { fadeMax = 0 }
        if kind == .invertedTimeMachine { fadeMin = 0 }
    }

    var isCircular: Bool {
        [.rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel].contains(kind)
    }

    func circularCount(items: Int, width: Double) -> Int {
        if let count { return count }
        let slots = min(30, max(12, (width / (spacing * itemWidth)).rounded(.up) * Double.pi))
        return min(items, Int(slots))   // an NSInteger: truncated
    }

    func wheelRadius(count: Int) -> Double { radius ?? itemWidth * spacing * Double(count) / arc }

    func visibleItems(items: Int, viewport: Size) -> Int {
        let count = circularCount(items: items, width: viewport.width)
        var visible: Int
        switch kind {
        case .linear, .coverFlow, .coverFlow2: visible = Int((viewport.width / (itemWidth * spacing)).rounded(.up)) + 2
        case .rotary, .cylinder: visible = count
        case .invertedRotary, .invertedCylinder: visible = Int((Double(count) / 2).rounded(.up))
        case .wheel, .invertedWheel:
            visible = wheelRadius(count: count) - itemWidth / 2 < min(viewport.width, viewport.height) / 2
                ? count : Int((Double(count) / 2).rounded(.up)) + 1
        case .timeMachine, .invertedTimeMachine: visible = Self.maxVisibleItems
        }
        return max(0, min(min(Self.maxVisibleItems, visible), items))
    }

    func alpha(_ offset: Double) -> Double {
        let factor = offset > fadeMax ? offset - fadeMax : offset < fadeMin ? fadeMin - offset : 0
        return 1 - min(factor, fadeRange) / fadeRange * (1 - fadeMinAlpha)
    }

    /// CATransform3DTranslate(t, x, y, z): the translation applies first.
    private func translate(_ t: Transform3D, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.translation(x: x, y: y, z: z).concatenating(t)
    }

    /// CATransform3DRotate(t, angle, x, y, z): the rotation applies first.
    private func rotate(_ t: Transform3D, _ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.rotation(angle: angle, x: x, y: y, z: z).concatenating(t)
    }

    /// The port's CoverFlow2 pose: flat within 0.5 − flip/2, fully turned from 0.5 + flip/2,
    /// iCarousel's easeInOut between.
    func flipPose(_ offset: Double) -> Double {
        let a = abs(offset), low = 0.5 - flip / 2
        var turn = 1.0
        if a <= low {
            turn = 0
        } else if a < 0.5 + flip / 2 {
            let time = (a - low) / flip
            turn = time < 0.5 ? 0.5 * pow(time * 2, 3) : 0.5 * pow(time * 2 - 2, 3) + 1
        }
        return offset < 0 ? -turn : turn
    }

    func transform(offset: Double, items: Int, viewport: Size) -> Transform3D {
        var base = Transform3D.identity
        base.m34 = perspective
        base = translate(base, 0, 0, 0)   // viewpointOffset (0, 0)
        let count = Double(circularCount(items: items, width: viewport.width))
        let w = itemWidth
        switch kind {
        case .linear:
            return translate(base, offset * w * spacing, 0, 0)
        case .rotary, .invertedRotary:
            var r = radius ?? max(w * spacing / 2, w * spacing / 2 / tan(arc / 2 / count))
            var angle = offset / count * arc
            if kind == .invertedRotary { (r, angle) = (-r, -angle) }
            return translate(base, r * sin(angle), 0, r * cos(angle) - r)
        case .cylinder, .invertedCylinder:
            var r = radius ?? max(0.01, w * spacing / 2 / tan(arc / 2 / count))
            var angle = offset / count * arc
            if kind == .invertedCylinder { (r, angle) = (-r, -angle) }
            return translate(rotate(translate(base, 0, 0, -r), angle, 0, 1, 0), 0, 0, r + 0.01)
        case .wheel, .invertedWheel:
            var r = wheelRadius(count: Int(count))
            var angle = arc / count
            if kind == .invertedWheel { (r, angle) = (-r, -angle) }
            return translate(rotate(translate(base, 0, r, 0), angle * offset, 0, 0, 1), 0, -r, offset * 0.01)
        case .coverFlow, .coverFlow2:
            let c = kind == .coverFlow2 ? flipPose(offset) : max(-1, min(1, offset))
            let x = (c * 0.5 * tilt + offset * spacing) * w
            let z = abs(c) * -w * 0.5
            return rotate(translate(base, x, 0, z), -c * Double.pi / 2 * tilt, 0, 1, 0)
        case .timeMachine, .invertedTimeMachine:
            let (t, o) = kind == .invertedTimeMachine ? (-tilt, -offset) : (tilt, offset)
            return translate(base, o * w * t, 0, o * w * spacing)
        }
    }

    /// What iCarousel draws at content offset `frame.offset` (scrollOffset = offset / 200),
    /// back to front.
    func cards(_ frame: CatalogueFrame) -> [ExpectedCard] {
        let n = frame.numberOfItems, viewport = frame.viewport
        var s = frame.offset / itemWidth
        if wrap {
            s -= (s / Double(n)).rounded(.down) * Double(n)
        } else {
            s = min(max(s, -1), Double(max(n - 1, 0)) + 1)
        }
        func clampedIndex(_ i: Int) -> Int { wrap ? ((i % n) + n) % n : min(max(0, i), max(0, n - 1)) }
        let current = clampedIndex(Int(s.rounded()))   // C's round: halves away from zero
        let visible = visibleItems(items: n, viewport: viewport)
        var first = current - visible / 2
        if !wrap { first = max(0, min(n - visible, first)) }
        var shown: [(item: Int, t: Transform3D, alpha: Double, z: Double, x: Double)] = []
        for i in 0..<visible {
            let item = clampedIndex(first + i)
            var offset = Double(item) - s
            if wrap {
                if offset > Double(n) / 2 { offset -= Double(n) } else if offset < -Double(n) / 2 { offset += Double(n) }
            }
            let a = alpha(offset)
            guard a != 0 else { continue }
            let t = transform(offset: offset, items: n, viewport: viewport)
            shown.append((item, t, a, t.m13 + t.m23 + t.m33 + t.m43, t.m11 + t.m21 + t.m31 + t.m41))
        }
        let currentX = shown.first { $0.item == current }?.x ?? 0
        let ordered = shown.sorted { a, b in
            if a.z != b.z { return a.z < b.z }
            let (da, db) = (abs(a.x - currentX), abs(b.x - currentX))
            if da != db { return da > db }
            return a.item < b.item   // the comparator's ties: same zIndex, then index path
        }
        let center = Point(x: frame.offset + viewport.width / 2, y: viewport.height / 2)
        return ordered.filter { showBackfaces || $0.t.m33 > 0 }.map {
            ExpectedCard(item: $0.item, center: center, size: Size(width: itemWidth, height: itemWidth),
                         transform: $0.t, alpha: $0.alpha)
        }
    }

    /// Where a release at `offset` (points) with `velocity` (pt/ms) comes to rest, in points.
    func releaseTarget(offset: Double, velocity: Double, items n: Int, decelerationRate: Double = 0.95) -> Double {
        var o = offset / itemWidth
        var factor = 1.0
        if !wrap {
            o = min(max(o, -1), Double(n - 1) + 1)
            factor = 1 - min(abs(o - min(max(0, o), Double(n - 1))), 1)
        }
        let v = velocity * 1000 / itemWidth * factor
        var current = o.rounded()
        if !wrap { current = min(max(0, current), Double(n - 1)) }
        let distance = v == 0 ? 0 : -(v * v) / (2 * (-v * 30 * (1 - decelerationRate)))
        var target = current
        if abs(v) > 2 && abs(distance) > 0.1 {
            target = distance > 0 ? (o + distance).rounded(.up) : (o + distance).rounded(.down)
        } else if abs(v) > 2 && abs(o - current) > 0.1 {
            target = current + (v > 0 ? 1 : -1)
        }
        if !wrap { target = min(max(0, target), Double(n - 1)) }
        return target * itemWidth
    }
}

/// The catalogue's iCarousel ports against iCarousel's own formulas.
@Suite struct ICarouselFidelityTests {
    /// Offsets for a type that does not wrap: the start, between two items, on an item,
    /// halfway between (round goes up), near and at the end.
    static let flat: [Double] = [0, 100, 330, 600, 1234.5, 3700, 3800]
    /// For a wrapping type: also negative offsets and across the seam (19 → 0 at 3900).
    static let ring: [Double] = [0, 130, 600, 1234.5, 3700, 3900, 3950, 4050, -150, -1950]

    @Test func linear() throws {
        let model = ICarousel(.linear)
        try CatalogueHarness.expectFaithful("icarousel-linear", offsets: Self.flat) { model.cards($0) }
    }

    @Test func rotary() throws {
        let model = ICarousel(.rotary)
        try CatalogueHarness.expectFaithful("icarousel-rotary", offsets: Self.ring) { model.cards($0) }
    }

    @Test func invertedRotary() throws {
        let model = ICarousel(.invertedRotary)
        try CatalogueHarness.expectFaithful("icarousel-inverted-rotary", offsets: Self.ring) { model.cards($0) }
    }

    @Test func cylinder() throws {
        let model = ICarousel(.cylinder)
        try CatalogueHarness.expectFaithful("icarousel-cylinder", offsets: Self.ring) { model.cards($0) }
    }

    @Test func invertedCylinder() throws {
        let model = ICarousel(.invertedCylinder)
        try CatalogueHarness.expectFaithful("icarousel-inverted-cylinder", offsets: Self.ring) { model.cards($0) }
    }

    @Test func wheel() throws {
        let model = ICarousel(.wheel)
        try CatalogueHarness.expectFaithful("icarousel-wheel", offsets: Self.ring) { model.cards($0) }
    }

    @Test func invertedWheel() throws {
        let model = ICarousel(.invertedWheel)
        try CatalogueHarness.expectFaithful("icarousel-inverted-wheel", offsets: Self.ring) { model.cards($0) }
    }

    @Test func coverFlow() throws {
        let model = ICarousel(.coverFlow)
        try CatalogueHarness.expectFaithful("icarousel-coverflow", offsets: Self.flat) { model.cards($0) }
    }

    /// CoverFlow2's flip is driven by the scroll (the port's documented substitute for
    /// iCarousel's toggle timer); on an item it is iCarousel's CoverFlow2 exactly.
    @Test func coverFlow2() throws {
        let model = ICarousel(.coverFlow2)
        try CatalogueHarness.expectFaithful("icarousel-coverflow2", offsets: Self.flat + [1270, 1330]) { model.cards($0) }
        // At rest on an item, toggle is 0 in iCarousel: every card is CoverFlow's.
        let plain = ICarousel(.coverFlow)
        let frame = CatalogueFrame(viewport: Scenario.defaultViewportSize, offset: 1200, numberOfItems: 20,
                                   configuration: FlowLayoutConfiguration(), contentOffset: Point(x: 1200, y: 0))
        #expect(model.cards(frame).map(\.transform) == plain.cards(frame).map(\.transform))
    }

    @Test func timeMachine() throws {
        let model = ICarousel(.timeMachine)
        try CatalogueHarness.expectFaithful("icarousel-time-machine", offsets: Self.flat) { model.cards($0) }
    }

    @Test func invertedTimeMachine() throws {
        let model = ICarousel(.invertedTimeMachine)
        try CatalogueHarness.expectFaithful("icarousel-inverted-time-machine", offsets: Self.flat) { model.cards($0) }
    }

    /// iCarouselOptionTilt 0.5 on CoverFlow: the side cards turn by 45° instead of 81° and sit
    /// nearer the centre card, so they show wider.
    @Test func coverFlowTilt() throws {
        var model = ICarousel(.coverFlow)
        model.tilt = 0.5
        try CatalogueHarness.expectFaithful("icarousel-coverflow", offsets: Self.flat, params: ["tilt": 0.5]) {
            model.cards($0)
        }
        func width(of item: Int, tilt: Double) throws -> Double {
            let (frame, _) = try CatalogueHarness.frame("icarousel-coverflow", offset: 600, params: ["tilt": .number(tilt)])
            let card = try #require(frame.items.first { $0.indexPath.item == item })
            let corners = try #require(card.projectedQuad(contentOffset: frame.contentOffset)?.corners)
            return corners.map(\.x).max()! - corners.map(\.x).min()!
        }
        #expect(try width(of: 4, tilt: 0.5) > width(of: 4, tilt: 0.9) + 20)
    }

    /// Other options: Wrap off on Rotary (the window is clamped to the items: no 19, 18 … before 0),
    /// ShowBackfaces on InvertedCylinder (its far cards come back), Count and FadeMinAlpha.
    @Test func options() throws {
        var rotary = ICarousel(.rotary)
        rotary.wrap = false
        try CatalogueHarness.expectFaithful("icarousel-rotary", offsets: Self.flat, params: ["wrap": false]) { rotary.cards($0) }
        var inverted = ICarousel(.invertedCylinder)
        inverted.showBackfaces = true
        try CatalogueHarness.expectFaithful("icarousel-inverted-cylinder", offsets: Self.ring,
                                            params: ["showBackfaces": true]) { inverted.cards($0) }
        var cylinder = ICarousel(.cylinder)
        cylinder.count = 8
        try CatalogueHarness.expectFaithful("icarousel-cylinder", offsets: Self.ring, params: ["count": 8]) { cylinder.cards($0) }
        var machine = ICarousel(.timeMachine)
        machine.fadeMinAlpha = 0.5
        try CatalogueHarness.expectFaithful("icarousel-time-machine", offsets: Self.flat,
                                            params: ["fadeMinAlpha": 0.5]) { machine.cards($0) }
        let (start, _) = try CatalogueHarness.frame("icarousel-rotary", offset: 0, params: ["wrap": false])
        #expect(!start.items.contains { $0.indexPath.item == 19 })
        let (ring, _) = try CatalogueHarness.frame("icarousel-rotary", offset: 0)
        #expect(ring.items.contains { $0.indexPath.item == 19 })
    }

    /// The release: iCarousel's deceleration distance v/3 items (rate 0.95) rounded onward to
    /// an item boundary, a slow release back to the nearest item, clamped to the items unless
    /// the type wraps.
    @Test(arguments: [("icarousel-coverflow", 1234.0, 3.0), ("icarousel-coverflow", 1234, -3),
                      ("icarousel-coverflow", 1234, 0.3), ("icarousel-linear", 3600, 4),
                      ("icarousel-rotary", 0, -3), ("icarousel-wheel", 3850, 2.5),
                      ("icarousel-time-machine", 700, -0.45)])
    func release(name: String, offset: Double, velocity: Double) throws {
        let kinds: [String: ICarousel.Kind] = ["icarousel-coverflow": .coverFlow, "icarousel-linear": .linear,
                                               "icarousel-rotary": .rotary, "icarousel-wheel": .wheel,
                                               "icarousel-time-machine": .timeMachine]
        let model = ICarousel(try #require(kinds[name]))
        let effect = try CatalogueHarness.effect(name)
        let runner = ScenarioRunner(effect: effect, scriptName: "\(name).lua")
        let timeline = try runner.run(Scenario(name: "release", viewportSize: Scenario.defaultViewportSize,
                                               numberOfItems: [20],
                                               steps: [.jump(offset: offset), .fling(velocity: velocity)]))
        let snap = try #require(timeline.snaps.first)
        let want = model.releaseTarget(offset: offset, velocity: velocity, items: 20)
        #expect(abs(snap.targetContentOffset.x - want) < 1e-9, "\(name): \(snap.targetContentOffset.x) vs \(want)")
        let rest = try #require(timeline.frames.last)
        #expect(abs(rest.contentOffset.x - want) < 1e-6)
    }
}
