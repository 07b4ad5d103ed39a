import CardExport
import Testing

/// The emitter's translations, checked on the Swift text it writes (the proof tests compile
/// the shipped scripts' Swift and compare the numbers; these pin each rule on its own).
@Suite struct EmitterTests {
    static func export(_ body: String, params: [String: Double] = [:]) throws(ExportError) -> String {
        try Exporter.export(source: body, fileName: "t.lua", className: "TLayout", params: params)
    }

    static func refusal(_ body: String, params: [String: Double] = [:]) -> ExportError? {
        do {
            _ = try export(body, params: params)
            return nil
        } catch {
            return error
        }
    }

    /// A transform whose body is `lines`.
    static func transform(_ lines: String) -> String {
        "function transform(attributes, layout)\n\(lines)\nend\n"
    }

    @Test func classNamesComeFromFileNames() {
        #expect(Exporter.className(forFileName: "scripts/lol.lua") == "LolLayout")
        #expect(Exporter.className(forFileName: "card-scale.lua") == "CardScaleLayout")
        #expect(Exporter.className(forFileName: "effects/icarousel-coverflow2.lua") == "IcarouselCoverflow2Layout")
    }

    @Test func flooredModuloAndDivisionOnIntegersUseLuasHelpers() throws {
        let swift = try Self.export(Self.transform("""
          local a, b = -7, 2
          attributes.zIndex = a // b + a % b
        """))
        #expect(swift.contains("attributes.zIndex = luaIntDiv(a, b) &+ luaIntMod(a, b)"))
        // The helpers floor (Swift's / and % truncate: -7 / 2 is -3 there, -4 in Lua).
        #expect(swift.contains("return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q"))
        #expect(swift.contains("return r != 0 && (r < 0) != (b < 0) ? r + b : r"))
    }

    @Test func flooredModuloAndDivisionOnFloats() throws {
        let swift = try Self.export(Self.transform("""
          local x = attributes.center.x
          attributes.alpha = x % 2.5 + x // 0.5
        """))
        #expect(swift.contains("attributes.alpha = luaMod(x, 2.5) + floor(x / 0.5)"))
        #expect(swift.contains("if (m > 0 && b < 0) || (m < 0 && b > 0) { m += b }"))
    }

    @Test func integerArithmeticWrapsAroundAsLuas() throws {
        let swift = try Self.export(Self.transform("""
          local big = math.maxinteger
          attributes.zIndex = (big + 1) * 2 - 3
        """))
        #expect(swift.contains("let big: Int = Int.max"))
        #expect(swift.contains("attributes.zIndex = (big &+ 1) &* 2 &- 3"))
    }

    @Test func powerIsPow() throws {
        let swift = try Self.export(Self.transform("  attributes.alpha = 2 ^ -attributes.center.x"))
        #expect(swift.contains("attributes.alpha = pow(2, -attributes.center.x)"))
    }

    @Test func integerDivisionIsAFloatDivision() throws {
        let swift = try Self.export(Self.transform("""
          local n, d = 7, 2
          attributes.alpha = n / d
        """))
        #expect(swift.contains("let n: Int = 7"))
        #expect(swift.contains("attributes.alpha = CGFloat(n) / CGFloat(d)"))
    }

    @Test func andOrAsValuesBecomeTernaries() throws {
        let swift = try Self.export(Self.transform("""
          local p = attributes.center.x - 100
          attributes.alpha = p > 0 and 1 or p < 0 and -1 or 0
        """))
        #expect(swift.contains("attributes.alpha = p > 0 ? 1 : p < 0 ? -1 : 0"))
    }

    @Test func orWithANumberOnTheLeftIsTheNumber() throws {
        // 0 is true in Lua: `x or 5` is x for every number x.
        let swift = try Self.export(Self.transform("""
          local x = attributes.center.x
          attributes.alpha = x or 5
        """))
        #expect(swift.contains("attributes.alpha = x\n"))
    }

    @Test func numericForWithANegativeStep() throws {
        let swift = try Self.export(Self.transform("""
          local sum = 0
          for i = 10, 1, -3 do sum = sum + i end
          for x = 1.0, 0, -0.25 do sum = sum + x end
          attributes.alpha = sum
        """))
        #expect(swift.contains("for i in stride(from: 10, through: 1, by: -3) {"))
        // A float loop accumulates its step, as Lua's does, and tests with >= for a negative step.
        #expect(swift.contains("var xCounter1: CGFloat = 1.0"))
        #expect(swift.contains("while xCounter1 >= xLimit2 {"))
        #expect(swift.contains("defer { xCounter1 += -0.25 }"))
    }

    @Test func multipleAssignmentEvaluatesEveryValueFirst() throws {
        let swift = try Self.export(Self.transform("""
          local a, b = attributes.center.x, attributes.center.y
          a, b = b, a
          attributes.center = CGPointMake(a, b)
        """))
        #expect(swift.contains("(a, b) = (b, a)"))
    }

    @Test func earlyReturnFromTransformSetsWhatItReturns() throws {
        let swift = try Self.export(Self.transform("""
          if attributes.center.x < 0 then return 0.5 end
          attributes.alpha = 0.25
        """))
        #expect(swift.contains("attributes.transform3D = CATransform3DMakeScale(0.5, 0.5, 1)"))
        #expect(swift.contains("        return\n"))
        #expect(swift.contains("attributes.alpha = 0.25"))
    }

    @Test func aMapTableIsRefusedAtItsLine() {
        let error = Self.refusal("""
        local NAMES = { [1] = 2 }
        """)
        #expect(error?.line == 1)
        #expect(error?.description.hasPrefix("t.lua:1: export: a table used as a map is not supported") == true)
    }

    @Test func aValueOfTwoKindsIsRefusedWithBothLines() {
        let error = Self.refusal(Self.transform("""
          local v = 1
          if attributes.center.x > 0 then
            v = CGPointMake(0, 0)
          end
          attributes.alpha = 1
        """))
        #expect(error?.line == 4)
        #expect(error?.message.contains("'v' is a number on line 2 and a CGPoint on line 4") == true)
    }

    @Test func luaDocAboveAFunctionIsItsSwiftDocumentation() throws {
        let swift = try Self.export("""
        -- Cards scaled by a documented helper.

        --- The card's scale at a distance from the centre.
        ---@param distance number how far from the centre, in pitches
        ---@param floor number
        ---@return number the scale
        local function scaleAt(distance, floor)
          ---@type number
          local s = 1 - 0.2 * distance
          return math.max(s, floor)
        end

        function transform(attributes, layout)
          local d = math.abs(attributes.center.x - layout.collectionView.bounds.midX) / 300
          attributes.alpha = scaleAt(d, 0.5)
        end
        """)
        #expect(swift.contains("""
                /// The card's scale at a distance from the centre.
                /// - Parameter distance: how far from the centre, in pitches
                /// - Returns: the scale
                private func scaleAt(_ distance: CGFloat
            """), "\(swift)")
        // Annotations that only type the Lua are dropped, and no Lua markup is left.
        #expect(!swift.contains("@param") && !swift.contains("@type") && !swift.contains("@return"))
        #expect(!swift.contains("// -@") && !swift.contains("/// -The"))
    }

    @Test func commentsStayInPlace() throws {
        let swift = try Self.export("""
        -- A header.
        -- Two lines.

        -- how far the cards turn
        local TURN = 0.5   -- radians

        function transform(attributes, layout)
          -- fade the card
          attributes.alpha = TURN   -- at most one
        end
        """)
        #expect(swift.contains("/// A header.\n/// Two lines."))
        #expect(swift.contains("    // how far the cards turn\n    private static let turn: CGFloat = 0.5  // TURN: radians"))
        #expect(swift.contains("        // fade the card\n        attributes.alpha = Self.turn  // at most one"))
    }

    @Test func paramsAreBakedAndOverridden() throws {
        let script = """
        params = {
          rotate = { value = 35, min = 0, max = 90, step = 1 },   -- degrees
        }
        function transform(attributes, layout)
          attributes.alpha = params.rotate / 90
        end
        """
        let baked = try Self.export(script)
        #expect(baked.contains("    /// 0…90, step 1 — degrees\n    var rotate: CGFloat = 35 { didSet { invalidateLayout() } }"))
        #expect(baked.contains("attributes.alpha = rotate / 90"))
        let overridden = try Self.export(script, params: ["rotate": 50.5])
        #expect(overridden.contains("var rotate: CGFloat = 50.5 { didSet { invalidateLayout() } }"))
        #expect(Self.refusal(script, params: ["rotat": 1])?.message.contains("--param rotat") == true)
    }

    @Test func wrapsFromAParamBakedOffExportsAndOnIsRefused() throws {
        let script = """
        params = { wrap = { value = 0, min = 0, max = 1, step = 1 } }
        local function wraps() return params.wrap ~= 0 end
        function prepare(layout)
          layout.wraps = wraps()
        end
        """
        let swift = try Self.export(script)
        #expect(swift.contains("let wrap: CGFloat = 0"))
        #expect(!swift.contains("var wrap"))
        let error = Self.refusal(script, params: ["wrap": 1])
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("layout.wraps = true is not supported") == true)
    }

    @Test func swiftKeywordsAreEscaped() throws {
        let swift = try Self.export(Self.transform("""
          local default, class, guard = 1, 2, 3
          attributes.zIndex = default + class + guard
        """))
        #expect(swift.contains("let `default`: Int = 1"))
        #expect(swift.contains("let `class`: Int = 2"))
        #expect(swift.contains("attributes.zIndex = `default` + `class` + `guard`"))
    }

    @Test func integerArithmeticThatCannotWrapUsesPlainOperators() throws {
        // Literals, counts and indexes are bounded: their sums and products stay far below
        // Int.max, so Lua's wrap-around cannot be reached and `+ - *` say what is meant.
        let swift = try Self.export(Self.transform("""
          local n = layout.collectionView:numberOfItems(0)
          local last = n - 1
          attributes.zIndex = attributes.indexPath.item * 2 + last - 3
        """))
        #expect(swift.contains("let last: Int = n - 1"), "\(swift)")
        #expect(swift.contains("attributes.zIndex = attributes.indexPath.item * 2 + last - 3"))
        #expect(!swift.contains("&"))
    }

    @Test func integerArithmeticThatCanWrapKeepsWrappingOperators() throws {
        // A value with no known bound (a number read from a float, a local assigned again):
        // Lua's integers wrap round there, and so do Swift's &+ &- &*.
        let swift = try Self.export(Self.transform("""
          local big = math.tointeger(attributes.indexPath.item * 3037000500)
          local total = 0
          for i = 1, 3 do total = total + i end
          attributes.zIndex = total * big + -total
        """))
        #expect(swift.contains("total = total &+ i"), "\(swift)")
        #expect(swift.contains("attributes.zIndex = total &* big &+ (0 &- total)"))
        // A count times a large literal may pass 2⁶²: it wraps.
        #expect(swift.contains("attributes.indexPath.item &* 3_037_000_500"))
    }

    @Test func aWholeConstantReadOnlyAsAFloatIsACGFloat() throws {
        // Lua's `200` is an integer, but where every use is a CGFloat the constant is
        // declared one, rather than converted at each use; one read as an Int stays Int.
        let swift = try Self.export("""
        local ACTIVE_DISTANCE = 200
        local RANK = 3
        function transform(attributes, layout)
          local distance = attributes.center.x - layout.collectionView.bounds.midX
          attributes.alpha = 1 - math.min(math.abs(distance) / ACTIVE_DISTANCE, 1) + -ACTIVE_DISTANCE / 1000
          attributes.zIndex = RANK
        end
        """)
        #expect(swift.contains("private static let activeDistance: CGFloat = 200  // ACTIVE_DISTANCE"), "\(swift)")
        #expect(swift.contains("abs(distance) / Self.activeDistance") && swift.contains("-Self.activeDistance / 1000"))
        #expect(swift.contains("private static let rank: Int = 3  // RANK"))
        #expect(!swift.contains("CGFloat(Self."))
    }

    @Test func numericForLoopsWithAWholeStepAreStrides() throws {
        let swift = try Self.export(Self.transform("""
          local sum = 0
          for x = attributes.center.x, attributes.center.x + 3 do sum = sum + x end
          for k = 10, 1, -2 do sum = sum + k end
          for f = 0, 1, 0.25 do sum = sum + f end
          attributes.alpha = sum / 100
        """))
        #expect(swift.contains("for x in stride(from: attributes.center.x, through: attributes.center.x + 3, by: 1) {"), "\(swift)")
        #expect(swift.contains("for k in stride(from: 10, through: 1, by: -2) {"))
        // A fractional step accumulates as Lua's loop does (Swift's stride would multiply).
        #expect(swift.contains("while fCounter1 <= fLimit2 {"))
    }

    @Test func stringBuildingIsRefused() {
        let error = Self.refusal(Self.transform("""
          local name = "card" .. attributes.indexPath.item
        """))
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("string concatenation") == true)
    }

    @Test func localsNamingMathFunctionsAreCalledAsThoseFunctions() throws {
        let swift = try Self.export("""
        local abs, floor = math.abs, math.floor   -- looked up once
        function transform(attributes, layout)
          local max = math.max
          local d = abs(attributes.center.x - layout.collectionView.bounds.midX)
          attributes.zIndex = -floor(d)
          attributes.alpha = max(0.2, 1 - d / 1000)
        end
        """)
        #expect(swift.contains("// local abs = math.abs, floor = math.floor: each call below is the function's own  // looked up once"))
        #expect(swift.contains("// local max = math.max: each call below is the function's own"))
        #expect(swift.contains("let d: CGFloat = abs(attributes.center.x - visibleBounds.midX)"))
        #expect(swift.contains("attributes.zIndex = Int(-floor(d))"))
        #expect(swift.contains("attributes.alpha = max(0.2, 1 - d / 1000)"))
        #expect(!swift.contains("let abs") && !swift.contains("var abs") && !swift.contains("let max"))
    }

    /// Every math function docs/export.md lists can be named by a local and called through
    /// it: the translator's list of aliasable names and its math calls name the same ones.
    @Test(arguments: [("abs", 1), ("floor", 1), ("ceil", 1), ("sqrt", 1), ("sin", 1), ("cos", 1), ("tan", 1),
                      ("asin", 1), ("acos", 1), ("exp", 1), ("atan", 1), ("log", 1), ("fmod", 2), ("min", 2), ("max", 2)])
    func everyMathFunctionCanBeAliased(name: String, arity: Int) throws {
        let arguments = Array(repeating: "0.5", count: arity).joined(separator: ", ")
        let swift = try Self.export("""
        local f = math.\(name)
        function transform(attributes, layout)
          attributes.alpha = math.min(1, math.abs(f(\(arguments))))
        end
        """)
        #expect(swift.contains("// local f = math.\(name): each call below is the function's own"))
    }

    @Test func aMathFunctionLocalIsRefusedAnywhereButInACall() {
        let passed = Self.refusal("""
        local abs = math.abs
        local function apply(f, x) return f(x) end
        function transform(attributes, layout)
          attributes.alpha = apply(abs, -0.5)
        end
        """)
        #expect(passed?.line == 4)
        #expect(passed?.message.hasPrefix("'abs' (math.abs) is supported only where it is called") == true)
        let reassigned = Self.refusal("""
        local abs = math.abs
        function transform(attributes, layout)
          abs = 1
        end
        """)
        #expect(reassigned?.line == 3)
        #expect(reassigned?.message.hasPrefix("'abs' names math.abs and is assigned again") == true)
        let mixed = Self.refusal("""
        local abs, n = math.abs, 3
        function transform(attributes, layout)
          attributes.alpha = abs(-0.5) / n
        end
        """)
        #expect(mixed?.line == 1)
        #expect(mixed?.message.hasPrefix("math.abs as a value is supported only in a `local` of math functions alone") == true)
    }

    @Test func luaDefaultArgumentsBecomeSwiftDefaults() throws {
        let swift = try Self.export("""
        local function lerp(t, low, high)
          low, high = low or 0, high or 1
          return low + (high - low) * t
        end
        function transform(attributes, layout)
          attributes.alpha = lerp(0.5) + lerp(0.5, 0.25, 0.75)
        end
        """)
        #expect(swift.contains("private func lerp(_ t: CGFloat, _ low: CGFloat = 0, _ high: CGFloat = 1) -> CGFloat {"))
        #expect(swift.contains("attributes.alpha = lerp(0.5) + lerp(0.5, 0.25, 0.75)"))
    }

    @Test func aLocalComparedWithNilIsAnOptional() throws {
        let swift = try Self.export("""
        function targetContentOffset(proposed, velocity, layout)
          local closest
          for _, a in ipairs(layout:layoutAttributesForElements(layout.collectionView.bounds)) do
            if closest == nil or a.center.x < closest.center.x then closest = a end
          end
          if closest == nil then return proposed end
          return CGPointMake(closest.center.x, 0)
        end
        """)
        #expect(swift.contains("var closest: UICollectionViewLayoutAttributes? = nil"))
        #expect(swift.contains("if closest == nil || a.center.x < closest!.center.x {"))
        #expect(swift.contains("return CGPoint(x: closest!.center.x, y: 0)"))
    }

    @Test func aFunctionThatCanEndWithoutAValueIsRefused() {
        let error = Self.refusal("""
        local function sign(x)
          if x > 0 then return 1 end
        end
        function transform(attributes, layout)
          attributes.alpha = sign(attributes.center.x)
        end
        """)
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("a function that can end without returning a value is not supported") == true)
    }

    @Test func superAttributesAreCopiedBeforeTheyChange() throws {
        let swift = try Self.export("""
        function layoutAttributesForElements(rect, layout)
          local all = layout:layoutAttributesForElements(rect)
          local extra = layout:layoutAttributesForItem(IndexPath(7, 0))
          extra.alpha = 0.5
          all[#all + 1] = extra
          return all
        end
        """)
        #expect(swift.contains("(super.layoutAttributesForElements(in: rect) ?? []).map({\n            $0.copy() as! UICollectionViewLayoutAttributes\n        })"))
        // Copied, with no force unwrap: an index path the data source no longer has is a
        // hidden cell, not a crash.
        #expect(swift.contains("""
                    guard let base = super.layoutAttributesForItem(at: indexPath) else {
                        let missing = UICollectionViewLayoutAttributes(forCellWith: indexPath)
                        missing.isHidden = true
                        return missing
                    }
                    return base.copy() as! UICollectionViewLayoutAttributes
            """))
        #expect(!swift.contains(")!."))
        #expect(swift.contains("all.append(extra)"))
    }

    /// An own element query runs once per visible rect: `layoutAttributesForItem(at:)` reads
    /// the shown items from its kept answer (dropped by `prepare()`), and finds cells only.
    @Test func theOwnQueryIsRunOncePerRectNotOncePerItem() throws {
        let swift = try Self.export("""
        function layoutAttributesForElements(rect, layout)
          return layout:layoutAttributesForElements(rect)
        end
        function transform(attributes, layout)
          attributes.alpha = 0.5
        end
        """)
        #expect(swift.contains("private var shownElements: (bounds: CGRect, elements: [UICollectionViewLayoutAttributes])?"))
        #expect(swift.contains("""
                override func prepare() {
                    super.prepare()
                    shownElements = nil
                }
            """))
        #expect(swift.contains("if let collectionView, let element = shownElement(at: indexPath, in: collectionView.bounds) {"))
        #expect(swift.contains("""
                    if shownElements?.bounds != bounds {
                        let elements = elementQuery(in: bounds)
            """))
        #expect(swift.contains("$0.representedElementCategory == .cell && $0.indexPath == indexPath"))
        #expect(swift.components(separatedBy: "elementQuery(in:").count == 3)  // the query's declaration and two calls
    }

    /// `CGPointApplyAffineTransform` is CoreGraphics' `applying(_:)`; `math.tointeger` of an
    /// integer is the integer, of a number that may have a fraction a refusal saying why.
    @Test func pointsApplyAffineTransformsAndToIntegerSaysWhy() throws {
        let swift = try Self.export(Self.transform("""
          local p = CGPointApplyAffineTransform(CGPointMake(1, 2), CGAffineTransformMakeScale(2, 3))
          attributes.alpha = p.x / 10
          attributes.zIndex = math.tointeger(4)
        """))
        #expect(swift.contains("CGPoint(x: 1, y: 2).applying(CGAffineTransform(scaleX: 2, y: 3))"), "\(swift)")
        #expect(swift.contains("attributes.zIndex = 4"), "\(swift)")
        #expect(throws: ExportError.self) {
            try Self.export(Self.transform("  attributes.zIndex = math.tointeger(attributes.center.x)"))
        }
        do {
            _ = try Self.export(Self.transform("  attributes.zIndex = math.tointeger(attributes.center.x)"))
        } catch {
            #expect(error.message.contains("write math.floor(x)"), "\(error)")
        }
    }

    /// The collection view's bounds cannot change between two `prepare()`s (every bounds
    /// change invalidates the layout): `transform` reads them (and contentOffset, their
    /// origin, and frame, the viewport at the origin) from a parameter, filled from the
    /// bounds `prepare()` kept, not from the weakly held view per query or per item.
    @Test func transformReadsTheBoundsPrepareKept() throws {
        let swift = try Self.export(Self.transform("""
          local cv = layout.collectionView
          attributes.alpha = cv.contentOffset.x + cv.frame.width - layout.collectionView.bounds.midX
        """))
        #expect(swift.contains("private func transform(_ attributes: UICollectionViewLayoutAttributes, visibleBounds: CGRect) {"))
        #expect(swift.contains("attributes.alpha = visibleBounds.origin.x + visibleBounds.width - visibleBounds.midX"))
        #expect(!swift.contains("guard let collectionView else"))
        // The script has no prepare: one is written to keep the bounds.
        #expect(swift.contains("    private var preparedBounds: CGRect?\n"))
        #expect(swift.contains("""
                override func prepare() {
                    super.prepare()
                    preparedBounds = collectionView?.bounds
                }
            """))
        #expect(swift.contains("let visibleBounds = preparedBounds ?? collectionView?.bounds\n"))
        #expect(swift.contains("if let visibleBounds = preparedBounds ?? collectionView?.bounds {\n            transform(attributes, visibleBounds: visibleBounds)\n        }"))
    }

    /// A script's own prepare keeps the bounds first, before its `guard let collectionView`
    /// can return early.
    @Test func theScriptsPrepareKeepsTheBoundsFirst() throws {
        let swift = try Self.export("""
        function prepare(layout)
          layout.itemSize = CGSizeMake(layout.collectionView.bounds.width / 2, 100)
        end
        function transform(attributes, layout)
          attributes.alpha = layout.collectionView.bounds.width
        end
        """)
        #expect(swift.contains("""
                    defer { super.prepare() }  // super lays out with the properties set below
                    preparedBounds = collectionView?.bounds
                    guard let collectionView else { return }
            """))
        #expect(swift.components(separatedBy: "override func prepare()").count == 2)
    }

    /// `prepare` sets the flow layout's properties before `super.prepare()` lays out with
    /// them (on every path out of it), and each only when its value changes: UIKit
    /// invalidates the layout on every set, and `prepare` runs on every bounds change.
    @Test func prepareSetsPropertiesBeforeSuperAndOnlyWhenTheyChange() throws {
        let swift = try Self.export("""
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(layout.collectionView.bounds.width / 2, 100)
          layout.minimumLineSpacing = 12
        end
        """)
        #expect(swift.contains("""
                override func prepare() {
                    defer { super.prepare() }  // super lays out with the properties set below
            """))
        #expect(swift.contains("        update(\\.scrollDirection, to: .horizontal)\n"))
        #expect(swift.contains("        update(\\.minimumLineSpacing, to: 12)\n"), "\(swift)")
        #expect(swift.contains("if self[keyPath: property] != value { self[keyPath: property] = value }"))
        #expect(!swift.contains("        super.prepare()\n"))
    }

    /// The attributes subclass compiles for iOS 15 and never traps off the main thread: its
    /// `isEqual(_:)` reads plain nonisolated values, not through `MainActor.assumeIsolated`
    /// (iOS 17 and later, and a trap off the main actor).
    @Test func theAttributesSubclassIsEqualNeedsNoMainActorCheck() throws {
        let swift = try Self.export(Self.transform("""
          attributes.cornerRadius = 8
        """))
        #expect(!swift.contains("MainActor.assumeIsolated {"))
        #expect(swift.contains("    nonisolated(unsafe) var cornerRadius: CGFloat = 0\n"))
        #expect(swift.contains("    nonisolated override func isEqual(_ object: Any?) -> Bool {\n"))
        #expect(swift.contains("for iOS 15 and later."))
    }

    /// Super's attributes are copied and transformed in one plain loop, each copy while the
    /// query holds its only reference (no second loop over the copies, no closure per element).
    @Test func theQueryCopiesAndTransformsInOnePass() throws {
        let swift = try Self.export(Self.transform("""
          attributes.alpha = layout.collectionView.bounds.width
        """))
        #expect(swift.contains("""
                    let base = super.layoutAttributesForElements(in: rect) ?? []
                    var elements: [UICollectionViewLayoutAttributes] = []
                    elements.reserveCapacity(base.count)
                    for item in base {
                        // Headers and footers keep super's attributes: the script turns cells only.
                        guard item.representedElementCategory == .cell else {
                            elements.append(item)
                            continue
                        }
                        let element = item.copy() as! UICollectionViewLayoutAttributes
                        if let visibleBounds { transform(element, visibleBounds: visibleBounds) }
                        elements.append(element)
                    }
                    return elements
            """))
        #expect(!swift.contains("for element in elements"))
        #expect(!swift.contains(".map {"))
        let plain = try Self.export(Self.transform("""
          attributes.alpha = 0.5
        """))
        #expect(plain.contains("""
                        let element = item.copy() as! UICollectionViewLayoutAttributes
                        transform(element)
                        elements.append(element)
            """))
        #expect(!plain.contains("preparedBounds"))
    }

    /// What else `transform` reads of the view is read from the view, and a script's own
    /// `visibleBounds` is renamed (the bounds are then read from the view as well).
    @Test func otherViewPropertiesAreStillReadFromTheView() throws {
        let swift = try Self.export(Self.transform("""
          attributes.alpha = layout.collectionView.contentSize.width
        """))
        #expect(swift.contains("private func transform(_ attributes: UICollectionViewLayoutAttributes) {"))
        #expect(swift.contains("guard let collectionView else { return }"))
        #expect(swift.contains("attributes.alpha = collectionView.contentSize.width"))
        let shadowed = try Self.export(Self.transform("""
          local visibleBounds = 2
          attributes.alpha = visibleBounds * layout.collectionView.bounds.width
        """))
        #expect(shadowed.contains("let visibleBoundsLocal: Int = 2  // visibleBounds"), "\(shadowed)")
        #expect(shadowed.contains("attributes.alpha = CGFloat(visibleBoundsLocal) * collectionView.bounds.width"))
        #expect(shadowed.contains("guard let collectionView else { return }"))
    }
    // MARK: - Integers as Lua's VM computes them

    @Test func negationAndAbsOfIntegersWrapAsLuas() throws {
        let swift = try Self.export(Self.transform("""
          local m = math.mininteger + attributes.indexPath.item
          attributes.zIndex = -m + math.abs(m) + -math.mininteger + -5
        """))
        // -Int.min and abs(Int.min) trap in Swift; Lua wraps both round to math.mininteger.
        #expect(swift.contains("attributes.zIndex = 0 &- m &+ luaIntAbs(m) &+ (0 &- Int.min) &+ -5"), "\(swift)")
        #expect(swift.contains("private func luaIntAbs(_ x: Int) -> Int {"))
        #expect(swift.contains("x < 0 ? 0 &- x : x"))
    }

    @Test func integerHelpersHandleLuasSpecialDivisors() throws {
        let swift = try Self.export(Self.transform("""
          local i = attributes.indexPath.item
          attributes.zIndex = i // (i - 3) + i % (i - 3)
        """))
        // lvm.c's luaV_idiv and luaV_mod: -1 wraps (Int.min // -1) and 0 raises Lua's error.
        #expect(swift.contains("if b == -1 { return 0 &- a }"), "\(swift)")
        #expect(swift.contains("if b == -1 { return 0 }"))
        #expect(swift.contains("fatalError(\"attempt to divide by zero\")"))
        #expect(swift.contains("fatalError(\"attempt to perform 'n%0'\")"))
    }

    @Test(arguments: ["i // 0", "i % 0", "i // (2 - 2)", "i % -0"])
    func anIntegerDivisionByAConstantZeroIsRefused(_ expression: String) {
        let error = Self.refusal(Self.transform("""
          local i = attributes.indexPath.item
          attributes.zIndex = \(expression)
        """))
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect(error?.message.contains("by a constant zero") == true, "\(String(describing: error))")
    }

    // MARK: - Names

    @Test func namesThatCannotBeBacktickedAreRenamedWithTheirScriptName() throws {
        let swift = try Self.export(Self.transform("""
          local self, Self, Type, Protocol, _ = 1, 2, 3, 4, 5
          attributes.zIndex = self + Self + Type + Protocol + _
        """))
        #expect(swift.contains("let selfLocal: Int = 1  // self"), "\(swift)")
        #expect(swift.contains("let selfLocal2: Int = 2  // Self"))
        #expect(swift.contains("let typeLocal: Int = 3  // Type"))
        #expect(swift.contains("let protocolLocal: Int = 4  // Protocol"))
        #expect(swift.contains("let underscoreLocal: Int = 5  // _"))
        #expect(swift.contains("attributes.zIndex = selfLocal + selfLocal2 + typeLocal + protocolLocal + underscoreLocal"))
    }

    @Test func renamesNeverCollideWithTheScriptsOwnNames() throws {
        let swift = try Self.export("""
        params = {
          itemSize = { value = 10, min = 0, max = 20 },
          itemSizeParam = { value = 3, min = 0, max = 5 },
        }
        local function floor(x) return x - x % 1 end
        local function floorScript(x) return x * 2 end
        function transform(attributes, layout)
          attributes.alpha = floor(params.itemSize) + floorScript(params.itemSizeParam)
        end
        """)
        #expect(swift.contains("var itemSizeParam2: CGFloat = 10"), "\(swift)")
        #expect(swift.contains("var itemSizeParam: CGFloat = 3"))
        #expect(swift.contains("private func floorScript2(_ x: CGFloat) -> CGFloat {  // floor"))
        #expect(swift.contains("private func floorScript(_ x: CGFloat) -> CGFloat {\n"))
        #expect(swift.contains("attributes.alpha = floorScript2(self.itemSizeParam2) + floorScript(itemSizeParam)"))
    }

    @Test func localsNamedLikeSwiftTypesOrTheFilesNamesAreRenamed() throws {
        let swift = try Self.export("""
        local CGFloat = 2
        local function helper(collectionView) return collectionView * CGFloat end
        function transform(attributes, layout)
          local CGSize, luaIntDiv = attributes.center.x, 3
          attributes.alpha = helper(CGSize) / luaIntDiv + attributes.center.x // 7
        end
        """)
        #expect(swift.contains("private static let cgFloatLocal: CGFloat = 2  // CGFloat"), "\(swift)")
        #expect(swift.contains("private func helper(_ collectionViewLocal: CGFloat) -> CGFloat {"))
        #expect(swift.contains("let cgSizeLocal: CGFloat = attributes.center.x  // CGSize"))
        #expect(!swift.contains("let CGFloat:") && !swift.contains("let CGSize:"))
    }

    @Test func recordFieldsAndConstructorLabelsAreSpelledForEachPlace() throws {
        let swift = try Self.export(Self.transform("""
          local card = { class = 1, init = 2, var = 3, inout = 4, self = 5 }
          attributes.zIndex = card.class + card.init + card.var + card.inout + card.self
        """))
        // Labels take keywords bare, except inout (and var and let where declared); `self` is renamed.
        #expect(swift.contains("Card(class: 1, init: 2, var: 3, `inout`: 4, selfField: 5)"), "\(swift)")
        #expect(swift.contains("init(class: Int = 0, init: Int = 0, `var`: Int = 0, `inout`: Int = 0, selfField: Int = 0)"))
        #expect(swift.contains("self.`init` = `init`"))
        #expect(swift.contains("var selfField: Int = 0  // self"))
    }

    @Test func recordsAreNotNamedLikeTheTypesTheFileUses() throws {
        let swift = try Self.export(Self.transform("""
          local indexPaths = { n = 1 }
          local cGFloats = { n = 2 }
          attributes.zIndex = indexPaths.n + cGFloats.n
        """))
        #expect(!swift.contains("class IndexPath ") && !swift.contains("class CGFloat "), "\(swift)")
        #expect(swift.contains("private final class IndexPathRecord {"))
        #expect(swift.contains("private final class CGFloatRecord {"))
    }

    // MARK: - Text that travels into the file

    @Test func fileNamesAndCommentsCannotEndTheirComment() throws {
        // Lua ends a short comment at a carriage return too: a long one holds it.
        let source = "--[[ head \r injected() \u{2028} \u{0} \u{1b}[31m */ ]]\n"
            + "local a = 1 --[[ tail \r injected() ]]\n" + Self.transform("  attributes.zIndex = a")
        let swift = try Exporter.export(source: source, fileName: "x\ny\r}\u{2029}.lua", className: "TLayout", params: [:])
        for bad in ["\r", "\u{0}", "\u{1b}", "\u{2028}", "\u{2029}"] {
            #expect(!swift.contains(bad), "\(bad.debugDescription) in \(swift.debugDescription)")
        }
        #expect(swift.contains("/// Exported by `cardlua export` from x\\ny\\r}\\u{2029}.lua, for iOS 15 and later."), "\(swift)")
        // The parser reads a carriage return in a comment as Lua does, as a line break.
        #expect(swift.contains("/// head\n///  injected() \\u{2028} \\u{0} \\e[31m */\n"), "\(swift)")
        #expect(swift.contains("// tail  injected()"))
        for line in swift.split(separator: "\n") where line.contains("injected") {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("//") || line.contains("  // "), "\(line)")
        }
    }

    @Test func stringLiteralsEscapeEveryControlCharacter() throws {
        let swift = try Self.export(Self.transform(#"""
          local s = "q\"b\\c\r\0\27\226\128\168"
          if s == "q\"b\\c\r\0\27\226\128\168" then attributes.alpha = 0.5 end
        """#))
        #expect(swift.contains(#"let s: String = "q\"b\\c\r\0\u{1B}\u{2028}""#), "\(swift)")
        #expect(!swift.contains("\r") && !swift.contains("\u{0}") && !swift.contains("\u{2028}"))
    }

    // MARK: - Class names

    @Test func classNamesThatAreTakenOrInvalidAreRefused() {
        for name in ["UICollectionViewFlowLayout", "IndexPath", "CGFloat", "Int", "String", "Array", "UIView",
                     "UICollectionViewLayout", "Self", "Type", "class", "luaMod"] {
            #expect(Exporter.classNameProblem(name) != nil, "\(name)")
        }
        for name in ["Turn-Layout", "1Layout", "Ünï", ""] {
            #expect(Exporter.classNameProblem(name)?.hasPrefix("expected a Swift type name") == true, "\(name)")
        }
        #expect(Exporter.classNameProblem("LolLayout") == nil)
        // A name from a file name is never a taken one.
        #expect(Exporter.className(forFileName: "UICollectionViewFlow.lua") == "ScriptUICollectionViewFlowLayout")
        #expect(Exporter.className(forFileName: "u-i-collection-view.lua") == "ScriptUICollectionViewLayout")
        #expect(Exporter.className(forFileName: "lol.lua") == "LolLayout")
    }
}
