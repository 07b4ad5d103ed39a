import CardLayout
import Foundation

/// `cardlua check`: loads a script and exercises every callback the way the runner would,
/// and more (two viewports, both ends of the content and a little past them, flings both
/// ways), collecting every problem instead of stopping at the first.
///
/// What it finds: load and runtime errors (each once per callback and place, with the
/// script's traceback), limit errors (the callback is then left out and the others are
/// checked on a fresh state), NaN or infinite values, alpha outside 0…1, keys written on
/// `attributes` or `layout` that the contract does not know (with a "did you mean"),
/// transform results computed and dropped (`t:rotate(…)` as a statement), globals that
/// look like a misspelled callback (`tranform`, `Prepare`), and broken `scenarios` tables.
/// The static warnings (names, fields, dropped results) are read off the script's syntax
/// tree (``SourceIndex``); the rest comes from running it (``CheckSession``).
package struct ScriptChecker {
    /// The viewports `prepare` is called for: a phone and a tablet, portrait.
    package static let viewports = [Size(width: 414, height: 736), Size(width: 768, height: 1024)]
    /// Items in section 0 while checking.
    package static let numberOfItems = 20

    /// Checks the script at `path`; an empty result means no problems.
    package static func check(path: String, limits: ScriptLimits = ScriptLimits(),
                              layoutDirection: UserInterfaceLayoutDirection = .leftToRight) -> [Diagnostic] {
        (try? check(path: path, limits: limits, params: [], layoutDirection: layoutDirection)) ?? []
    }

    /// Checks the script at `path` with its tweakables set to `params` (`--param`) in
    /// every state it loads; an override the script does not declare, or out of its
    /// range, is thrown (wrong usage, not a problem of the script).
    package static func check(path: String, limits: ScriptLimits = ScriptLimits(),
                              params: [(name: String, text: String)],
                              layoutDirection: UserInterfaceLayoutDirection = .leftToRight,
                              viewport: Size? = nil) throws(ParamOverrideError) -> [Diagnostic] {
        let source: String
        do {
            source = try ScriptFile.read(path: path)
        } catch {
            // The reason without the path (a diagnostic is shown under it).
            let reason = error.message.hasPrefix(path + ": ") ? String(error.message.dropFirst(path.count + 2)) : error.message
            return [Diagnostic(line: nil, message: reason, severity: .error)]
        }
        let session = CheckSession(source: source, chunkName: path, limits: limits)
        session.overrides = params
        session.layoutDirection = layoutDirection
        if let viewport, !session.viewports.contains(viewport) { session.viewports.append(viewport) }
        session.run()
        if let refused = session.refusedOverride { throw refused }
        return session.finish()
    }

    /// The warnings `run` and `watch` print after a run of `effect` (loaded from `path`):
    /// the keys written on `attributes` or `layout` that the contract does not know (as
    /// far as the frames noted saw them: set `keyNoteInterval` before the run), and
    /// transform results computed and dropped. Each once, by line.
    /// With `layouts` (the flows the run laid out), UIKit's size rule too, once per viewport.
    package static func warnings(after effect: LuaEffect, path: String, layouts: [FlowLayout] = []) -> [Diagnostic] {
        let source = effect.source  // the text that ran (the file may have changed since)
        let index = SourceIndex(source: source, chunkName: path)
        let attributeKeys = (try? effect.attributeKeyNotes()) ?? []
        let layoutKeys = (try? effect.layoutKeyNotes()) ?? []
        let insetsFromCallback = effect.definesFunction("insetForSection")
        let found = misspelledGlobals(index)
            + KeyNotes.unknownKeyWarnings(attributeKeys: attributeKeys, layoutKeys: layoutKeys, index: index)
            + droppedResults(index)
            + layouts.flatMap { sizeRuleWarnings($0, index: index, insetsFromCallback: insetsFromCallback) }
        return found.enumerated().sorted { a, b in
            let la = a.element.line ?? 0, lb = b.element.line ?? 0
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
    }

    /// Statements that compute a transform and drop it — `t:rotate(…)` or
    /// `CATransform3DScale(t, …)` alone, whose value is a new transform — as warnings.
    package static func droppedResults(in source: String) -> [Diagnostic] {
        droppedResults(SourceIndex(source: source))
    }

    static func droppedResults(_ index: SourceIndex) -> [Diagnostic] {
        index.droppedResults.map { call in
            let message = if let receiver = call.receiver, let method = call.method {
                "\(receiver):\(method)(…) returns a new transform and leaves \(receiver) as it was; "
                    + "its result is dropped (write \(receiver) = \(receiver):\(method)(…))"
            } else {
                "\(call.function ?? "?")(…) returns a new value and changes nothing; its result is dropped "
                    + "(assign it, like t = \(call.function ?? "?")(t, …))"
            }
            return Diagnostic(line: call.line, message: message, severity: .warning)
        }
    }

    /// The script's globals that look like a callback (or `scenarios`, `params`) with a
    /// typo, as warnings: `run`, `watch` and `play` print them too, since a misspelt
    /// `tranform` otherwise runs cleanly with flat cards.
    static func misspelledGlobals(_ index: SourceIndex) -> [Diagnostic] {
        index.globals.compactMap { global in
            guard let intended = Suggest.misspelledCallback(global.name, type: global.kind.rawValue) else { return nil }
            let message = global.kind == .function
                ? "function '\(global.name)' is never called by cardlua — did you mean \(intended)?"
                : "global '\(global.name)' is never read by cardlua — did you mean \(intended)?"
            return Diagnostic(line: global.line, message: message, severity: .warning)
        }
    }

    /// Checks `source`, shown in messages as `chunkName`; an empty result means no problems.
    package static func check(source: String, chunkName: String,
                             limits: ScriptLimits = ScriptLimits(),
                             layoutDirection: UserInterfaceLayoutDirection = .leftToRight) -> [Diagnostic] {
        let session = CheckSession(source: source, chunkName: chunkName, limits: limits)
        session.layoutDirection = layoutDirection
        session.run()
        return session.finish()
    }
}
