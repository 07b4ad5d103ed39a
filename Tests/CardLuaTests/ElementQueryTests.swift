import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// Contract v2: the script's own element query (`layoutAttributesForElements`),
/// `layout:layoutAttributesForItem`, `IndexPath`, and the facing and appearance keys.
@Suite struct ElementQueryTests {
    /// The elements of one frame at `offset` (the element query, then transform, as a
    /// frame runs them), the base attributes meeting the rect, and the visible rect.
    static func frame(_ effect: LuaEffect, offset: Double, viewport: Size, items: Int)
        throws -> (shown: [LayoutAttributes], base: [LayoutAttributes], bounds: Rect) {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [items])
        let bounds = Rect(x: offset, y: 0, width: viewport.width, height: viewport.height)
        let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize)
        let base = layout.layoutAttributesForElements(in: bounds)
        // Ordered by index path, as a frame orders them.
        var shown = try effect.layoutAttributesForElements(in: bounds, layout: layout, context: context)?
            .sorted { $0.indexPath < $1.indexPath } ?? base
        try effect.transform(&shown, layout: layout, context: context)
        return (shown, base, bounds)
    }

    static func run(_ source: String, offset: Double = 0, items: Int = 5) throws -> [LayoutAttributes] {
        // No test here is about time: a minute per call keeps the time limit far from
        // what a loaded machine under the sanitizers takes (10 001 item queries).
        let effect = try LuaEffect(source: source, chunkName: "test.lua", limits: ScriptLimits(maxTime: 60))
        return try frame(effect, offset: offset, viewport: Size(width: 400, height: 600), items: items).shown
    }

    static func failure(_ source: String, items: Int = 5) -> ScriptError? {
        do {
            _ = try run(source, items: items)
            return nil
        } catch {
            return error as? ScriptError
        }
    }

    /// Items 200 × 300 in a row, 20 apart: at offset 0 in a 400-wide viewport items 0 and 1.
    static let row = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = { width = 200, height = 300 }
      layout.minimumLineSpacing = 20
    end

    """

    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

    /// The layout's tables are made with room for as many keys as the script's last ones
    /// held (elements.c, push_item_attributes): a table made larger must hold and read back
    /// what one that grew does. Each card gets six keys on top of its four (indexPath,
    /// alpha, zIndex, hidden): 10, counted raw with `next`, in every one of three frames
    /// (the first made at the old size, the next two larger).
    @Test func tablesMadeLargerHoldWhatTablesThatGrewHold() throws {
        let source = Self.row + """
        function layoutAttributesForElements(rect, layout)
          local list = layout:layoutAttributesForElements(rect)
          for _, a in ipairs(list) do
            local i = a.indexPath.item
            a.alpha = 0.5
            a.zIndex = 10 + i
            a.cornerRadius = 4
            a.shadowOpacity = 0.25
            a.blurRadius = 2
            a.isDoubleSided = false
            a.transform3D = CATransform3DMakeTranslation(i, 0, 0)
            a.frame = CGRectMake(300 * i, 10, 100, 200)
            local n = 0
            for _ in next, a do n = n + 1 end
            a.shadowRadius = n
          end
          return list
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "test.lua", limits: ScriptLimits(maxTime: 60))
        for _ in 0..<3 {
            let shown = try Self.frame(effect, offset: 0, viewport: Size(width: 400, height: 600), items: 5).shown
            // At offset 0 the row shows items 0 (0…200) and 1 (220…420).
            #expect(shown.map(\.indexPath.item) == [0, 1])
            for a in shown {
                let i = Double(a.indexPath.item)
                #expect(a.center == Point(x: 300 * i + 50, y: 110) && a.size == Size(width: 100, height: 200))
                #expect(a.alpha == 0.5 && a.zIndex == 10 + a.indexPath.item && !a.isDoubleSided)
                #expect(a.transform3D.m41 == i && a.transform3D.m11 == 1)
                #expect(a.appearance?.shadowRadius == 10 && a.appearance?.cornerRadius == 4)
                #expect(a.appearance?.shadowOpacity == 0.25 && a.appearance?.blurRadius == 2)
            }
        }
    }

    // MARK: The shipped scripts

    /// At offset 746 the flow layout shows items 2–4 only; the deck adds the passed cards
    /// 0 and 1, and pins 0–2 at the visible centre, each scaled and shifted by its depth
    /// d = (953 − base centre x) / 260 (StackTransformView's numbers, worked by hand).
    @Test func stackedDeckKeepsThePassedCards() throws {
        let effect = try LuaEffect(path: TestSupport.script("stacked-deck.lua"))
        let (shown, base, bounds) = try Self.frame(effect, offset: 746, viewport: Size(width: 414, height: 736), items: 12)
        #expect(base.map(\.indexPath.item) == [2, 3, 4])
        #expect(shown.map(\.indexPath.item) == [0, 1, 2, 3, 4])
        #expect(bounds.midX == 953)
        for item in shown where item.indexPath.item <= 2 {
            // Base centre x = 87 + 120 + 260·k; the card rests at the centre of the viewport.
            let d = (953 - (207 + 260 * Double(item.indexPath.item))) / 260
            let scale = 1 - 0.15 * d
            let shift = -0.03 * 240 * d + (scale - 1) * 120
            #expect(item.center == Point(x: 953, y: 368))
            #expect(item.size == Size(width: 240, height: 360))
            #expect(near(item.transform3D.m11, scale) && near(item.transform3D.m22, scale))
            #expect(near(item.transform3D.m41, shift) && item.transform3D.m42 == 0)
            #expect(near(item.alpha, 1 - max(0, min(1, (d - 2) / 0.9))))
            #expect(item.zIndex == -Int((d + 0.5).rounded(.down)))
            #expect(item.appearance?.cornerRadius == 12 && item.appearance?.shadowOpacity == 0.1)
        }
        // d for card 0 = 2 + 226/260: a card deep in the deck, nearly faded (alpha 0.0342).
        #expect(near(shown[0].alpha, 1 - (2 + 226.0 / 260 - 2) / 0.9))
        #expect(shown[0].zIndex == -3 && shown[1].zIndex == -2 && shown[2].zIndex == -1)
        // The cards still to come are untouched (only their appearance is set).
        #expect(shown[3].center == Point(x: 987, y: 368) && shown[3].transform3D == .identity)
    }

    /// CollectionViewPagingLayout's model: every frame is the visible rect; at offset 207
    /// (half a page) item 0 has progress −0.5: scale 0.875, tx = −414·0.93·0.5 − 0.125·207,
    /// ty = 736·0.36·0.5 − 0.125·368.
    @Test func pagingLayoutFramesAreTheVisibleRect() throws {
        let effect = try LuaEffect(path: TestSupport.script("paging-layout.lua"))
        for offset in [0.0, 207, 1000] {
            let (shown, _, bounds) = try Self.frame(effect, offset: offset, viewport: Size(width: 414, height: 736), items: 6)
            #expect(!shown.isEmpty)
            for item in shown { #expect(item.frame == bounds) }
        }
        let (shown, _, _) = try Self.frame(effect, offset: 207, viewport: Size(width: 414, height: 736), items: 6)
        #expect(shown.map(\.indexPath.item) == [0, 1, 2])
        let first = shown[0].transform3D
        #expect(near(first.m11, 0.875) && near(first.m22, 0.875))
        #expect(near(first.m41, -414 * 0.93 * 0.5 - 0.125 * 207))
        #expect(near(first.m42, 736 * 0.36 * 0.5 - 0.125 * 368))
        #expect(shown.map(\.zIndex) == [-1, -1, -2])
        #expect(shown[0].appearance?.shadowRadius == 6.5 && shown[0].appearance?.shadowOffset == Size(width: 0, height: 4))
    }

    // MARK: The query

    /// The returned tables carry everything (geometry, alpha, zIndex, hidden, transform,
    /// appearance) as the starting attributes; transform reads them and keeps what it
    /// does not set.
    @Test func elementsAreTheStartingAttributesOfTransform() throws {
        let items = try Self.run(Self.row + """
        function layoutAttributesForElements(rect, layout)
          local all = layout:layoutAttributesForElements(rect)
          all[1].alpha = 0.5
          all[1].zIndex = 3
          all[1].isHidden = true
          all[1].cornerRadius = 12
          all[1].transform = CGAffineTransformMakeScale(2, 2)
          local far = layout:layoutAttributesForItem(IndexPath(4))
          far.frame = CGRectMake(10, 20, 30, 40)
          all[#all + 1] = far
          return all
        end
        function transform(attributes)
          if attributes.indexPath.item == 0 then
            attributes.shadowOpacity = (attributes.cornerRadius == 12 and attributes.alpha == 0.5
              and attributes.zIndex == 3 and attributes.isHidden and attributes.transform3D.m11 == 2) and 0.25 or 0
          end
        end
        """)
        #expect(items.map(\.indexPath.item) == [0, 1, 4])
        #expect(items[0].alpha == 0.5 && items[0].zIndex == 3 && items[0].isHidden)
        #expect(items[0].transform3D.m11 == 2 && items[0].transform3D.m22 == 2)
        #expect(items[0].appearance == CardAppearance(cornerRadius: 12, shadowOpacity: 0.25))
        #expect(items[2].frame == Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(items[1].alpha == 1 && items[1].appearance == nil && items[1].isDoubleSided)
    }

    @Test func indexPathAndItemLookUp() throws {
        let items = try Self.run(Self.row + """
        function transform(attributes, layout)
          local p = IndexPath(3)
          local a = layout:layoutAttributesForItem(p)
          -- item 3: x = 3 · 220 = 660, centre 760; row = item; equal by value
          attributes.alpha = (a.center.x == 760 and p.row == 3 and p.section == 0
            and p == IndexPath(3, 0) and tostring(p) == "[0, 3]") and 0.5 or 0
        end
        """)
        #expect(items.allSatisfy { $0.alpha == 0.5 })
    }

    /// The tables the layout hands out (built in C) hold what the Lua definition puts in
    /// them, with their metatables; transform3D is the identity, made when first read, and
    /// what is set on it (or on `transform`) sticks.
    @Test func handedOutTablesAreComplete() throws {
        let items = try Self.run(Self.row + """
        function layoutAttributesForElements(rect, layout)
          local a = layout:layoutAttributesForItem(IndexPath(2))
          local b = layout:layoutAttributesForElements(rect)[2]
          local function complete(t, item, cx)
            -- item at x = item · 220, 200 × 300, y centred in 600: frame y 150
            return rawget(t, "transform3D") == nil and rawget(t, "transform") == nil
              and t.indexPath == IndexPath(item) and t.indexPath.row == item
              and getmetatable(t.indexPath) == getmetatable(IndexPath(0))
              and t.center.x == cx and t.center.y == 300 and tostring(t.center) == "(" .. cx .. ".0, 300.0)"
              and t.size.width == 200 and t.frame.x == cx - 100 and t.frame.maxY == 450
              and getmetatable(t.size) == getmetatable(CGSizeMake(1, 1))
              and math.type(t.alpha) == "integer" and t.alpha == 1 and t.zIndex == 0 and t.hidden == false
              and t.isHidden == false and t.isDoubleSided == true and t.transform3D.m11 == 1
              and CATransform3DIsIdentity(t.transform3D)
          end
          local ok = complete(a, 2, 540) and complete(b, 1, 320)
          a.transform3D.m34 = -0.002     -- made on first read, kept
          local c = layout:layoutAttributesForItem(IndexPath(3))
          c.transform.tx = 15            -- a fresh one: the affine transform is made and kept
          b.isHidden = true              -- __newindex: isHidden is hidden
          a.alpha = ok and 0.5 or 0
          return { a, b, c }
        end
        """)
        #expect(items.map(\.indexPath.item) == [1, 2, 3])
        #expect(items[1].alpha == 0.5 && items[1].transform3D.m34 == -0.002)
        #expect(items[0].isHidden && items[0].transform3D == .identity)
        #expect(items[2].transform3D.m41 == 15 && items[2].transform3D.m11 == 1)
    }

    /// IndexPath keeps the Lua definition's rules and messages; the tables' metatables,
    /// which a script can reach, cannot be given a finalizer through them.
    @Test func indexPathRulesAndTheTablesMetatables() throws {
        func message(_ body: String) -> String? {
            Self.failure(Self.row + "function transform(attributes, layout)\n\(body)\nend\n")?.message
        }
        #expect(message("  local p = IndexPath(1.5)")
                == "test.lua:7: transform: item 0: IndexPath: expected whole numbers (item 1.5, section 0)")
        #expect(message("  local p = IndexPath(1, 2.25)")
                == "test.lua:7: transform: item 0: IndexPath: expected whole numbers (item 1, section 2.25)")
        #expect(message("  local p = IndexPath('a')")
                == "test.lua:7: transform: item 0: IndexPath: expected (item, section); item is a string, not a number")
        #expect(message("  local p = IndexPath(1, 0, 3)")?.hasPrefix("test.lua:7: transform: item 0: IndexPath: expected (item, section)") == true)
        #expect(message("  getmetatable(IndexPath(0)).__gc = function() end\n  local p = IndexPath(1)")
                == "test.lua:8: transform: item 0: setmetatable: __gc metamethods are not allowed in cardlua scripts (a finalizer runs outside the limits)")
        #expect(message("  getmetatable(CGPointMake(0, 0)).__gc = print\n  local a = layout:layoutAttributesForItem(IndexPath(1))")?
            .hasSuffix("setmetatable: __gc metamethods are not allowed in cardlua scripts (a finalizer runs outside the limits)") == true)
        // The __newindex, called by hand with anything: an error, never a crash.
        let items = try Self.run(Self.row + """
        function transform(attributes, layout)
          local set = getmetatable(layout:layoutAttributesForItem(IndexPath(0))).__newindex
          local notTable = pcall(set, 5, "x", 1)
          local nilKey = pcall(set, {}, nil, 1)
          local t = {}
          set(t, "isHidden", true)
          set(t, "transform", 1)
          set(t, "transform3D", 2)
          attributes.alpha = (not notTable and not nilKey and t.hidden == true and t.isHidden == nil
            and t.transform == nil and t.transform3D == 2) and 0.5 or 0
        end
        """)
        #expect(items.allSatisfy { $0.alpha == 0.5 })
    }

    @Test func anItemOutsideTheLayoutIsAnError() throws {
        let missing = try #require(Self.failure(Self.row + """
        function transform(attributes, layout)
          local a = layout:layoutAttributesForItem(IndexPath(9))
        end
        """))
        #expect(missing.message == "test.lua:7: transform: item 0: layoutAttributesForItem: no item 9 in section 0 (it has 5 items)")
        let section = try #require(Self.failure(Self.row + """
        function transform(attributes, layout)
          local a = layout:layoutAttributesForItem(IndexPath(0, 2))
        end
        """))
        #expect(section.message == "test.lua:7: transform: item 0: layoutAttributesForItem: no item 0 in section 2: the layout has 1 section")
    }

    /// The layout's tables get their center, size and frame when first read: the values
    /// they would have held (item k of the row: centre x = 100 + 220·k, y = 300, 200 × 300),
    /// listed by pairs, kept when edited, and the geometry the read-back uses when absent,
    /// even after the script changed the table's indexPath.
    @Test func layoutTablesMakeTheirGeometryWhenFirstRead() throws {
        let effect = try LuaEffect(source: Self.row + """
        local kept, byRow   -- tables from an earlier call
        function layoutAttributesForElements(rect, layout)
          local many = {}
          for i = 1, 200 do many[i] = layout:layoutAttributesForItem(IndexPath((i - 1) % 5)) end
          local first, listed = many[1], {}
          for k, v in pairs(many[2]) do listed[k] = v end
          local ok = first.center.x == 100 and first.frame.x == 0 and first.frame.maxY == 450
            and many[200].center.x == 100 + 220 * 4 and many[200].size.height == 300
            and listed.center ~= nil and listed.center.x == 320 and listed.frame.width == 200
            and listed.size ~= nil and listed.indexPath.item == 1
            and getmetatable(first.center) == getmetatable(CGPointMake(0, 0))
            and getmetatable(first.frame) == getmetatable(CGRectMake(0, 0, 1, 1))
            and first.bounds.width == 200 and first.bounds.x == 0
          first.center.x = 111            -- kept: the same table next time
          ok = ok and first.center.x == 111
          if kept ~= nil then
            ok = ok and kept.center.x == 100 + 220 * 2 and byRow.center.x == 100 + 220 * 3
          end
          kept = layout:layoutAttributesForItem(IndexPath(2))
          byRow = layout:layoutAttributesForItem(IndexPath(0))
          byRow.indexPath = { row = 3 }   -- read next time: the layout's item 3 then
          local moved = layout:layoutAttributesForItem(IndexPath(1))
          moved.indexPath = IndexPath(3)  -- never read: item 3 drawn where item 1 was made
          first.alpha = ok and 0.5 or 0
          return { first, moved }
        end
        """, chunkName: "test.lua")
        // Twice: the second call also reads a table the first one made and kept.
        for _ in 0..<2 {
            let items = try Self.frame(effect, offset: 0, viewport: Size(width: 400, height: 600), items: 5).shown
            #expect(items.map(\.indexPath.item) == [0, 3])
            #expect(items[0].alpha == 0.5 && items[0].center.x == 111)
            #expect(items[1].center.x == 320 && items[1].size.width == 200)
        }
    }

    /// layout:layoutAttributesForItem's argument rules (the method is C; these are the
    /// rules of its Lua reference in the prelude): an index path is any table whose
    /// section (nil: 0) and item (nil: row) are whole numbers, read with metamethods.
    @Test func layoutAttributesForItemTakesAnyIndexPathLikeTable() throws {
        func message(_ call: String) throws -> String? {
            Self.failure(Self.row + """
            function transform(attributes, layout)
              local a = \(call)
            end
            """)?.message
        }
        let prefix = "test.lua:7: transform: item 0: layoutAttributesForItem: "
        #expect(try message("layout:layoutAttributesForItem()")
                == prefix + "expected an IndexPath (IndexPath(item, section)), got nothing")
        #expect(try message("layout:layoutAttributesForItem(3)")
                == prefix + "expected an IndexPath (IndexPath(item, section)), got a number")
        #expect(try message("layout:layoutAttributesForItem(IndexPath(1), 2)")
                == prefix + "expected an IndexPath (IndexPath(item, section)), got more arguments")
        #expect(try message("layout:layoutAttributesForItem({ item = 1.5 })")
                == prefix + "the index path needs whole numbers (section 0, item 1.5)")
        #expect(try message("layout:layoutAttributesForItem({ section = \"0\", item = 1 })")
                == prefix + "the index path needs whole numbers (section 0, item 1)")
        #expect(try message("layout:layoutAttributesForItem({})")
                == prefix + "the index path needs whole numbers (section 0, item nil)")
        // Found: a row instead of an item, a float that is whole, fields behind __index.
        let items = try Self.run(Self.row + """
        function transform(attributes, layout)
          local byRow = layout:layoutAttributesForItem({ row = 2 })
          local byFloat = layout:layoutAttributesForItem({ section = 0.0, item = 3.0 })
          local proxied = layout:layoutAttributesForItem(setmetatable({}, { __index = { item = 4 } }))
          local same = layout:layoutAttributesForItem(IndexPath(2))
          attributes.alpha = (byRow.center.x == same.center.x and byRow.indexPath.item == 2
            and math.type(byFloat.indexPath.item) == "integer" and byFloat.indexPath.item == 3
            and proxied.indexPath.item == 4 and proxied.frame.width == same.frame.width) and 0.5 or 0
        end
        """)
        #expect(items.allSatisfy { $0.alpha == 0.5 })
    }

    /// Each bad list is one line at the script's `return`, naming the item.
    @Test func badElementsAreOneLineErrors() throws {
        func error(_ body: String) throws -> String {
            try #require(Self.failure(Self.row + """
            function layoutAttributesForElements(rect, layout)
              local all = layout:layoutAttributesForElements(rect)
            \(body)
              return all
            end
            """)).message
        }
        #expect(try error("  all[1].indexPath = IndexPath(9)")
                == "test.lua:9: layoutAttributesForElements: item 9: not in the layout: section 0 has 5 items")
        #expect(try error("  all[3] = layout:layoutAttributesForItem(IndexPath(1))")
                == "test.lua:9: layoutAttributesForElements: item 1: returned twice in section 0 (elements 2 and 3 of the list)")
        #expect(try error("  all[2].alpha = \"half\"")
                == "test.lua:9: layoutAttributesForElements: item 1: attributes.alpha is a string, expected a number")
        #expect(try error("  all[2].center = CGPointMake(0 / 0, 1)")
                == "test.lua:9: layoutAttributesForElements: item 1: attributes.center.x is NaN")
        #expect(try error("  all[2] = 7")
                == "test.lua:9: layoutAttributesForElements: element 2 of the returned list is a number, expected attributes (a table from layout:layoutAttributesForElements or layout:layoutAttributesForItem)")
        let nothing = try #require(Self.failure(Self.row + """
        function layoutAttributesForElements(rect, layout)
          local all = layout:layoutAttributesForElements(rect)
        end
        """))
        // No `return`: the function's `end`.
        #expect(nothing.message.hasPrefix("test.lua:8: layoutAttributesForElements: returned nothing; expected a list of attributes"))
    }

    @Test func tooManyElementsAreAnError() throws {
        let error = try #require(Self.failure(Self.row + """
        function layoutAttributesForElements(rect, layout)
          local all = {}
          for i = 1, 10001 do all[i] = layout:layoutAttributesForItem(IndexPath(i - 1)) end
          return all
        end
        """, items: 10_001))
        #expect(error.message == "test.lua:9: layoutAttributesForElements: returned 10001 elements; a frame shows at most 10000")
    }

    // MARK: Facing and appearance

    @Test func appearanceRoundTripsIntoLayoutAttributes() throws {
        let items = try Self.run(Self.row + """
        function transform(attributes)
          local defaults = attributes.isDoubleSided == true and attributes.cornerRadius == 0
            and attributes.shadowOpacity == 0 and attributes.shadowRadius == 3 and attributes.shadowOffset.height == -3
            and attributes.backgroundColor == nil and attributes.blurRadius == 0
          attributes.isDoubleSided = false
          attributes.cornerRadius = 12
          attributes.shadowOpacity = 0.3
          attributes.shadowRadius = 8
          attributes.shadowOffset = CGSizeMake(0, 4)
          attributes.backgroundColor = "#FF8800"
          attributes.blurRadius = 2
          local back = attributes.cornerRadius == 12 and attributes.backgroundColor == "#FF8800"
            and attributes.shadowOffset.height == 4 and attributes.isDoubleSided == false
          attributes.alpha = (defaults and back) and 0.5 or 0
        end
        """)
        let expected = CardAppearance(cornerRadius: 12, shadowOpacity: 0.3, shadowRadius: 8,
                                      shadowOffset: Size(width: 0, height: 4),
                                      backgroundColor: CardColor(rgb: 0xFF8800), blurRadius: 2)
        #expect(items.count == 2)
        for item in items {
            #expect(item.alpha == 0.5)
            #expect(!item.isDoubleSided)
            #expect(item.appearance == expected)
        }
        // Only facing: no appearance.
        let facing = try Self.run(Self.row + "function transform(a) a.isDoubleSided = false end")
        #expect(facing.allSatisfy { !$0.isDoubleSided && $0.appearance == nil })
        // A key set to its default changes nothing.
        let same = try Self.run(Self.row + "function transform(a) a.shadowRadius = 3; a.isDoubleSided = true end")
        #expect(same.allSatisfy { $0.isDoubleSided && $0.appearance == nil })
    }

    @Test func badAppearanceValuesAreOneLineErrors() throws {
        func error(_ line: String) throws -> String {
            try #require(Self.failure(Self.row + "function transform(attributes)\n  \(line)\nend\n")).message
        }
        #expect(try error("attributes.shadowOpacity = 1.5")
                == "test.lua:7: transform: item 0: attributes.shadowOpacity is 1.5, expected a number from 0 to 1")
        #expect(try error("attributes.cornerRadius = -1")
                == "test.lua:7: transform: item 0: attributes.cornerRadius is -1, expected zero or more")
        #expect(try error("attributes.blurRadius = 1 / 0")
                == "test.lua:7: transform: item 0: attributes.blurRadius is infinite")
        #expect(try error("attributes.backgroundColor = \"#ff88\"")
                == "test.lua:7: transform: item 0: attributes.backgroundColor is \"#ff88\", expected a colour \"#rrggbb\" (six hex digits)")
        #expect(try error("attributes.backgroundColor = 0xff8800")
                == "test.lua:7: transform: item 0: attributes.backgroundColor is a number, expected a colour string \"#rrggbb\"")
        #expect(try error("attributes.isDoubleSided = 0")
                == "test.lua:7: transform: item 0: attributes.isDoubleSided is a number, expected a boolean")
        #expect(try error("attributes.shadowOffset = 4")
                == "test.lua:7: transform: item 0: attributes.shadowOffset is a number, expected a CGSize")
        #expect(try error("attributes.shadowOffset = CGSizeMake(0, 4); attributes.shadowOffset.width = 0 / 0")
                == "test.lua:6: transform: item 0: attributes.shadowOffset.width is NaN")
    }
}
