// The script API as `cardlua export` sees it: one row for every function and constant the
// runtime defines (the prelude's globals and methods, the sandbox's base library and the
// libraries it lets scripts use) and for the callbacks a script defines. A row says what
// the name becomes in Swift, or why it is refused and what to write instead.
//
// The translator reads its refusals here (Translator+API.swift, Translator+Calls.swift),
// docs/export.md's table is this table (ExportAPITableTests keeps them equal), and a test
// fails when the runtime defines a name this table lacks, or when the translator and a
// row disagree (a row says a name translates and the translator refuses it, or the other
// way round).

/// What `cardlua export` makes of one name of the script API.
package enum ScriptAPIForm: Equatable, Sendable {
    /// Translated: how it reads in Swift.
    case swift(String)
    /// Left out of the Swift, with the reason (a call of `print` only writes to the tools' output).
    case dropped(String)
    /// Refused: why, and what to write instead.
    case refused(why: String, instead: String)
}

/// One name of the script API: its Lua spelling (`CATransform3DRotate`, `math.floor`,
/// `CATransform3D:rotate` for a method) and its Swift form.
package struct ScriptAPIEntry: Equatable, Sendable {
    package var name: String
    package var form: ScriptAPIForm

    init(_ name: String, _ swift: String) { self.init(name, form: .swift(swift)) }
    init(_ name: String, dropped reason: String) { self.init(name, form: .dropped(reason)) }
    init(_ name: String, refused why: String, instead: String) { self.init(name, form: .refused(why: why, instead: instead)) }
    init(_ name: String, form: ScriptAPIForm) {
        self.name = name
        self.form = form
    }
}

package enum ScriptAPI {
    /// The row of a name, if the table has one.
    package static func entry(_ name: String) -> ScriptAPIEntry? { byName[name] }

    /// The refusal of a name the table refuses, as the translator reports it
    /// (`math.random is not supported (why; instead)`), or nil.
    package static func refusal(_ name: String) -> String? {
        guard case let .refused(why, instead)? = byName[name]?.form else { return nil }
        return "\(name) is not supported (\(why); \(instead))"
    }

    private static let byName: [String: ScriptAPIEntry] = Dictionary(entries.map { ($0.name, $0) },
                                                                     uniquingKeysWith: { first, _ in first })

    private static let noFailure = "the exported layout cannot fail at run time"
    private static let noText = "a layout builds no text"
    private static let fixedTypes = "Swift gives each value one fixed type"
    private static let noMetatables = "Swift types have fixed behaviour, so there are no metatables"
    private static let coroutines = "a layout computes each frame at once, with nothing to resume"

    /// Every row, in the order docs/export.md shows them.
    package static let entries: [ScriptAPIEntry] = callbacks + geometry + transforms + layoutMethods + constants
        + baseLibrary + math + libraries

    static let callbacks: [ScriptAPIEntry] = [
        .init("prepare", "override func prepare() (the properties set before super.prepare())"),
        .init("transform", "private func transform(_:) applied to each copied cell's attributes"),
        .init("targetContentOffset", "override func targetContentOffset(forProposedContentOffset:withScrollingVelocity:)"),
        .init("layoutAttributesForElements", "override func layoutAttributesForElements(in:) (the script's own query)"),
        .init("sizeForItem", "func collectionView(_:layout:sizeForItemAt:) for the delegate to call"),
        .init("insetForSection", "func collectionView(_:layout:insetForSectionAt:) for the delegate to call"),
        .init("referenceSizeForHeader", "func collectionView(_:layout:referenceSizeForHeaderInSection:)"),
        .init("referenceSizeForFooter", "func collectionView(_:layout:referenceSizeForFooterInSection:)"),
        .init("params", "var name: CGFloat (or Bool) { didSet { invalidateLayout() } } per param"),
        .init("scenarios", dropped: "the tools' demo steps; scrollToItem and autoplay steps give the app helpers"),
    ]

    static let geometry: [ScriptAPIEntry] = [
        .init("CGPointMake", "CGPoint(x:y:)"),
        .init("CGSizeMake", "CGSize(width:height:)"),
        .init("CGRectMake", "CGRect(x:y:width:height:)"),
        .init("UIEdgeInsetsMake", "UIEdgeInsets(top:left:bottom:right:)"),
        .init("IndexPath", "IndexPath(item:section:)"),
        .init("CGRectGetMinX", "rect.minX"),
        .init("CGRectGetMidX", "rect.midX"),
        .init("CGRectGetMaxX", "rect.maxX"),
        .init("CGRectGetMinY", "rect.minY"),
        .init("CGRectGetMidY", "rect.midY"),
        .init("CGRectGetMaxY", "rect.maxY"),
        .init("CGRectGetWidth", "rect.width"),
        .init("CGRectGetHeight", "rect.height"),
        .init("CGRectIntersectsRect", "a.intersects(b)"),
        .init("CGRectContainsPoint", "rect.contains(point)"),
        .init("CGRectInset", "rect.insetBy(dx:dy:)"),
        .init("CGRectOffset", "rect.offsetBy(dx:dy:)"),
        .init("CGRectEqualToRect", "a == b"),
        .init("CGPointEqualToPoint", "a == b"),
        .init("CGPointApplyAffineTransform", "point.applying(t)"),
        .init("ABS", "abs(x)"),
        .init("fabs", "abs(x)"),
        .init("MIN", "min(a, b)"),
        .init("MAX", "max(a, b)"),
    ]

    static let transforms: [ScriptAPIEntry] = [
        .init("CATransform3DMakeTranslation", "CATransform3DMakeTranslation(tx, ty, tz)"),
        .init("CATransform3DMakeScale", "CATransform3DMakeScale(sx, sy, sz)"),
        .init("CATransform3DMakeRotation", "CATransform3DMakeRotation(angle, x, y, z)"),
        .init("CATransform3DRotate", "CATransform3DRotate(t, angle, x, y, z)"),
        .init("CATransform3DScale", "CATransform3DScale(t, sx, sy, sz)"),
        .init("CATransform3DTranslate", "CATransform3DTranslate(t, tx, ty, tz)"),
        .init("CATransform3DConcat", "CATransform3DConcat(a, b)"),
        .init("CATransform3DInvert", "CATransform3DInvert(t)"),
        .init("CATransform3DIsIdentity", "CATransform3DIsIdentity(t)"),
        .init("CATransform3DEqualToTransform", "CATransform3DEqualToTransform(a, b)"),
        .init("CATransform3DMakeAffineTransform", "CATransform3DMakeAffineTransform(t)"),
        .init("CATransform3DGetAffineTransform", "CATransform3DGetAffineTransform(t)"),
        .init("CATransform3DIsAffine", "CATransform3DIsAffine(t)"),
        .init("CATransform3D:rotate", "CATransform3DRotate(t, angle, x, y, z)"),
        .init("CATransform3D:scale", "CATransform3DScale(t, sx, sy, sz)"),
        .init("CATransform3D:translate", "CATransform3DTranslate(t, tx, ty, tz)"),
        .init("CATransform3D:concat", "CATransform3DConcat(t, other)"),
        .init("CATransform3D:invert", "CATransform3DInvert(t)"),
        .init("CATransform3D:isIdentity", "CATransform3DIsIdentity(t)"),
        .init("CGAffineTransformMake", "CGAffineTransform(a:b:c:d:tx:ty:)"),
        .init("CGAffineTransformMakeScale", "CGAffineTransform(scaleX:y:)"),
        .init("CGAffineTransformMakeRotation", "CGAffineTransform(rotationAngle:)"),
        .init("CGAffineTransformMakeTranslation", "CGAffineTransform(translationX:y:)"),
        .init("CGAffineTransformScale", "t.scaledBy(x:y:)"),
        .init("CGAffineTransformRotate", "t.rotated(by:)"),
        .init("CGAffineTransformTranslate", "t.translatedBy(x:y:)"),
        .init("CGAffineTransformConcat", "a.concatenating(b)"),
        .init("CGAffineTransformInvert", "t.inverted()"),
        .init("CGAffineTransformIsIdentity", "t.isIdentity"),
        .init("CGAffineTransformEqualToTransform", "a == b"),
        .init("CGAffineTransform:scale", "t.scaledBy(x:y:)"),
        .init("CGAffineTransform:rotate", "t.rotated(by:)"),
        .init("CGAffineTransform:translate", "t.translatedBy(x:y:)"),
        .init("CGAffineTransform:concat", "t.concatenating(other)"),
        .init("CGAffineTransform:invert", "t.inverted()"),
        .init("CGAffineTransform:isIdentity", "t.isIdentity"),
    ]

    static let layoutMethods: [ScriptAPIEntry] = [
        .init("UICollectionViewFlowLayout:layoutAttributesForElements",
              "super.layoutAttributesForElements(in:), each element copied"),
        .init("UICollectionViewFlowLayout:layoutAttributesForElementsInRect",
              "super.layoutAttributesForElements(in:), each element copied"),
        .init("UICollectionViewFlowLayout:layoutAttributesForItem",
              "a copy of super.layoutAttributesForItem(at:) (a hidden cell for an index path the data lacks)"),
        .init("UICollectionViewFlowLayout:layoutAttributesForItemAtIndexPath",
              "a copy of super.layoutAttributesForItem(at:) (a hidden cell for an index path the data lacks)"),
        .init("UICollectionViewFlowLayout:targetContentOffset",
              "super.targetContentOffset(forProposedContentOffset:withScrollingVelocity:)"),
        .init("UICollectionViewFlowLayout:targetContentOffsetForProposedContentOffset",
              "super.targetContentOffset(forProposedContentOffset:withScrollingVelocity:)"),
        .init("UICollectionViewFlowLayout:invalidateLayout",
              refused: "the exported layout invalidates itself when a param changes and on every bounds change",
              instead: "remove the call"),
        .init("UICollectionView:numberOfItems", "collectionView.numberOfItems(inSection:)"),
    ]

    static let constants: [ScriptAPIEntry] = [
        .init("M_PI", "CGFloat.pi"),
        .init("M_PI_2", "CGFloat.pi / 2"),
        .init("M_PI_4", "CGFloat.pi / 4"),
        .init("MAXFLOAT", "CGFloat(Float.greatestFiniteMagnitude) (C's MAXFLOAT is a float's maximum)"),
        .init("CGFLOAT_MAX", "CGFloat.greatestFiniteMagnitude"),
        .init("CATransform3DIdentity", "CATransform3DIdentity"),
        .init("CGAffineTransformIdentity", "CGAffineTransform.identity"),
        .init("CGRectZero", "CGRect.zero"),
        .init("CGPointZero", "CGPoint.zero"),
        .init("CGSizeZero", "CGSize.zero"),
        .init("UICollectionViewScrollDirectionVertical", ".vertical (as layout.scrollDirection)"),
        .init("UICollectionViewScrollDirectionHorizontal", ".horizontal (as layout.scrollDirection)"),
        .init("UIScrollViewDecelerationRateNormal", ".normal (as collectionView.decelerationRate)"),
        .init("UIScrollViewDecelerationRateFast", ".fast (as collectionView.decelerationRate)"),
    ]

    static let baseLibrary: [ScriptAPIEntry] = [
        .init("ipairs", "for (index, value) in t.enumerated() (in `for k, v in ipairs(t)`; k is index + 1)"),
        .init("pairs", refused: "it walks a table as a map, in no fixed order", instead: "walk a sequence with ipairs"),
        .init("next", refused: "it walks a table as a map, in no fixed order", instead: "walk a sequence with ipairs"),
        .init("print", dropped: "a call only writes to the tools' output (its value is refused)"),
        .init("warn", dropped: "a call only writes to the tools' output (its value is refused)"),
        .init("assert", refused: noFailure, instead: "remove the check"),
        .init("error", refused: noFailure, instead: "return a value the layout can use instead"),
        .init("pcall", refused: noFailure, instead: "remove the protection and call the function"),
        .init("xpcall", refused: noFailure, instead: "remove the protection and call the function"),
        .init("select", refused: fixedTypes, instead: "name the values"),
        .init("type", refused: fixedTypes, instead: "drop the test: each value has one kind"),
        .init("tonumber", refused: noText, instead: "write the number"),
        .init("tostring", refused: noText, instead: "drop it, or keep it in a tool-only print"),
        .init("getmetatable", refused: noMetatables, instead: "write plain functions"),
        .init("setmetatable", refused: noMetatables, instead: "write plain functions"),
        .init("rawequal", refused: noMetatables, instead: "compare with =="),
        .init("rawget", refused: noMetatables, instead: "index the table: t[k] or t.name"),
        .init("rawset", refused: noMetatables, instead: "assign to the table: t[k] = v or t.name = v"),
        .init("rawlen", refused: noMetatables, instead: "take the length with #t"),
        .init("_G", refused: "globals are not values in Swift", instead: "name each global directly"),
        .init("_VERSION", refused: "Lua's version is not a layout value", instead: "remove it"),
    ]

    static let math: [ScriptAPIEntry] = [
        .init("math.abs", "abs(x) (luaIntAbs(x) for an integer: Lua's abs of math.mininteger wraps round)"),
        .init("math.floor", "floor(x) (an integer is its own floor)"),
        .init("math.ceil", "ceil(x) (an integer is its own ceiling)"),
        .init("math.sqrt", "sqrt(x)"),
        .init("math.sin", "sin(x)"),
        .init("math.cos", "cos(x)"),
        .init("math.tan", "tan(x)"),
        .init("math.asin", "asin(x)"),
        .init("math.acos", "acos(x)"),
        .init("math.atan", "atan(y) or atan2(y, x)"),
        .init("math.atan2", "atan2(y, x)"),
        .init("math.sinh", "sinh(x)"),
        .init("math.cosh", "cosh(x)"),
        .init("math.tanh", "tanh(x)"),
        .init("math.exp", "exp(x)"),
        .init("math.log", "log(x), log2(x), log10(x), or luaLog(x, base)"),
        .init("math.log10", "log10(x)"),
        .init("math.pow", "pow(x, y)"),
        .init("math.deg", "x * (180 / CGFloat.pi)"),
        .init("math.rad", "x * (CGFloat.pi / 180)"),
        .init("math.fmod", "fmod(a, b)"),
        .init("math.min", "min(a, b, …)"),
        .init("math.max", "max(a, b, …)"),
        .init("math.tointeger", "the integer itself (of a value that may have a fraction: refused, write math.floor(x))"),
        .init("math.pi", "CGFloat.pi"),
        .init("math.huge", "CGFloat.infinity"),
        .init("math.maxinteger", "Int.max"),
        .init("math.mininteger", "Int.min"),
        .init("math.random", refused: "the exported layout must give the same frames every run",
              instead: "derive the value from the item (for example from indexPath.item)"),
        .init("math.randomseed", refused: "the exported layout must give the same frames every run",
              instead: "remove it"),
        .init("math.modf", refused: "it gives two values of two kinds",
              instead: "write x - math.floor(x) for the fraction of a positive x"),
        .init("math.frexp", refused: "it gives two values of two kinds", instead: "write the exponent out"),
        .init("math.ldexp", refused: "Swift has no one function of it for CGFloat", instead: "write m * 2^e"),
        .init("math.type", refused: fixedTypes, instead: "drop the test: each value has one kind"),
        .init("math.ult", refused: "the layout's integers are never compared as unsigned",
              instead: "compare with <"),
    ]

    static let libraries: [ScriptAPIEntry] = [
        .init("math", refused: "a library is not a value in Swift", instead: "call its functions: math.floor(x)"),
        .init("table", refused: "a library is not a value in Swift", instead: "call table.insert or table.sort"),
        .init("table.insert", "t.append(v), or t.insert(v, at: index - 1)"),
        .init("table.sort", "t.sort(by:) with the script's comparator"),
        .init("table.concat", refused: noText, instead: "drop it, or keep it in a tool-only print"),
        .init("table.remove", refused: "only table.insert and table.sort are translated",
              instead: "build a new sequence of the elements to keep"),
        .init("table.move", refused: "only table.insert and table.sort are translated",
              instead: "copy the elements in a loop"),
        .init("table.pack", refused: fixedTypes, instead: "write the sequence out: { a, b }"),
        .init("table.unpack", refused: fixedTypes, instead: "index the sequence: t[1], t[2]"),
        .init("string", refused: noText, instead: "drop it, or keep it in a tool-only print"),
        .init("string.format", "a colour, from string.format(\"#%02x%02x%02x\", r, g, b) only; other formats are refused"),
    ] + ["byte", "char", "find", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep", "reverse", "sub",
         "unpack", "upper"].map { ScriptAPIEntry("string." + $0, refused: noText, instead: "drop it, or keep it in a tool-only print") }
        + [ScriptAPIEntry("utf8", refused: noText, instead: "drop it")]
        + ["char", "charpattern", "codepoint", "codes", "len", "offset"].map {
            ScriptAPIEntry("utf8." + $0, refused: noText, instead: "drop it")
        }
        + [ScriptAPIEntry("coroutine", refused: coroutines, instead: "write the steps as a loop")]
        + ["close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield"].map {
            ScriptAPIEntry("coroutine." + $0, refused: coroutines, instead: "write the steps as a loop")
        }
}
