import CardExport
import Foundation

/// The hostile-names corpus (issue "Trustworthy, round 4", item 3): scripts whose names
/// clash with Swift's keywords and types, with UIKit's and with what the exported file
/// declares itself, whose comments hold a carriage return, a NUL, an ESC, a line separator
/// and `*/`, exported under file names holding line breaks; and integer edges Lua wraps
/// (`-math.mininteger`, `math.abs(math.mininteger)`, `math.mininteger // -1`). The proof
/// compiles them with the shipped scripts and compares every frame with the Lua run.
enum HostileCorpus {
    /// Locals, module locals, params, functions, parameters and record fields named like
    /// Swift keywords and types, the flow layout's members and the file's own helpers.
    static let names = """
    -- Hostile names: each name below clashes with Swift, UIKit or the file's own names.
    --[[ A long comment with a carriage return here:\r and a NUL \u{0} and an ESC \u{1b} and a line separator \u{2028}  and */ and /* inside. ]]
    params = {
      itemSize = { value = 12, min = 0, max = 50 },       -- the flow layout's own property
      itemSizeParam = { value = 3, min = 0, max = 10 },   -- what itemSize's rename used to be
      self = { value = 1, min = 0, max = 2, label = \"Self */ /* tuned\" },
      CGFloat = { value = 2, min = 0, max = 4 },
      collectionView = { value = 0.5, min = 0, max = 1 },
    }

    local CGFloat = 2
    local CGSize = 3
    local Type = 4
    local Protocol = 5
    local _ = 6
    local collectionView = 7
    local luaIntDiv = 8
    local floorScript = 0.25
    local default, class = 9, 10

    local function floor(x)
      return x - x % 1
    end

    local function luaMod(self, Type, _)
      return self + Type * _
    end

    local function init(Self, super, inout)
      return Self * 2 + super - inout
    end

    local function elementQuery(x)
      return x / 2
    end

    function prepare(layout)
      local itemSize = params.itemSize + params.itemSizeParam
      local prepare = 100
      layout.scrollDirection = \"horizontal\"
      layout.itemSize = CGSizeMake(prepare + itemSize, 120)
      layout.minimumLineSpacing = 10
    end

    function transform(attributes, layout)
      local cv = layout.collectionView
      local offset = cv.contentOffset.x
      local self, Self, Type, Protocol, _ = 1, 2, 3, 4, 5
      local class, struct, var, let, func, init2 = 6, 7, 8, 9, 10, 11
      local default, case, where, is, as, super = 12, 13, 14, 15, 16, 17
      local protocol, extension, static, inout, operator = 18, 19, 20, 21, 22
      local throws, try, some, any = 23, 24, 25, 26
      local collectionView = attributes.center.x - offset
      local visibleBounds = collectionView / 1000
      local CGFloat = floor(visibleBounds * 10) / 10
      local transformed = luaMod(self, Type, _) + init(Self, super, inout)
      local itemSize = params.itemSize
      local cards = { self = 1, init = 2, Type = 3, _ = 4, class = 5, CGFloat = 6, var = 7, inout = 8, let = 9 }
      local total = cards.self + cards.init + cards.Type + cards._ + cards.class + cards.CGFloat + cards.var + cards.inout + cards.let
      local indexPaths = { n = 1 }
      local sum = class + struct + var + let + func + init2 + default + case + where + is + as + Protocol
          + protocol + extension + static + inout + operator + throws + try + some + any + indexPaths.n
      attributes.alpha = 0.5 + CGFloat * params.collectionView * params.self / params.CGFloat + floorScript / 100
      attributes.zIndex = sum + transformed + total + itemSize // 1 + CGSize + luaIntDiv
      attributes.transform3D = CATransform3DMakeTranslation(elementQuery(itemSize), collectionView / 100, 0)
    end
    """

    /// Integer edges: negation and abs of math.mininteger, `//` and `%` of negative operands
    /// and of math.mininteger by -1.
    static let integers = """
    -- Integer edges: Lua wraps math.mininteger's negation and abs, and floors // and %.

    function prepare(layout)
      layout.scrollDirection = \"horizontal\"
      layout.itemSize = CGSizeMake(100, 100)
    end

    function transform(attributes, layout)
      local i = attributes.indexPath.item
      local m = math.mininteger + i - i
      local flags = 0
      if -m == m then flags = flags + 1 end
      if math.abs(m) == m then flags = flags + 2 end
      if m // -1 == m then flags = flags + 4 end
      if m % -1 == 0 then flags = flags + 8 end
      if -math.mininteger == math.mininteger then flags = flags + 16 end
      local d = -i
      local a = math.abs(d)
      local q = (-7 - i) // 2 + (7 + i) // -2 + (-7 - i) // -2
      local r = (-7 - i) % 3 + (7 + i) % -3 + (-7 - i) % -3
      attributes.zIndex = flags * 1000 + q * 10 + r + a - d
      attributes.alpha = 0.5 + (i % 4) / 10
    end
    """

    /// File names that would end a comment early: line feed, carriage return, the line
    /// and paragraph separators, `*/`, a NUL and an ESC.
    static let hostileFileName = "names\n}\r\u{2028}let injected = 1\u{2029}*/\u{0}\u{1b}[31m.lua"

    /// Each case: the script, the file name it is exported and run under, the class.
    static let cases: [(name: String, fileName: String, className: String, source: String)] = [
        ("hostile names", "hostile-names.lua", "HostileNamesLayout", names),
        ("hostile names (hostile file name)", hostileFileName, "HostileFileNameLayout", names),
        ("integer edges", "integer-edges.lua", "IntegerEdgesLayout", integers),
    ]
}
