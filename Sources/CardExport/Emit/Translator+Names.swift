// The name table: the Swift name of each of the script's names, collision-free against
// every name the file declares or refers to.
//
// A script name is kept as it is (a Swift keyword in backticks) unless Swift cannot take
// it where it goes; then it becomes a new name, `<name><Kind>` (`selfLocal`, `floorScript`,
// `itemSizeParam`, `selfField`, `IndexPathRecord`; `_` reads `underscore`), numbered
// (`floorScript2`) while that is a name the script spells anywhere, a name the file uses,
// or a name given before. The script's name is kept in a comment beside the declaration.

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
        "log", "log2", "log10", "fmod", "stride", "zip", "print", "fatalError", "CATransform3DIdentity",
    ]).union(Translator.quartzCalls.keys).union(helpers.keys).union(["luaColor"])

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
        let name = freshName((lua == "_" ? "underscore" : lua) + kind)
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
            return namesInScope.contains(lua) ? renamed(lua, kind: kind, key: key) : SwiftText.name(lua)
        }
        // A member: one name per member, whatever its kind (a param, a local, a function).
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
        namesOfFields.contains(lua) ? renamed(lua, kind: "Field", key: "f:" + lua) : SwiftText.name(lua)
    }

    /// `  // name` beside the declaration of a variable the table renamed (the script's name).
    func renameNote(_ id: Int) -> String {
        renamedSwift[id] == nil && renames["v\(id)"] != nil ? "  // " + variables[id].luaName : ""
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
