import Foundation

/// A scripted session with the collection view: a viewport, a number of items, and a
/// sequence of gestures that ``ScenarioRunner`` turns into a ``Timeline``.
///
/// The content starts at offset 0, at rest. Offsets, distances and velocities are on the
/// scroll axis of the layout the effect's `prepare` chooses (the other axis stays 0);
/// durations are seconds, velocities points per millisecond.
///
/// ```swift
/// let swipe = Scenario(name: "swipe", steps: [
///     .jump(offset: 0),
///     .drag(by: 300, duration: 0.25),      // finger moves the content 300 pt forward, lifts
///     .wait(duration: 0.5),
///     .scrollToItem(CardIndexPath(item: 0, section: 0), duration: 0.3),
/// ])
/// ```
public struct Scenario: Hashable, Sendable {
    /// Shown in errors and output (`--scenario NAME`).
    public var name: String
    /// The collection view's size at the start, points.
    public var viewportSize: Size
    /// Items per section.
    public var numberOfItems: [Int]
    /// How often a frame is sampled: frame `i` is at `i / framesPerSecond` seconds.
    public var framesPerSecond: Double
    /// What happens, in order.
    public var steps: [ScenarioStep]
    /// `effectiveUserInterfaceLayoutDirection` (`--rtl`, a scenario's `rtl = true`): set
    /// on the configuration before `prepare`. Right to left, a horizontal flow that
    /// flips starts at its largest content offset (item 0 at the right edge).
    public var layoutDirection = UserInterfaceLayoutDirection.leftToRight

    /// The CLI's default viewport (an iPhone 8 Plus: 414×736).
    public static let defaultViewportSize = Size(width: 414, height: 736)
    /// The CLI's default: 20 items in one section.
    public static let defaultNumberOfItems = [20]
    /// The CLI's default frame rate.
    public static let defaultFramesPerSecond: Double = 60

    /// The most items a scenario may have, all sections together (the host's layout work
    /// and memory stay bounded whatever a script asks for).
    public static let maxItems = 1_000_000
    /// The most items one frame may show (tiny items in a big viewport): the runner
    /// refuses the frame before building it.
    public static let maxItemsPerFrame = 10_000
    /// The most steps a script's scenario may have.
    public static let maxSteps = 10_000
    /// The smallest and largest viewport side, points.
    public static let viewportExtentRange: ClosedRange<Double> = 1...100_000
    /// The largest magnitude of a content offset or a drag distance a scenario (or
    /// `--offset`) may give, 1e15 points: the bound the Lua host puts on every number a
    /// script answers (`MAX_MAGNITUDE` in Sources/CLuaShims/internal.h). Below it a double
    /// still places a frame to an eighth of a point; far beyond it, an endless carousel's
    /// position within its period is lost (1e20 shows no cards at all).
    public static let maximumMagnitude: Double = 1e15
    /// ``maximumMagnitude`` as messages write it: `1e15`.
    public static var maximumMagnitudeText: String {
        String(format: "%g", maximumMagnitude).replacingOccurrences(of: "e+", with: "e")
    }

    /// A scenario; the defaults are the CLI's (414×736, 20 items, 60 fps).
    public init(name: String, viewportSize: Size = Scenario.defaultViewportSize,
                numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                framesPerSecond: Double = Scenario.defaultFramesPerSecond,
                steps: [ScenarioStep]) {
        self.name = name
        self.viewportSize = viewportSize
        self.numberOfItems = numberOfItems
        self.framesPerSecond = framesPerSecond
        self.steps = steps
    }

    /// Checks everything that does not need the effect: a positive finite frame rate and
    /// viewport, non-negative item counts, finite numbers, non-negative durations, and
    /// index paths that exist. ``ScenarioRunner/run(_:)`` calls it first.
    public func validate() throws(ScenarioError) {
        guard framesPerSecond.isFinite, framesPerSecond > 0 else {
            throw .invalidFramesPerSecond(scenario: name, value: framesPerSecond)
        }
        guard Scenario.isValidViewport(viewportSize) else {
            throw .invalidViewportSize(scenario: name, stepIndex: nil, size: viewportSize)
        }
        for (section, count) in numberOfItems.enumerated() where count < 0 {
            throw .negativeItemCount(scenario: name, section: section, count: count)
        }
        var total = 0
        for count in numberOfItems {
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow, sum <= Scenario.maxItems else {
                throw .tooManyItems(scenario: name, limit: Scenario.maxItems)
            }
            total = sum
        }
        for (index, step) in steps.enumerated() {
            func finite(_ value: Double, _ field: String) throws(ScenarioError) {
                guard value.isFinite else {
                    throw .nonFiniteValue(scenario: name, stepIndex: index, kind: step.kind,
                                          field: field, value: value)
                }
            }
            func duration(_ value: Double) throws(ScenarioError) {
                try finite(value, "duration")
                guard value >= 0 else {
                    throw .negativeDuration(scenario: name, stepIndex: index, kind: step.kind, duration: value)
                }
            }
            func bounded(_ value: Double, _ field: String) throws(ScenarioError) {
                try finite(value, field)
                guard abs(value) <= Scenario.maximumMagnitude else {
                    throw .valueTooLarge(scenario: name, stepIndex: index, kind: step.kind, field: field, value: value)
                }
            }
            switch step {
            case let .jump(offset):
                try bounded(offset, "offset")
            case let .drag(distance, seconds, velocity):
                try bounded(distance, "distance")
                try duration(seconds)
                if let velocity { try finite(velocity, "velocity") }
            case let .fling(velocity):
                try finite(velocity, "velocity")
            case let .wait(seconds):
                try duration(seconds)
            case let .scrollToItem(indexPath, seconds):
                try duration(seconds)
                let sectionExists = indexPath.section >= 0 && indexPath.section < numberOfItems.count
                let count = sectionExists ? numberOfItems[indexPath.section] : nil
                guard let count, indexPath.item >= 0, indexPath.item < count else {
                    throw .itemOutOfRange(scenario: name, stepIndex: index, indexPath: indexPath,
                                          itemsInSection: count)
                }
            case let .resize(size):
                guard Scenario.isValidViewport(size) else {
                    throw .invalidViewportSize(scenario: name, stepIndex: index, size: size)
                }
            case let .autoplay(interval, seconds):
                try finite(interval, "autoplay")
                try duration(seconds)
                // At most one advance per frame: the advances, like the frames, stay bounded.
                guard interval * framesPerSecond >= 1 - 1e-9 else {
                    throw .invalidAutoplayInterval(scenario: name, stepIndex: index, interval: interval,
                                                   framesPerSecond: framesPerSecond)
                }
            }
        }
    }

    static func isValidViewport(_ size: Size) -> Bool {
        viewportExtentRange.contains(size.width) && viewportExtentRange.contains(size.height)
    }
}

/// One thing that happens in a ``Scenario``.
///
/// Every step starts from where the previous one left the content. A step that moves
/// the content over time emits frames after the current moment (the first frame of a
/// scenario, at time 0, shows the content before the first step unless that step is a
/// `jump`); a step that ends at rest ends exactly on its destination.
public enum ScenarioStep: Hashable, Sendable {
    /// `setContentOffset(_:animated: false)`: one frame (phase `idle`) at `offset` on
    /// the scroll axis, not clamped (an offset past an edge shows the edge's overscroll).
    case jump(offset: Double)
    /// A whole drag gesture: the finger goes down, moves the content by `by` points of
    /// content offset at constant speed over `duration` seconds (phase `dragging`,
    /// rubber-banding past an edge), and lifts. The content then carries on with the
    /// finger's last velocity, `by/duration`, exactly as after ``fling(velocity:)``.
    /// Positive `by` increases the content offset (the finger moves left or up).
    ///
    /// `velocity`, when given, is the release velocity instead (points per millisecond of
    /// content offset): a real finger's path is not a constant speed, and its last ~100 ms
    /// decide the fling (``InteractiveScrollView`` records drags this way). Nil keeps
    /// `by/duration`.
    case drag(by: Double, duration: Double, velocity: Double? = nil)
    /// The finger lifts at the current offset with `velocity` points per millisecond:
    /// the proposal, the effect's `targetContentOffset` (not with paging), a ``SnapEvent``,
    /// then frames until the content rests (phases `decelerating`/`settling`, the last
    /// `idle`). Content that fits the viewport does not move (docs/physics.md).
    case fling(velocity: Double)
    /// Idle frames for `duration` seconds.
    case wait(duration: Double)
    /// `scrollToItem(at:at: .centeredHorizontally/.centeredVertically, animated:)`: the
    /// item centred on the scroll axis, clamped to the scrollable range, with a smooth
    /// ease over `duration` seconds (phase `settling`, the last frame `idle`; 0 moves at
    /// once, phase `idle`).
    case scrollToItem(CardIndexPath, duration: Double)
    /// The collection view changes size (a rotation, a split view): `prepare` runs
    /// again, the layout is rebuilt, and the item that was nearest the centre stays
    /// centred (clamped). One frame, phase `idle`.
    case resize(Size)
    /// FSPagerView's `automaticSlidingInterval`: every `interval` seconds, for `duration`
    /// seconds, the content moves on by one item, as a timer calling an animated
    /// `setContentOffset` would. Each advance proposes the offset that brings the next
    /// item to where the current one rests (one item pitch further on; after the last
    /// item, back to item 0, as FSPagerView does when not infinite; a wrapping layout
    /// keeps going forward); the effect's `targetContentOffset` (velocity 0) may move it;
    /// the content eases there as `scrollToItem` does (phase `settling`, the last frame
    /// `idle`) over ``ScrollPhysics/defaultScrollAnimationDuration`` or the interval if
    /// shorter. Each advance records a ``SnapEvent``. The step ends when `duration` has
    /// passed and the last advance (one falls at `duration` itself when it is a multiple
    /// of `interval`) has come to rest.
    case autoplay(interval: Double, duration: Double)

    /// `scrollToItem` with UIKit's animation length,
    /// ``ScrollPhysics/defaultScrollAnimationDuration`` (0.3 s).
    public static func scrollToItem(_ indexPath: CardIndexPath) -> ScenarioStep {
        .scrollToItem(indexPath, duration: ScrollPhysics.defaultScrollAnimationDuration)
    }

    /// The step's name as scripts write it: `jump`, `drag`, `fling`, `wait`,
    /// `scrollToItem`, `resize` or `autoplay`.
    public var kind: String {
        switch self {
        case .jump: "jump"
        case .drag: "drag"
        case .fling: "fling"
        case .wait: "wait"
        case .scrollToItem: "scrollToItem"
        case .resize: "resize"
        case .autoplay: "autoplay"
        }
    }
}

/// A scenario that cannot run. Messages name the scenario and count steps from 1, as a
/// script's scenario table does (`stepIndex` itself is 0-based).
public enum ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Frames per second is zero, negative or not finite.
    case invalidFramesPerSecond(scenario: String, value: Double)
    /// The viewport (at the start when `stepIndex` is nil, or of a `resize`) is not
    /// positive and finite.
    case invalidViewportSize(scenario: String, stepIndex: Int?, size: Size)
    /// A section has a negative number of items.
    case negativeItemCount(scenario: String, section: Int, count: Int)
    /// A step's duration is negative.
    case negativeDuration(scenario: String, stepIndex: Int, kind: String, duration: Double)
    /// A step's number is NaN or infinite.
    case nonFiniteValue(scenario: String, stepIndex: Int, kind: String, field: String, value: Double)
    /// A step's offset or distance is beyond ``Scenario/maximumMagnitude``.
    case valueTooLarge(scenario: String, stepIndex: Int, kind: String, field: String, value: Double)
    /// `scrollToItem` names an item that does not exist; `itemsInSection` is nil when the
    /// section does not exist either.
    case itemOutOfRange(scenario: String, stepIndex: Int, indexPath: CardIndexPath, itemsInSection: Int?)
    /// The effect's `prepare` set a deceleration rate outside (0, 1).
    case invalidDecelerationRate(scenario: String, rate: Double)
    /// The effect's `targetContentOffset` answered a non-finite offset.
    case invalidTargetContentOffset(scenario: String, stepIndex: Int, kind: String, offset: Point)
    /// The timeline would exceed the runner's frame cap.
    case tooManyFrames(scenario: String, stepIndex: Int, kind: String, limit: Int)
    /// The sections hold more than ``Scenario/maxItems`` items together.
    case tooManyItems(scenario: String, limit: Int)
    /// A frame would show more than ``Scenario/maxItemsPerFrame`` items.
    case tooManyItemsInFrame(scenario: String, time: Double, offset: Double, limit: Int)
    /// An `autoplay` interval that is not positive, or shorter than one frame.
    case invalidAutoplayInterval(scenario: String, stepIndex: Int, interval: Double, framesPerSecond: Double)

    public var description: String {
        switch self {
        case let .invalidFramesPerSecond(scenario, value):
            return "\(Self.location(scenario)): frames per second must be a positive number (got \(Self.format(value)))"
        case let .invalidViewportSize(scenario, stepIndex, size):
            let place = stepIndex.map { Self.location(scenario, $0, "resize") } ?? Self.location(scenario)
            return "\(place): viewport must have a positive width and height, "
                + "from \(Self.format(Scenario.viewportExtentRange.lowerBound)) to "
                + "\(Self.format(Scenario.viewportExtentRange.upperBound)) points "
                + "(got \(Self.format(size.width))x\(Self.format(size.height)))"
        case let .negativeItemCount(scenario, section, count):
            return "\(Self.location(scenario)): section \(section) has a negative number of items (\(count))"
        case let .negativeDuration(scenario, stepIndex, kind, duration):
            return "\(Self.location(scenario, stepIndex, kind)): duration must not be negative "
                + "(got \(Self.format(duration)))"
        case let .nonFiniteValue(scenario, stepIndex, kind, field, value):
            return "\(Self.location(scenario, stepIndex, kind)): \(field) must be a finite number "
                + "(got \(Self.format(value)))"
        case let .valueTooLarge(scenario, stepIndex, kind, field, value):
            return "\(Self.location(scenario, stepIndex, kind)): \(field) must be within ±\(Scenario.maximumMagnitudeText) "
                + "points, where frames stay exact (got \(Self.format(value)))"
        case let .itemOutOfRange(scenario, stepIndex, indexPath, itemsInSection):
            let available = itemsInSection.map { "section \(indexPath.section) has \($0) item\($0 == 1 ? "" : "s")" }
                ?? "there is no section \(indexPath.section)"
            return "\(Self.location(scenario, stepIndex, "scrollToItem")): no item \(indexPath.item) "
                + "in section \(indexPath.section) (\(available))"
        case let .invalidDecelerationRate(scenario, rate):
            return "\(Self.location(scenario)): decelerationRate must be between 0 and 1, exclusive "
                + "(got \(Self.format(rate)))"
        case let .invalidTargetContentOffset(scenario, stepIndex, kind, offset):
            return "\(Self.location(scenario, stepIndex, kind)): targetContentOffset returned a non-finite offset "
                + "(\(Self.format(offset.x)), \(Self.format(offset.y)))"
        case let .tooManyFrames(scenario, stepIndex, kind, limit):
            return "\(Self.location(scenario, stepIndex, kind)): the timeline would exceed \(limit) frames; "
                + "shorten the scenario or lower the frame rate"
        case let .tooManyItems(scenario, limit):
            return "\(Self.location(scenario)): items: more than \(limit) items in all"
        case let .invalidAutoplayInterval(scenario, stepIndex, interval, fps):
            return "\(Self.location(scenario, stepIndex, "autoplay")): autoplay must be at least one frame long "
                + "(1/\(Self.format(fps)) s at \(Self.format(fps)) fps; got \(Self.format(interval)) s)"
        case let .tooManyItemsInFrame(scenario, time, offset, limit):
            return "\(Self.location(scenario)): the frame at t=\(String(format: "%.2f", time)) s, offset "
                + "\(Self.format(offset)) would show more than \(limit) items; use larger items or a smaller viewport"
        }
    }

    private static func location(_ scenario: String) -> String {
        "scenario \"\(clean(scenario))\""
    }

    private static func location(_ scenario: String, _ stepIndex: Int, _ kind: String) -> String {
        "scenario \"\(clean(scenario))\", step \(stepIndex + 1) (\(clean(kind)))"
    }

    /// A name as it may appear in a one-line message: control characters escaped
    /// (`\n`, `\27`), at most 200 characters kept.
    public static func clean(_ name: String) -> String {
        var out = ""
        var kept = 0
        for scalar in name.unicodeScalars {
            if kept >= 200 {
                let rest = name.unicodeScalars.count - kept
                out += "… (\(rest) more characters)"
                break
            }
            switch scalar.value {
            case 0x0a: out += "\\n"
            case 0x0d: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7f: out += "\\\(scalar.value)"
            case 0x80...0x9f: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
            kept += 1
        }
        return out
    }

    /// Integral values without a trailing ".0".
    private static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}

// MARK: - Built-in scenarios

extension Scenario {
    /// One frame at `offset` (`cardlua run --offset X`).
    public static func single(offset: Double, viewportSize: Size = defaultViewportSize,
                              numberOfItems: [Int] = defaultNumberOfItems,
                              framesPerSecond: Double = defaultFramesPerSecond) -> Scenario {
        Scenario(name: "offset", viewportSize: viewportSize, numberOfItems: numberOfItems,
                 framesPerSecond: framesPerSecond, steps: [.jump(offset: offset)])
    }

    /// A frame at `offset`, a release with `velocity` points per millisecond, frames until
    /// rest (`cardlua run --offset X --fling V`).
    public static func fling(from offset: Double = 0, velocity: Double,
                             viewportSize: Size = defaultViewportSize,
                             numberOfItems: [Int] = defaultNumberOfItems,
                             framesPerSecond: Double = defaultFramesPerSecond) -> Scenario {
        Scenario(name: "fling", viewportSize: viewportSize, numberOfItems: numberOfItems,
                 framesPerSecond: framesPerSecond, steps: [.jump(offset: offset), .fling(velocity: velocity)])
    }

    /// The built-in demo (`cardlua run` without `--offset`/`--scenario`), measured on
    /// `layout` (the prepared layout for this viewport and these items;
    /// ``ScenarioRunner/runDemo(viewportSize:numberOfItems:framesPerSecond:)`` builds it):
    ///
    /// 1. the first item centred (clamped), held for 0.2 s;
    /// 2. a one-second drag that moves the centre from the first item to the third,
    ///    released at the finger's speed (so it coasts and the effect snaps it);
    /// 3. after 0.3 s, a medium fling whose natural travel is 1.6 item pitches: a snap
    ///    (not 1.5, which from a centred card lands exactly between two);
    /// 4. after 0.3 s, a fast fling whose natural travel is the whole content and half a
    ///    viewport more: it reaches the end and bounces;
    /// 5. 0.3 s at rest.
    ///
    /// Velocities account for the layout's deceleration rate, so the story is the same
    /// at `normal` and `fast`. With no items the demo is half a second at rest. A layout
    /// that wraps has no end to bounce off: steps 4 and 5 are then flings across the seam
    /// backwards and forwards instead (``wrappedDemoSteps(layout:)``).
    public static func demo(viewportSize: Size = defaultViewportSize,
                            numberOfItems: [Int] = defaultNumberOfItems,
                            framesPerSecond: Double = defaultFramesPerSecond,
                            layout: FlowLayout) -> Scenario {
        if let steps = wrappedDemoSteps(layout: layout) {
            return Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                            framesPerSecond: framesPerSecond, steps: steps)
        }
        let axis = ScrollPhysics.Axis(layout.configuration.scrollDirection)
        let extent = axis.extent(of: layout.viewportSize)
        let range = 0...max(0, axis.value(of: layout.maximumContentOffset))
        var rate = layout.configuration.decelerationRate.rawValue
        if !(rate > 0 && rate < 1) { rate = DecelerationRate.normal.rawValue }   // the runner reports it
        // A fling travels (v − 0.01)·d/(1 − d) before it stops; this is its inverse.
        func velocity(travelling distance: Double) -> Double {
            distance * (1 - rate) / rate + ScrollPhysics.stopVelocity
        }

        let sections = (0..<layout.numberOfSections).filter { layout.numberOfItems(inSection: $0) > 0 }
        func centre(_ item: Int) -> Double? {
            guard let section = sections.first,
                  let attributes = layout.layoutAttributesForItem(at: CardIndexPath(item: item, section: section))
            else { return nil }
            return axis.value(of: attributes.center)
        }
        guard let section = sections.first, let first = centre(0) else {
            return Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                            framesPerSecond: framesPerSecond, steps: [.jump(offset: 0), .wait(duration: 0.5)])
        }
        let count = layout.numberOfItems(inSection: section)
        let third = centre(min(2, count - 1)) ?? first
        // Right to left (a mirrored horizontal flow) the items run towards smaller offsets.
        let forward: Double = layout.mirrorWidth != nil && axis.direction == .horizontal ? -1 : 1
        var pitch = abs((count > 1 ? centre(1) ?? first : first) - first)
        if !(pitch > 0) { pitch = extent / 2 }

        let start = ScrollPhysics.clamp(first - extent / 2, to: range)
        let sweepEnd = ScrollPhysics.clamp(third - extent / 2, to: range)
        let steps: [ScenarioStep] = [
            .jump(offset: start),
            .wait(duration: 0.2),
            .drag(by: sweepEnd - start, duration: 1),
            .wait(duration: 0.3),
            .fling(velocity: forward * velocity(travelling: 1.6 * pitch)),
            .wait(duration: 0.3),
            .fling(velocity: forward * velocity(travelling: range.upperBound + extent / 2)),
            .wait(duration: 0.3),
        ]
        return Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                        framesPerSecond: framesPerSecond, steps: steps)
    }
}
