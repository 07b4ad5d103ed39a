import LuaSyntax

// The kinds of value the translator knows, and how two of them meet.
//
// Every Lua value the exported script computes gets one of these; each becomes one Swift
// type. Numbers are split in two as Lua splits them: `int` (a Lua integer used as one:
// Swift `Int`) and `num` (a float, or an integer mixed with floats: `CGFloat`). An integer
// that meets a float becomes `num`; the values stay the same, because every integer the
// scripts compute is far below 2⁵³, where a `Double` holds it exactly.

/// One value's kind.
indirect enum LuaType: Equatable, Sendable {
    /// Not known yet (the inference is still running, or the value is never set).
    case unknown
    /// `nil`: only meets another kind as an optional, or a local declared without a value.
    case nilValue
    case int, num, bool
    /// A `"#rrggbb"` colour string (the attributes' `backgroundColor`): `UIColor`.
    case color
    /// Any other string: only a `layout.scrollDirection` or `decelerationRate` value.
    case string(String)
    case point, size, rect, insets, transform3D, affine, indexPath, attributes
    /// A sequence built with `{}` and `t[#t + 1] = v` (Swift `[Element]`).
    case array(LuaType)
    /// A table with fixed string keys: a small generated class (records are shared, as Lua tables are).
    case record(Int)
    /// A table literal `{}` not yet known to be an array or a record.
    case emptyTable
    /// A local function or function literal, by its number.
    case function(Int)
    /// A value that may be absent (`t[k - 1]` that is tested before it is used).
    case optional(LuaType)
    /// The script API's objects, which are `self` or `collectionView` in Swift.
    case layout, collectionView, params
    /// Two kinds that cannot be one Swift type (the message names both).
    case conflict(String)

    /// A short name for messages.
    var kindName: String {
        switch self {
        case .unknown: "unknown"
        case .nilValue: "nil"
        case .int, .num: "a number"
        case .bool: "a boolean"
        case .color: "a colour string"
        case .string: "a string"
        case .point: "a CGPoint"
        case .size: "a CGSize"
        case .rect: "a CGRect"
        case .insets: "a UIEdgeInsets"
        case .transform3D: "a CATransform3D"
        case .affine: "a CGAffineTransform"
        case .indexPath: "an IndexPath"
        case .attributes: "attributes"
        case .array: "a table (an array)"
        case .record, .emptyTable: "a table"
        case .function: "a function"
        case .optional(let t): t.kindName
        case .layout: "the layout"
        case .collectionView: "the collection view"
        case .params: "params"
        case .conflict: "two kinds"
        }
    }

    var isNumber: Bool { self == .int || self == .num }

    /// Whether Lua could see this value as false (`nil` or `false`): decides how `and`/`or` translate.
    var canBeFalsy: Bool {
        switch self {
        case .bool, .nilValue, .optional, .unknown: true
        default: false
        }
    }
}
