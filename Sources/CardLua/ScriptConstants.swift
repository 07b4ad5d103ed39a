import CLuaShims

/// The constants Swift, C and Lua share, read from their one definition in
/// `CLuaShims.h` (Sources/CLuaShims/README.md, "Constants"). The prelude's copies are
/// checked against these by `ConstantsTests`.
public enum ScriptConstants {
    /// The keys of the layout configuration array, in `CARDLUA_CFG_*` order.
    public static let configKeys: [String] = (0..<Int32(CARDLUA_CFG_COUNT)).compactMap { index in
        cardlua_config_key(index).map { String(cString: $0) }
    }

    /// Scenario step kinds by code (`CARDLUA_STEP_*`).
    public static let stepCodes: [String: Int] = {
        var codes: [String: Int] = [:]
        for code in Int32(CARDLUA_STEP_JUMP)...Int32(CARDLUA_STEP_AUTOPLAY) {
            if let name = cardlua_step_name(code) { codes[String(cString: name)] = Int(code) }
        }
        return codes
    }()

    /// The keys of `attributes` the contract knows, and whether a script may assign each.
    public static let attributeKeys: [(name: String, writable: Bool)] = {
        var keys: [(name: String, writable: Bool)] = []
        var writable: Int32 = 0
        var index: Int32 = 0
        while let name = cardlua_attribute_key(index, &writable) {
            keys.append((String(cString: name), writable != 0))
            index += 1
        }
        return keys
    }()
}
