import CardLua
import CardServe

/// A saved script in the open page: the reload a save brings (the watcher only raises
/// ``markChanged()``; the next request reloads), the warnings of each load, and the
/// restart in a fresh state after a limit.
extension Playground {
    /// `POST /reload` (`{"t": …}`): reloads a saved script at the page's present, so a
    /// motion in progress stops where it shows; answers the state and the frame there.
    func reload(_ body: [UInt8]) -> HTTPResponse {
        let t = Self.pageTime(Self.fields(body)?["t"] as? Double) ?? session.state.time
        reloadIfChanged(at: t)
        try? session.skipFrames(until: t)
        return answerNow()
    }

    /// Reloads the script if it was saved since the last request: a good load replaces
    /// the effect (the scroll position is kept), a broken one leaves the last good effect
    /// and shows its error.
    func reloadIfChanged(at time: Double) {
        guard takeChanged() else { return }
        do {
            let fresh = try loadEffect(scriptPath)
            keepOverrides(in: fresh)
            try session.reload(effect: fresh, at: max(time, session.state.time))
            stepTarget = nil
            effect = fresh
            goodSource = fresh.source
            version += 1
            loadError = nil
            frameError = nil
            noteWarnings()
        } catch {
            loadError = Self.message(of: error)
        }
    }

    /// The warnings of the script just loaded: kept for the page, printed when new.
    func noteWarnings() {
        let found = ScriptChecker.warnings(after: effect, path: scriptPath)
            .map { $0.formatted(file: scriptPath) }
        for warning in found where !warnings.contains(warning) { Console.error(warning) }
        warnings = found
    }

    /// An error while making frames: shown; after a limit (which discards the Lua state)
    /// the last good script starts again in a fresh state at the same position.
    func failed(_ error: any Error) {
        frameError = Self.message(of: error)
        guard let script = error as? ScriptError, script.kind == .limit else { return }
        if let fresh = try? LuaEffect(source: goodSource, chunkName: scriptPath, limits: limits),
           (try? fresh.setParams(overrides)) != nil,
           (try? session.reload(effect: fresh, at: session.state.time)) != nil {
            effect = fresh
        }
    }
}
