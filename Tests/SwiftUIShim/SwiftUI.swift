// The test-only `SwiftUI` module: the slice of SwiftUI that `cardlua export --swiftui`
// emits (docs/export-swiftui.md lists it), declared with the iOS 17 SDK's signatures
// (SwiftUI.framework's arm64-apple-ios.swiftinterface, iPhoneOS17.0.sdk), and implemented
// so that a test can lay the cards out as a stack does, hand each card's `visualEffect`
// closure a proxy whose `frame(in: .scrollView)` is the card's frame at a given offset, and
// read back the effects it applied (ShimHost, SPI).
//
// Rules this module keeps:
// - Every public declaration exists in the iOS 17 SDK with this spelling and type. A
//   declaration SwiftUI lacks would let an export compile here and fail in Xcode: a defect
//   (the exports are also type-checked against the real SDK: docs/export-swiftui.md).
// - Deviations, none visible to the emitted code: `View.body` is `@MainActor` (the SDK's
//   `@MainActor(unsafe)`), `VisualEffect` does not refine `Animatable`, the protocols'
//   underscored requirements (`_makeVisualEffect`, `_makeInputs`) are left out, and
//   `ProjectionTransform`'s init from a `CATransform3D` is not `@inlinable`.
// - What only the driver needs is `@_spi(SwiftUIShimDriver)`.
//
// UIKit (and with it CoreGraphics' and QuartzCore's types) is visible through SwiftUI, as
// in the SDK, where `import SwiftUI` alone compiles `UIEdgeInsets` and `CATransform3D`.
@_exported import UIKit

// MARK: - Views

/// `public protocol View { associatedtype Body : View; @ViewBuilder var body: Body { get } }`.
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError("Never has no body") }
}

/// `@resultBuilder public struct ViewBuilder`: `buildBlock()`, `buildBlock(_:)`.
@resultBuilder public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

/// `@frozen public struct EmptyView : View { public init() }`.
public struct EmptyView: View, ShimPrimitive {
    public init() {}
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { .empty }
}

/// `@frozen public struct Color : View`, with `public static let clear: Color`.
public struct Color: View, ShimPrimitive, Sendable {
    public static let clear = Color()
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { .empty }
}

/// `public struct Axis.Set : OptionSet` (`.horizontal`, `.vertical`).
public enum Axis: Sendable {
    case horizontal, vertical

    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

/// `@frozen public struct EdgeInsets { init(top:leading:bottom:trailing:) }`.
public struct EdgeInsets: Equatable, Sendable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
}

/// `VerticalAlignment` (`.top`, `.center`, `.bottom`); here its fraction of the free space.
public struct VerticalAlignment: Equatable, Sendable {
    let fraction: CGFloat
    public static let top = VerticalAlignment(fraction: 0)
    public static let center = VerticalAlignment(fraction: 0.5)
    public static let bottom = VerticalAlignment(fraction: 1)
}

/// `HorizontalAlignment` (`.leading`, `.center`, `.trailing`), left to right.
public struct HorizontalAlignment: Equatable, Sendable {
    let fraction: CGFloat
    public static let leading = HorizontalAlignment(fraction: 0)
    public static let center = HorizontalAlignment(fraction: 0.5)
    public static let trailing = HorizontalAlignment(fraction: 1)
}

/// `@frozen public struct Alignment` (`.top`, `.leading`, `.center`, …).
public struct Alignment: Equatable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal; self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
}

/// `@frozen public struct UnitPoint` (`ScrollTarget.anchor`).
public struct UnitPoint: Equatable, Sendable {
    public var x: CGFloat, y: CGFloat
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    public static let center = UnitPoint(x: 0.5, y: 0.5)
}

/// `PinnedScrollableViews` (LazyHStack's `pinnedViews:`).
public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// `public struct ScrollView<Content> : View where Content : View`:
/// `init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content)`.
public struct ScrollView<Content: View>: View, ShimPrimitive {
    let axes: Axis.Set
    let content: Content
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { .scroll(horizontal: axes.contains(.horizontal), content: ShimNode.of(content)) }
}

/// `LazyHStack`: `init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
/// pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content)`.
public struct LazyHStack<Content: View>: View, ShimPrimitive {
    let alignment: VerticalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode {
        .stack(horizontal: true, alignment: alignment.fraction, spacing: spacing ?? 8, children: ShimNode.of(content).flattened)
    }
}

/// `LazyVStack`: `init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
/// pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content)`.
public struct LazyVStack<Content: View>: View, ShimPrimitive {
    let alignment: HorizontalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode {
        .stack(horizontal: false, alignment: alignment.fraction, spacing: spacing ?? 8, children: ShimNode.of(content).flattened)
    }
}

/// `HStack`: `init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)`.
public struct HStack<Content: View>: View, ShimPrimitive {
    let alignment: VerticalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode {
        .stack(horizontal: true, alignment: alignment.fraction, spacing: spacing ?? 8, children: ShimNode.of(content).flattened)
    }
}

/// `VStack`: `init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)`.
public struct VStack<Content: View>: View, ShimPrimitive {
    let alignment: HorizontalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode {
        .stack(horizontal: false, alignment: alignment.fraction, spacing: spacing ?? 8, children: ShimNode.of(content).flattened)
    }
}

/// `public struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable`:
/// `init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)`.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content>: View, ShimPrimitive where Content: View {
    let data: Data
    let content: (Data.Element) -> Content
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { .group(data.map { ShimNode.of(content($0)) }) }
}

/// `@frozen public struct GeometryReader<Content> : View where Content : View`:
/// `init(@ViewBuilder content: @escaping (GeometryProxy) -> Content)`.
public struct GeometryReader<Content: View>: View, ShimPrimitive {
    let content: (GeometryProxy) -> Content
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
    public var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { .geometry { ShimNode.of(content($0)) } }
}

/// `public struct GeometryProxy`: `var size: CGSize`,
/// `func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect` (iOS 17).
public struct GeometryProxy {
    public let size: CGSize
    /// The frame in the nearest scroll view's coordinate space (the only space used here).
    let frameInScrollView: CGRect
    public func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect { frameInScrollView }
}

@available(*, unavailable)
extension GeometryProxy: Sendable {}

/// `public enum CoordinateSpace` (the protocol's `coordinateSpace`).
public enum CoordinateSpace: Equatable {
    case global, local, named(AnyHashable)
}

/// `public protocol CoordinateSpaceProtocol { var coordinateSpace: CoordinateSpace { get } }`.
public protocol CoordinateSpaceProtocol {
    var coordinateSpace: CoordinateSpace { get }
}

/// `public struct NamedCoordinateSpace : CoordinateSpaceProtocol, Equatable`.
public struct NamedCoordinateSpace: CoordinateSpaceProtocol, Equatable {
    public var coordinateSpace: CoordinateSpace { .named("scrollView") }
}

extension CoordinateSpaceProtocol where Self == NamedCoordinateSpace {
    /// `public static var scrollView: NamedCoordinateSpace { get }` (iOS 17).
    public static var scrollView: NamedCoordinateSpace { NamedCoordinateSpace() }
}
