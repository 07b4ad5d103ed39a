import Foundation
import Testing
@testable import CardLayout

// Golden values come from the closed forms of docs/physics.md, written out here again
// (never read back from the code under test).

private func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Samples a motion every `step` ms through its end.
private func samples(_ motion: ScrollMotion, step: Double = 1) -> [Double] {
    var values: [Double] = []
    var t = 0.0
    while t < motion.duration {
        values.append(motion.offset(at: t))
        t += step
    }
    values.append(motion.offset(at: motion.duration))
    return values
}

@Suite("Scroll physics")
struct ScrollPhysicsTests {
    // MARK: Decay

    @Test func restingAndProposedOffsets() {
        // x0 + v0·d/(1 − d): 100 + 2·0.998/0.002 = 1098.
        #expect(approx(ScrollPhysics.restingOffset(from: 100, velocity: 2, rate: 0.998), 1098, 1e-6))
        // fast: 2·0.99/0.01 = 198.
        #expect(approx(ScrollPhysics.restingOffset(from: 0, velocity: 2, rate: 0.99), 198, 1e-9))
        // The proposal is where the fling stops (speed 0.01 pt/ms): 100 + 1.99·499 = 1093.01;
        // clamped to the scrollable range, both ways.
        #expect(approx(ScrollPhysics.proposedOffset(from: 100, velocity: 2, rate: 0.998, range: 0...5000), 1093.01, 1e-6))
        #expect(ScrollPhysics.proposedOffset(from: 100, velocity: 2, rate: 0.998, range: 0...600) == 600)
        #expect(ScrollPhysics.proposedOffset(from: 100, velocity: -2, rate: 0.998, range: 0...600) == 0)
        #expect(ScrollPhysics.proposedOffset(from: 300, velocity: 0, rate: 0.998, range: 0...600) == 300)
    }

    @Test func decayPositionAndVelocity() {
        // 0.998^100 = 0.8185668046884277; x(100) = 2·0.998·(1 − 0.998^100)/0.002.
        #expect(approx(ScrollPhysics.decayOffset(from: 0, velocity: 2, rate: 0.998, time: 100),
                       998 * (1 - 0.8185668046884277), 1e-9))
        #expect(approx(ScrollPhysics.decayOffset(from: 50, velocity: -1, rate: 0.99, time: 250),
                       50 - 0.99 * (1 - pow(0.99, 250)) / 0.01, 1e-9))
        #expect(approx(ScrollPhysics.decayVelocity(2, rate: 0.998, time: 100), 2 * 0.8185668046884277, 1e-12))
    }

    @Test func retimedDecayLandsExactlyOnTarget() throws {
        let x0 = 120.0, v0 = 1.5, target = 900.0
        let motion = try #require(ScrollMotion.decay(from: x0, velocity: v0, to: target))
        #expect(motion.phase == .decelerating)
        // d' = D/(D + v0 − 0.01); duration = ln(0.01/v0)/ln d' (the stop rule's cut-off).
        let d = target - x0
        let rate = d / (d + v0 - 0.01)
        guard case let .decay(actualRate, amplitude) = motion.curve else {
            Issue.record("expected a decay"); return
        }
        #expect(approx(actualRate, rate, 1e-12))
        #expect(approx(amplitude, v0 * rate / (1 - rate), 1e-6))
        #expect(approx(motion.duration, log(0.01 / v0) / log(rate), 1e-6))
        // x(t) = x0 + v0·d'·(1 − d'^t)/(1 − d') at a few moments.
        for t in [0.0, 16.0, 100.0, 500.0] {
            let expected = x0 + v0 * rate * (1 - pow(rate, t)) / (1 - rate)
            #expect(approx(motion.offset(at: t), expected, 1e-6))
        }
        // Velocity starts at v0 and falls to 0.01 exactly on the target.
        #expect(approx(motion.velocity(at: 0), v0, 1e-9))
        #expect(approx(motion.velocity(at: motion.duration), 0.01, 1e-9))
        #expect(approx(target - motion.offset(at: motion.duration - 1e-9), 0, 1e-6))
        #expect(motion.offset(at: motion.duration) == target)
        #expect(motion.offset(at: motion.duration + 1000) == target)
    }

    @Test func decayNeverReversesInEitherDirection() throws {
        for (x0, v0, target) in [(0.0, 3.0, 1450.0), (2000.0, -2.5, 700.0), (10.0, 0.2, 40.0), (500.0, -0.05, 480.0)] {
            let motion = try #require(ScrollMotion.decay(from: x0, velocity: v0, to: target))
            let values = samples(motion)
            for (a, b) in zip(values, values.dropFirst()) {
                #expect(v0 > 0 ? b >= a : b <= a)
            }
            for t in stride(from: 0.0, through: motion.duration, by: 7) {
                #expect(motion.velocity(at: t) * v0 > 0)
            }
            #expect(values.last == target)
        }
    }

    @Test func decayRefusedWhenTargetIsNotAheadOrVelocityCreeps() {
        #expect(ScrollMotion.decay(from: 0, velocity: 2, to: -100) == nil)     // behind
        #expect(ScrollMotion.decay(from: 0, velocity: -2, to: 100) == nil)     // behind
        #expect(ScrollMotion.decay(from: 50, velocity: 2, to: 50) == nil)      // D = 0
        #expect(ScrollMotion.decay(from: 0, velocity: 0, to: 100) == nil)      // no velocity
        // d' = 100/100.04 = 0.9996 > 0.999 (a time constant of 2.5 s): it would creep.
        #expect(ScrollMotion.decay(from: 0, velocity: 0.05, to: 100) == nil)
        // d' = 100/100.19 = 0.9981, about the normal rate: decays.
        #expect(ScrollMotion.decay(from: 0, velocity: 0.2, to: 100) != nil)
        // No faster than the stop speed: nothing to re-time.
        #expect(ScrollMotion.decay(from: 0, velocity: 0.01, to: 1) == nil)
    }

    // MARK: Spring

    @Test func springEndsExactlyAndSettled() {
        let cases: [(Double, Double, Double)] = [(0, 2, -100), (300, 0, 0), (0, -1, 0), (1000, 0.001, 1200), (-80, -0.5, 0)]
        for (x0, v0, target) in cases {
            let motion = ScrollMotion.spring(from: x0, velocity: v0, to: target, phase: .settling)
            #expect(motion.offset(at: 0) == x0)
            #expect(approx(motion.velocity(at: 0), v0, 1e-12))
            #expect(motion.offset(at: motion.duration) == target)
            // Critically damped: x(t) = T + (c1 + c2·t)e^(−ωt), ω = 0.01/ms.
            let omega = 0.01, c1 = x0 - target, c2 = v0 + omega * c1
            for t in [5.0, 50.0, 200.0] where t < motion.duration {
                #expect(approx(motion.offset(at: t), target + (c1 + c2 * t) * exp(-omega * t), 1e-9))
            }
            // From the end on it stays within half a point and slower than 0.01 pt/ms.
            var t = motion.duration
            while t < motion.duration + 2000 {
                let displacement = (c1 + c2 * t) * exp(-omega * t)
                let speed = (c2 - omega * (c1 + c2 * t)) * exp(-omega * t)
                #expect(abs(displacement) < 0.5 + 1e-9)
                #expect(abs(speed) < 0.01 + 1e-9)
                t += 25
            }
        }
        // Nothing to do: no duration.
        #expect(ScrollMotion.spring(from: 5, velocity: 0, to: 5, phase: .settling).duration == 0)
    }

    // MARK: Release

    @Test func releaseAheadDecaysOntoTarget() {
        let motions = ScrollPhysics.releaseMotions(from: 100, velocity: 2, target: 1000, rate: 0.998, range: 0...5000)
        #expect(motions.count == 1)
        #expect(motions.first?.phase == .decelerating)
        #expect(motions.last?.end == 1000)
    }

    @Test func releaseBehindSprings() {
        // Flung forward, the effect snaps back: a spring that first carries on, then returns.
        let motions = ScrollPhysics.releaseMotions(from: 500, velocity: 1, target: 400, rate: 0.998, range: 0...5000)
        #expect(motions.count == 1)
        let spring = motions[0]
        #expect(spring.phase == .settling)
        #expect(spring.end == 400)
        #expect(spring.offset(at: 50) > 500)      // went on a little with the velocity
        #expect(spring.offset(at: spring.duration) == 400)
        // No velocity at all: a spring too (D ≠ 0, v0 = 0).
        let still = ScrollPhysics.releaseMotions(from: 500, velocity: 0, target: 540, rate: 0.998, range: 0...5000)
        #expect(still.map(\.phase) == [.settling])
        // At rest on the target: nothing moves.
        #expect(ScrollPhysics.releaseMotions(from: 500, velocity: 0, target: 500, rate: 0.998, range: 0...5000).isEmpty)
    }

    @Test func targetOutsideRangeBouncesBackToEdge() {
        // Natural rest 1098 → target 1200 past the end at 1100: decay there, spring back.
        let motions = ScrollPhysics.releaseMotions(from: 100, velocity: 2, target: 1200, rate: 0.998, range: 0...1100)
        #expect(motions.map(\.phase) == [.decelerating, .settling])
        #expect(motions[0].end == 1200)
        #expect(motions[1].start == 1200)
        #expect(motions[1].end == 1100)
        // Before the start.
        let before = ScrollPhysics.releaseMotions(from: 50, velocity: -1, target: -30, rate: 0.998, range: 0...1100)
        #expect(before.last?.end == 0)
        #expect(before.first?.end == -30)
    }

    @Test func flingIntoAnEdgeHitsItAndBounces() throws {
        // From 4000 at 5 pt/ms the natural rest is 4000 + 2495 = 6495, past the edge at 4500.
        let x0 = 4000.0, v0 = 5.0, d = 0.998, edge = 4500.0
        let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v0, target: edge, rate: d, range: 0...edge)
        try #require(motions.map(\.phase) == [.decelerating, .settling])
        // Free decay reaches the edge when v0·d·(1 − d^t)/(1 − d) = edge − x0.
        let hit = log(1 - (edge - x0) * (1 - d) / (v0 * d)) / log(d)
        #expect(approx(motions[0].duration, hit, 1e-6))
        #expect(motions[0].end == edge)
        // ...and bounces with the velocity it has there, v0·d^t.
        let impact = v0 * pow(d, hit)
        #expect(approx(motions[1].velocity(at: 0), impact, 1e-9))
        #expect(motions[1].offset(at: 60) > edge)         // overshoots
        #expect(motions[1].offset(at: motions[1].duration) == edge)
        // The approach is free deceleration: x(t) = x0 + v0·d·(1 − d^t)/(1 − d).
        #expect(approx(motions[0].offset(at: 40), x0 + v0 * d * (1 - pow(d, 40)) / (1 - d), 1e-6))
        // Towards the start edge too.
        // 300 − 4·0.99/0.01 = −96: past the start.
        let back = ScrollPhysics.releaseMotions(from: 300, velocity: -4, target: 0, rate: 0.99, range: 0...edge)
        try #require(back.map(\.phase) == [.decelerating, .settling])
        #expect(back[1].offset(at: 60) < 0)
        #expect(back[1].offset(at: back[1].duration) == 0)
    }

    @Test func edgeTargetsWithRoundingErrors() throws {
        // An effect's arithmetic lands 4e-13 short of the edge: still a hit and a bounce,
        // resting exactly on the effect's answer.
        let edge = 2415.6000000000004, target = 2415.6
        let hit = ScrollPhysics.releaseMotions(from: 600, velocity: 5, target: target, rate: 0.998, range: 0...edge)
        try #require(hit.map(\.phase) == [.decelerating, .settling])
        #expect(hit[0].end == edge)
        #expect(hit[1].offset(at: hit[1].duration) == target)
        // A rounding error past the edge with no momentum to carry it: no bounce segment,
        // and the content still ends exactly on the edge.
        let slow = ScrollPhysics.releaseMotions(from: 2000, velocity: 1, target: 2500 + 1e-12, rate: 0.998,
                                                range: 0...2500)
        #expect(slow.map(\.phase) == [.decelerating])
        #expect(slow.last?.offset(at: slow.last!.duration) == 2500)
    }

    @Test func flingThatStopsShortOfTheEdgeDoesNotBounce() {
        // Natural rest 100 + 998 = 1098 < 4500: just the re-timed decay onto the edge target.
        let motions = ScrollPhysics.releaseMotions(from: 3000, velocity: 2, target: 4500, rate: 0.998, range: 0...4500)
        #expect(motions.map(\.phase) == [.decelerating])
    }

    @Test func releaseFromRubberBandSettlesToEdge() {
        // Pulled 52 pt before the start, still moving outwards: a spring back to 0.
        let outwards = ScrollPhysics.releaseMotions(from: -52, velocity: -0.4, target: 0, rate: 0.998, range: 0...3000)
        #expect(outwards.map(\.phase) == [.settling])
        #expect(outwards[0].offset(at: outwards[0].duration) == 0)
        // Moving back inwards: a decay onto the edge.
        let inwards = ScrollPhysics.releaseMotions(from: -52, velocity: 0.4, target: 0, rate: 0.998, range: 0...3000)
        #expect(inwards.map(\.phase) == [.decelerating])
        #expect(inwards[0].end == 0)
    }

    @Test func releasePastTheStartHardEnoughToCrossTheContentBouncesOnTheFarEdge() throws {
        // 320-pt pages, content 960 wide: range 0…640. At 25 pt/ms the natural rest is
        // 12 475 pt ahead, far past 640, and the clamped proposal (640) is the target.
        let d = 0.998, v0 = 25.0, edge = 640.0
        for x0 in [0, -1e-7, -1e-5, -0.001, -30] {
            let motions = ScrollPhysics.releaseMotions(from: x0, velocity: v0, target: edge, rate: d, range: 0...edge)
            try #require(motions.map(\.phase) == [.decelerating, .settling], "released at \(x0)")
            // Free deceleration into the edge: it arrives when v0·d·(1 − d^t)/(1 − d) = edge − x0,
            // with the velocity v0·d^t, and the spring from there overshoots before resting.
            let hit = log(1 - (edge - x0) * (1 - d) / (v0 * d)) / log(d)
            #expect(approx(motions[0].duration, hit, 1e-6), "released at \(x0)")
            #expect(approx(motions[1].velocity(at: 0), v0 * pow(d, hit), 1e-9), "released at \(x0)")
            #expect(motions[1].offset(at: 60) > edge + 100, "released at \(x0)")
            #expect(motions[1].offset(at: motions[1].duration) == edge)
        }
        // The other side of the rule: released already past the edge it moves towards,
        // there is no edge ahead to hit — a spring brings it back.
        let past = ScrollPhysics.releaseMotions(from: edge + 1e-5, velocity: v0, target: edge, rate: d, range: 0...edge)
        #expect(past.map(\.phase) == [.settling])
        #expect(past.last.map { $0.offset(at: $0.duration) } == edge)
    }

    // MARK: Rubber band and drag

    @Test func rubberBandGoldenValues() {
        // (1 − 1/(x·0.55/L + 1))·L at L = 960.
        #expect(abs(ScrollPhysics.rubberBand(overshoot: 100, dimension: 960) - 52.02) <= 0.01)
        #expect(abs(ScrollPhysics.rubberBand(overshoot: 960, dimension: 960) - 340.65) <= 0.01)
        #expect(ScrollPhysics.rubberBand(overshoot: 0, dimension: 960) == 0)
        // Both edges.
        #expect(abs(ScrollPhysics.rubberBandedOffset(-100, range: 0...2000, dimension: 960) + 52.02) <= 0.01)
        #expect(abs(ScrollPhysics.rubberBandedOffset(2960, range: 0...2000, dimension: 960) - 2340.65) <= 0.01)
        #expect(ScrollPhysics.rubberBandedOffset(1234, range: 0...2000, dimension: 960) == 1234)
        // The inverse gives the finger back.
        for x in [1.0, 100, 960, 5000] {
            let shown = ScrollPhysics.rubberBand(overshoot: x, dimension: 960)
            #expect(approx(ScrollPhysics.fingerOvershoot(shown: shown, dimension: 960), x, 1e-6 * x))
        }
    }

    @Test func dragIsLinearAndRubberBands() {
        let drag = CardDragGesture(from: 200, by: -300, duration: 250, range: 0...2000, dimension: 960)
        #expect(drag.offset(at: 0) == 200)
        #expect(approx(drag.offset(at: 125), 50, 1e-12))          // halfway, linear
        // At the end the finger is 100 pt before the start: 52.02 shown.
        #expect(abs(drag.endOffset + 52.02) <= 0.01)
        #expect(approx(drag.releaseVelocity, -300.0 / 250, 1e-12))
        // A drag starting from the rubber-banded offset continues smoothly.
        let more = CardDragGesture(from: drag.endOffset, by: -860, duration: 100, range: 0...2000, dimension: 960)
        #expect(approx(more.offset(at: 0), drag.endOffset, 1e-9))
        #expect(abs(more.endOffset + 340.65) <= 0.01)              // 960 pt past the edge in all
        // An instantaneous drag moves at once and carries no velocity.
        let instant = CardDragGesture(from: 0, by: 40, duration: 0, range: 0...2000, dimension: 960)
        #expect(instant.offset(at: 0) == 40)
        #expect(instant.releaseVelocity == 0)
    }

    // MARK: Paging

    @Test func pagingMovesAtMostOnePage() {
        let page = 414.0, range = 0.0...(414.0 * 9 + 100)
        var offsets: [Double] = []
        for i in 0...40 { offsets.append(Double(i) * 97.3) }
        for anchor in offsets {
            for shift in [-500.0, -250, -30, 0, 30, 250, 500] {
                for velocity in [-20.0, -3, -0.5, -0.1, 0, 0.1, 0.5, 3, 20] {
                    let release = anchor + shift
                    let target = ScrollPhysics.pagedOffset(releaseOffset: release, velocity: velocity,
                                                           anchorOffset: anchor, pageLength: page, range: range)
                    let anchorPage = (anchor / page).rounded() * page
                    #expect(abs(target - anchorPage) <= page + 1e-9)
                    #expect(range.contains(target))
                    // On a page, or the end of the content.
                    let onPage = abs(target / page - (target / page).rounded()) < 1e-9
                    #expect(onPage || target == range.upperBound)
                }
            }
        }
    }

    @Test func pagingFollowsVelocityOrNearestPage() {
        let page = 400.0, range = 0.0...4000
        // Slow: nearest page to the release.
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 810, velocity: 0.05, anchorOffset: 800, pageLength: page, range: range) == 800)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 1010, velocity: 0, anchorOffset: 800, pageLength: page, range: range) == 1200)
        // Fast: next page in the direction of the velocity.
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 810, velocity: 2, anchorOffset: 800, pageLength: page, range: range) == 1200)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 800, velocity: -2, anchorOffset: 800, pageLength: page, range: range) == 400)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 1100, velocity: -2, anchorOffset: 800, pageLength: page, range: range) == 800)
        // Never past one page from the anchor, however far the finger went.
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 1900, velocity: 5, anchorOffset: 800, pageLength: page, range: range) == 1200)
        // Clamped at both ends.
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 0, velocity: -5, anchorOffset: 0, pageLength: page, range: range) == 0)
        #expect(ScrollPhysics.pagedOffset(releaseOffset: 3900, velocity: 5, anchorOffset: 3900, pageLength: page, range: 0...3900) == 3900)
    }

    // MARK: Ease

    @Test func easeIsSmoothAndExact() {
        let ease = ScrollMotion.easeInOut(from: 100, to: 500, duration: 300)
        #expect(ease.offset(at: 0) == 100)
        #expect(approx(ease.offset(at: 150), 300, 1e-9))          // symmetric
        // smoothstep u²(3 − 2u) at u = 0.25: 0.15625.
        #expect(approx(ease.offset(at: 75), 100 + 400 * 0.15625, 1e-9))
        #expect(ease.offset(at: 300) == 500)
        #expect(ease.velocity(at: 0) == 0)
        #expect(approx(ease.velocity(at: 150), 400 * 1.5 / 300, 1e-12))
    }
}
