import CLuaShims
import CardLayout

// The prelude internals that answer with lists of records (the keys check mode noted, the
// declared tweakables, lists of names): records.c reads the Lua tables into C records,
// read here by field. Nothing is formatted as text to be split again.

extension LuaEffect {
    /// The keys check mode noted on `attributes` so far, in the order first written.
    func attributeKeyNotes() throws(ScriptError) -> [AttributeKeyNote] {
        var status: Int32 = CARDLUA_ERROR
        guard let block = cardlua_attribute_notes(host, &status), status == CARDLUA_OK else { throw error(status) }
        defer { cardlua_free_records(block) }
        let list = block.pointee
        return (0..<list.count).map { i in
            AttributeKeyNote(key: String(cString: list.notes[i].key), item: list.notes[i].item)
        }
    }

    /// The keys set on the layout (or its collectionView) that the contract does not know,
    /// sorted, as written: `layout.itemsize`, `layout.collectionView.pagingEnabled`.
    func layoutKeyNotes() throws(ScriptError) -> [String] {
        try internalStrings("layoutNotes")
    }

    /// Calls a prelude internal that returns a list of strings.
    func internalStrings(_ name: String) throws(ScriptError) -> [String] {
        var status: Int32 = CARDLUA_ERROR
        guard let block = cardlua_internal_strings(host, name, &status), status == CARDLUA_OK else {
            throw error(status)
        }
        defer { cardlua_free_records(block) }
        let list = block.pointee
        return (0..<list.count).map { String(cString: list.items[$0]!) }
    }

    /// The script's `params` declarations, checked by the prelude (which then makes the
    /// global a table of plain values), sorted by name.
    func declaredParams() throws(ScriptError) -> [ScriptParam] {
        var status: Int32 = CARDLUA_ERROR
        guard let block = cardlua_read_params(host, &status), status == CARDLUA_OK else { throw error(status) }
        defer { cardlua_free_records(block) }
        let list = block.pointee
        return (0..<list.count).compactMap { ScriptParam(record: list.params[$0]) }
    }

    /// Hands the prelude the values of `params` in order (each checked again there).
    func writeParams(_ params: [ScriptParam]) throws(ScriptError) {
        guard !params.isEmpty else { return }
        // The names and options, NUL-terminated, in one buffer for the length of the call.
        var bytes: [CChar] = []
        var nameAt: [Int] = [], optionAt: [Int] = []
        for param in params {
            nameAt.append(bytes.count)
            bytes += param.name.utf8CString
            optionAt.append(bytes.count)
            if case let .option(text) = param.value { bytes += text.utf8CString } else { bytes.append(0) }
        }
        let status = bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            let settings = params.indices.map { i in
                switch params[i].value {
                case let .number(x):
                    cardlua_param_setting(name: base + nameAt[i], kind: CARDLUA_PARAM_NUMBER, number: x, option: nil)
                case let .boolean(on):
                    cardlua_param_setting(name: base + nameAt[i], kind: CARDLUA_PARAM_BOOLEAN, number: on ? 1 : 0,
                                          option: nil)
                case .option:
                    cardlua_param_setting(name: base + nameAt[i], kind: CARDLUA_PARAM_OPTIONS, number: 0,
                                          option: base + optionAt[i])
                }
            }
            return settings.withUnsafeBufferPointer { cardlua_set_params(host, $0.baseAddress, $0.count) }
        }
        if status != CARDLUA_OK { throw error(status) }
    }
}

extension ScriptParam {
    /// A declaration as records.c read it; nil for a kind this host does not know.
    init?(record p: cardlua_param) {
        let name = String(cString: p.name)
        let label = p.label.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        switch p.kind {
        case CARDLUA_PARAM_NUMBER:
            self.init(name: name, value: .number(p.value), defaultValue: .number(p.value), minimum: p.minimum,
                      maximum: p.maximum, step: p.has_step != 0 ? p.step : nil, label: label)
        case CARDLUA_PARAM_BOOLEAN:
            let value = ParamSetting.boolean(p.value != 0)
            self.init(name: name, value: value, defaultValue: value, kind: .boolean, label: label)
        case CARDLUA_PARAM_OPTIONS:
            let value = ParamSetting.option(String(cString: p.option))
            let options = (0..<p.option_count).map { String(cString: p.options[$0]!) }
            self.init(name: name, value: value, defaultValue: value, kind: .options(options), label: label)
        default:
            return nil
        }
    }
}
