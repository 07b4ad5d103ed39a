import CardLayout
import CardLua
import Testing

/// Reading a misspelt field of the API's tables raises at the script's line with the right
/// name, instead of a nil that fails later as "attempt to index a nil value"; any other
/// absent field still reads nil, as in plain Lua.
@Suite struct MisspeltFieldTests {
    /// A transform that evaluates `expression` (with `a` the attributes, `l` the layout).
    static func transform(_ expression: String) -> String {
        """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 300)
        end
        function transform(a, l)
          local value = \(expression)
          if value == nil then a.alpha = 0.5 end
        end
        """
    }

    @Test(arguments: [
        ("l.collectionview.bounds", "layout.collectionview: no such field — did you mean collectionView?"),
        ("l.collectionView.bounds.midx", "CGRect.midx: no such field — did you mean midX?"),
        ("l.collectionView.bounds.size.widht", "CGSize.widht: no such field — did you mean width?"),
        ("l.collectionView.bounds.origin.X", "CGPoint.X: no such field — did you mean x?"),
        ("l.collectionView.contentOffset.X", "CGPoint.X: no such field — did you mean x?"),
        ("l.collectionView.contentofset", "layout.collectionView.contentofset: no such field — did you mean contentOffset?"),
        ("l.itemsize", "layout.itemsize: no such field — did you mean itemSize?"),
        ("l.sectionInset.Top", "UIEdgeInsets.Top: no such field — did you mean top?"),
        ("a.indexPath.Item", "IndexPath.Item: no such field — did you mean item?"),
        ("CGRectMake(0, 0, 1, 1).heigth", "CGRect.heigth: no such field — did you mean height?"),
        ("l.layoutAttributesForElement", "layout.layoutAttributesForElement: no such field — did you mean layoutAttributesForElements?"),
    ])
    func aMisspeltReadRaisesWithTheRightName(_ expression: String, _ expected: String) {
        let outcome = Safety.run(Self.transform(expression), name: "fx.lua")
        #expect(outcome.failure.message == "fx.lua:6: transform: item 0: \(expected)", "\(expression)")
    }

    @Test(arguments: ["l.collectionView.bounds.z", "l.myOwnThing", "CGPointMake(1, 2).w", "l.collectionView.somethingElse"])
    func anyOtherAbsentFieldStillReadsNil(_ expression: String) {
        let outcome = Safety.run(Self.transform(expression), name: "fx.lua")
        #expect(outcome.error == nil, "\(expression): \(outcome.failure.message)")
        #expect(outcome.items.allSatisfy { $0.alpha == 0.5 }, "\(expression)")
    }
}
