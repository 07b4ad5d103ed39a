// The name table: the Swift name of each of the script's names, collision-free against
// every name the file declares or refers to.
//
// A script name is kept as it is (a Swift keyword in backticks) unless Swift cannot take
// it where it goes; then it becomes a new name, `<name><Kind>` (`selfLocal`, `floorScript`,
// `itemSizeParam`, `selfField`, `IndexPathRecord`; `_` reads `underscore`), numbered
// (`floorScript2`) while that is a name the script spells anywhere, a name the file uses,
// or a name given before. A name that is not lowerCamelCase (`ACTIVE_DISTANCE`, `W`,
// `max_scale`) becomes so (`activeDistance`, `w`, `maxScale`), as Swift's API design
// guidelines and swift-format's AlwaysUseLowerCamelCase rule ask, numbered the same way.
// The script's name is kept in a comment beside the declaration.

import LuaSyntax

extension SwiftText {
    /// Names Swift does not take as an identifier in every place the file puts one, even
    /// in backticks: `self.x` and `Self.x` would mean the local, `Self.Type` and
    /// `Self.Protocol` are metatypes, and `_` cannot be read.
    static let unescapable: Set<String> = ["self", "Self", "Type", "Protocol", "_"]

    /// The types the exported file spells by their bare name.
    static let typeNames: Set<String> = [
        "UIKit", "CGFloat", "CGPoint", "CGSize", "CGRect", "CGAffineTransform", "CATransform3D", "UIEdgeInsets",
        "UIColor", "UIView", "UIScrollView", "UICollectionView", "UICollectionViewLayout", "UICollectionViewFlowLayout",
        "UICollectionViewLayoutAttributes", "UICollectionViewDelegateFlowLayout", "IndexPath", "Int", "Bool", "String",
        "Double", "Float", "Array", "Optional", "Void", "Never", "Any", "AnyClass", "AnyObject", "NSZone", "MainActor",
        "Timer", "RunLoop", "TimeInterval", "Task",
    ]

    /// The free functions and constants the file calls by their bare name (Swift's, Core
    /// Animation's and the file's own helpers).
    static let functionNames: Set<String> = Set([
        "abs", "min", "max", "floor", "ceil", "sqrt", "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp",
        "log", "log2", "log10", "fmod", "sinh", "cosh", "tanh", "stride", "zip", "print", "fatalError", "CATransform3DIdentity",
    ]).union(Translator.quartzCalls.keys).union(helpers.keys).union(["luaColor"])

    /// Whether a name is lowerCamelCase as swift-format reads it: after any leading
    /// underscores, no capital first letter and no underscore.
    static func isLowerCamelCase(_ name: String) -> Bool {
        let rest = name.drop(while: { $0 == "_" })
        return rest.isEmpty || (!(rest.first!.isUppercase) && !rest.contains("_"))
    }

    /// A name in lowerCamelCase: `ACTIVE_DISTANCE` → `activeDistance`, `W` → `w`,
    /// `max_scale` → `maxScale`, `Tilt` → `tilt`, `CGFloat` → `cgFloat` (leading underscores stay).
    static func lowerCamelCase(_ name: String) -> String {
        let leading = String(name.prefix(while: { $0 == "_" }))
        let parts = name.dropFirst(leading.count).split(separator: "_")
        var result = leading
        for (k, part) in parts.enumerated() {
            let letters = part.filter(\.isLetter)
            let word = letters.allSatisfy(\.isUppercase) ? part.lowercased() : String(part)
            if k == 0 {
                // A leading acronym in lower case, all but a capital that starts the next word:
                // `CGFloat` → `cgFloat`, `URLCount` → `urlCount`, `Tilt` → `tilt`.
                let capitals = word.prefix(while: \.isUppercase).count
                let lowered = capitals > 1 && capitals < word.count ? capitals - 1 : max(capitals, 1)
                result += word.prefix(lowered).lowercased() + word.dropFirst(lowered)
            } else {
                result += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        return result.isEmpty ? name : result
    }

    /// An argument label in a call: Swift takes a keyword bare there, except `inout`.
    static func label(_ swiftName: String) -> String {
        let bare = swiftName.hasPrefix("`") ? String(swiftName.dropFirst().dropLast()) : swiftName
        return bare == "inout" ? "`\(bare)`" : bare
    }

    /// An argument label in a declaration: a keyword bare, except `inout`, `var` and `let`.
    static func parameterLabel(_ swiftName: String) -> String {
        let bare = swiftName.hasPrefix("`") ? String(swiftName.dropFirst().dropLast()) : swiftName
        return ["inout", "var", "let"].contains(bare) ? "`\(bare)`" : bare
    }
}

extension Translator {
    /// A name no one has: `base`, else `base2`, `base3`… — clear of every name the script
    /// spells, every name the file uses and every name given before.
    func freshName(_ base: String) -> String {
        var name = base, k = 2
        while scriptNames.contains(name) || namesOfMembers.contains(name) || freshNames.contains(name)
                || uniqueNow.contains(name) || records.contains(where: { $0.name == name }) {
            name = base + String(k)
            k += 1
        }
        freshNames.insert(name)
        return name
    }

    /// The new name of a script name Swift cannot take: `<name><kind>`, given once per key.
    func renamed(_ lua: String, kind: String, key: String) -> String {
        if let known = renames[key] { return known }
        let name = freshName((lua == "_" ? "underscore" : SwiftText.lowerCamelCase(lua)) + kind)
        renames[key] = name
        return name
    }

    /// The lowerCamelCase name of a script name that is not (`ACTIVE_DISTANCE` →
    /// `activeDistance`), given once per key; numbered when the script spells it too.
    func camelCased(_ lua: String, key: String) -> String {
        if let known = renames[key] { return known }
        let camel = SwiftText.lowerCamelCase(lua)
        let name = SwiftText.keywords.contains(camel) || namesInScope.contains(camel)
            ? freshName(camel + "Value") : freshName(camel)
        renames[key] = name
        return name
    }

    /// The Swift name of a variable: a local's, a function's, a module-level local's.
    func swiftName(_ id: Int) -> String {
        if let r = renamedSwift[id] { return r }
        let lua = variables[id].luaName
        let kind = methodFunctions[id] != nil ? "Script" : "Local"
        let key = "v\(id)"
        if let known = renames[key] { return known }
        guard topLevelVariables.contains(id) else {
            // `_` no one reads (a parameter left unused) says so in Swift too.
            if lua == "_" && !variables[id].read { return "_" }
            if namesInScope.contains(lua) { return renamed(lua, kind: kind, key: key) }
            return SwiftText.isLowerCamelCase(lua) ? SwiftText.name(lua) : camelCased(lua, key: key)
        }
        // A member: one name per member, whatever its kind (a param, a local, a function).
        if !SwiftText.isLowerCamelCase(lua), !namesOfMembers.contains(lua) {
            let name = camelCased(lua, key: key)
            memberOwners[name] = key
            return name
        }
        let plain = SwiftText.name(lua)
        if namesOfMembers.contains(lua) || (memberOwners[plain].map { $0 != key } ?? false) {
            let name = renamed(lua, kind: kind, key: key)
            memberOwners[name] = key
            return name
        }
        memberOwners[plain] = key
        return plain
    }

    /// The Swift name of a param (a stored property of the layout).
    func parameterName(_ lua: String) -> String {
        let key = "p:" + lua, plain = SwiftText.name(lua)
        if !SwiftText.isLowerCamelCase(lua), !namesOfMembers.contains(lua) {
            let name = camelCased(lua, key: key)
            memberOwners[name] = key
            return name
        }
        if namesOfMembers.contains(lua) || (memberOwners[plain].map { $0 != key } ?? false) {
            let name = renamed(lua, kind: "Param", key: key)
            memberOwners[name] = key
            return name
        }
        memberOwners[plain] = key
        return plain
    }

    /// The Swift name of a record's field.
    func fieldName(_ lua: String) -> String {
        if namesOfFields.contains(lua) { return renamed(lua, kind: "Field", key: "f:" + lua) }
        return SwiftText.isLowerCamelCase(lua) ? SwiftText.name(lua) : camelCased(lua, key: "f:" + lua)
    }

    /// `  // name` beside the declaration of a variable the table renamed (the script's name).
    func renameNote(_ id: Int) -> String {
        renamedSwift[id] == nil && renames["v\(id)"] != nil ? "  // " + variables[id].luaName : ""
    }

    /// The comment beside a declaration: the script's name if the table renamed it, and
    /// the script's own comment on that line (`  // ACTIVE_DISTANCE: the project's value`).
    func declarationNote(_ id: Int, trailing: String?) -> String {
        let rename = renameNote(id)
        guard let trailing, !trailing.isEmpty else { return rename }
        return (rename.isEmpty ? "  // " : rename + ": ") + String(SwiftText.lineComment(trailing).dropFirst(3))
    }

    /// A record's type name: the name asked for, unless a type, a name of the script or
    /// another record has it (`IndexPathRecord`, `Card2`).
    func recordTypeName(_ asked: String) -> String {
        var base = asked
        if SwiftText.typeNames.contains(base) || SwiftText.unescapable.contains(base) || scriptNames.contains(base)
            || namesInScope.contains(base) {
            base += "Record"
        }
        var name = base, k = 2
        while records.contains(where: { $0.name == name }) || name == className || name == className + "Attributes"
                || scriptNames.contains(name) || freshNames.contains(name) {
            name = base + String(k)
            k += 1
        }
        return name
    }
}
