import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The UIKit module's CATransform3D and CGAffineTransform functions against the Lua
/// engine's C math (Sources/CLuaShims/transform_math.c), run through a script: a few
/// hundred random chains of every function the emitter may call agree within 1e-12
/// (they are the same operations in the same order, so in practice to the bit). The
/// UIKit side is in Proof/ShimTransforms.swift: a file importing both Testing and UIKit
/// would ask for Swift Testing's `_Testing_UIKit` cross-import overlay, which Linux lacks.
@Suite struct TransformShimTests {
    static let cases = 300

    /// One random chain's numbers (a fixed seed), spelled as both languages read them back.
    struct Chain {
        var n: [Double]
        /// Which principal or general axis each rotation turns about, and whether to invert.
        var axis: Int, invert: Bool

        func axisVector(_ k: Int) -> (Double, Double, Double) {
            switch (axis + k) % 5 {
            case 0: (0, 1, 0)
            case 1: (1, 0, 0)
            case 2: (0, 0, 1)
            case 3: (n[14], n[15], n[16])
            default: (0.6, 0.8, 0)   // a unit axis, not normalised again
            }
        }
    }

    static func chains() -> [Chain] {
        var random = SplitMix64(seed: 20_261_201)
        func number() -> Double {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return (unit * 2 - 1) * 3
        }
        return (0..<cases).map { i in
            Chain(n: (0..<24).map { _ in number() }, axis: i % 5, invert: i % 3 == 0)
        }
    }

    /// The chain in Lua, for item `i` of a transform call.
    static func luaScript(_ chains: [Chain]) -> String {
        func v(_ x: Double) -> String { "\(x)" }
        var text = "local C = {\n"
        for c in chains {
            let (ax, ay, az) = c.axisVector(0), (bx, by, bz) = c.axisVector(1)
            text += "  {" + (c.n.map(v) + [v(ax), v(ay), v(az), v(bx), v(by), v(bz), c.invert ? "1" : "0"]).joined(separator: ", ") + "},\n"
        }
        text += """
        }
        function transform(attributes)
          local n = C[attributes.indexPath.item + 1]
          local t = CATransform3DMakeRotation(n[1], n[25], n[26], n[27])
          t.m34 = n[2] / 600
          t = CATransform3DRotate(t, n[3], n[28], n[29], n[30])
          t = CATransform3DScale(t, n[4], n[5], n[6])
          t = CATransform3DTranslate(t, n[7], n[8], n[9])
          t = CATransform3DConcat(t, CATransform3DMakeScale(n[10], n[11], n[12]))
          t = CATransform3DConcat(CATransform3DMakeTranslation(n[13], n[14], n[15]), t)
          local a = CGAffineTransformMakeRotation(n[17])
          a = CGAffineTransformScale(a, n[18], n[19])
          a = CGAffineTransformTranslate(a, n[20], n[21])
          a = CGAffineTransformRotate(a, n[22])
          a = CGAffineTransformConcat(a, CGAffineTransformMakeTranslation(n[23], n[24]))
          a = CGAffineTransformInvert(a)
          t = CATransform3DConcat(t, CATransform3DMakeAffineTransform(a))
          if n[31] == 1 then t = CATransform3DInvert(t) end
          attributes.transform3D = t
        end

        """
        return text
    }

    @Test func shimMathAgreesWithTheEngine() throws {
        let chains = Self.chains()
        let effect = try LuaEffect(source: Self.luaScript(chains), chunkName: "transforms.lua")
        var configuration = FlowLayoutConfiguration()
        let viewport = Size(width: 414, height: 736)
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [chains.count])
        var items = (0..<chains.count).map {
            LayoutAttributes(indexPath: CardIndexPath(item: $0, section: 0), frame: Rect(x: 0, y: 0, width: 10, height: 10))
        }
        try effect.transform(&items, layout: layout, context: ScrollContext(bounds: Rect(x: 0, y: 0, width: 414, height: 736),
                                                                           contentSize: viewport))
        var worst = 0.0, exact = 0
        for (i, chain) in chains.enumerated() {
            let shimFields = ShimTransforms.fields(of: chain)
            let engine = items[i].transform3D.fields
            #expect(engine.allSatisfy { $0.isFinite }, "case \(i): the engine gave \(engine)")
            let difference = zip(shimFields, engine).map { abs($0 - $1) }.max() ?? 0
            worst = max(worst, difference)
            if shimFields == engine { exact += 1 }
            #expect(difference <= 1e-12, "case \(i): the shim gives \(shimFields), the engine \(engine)")
        }
        // Not everything trivially identity: the chains move the fields.
        #expect(items.filter { $0.transform3D != .identity }.count == chains.count)
        #expect(exact > chains.count / 2, "only \(exact) of \(chains.count) bit-identical (worst \(worst))")
    }
}
