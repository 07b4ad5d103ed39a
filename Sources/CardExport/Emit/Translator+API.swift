import LuaSyntax

// The script API's names: globals, the layout, the collection view, attributes, geometry,
// transforms and the math library, each as the UIKit / Core Animation Swift it mirrors.

extension Translator {
    static let appearanceFields: [String: LuaType] = [
        "cornerRadius": .num, "shadowOpacity": .num, "shadowRadius": .num, "shadowOffset": .size,
        "backgroundColor": .color, "blurRadius": .num, "isDoubleSided": .bool,
    ]

    var currentAttributesName: String {
        transformAttributesName ?? "attributes"
    }

    var proposedName: String { targetProposedName ?? "proposedContentOffset" }

    // MARK: - Globals

    func globalName(_ n: String, line: Int) throws -> Code {
        switch n {
        case "M_PI": return code("CGFloat.pi", .num)
        case "M_PI_2": return code("CGFloat.pi / 2", .num, Code.multiplicative)
        case "M_PI_4": return code("CGFloat.pi / 4", .num, Code.multiplicative)
        case "MAXFLOAT": return code("CGFloat(Float.greatestFiniteMagnitude)", .num)
        case "CGFLOAT_MAX": return code("CGFloat.greatestFiniteMagnitude", .num)
        case "CGPointZero": return code("CGPoint.zero", .point)
        case "CGSizeZero": return code("CGSize.zero", .size)
        case "CGRectZero": return code("CGRect.zero", .rect)
        case "UIEdgeInsetsZero": return code("UIEdgeInsets.zero", .insets)
        case "CATransform3DIdentity": return code("CATransform3DIdentity", .transform3D)
        case "CGAffineTransformIdentity": return code("CGAffineTransform.identity", .affine)
        case "UICollectionViewScrollDirectionVertical": return code("\"vertical\"", .string("vertical"))
        case "UICollectionViewScrollDirectionHorizontal": return code("\"horizontal\"", .string("horizontal"))
        case "UIScrollViewDecelerationRateNormal": return code("\"normal\"", .string("normal"))
        case "UIScrollViewDecelerationRateFast": return code("\"fast\"", .string("fast"))
        case "params": return code("", .params)
        default:
            // The script API's table says why a name of the runtime is refused (API/ScriptAPI.swift).
            if let refusal = ScriptAPI.refusal(n) { throw refuse(line, refusal) }
            throw refuse(line, "the global '\(n)' is not supported (it is not part of the script API the translator knows)")
        }
    }

    func libraryField(_ lib: String, _ name: String, line: Int) throws -> Code {
        if lib == "math" {
            switch name {
            case "pi": return code("CGFloat.pi", .num)
            case "huge": return code("CGFloat.infinity", .num)
            case "maxinteger": return code("Int.max", .int)
            case "mininteger": return code("Int.min", .int)
            default: break
            }
        }
        if lib == "math", Self.mathFunctionNames.contains(name) {
            throw refuse(line, "math.\(name) as a value is supported only in a `local` of math functions alone (`local abs, max = math.abs, math.max`), called where it is used")
        }
        if let refusal = ScriptAPI.refusal("\(lib).\(name)") { throw refuse(line, refusal) }
        throw refuse(line, "\(lib).\(name) as a value is not supported (call it where it is used)")
    }

    // MARK: - Fields

    func fieldAccess(_ b: Code, _ name: String, line: Int) throws -> Code {
        let base = wrap(b, Code.atom).text
        switch b.type {
        case .params:
            guard let p = parameter(name) else {
                throw refuse(line, "params.\(name) is not declared in params")
            }
            let shadowed = lookUp(name) != nil || parameters[p].swiftName != SwiftText.name(name)
            return code(shadowed || inClosureOrNested ? "self.\(parameters[p].swiftName)" : parameters[p].swiftName,
                        parameters[p].isBoolean ? .bool : .num)
        case .point:
            guard ["x", "y"].contains(name) else { break }
            return code("\(base).\(name)", .num)
        case .size:
            guard ["width", "height"].contains(name) else { break }
            return code("\(base).\(name)", .num)
        case .rect:
            // collectionView.frame is the viewport at the origin: its sizes are the bounds'
            for bounds in ["\(collectionViewTextPlain).bounds", Self.visibleBounds] {
                let frame = "CGRect(origin: .zero, size: \(bounds).size)"
                if b.text == frame, ["width", "height", "size", "midX", "midY", "maxX", "maxY"].contains(name) {
                    if name.hasPrefix("mid") || name.hasPrefix("max") { return code("\(base).\(name)", .num) }
                    return code("\(bounds).\(name)", name == "size" ? .size : .num)
                }
            }
            switch name {
            case "x": return code("\(base).origin.x", .num)
            case "y": return code("\(base).origin.y", .num)
            case "width", "height", "minX", "midX", "maxX", "minY", "midY", "maxY": return code("\(base).\(name)", .num)
            case "origin": return code("\(base).origin", .point)
            case "size": return code("\(base).size", .size)
            default: break
            }
        case .insets:
            guard ["top", "left", "bottom", "right"].contains(name) else { break }
            return code("\(base).\(name)", .num)
        case .transform3D:
            guard name.count == 3, name.hasPrefix("m"), let i = Int(name.dropFirst()), (11...44).contains(i), i % 10 >= 1, i % 10 <= 4 else { break }
            return code("\(base).\(name)", .num)
        case .affine:
            guard ["a", "b", "c", "d", "tx", "ty"].contains(name) else { break }
            return code("\(base).\(name)", .num)
        case .indexPath:
            switch name {
            case "item", "row": return counted(code("\(base).item", .int))
            case "section": return counted(code("\(base).section", .int))
            default: break
            }
        case .attributes:
            return try attributesField(b, name, line: line, writing: false)
        case .record(let r):
            if let t = recordField(r, name) { return code("\(base).\(fieldName(name))", t) }
            addRecordField(r, name, .unknown)
            return code("\(base).\(fieldName(name))", .unknown)
        case .optional(let inner) where inner != .color:
            if case .record = inner {} else {
                return try fieldAccess(code("\(base)!", inner), name, line: line)
            }
            guard case .record(let r) = inner else { break }
            if let t = recordField(r, name) { return code("\(base)!.\(fieldName(name))", t) }
            return code("\(base)!.\(fieldName(name))", .unknown)
        case .emptyTable:
            return code("\(base).\(fieldName(name))", .unknown)
        case .layout:
            return try layoutField(name, line: line)
        case .collectionView:
            return try collectionViewField(name, line: line)
        case .unknown:
            if isFinal {
                throw refuse(line, "a value whose kind is never known is not supported (reading .\(name): is it a parameter of a function that is never called? Swift needs its type)")
            }
            return code("\(base).\(name)", .unknown)
        default: break
        }
        if !isFinal { return code("\(base).\(name)", .unknown) }   // known by the last walk
        throw refuse(line, "the field '\(name)' of \(b.type.kindName) is not supported")
    }

    var inClosureOrNested: Bool { functionStack.count > 1 }

    /// A member of the layout, with `self.` where a local of the same name hides it.
    func member(_ name: String) -> String {
        lookUp(name) != nil || inClosureOrNested ? "self." + name : name
    }

    func layoutField(_ name: String, line: Int) throws -> Code {
        switch name {
        case "collectionView": return code(collectionViewText, .collectionView)
        case "itemSize", "estimatedItemSize", "headerReferenceSize", "footerReferenceSize", "collectionViewContentSize":
            return code(member(name), .size)
        case "sectionInset": return code(member(name), .insets)
        case "minimumLineSpacing", "minimumInteritemSpacing": return code(member(name), .num)
        case "isPagingEnabled": return code("\(collectionViewText).isPagingEnabled", .bool)
        case "flipsHorizontallyInOppositeLayoutDirection": return code(name, .bool)
        case "time":
            throw refuse(line, "layout.time is not supported (it is the tools' scenario clock; an app's layout has none)")
        case "wraps":
            throw refuse(line, "reading layout.wraps is not supported (UIKit's flow layout does not wrap)")
        case "decelerationRate":
            throw refuse(line, "reading layout.decelerationRate is not supported (it is a string or a number in Lua; read collectionView.decelerationRate in Swift)")
        default:
            throw refuse(line, "layout.\(name) is not supported (not a UICollectionViewFlowLayout property the translator knows)")
        }
    }

    var collectionViewTextPlain: String { "collectionView" }

    /// The name `transform` reads the collection view's bounds by: its caller reads them
    /// once per query and passes them in (they cannot change during one).
    static let visibleBounds = "visibleBounds"

    /// The stored property that keeps the collection view's bounds from `prepare()` for
    /// `transform`: the layout invalidates itself on every bounds change, and UIKit
    /// prepares an invalidated layout before it asks for attributes again, so the bounds
    /// read there are the bounds of every query until the next `prepare()`. Reading them
    /// from the weakly held collection view on each query is a weak load, a retain and a
    /// release, more than the whole effect of a simple script costs per card.
    static let preparedBounds = "preparedBounds"
    /// The generated property that keeps the element query's answer for the visible rect.
    static let shownElements = "shownElements"

    /// Whether the script defines its own element query (`layoutAttributesForElements`),
    /// read off the chunk (the walk meets the callbacks in the script's order).
    var definesElementQuery: Bool {
        chunk.body.statements.contains { statement in
            if case let .function(name, _) = statement.kind, name.fields.isEmpty, name.method == nil,
               name.base == "layoutAttributesForElements" { return true }
            return false
        }
    }
    /// The generated method that sets a flow-layout property only when its value changes.
    static let updateProperty = "update"

    /// What `transform` reads of the collection view's bounds, from `visibleBounds` rather
    /// than from the view per item: `bounds`, `frame` (the viewport at the origin) and
    /// `contentOffset` (UIScrollView's is its bounds' origin). Nil elsewhere, for any other
    /// property, and where a local of the script takes the name (read from the view then).
    func hoistedCollectionViewField(_ name: String) -> Code? {
        guard functionStack.first == .transform, !translatingTarget, lookUp(Self.visibleBounds) == nil else { return nil }
        let bounds = Self.visibleBounds
        let hoisted: Code
        switch name {
        case "bounds": hoisted = code(bounds, .rect)
        case "frame": hoisted = code("CGRect(origin: .zero, size: \(bounds).size)", .rect)
        case "contentOffset": hoisted = code("\(bounds).origin", .point)
        default: return nil
        }
        transformReadsBoundsNow = true
        return hoisted
    }

    func collectionViewField(_ name: String, line: Int) throws -> Code {
        let cv = collectionViewText
        switch name {
        case "bounds": return code("\(cv).bounds", .rect)
        case "frame": return code("CGRect(origin: .zero, size: \(cv).bounds.size)", .rect)
        case "contentOffset": return code("\(cv).contentOffset", .point)
        case "contentSize": return code("\(cv).contentSize", .size)
        case "numberOfSections": return counted(code("\(cv).numberOfSections", .int))
        case "isPagingEnabled", "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical": return code("\(cv).\(name)", .bool)
        default:
            throw refuse(line, "collectionView.\(name) is not supported (not a UICollectionView property the translator knows)")
        }
    }

    func attributesField(_ b: Code, _ name: String, line: Int, writing: Bool) throws -> Code {
        let base = wrap(b, Code.atom).text
        switch name {
        case "frame", "bounds": return code("\(base).\(name)", .rect)
        case "center": return code("\(base).center", .point)
        case "size": return code("\(base).size", .size)
        case "transform3D": return code("\(base).transform3D", .transform3D)
        case "transform": return code("\(base).transform", .affine)
        case "alpha": return code("\(base).alpha", .num)
        case "zIndex": return code("\(base).zIndex", .int)
        case "hidden", "isHidden": return code("\(base).isHidden", .bool)
        case "indexPath":
            if writing { throw refuse(line, "setting attributes.indexPath is not supported (make the element with layout:layoutAttributesForItem)") }
            return code("\(base).indexPath", .indexPath)
        default:
            if let t = Self.appearanceFields[name] {
                usesAppearanceNow = true
                if t == .color { return code("\(base).backgroundColor", .optional(.color)) }
                return code("\(base).\(name)", t)
            }
            throw refuse(line, "attributes.\(name) is not supported (not a UICollectionViewLayoutAttributes field)")
        }
    }

    /// A flow-layout property set to `value`. In `prepare` only when it changes
    /// (``Translator/updateProperty``): UIKit invalidates the layout on every set, and
    /// `prepare` runs on every bounds change, before the `super.prepare()` that lays out
    /// with these values.
    func setFlowProperty(_ name: String, to value: String) {
        if role == .prepare {
            usesUpdateProperty = true
            emit("\(Self.updateProperty)(\\.\(name), to: \(value))")
        } else {
            emit("\(member(name)) = \(value)")
        }
    }

    /// `layout.X = v` and `layout.collectionView.X = v`: what `prepare` sets.
    func layoutAssignment(_ line: Int, base: LuaExpression, name: String, value: LuaExpression) throws -> Bool {
        let b = try expression(base)
        if b.type == .layout {
            switch name {
            case "scrollDirection", "decelerationRate":
                let v = try expression(value)
                guard case .string(let s) = v.type else {
                    if name == "decelerationRate", v.type.isNumber {
                        emit("\(collectionViewText).decelerationRate = UIScrollView.DecelerationRate(rawValue: \(try coerce(v, to: .num, line: line).text))")
                        return true
                    }
                    if isFinal { throw refuse(line, "layout.\(name) set to \(v.type.kindName) is not supported") }
                    return true
                }
                if name == "scrollDirection" {
                    guard s == "horizontal" || s == "vertical" else { throw refuse(line, "layout.scrollDirection \"\(s)\" is not a direction") }
                    setFlowProperty("scrollDirection", to: ".\(s)")
                } else {
                    guard s == "normal" || s == "fast" else { throw refuse(line, "layout.decelerationRate \"\(s)\" is not a rate") }
                    emit("\(collectionViewText).decelerationRate = .\(s)")
                }
                return true
            case "isPagingEnabled":
                let v = try expression(value)
                emit("\(collectionViewText).isPagingEnabled = \(v.text)")
                return true
            case "wraps":
                try wrapsAssignment(line, value)
                return true
            case "flipsHorizontallyInOppositeLayoutDirection":
                guard case .boolean(let flag) = value.kind else {
                    throw refuse(line, "layout.flipsHorizontallyInOppositeLayoutDirection set to a computed value is not supported (UIKit reads it as a class property: write true or false)")
                }
                flipsHorizontally = flag
                emit("// layout.flipsHorizontallyInOppositeLayoutDirection = \(flag): the property override below")
                return true
            case "itemSize", "estimatedItemSize", "headerReferenceSize", "footerReferenceSize":
                let v = try expression(value)
                setFlowProperty(name, to: try coerce(v, to: .size, line: line).text)
                return true
            case "sectionInset":
                let v = try expression(value)
                setFlowProperty(name, to: try coerce(v, to: .insets, line: line).text)
                return true
            case "minimumLineSpacing", "minimumInteritemSpacing":
                let v = try expression(value)
                setFlowProperty(name, to: try coerce(v, to: .num, line: line).text)
                return true
            case "collectionView", "collectionViewContentSize", "time":
                throw refuse(line, "layout.\(name) is read only")
            default:
                throw refuse(line, "layout.\(name) is not supported (not a UICollectionViewFlowLayout property; the script API ignores it)")
            }
        }
        if b.type == .collectionView {
            switch name {
            case "decelerationRate":
                return try layoutAssignment(line, base: LuaExpression(.name("layout"), line: line), name: name, value: value) || true
            case "isPagingEnabled", "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical":
                let v = try expression(value)
                emit("\(collectionViewText).\(name) = \(v.text)")
                return true
            default:
                throw refuse(line, "setting collectionView.\(name) is not supported")
            }
        }
        if b.type == .attributes {
            if name == "zIndex" {
                let v = try expression(value)
                emit("\(wrap(b, Code.atom).text).zIndex = \(try coerce(v, to: .int, line: line).text)")
                return true
            }
            if name == "backgroundColor" {
                usesAppearanceNow = true
                let v = try expression(value)
                if v.type == .color || v.type == .optional(.color) || v.type == .unknown {
                    emit("\(wrap(b, Code.atom).text).backgroundColor = \(v.text)")
                    return true
                }
                throw refuse(line, "attributes.backgroundColor set to \(v.type.kindName) is not supported (write a \"#rrggbb\" literal)")
            }
        }
        return false
    }

    /// `layout.wraps = v`: fine when v is false with the params as baked; refused otherwise.
    func wrapsAssignment(_ line: Int, _ value: LuaExpression) throws {
        var used: Set<String> = []
        let result = evaluateConstantly(value, used: &used, depth: 0)
        guard case .bool(false)? = result else {
            let which = used.sorted().map { "params.\($0) = \(bakedText(parameters[parameter($0)!]))" }.joined(separator: ", ")
            throw refuse(line, "layout.wraps = true is not supported (UIKit's flow layout has no endless wrap\(which.isEmpty ? "" : " and \(which) makes it true"); export with wrapping off\(used.isEmpty ? "" : ", e.g. --param \(used.sorted()[0])=\(parameter(used.sorted()[0]).map { parameters[$0].isBoolean } == true ? "false" : "0")"))")
        }
        for n in used { if let p = parameter(n) { parameters[p].isConstant = true } }
        emit("// layout.wraps is false with these params (\(used.sorted().map { "\($0)" }.joined(separator: ", "))): UIKit's flow layout does not wrap, nothing to set")
    }

    enum Constant: Equatable { case number(Double), bool(Bool) }

    /// A param's value as baked, as Lua writes it (`1.5`, `true`).
    func bakedText(_ p: ScriptParameter) -> String {
        p.isBoolean ? (p.value != 0 ? "true" : "false") : SwiftText.double(p.value)
    }

    /// A value computed from literals, params as baked and small functions that return one expression.
    func evaluateConstantly(_ e: LuaExpression, used: inout Set<String>, depth: Int) -> Constant? {
        if depth > 8 { return nil }
        switch e.kind {
        case .boolean(let b): return .bool(b)
        case .number(let n): return .number(n.value)
        case .parenthesized(let x): return evaluateConstantly(x, used: &used, depth: depth + 1)
        case .field(let b, let name):
            if case .name("params") = b.kind, let p = parameter(name) {
                used.insert(name)
                return parameters[p].isBoolean ? .bool(parameters[p].value != 0) : .number(parameters[p].value)
            }
            return nil
        case .unary(.not, let x):
            guard let v = evaluateConstantly(x, used: &used, depth: depth + 1) else { return nil }
            if case .bool(let b) = v { return .bool(!b) }
            return .bool(false)
        case let .binary(op, l, r):
            guard let a = evaluateConstantly(l, used: &used, depth: depth + 1),
                  let b = evaluateConstantly(r, used: &used, depth: depth + 1) else { return nil }
            switch (op, a, b) {
            case (.equal, _, _): return .bool(a == b)
            case (.notEqual, _, _): return .bool(a != b)
            case let (.less, .number(x), .number(y)): return .bool(x < y)
            case let (.greater, .number(x), .number(y)): return .bool(x > y)
            case let (.lessEqual, .number(x), .number(y)): return .bool(x <= y)
            case let (.greaterEqual, .number(x), .number(y)): return .bool(x >= y)
            case (.and, .bool(false), _): return a
            case (.and, _, _): return b
            case (.or, .bool(false), _): return b
            case (.or, _, _): return a
            default: return nil
            }
        case let .call(fn, args) where args.isEmpty:
            guard case .name(let n) = fn.kind else { return nil }
            for s in chunk.body.statements {
                if case let .localFunction(name, f) = s.kind, name == n, f.body.statements.count == 1,
                   case let .returnStatement(values) = f.body.statements[0].kind, values.count == 1 {
                    return evaluateConstantly(values[0], used: &used, depth: depth + 1)
                }
            }
            return nil
        default: return nil
        }
    }

    // MARK: - Element constructors

    func attributesConstructor(_ named: [(String, Code, Int)], line: Int) throws -> Code {
        guard let ip = named.first(where: { $0.0 == "indexPath" }) else { throw refuse(line, "an element needs an indexPath") }
        usesAttributesForItem = true
        let v = unique("element")
        var body = ["let \(v) = attributesForItem(at: \(try coerce(ip.1, to: .indexPath, line: ip.2).text))"]
        // frame before size before center, as the read-back applies them
        let order = ["frame", "size", "center"]
        let sorted = named.filter { $0.0 != "indexPath" }.sorted { a, b in
            (order.firstIndex(of: a.0) ?? 3) < (order.firstIndex(of: b.0) ?? 3)
        }
        for (k, c, l) in sorted {
            let target = try attributesField(code(v, .attributes), k, line: l, writing: true)
            body.append("\(target.text) = \(try coerce(c, to: target.type == .optional(.color) ? .color : target.type, line: l).text)")
        }
        body.append("return \(v)")
        return code("{ () -> \(attributesClassName) in\n" + body.map { "    " + $0 }.joined(separator: "\n") + "\n}()", .attributes)
    }
}
