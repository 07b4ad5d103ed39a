import CardLayout
import Foundation
import Testing

/// A uniform horizontal strip: items 100 × 100 with no spacing in a 100 × 100 viewport,
/// so item k is centred at content offset 100·k (the pitch is 100), and the last of n
/// items rests at 100·(n − 1), the end of the content.
private final class StripEffect: Effect {
    var answer: (Double) -> Double = { $0 }
    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configuration.scrollDirection = .horizontal
        configuration.itemSize = Size(width: 100, height: 100)
        configuration.minimumLineSpacing = 0
        configuration.minimumInteritemSpacing = 0
    }
    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {}
    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        Point(x: answer(proposed.x), y: proposed.y)
    }
}

/// The `autoplay` step: FSPagerView's automaticSlidingInterval on the scenario clock.
@Suite struct AutoplayTests {
    static let viewport = Size(width: 100, height: 100)

    static func run(items: Int, interval: Double, duration: Double, fps: Double = 20,
                    effect: StripEffectBox = StripEffectBox()) throws -> Timeline {
        let scenario = Scenario(name: "auto", viewportSize: viewport, numberOfItems: [items], framesPerSecond: fps,
                                steps: [.autoplay(interval: interval, duration: duration)])
        return try ScenarioRunner(effect: effect.effect, scriptName: "strip").run(scenario)
    }

    /// The offset of the frame at `time` (frames are at i / fps exactly).
    static func offset(_ timeline: Timeline, at time: Double) -> Double? {
        timeline.frames.first { abs($0.time - time) < 1e-9 }?.contentOffset.x
    }

    /// Every second the next item comes to where the current one rested: 100, 200, 300,
    /// each reached 0.3 s (the scrollToItem ease) after the advance fired; halfway through
    /// the ease (smoothstep at u = ½) the content is halfway.
    @Test func advancesOnePitchEveryInterval() throws {
        let timeline = try Self.run(items: 4, interval: 1, duration: 3)
        #expect(Self.offset(timeline, at: 0.95) == 0)
        #expect(Self.offset(timeline, at: 1.0) == 0)          // the advance fires on this frame, at rest
        #expect(Self.offset(timeline, at: 1.15) == 50)        // u = 0.5: s = ½
        #expect(Self.offset(timeline, at: 1.3) == 100)
        #expect(Self.offset(timeline, at: 2.0) == 100)
        #expect(Self.offset(timeline, at: 2.3) == 200)
        #expect(Self.offset(timeline, at: 3.3) == 300)
        // The last advance fires at 3 s (the duration) and rests at 3.3 s: 67 frames at 20 fps.
        #expect(timeline.frames.count == 67)
        #expect(timeline.frames.last?.phase == .idle)
        #expect(timeline.frames.first { abs($0.time - 1.1) < 1e-9 }?.phase == .settling)
        #expect(timeline.snaps.map(\.time) == [1, 2, 3])
        #expect(timeline.snaps.map(\.proposedContentOffset.x) == [100, 200, 300])
        #expect(timeline.snaps.allSatisfy { $0.velocity == Point(x: 0, y: 0) })
    }

    /// After the last item it goes back to item 0, as FSPagerView (not infinite) does.
    @Test func afterTheLastItemGoesBackToTheFirst() throws {
        let timeline = try Self.run(items: 3, interval: 1, duration: 4)
        #expect([1.3, 2.3, 3.3, 4.3].map { Self.offset(timeline, at: $0) } == [100, 200, 0, 100])
        #expect(timeline.snaps.map(\.proposedContentOffset.x) == [100, 200, 0, 100])
        // Halfway back from 200 to 0.
        #expect(Self.offset(timeline, at: 3.15) == 100)
    }

    /// The script's targetContentOffset decides where each advance rests.
    @Test func theSnapRuleMovesEachAdvance() throws {
        let box = StripEffectBox()
        box.effect.answer = { $0 + 50 }
        let timeline = try Self.run(items: 6, interval: 0.5, duration: 1, effect: box)
        // From 0: proposal 100, answer 150 (items 1 and 2 equally near the centre: item 1
        // goes on); then proposal 250, answer 300.
        #expect(timeline.snaps.map(\.proposedContentOffset.x) == [100, 250])
        #expect(timeline.snaps.map(\.targetContentOffset.x) == [150, 300])
        #expect(timeline.frames.last?.contentOffset.x == 300)
        #expect(Self.offset(timeline, at: 0.8) == 150)
    }

    /// An interval shorter than the ease cuts the ease to the interval; an answer past the
    /// end is clamped to the content.
    @Test func shortIntervalsAndAnswersPastTheEnd() throws {
        let box = StripEffectBox()
        box.effect.answer = { $0 + 1000 }
        let timeline = try Self.run(items: 3, interval: 0.1, duration: 0.1, fps: 20, effect: box)
        #expect(timeline.snaps.map(\.targetContentOffset.x) == [1100])
        #expect(timeline.frames.last?.contentOffset.x == 200)
        #expect(abs((timeline.frames.last?.time ?? 0) - 0.2) < 1e-9)   // fired at 0.1, eased over 0.1 s
    }

    @Test func invalidAutoplaysAreRefusedBeforeRunning() throws {
        func error(_ step: ScenarioStep, fps: Double = 60) -> ScenarioError? {
            let scenario = Scenario(name: "a", viewportSize: Self.viewport, numberOfItems: [3], framesPerSecond: fps,
                                    steps: [step])
            do {
                _ = try ScenarioRunner(effect: StripEffect(), scriptName: "strip").run(scenario)
                return nil
            } catch {
                return error as? ScenarioError
            }
        }
        #expect(error(.autoplay(interval: 0.01, duration: 1))?.description
                == "scenario \"a\", step 1 (autoplay): autoplay must be at least one frame long (1/60 s at 60 fps; got 0.01 s)")
        #expect(error(.autoplay(interval: 0, duration: 1)) == .invalidAutoplayInterval(
            scenario: "a", stepIndex: 0, interval: 0, framesPerSecond: 60))
        #expect(error(.autoplay(interval: .nan, duration: 1)) != nil)
        #expect(error(.autoplay(interval: 1, duration: -1)) == .negativeDuration(
            scenario: "a", stepIndex: 0, kind: "autoplay", duration: -1))
        // As long as `wait` allows and no longer: the frame cap, before the step runs.
        #expect(error(.autoplay(interval: 1, duration: 1e12)) == .tooManyFrames(
            scenario: "a", stepIndex: 0, kind: "autoplay", limit: ScenarioRunner.defaultMaxFrames))
        #expect(error(.autoplay(interval: 1, duration: 0)) == nil)
    }
}

/// Holds a fresh strip effect (a class, so a test can set its answer first).
final class StripEffectBox {
    fileprivate let effect = StripEffect()
}
