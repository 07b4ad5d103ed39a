/// A point in points, origin top-left, y down (`CGPoint`).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points (`CGSize`).
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle (`CGRect`): an origin and a size, with `CGRectGet…` accessors.
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var midX: Double { origin.x + size.width / 2 }
    public var maxX: Double { origin.x + size.width }
    public var minY: Double { origin.y }
    public var midY: Double { origin.y + size.height / 2 }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var center: Point { Point(x: midX, y: midY) }

    /// `CGRectIntersectsRect` for rects with non-negative sizes: the interiors overlap.
    /// (Core Graphics also rejects empty rects; a flow layout never produces them.)
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// Insets from each edge (`UIEdgeInsets`).
public struct CardEdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = CardEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A section and an item within it, both 0-based (like UIKit's `IndexPath` for collection views).
public struct CardIndexPath: Hashable, Comparable, Sendable {
    public var section: Int
    public var item: Int
    public init(item: Int, section: Int) { self.item = item; self.section = section }
    public static func < (a: CardIndexPath, b: CardIndexPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }
}
