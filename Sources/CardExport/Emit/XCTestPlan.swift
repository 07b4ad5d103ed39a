/// What `cardlua export --tests` asserts: the Lua run of a script, as plain numbers. The
/// CLI records it (CardExport never runs Lua) and ``XCTestFile`` writes it as XCTest cases.
public struct XCTestPlan: Sendable, Equatable {
    /// A point or a vector: a content offset, a proposal, a velocity (points per millisecond).
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// One cell's attributes as the script's `transform` left them.
    public struct Cell: Sendable, Equatable {
        public var section: Int
        public var item: Int
        /// x, y, width, height.
        public var frame: [Double]
        /// x, y.
        public var center: [Double]
        /// `transform3D`, m11 … m44 (row by row).
        public var transform: [Double]
        public var alpha: Double
        public var zIndex: Int
        public var isHidden: Bool

        public init(section: Int, item: Int, frame: [Double], center: [Double], transform: [Double], alpha: Double,
                    zIndex: Int, isHidden: Bool) {
            self.section = section
            self.item = item
            self.frame = frame
            self.center = center
            self.transform = transform
            self.alpha = alpha
            self.zIndex = zIndex
            self.isHidden = isHidden
        }
    }

    /// A content offset the run visited and the cells it showed there.
    public struct Visit: Sendable, Equatable {
        public var offset: Point
        public var cells: [Cell]

        public init(offset: Point, cells: [Cell]) {
            self.offset = offset
            self.cells = cells
        }
    }

    /// A finger lifting: the content offset then, what UIKit proposes, the velocity, and
    /// where the script's `targetContentOffset` put it.
    public struct Release: Sendable, Equatable {
        public var offset: Point
        public var proposed: Point
        public var velocity: Point
        public var target: Point

        public init(offset: Point, proposed: Point, velocity: Point, target: Point) {
            self.offset = offset
            self.proposed = proposed
            self.velocity = velocity
            self.target = target
        }
    }

    /// A `UICollectionViewDelegateFlowLayout` method the exported layout declares: the
    /// test's delegate forwards it to the layout, as the app's does.
    public enum DelegateMethod: String, Sendable, CaseIterable {
        case sizeForItem, insetForSection, referenceSizeForHeader, referenceSizeForFooter
    }

    /// The exported layout's class (`LolLayout`); the tests are `LolLayoutTests`.
    public var className: String
    /// The module that declares the layout, imported `@testable` (nil: none, the tests
    /// compile in the layout's own module).
    public var testModule: String?
    /// The script and the command, for the file's header (`scripts/lol.lua`).
    public var scriptName: String
    public var command: String
    /// The collection view's size, width and height.
    public var viewport: Point
    public var itemsPerSection: [Int]
    public var delegateMethods: [DelegateMethod]
    public var visits: [Visit]
    public var releases: [Release]

    public init(className: String, testModule: String?, scriptName: String, command: String, viewport: Point,
                itemsPerSection: [Int], delegateMethods: [DelegateMethod] = [], visits: [Visit],
                releases: [Release]) {
        self.className = className
        self.testModule = testModule
        self.scriptName = scriptName
        self.command = command
        self.viewport = viewport
        self.itemsPerSection = itemsPerSection
        self.delegateMethods = delegateMethods
        self.visits = visits
        self.releases = releases
    }
}
