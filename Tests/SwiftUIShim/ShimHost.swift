// The driver's side (SPI): a view as a tree of nodes, laid out as SwiftUI's stacks lay
// theirs out, each card's visual effect run with the proxy it would get, and what it
// applied read back. Only what the emitted views use is laid out: a stack places its
// children one after another with its spacing, aligned across by its alignment; `frame`
// fixes a size and aligns its content; `padding` insets; a scroll view proposes its own
// size across its axis and none along it, and shows its content at `-contentOffset`;
// `GeometryReader` fills what it is offered.

/// A primitive view of this module: its node.
protocol ShimPrimitive {
    @MainActor func shimNode() -> ShimNode
}

/// A view as the driver lays it out.
indirect enum ShimNode {
    case empty
    case group([ShimNode])
    case scroll(horizontal: Bool, content: ShimNode)
    case stack(horizontal: Bool, alignment: CGFloat, spacing: CGFloat, children: [ShimNode])
    case geometry((GeometryProxy) -> ShimNode)
    case frame(width: CGFloat?, height: CGFloat?, alignment: Alignment, content: ShimNode)
    case padding(EdgeInsets, content: ShimNode)
    case background(ShimNode, content: ShimNode)
    case zIndex(Double, content: ShimNode)
    case visualEffect((EmptyVisualEffect, GeometryProxy) -> any VisualEffect, content: ShimNode)
    case onChange(() -> Void, content: ShimNode)
    case scrollTargetBehavior(any ScrollTargetBehavior, content: ShimNode)

    /// A view's node: a primitive's own, else its body's.
    @MainActor static func of<V: View>(_ view: V) -> ShimNode {
        if let primitive = view as? ShimPrimitive { return primitive.shimNode() }
        return of(view.body)
    }

    /// A group's children in place (ForEach in a stack).
    var flattened: [ShimNode] {
        if case let .group(children) = self { return children.flatMap(\.flattened) }
        return [self]
    }
}

/// One card as the driver saw it: its slot in the scroll content and the effects applied.
@_spi(SwiftUIShimDriver) public struct ShimCard {
    /// The card's frame in the scroll view's content (its slot; effects do not move it).
    public var frame: CGRect
    /// The effects its `visualEffect` returned, first applied first.
    public var effects: [ShimEffectStep]
    /// The `zIndex` around it (0 without one).
    public var zIndex: Double
}

/// What one layout pass found.
@_spi(SwiftUIShimDriver) public struct ShimFrame {
    /// The cards, in the order the stack placed them.
    public var cards: [ShimCard] = []
    /// The scroll view's scroll target behaviour, if any.
    public var behavior: (any ScrollTargetBehavior)?
    public var containerSize = CGSize.zero
    public var contentSize = CGSize.zero
}

@_spi(SwiftUIShimDriver) @MainActor public enum ShimHost {
    /// Lays `view` out in a window of `size` with its scroll view at `contentOffset`. Twice:
    /// the first pass runs the `onChange(initial: true)` actions (the state they set is
    /// read by the second, as SwiftUI updates a view whose state changed).
    public static func render<V: View>(_ view: V, size: CGSize, contentOffset: CGPoint) -> ShimFrame {
        var pass = Pass(contentOffset: contentOffset, runActions: true)
        pass.place(ShimNode.of(view), in: CGRect(origin: .zero, size: size))
        pass = Pass(contentOffset: contentOffset, runActions: false)
        pass.place(ShimNode.of(view), in: CGRect(origin: .zero, size: size))
        return pass.result
    }

    /// The behaviour's target for a release: `proposed` as UIKit proposes it (the scroll
    /// view's resting content offset), `velocity` in SwiftUI's units.
    public static func target(_ behavior: any ScrollTargetBehavior, proposed: CGPoint, velocity: CGVector,
                              frame: ShimFrame, horizontal: Bool) -> CGPoint {
        let original = ScrollTarget(rect: CGRect(origin: proposed, size: frame.containerSize), anchor: nil)
        var target = original
        let context = ScrollTargetBehaviorContext(originalTarget: original, velocity: velocity,
                                                  contentSize: frame.contentSize, containerSize: frame.containerSize,
                                                  axes: horizontal ? .horizontal : .vertical)
        func update<B: ScrollTargetBehavior>(_ b: B) { b.updateTarget(&target, context: context) }
        update(behavior)
        return target.rect.origin
    }

    struct Pass {
        let contentOffset: CGPoint
        let runActions: Bool
        var result = ShimFrame()
        /// The window's position of the scroll view's visible origin (`.scrollView`'s origin).
        var scrollOrigin = CGPoint.zero
        var zIndex: Double = 0

        /// The size a node takes when offered `proposal` (nil: unlimited on that axis).
        func size(_ node: ShimNode, _ proposal: (CGFloat?, CGFloat?)) -> CGSize {
            switch node {
            case .empty, .geometry, .scroll:
                return CGSize(width: proposal.0 ?? 0, height: proposal.1 ?? 0)
            case let .group(children):
                return children.first.map { size($0, proposal) } ?? .zero
            case let .stack(horizontal, _, spacing, children):
                let sizes = children.map { size($0, horizontal ? (nil, proposal.1) : (proposal.0, nil)) }
                let main = sizes.map { horizontal ? $0.width : $0.height }.reduce(0, +) + spacing * CGFloat(max(0, sizes.count - 1))
                let cross = sizes.map { horizontal ? $0.height : $0.width }.max() ?? 0
                return horizontal ? CGSize(width: main, height: cross) : CGSize(width: cross, height: main)
            case let .frame(width, height, _, content):
                let inner = size(content, (width ?? proposal.0, height ?? proposal.1))
                return CGSize(width: width ?? inner.width, height: height ?? inner.height)
            case let .padding(e, content):
                let inner = size(content, (proposal.0.map { $0 - e.leading - e.trailing }, proposal.1.map { $0 - e.top - e.bottom }))
                return CGSize(width: inner.width + e.leading + e.trailing, height: inner.height + e.top + e.bottom)
            case let .background(_, content), let .zIndex(_, content), let .visualEffect(_, content),
                 let .onChange(_, content), let .scrollTargetBehavior(_, content):
                return size(content, proposal)
            }
        }

        /// Places a node in `rect` (window coordinates).
        mutating func place(_ node: ShimNode, in rect: CGRect) {
            switch node {
            case .empty:
                break
            case let .group(children):
                children.forEach { place($0, in: rect) }
            case let .geometry(make):
                let proxy = GeometryProxy(size: rect.size, frameInScrollView: rect.offsetBy(dx: -scrollOrigin.x, dy: -scrollOrigin.y))
                place(make(proxy), in: rect)
            case let .scroll(horizontal, content):
                result.containerSize = rect.size
                let contentSize = size(content, horizontal ? (nil, rect.height) : (rect.width, nil))
                result.contentSize = contentSize
                let saved = scrollOrigin
                scrollOrigin = rect.origin
                place(content, in: CGRect(x: rect.minX - contentOffset.x, y: rect.minY - contentOffset.y,
                                          width: contentSize.width, height: contentSize.height))
                scrollOrigin = saved
            case let .stack(horizontal, alignment, spacing, children):
                var along = horizontal ? rect.minX : rect.minY
                for child in children {
                    let s = size(child, horizontal ? (nil, rect.height) : (rect.width, nil))
                    let origin = horizontal
                        ? CGPoint(x: along, y: rect.minY + (rect.height - s.height) * alignment)
                        : CGPoint(x: rect.minX + (rect.width - s.width) * alignment, y: along)
                    place(child, in: CGRect(origin: origin, size: s))
                    along += (horizontal ? s.width : s.height) + spacing
                }
            case let .frame(width, height, alignment, content):
                let s = size(content, (width ?? rect.width, height ?? rect.height))
                let origin = CGPoint(x: rect.minX + (rect.width - s.width) * alignment.horizontal.fraction,
                                     y: rect.minY + (rect.height - s.height) * alignment.vertical.fraction)
                place(content, in: CGRect(origin: origin, size: s))
            case let .padding(e, content):
                place(content, in: CGRect(x: rect.minX + e.leading, y: rect.minY + e.top,
                                          width: rect.width - e.leading - e.trailing, height: rect.height - e.top - e.bottom))
            case let .background(background, content):
                place(background, in: rect)
                place(content, in: rect)
            case let .zIndex(z, content):
                let saved = zIndex
                zIndex = z
                place(content, in: rect)
                zIndex = saved
            case let .visualEffect(effect, content):
                let inScrollView = rect.offsetBy(dx: -scrollOrigin.x, dy: -scrollOrigin.y)
                let applied = effect(EmptyVisualEffect(), GeometryProxy(size: rect.size, frameInScrollView: inScrollView))
                let frame = inScrollView.offsetBy(dx: contentOffset.x, dy: contentOffset.y)
                result.cards.append(ShimCard(frame: frame, effects: (applied as? ShimEffectSteps)?.steps ?? [], zIndex: zIndex))
                place(content, in: rect)
            case let .onChange(action, content):
                if runActions { action() }
                place(content, in: rect)
            case let .scrollTargetBehavior(behavior, content):
                result.behavior = behavior
                place(content, in: rect)
            }
        }
    }
}
