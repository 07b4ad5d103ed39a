import Foundation
import Testing
@testable import CardLayout

// MARK: - Test effect

/// Horizontal cards of `cardWidth`×500 (at 414×736: insets 50 left/right, 200 top/bottom,
/// no spacing); on release, the offset that centres the card nearest the proposal's
/// centre: item i is centred at offset 50 + w·i + w/2 − 207.
private final class CentreSnapEffect: Effect {
    let cardWidth: Double
    var targetCalls = 0

    init(cardWidth: Double = 300) { self.cardWidth = cardWidth }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configuration.itemSize = Size(width: cardWidth * viewportSize.width / 414,
                                      height: 500 * viewportSize.height / 736)
        configuration.scrollDirection = .horizontal
        configuration.sectionInset = CardEdgeInsets(top: 200, left: 50, bottom: 200, right: 50)
        configuration.minimumLineSpacing = 0
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws {
        for index in attributes.indices { attributes[index].zIndex = 1 }
    }

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        targetCalls += 1
        let item = ((proposed.x + 207 - 50 - cardWidth / 2) / cardWidth).rounded()
        return Point(x: 50 + cardWidth * item + cardWidth / 2 - 207, y: 0)
    }
}

// MARK: - Independent closed forms (414×736, 20 cards of 300)

private enum Layout {
    static let width = 414.0
    static let maxOffset = 50 + 300 * 20 + 50 - 414.0          // 5686
    static let rate = 0.998
    /// Offset that centres item i: 200 + 300i − 207.
    static func centred(_ item: Int) -> Double { 300 * Double(item) - 7 }
    /// Free deceleration's stop, x0 + (v − 0.01·sgn v)·d/(1 − d), clamped.
    static func proposed(_ x0: Double, _ v: Double) -> Double {
        min(max(x0 + (v - (v > 0 ? 0.01 : -0.01)) * rate / (1 - rate), 0), maxOffset)
    }
    /// The nearest centred offset.
    static func snapped(_ proposed: Double) -> Double {
        centred(Int(((proposed + 7) / 300).rounded()))
    }
    /// UIKit's rubber band: (1 − 1/(x·0.55/L + 1))·L.
    static func rubberBand(_ x: Double) -> Double {
        (1 - 1 / (x * 0.55 / width + 1)) * width
    }
}

/// The offset the session shows long after everything has settled.
private func restingOffset(_ live: InteractiveScrollView) -> Double {
    live.state(at: live.state.time + 30).contentOffset.x
}

@Suite("Interactive scroll view")
struct LiveScrollTests {
    @Test func dragFollowsTheFingerAndRubberBandsPastTheEdge() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scroll(byWheel: Point(x: 1000, y: 0), at: 0.1)
        try live.touchDown(at: 0.5)
        #expect(live.state.isTracking && !live.state.isDragging)
        // Finger left by 123.5: the content offset grows by as much.
        try live.drag(to: Point(x: -123.5, y: 40), at: 0.6)
        #expect(live.state.contentOffset == Point(x: 1123.5, y: 0))
        #expect(live.state.phase == .dragging && live.state.isDragging)
        try live.drag(to: Point(x: 250, y: 0), at: 0.7)
        #expect(live.state.contentOffset.x == 750)
        // Past the start: the finger is at −200, 200 points past the edge.
        try live.drag(to: Point(x: 1200, y: 0), at: 0.8)
        let expected = -Layout.rubberBand(200)
        #expect(abs(live.state.contentOffset.x - expected) < 1e-9)
        // By hand: 200·0.55/414 = 0.26570, 1 − 1/1.26570 = 0.20992, ×414 = 86.91.
        #expect(abs(expected + 86.91) < 0.01)
        // The frames show the finger's latest position at each tick.
        let frames = try live.frames(until: 0.8)
        #expect(frames.count == 49)
        #expect(frames[6].contentOffset.x == 1000 && frames[6].phase == .idle)
        #expect(frames[37].contentOffset.x == 1123.5 && frames[37].phase == .dragging)
        #expect(frames[42].contentOffset.x == 750)
        #expect(abs(frames[48].contentOffset.x - expected) < 1e-9)
    }

    @Test func releaseRestsOnTheEffectsSnapTarget() throws {
        let effect = CentreSnapEffect()
        let live = try InteractiveScrollView(effect: effect)
        try live.touchDown(at: 1)
        try live.drag(to: Point(x: -200, y: 0), at: 1.1)
        try live.drag(to: Point(x: -400, y: 0), at: 1.3)
        // Content velocity +1.5 pt/ms (the finger moves left).
        try live.release(velocity: Point(x: -1.5, y: 0), at: 1.3)
        let proposed = Layout.proposed(400, 1.5)
        let target = Layout.snapped(proposed)
        #expect(abs(proposed - 1143.51) < 1e-9)
        #expect(target == 1193)
        #expect(effect.targetCalls == 1)
        let snap = try #require(live.lastSnap)
        #expect(abs(snap.proposedContentOffset.x - proposed) < 1e-9)
        #expect(snap.targetContentOffset.x == target)
        #expect(snap.velocity.x == 1.5)
        #expect(live.state(at: 1.4).phase == .decelerating)
        #expect(live.state(at: 1.4).isDecelerating)
        #expect(restingOffset(live) == target)
        let frames = try live.frames(until: 8)
        #expect(frames.last?.contentOffset.x == target)
        #expect(frames.last?.phase == .idle)
        #expect(live.state(at: 8).centredItem == CardIndexPath(item: 4, section: 0))
        // The motion only moves forwards, from the release to the target.
        let moving = frames.filter { $0.time > 1.3 }.map(\.contentOffset.x)
        #expect(zip(moving, moving.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(moving.first.map { $0 > 400 } == true)
    }

    @Test func touchDuringDecelerationStopsWhereTheContentIs() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.touchDown(at: 0)
        try live.drag(to: Point(x: -100, y: 0), at: 0.1)
        try live.release(velocity: Point(x: -3, y: 0), at: 0.1)
        let target = Layout.snapped(Layout.proposed(100, 3))
        let moving = live.state(at: 0.4)
        #expect(moving.phase == .decelerating)
        #expect(moving.contentOffset.x > 100 && moving.contentOffset.x < target)
        try live.touchDown(at: 0.4)
        let held = live.state
        #expect(held.contentOffset == moving.contentOffset)
        #expect(held.isTracking && !held.isDecelerating)
        // Lifting without dragging asks nothing and leaves the content there.
        try live.release(velocity: .zero, at: 0.6)
        #expect(restingOffset(live) == moving.contentOffset.x)
        #expect(live.lastSnap?.targetContentOffset.x == target)
        let later = try live.frames(until: 2).filter { $0.time >= 0.4 }
        #expect(!later.isEmpty && later.allSatisfy { $0.contentOffset == moving.contentOffset && $0.phase == .idle })
    }

    @Test func wheelMovesTheOffsetClampedToTheRange() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scroll(byWheel: Point(x: -50, y: 0), at: 0.1)
        #expect(live.state.contentOffset.x == 0)
        try live.scroll(byWheel: Point(x: 300, y: 900), at: 0.2)
        #expect(live.state.contentOffset == Point(x: 300, y: 0))
        try live.scroll(byWheel: Point(x: 1e6, y: 0), at: 0.3)
        #expect(live.state.contentOffset.x == Layout.maxOffset)
        #expect(live.state.phase == .idle)
        // Consecutive wheel scrolls are recorded as one jump to where they left the content.
        #expect(live.recordedScenario().steps == [.wait(duration: 0.3), .jump(offset: Layout.maxOffset)])
    }

    @Test func resizeKeepsTheCentredItemCentred() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scrollToItem(CardIndexPath(item: 5, section: 0), animated: 0, at: 0.1)
        #expect(live.state.contentOffset.x == Layout.centred(5))
        try live.resize(to: Size(width: 500, height: 736), at: 0.2)
        // Cards of 300·500/414 wide; item 5's centre 50 + 5.5·w, minus half the new width.
        let cardWidth = 300 * 500 / 414.0
        let expected = 50 + 5.5 * cardWidth - 250
        #expect(abs(live.state.contentOffset.x - expected) < 1e-9)
        #expect(live.state.centredItem == CardIndexPath(item: 5, section: 0))
        #expect(live.state.viewportSize == Size(width: 500, height: 736))
        let frame = try #require(try live.frames(until: 0.2).last)
        #expect(frame.viewportSize == Size(width: 500, height: 736))
        #expect(abs(frame.contentOffset.x - expected) < 1e-9)
    }

    @Test func animatedScrollToItemEasesOntoTheItem() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scrollToItem(CardIndexPath(item: 3, section: 0), animated: 0.3, at: 0.5)
        // Halfway through a smoothstep is halfway there.
        #expect(abs(live.state(at: 0.65).contentOffset.x - Layout.centred(3) / 2) < 1e-9)
        #expect(live.state(at: 0.65).phase == .settling)
        #expect(live.state(at: 0.8).contentOffset.x == Layout.centred(3))
        #expect(live.state(at: 0.8).phase == .idle)
        #expect(throws: InteractiveScrollView.InputError.itemOutOfRange(CardIndexPath(item: 20, section: 0))) {
            try live.scrollToItem(CardIndexPath(item: 20, section: 0), at: 1)
        }
    }

    @Test func reloadKeepsTheOffsetClamped() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scroll(byWheel: Point(x: 3000, y: 0), at: 0.1)
        // Cards of 200: content 50 + 4000 + 50, largest offset 3686.
        try live.reload(effect: CentreSnapEffect(cardWidth: 200), at: 0.5)
        #expect(live.state.contentOffset.x == 3000)
        #expect(live.state.contentSize.width == 4100)
        // Cards of 100: largest offset 2100 − 414 = 1686.
        try live.reload(effect: CentreSnapEffect(cardWidth: 100), at: 0.6)
        #expect(live.state.contentOffset.x == 1686)
        #expect(live.recordedScenario().steps == [.jump(offset: 1686)])
        // Frames due before the reload and not fetched are dropped.
        let frames = try live.frames(until: 0.7)
        #expect(frames.first?.time == 36.0 / 60)
        #expect(frames.allSatisfy { $0.contentOffset.x == 1686 })
    }

    @Test func framesAreSampledAtExactlyIOverFps() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect(), framesPerSecond: 30)
        try live.touchDown(at: 0.013)
        try live.drag(to: Point(x: -37, y: 0), at: 0.217)
        try live.release(velocity: Point(x: -0.9, y: 0), at: 0.301)
        let first = try live.frames(until: 1)
        #expect(first.count == 31)
        #expect(first.enumerated().allSatisfy { $0.element.time == Double($0.offset) / 30 })
        #expect(try live.frames(until: 1).isEmpty)
        let next = try live.frames(until: 1.05)
        #expect(next.map(\.time) == [31.0 / 30])
        // The frame at 0.2 still shows the finger down but not moved; 7/30 shows the drag.
        #expect(first[6].contentOffset.x == 0 && first[6].phase == .idle)
        #expect(first[7].contentOffset.x == 37 && first[7].phase == .dragging)
        try live.skipFrames(until: 5)
        #expect(try live.frames(until: 5.04).map(\.time) == [151.0 / 30])
    }

    @Test func recordedScenarioReplaysToTheSameRestingOffsets() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        var liveSnaps: [SnapEvent] = []
        var liveRests: [Double] = []
        // A drag forwards along an uneven path, released fast.
        try live.touchDown(at: 0.5)
        for (k, x) in [-30.0, -110, -260, -480, -655.25].enumerated() {
            try live.drag(to: Point(x: x, y: 3), at: 0.5 + 0.08 * Double(k + 1))
        }
        try live.release(velocity: Point(x: -2.3, y: 0), at: 0.9)
        liveSnaps.append(try #require(live.lastSnap))
        liveRests.append(live.state(at: 5).contentOffset.x)
        // After a wait, a drag back, released slowly the other way.
        try live.touchDown(at: 6.25)
        try live.drag(to: Point(x: 90, y: 0), at: 6.4)
        try live.drag(to: Point(x: 310.5, y: 0), at: 6.7)
        try live.release(velocity: Point(x: 0.8, y: 0), at: 6.75)
        liveSnaps.append(try #require(live.lastSnap))
        liveRests.append(live.state(at: 12).contentOffset.x)

        let scenario = live.recordedScenario()
        #expect(scenario.steps.map(\.kind) == ["wait", "drag", "wait", "drag"])
        #expect(scenario.steps[1] == .drag(by: 655.25, duration: 0.4, velocity: 2.3))
        #expect(scenario.steps[3] == .drag(by: -310.5, duration: 0.5, velocity: -0.8))
        // Independent: the first release is at 655.25 with +2.3, the second from its rest.
        let first = Layout.snapped(Layout.proposed(655.25, 2.3))
        let second = Layout.snapped(Layout.proposed(first - 310.5, -0.8))
        #expect(liveRests == [first, second])

        let replay = try ScenarioRunner(effect: CentreSnapEffect(), scriptName: "replay").run(scenario)
        #expect(replay.snaps.count == 2)
        for (a, b) in zip(replay.snaps, liveSnaps) {
            #expect(abs(a.proposedContentOffset.x - b.proposedContentOffset.x) < 1e-9)
            #expect(abs(a.targetContentOffset.x - b.targetContentOffset.x) < 1e-9)
            #expect(a.velocity == b.velocity)
        }
        // Where the replay rests after each release: the idle frame ending each motion.
        let rests = zip(replay.frames, replay.frames.dropFirst())
            .filter { $0.0.phase != .idle && $0.0.phase != .dragging && $0.1.phase == .idle }
            .map(\.1.contentOffset.x)
        #expect(rests.count == 2)
        for (a, b) in zip(rests, liveRests) { #expect(abs(a - b) < 1e-9) }
    }

    @Test func interruptedFlingReplaysWithAJump() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.touchDown(at: 0.2)
        try live.drag(to: Point(x: -150, y: 0), at: 0.35)
        try live.release(velocity: Point(x: -4, y: 0), at: 0.35)
        try live.touchDown(at: 0.6)
        let stopped = live.state.contentOffset.x
        try live.drag(to: Point(x: 80, y: 0), at: 0.7)
        try live.release(velocity: Point(x: 0.5, y: 0), at: 0.75)
        let rest = live.state(at: 10).contentOffset.x
        #expect(rest == Layout.snapped(Layout.proposed(stopped - 80, -0.5)))

        let scenario = live.recordedScenario()
        #expect(scenario.steps.map(\.kind) == ["wait", "drag", "jump", "drag"])
        #expect(scenario.steps[2] == .jump(offset: stopped))
        let replay = try ScenarioRunner(effect: CentreSnapEffect(), scriptName: "replay").run(scenario)
        #expect(replay.snaps.count == 2)
        #expect(abs((replay.frames.last?.contentOffset.x ?? .nan) - rest) < 1e-9)
    }

    @Test func dragPastTheEndBouncesBackAndReplays() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        try live.scroll(byWheel: Point(x: Layout.maxOffset - 100, y: 0), at: 0.1)
        try live.touchDown(at: 0.3)
        // The finger pulls 250 past the end: 100 inside, then 150 of rubber band.
        try live.drag(to: Point(x: -250, y: 0), at: 0.6)
        #expect(abs(live.state.contentOffset.x - (Layout.maxOffset + Layout.rubberBand(150))) < 1e-9)
        try live.release(velocity: Point(x: -0.4, y: 0), at: 0.6)
        // The proposal is clamped to the end; the effect snaps it to the last card (19).
        let snap = try #require(live.lastSnap)
        #expect(snap.proposedContentOffset.x == Layout.maxOffset)
        #expect(snap.targetContentOffset.x == Layout.centred(19))
        #expect(restingOffset(live) == Layout.maxOffset)
        // A touch during the bounce holds the content past the edge; lifting it springs back.
        try live.touchDown(at: 0.4)   // earlier than the latest event: counts as 0.6
        try live.release(velocity: .zero, at: 0.65)
        #expect(restingOffset(live) == Layout.maxOffset)

        let scenario = live.recordedScenario()
        #expect(scenario.steps.map(\.kind) == ["wait", "jump", "wait", "drag", "jump"])
        let replay = try ScenarioRunner(effect: CentreSnapEffect(), scriptName: "replay").run(scenario)
        #expect(replay.snaps.first?.targetContentOffset == snap.targetContentOffset)
        #expect(replay.frames.last?.contentOffset.x == Layout.maxOffset)
    }

    @Test func scenarioDragWithAReleaseVelocity() throws {
        let effect = CentreSnapEffect()
        let scenario = Scenario(name: "v", steps: [.drag(by: 300, duration: 0.4, velocity: 1.2)])
        let timeline = try ScenarioRunner(effect: effect, scriptName: "v").run(scenario)
        let snap = try #require(timeline.snaps.first)
        #expect(snap.velocity.x == 1.2)
        #expect(abs(snap.proposedContentOffset.x - Layout.proposed(300, 1.2)) < 1e-9)
        #expect(timeline.frames.last?.contentOffset.x == Layout.snapped(Layout.proposed(300, 1.2)))
        // Without it the release keeps the drag's own speed, 300/400 pt/ms.
        let plain = try ScenarioRunner(effect: effect, scriptName: "v")
            .run(Scenario(name: "v", steps: [.drag(by: 300, duration: 0.4)]))
        #expect(plain.snaps.first?.velocity.x == 0.75)
        #expect(throws: ScenarioError.nonFiniteValue(scenario: "v", stepIndex: 0, kind: "drag", field: "velocity",
                                                     value: .infinity)) {
            try Scenario(name: "v", steps: [.drag(by: 1, duration: 1, velocity: .infinity)]).validate()
        }
    }

    @Test func badInputIsAnError() throws {
        let live = try InteractiveScrollView(effect: CentreSnapEffect())
        #expect(throws: InteractiveScrollView.InputError.nonFiniteValue(field: "time", value: .infinity)) {
            try live.touchDown(at: .infinity)
        }
        #expect(throws: InteractiveScrollView.InputError.invalidViewportSize(Size(width: 0, height: 10))) {
            try live.resize(to: Size(width: 0, height: 10), at: 1)
        }
        #expect(throws: InteractiveScrollView.InputError.invalidFramesPerSecond(0)) {
            _ = try InteractiveScrollView(effect: CentreSnapEffect(), framesPerSecond: 0)
        }
    }
}
