import CardLayout
import CardLua
import Foundation
import Testing

/// The script contract (docs/script-api.md) through LuaEffect: what a script can read and
/// write, and how bad values are reported.
@Suite struct LuaEffectTests {
    static let viewport = Size(width: 400, height: 600)

    /// Runs one frame of `source` at `offset` with items of a plain horizontal layout.
    static func run(_ source: String, offset: Double = 0, items: Int = 5) throws -> [LayoutAttributes] {
        let effect = try LuaEffect(source: source, chunkName: "test.lua")
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [items])
        let bounds = Rect(x: offset, y: 0, width: viewport.width, height: viewport.height)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&attributes, layout: layout,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        return attributes
    }

    static let horizontal = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = { width = 200, height = 300 }
      layout.minimumLineSpacing = 20
    end

    """

    static func failure(_ source: String) -> ScriptError? {
        do {
            _ = try run(source)
            return nil
        } catch let error as ScriptError {
            return error
        } catch {
            return nil
        }
    }

    @Test func identityIsAFreshValueEveryTime() throws {
        let items = try Self.run(Self.horizontal + """
        function transform(attributes)
          local t = CATransform3DIdentity
          t.m34 = 1 / 500
          attributes.alpha = CATransform3DIdentity.m34 == 0 and 1 or 0
          attributes.transform3D = t
        end
        """)
        for item in items {
            #expect(item.alpha == 1)
            #expect(item.transform3D.m34 == 1.0 / 500)
        }
    }

    @Test func returnValuesNumberTransformAffine() throws {
        let scaled = try Self.run(Self.horizontal + "function transform() return 0.5 end")
        #expect(scaled.allSatisfy { $0.transform3D == CardAffineTransform.scale(x: 0.5, y: 0.5).transform3D })
        let turned = try Self.run(Self.horizontal + "function transform() return CATransform3DMakeRotation(0.3, 0, 0, 1) end")
        #expect(turned.allSatisfy { $0.transform3D == Transform3D.rotation(angle: 0.3, x: 0, y: 0, z: 1) })
        let affine = try Self.run(Self.horizontal + "function transform() return CGAffineTransformMakeTranslation(3, 4) end")
        #expect(affine.allSatisfy { $0.transform3D == CardAffineTransform.translation(x: 3, y: 4).transform3D })
    }

    /// Setting `transform` replaces `transform3D` and vice versa: the later wins.
    @Test func laterTransformAssignmentWins() throws {
        let a = try Self.run(Self.horizontal + """
        function transform(attributes)
          attributes.transform3D = CATransform3DMakeScale(2, 2, 1)
          attributes.transform = CGAffineTransformMakeScale(3, 3)
        end
        """)
        #expect(a[0].transform3D == CardAffineTransform.scale(x: 3, y: 3).transform3D)
        let b = try Self.run(Self.horizontal + """
        function transform(attributes)
          attributes.transform = CGAffineTransformMakeScale(3, 3)
          attributes.transform3D = CATransform3DMakeScale(2, 2, 1)
          attributes.transform = CGAffineTransformMakeScale(4, 4)
          attributes.transform3D = CATransform3DMakeScale(5, 5, 1)
        end
        """)
        #expect(b[0].transform3D == Transform3D.scale(x: 5, y: 5, z: 1))
    }

    @Test func readsBaseAttributesAndWritesGeometry() throws {
        let items = try Self.run(Self.horizontal + """
        function transform(attributes, layout)
          local f = attributes.frame
          assert(f.width == 200 and f.height == 300, "frame size")
          assert(attributes.size.width == 200, "size")
          assert(attributes.indexPath.section == 0, "section")
          assert(layout.collectionView.bounds.width == 400, "bounds")
          if attributes.indexPath.item == 1 then
            attributes.center.x = attributes.center.x + 7
            attributes.zIndex = 3
            attributes.hidden = true
          end
          attributes.alpha = 0.25
        end
        """)
        #expect(items[0].center.x == 100)
        #expect(items[1].center.x == 100 + 220 + 7)
        #expect(items[1].zIndex == 3 && items[1].isHidden)
        #expect(items[0].zIndex == 0 && !items[0].isHidden)
        #expect(items.allSatisfy { $0.alpha == 0.25 })
    }

    @Test func frameAssignmentMovesAndResizes() throws {
        let items = try Self.run(Self.horizontal + """
        function transform(attributes)
          attributes.frame = CGRectMake(10, 20, 30, 40)
        end
        """)
        #expect(items[0].frame == Rect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test func contractErrorsNameCallbackItemAndField() throws {
        let nan = Self.failure(Self.horizontal + "function transform(a)\n  a.alpha = 0/0\nend")
        // Reported at the assignment (line 7), not at the function (line 6).
        #expect(nan?.message == "test.lua:7: transform: item 0: attributes.alpha is NaN")
        let string = Self.failure(Self.horizontal + "function transform(a)\n  return 'big'\nend")
        #expect(string?.message.hasPrefix("test.lua:7: transform: item 0: returned a string") == true)
        let matrix = Self.failure(Self.horizontal + "function transform(a)\n  local t = CATransform3DIdentity\n  t.m34 = 0/0\n  return t\nend")
        #expect(matrix?.message == "test.lua:6: transform: item 0: the returned transform.m34 is NaN")
        let runtime = Self.failure(Self.horizontal + "function transform(a)\n  if a.indexPath.item == 1 then\n    local x = nil + 1\n  end\nend")
        #expect(runtime?.message.hasPrefix("test.lua:8: transform: item 1: attempt to perform arithmetic") == true)
        #expect(runtime?.details.contains("test.lua:8") == true)
        let size = Self.failure("function prepare(layout)\n  layout.itemSize = { width = -3, height = 10 }\nend")
        // At the assignment (line 2), not at `function prepare` (line 1).
        #expect(size?.message == "test.lua:2: prepare: layout.itemSize.width must be positive (got -3)")
        let syntax = Self.failure("function transform(\n")
        #expect(syntax?.message.hasPrefix("test.lua:2:") == true)
    }

    @Test func targetContentOffsetAcceptsPointOrNumber() throws {
        for (answer, expected) in [("CGPointMake(123, 0)", 123.0), ("456", 456.0)] {
            let effect = try LuaEffect(source: Self.horizontal + "function targetContentOffset(p, v) return \(answer) end",
                                       chunkName: "t.lua")
            var configuration = FlowLayoutConfiguration()
            try effect.prepare(&configuration, viewportSize: Self.viewport)
            let layout = FlowLayout(configuration: configuration, viewportSize: Self.viewport, numberOfItemsInSections: [5])
            let context = ScrollContext(bounds: Rect(origin: .zero, size: Self.viewport), contentSize: layout.collectionViewContentSize)
            let point = try effect.targetContentOffset(proposed: Point(x: 10, y: 0), velocity: Point(x: 1, y: 0),
                                                       layout: layout, context: context)
            #expect(point == Point(x: expected, y: 0))
        }
    }

    @Test func transformMathMatchesSwift() throws {
        let effect = try LuaEffect(source: """
        function transform(a)
          local t = CATransform3DMakeTranslation(1, 2, 3)
          t = CATransform3DRotate(t, 0.7, 1, 2, 3)
          t = CATransform3DScale(t, 2, 3, 4)
          t = t:translate(5, 6, 7)
          t = CATransform3DConcat(t, CATransform3DMakeRotation(-0.4, 0, 1, 0))
          t.m34 = -1 / 500
          return CATransform3DInvert(t)
        end
        """, chunkName: "m.lua")
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: Self.viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: Self.viewport, numberOfItemsInSections: [1])
        var items = layout.layoutAttributesForElements(in: Rect(origin: .zero, size: Self.viewport))
        try effect.transform(&items, layout: layout, context: ScrollContext(bounds: Rect(origin: .zero, size: Self.viewport),
                                                                           contentSize: layout.collectionViewContentSize))
        var t = Transform3D.translation(x: 1, y: 2, z: 3).rotated(by: 0.7, x: 1, y: 2, z: 3)
            .scaled(x: 2, y: 3, z: 4).translated(x: 5, y: 6, z: 7)
            .concatenating(.rotation(angle: -0.4, x: 0, y: 1, z: 0))
        t.m34 = -1.0 / 500
        let inverse = t.inverted()
        for (x, y) in zip(items[0].transform3D.fields, inverse.fields) { #expect(abs(x - y) < 1e-12) }
        // And it is the inverse: t · t⁻¹ = identity.
        for (x, y) in zip(t.concatenating(inverse).fields, Transform3D.identity.fields) { #expect(abs(x - y) < 1e-12) }
    }
}
