import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import SeedTwins
import Testing

/// The Lua ports in scripts/ against their native Swift twins and the seeds' closed forms.
@Suite struct SeedPortTests {
    static let scriptsFolder = TestSupport.packageRoot.appendingPathComponent("scripts")

    static func lua(_ name: String) throws -> LuaEffect {
        try LuaEffect(path: scriptsFolder.appendingPathComponent(name).path)
    }

    /// Prepares `effect` for `viewport` and returns its layout and the items of one frame
    /// at `offset` (on the scroll axis).
    static func frame(_ effect: any Effect, viewport: Size, offset: Double, items: Int = 20) throws
        -> (layout: FlowLayout, items: [LayoutAttributes], context: ScrollContext)
    {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [items])
        let origin = configuration.scrollDirection == .horizontal ? Point(x: offset, y: 0) : Point(x: 0, y: offset)
        let bounds = Rect(origin: origin, size: viewport)
        let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&attributes, layout: layout, context: context)
        return (layout, attributes, context)
    }

    static func expectClose(_ a: Transform3D, _ b: Transform3D, tolerance: Double = 1e-9,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for (x, y) in zip(a.fields, b.fields) {
            #expect(abs(x - y) <= tolerance, "\(a.fields) vs \(b.fields)", sourceLocation: sourceLocation)
        }
    }

    static let viewports = [Size(width: 414, height: 736), Size(width: 320, height: 568)]
    static let offsets: [Double] = [0, 75, 150, 333.25, 600, 1234.5, 4000]

    static let seeds: [(script: String, twin: @Sendable () -> any Effect)] = [
        ("lol.lua", { LeagueOfLegendsEffect() }),
        ("card-scale.lua", { CardScaleEffect() }),
        ("photo-browser.lua", { PhotoBrowserEffect() }),
    ]

    @Test(arguments: [0, 1, 2])
    func portMatchesTwin(seed: Int) throws {
        let (script, makeTwin) = Self.seeds[seed]
        let port = try Self.lua(script)
        let twin = makeTwin()
        for viewport in Self.viewports {
            for offset in Self.offsets {
                let a = try Self.frame(port, viewport: viewport, offset: offset)
                let b = try Self.frame(twin, viewport: viewport, offset: offset)
                #expect(a.layout.configuration == b.layout.configuration)
                #expect(a.items.count == b.items.count)
                #expect(!a.items.isEmpty)
                for (x, y) in zip(a.items, b.items) {
                    #expect(x.indexPath == y.indexPath)
                    #expect(x.frame == y.frame)
                    #expect(x.alpha == y.alpha && x.zIndex == y.zIndex && x.isHidden == y.isHidden)
                    Self.expectClose(x.transform3D, y.transform3D)
                }
            }
        }
    }

    /// Runs `script` at every viewport and offset and compares each item's matrix with
    /// `expected(viewport, offset, item)`.
    static func expectClosedForm(_ script: String,
                                 sourceLocation: SourceLocation = #_sourceLocation,
                                 _ expected: (Size, Double, LayoutAttributes) -> Transform3D) throws {
        let port = try lua(script)
        for viewport in viewports {
            for offset in offsets {
                for item in try frame(port, viewport: viewport, offset: offset).items {
                    expectClose(item.transform3D, expected(viewport, offset, item), sourceLocation: sourceLocation)
                }
            }
        }
    }

    static func uniformScale(_ s: Double) -> Transform3D {
        Transform3D([s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    }

    /// Seed 000's matrix in closed form: a turn θ about y after m34 = 1/600 gives
    /// m11 = m33 = cos θ, m13 = −sin θ, m31 = sin θ, m14 = −sin θ/600, m34 = cos θ/600.
    @Test func lolClosedForm() throws {
        try Self.expectClosedForm("lol.lua") { viewport, offset, item in
            let distance = offset + viewport.width / 2 - item.center.x
            let maximum = 35 * Double.pi / 180
            let theta = abs(distance) < 200 ? -maximum * distance / 200 : (distance > 0 ? -maximum : maximum)
            let c = cos(theta), s = sin(theta)
            return Transform3D([c, 0, -s, -s / 600, 0, 1, 0, 0, s, 0, c, c / 600, 0, 0, 0, 1])
        }
        let frame = try Self.frame(try Self.lua("lol.lua"), viewport: Self.viewports[0], offset: 150)
        #expect(frame.items.allSatisfy { $0.zIndex == 1 })
    }

    /// Seed 002: scale = |cos(|distance| / W · π/4)|.
    @Test func cardScaleClosedForm() throws {
        try Self.expectClosedForm("card-scale.lua") { viewport, offset, item in
            Self.uniformScale(abs(cos(abs(item.center.x - (offset + viewport.width / 2)) / viewport.width * .pi / 4)))
        }
    }

    /// Seed 004: scale = 1 − |distance| / (W/2) · 0.3.
    @Test func photoBrowserClosedForm() throws {
        try Self.expectClosedForm("photo-browser.lua") { viewport, offset, item in
            Self.uniformScale(1 - abs(item.center.x - offset - viewport.width / 2) / (viewport.width / 2) * 0.3)
        }
    }

    /// Seed 000 at 414×736: item 0 at (50, 118, 300, 500) — the 336-pt column between the
    /// 200-pt insets centres the 500-pt card at 200 + (336 − 500)/2 — and 20 items of 300
    /// with insets of 50 give a content width of 50 + 20·300 + 50 = 6100.
    @Test func lolBaseGeometry() throws {
        let frame = try Self.frame(try Self.lua("lol.lua"), viewport: Size(width: 414, height: 736), offset: 0)
        #expect(frame.items.first?.frame == Rect(x: 50, y: 118, width: 300, height: 500))
        #expect(frame.layout.collectionViewContentSize == Size(width: 6100, height: 736))
    }

    /// The snap rules: the Lua ports answer like the twins, and land a card's centre on
    /// the viewport's centre (closed form: centre_k = inset + w/2 + k·pitch).
    @Test(arguments: [0, 2])
    func snapMatchesTwinAndCentresACard(seed: Int) throws {
        let (script, makeTwin) = Self.seeds[seed]
        let port = try Self.lua(script)
        let twin = makeTwin()
        for viewport in Self.viewports {
            let a = try Self.frame(port, viewport: viewport, offset: 0)
            let b = try Self.frame(twin, viewport: viewport, offset: 0)
            let c = a.layout.configuration
            let pitch = c.itemSize.width + c.minimumLineSpacing
            let firstCentre = c.sectionInset.left + c.itemSize.width / 2
            // Proposals as the scroll view makes them: clamped to the scrollable range.
            for proposed in stride(from: 0.0, through: a.layout.maximumContentOffset.x, by: 37.5) {
                for velocity in [-2.0, -0.1, 0.1, 2.0] {
                    let p = Point(x: proposed, y: 0), v = Point(x: velocity, y: 0)
                    let mine = try port.targetContentOffset(proposed: p, velocity: v, layout: a.layout, context: a.context)
                    let theirs = try twin.targetContentOffset(proposed: p, velocity: v, layout: b.layout, context: b.context)
                    #expect(abs(mine.x - theirs.x) <= 1e-9 && mine.y == theirs.y, "proposed \(proposed)")
                    // Nearest centre to the proposal's centre, by the closed form.
                    let centre = proposed + viewport.width / 2
                    let k = ((centre - firstCentre) / pitch).rounded()
                    let clampedK = min(max(k, 0), 19)
                    var expected = firstCentre + clampedK * pitch - viewport.width / 2
                    if seed == 2 { expected = max(expected, 0) }  // seed 004 clamps at 0
                    // Only where an item meets the proposed rect (the seeds search there).
                    if abs(firstCentre + clampedK * pitch - centre) < viewport.width / 2 + c.itemSize.width / 2 {
                        #expect(abs(mine.x - expected) <= 1e-9, "proposed \(proposed): \(mine.x) vs \(expected)")
                    }
                }
            }
        }
    }

    @Test func cardScaleKeepsTheProposal() throws {
        let port = try Self.lua("card-scale.lua")
        let frame = try Self.frame(port, viewport: Size(width: 414, height: 736), offset: 0)
        let answer = try port.targetContentOffset(proposed: Point(x: 321.5, y: 0), velocity: Point(x: 1, y: 0),
                                                  layout: frame.layout, context: frame.context)
        #expect(answer == Point(x: 321.5, y: 0))
    }
}
