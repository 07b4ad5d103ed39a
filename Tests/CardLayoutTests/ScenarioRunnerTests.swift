import Foundation
import Testing
@testable import CardLayout

// MARK: - Test effects

/// A native twin of lol.lua's layout and snapping: horizontal cards of
/// 300×500 at 414×736, insets 50 left/right and 200 top/bottom, no line spacing; on
/// release, the item nearest the centre among the items in the proposed rect.
/// It records what the runner asks of it.
private final class SnapEffect: Effect {
    var paging = false
    var rate = DecelerationRate.normal
    var transformContexts: [ScrollContext] = []
    var targetCalls: [(proposed: Point, velocity: Point, context: ScrollContext)] = []
    var prepareSizes: [Size] = []

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        prepareSizes.append(viewportSize)
        configuration.itemSize = Size(width: 300 * viewportSize.width / 414,
                                      height: 500 * viewportSize.height / 736)
        configuration.scrollDirection = .horizontal
        configuration.sectionInset = CardEdgeInsets(top: 200, left: 50, bottom: 200, right: 50)
        configuration.minimumLineSpacing = 0
        configuration.isPagingEnabled = paging
        configuration.decelerationRate = rate
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws {
        transformContexts.append(context)
        for index in attributes.indices {
            attributes[index].zIndex = 1
            let distance = abs(context.bounds.midX - attributes[index].center.x)
            attributes[index].alpha = max(0.2, 1 - distance / 1000)
        }
    }

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        targetCalls.append((proposed, velocity, context))
        let rect = Rect(origin: proposed, size: context.bounds.size)
        let midX = rect.midX
        var adjustment = Double.greatestFiniteMagnitude
        for attributes in layout.baseLayoutAttributes(in: rect)
        where abs(attributes.center.x - midX) < abs(adjustment) {
            adjustment = attributes.center.x - midX
        }
        return Point(x: proposed.x + adjustment, y: proposed.y)
    }
}

/// Keeps the proposal; the layout is whatever `configure` makes of the defaults.
private final class PassThroughEffect: Effect {
    let configure: @Sendable (inout FlowLayoutConfiguration, Size) -> Void
    var targetAnswer: ((Point) -> Point)?

    init(configure: @escaping @Sendable (inout FlowLayoutConfiguration, Size) -> Void = { _, _ in }) {
        self.configure = configure
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configure(&configuration, viewportSize)
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws {}

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        targetAnswer?(proposed) ?? proposed
    }
}

private struct Boom: Error, Equatable {}

private final class ThrowingEffect: Effect {
    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {}
    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws { throw Boom() }
    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point { proposed }
}

// MARK: - Independent closed forms for the seed layout (414×736, 20 items)

private enum Seed {
    static let width = 414.0
    static let maxOffset = 50 + 300 * 20 + 50 - 414.0          // 5686
    /// Item i spans [50 + 300i, 350 + 300i]; its centre is 200 + 300i.
    static func centre(_ item: Int) -> Double { 200 + 300 * Double(item) }
    static func centredOffset(_ item: Int) -> Double { centre(item) - width / 2 }

    /// Where the fling stops, x0 + (v0 − 0.01·sgn v0)·d/(1 − d), clamped.
    static func proposed(_ x0: Double, _ v0: Double, rate d: Double = 0.998) -> Double {
        min(max(x0 + (v0 - (v0 > 0 ? 0.01 : -0.01)) * d / (1 - d), 0), maxOffset)
    }

    /// Nearest centre to the proposal's midpoint among the items its rect meets.
    static func snapped(_ proposed: Double) -> Double {
        let mid = proposed + width / 2
        var best = Double.greatestFiniteMagnitude
        for item in 0..<20 {
            let lo = 50 + 300 * Double(item), hi = lo + 300
            guard lo < proposed + width, proposed < hi else { continue }
            if abs(centre(item) - mid) < abs(best) { best = centre(item) - mid }
        }
        return proposed + best
    }
}

private func offsets(_ frames: [Frame]) -> [Double] { frames.map(\.contentOffset.x) }

@Suite("Scenario runner")
struct ScenarioRunnerTests {
    // MARK: Single frames

    @Test func singleOffsetIsOneFrame() throws {
        let effect = SnapEffect()
        let timeline = try ScenarioRunner(effect: effect, scriptName: "seed.lua").run(.single(offset: 893))
        #expect(timeline.scriptName == "seed.lua")
        #expect(timeline.frames.count == 1)
        #expect(timeline.snaps.isEmpty)
        #expect(timeline.viewportSize == Size(width: 414, height: 736))
        #expect(timeline.contentSize == Size(width: 6100, height: 736))
        #expect(timeline.configuration.scrollDirection == .horizontal)
        #expect(timeline.framesPerSecond == 60)
        let frame = timeline.frames[0]
        #expect(frame.time == 0)
        #expect(frame.contentOffset == Point(x: 893, y: 0))
        #expect(frame.phase == .idle)
        #expect(frame.viewportSize == Size(width: 414, height: 736))
        // [893, 1307] meets items 2 ([650, 950]), 3 and 4 ([1250, 1550]).
        #expect(frame.items.map(\.indexPath.item) == [2, 3, 4])
        #expect(frame.items.allSatisfy { $0.zIndex == 1 })
        #expect(frame.items[1].frame == Rect(x: 950, y: 118, width: 300, height: 500))
        #expect(effect.transformContexts.count == 1)
        #expect(effect.prepareSizes == [Size(width: 414, height: 736)])
    }

    @Test func emptyScenarioShowsTheStart() throws {
        let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s")
            .run(Scenario(name: "empty", steps: []))
        #expect(timeline.frames.count == 1)
        #expect(timeline.frames[0].contentOffset == .zero)
    }

    // MARK: Flings

    @Test func flingMatchesTheClosedForms() throws {
        let effect = SnapEffect()
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").run(.fling(from: 0, velocity: 2))
        // Proposal 0 + 1.99·0.998/0.002 = 993.01; the nearest centre to 1200.01 is item 3's
        // (1100): 893.
        let proposed = Seed.proposed(0, 2)
        let target = Seed.snapped(proposed)
        #expect(abs(proposed - 993.01) < 1e-9)
        #expect(abs(target - 893) < 1e-9)
        try #require(timeline.snaps.count == 1)
        let snap = timeline.snaps[0]
        #expect(snap.time == 0)
        #expect(snap.proposedContentOffset.x == proposed && snap.proposedContentOffset.y == 0)
        #expect(snap.velocity == Point(x: 2, y: 0))
        #expect(snap.targetContentOffset.x == target)
        // The release context: the finger is up, not yet decelerating.
        #expect(effect.targetCalls.count == 1)
        #expect(effect.targetCalls[0].context.bounds.origin == .zero)
        #expect(effect.targetCalls[0].context.isTracking == false)

        // Re-timed decay: d' = D/(D + v0 − 0.01), x(t) = x0 + v0·d'·(1 − d'^t)/(1 − d'),
        // until the speed v0·d'^t is 0.01, exactly on the target.
        let d = target / (target + 2 - 0.01)
        let duration = log(0.01 / 2) / log(d)
        let frames = timeline.frames
        #expect(frames.count == 1 + Int((duration * 60 / 1000).rounded(.up)))
        #expect(frames[0].contentOffset == .zero && frames[0].phase == .idle)
        for (index, frame) in frames.enumerated().dropFirst().dropLast() {
            let t = Double(index) * 1000 / 60
            let expected = 2 * d * (1 - pow(d, t)) / (1 - d)
            #expect(abs(frame.contentOffset.x - expected) < 1e-6)
            #expect(frame.phase == .decelerating)
        }
        #expect(frames.last?.phase == .idle)
        // The landing frame is exactly the target, and the offsets never go back.
        #expect(frames.last?.contentOffset == Point(x: 893, y: 0))
        let xs = offsets(frames)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(xs.allSatisfy { $0 <= 893 })
        // Deceleration is reported to the effect, until the content rests.
        #expect(effect.transformContexts.dropFirst().dropLast().allSatisfy { $0.isDecelerating && !$0.isTracking })
        #expect(effect.transformContexts.last?.isDecelerating == false)
    }

    @Test func snapFlingsBothWaysAndNearBothEdges() throws {
        // (start, velocity): forward and back, weak and strong, near each edge.
        let cases: [(Double, Double)] = [
            (893, 0.3), (893, -0.31), (893, 1.2), (1793, -1.5), (300, -2), (5000, 2), (5393, -0.8), (0, -1),
        ]
        for (start, velocity) in cases {
            let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s")
                .run(.fling(from: start, velocity: velocity))
            let proposed = Seed.proposed(start, velocity)
            let target = Seed.snapped(proposed)
            let rest = min(max(target, 0), Seed.maxOffset)
            try #require(timeline.snaps.count == 1)
            #expect(abs(timeline.snaps[0].proposedContentOffset.x - proposed) < 1e-9)
            #expect(abs(timeline.snaps[0].targetContentOffset.x - target) < 1e-9)
            #expect(timeline.frames.last?.contentOffset.x == rest)
            // Decelerating frames move one way only: with the velocity, or towards the
            // target when it lies behind (that part is a spring, phase settling).
            let decelerating = timeline.frames.filter { $0.phase == .decelerating }.map(\.contentOffset.x)
            let forward = (target - start) > 0
            #expect(zip(decelerating, decelerating.dropFirst()).allSatisfy { forward ? $0 <= $1 : $0 >= $1 })
            if target < 0 || target > Seed.maxOffset {
                // Past an edge: reached, then settled back onto the edge.
                #expect(timeline.frames.contains { $0.phase == .settling })
                let xs = offsets(timeline.frames)
                #expect(target < 0 ? xs.min()! < 0 : xs.max()! > Seed.maxOffset)
            }
        }
    }

    @Test func flingIntoTheEndBouncesOffTheEdge() throws {
        // A pass-through effect keeps the clamped proposal (the end); the natural rest lies
        // far past it, so the content hits the end and bounces.
        let effect = PassThroughEffect { configuration, _ in
            configuration.scrollDirection = .horizontal
            configuration.itemSize = Size(width: 300, height: 500)
        }
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s")
            .run(.fling(from: 0, velocity: 12, numberOfItems: [10]))
        let maxOffset = timeline.contentSize.width - 414
        #expect(timeline.snaps.first?.targetContentOffset.x == maxOffset)
        let xs = offsets(timeline.frames)
        #expect(xs.max()! > maxOffset)
        #expect(xs.last == maxOffset)
        let phases = timeline.frames.map(\.phase)
        #expect(phases.first == .idle)
        #expect(phases.contains(.decelerating) && phases.dropLast().last == .settling && phases.last == .idle)
        // Every frame before the first settling one is short of the edge.
        let firstSettling = try #require(phases.firstIndex(of: .settling))
        #expect(xs[..<firstSettling].allSatisfy { $0 <= maxOffset })
    }

    // MARK: Drag

    @Test func dragIsLinearThenReleasesWithTheFingerVelocity() throws {
        let effect = SnapEffect()
        let scenario = Scenario(name: "drag", steps: [.drag(by: 600, duration: 1)])
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").run(scenario)
        // Frame 0 at rest, then 60 drag frames moving 10 pt each.
        for k in 1...60 {
            #expect(abs(timeline.frames[k].contentOffset.x - 10 * Double(k)) < 1e-9)
            #expect(timeline.frames[k].phase == .dragging)
            #expect(effect.transformContexts[k].isTracking && effect.transformContexts[k].isDragging)
        }
        #expect(timeline.frames[60].contentOffset.x == 600)
        // Released at 0.6 pt/ms: proposal 600 + 0.59·499 = 894.41 → item 3 (893).
        try #require(timeline.snaps.count == 1)
        #expect(timeline.snaps[0].time == 1)
        #expect(abs(timeline.snaps[0].velocity.x - 0.6) < 1e-12)
        #expect(abs(timeline.snaps[0].proposedContentOffset.x - Seed.proposed(600, 0.6)) < 1e-9)
        // The effect's answer (893 up to its own rounding) is where the content rests, exactly.
        #expect(abs(timeline.snaps[0].targetContentOffset.x - 893) < 1e-9)
        #expect(timeline.frames.last?.contentOffset == timeline.snaps[0].targetContentOffset)
    }

    @Test func dragPastTheStartRubberBandsAndSettlesBack() throws {
        // Viewport 960 wide: 100 pt past the edge shows 52.02.
        let effect = PassThroughEffect { configuration, _ in
            configuration.scrollDirection = .horizontal
            configuration.itemSize = Size(width: 300, height: 300)
        }
        let scenario = Scenario(name: "pull", viewportSize: Size(width: 960, height: 400),
                                steps: [.drag(by: -100, duration: 0.5)])
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").run(scenario)
        let lastDrag = try #require(timeline.frames.last { $0.phase == .dragging })
        #expect(abs(lastDrag.contentOffset.x + 52.02) <= 0.01)
        // Released out of range with the finger still pulling outwards: back to the edge.
        #expect(timeline.snaps.first?.targetContentOffset.x == 0)
        #expect(timeline.frames.last?.contentOffset.x == 0)
        #expect(timeline.frames.dropLast().last?.phase == .settling)
        #expect(timeline.frames.last?.phase == .idle)
    }

    // MARK: Paging

    @Test func pagingNeverMovesMoreThanOnePage() throws {
        let effect = PassThroughEffect { configuration, size in
            configuration.scrollDirection = .horizontal
            configuration.itemSize = size
            configuration.minimumLineSpacing = 0
            configuration.isPagingEnabled = true
        }
        let steps: [ScenarioStep] = [
            .fling(velocity: 3), .fling(velocity: 10), .drag(by: 900, duration: 0.3), .fling(velocity: -0.05),
            .drag(by: 150, duration: 2), .drag(by: 250, duration: 2), .fling(velocity: -8), .fling(velocity: -8),
            .fling(velocity: -8), .fling(velocity: 30), .drag(by: 5000, duration: 0.2),
        ]
        let scenario = Scenario(name: "pages", viewportSize: Size(width: 400, height: 600),
                                numberOfItems: [12], steps: steps)
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").run(scenario)
        let targets = timeline.snaps.map(\.targetContentOffset.x)
        #expect(targets.count == steps.count)
        var previous = 0.0
        for target in targets {
            #expect(abs(target - previous) <= 400)
            #expect(target.truncatingRemainder(dividingBy: 400) == 0)
            previous = target
        }
        // Fast releases turn a page; a slow short drag returns; a slow long one turns.
        #expect(Array(targets.prefix(4)) == [400, 800, 1200, 1200])
        #expect(targets[4] == 1200 && targets[5] == 1600)
        #expect(timeline.frames.last?.contentOffset.x == targets.last)
    }

    // MARK: scrollToItem, jump, wait, resize

    @Test func animatedScrollToItemEasesOntoTheCentredItem() throws {
        let scenario = Scenario(name: "scroll", steps: [
            .scrollToItem(CardIndexPath(item: 7, section: 0)),                 // UIKit's 0.3 s
            .scrollToItem(CardIndexPath(item: 19, section: 0), duration: 0),
            .scrollToItem(CardIndexPath(item: 0, section: 0), duration: 0.5),
        ])
        let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").run(scenario)
        // 1 start frame + 18 + 1 + 30.
        #expect(timeline.frames.count == 50)
        let first = Array(timeline.frames[1...18])
        #expect(first.dropLast().allSatisfy { $0.phase == .settling })
        #expect(first.last?.phase == .idle)                             // at rest
        let xs = offsets(first)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 })
        #expect(xs.last == Seed.centredOffset(7))                       // 2093
        // Item 19 centred would be 5693: clamped to the end; instant.
        #expect(timeline.frames[19].contentOffset.x == Seed.maxOffset)
        #expect(timeline.frames[19].phase == .idle)
        // Item 0 centred would be −7: clamped to 0.
        #expect(timeline.frames.last?.contentOffset.x == 0)
        #expect(timeline.snaps.isEmpty)
    }

    @Test func jumpAndWaitFrames() throws {
        let scenario = Scenario(name: "hold", framesPerSecond: 30, steps: [
            .jump(offset: 120), .wait(duration: 0.1), .jump(offset: -40), .wait(duration: 0),
        ])
        let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").run(scenario)
        #expect(offsets(timeline.frames) == [120, 120, 120, 120, -40])
        #expect(timeline.frames.allSatisfy { $0.phase == .idle })
        let times: [Double] = (0..<5).map { Double($0) / 30 }
        #expect(timeline.frames.map(\.time) == times)
    }

    @Test func resizeKeepsTheCentredItemCentred() throws {
        let effect = SnapEffect()
        let wide = Size(width: 600, height: 736), narrow = Size(width: 320, height: 568)
        let scenario = Scenario(name: "rotate", steps: [
            .scrollToItem(CardIndexPath(item: 5, section: 0), duration: 0),
            .resize(wide),
            .resize(narrow),
            .scrollToItem(CardIndexPath(item: 19, section: 0), duration: 0),
            .resize(Size(width: 414, height: 736)),
        ])
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").run(scenario)
        #expect(effect.prepareSizes == [Size(width: 414, height: 736), wide, narrow, Size(width: 414, height: 736)])
        // After each of the first two resizes item 5 is exactly centred in the new viewport.
        for (index, size) in [(2, wide), (3, narrow)] {
            let frame = timeline.frames[index]
            #expect(frame.viewportSize == size)
            #expect(frame.phase == .idle)
            let item = try #require(frame.items.first { $0.indexPath.item == 5 })
            // Item width 300·w/414; item 5's centre is 50 + 5.5·width.
            let itemWidth = 300 * size.width / 414
            #expect(abs(item.center.x - (50 + 5.5 * itemWidth)) < 1e-9)
            #expect(abs(item.center.x - frame.contentOffset.x - size.width / 2) < 1e-9)
        }
        // At the end item 19 cannot be centred: the offset is clamped to the new end.
        let last = try #require(timeline.frames.last)
        #expect(last.contentOffset.x == Seed.maxOffset)
        #expect(last.items.map(\.indexPath.item).contains(19))
        // The timeline keeps the starting viewport and layout.
        #expect(timeline.viewportSize == Size(width: 414, height: 736))
        #expect(timeline.contentSize == Size(width: 6100, height: 736))
    }

    // MARK: Axes, timing, determinism

    @Test func verticalScrollingMovesOnlyY() throws {
        let timeline = try ScenarioRunner(effect: PassThroughEffect(), scriptName: "s")
            .run(.fling(from: 100, velocity: 1.5, viewportSize: Size(width: 320, height: 480), numberOfItems: [200]))
        #expect(timeline.frames.allSatisfy { $0.contentOffset.x == 0 })
        #expect(timeline.snaps.first?.velocity == Point(x: 0, y: 1.5))
        #expect(timeline.snaps.first?.proposedContentOffset.x == 0)
        let target = 100 + (1.5 - 0.01) * 0.998 / 0.002
        #expect(abs(timeline.frames.last!.contentOffset.y - target) < 1e-9)
    }

    @Test func frameTimesAreExactMultiples() throws {
        for fps in [24.0, 60, 120] {
            let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s")
                .run(.fling(from: 0, velocity: 3, framesPerSecond: fps))
            for (index, frame) in timeline.frames.enumerated() {
                #expect(frame.time == Double(index) / fps)
            }
        }
    }

    @Test func oneTransformPerFrameAndOneTargetPerRelease() throws {
        let effect = SnapEffect()
        let timeline = try ScenarioRunner(effect: effect, scriptName: "s").runDemo()
        #expect(effect.transformContexts.count == timeline.frames.count)
        #expect(effect.targetCalls.count == timeline.snaps.count)
        #expect(zip(effect.transformContexts, timeline.frames).allSatisfy { $0.time == $1.time })
        #expect(effect.prepareSizes.count == 1)
    }

    @Test func runsAreDeterministic() throws {
        let first = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").runDemo()
        let second = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").runDemo()
        #expect(first == second)
        let scenario = Scenario(name: "mixed", steps: [
            .drag(by: -80, duration: 0.2), .fling(velocity: 2.5), .resize(Size(width: 500, height: 700)),
            .scrollToItem(CardIndexPath(item: 3, section: 0), duration: 0.25), .wait(duration: 0.1),
        ])
        #expect(try ScenarioRunner(effect: SnapEffect(), scriptName: "s").run(scenario)
                == (try ScenarioRunner(effect: SnapEffect(), scriptName: "s").run(scenario)))
    }

    @Test func demoSweepsSnapsAndBounces() throws {
        let effect = SnapEffect()
        let layout = try ScenarioRunner(effect: effect, scriptName: "s")
            .preparedLayout(viewportSize: Scenario.defaultViewportSize, numberOfItems: [20])
        let demo = Scenario.demo(layout: layout)
        #expect(demo.name == "demo")
        #expect(demo.steps.first == .jump(offset: 0))
        // The sweep moves the centre from item 0 (clamped: offset 0) to item 2 (593) in 1 s.
        #expect(demo.steps.contains(.drag(by: Seed.centredOffset(2), duration: 1)))

        let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").runDemo()
        #expect(timeline.snaps.count == 3)
        let xs = offsets(timeline.frames)
        // The last fling reaches past the end and settles back onto it.
        #expect(xs.max()! > Seed.maxOffset)
        #expect(xs.last == Seed.maxOffset)
        // Each snap lands on a card centred (or the card nearest an edge).
        for snap in timeline.snaps {
            let x = snap.targetContentOffset.x
            #expect(((x + 7) / 300).rounded() * 300 - 7 == x)
        }
        // A few seconds, not minutes.
        #expect(timeline.frames.count < 1200)
    }

    @Test func demoWithoutItemsIsAtRest() throws {
        let timeline = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").runDemo(numberOfItems: [0])
        #expect(timeline.frames.allSatisfy { $0.contentOffset == .zero && $0.items.isEmpty })
        #expect(timeline.snaps.isEmpty)
    }

    // MARK: Errors

    @Test func validationErrorsNameScenarioAndStep() {
        func error(_ scenario: Scenario) -> ScenarioError? {
            do {
                _ = try ScenarioRunner(effect: SnapEffect(), scriptName: "s").run(scenario)
                return nil
            } catch let error as ScenarioError {
                return error
            } catch {
                return nil
            }
        }
        for fps in [0.0, -30, .nan, .infinity] {
            let failure = error(Scenario(name: "bad fps", framesPerSecond: fps, steps: []))
            #expect(failure == .invalidFramesPerSecond(scenario: "bad fps", value: fps) || fps.isNaN)
            #expect(failure?.description.contains("scenario \"bad fps\"") == true)
        }
        #expect(error(Scenario(name: "v", viewportSize: Size(width: 0, height: 700), steps: []))
                == .invalidViewportSize(scenario: "v", stepIndex: nil, size: Size(width: 0, height: 700)))
        #expect(error(Scenario(name: "n", numberOfItems: [3, -1], steps: []))
                == .negativeItemCount(scenario: "n", section: 1, count: -1))

        let negative = error(Scenario(name: "neg", steps: [.wait(duration: 1), .drag(by: 10, duration: -0.5)]))
        #expect(negative == .negativeDuration(scenario: "neg", stepIndex: 1, kind: "drag", duration: -0.5))
        #expect(negative?.description == "scenario \"neg\", step 2 (drag): duration must not be negative (got -0.5)")
        #expect(error(Scenario(name: "w", steps: [.wait(duration: -1)]))
                == .negativeDuration(scenario: "w", stepIndex: 0, kind: "wait", duration: -1))
        #expect(error(Scenario(name: "s", steps: [.scrollToItem(CardIndexPath(item: 0, section: 0), duration: -1)]))
                == .negativeDuration(scenario: "s", stepIndex: 0, kind: "scrollToItem", duration: -1))

        let nan = error(Scenario(name: "f", steps: [.fling(velocity: .nan)]))
        #expect(nan?.description == "scenario \"f\", step 1 (fling): velocity must be a finite number (got nan)")
        #expect(error(Scenario(name: "j", steps: [.jump(offset: .infinity)]))
                == .nonFiniteValue(scenario: "j", stepIndex: 0, kind: "jump", field: "offset", value: .infinity))
        #expect(error(Scenario(name: "d", steps: [.drag(by: 1, duration: .infinity)]))
                == .nonFiniteValue(scenario: "d", stepIndex: 0, kind: "drag", field: "duration", value: .infinity))

        let missing = error(Scenario(name: "m", steps: [.scrollToItem(CardIndexPath(item: 20, section: 0), duration: 0)]))
        #expect(missing == .itemOutOfRange(scenario: "m", stepIndex: 0, indexPath: CardIndexPath(item: 20, section: 0),
                                           itemsInSection: 20))
        #expect(missing?.description == "scenario \"m\", step 1 (scrollToItem): no item 20 in section 0 (section 0 has 20 items)")
        #expect(error(Scenario(name: "m", steps: [.scrollToItem(CardIndexPath(item: 0, section: 1), duration: 0)]))
                == .itemOutOfRange(scenario: "m", stepIndex: 0, indexPath: CardIndexPath(item: 0, section: 1),
                                   itemsInSection: nil))
        #expect(error(Scenario(name: "r", steps: [.jump(offset: 0), .resize(Size(width: 300, height: -1))]))
                == .invalidViewportSize(scenario: "r", stepIndex: 1, size: Size(width: 300, height: -1)))
    }

    @Test func frameCapStopsRunawayScenarios() {
        let runner = ScenarioRunner(effect: SnapEffect(), scriptName: "s", maxFrames: 100)
        #expect(throws: ScenarioError.tooManyFrames(scenario: "long", stepIndex: 1, kind: "wait", limit: 100)) {
            try runner.run(Scenario(name: "long", steps: [.jump(offset: 0), .wait(duration: 10)]))
        }
        // A duration too large for an Int is reported, not trapped on.
        #expect(throws: ScenarioError.self) {
            try runner.run(Scenario(name: "huge", steps: [.wait(duration: 1e300)]))
        }
        // Exactly at the cap is fine: 1 + 99 frames.
        #expect(throws: Never.self) {
            try runner.run(Scenario(name: "edge", steps: [.jump(offset: 0), .wait(duration: 99.0 / 60)]))
        }
    }

    @Test func effectErrorsPropagateUnchanged() {
        #expect(throws: Boom()) {
            try ScenarioRunner(effect: ThrowingEffect(), scriptName: "s").run(.single(offset: 0))
        }
    }

    @Test func badAnswersFromTheEffectAreReported() {
        let rate = PassThroughEffect { configuration, _ in configuration.decelerationRate = DecelerationRate(rawValue: 1) }
        #expect(throws: ScenarioError.invalidDecelerationRate(scenario: "offset", rate: 1)) {
            try ScenarioRunner(effect: rate, scriptName: "s").run(.single(offset: 0))
        }
        let target = PassThroughEffect()
        target.targetAnswer = { _ in Point(x: 0, y: .nan) }
        let error = #expect(throws: ScenarioError.self) {
            // 200 default items (50×50, 7 a row) are longer than the viewport: they scroll.
            try ScenarioRunner(effect: target, scriptName: "s").run(.fling(from: 0, velocity: 1, numberOfItems: [200]))
        }
        // NaN never compares equal, so the case is taken apart.
        guard case let .invalidTargetContentOffset(scenario, stepIndex, kind, offset)? = error else {
            Issue.record("expected invalidTargetContentOffset, got \(String(describing: error))")
            return
        }
        #expect(scenario == "fling" && stepIndex == 1 && kind == "fling" && offset.y.isNaN)
        #expect(error?.description == "scenario \"fling\", step 2 (fling): targetContentOffset returned a non-finite offset (0, nan)")
    }
}
