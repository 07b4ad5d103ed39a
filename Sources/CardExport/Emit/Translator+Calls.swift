import LuaSyntax

// Calls: the script's own functions, the script API's C-named helpers, math, and methods.

extension Translator {
    func call(_ function: LuaExpression, _ arguments: [LuaExpression], line: Int, allowTuple: Bool) throws -> Code {
        if case let .field(lib, name) = function.kind, case .name(let m) = lib.kind, lookUp(m) == nil {
            if m == "math" { return try mathCall(name, arguments, line: line) }
            if m == "string", name == "format" { return try formatCall(arguments, line: line) }
            if let refusal = ScriptAPI.refusal("\(m).\(name)") { throw refuse(line, refusal) }
            if m == "table" { throw refuse(line, "table.\(name) as a value is not supported (call it as a statement)") }
            throw refuse(line, "\(m).\(name) is not supported (it is not part of the script API the translator knows)")
        }
        if case .name(let n) = function.kind, let id = lookUp(n), let f = mathAliases[id] {
            return try mathCall(f, arguments, line: line)
        }
        if case .name(let n) = function.kind, lookUp(n) == nil {
            return try apiCall(n, arguments, line: line)
        }
        let f = try expression(function)
        guard case .function(let fid) = f.type else {
            if f.type == .unknown, !isFinal { return code("", .unknown) }
            throw refuse(line, "calling \(f.type.kindName) is not supported")
        }
        var types: [LuaType] = []
        var codes: [Code] = []
        let parameterCount = functions[functionRoot(fid)].parameters.count
        for (i, a) in arguments.enumerated() {
            if i >= parameterCount, functions[functionRoot(fid)].line != line, isSimple(a) { continue }  // an extra argument Lua drops
            let before = usesCollectionViewNow
            let c = try expression(a)
            // The layout and its collection view are not passed in Swift: `self` has them.
            if c.type == .layout || c.type == .collectionView || c.type == .params { usesCollectionViewNow = before }
            codes.append(c)
            types.append(c.type)
        }
        passArguments(fid, types, line: line)
        let parameterTypes = self.parameterTypes(fid)
        var args: [String] = []
        for (i, pt) in parameterTypes.enumerated() {
            if pt == .layout || pt == .collectionView || pt == .params { continue }
            if i < codes.count {
                args.append(try coerce(codes[i], to: pt == .unknown ? codes[i].type : pt, line: line).text)
            } else if functions[functionRoot(fid)].defaults[i] != nil {
                break   // the rest take their defaults
            } else if isFinal {
                throw refuse(line, "a call with fewer arguments than parameters is not supported (Lua passes nil; pass every argument)")
            }
        }
        let text = "\(wrap(f, Code.atom).text)(\(args.joined(separator: ", ")))"
        let returns = returnTypes(fid)
        if returns.isEmpty {
            if isFinal && !callIsStatement {
                throw refuse(line, "using the value of a function that returns nothing is not supported (it is nil in Lua; return a value, or call it as a statement)")
            }
            voidCalls.insert(text)
            return code(text, functions[functionRoot(fid)].returnsNothing ? .nilValue : .unknown)
        }
        if returns.count > 1 {
            if allowTuple {
                tupleTypes[text] = returns
                return code(text, returns[0])
            }
            return code("\(text).0", returns[0])
        }
        return code(text, returns[0])
    }

    func isSimple(_ e: LuaExpression) -> Bool {
        switch e.kind {
        case .name, .number, .nilLiteral, .boolean, .string: return true
        case .field(let b, _): return isSimple(b)
        default: return false
        }
    }

    func numbers(_ arguments: [LuaExpression], _ count: Int, _ name: String, line: Int) throws -> [String] {
        guard arguments.count == count else {
            throw refuse(line, "\(name) takes \(count) argument\(count == 1 ? "" : "s"), got \(arguments.count)")
        }
        return try arguments.map { try coerce(try expression($0), to: .num, line: line).text }
    }

    func values(_ arguments: [LuaExpression], _ kinds: [LuaType], _ name: String, line: Int) throws -> [String] {
        guard arguments.count == kinds.count else {
            throw refuse(line, "\(name) takes \(kinds.count) argument\(kinds.count == 1 ? "" : "s"), got \(arguments.count)")
        }
        return try zip(arguments, kinds).map { try coerce(try expression($0), to: $1, line: line).text }
    }

    /// The math functions mathCall translates.
    static let mathFunctionNames: Set<String> = [
        "abs", "floor", "ceil", "sqrt", "sin", "cos", "tan", "asin", "acos", "exp", "atan", "log", "fmod", "min", "max",
        "tointeger", "atan2", "sinh", "cosh", "tanh", "log10", "pow", "deg", "rad",
    ]

    /// The name of the math function `e` is (`math.abs`: "abs"), when `math` is the library.
    func mathFunctionName(_ e: LuaExpression) -> String? {
        guard case let .field(library, name) = e.kind, case .name("math") = library.kind, lookUp("math") == nil,
              Self.mathFunctionNames.contains(name) else { return nil }
        return name
    }

    /// `local abs, floor = math.abs, math.floor`: when every value is a math function, each
    /// name becomes an alias of its function (mathAliases) and true is returned; nothing is
    /// declared in Swift, and each call through a name is that function's call (an alias
    /// used otherwise, or assigned again, is refused where that happens).
    func declareMathAliases(_ s: LuaStatement, names: [String], values: [LuaExpression]) -> Bool {
        guard !names.isEmpty, names.count == values.count else { return false }
        let functions = values.compactMap(mathFunctionName)
        guard functions.count == values.count else { return false }
        for (name, function) in zip(names, functions) {
            mathAliases[declare(name, line: s.line)] = function
        }
        return true
    }

    /// What the Swift says in place of a `local` of math functions: `abs = math.abs, …`.
    func mathAliasComment(_ names: [String]) -> String {
        let pairs = names.compactMap { name in lookUp(name).flatMap { mathAliases[$0] }.map { "\(name) = math.\($0)" } }
        return "local \(pairs.joined(separator: ", ")): each call below is the function's own"
    }

    func mathCall(_ name: String, _ arguments: [LuaExpression], line: Int) throws -> Code {
        switch name {
        case "abs":
            guard arguments.count == 1 else { throw refuse(line, "math.abs takes 1 argument") }
            let c = try expression(arguments[0])
            if c.type == .int {  // abs(Int.min) traps in Swift; Lua wraps round
                helpers.insert("luaIntAbs")
                return code("luaIntAbs(\(c.text))", .int)
            }
            return code("abs(\(c.text))", .num)
        case "floor", "ceil":
            guard arguments.count == 1 else { throw refuse(line, "math.\(name) takes 1 argument") }
            let c = try expression(arguments[0])
            if c.type == .int { return c }   // an integer is its own floor
            return code("\(name)(\(try coerce(c, to: .num, line: line).text))", .num)
        case "sqrt", "sin", "cos", "tan", "asin", "acos", "exp", "sinh", "cosh", "tanh", "log10":
            // Lua 5.4's compatibility functions (sinh, cosh, tanh, log10) are C's, as Swift's are.
            return code("\(name)(\(try numbers(arguments, 1, "math." + name, line: line)[0]))", .num)
        case "atan2", "pow":
            let n = try numbers(arguments, 2, "math." + name, line: line)
            return code("\(name)(\(n[0]), \(n[1]))", .num)
        case "deg", "rad":
            // lmathlib.c: x * (180 / pi) and x * (pi / 180).
            guard arguments.count == 1 else { throw refuse(line, "math.\(name) takes 1 argument, got \(arguments.count)") }
            let x = wrap(try coerce(try expression(arguments[0]), to: .num, line: line), Code.multiplicative)
            return code(name == "deg" ? "\(x.text) * (180 / CGFloat.pi)" : "\(x.text) * (CGFloat.pi / 180)", .num, Code.multiplicative)
        case "atan":
            if arguments.count == 2 {
                let n = try numbers(arguments, 2, "math.atan", line: line)
                return code("atan2(\(n[0]), \(n[1]))", .num)
            }
            return code("atan(\(try numbers(arguments, 1, "math.atan", line: line)[0]))", .num)
        case "log":
            if arguments.count == 2 {
                let n = try numbers(arguments, 2, "math.log", line: line)
                if n[1] == "10" { return code("log10(\(n[0]))", .num) }
                if n[1] == "2" { return code("log2(\(n[0]))", .num) }
                helpers.insert("luaLog")
                return code("luaLog(\(n[0]), \(n[1]))", .num)
            }
            return code("log(\(try numbers(arguments, 1, "math.log", line: line)[0]))", .num)
        case "fmod":
            let n = try numbers(arguments, 2, "math.fmod", line: line)
            return code("fmod(\(n[0]), \(n[1]))", .num)
        case "min", "max":
            guard !arguments.isEmpty else { throw refuse(line, "math.\(name) needs an argument") }
            var cs = try arguments.map { try expression($0) }
            if cs.count == 1 { return cs[0] }
            let allInt = cs.allSatisfy { $0.type == .int }
            if !allInt { cs = try cs.map { try coerce($0, to: .num, line: line) } }
            var result = code("\(name)(\(cs.map(\.text).joined(separator: ", ")))", allInt ? .int : .num)
            // |min| and |max| of bounded integers are at most their largest bound.
            let bounds = cs.compactMap(\.bound)
            if allInt, bounds.count == cs.count { result.bound = bounds.max() }
            return result
        case "tointeger":
            guard arguments.count == 1 else { throw refuse(line, "math.tointeger takes 1 argument") }
            let c = try expression(arguments[0])
            if c.type == .int { return c }  // an integer is itself
            throw refuse(line, "math.tointeger of a number that may have a fraction is not supported (Lua gives nil for a fraction, and a Swift value has one type: write math.floor(x) for the whole part, or x // 1)")
        case "pi", "huge": throw refuse(line, "math.\(name) is not a function")
        default:
            if let refusal = ScriptAPI.refusal("math." + name) { throw refuse(line, refusal) }
            throw refuse(line, "math.\(name) is not supported (it is not part of the script API the translator knows)")
        }
    }

    /// `string.format("#%02x%02x%02x", r, g, b)`, the only text the scripts build: a colour.
    func formatCall(_ arguments: [LuaExpression], line: Int) throws -> Code {
        guard arguments.count == 4, case .string("#%02x%02x%02x") = arguments[0].kind else {
            throw refuse(line, "string.format is not supported (a layout builds no text; only string.format(\"#%02x%02x%02x\", r, g, b) for a colour is translated)")
        }
        let n = try arguments.dropFirst().map { try coerce(try expression($0), to: .num, line: line).text }
        helpers.insert("luaFormatColor")
        return code("luaColor(\(n.joined(separator: ", ")))", .color)
    }

    /// The Core Animation functions Swift spells as the script does: their argument kinds
    /// and their result's.
    static let quartzCalls: [String: (arguments: [LuaType], result: LuaType)] = [
        "CATransform3DMakeTranslation": ([.num, .num, .num], .transform3D),
        "CATransform3DMakeScale": ([.num, .num, .num], .transform3D),
        "CATransform3DMakeRotation": ([.num, .num, .num, .num], .transform3D),
        "CATransform3DRotate": ([.transform3D, .num, .num, .num, .num], .transform3D),
        "CATransform3DScale": ([.transform3D, .num, .num, .num], .transform3D),
        "CATransform3DTranslate": ([.transform3D, .num, .num, .num], .transform3D),
        "CATransform3DConcat": ([.transform3D, .transform3D], .transform3D),
        "CATransform3DInvert": ([.transform3D], .transform3D),
        "CATransform3DIsIdentity": ([.transform3D], .bool),
        "CATransform3DIsAffine": ([.transform3D], .bool),
        "CATransform3DEqualToTransform": ([.transform3D, .transform3D], .bool),
        "CATransform3DMakeAffineTransform": ([.affine], .transform3D),
        "CATransform3DGetAffineTransform": ([.transform3D], .affine),
    ]

    func apiCall(_ n: String, _ arguments: [LuaExpression], line: Int) throws -> Code {
        if let call = Self.quartzCalls[n] {
            return code("\(n)(\(try values(arguments, call.arguments, n, line: line).joined(separator: ", ")))", call.result)
        }
        switch n {
        case "CGPointMake":
            let v = try numbers(arguments, 2, n, line: line)
            return code("CGPoint(x: \(v[0]), y: \(v[1]))", .point)
        case "CGSizeMake":
            let v = try numbers(arguments, 2, n, line: line)
            return code("CGSize(width: \(v[0]), height: \(v[1]))", .size)
        case "CGRectMake":
            let v = try numbers(arguments, 4, n, line: line)
            return code("CGRect(x: \(v[0]), y: \(v[1]), width: \(v[2]), height: \(v[3]))", .rect)
        case "UIEdgeInsetsMake":
            let v = try numbers(arguments, 4, n, line: line)
            return code("UIEdgeInsets(top: \(v[0]), left: \(v[1]), bottom: \(v[2]), right: \(v[3]))", .insets)
        case "CGRectGetMinX", "CGRectGetMidX", "CGRectGetMaxX", "CGRectGetMinY", "CGRectGetMidY", "CGRectGetMaxY",
             "CGRectGetWidth", "CGRectGetHeight":
            let r = try values(arguments, [.rect], n, line: line)[0]
            var field = String(n.dropFirst("CGRectGet".count))
            field = field.prefix(1).lowercased() + field.dropFirst()
            return code("\(r).\(field)", .num)
        case "CGRectIntersectsRect":
            let v = try values(arguments, [.rect, .rect], n, line: line)
            return code("\(v[0]).intersects(\(v[1]))", .bool)
        case "CGRectContainsPoint":
            let v = try values(arguments, [.rect, .point], n, line: line)
            return code("\(v[0]).contains(\(v[1]))", .bool)
        case "CGRectInset", "CGRectOffset":
            let v = try values(arguments, [.rect, .num, .num], n, line: line)
            return code("\(v[0]).\(n == "CGRectInset" ? "insetBy" : "offsetBy")(dx: \(v[1]), dy: \(v[2]))", .rect)
        case "CGRectEqualToRect", "CGPointEqualToPoint":
            let k: LuaType = n == "CGRectEqualToRect" ? .rect : .point
            let v = try values(arguments, [k, k], n, line: line)
            return code("\(v[0]) == \(v[1])", .bool, Code.comparison)
        case "ABS", "fabs":
            return try mathCall("abs", arguments, line: line)
        case "MIN": return try mathCall("min", arguments, line: line)
        case "MAX": return try mathCall("max", arguments, line: line)
        case "IndexPath":
            guard arguments.count == 1 || arguments.count == 2 else { throw refuse(line, "IndexPath takes (item, section)") }
            let item = try coerce(try expression(arguments[0]), to: .int, line: line).text
            let section = arguments.count == 2 ? try coerce(try expression(arguments[1]), to: .int, line: line).text : "0"
            return code("IndexPath(item: \(item), section: \(section))", .indexPath)
        case "CGAffineTransformMake":
            let v = try numbers(arguments, 6, n, line: line)
            return code("CGAffineTransform(a: \(v[0]), b: \(v[1]), c: \(v[2]), d: \(v[3]), tx: \(v[4]), ty: \(v[5]))", .affine)
        case "CGAffineTransformMakeScale":
            let v = try numbers(arguments, 2, n, line: line)
            return code("CGAffineTransform(scaleX: \(v[0]), y: \(v[1]))", .affine)
        case "CGAffineTransformMakeRotation":
            return code("CGAffineTransform(rotationAngle: \(try numbers(arguments, 1, n, line: line)[0]))", .affine)
        case "CGAffineTransformMakeTranslation":
            let v = try numbers(arguments, 2, n, line: line)
            return code("CGAffineTransform(translationX: \(v[0]), y: \(v[1]))", .affine)
        case "CGAffineTransformScale":
            let v = try values(arguments, [.affine, .num, .num], n, line: line)
            return code("\(v[0]).scaledBy(x: \(v[1]), y: \(v[2]))", .affine)
        case "CGAffineTransformRotate":
            let v = try values(arguments, [.affine, .num], n, line: line)
            return code("\(v[0]).rotated(by: \(v[1]))", .affine)
        case "CGAffineTransformTranslate":
            let v = try values(arguments, [.affine, .num, .num], n, line: line)
            return code("\(v[0]).translatedBy(x: \(v[1]), y: \(v[2]))", .affine)
        case "CGAffineTransformConcat":
            let v = try values(arguments, [.affine, .affine], n, line: line)
            return code("\(v[0]).concatenating(\(v[1]))", .affine)
        case "CGAffineTransformInvert":
            return code("\(try values(arguments, [.affine], n, line: line)[0]).inverted()", .affine)
        case "CGAffineTransformIsIdentity":
            return code("\(try values(arguments, [.affine], n, line: line)[0]).isIdentity", .bool)
        case "CGPointApplyAffineTransform":
            let v = try values(arguments, [.point, .affine], n, line: line)
            return code("\(v[0]).applying(\(v[1]))", .point)
        case "CGAffineTransformEqualToTransform":
            let v = try values(arguments, [.affine, .affine], n, line: line)
            return code("\(v[0]) == \(v[1])", .bool, Code.comparison)
        case "print", "warn":
            throw refuse(line, "\(n) as a value is not supported (a call of it only writes to the tools' output, and is left out)")
        case "ipairs":
            throw refuse(line, "ipairs outside a `for` is not supported (write `for k, v in ipairs(t) do`)")
        default:
            if let refusal = ScriptAPI.refusal(n) { throw refuse(line, refusal) }
            _ = try globalName(n, line: line)
            throw refuse(line, "calling '\(n)' is not supported")
        }
    }

    func methodCall(_ object: LuaExpression, _ method: String, _ arguments: [LuaExpression], line: Int) throws -> Code {
        let o = try expression(object)
        switch o.type {
        case .layout:
            switch method {
            case "layoutAttributesForElements", "layoutAttributesForElementsInRect":
                let r = try values(arguments, [.rect], "layout:" + method, line: line)[0]
                return code("(super.layoutAttributesForElements(in: \(r)) ?? []).map({ $0.copy() as! \(attributesClassName) })", .array(.attributes))
            case "layoutAttributesForItem", "layoutAttributesForItemAtIndexPath":
                let p = try values(arguments, [.indexPath], "layout:" + method, line: line)[0]
                usesAttributesForItem = true
                return code("attributesForItem(at: \(p))", .attributes)
            case "targetContentOffset", "targetContentOffsetForProposedContentOffset":
                let v = try values(arguments, [.point, .point], "layout:" + method, line: line)
                return code("super.targetContentOffset(forProposedContentOffset: \(v[0]), withScrollingVelocity: \(v[1]))", .point)
            default:
                if let refusal = ScriptAPI.refusal("UICollectionViewFlowLayout:" + method) { throw refuse(line, refusal) }
                throw refuse(line, "layout:\(method) is not supported (not a UICollectionViewFlowLayout method the translator knows)")
            }
        case .collectionView:
            if method == "numberOfItems" || method == "numberOfItemsInSection" {
                let s = try values(arguments, [.int], "collectionView:numberOfItems", line: line)[0]
                return counted(code("\(o.text).numberOfItems(inSection: \(s))", .int))
            }
            throw refuse(line, "collectionView:\(method) is not supported")
        case .transform3D:
            let t = o.text
            switch method {
            case "rotate": return code("CATransform3DRotate(\(t), \(try numbers(arguments, 4, "t:rotate", line: line).joined(separator: ", ")))", .transform3D)
            case "scale": return code("CATransform3DScale(\(t), \(try numbers(arguments, 3, "t:scale", line: line).joined(separator: ", ")))", .transform3D)
            case "translate": return code("CATransform3DTranslate(\(t), \(try numbers(arguments, 3, "t:translate", line: line).joined(separator: ", ")))", .transform3D)
            case "concat": return code("CATransform3DConcat(\(t), \(try values(arguments, [.transform3D], "t:concat", line: line)[0]))", .transform3D)
            case "invert": return code("CATransform3DInvert(\(t))", .transform3D)
            case "isIdentity": return code("CATransform3DIsIdentity(\(t))", .bool)
            default: throw refuse(line, "t:\(method) is not supported")
            }
        case .affine:
            let t = wrap(o, Code.atom).text
            switch method {
            case "rotate": return code("\(t).rotated(by: \(try numbers(arguments, 1, "t:rotate", line: line)[0]))", .affine)
            case "scale":
                let v = try numbers(arguments, 2, "t:scale", line: line)
                return code("\(t).scaledBy(x: \(v[0]), y: \(v[1]))", .affine)
            case "translate":
                let v = try numbers(arguments, 2, "t:translate", line: line)
                return code("\(t).translatedBy(x: \(v[0]), y: \(v[1]))", .affine)
            case "concat": return code("\(t).concatenating(\(try values(arguments, [.affine], "t:concat", line: line)[0]))", .affine)
            case "invert": return code("\(t).inverted()", .affine)
            case "isIdentity": return code("\(t).isIdentity", .bool)
            default: throw refuse(line, "t:\(method) is not supported")
            }
        case .unknown where !isFinal:
            return code("", .unknown)
        default:
            throw refuse(line, "the method \(method) on \(o.type.kindName) is not supported")
        }
    }
}
