import CardLayout
import CardLua
import CardServe

/// The page's controls for the script's tweakables (`params`): a control moved runs the
/// script again with the new value; a save keeps the values the script still declares.
extension Playground {
    /// `POST /params`: a control moved. The script in use runs again, in a fresh state,
    /// with the new value (a number, true / false, or an option's string, as the param's
    /// kind takes it); the scroll position is kept (as on a save).
    func setParam(_ body: [UInt8]) -> HTTPResponse {
        guard let fields = Self.fields(body), let name = fields["name"] as? String else {
            return .status(400, message: "expected a JSON object with a \"name\" and a \"value\"")
        }
        let value: ParamSetting
        switch (effect.params.first { $0.name == name }?.kind, fields["value"]) {
        case let (.boolean?, flag as Bool): value = .boolean(flag)
        case let (.options?, text as String): value = .option(text)
        case let (.number?, x as Double), let (nil, x as Double): value = .number(x)
        case (.boolean?, _): return .status(400, message: "params.\(name) is on/off: expected true or false as the value")
        case (.options?, _): return .status(400, message: "params.\(name): expected one of its options (a string) as the value")
        default: return .status(400, message: "params.\(name): expected a finite number as the value")
        }
        var next = overrides.filter { $0.name != name }
        next.append((name, value))
        do {
            try LuaEffect.checkParams([(name, value)], against: effect.params)
        } catch {
            return .status(400, message: error.text)
        }
        let t = Self.pageTime(fields["t"] as? Double) ?? session.state.time
        do {
            let fresh = try LuaEffect(source: goodSource, chunkName: scriptPath, limits: limits)
            try fresh.setParams(next)
            try session.reload(effect: fresh, at: max(t, session.state.time))
            stepTarget = nil
            try session.skipFrames(until: t)
            effect = fresh
            overrides = next
            frameError = nil
        } catch let refused as ParamOverrideError {
            return .status(400, message: refused.text)
        } catch {
            failed(error)
        }
        return answerNow()
    }

    /// Sets the saved script's overrides in `fresh`, keeping those it still declares
    /// with the same kind (a number clamped to its min…max, an option still listed): a
    /// save never fails because of a control.
    func keepOverrides(in fresh: LuaEffect) {
        let kept: [(name: String, value: ParamSetting)] = overrides.compactMap { set in
            guard let param = fresh.params.first(where: { $0.name == set.name }) else { return nil }
            switch (param.kind, set.value) {
            case let (.number, .number(x)): return (set.name, .number(min(max(x, param.minimum), param.maximum)))
            case (.boolean, .boolean): return set
            case let (.options(options), .option(text)): return options.contains(text) ? set : nil
            default: return nil
            }
        }
        if (try? fresh.setParams(kept)) != nil { overrides = kept }
    }
}
