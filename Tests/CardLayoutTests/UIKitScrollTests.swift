import Foundation
import Testing
@testable import CardLayout

// UIKit's scroll behaviour where cardlua once differed from it: the resting frame, the
// range tolerance, paging, where a fling stops, and the bounce flags. Every golden value
// is written out here from the formulas (never read back from the code under test):
//
// - stop rule (fitted to the SO 16155375 measurements): a fling stops once its speed
//   falls to 0.01 pt/ms, after T = ln(0.01/|v|)/ln d ms, at x0 + (v − 0.01·sgn v)·d/(1 − d);
// - free deceleration: x(t) = x0 + v·d·(1 − dᵗ)/(1 − d), speed v·dᵗ;
// - rubber band: (1 − 1/(x·0.55/L + 1))·L.

/// Configurable, and records what the runner asks of it.
private final class Probe: Effect {
    let configure: (inout FlowLayoutConfiguration, Size) -> Void
    /// The script's answer to `targetContentOffset`; nil keeps the proposal.
    var answer: ((Point) -> Point)?
    var targetCalls: [Point] = []
    var contexts: [ScrollContext] = []

    init(_ configure: @escaping (inout FlowLayoutConfiguration, Size) -> Void) {
        self.configure = configure
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configure(&configuration, viewportSize)
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws {
        contexts.append(context)
    }

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        targetCalls.append(proposed)
        return answer?(proposed) ?? proposed
    }
}

/// Horizontal cards of 300×500 with no insets or spacing: content 300·n wide, so in the
/// default 414×736 viewport the largest offset is 300·n − 414.
private func cards(_ configuration: inout FlowLayoutConfiguration, _ size: Size) {
    configuration.scrollDirection = .horizontal
    configuration.itemSize = Size(width: 300, height: 500)
    configuration.sectionInset = .zero
    configuration.minimumLineSpacing = 0
}

private enum Closed {
    static let cutoff = 0.01
    static func stopTime(_ v: Double, _ d: Double) -> Double { log(cutoff / abs(v)) / log(d) }
    static func stop(_ x0: Double, _ v: Double, _ d: Double) -> Double {
        x0 + (v - (v > 0 ? cutoff : -cutoff)) * d / (1 - d)
    }
    static func decay(_ x0: Double, _ v: Double, _ d: Double, _ t: Double) -> Double {
        x0 + v * d * (1 - pow(d, t)) / (1 - d)
    }
    /// Frames after the release frame for a motion of `ms` milliseconds at 60 fps.
    static func frames(_ ms: Double) -> Int { Int((ms * 60 / 1000 - 1e-9).rounded(.up)) }
}

@Suite("UIKit scroll behaviour")
struct UIKitScrollTests {
    // MARK: 4. Where a fling stops

    @Test func stopRuleAtTwoPointsPerMillisecond() throws {
        let x0 = 100.0, v = 2.0, d = 0.998
        // T = ln(0.005)/ln(0.998) = 2646.51 ms; x = 100 + 1.99·499 = 1093.01.
        let time = log(0.01 / 2) / log(0.998)
        let stop = 100 + (2 - 0.01) * 0.998 / 0.002
        #expect(abs(time - 2646.5086) < 1e-3)
        #expect(abs(stop - 1093.01) < 1e-9)
        #expect(abs(ScrollPhysics.stopTime(velocity: v, rate: d) - time) < 1e-9)
        #expect(abs(ScrollPhysics.stopTime(velocity: -v, rate: d) - time) < 1e-9)
        #expect(abs(ScrollPhysics.stopOffset(from: x0, velocity: v, rate: d) - stop) < 1e-9)
        #expect(abs(ScrollPhysics.stopOffset(from: 3000, velocity: -v, rate: d) - (3000 - 993.01)) < 1e-9)
        // The proposal is where the scroll would naturally stop: the stop-rule point.
        #expect(abs(ScrollPhysics.proposedOffset(from: x0, velocity: v, rate: d, range: 0...5000) - stop) < 1e-9)
        // Fast: T = ln(0.005)/ln(0.99) = 527.18 ms, x = 1.99·99 = 197.01.
        #expect(abs(ScrollPhysics.stopTime(velocity: 2, rate: 0.99) - 527.1781) < 1e-3)
        #expect(abs(ScrollPhysics.stopOffset(from: 0, velocity: 2, rate: 0.99) - 197.01) < 1e-9)

        // Kept by the effect: one free decay, lasting T, ending on the stop point at 0.01 pt/ms.
        let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v, target: stop, rate: d, range: 0...5000)
        try #require(motions.count == 1)
        let decay = motions[0]
        #expect(decay.phase == .decelerating)
        #expect(abs(decay.duration - time) < 1e-6)
        #expect(decay.end == stop)
        for t in [0.0, 16.7, 500, 2000, 2646] {
            #expect(abs(decay.offset(at: t) - Closed.decay(x0, v, d, t)) < 1e-6)
        }
        // Continuous at the end: the curve itself arrives at the stop point, at the cut-off speed.
        #expect(abs(decay.offset(at: time - 1e-7) - stop) < 1e-6)
        #expect(abs(decay.velocity(at: time) - 0.01) < 1e-9)
    }

    @Test func measuredFlingsFitTheStopRule() {
        // SO 16155375, normal rate: release offset, resting offset, velocity (pt/ms) and
        // time to rest (s), measured on a device. Resting offsets are whole pixels (0.5 pt).
        let measured: [(x0: Double, rest: Double, v: Double, seconds: Double)] = [
            (364, 2664.5, 4.620, 3.069), (2595.5, 3288.5, 1.399, 2.485),
            (3094.5, 1907, -2.390, 2.752), (143, 1275.5, 2.279, 2.719),
        ]
        for m in measured {
            let rest = ScrollPhysics.stopOffset(from: m.x0, velocity: m.v, rate: 0.998)
            #expect(abs(rest - m.rest) <= 0.5, "\(m)")                      // within pixel rounding
            #expect(abs(rest - Closed.stop(m.x0, m.v, 0.998)) < 1e-9)
            // Within about a frame (the measurements sample the display).
            #expect(abs(ScrollPhysics.stopTime(velocity: m.v, rate: 0.998) - m.seconds * 1000) <= 20, "\(m)")
        }
    }

    @Test func retimedDecayLandsOnTheTargetAtTheStopSpeed() throws {
        for (x0, v0, target) in [(120.0, 1.5, 900.0), (2000.0, -2.5, 700.0), (10.0, 0.2, 40.0)] {
            let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v0, target: target, rate: 0.998,
                                                       range: 0...5000)
            try #require(motions.count == 1)
            let decay = motions[0]
            // d' = D/(D + v0 − 0.01·sgn v0) stops exactly at the target when the speed is 0.01.
            let distance = target - x0
            let rate = distance / (distance + v0 - (v0 > 0 ? 0.01 : -0.01))
            let time = log(0.01 / abs(v0)) / log(rate)
            #expect(decay.phase == .decelerating)
            #expect(abs(decay.duration - time) < 1e-6 * time)
            #expect(decay.end == target)
            for t in [0.0, 16.7, 100, time / 2] {
                #expect(abs(decay.offset(at: t) - Closed.decay(x0, v0, rate, t)) < 1e-6)
            }
            #expect(abs(decay.velocity(at: 0) - v0) < 1e-12)
            #expect(abs(abs(decay.velocity(at: time)) - 0.01) < 1e-9)
            #expect(abs(decay.offset(at: time - 1e-7) - target) < 1e-6)
        }
    }

    @Test func slowReleasesDoNotMove() throws {
        for v in [0.01, -0.01, 0.004, 0] {
            #expect(ScrollPhysics.stopTime(velocity: v, rate: 0.998) == 0)
            #expect(ScrollPhysics.stopOffset(from: 500, velocity: v, rate: 0.998) == 500)
            #expect(ScrollPhysics.proposedOffset(from: 500, velocity: v, rate: 0.998, range: 0...5000) == 500)
            #expect(ScrollPhysics.releaseMotions(from: 500, velocity: v, target: 500, rate: 0.998,
                                                 range: 0...5000).isEmpty)
        }
        let timeline = try ScenarioRunner(effect: Probe(cards), scriptName: "s")
            .run(.fling(from: 500, velocity: 0.01))
        #expect(timeline.frames.map(\.contentOffset.x) == [500])
        #expect(timeline.snaps.first?.proposedContentOffset.x == 500)
    }

    @Test func flingRestsWhereTheStopRuleSays() throws {
        // 20 cards: content 6000, largest offset 5586. Released at 2 pt/ms from 0.
        let timeline = try ScenarioRunner(effect: Probe(cards), scriptName: "s").run(.fling(from: 0, velocity: 2))
        let stop = 1.99 * 499, time = Closed.stopTime(2, 0.998)
        let snap = try #require(timeline.snaps.first)
        #expect(abs(snap.proposedContentOffset.x - stop) < 1e-9)
        #expect(timeline.frames.count == 1 + Closed.frames(time))          // 159 frames after the release
        for (index, frame) in timeline.frames.enumerated().dropLast() {
            let t = Double(index) * 1000 / 60
            #expect(abs(frame.contentOffset.x - Closed.decay(0, 2, 0.998, t)) < 1e-6)
        }
        #expect(timeline.frames.last?.contentOffset.x == snap.proposedContentOffset.x)
    }

    // MARK: 1. The resting frame is idle

    @Test func restingFrameIsIdle() throws {
        // A plain fling.
        let probe = Probe(cards)
        let fling = try ScenarioRunner(effect: probe, scriptName: "s").run(.fling(from: 0, velocity: 2))
        let phases = fling.frames.map(\.phase)
        #expect(phases.first == .idle && phases.last == .idle)
        #expect(phases.dropFirst().dropLast().allSatisfy { $0 == .decelerating })
        #expect(probe.contexts.last?.isDecelerating == false)
        #expect(probe.contexts.dropLast().last?.isDecelerating == true)

        // A fling into the end (10 cards: largest offset 2586) that bounces.
        let bounce = try ScenarioRunner(effect: Probe(cards), scriptName: "s")
            .run(.fling(from: 0, velocity: 12, numberOfItems: [10]))
        #expect(bounce.frames.last?.phase == .idle)
        #expect(bounce.frames.last?.contentOffset.x == 2586)
        #expect(bounce.frames.dropLast().last?.phase == .settling)

        // A pull past the start, settling back.
        let pull = try ScenarioRunner(effect: Probe(cards), scriptName: "s")
            .run(Scenario(name: "pull", steps: [.drag(by: -100, duration: 0.5)]))
        #expect(pull.frames.last?.contentOffset.x == 0)
        #expect(pull.frames.last?.phase == .idle)
        #expect(pull.frames.contains { $0.phase == .settling })

        // An animated scrollToItem: 0.3 s = 18 frames, the 18th at rest.
        let scroll = try ScenarioRunner(effect: Probe(cards), scriptName: "s")
            .run(Scenario(name: "scroll", steps: [.scrollToItem(CardIndexPath(item: 5, section: 0))]))
        #expect(scroll.frames.count == 19)
        #expect(scroll.frames[1...17].allSatisfy { $0.phase == .settling })
        #expect(scroll.frames[18].phase == .idle)
        #expect(scroll.frames[18].contentOffset.x == 1650 - 207)
    }

    // MARK: 2. One tolerance for range tests

    @Test func rangeTestsShareOneTolerance() {
        let range = 0.0...(647.16 - 568)
        #expect(ScrollPhysics.offsetTolerance == 1e-6)
        #expect(ScrollPhysics.side(of: 79.16, in: range) == .inside)
        #expect(ScrollPhysics.side(of: 79.16 + 2e-6, in: range) == .after)
        #expect(ScrollPhysics.side(of: -5e-7, in: range) == .inside)
        #expect(ScrollPhysics.side(of: -2e-6, in: range) == .before)
        // A degenerate range is an equality test.
        #expect(ScrollPhysics.side(of: 4e-13, in: 0...0) == .inside)
        // The same tolerance in the rubber band and in paging: a rounding error past an edge
        // shows no rubber band, and a release a rounding error short of a page boundary
        // counts as on it (fast forwards from page 2 goes to page 3, not stays on 2).
        #expect(ScrollPhysics.rubberBandedOffset(79.16, range: range, dimension: 568) == 79.16)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 800 - 1e-7, velocity: 2, anchorOffset: 800,
                                          pageLength: 400, range: 0...4000) == 1200)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 800 + 1e-7, velocity: -2, anchorOffset: 800,
                                          pageLength: 400, range: 0...4000) == 400)
        // Content 2e-7 longer than the viewport fits; 2e-6 longer scrolls.
        #expect(!ScrollPhysics.allowsScrolling(range: 0...2e-7, bounces: true, alwaysBounce: false))
        #expect(ScrollPhysics.allowsScrolling(range: 0...2e-6, bounces: true, alwaysBounce: false))
    }

    @Test func releaseARoundingErrorPastTheEdgeBounces() throws {
        let edge = 647.16 - 568
        try #require(edge == 79.15999999999997)
        let v0 = -0.5423, d = 0.998
        for x0 in [79.16, 79.159] {
            let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v0, target: 0, rate: d, range: 0...edge)
            try #require(motions.map(\.phase) == [.decelerating, .settling], "from \(x0)")
            // Free deceleration reaches 0 when v0·d·(1 − dᵗ)/(1 − d) = −x0.
            let hit = log(1 - (0 - x0) * (1 - d) / (v0 * d)) / log(d)
            #expect(abs(motions[0].duration - hit) < 1e-6)
            #expect(motions[0].end == 0)
            // The bounce goes below 0 and returns.
            #expect(motions[1].offset(at: 40) < 0)
            #expect(motions[1].offset(at: motions[1].duration) == 0)
        }
        // The same through the runner: one item 647.16 tall in a 320×568 viewport.
        for x0 in [79.16, 79.159] {
            let probe = Probe { configuration, size in
                configuration.itemSize = Size(width: size.width, height: 647.16)
            }
            let timeline = try ScenarioRunner(effect: probe, scriptName: "s")
                .run(.fling(from: x0, velocity: v0, viewportSize: Size(width: 320, height: 568), numberOfItems: [1]))
            #expect(timeline.contentSize.height == 647.16)
            let ys = timeline.frames.map(\.contentOffset.y)
            #expect(ys.min()! < 0, "from \(x0)")
            #expect(ys.last == 0)
        }
    }

    // MARK: 3. Paging

    @Test func pagingRestsOnThePageWithoutAskingTheScript() throws {
        let probe = Probe { configuration, size in
            cards(&configuration, size)
            configuration.itemSize = size
            configuration.isPagingEnabled = true
        }
        probe.answer = { Point(x: $0.x + 123, y: $0.y) }          // would move the resting point
        let scenario = Scenario(name: "pages", viewportSize: Size(width: 400, height: 600), numberOfItems: [12],
                                steps: [.fling(velocity: 3), .drag(by: 150, duration: 2), .fling(velocity: -0.5)])
        let timeline = try ScenarioRunner(effect: probe, scriptName: "s").run(scenario)
        #expect(probe.targetCalls.isEmpty)
        // Fast: the next page (400); slow short drag: back to 400; fast back: page 0.
        #expect(timeline.snaps.map(\.proposedContentOffset.x) == [400, 400, 0])
        #expect(timeline.snaps.map(\.targetContentOffset.x) == [400, 400, 0])
        #expect(timeline.frames.last?.contentOffset.x == 0)
        #expect(timeline.frames.contains { $0.contentOffset.x == 400 && $0.phase == .idle })
    }

    // MARK: 5. Bounce flags

    @Test func bounceFlagDefaultsAreUIKits() {
        let configuration = FlowLayoutConfiguration()
        #expect(configuration.bounces)
        #expect(!configuration.alwaysBounceHorizontal)
        #expect(!configuration.alwaysBounceVertical)
    }

    /// One 200-pt card in a 414-pt viewport: the content fits.
    private func fittingRun(_ flags: @escaping (inout FlowLayoutConfiguration) -> Void) throws
        -> (timeline: Timeline, probe: Probe)
    {
        let probe = Probe { configuration, size in
            cards(&configuration, size)
            configuration.itemSize = Size(width: 200, height: 200)
            flags(&configuration)
        }
        let scenario = Scenario(name: "fits", numberOfItems: [1], steps: [
            .drag(by: 100, duration: 0.5), .fling(velocity: 3), .drag(by: -80, duration: 0.2), .fling(velocity: -2),
        ])
        return (try ScenarioRunner(effect: probe, scriptName: "s").run(scenario), probe)
    }

    @Test func contentThatFitsDoesNotMove() throws {
        let locked: [(inout FlowLayoutConfiguration) -> Void] = [
            { _ in },
            { $0.alwaysBounceVertical = true },                                  // the other axis
            { $0.alwaysBounceHorizontal = true; $0.bounces = false },            // needs bounces
        ]
        for flags in locked {
            let (timeline, probe) = try fittingRun(flags)
            #expect(timeline.contentSize.width == 200)
            // Start + 30 + 12 frames of the drags, holding the content still.
            #expect(timeline.frames.count == 43)
            #expect(timeline.frames.allSatisfy { $0.contentOffset == .zero && $0.phase == .idle })
            #expect(timeline.snaps.isEmpty && probe.targetCalls.isEmpty)
        }
        // alwaysBounceHorizontal: a drag rubber-bands and a fling flies out and comes back.
        let (timeline, _) = try fittingRun { $0.alwaysBounceHorizontal = true }
        let xs = timeline.frames.map(\.contentOffset.x)
        // 100 pt pulled past the edge shows (1 − 1/(100·0.55/414 + 1))·414 = 48.55.
        #expect(abs(xs[30] - 48.5501066) < 1e-6)
        #expect(xs.max()! > 48.56)                 // the fling at 3 pt/ms goes further
        #expect(xs.min()! < 0)
        #expect(xs.last == 0)
        #expect(timeline.snaps.count == 4)
    }

    @Test func withoutBouncesDragsClampAndFlingsStopAtTheEdge() throws {
        // Physics: a clamped drag, and a fling that stops dead on the edge.
        let drag = CardDragGesture(from: 50, by: -300, duration: 300, range: 0...2000, dimension: 414, bounces: false)
        #expect(drag.offset(at: 100) == 0 && drag.endOffset == 0)
        #expect(drag.offset(at: 25) == 25)
        let x0 = 2000.0, v0 = 5.0, d = 0.998, edge = 2586.0
        let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v0, target: edge, rate: d, range: 0...edge,
                                                   bounces: false)
        try #require(motions.map(\.phase) == [.decelerating])
        let hit = log(1 - (edge - x0) * (1 - d) / (v0 * d)) / log(d)
        #expect(abs(motions[0].duration - hit) < 1e-6)
        #expect(motions[0].end == edge)

        // Through the runner, with 10 cards (largest offset 2586).
        for overshoot in [0.0, 50] {
            let probe = Probe { configuration, size in
                cards(&configuration, size)
                configuration.bounces = false
            }
            probe.answer = { Point(x: $0.x + overshoot, y: 0) }     // 50: a target past the end
            let scenario = Scenario(name: "edges", numberOfItems: [10], steps: [
                .drag(by: -100, duration: 0.5), .jump(offset: 2000), .fling(velocity: 12),
            ])
            let timeline = try ScenarioRunner(effect: probe, scriptName: "s").run(scenario)
            let xs = timeline.frames.map(\.contentOffset.x)
            #expect(xs.allSatisfy { $0 >= 0 && $0 <= edge })
            #expect(xs[1...30].allSatisfy { $0 == 0 })
            #expect(xs.last == edge)
        }
    }
}
