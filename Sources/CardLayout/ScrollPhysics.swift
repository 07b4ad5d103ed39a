import Foundation

/// `UIScrollView`'s motion along the scroll axis, as closed forms (docs/physics.md
/// describes the model and the source of every number).
///
/// Everything here is one-dimensional: an *offset* is the content offset's component
/// on the scroll axis, in points; times are milliseconds and velocities points per
/// millisecond (what UIKit passes to `targetContentOffset`). A deceleration *rate* `d`
/// is the factor velocity keeps per millisecond (0.998 normal, 0.99 fast).
///
/// The pieces a scenario is made of:
/// - ``stopOffset(from:velocity:rate:)``, ``stopTime(velocity:rate:)`` and
///   ``proposedOffset(from:velocity:rate:range:)``: where and when a released scroll view
///   stops on its own (UIKit's measured stop rule);
/// - ``rubberBandedOffset(_:range:dimension:)``: what a finger dragging past an edge shows;
/// - ``pagedOffset(releaseOffset:velocity:anchorOffset:pageLength:range:)``: `isPagingEnabled`;
/// - ``releaseMotions(from:velocity:target:rate:range:bounces:)``: the motion after a
///   release, re-timed to land exactly on the effect's target, bouncing back into range
///   if needed;
/// - ``side(of:in:)``: every test of an offset against a range, with one tolerance;
/// - ``CardDragGesture`` and ``ScrollMotion``: sampled per frame by ``ScenarioRunner``.
public enum ScrollPhysics {
    // MARK: Thresholds

    /// Offsets closer than this (points) to a range's bounds count as on them: every
    /// range test (``side(of:in:)``) uses it. Far below a pixel, far above the rounding
    /// error of offsets computed from item sizes (a layout of content length 647.16 in a
    /// 568-pt viewport has a largest offset of 79.15999999999997, and 79.16 is on it).
    public static let offsetTolerance: Double = 1e-6

    /// Where an offset lies relative to a range, within ``offsetTolerance``.
    public enum RangeSide: Hashable, Sendable {
        /// Before the lower bound by more than the tolerance.
        case before
        /// Within the range, or within the tolerance of it.
        case inside
        /// After the upper bound by more than the tolerance.
        case after
    }

    /// The one range test: where `offset` lies relative to `range`, within
    /// ``offsetTolerance``. A one-point range `x...x` makes it an equality test.
    public static func side(of offset: Double, in range: ClosedRange<Double>) -> RangeSide {
        if offset < range.lowerBound - offsetTolerance { return .before }
        if offset > range.upperBound + offsetTolerance { return .after }
        return .inside
    }

    /// A decelerating scroll view stops once its speed falls to this, points per
    /// millisecond (10 pt/s). Fitted to published measurements of flings on a device
    /// (docs/physics.md, "Where a fling stops"); a release no faster than this does not move.
    public static let stopVelocity: Double = 0.01

    /// A spring ends once it stays within this many points of its target (and slower than
    /// ``springRestingVelocity``); its last frame then sits exactly on the target. UIKit
    /// uses half a *pixel*; half a point is the 1× value, which the preview's point-based
    /// output cannot tell apart.
    public static let restingDistance: Double = 0.5

    /// A spring also waits until its speed is below this (points per millisecond, i.e.
    /// 10 pt/s), so it never ends while passing its target at speed.
    public static let springRestingVelocity: Double = 0.01

    /// The slowest a decay re-timed onto the effect's target may be: its per-ms rate must
    /// not exceed this (a time constant of about 1 s, twice the normal rate's 0.5 s).
    /// A slower one would creep for many seconds, so a spring carries the content instead
    /// (UIKit "decelerates most of the way, then slides linearly" in that case).
    public static let maximumRetimedRate: Double = 0.999

    /// The angular frequency of the critically damped spring, radians per millisecond.
    /// 0.01 rad/ms = 10 rad/s: the spring of mass 1 and stiffness 100 (damping ratio 1)
    /// used by reconstructions of `UIScrollView`'s bounce.
    public static let springAngularFrequency: Double = 0.01

    /// Rubber-band coefficient `c` in `(1 − 1/(x·c/L + 1))·L` (UIKit's 0.55).
    public static let rubberBandCoefficient: Double = 0.55

    /// With `isPagingEnabled`, a release slower than this (points per millisecond, i.e.
    /// 200 pt/s) settles on the nearest page; faster, on the next page in the direction
    /// of the velocity. cardlua's choice: UIKit's value is not published.
    public static let pagingVelocityThreshold: Double = 0.2

    /// Default length of an animated `scrollToItem`, seconds (UIKit's animated
    /// `setContentOffset` takes about 0.3 s).
    public static let defaultScrollAnimationDuration: Double = 0.3

    // MARK: Decay (closed forms)

    /// Velocity after `time` ms of free deceleration: `v(t) = v₀·dᵗ`.
    public static func decayVelocity(_ velocity: Double, rate: Double, time: Double) -> Double {
        velocity * pow(rate, time)
    }

    /// Offset after `time` ms of free deceleration: `x(t) = x₀ + v₀·d·(1 − dᵗ)/(1 − d)`.
    public static func decayOffset(from offset: Double, velocity: Double, rate: Double,
                                   time: Double) -> Double {
        offset + velocity * rate * (1 - pow(rate, time)) / (1 - rate)
    }

    /// The limit of ``decayOffset(from:velocity:rate:time:)``: `x₀ + v₀·d/(1 − d)`. A
    /// fling never gets there: it stops ``stopVelocity``·d/(1 − d) short (4.99 pt at the
    /// normal rate), at ``stopOffset(from:velocity:rate:)``.
    public static func restingOffset(from offset: Double, velocity: Double, rate: Double) -> Double {
        offset + velocity * rate / (1 - rate)
    }

    /// How long free deceleration lasts: until the speed has fallen to ``stopVelocity``,
    /// `T = ln(0.01/|v₀|)/ln d` ms; 0 for a release no faster than that.
    public static func stopTime(velocity: Double, rate: Double) -> Double {
        guard abs(velocity) > stopVelocity else { return 0 }
        return log(stopVelocity / abs(velocity)) / log(rate)
    }

    /// Where free deceleration stops: ``decayOffset(from:velocity:rate:time:)`` at
    /// ``stopTime(velocity:rate:)``, `x₀ + (v₀ − 0.01·sgn v₀)·d/(1 − d)`; `offset` itself
    /// for a release no faster than ``stopVelocity``.
    public static func stopOffset(from offset: Double, velocity: Double, rate: Double) -> Double {
        guard abs(velocity) > stopVelocity else { return offset }
        let cutoff = velocity > 0 ? stopVelocity : -stopVelocity
        return offset + (velocity - cutoff) * rate / (1 - rate)
    }

    /// The proposed offset of a release: where the scroll would naturally stop
    /// (``stopOffset(from:velocity:rate:)``), clamped to `range` — what
    /// `targetContentOffset(forProposedContentOffset:…)` receives.
    public static func proposedOffset(from offset: Double, velocity: Double, rate: Double,
                                      range: ClosedRange<Double>) -> Double {
        clamp(stopOffset(from: offset, velocity: velocity, rate: rate), to: range)
    }

    /// Whether a finger or a fling may move the content at all: content longer than the
    /// viewport on the scroll axis always scrolls; content that fits (a largest offset of
    /// 0) only with `bounces` and `alwaysBounce` for that axis (UIKit's
    /// `alwaysBounceHorizontal`/`alwaysBounceVertical`, which need `bounces`).
    public static func allowsScrolling(range: ClosedRange<Double>, bounces: Bool, alwaysBounce: Bool) -> Bool {
        side(of: range.upperBound, in: 0...0) == .after || (bounces && alwaysBounce)
    }

    // MARK: Rubber band

    /// How far the content shows past an edge when the finger has pulled it
    /// `overshoot` points past: `(1 − 1/(x·0.55/L + 1))·L`, L = `dimension` (the
    /// viewport's extent on the scroll axis). Always less than L.
    public static func rubberBand(overshoot: Double, dimension: Double) -> Double {
        guard overshoot > 0, dimension > 0 else { return 0 }
        return (1 - 1 / (overshoot * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// The inverse of ``rubberBand(overshoot:dimension:)``: the finger's overshoot that
    /// shows `shown` points past the edge, `x = (L/c)·y/(L − y)`. A shown overshoot at or
    /// beyond L (only reachable by a `jump`) has no finger position; it is treated as
    /// 0.999·L so a drag starting there stays finite.
    public static func fingerOvershoot(shown: Double, dimension: Double) -> Double {
        guard shown > 0, dimension > 0 else { return 0 }
        let y = min(shown, 0.999 * dimension)
        return dimension / rubberBandCoefficient * y / (dimension - y)
    }

    /// The offset shown when the finger holds the content at `offset`: unchanged inside
    /// `range`, rubber-banded past either edge.
    public static func rubberBandedOffset(_ offset: Double, range: ClosedRange<Double>,
                                          dimension: Double) -> Double {
        switch side(of: offset, in: range) {
        case .before:
            return range.lowerBound - rubberBand(overshoot: range.lowerBound - offset, dimension: dimension)
        case .after:
            return range.upperBound + rubberBand(overshoot: offset - range.upperBound, dimension: dimension)
        case .inside:
            return offset
        }
    }

    /// The finger position that shows `shown`: the inverse of
    /// ``rubberBandedOffset(_:range:dimension:)``.
    public static func fingerOffset(shown: Double, range: ClosedRange<Double>,
                                    dimension: Double) -> Double {
        switch side(of: shown, in: range) {
        case .before:
            return range.lowerBound - fingerOvershoot(shown: range.lowerBound - shown, dimension: dimension)
        case .after:
            return range.upperBound + fingerOvershoot(shown: shown - range.upperBound, dimension: dimension)
        case .inside:
            return shown
        }
    }

    // MARK: Paging

    /// `isPagingEnabled`: the page a release settles on, as an offset. UIKit does not ask
    /// the layout's `targetContentOffset` when paging is on; this is the target.
    ///
    /// Pages are the multiples of `pageLength` (the viewport's extent on the scroll axis).
    /// Slower than ``pagingVelocityThreshold`` the nearest page to `releaseOffset` wins;
    /// faster, the next page boundary beyond `releaseOffset` in the direction of the
    /// velocity (a release on a page boundary, within ``offsetTolerance``, counts as on
    /// that page). Either way the page is at most one page from the *anchor* page — the
    /// page nearest `anchorOffset`, where the drag began (or the release position for a
    /// bare fling) — so one gesture never turns more than one page. The result is clamped
    /// to `range`: the last page of content that is not a whole number of pages long is
    /// the maximum offset.
    public static func pagedOffset(releaseOffset: Double, velocity: Double, anchorOffset: Double,
                                   pageLength: Double, range: ClosedRange<Double>) -> Double {
        guard pageLength > 0 else { return clamp(releaseOffset, to: range) }
        let position = releaseOffset / pageLength
        let anchor = (anchorOffset / pageLength).rounded()
        var page: Double
        if abs(velocity) < pagingVelocityThreshold {
            page = position.rounded()
        } else {
            // The page the release is on (a rounding error short of a boundary counts as
            // on it), then one further in the direction of the velocity.
            let nearest = position.rounded()
            let onBoundary = side(of: releaseOffset, in: (nearest * pageLength)...(nearest * pageLength)) == .inside
            let from = onBoundary ? nearest : (velocity > 0 ? position.rounded(.down) : position.rounded(.up))
            page = from + (velocity > 0 ? 1 : -1)
        }
        page = min(max(page, anchor - 1), anchor + 1)
        return clamp(page * pageLength, to: range)
    }

    // MARK: Release

    /// The motion after a release at `offset` with `velocity` towards `target` (the
    /// effect's answer), as consecutive segments; empty when there is nothing to move.
    /// The last segment ends exactly on `target` clamped to `range`.
    ///
    /// 1. **Hitting an edge.** When the release is inside `range` (or past the edge behind
    ///    the velocity, as after a drag that rubber-banded past the start), free deceleration at
    ///    `rate` would stop past the edge the velocity points at, and the target is that
    ///    edge, the content decelerates freely until it reaches the edge and bounces there:
    ///    a spring from the edge with the velocity it arrived with (phase `settling`), onto
    ///    the target clamped to `range`. This is how `UIScrollView` ends a fling into the
    ///    end of its content (the proposal was clamped to the edge and the effect kept it).
    ///    Without `bounces` the content stops dead on the edge instead.
    /// 2. **Otherwise the motion is re-timed to land on the target**: a decay that stops
    ///    exactly on it at the stop speed (``ScrollMotion/decay(from:velocity:to:)``, the
    ///    free deceleration itself when the target is where that would stop), phase
    ///    `decelerating`; when no decay can (the target is behind the velocity, the release
    ///    is no faster than ``stopVelocity``, or the decay would creep), a critically
    ///    damped spring from the release with its velocity, phase `settling`.
    /// 3. **Bounce.** A target outside `range` is reached first; then a spring carries the
    ///    content back to the nearest edge (phase `settling`). Without `bounces` the target
    ///    is clamped to `range` first, so the content never leaves it.
    ///
    /// Every test against `range` or an edge is ``side(of:in:)``.
    public static func releaseMotions(from offset: Double, velocity: Double, target: Double,
                                      rate: Double, range: ClosedRange<Double>,
                                      bounces: Bool = true) -> [ScrollMotion] {
        let target = bounces ? target : clamp(target, to: range)
        let rest = clamp(target, to: range)
        var velocity = velocity
        if !bounces {
            // Without bounces nothing carries the content out of its range: at (or past)
            // the edge the velocity points through, the content stops.
            let edge = velocity > 0 ? range.upperBound : range.lowerBound
            let at = side(of: offset, in: edge...edge)
            if at == .inside || at == (velocity > 0 ? .after : .before) { velocity = 0 }
        }
        // 1. A fling into an edge the effect left as the target. The release may be inside
        // the range or past the *other* edge (a drag that rubber-banded past the start and
        // was flung hard enough to cross the whole content): only a release already past
        // the edge it moves towards is not a fling into it. The same tolerance as every
        // other edge test decides which side the release is on.
        let pastTheEdgeAhead: RangeSide = velocity > 0 ? .after : .before
        if side(of: offset, in: range) != pastTheEdgeAhead, abs(velocity) > stopVelocity {
            let edge = velocity > 0 ? range.upperBound : range.lowerBound
            let stop = stopOffset(from: offset, velocity: velocity, rate: rate)
            let beyond = side(of: stop, in: range) == (velocity > 0 ? .after : .before)
            if beyond, side(of: target, in: edge...edge) == .inside {
                let approach = ScrollMotion.decay(from: offset, velocity: velocity, rate: rate, until: edge)
                guard bounces else {
                    // Stopped dead on the edge (exactly on the target).
                    let stopped = ScrollMotion(curve: approach.curve, start: offset, end: rest,
                                               duration: approach.duration, phase: .decelerating)
                    return stopped.duration > 0 || rest != offset ? [stopped] : []
                }
                var motions: [ScrollMotion] = []
                if approach.duration > 0 { motions.append(approach) }
                let impactVelocity = approach.velocity(at: approach.duration)
                motions.append(.spring(from: edge, velocity: impactVelocity, to: rest, phase: .settling))
                return motions
            }
        }
        // 2. Onto the target: the free decay, a re-timed one, or a spring.
        var motions: [ScrollMotion] = []
        var endVelocity = 0.0
        let natural = target == stopOffset(from: offset, velocity: velocity, rate: rate)
            ? ScrollMotion.decay(from: offset, velocity: velocity, rate: rate) : nil
        if let decay = natural ?? ScrollMotion.decay(from: offset, velocity: velocity, to: target) {
            motions.append(decay)
            endVelocity = decay.velocity(at: decay.duration)
        } else if target != offset || abs(velocity) > stopVelocity {
            let spring = ScrollMotion.spring(from: offset, velocity: velocity, to: target, phase: .settling)
            motions.append(spring)
            endVelocity = spring.velocity(at: spring.duration)
        }
        // 3. Back into range.
        if side(of: target, in: range) != .inside {
            motions.append(.spring(from: target, velocity: endVelocity, to: rest, phase: .settling))
        } else if rest != target, let main = motions.popLast() {
            // Past the edge by a rounding error: no bounce, but still end on the edge.
            motions.append(ScrollMotion(curve: main.curve, start: main.start, end: rest,
                                        duration: main.duration, phase: main.phase))
        }
        return motions
    }

    static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        min(max(value, range.lowerBound), range.upperBound)
    }
}

// MARK: - Motions

/// One segment of automatic motion along the scroll axis: a decay, a critically damped
/// spring or an ease. Time is in milliseconds from the segment's start; at and after
/// ``duration`` the offset is exactly ``end``.
public struct ScrollMotion: Hashable, Sendable {
    /// The shape of the motion.
    public enum Curve: Hashable, Sendable {
        /// `x(t) = start + A·(1 − rᵗ)`, velocity `A·(1 − r)/r·rᵗ` (UIKit's
        /// `v₀·dᵗ` with `v₀ = A·(1 − r)/r`). Never reverses.
        case decay(rate: Double, amplitude: Double)
        /// Critically damped: `x(t) = end + (c₁ + c₂·t)·e^(−ω·t)`, `c₁ = start − end`,
        /// `c₂ = v₀ + ω·c₁`.
        case spring(angularFrequency: Double, initialVelocity: Double)
        /// Smoothstep `s(u) = u²(3 − 2u)`, `u = t/duration`: zero speed at both ends.
        case easeInOut
    }

    /// The shape of the motion and its parameters.
    public let curve: Curve
    /// Offset at time 0.
    public let start: Double
    /// Offset at and after ``duration``.
    public let end: Double
    /// Milliseconds.
    public let duration: Double
    /// The phase frames show during this segment.
    public let phase: CardScrollPhase

    /// A segment from `start` to `end` over `duration` ms (negative durations count as 0).
    /// The factories below build consistent ones; this initializer trusts its arguments.
    public init(curve: Curve, start: Double, end: Double, duration: Double, phase: CardScrollPhase) {
        self.curve = curve
        self.start = start
        self.end = end
        self.duration = max(0, duration)
        self.phase = phase
    }

    /// The offset `time` ms into the segment; exactly ``end`` from ``duration`` on.
    public func offset(at time: Double) -> Double {
        if time >= duration { return end }
        let t = max(0, time)
        switch curve {
        case let .decay(rate, amplitude):
            return start + amplitude * (1 - pow(rate, t))
        case let .spring(omega, v0):
            let c1 = start - end, c2 = v0 + omega * c1
            return end + (c1 + c2 * t) * exp(-omega * t)
        case .easeInOut:
            let u = t / duration
            return start + (end - start) * u * u * (3 - 2 * u)
        }
    }

    /// The velocity `time` ms into the segment, points per millisecond; 0 after
    /// ``duration`` for an ease, the curve's own value otherwise (a spring or decay is
    /// cut off while still moving, by less than the resting thresholds).
    public func velocity(at time: Double) -> Double {
        let t = max(0, time)
        switch curve {
        case let .decay(rate, amplitude):
            return amplitude * (1 - rate) / rate * pow(rate, t)
        case let .spring(omega, v0):
            let c1 = start - end, c2 = v0 + omega * c1
            return (c2 - omega * (c1 + c2 * t)) * exp(-omega * t)
        case .easeInOut:
            guard duration > 0, t < duration else { return 0 }
            let u = t / duration
            return (end - start) * 6 * u * (1 - u) / duration
        }
    }

    // MARK: Factories

    /// Free deceleration at `rate` from `start` with `velocity`, until it stops: for
    /// ``ScrollPhysics/stopTime(velocity:rate:)`` ms, ending on
    /// ``ScrollPhysics/stopOffset(from:velocity:rate:)`` at ``ScrollPhysics/stopVelocity``.
    /// Nil for a release no faster than that (nothing moves).
    public static func decay(from start: Double, velocity: Double, rate: Double) -> ScrollMotion? {
        guard abs(velocity) > ScrollPhysics.stopVelocity, velocity.isFinite else { return nil }
        return ScrollMotion(curve: .decay(rate: rate, amplitude: velocity * rate / (1 - rate)), start: start,
                            end: ScrollPhysics.stopOffset(from: start, velocity: velocity, rate: rate),
                            duration: ScrollPhysics.stopTime(velocity: velocity, rate: rate), phase: .decelerating)
    }

    /// A decay re-timed to stop exactly on `target` under the same stop rule as free
    /// deceleration: it keeps the release velocity v₀ and reaches the target just as its
    /// speed falls to ``ScrollPhysics/stopVelocity`` (c = 0.01 pt/ms). Its rate is
    /// `d' = D/(D + v₀ − c·sgn v₀)` (D = target − start), so that
    /// `start + (v₀ − c·sgn v₀)·d'/(1 − d')` is the target, and it lasts
    /// `T = ln(c/|v₀|)/ln d'` ms. For a target where free deceleration at rate d would
    /// stop, d' is d: the re-timing changes nothing.
    ///
    /// Returns nil when a decay cannot do it: the target is not ahead of the velocity
    /// (behind it, or D = 0), the release is no faster than c, or the decay would creep —
    /// a rate above ``ScrollPhysics/maximumRetimedRate``.
    public static func decay(from start: Double, velocity: Double, to target: Double) -> ScrollMotion? {
        let distance = target - start
        let cutoff = ScrollPhysics.stopVelocity
        guard distance * velocity > 0, abs(velocity) > cutoff, distance.isFinite, velocity.isFinite else {
            return nil
        }
        // d' = 1/(1 + ratio), ratio = (v₀ − c·sgn v₀)/D > 0; ln d' = −log1p(ratio) keeps
        // precision near 1, and the amplitude v₀·d'/(1 − d') = v₀/ratio avoids 1 − d'.
        let ratio = (velocity - (velocity > 0 ? cutoff : -cutoff)) / distance
        let rate = 1 / (1 + ratio)
        guard rate <= ScrollPhysics.maximumRetimedRate else { return nil }
        let duration = max(0, log(cutoff / abs(velocity)) / -log1p(ratio))
        return ScrollMotion(curve: .decay(rate: rate, amplitude: velocity / ratio), start: start, end: target,
                            duration: duration, phase: .decelerating)
    }

    /// Free deceleration at `rate` from `start` with `velocity`, cut off where it reaches
    /// `edge` (which must lie between `start` and the natural resting point). The
    /// velocity at ``duration`` is the velocity of impact.
    static func decay(from start: Double, velocity: Double, rate: Double, until edge: Double) -> ScrollMotion {
        let amplitude = velocity * rate / (1 - rate)
        let fraction = (edge - start) / amplitude          // in [0, 1)
        let duration = fraction > 0 ? log1p(-fraction) / log(rate) : 0
        return ScrollMotion(curve: .decay(rate: rate, amplitude: amplitude), start: start, end: edge,
                            duration: duration, phase: .decelerating)
    }

    /// A critically damped spring (angular frequency ``ScrollPhysics/springAngularFrequency``)
    /// from `start` with `velocity` to `target`. It ends at the first moment after which
    /// it stays within ``ScrollPhysics/restingDistance`` of the target *and* slower than
    /// ``ScrollPhysics/springRestingVelocity``.
    public static func spring(from start: Double, velocity: Double, to target: Double,
                              phase: CardScrollPhase) -> ScrollMotion {
        let omega = ScrollPhysics.springAngularFrequency
        let duration = springDuration(c1: start - target, v0: velocity, omega: omega)
        return ScrollMotion(curve: .spring(angularFrequency: omega, initialVelocity: velocity),
                            start: start, end: target, duration: duration, phase: phase)
    }

    /// A smooth ease-in-out from `start` to `end` over `duration` ms (`scrollToItem`,
    /// animated `setContentOffset`).
    public static func easeInOut(from start: Double, to end: Double, duration: Double,
                                 phase: CardScrollPhase = .settling) -> ScrollMotion {
        ScrollMotion(curve: .easeInOut, start: start, end: end, duration: duration, phase: phase)
    }

    /// When a critically damped spring has settled, found by bisection on a monotone
    /// predicate. With `f(t) = (c₁ + c₂t)e^(−ωt)` the displacement, `f` has one turning
    /// point `t₁ = 1/ω − c₁/c₂` and `f'` one at `t₂ = 2/ω − c₁/c₂`, so the largest
    /// |f| (|f'|) over [t, ∞) is max(|f(t)|, |f(t₁)|) before t₁ and |f(t)| after;
    /// "settled from t on" is therefore false up to one moment and true after it.
    private static func springDuration(c1: Double, v0: Double, omega: Double) -> Double {
        let c2 = v0 + omega * c1
        guard c1.isFinite, c2.isFinite else { return 0 }
        func f(_ t: Double) -> Double { (c1 + c2 * t) * exp(-omega * t) }
        func df(_ t: Double) -> Double { (c2 - omega * (c1 + c2 * t)) * exp(-omega * t) }
        let t1 = c2 != 0 ? 1 / omega - c1 / c2 : -Double.infinity
        let t2 = c2 != 0 ? 2 / omega - c1 / c2 : -Double.infinity
        func settled(from t: Double) -> Bool {
            let position = max(abs(f(t)), t < t1 ? abs(f(t1)) : 0)
            let speed = max(abs(df(t)), t < t2 ? abs(df(t2)) : 0)
            return position < ScrollPhysics.restingDistance && speed < ScrollPhysics.springRestingVelocity
        }
        if settled(from: 0) { return 0 }
        var low = 0.0, high = 1 / omega
        var doublings = 0
        while !settled(from: high) {
            low = high
            high *= 2
            doublings += 1
            if doublings > 64 { return high }   // unreachable for finite inputs
        }
        for _ in 0..<64 {
            let mid = (low + high) / 2
            if settled(from: mid) { high = mid } else { low = mid }
            if high - low < 1e-9 { break }
        }
        return high
    }
}

// MARK: - Drag

/// A finger dragging the content by `distance` points of content offset over
/// `duration` ms, at constant speed (linear: the finger's last velocity is
/// `distance/duration`, which a release then carries on).
///
/// Positive `distance` increases the content offset (the finger moves towards the
/// start: left or up). Past an edge of `range` the shown offset rubber-bands (without
/// `bounces` it stops at the edge); a drag that starts already past an edge continues
/// from the finger position that shows it.
public struct CardDragGesture: Hashable, Sendable {
    /// The shown offset when the finger goes down.
    public let startOffset: Double
    /// The content offset the finger moves by.
    public let distance: Double
    /// Milliseconds.
    public let duration: Double
    /// The scrollable range `[0, maximumContentOffset]` on the scroll axis.
    public let range: ClosedRange<Double>
    /// The viewport's extent on the scroll axis (L of the rubber band).
    public let dimension: Double
    /// The finger's (un-rubber-banded) offset at the start.
    public let fingerStart: Double
    /// `UIScrollView.bounces`: rubber-band past the edges (true) or stop at them (false).
    public let bounces: Bool

    /// A drag from the shown offset `startOffset` by `distance` over `duration` ms, in a
    /// scroll view whose scrollable range is `range` and viewport extent `dimension`;
    /// `bounces` false clamps the content to `range` instead of rubber-banding.
    public init(from startOffset: Double, by distance: Double, duration: Double,
                range: ClosedRange<Double>, dimension: Double, bounces: Bool = true) {
        self.startOffset = startOffset
        self.distance = distance
        self.duration = max(0, duration)
        self.range = range
        self.dimension = dimension
        self.bounces = bounces
        self.fingerStart = bounces
            ? ScrollPhysics.fingerOffset(shown: startOffset, range: range, dimension: dimension)
            : startOffset
    }

    /// The shown offset `time` ms after the finger went down.
    public func offset(at time: Double) -> Double {
        let progress = duration > 0 ? min(max(time / duration, 0), 1) : 1
        // Inside the range the content follows the finger 1:1.
        let finger = fingerStart + distance * progress
        guard bounces else { return ScrollPhysics.clamp(finger, to: range) }
        return ScrollPhysics.rubberBandedOffset(finger, range: range, dimension: dimension)
    }

    /// The shown offset when the finger lifts.
    public var endOffset: Double { offset(at: duration) }

    /// The finger's velocity when it lifts, points per millisecond: `distance/duration`,
    /// or 0 for an instantaneous drag (a finger that teleports has no measurable speed).
    public var releaseVelocity: Double { duration > 0 ? distance / duration : 0 }
}

// MARK: - Axis

extension ScrollPhysics {
    /// Reads and writes the scroll-axis component of points and sizes.
    struct Axis: Sendable {
        let direction: ScrollDirection

        init(_ direction: ScrollDirection) { self.direction = direction }

        func value(of point: Point) -> Double {
            direction == .horizontal ? point.x : point.y
        }

        func extent(of size: Size) -> Double {
            direction == .horizontal ? size.width : size.height
        }

        /// A point with `value` on the scroll axis and 0 across it.
        func point(_ value: Double) -> Point {
            direction == .horizontal ? Point(x: value, y: 0) : Point(x: 0, y: value)
        }
    }
}
