import CardLayout
import CardLua
import CardRender
import CardServe
import Foundation

/// What the engine's answers carry: the state (``PlayState``, taken from the session
/// and the script in use) and frames in the players' form (``FrameWire``).
extension Playground {
    /// `{"state": {…}, "frames": [frame, …]}`: the state (``PlayState``) and frames,
    /// each `{"t", "o": [x, y], "p", "v": [w, h], "c": [[section, item, left, top, width,
    /// height, m11 … m44, alpha, zIndex, flags, appearance?], …], "s"?: [[kind, section,
    /// left, top, width, height], …], "ci"}` (left/top relative to the viewport; flags, the
    /// appearance — only when set — and the headers and footers — only when there are
    /// any — as in the static page's data, `HTMLRenderer.timelineJSON`; `ci` below).
    func answer(frames: [Frame]) -> String {
        "{\"state\":" + PlayJSON.text(pageState()) + ",\"frames\":[" + frames.map(frameJSON).joined(separator: ",") + "]}"
    }

    /// The state and the frame at the latest event (no frame when the script fails there:
    /// the state carries the error).
    func answerNow() -> HTTPResponse {
        .json(answer(frames: [frameNow()].compactMap { $0 }))
    }

    /// The state now: the session's, the script's params, its version, its error and
    /// warnings, and the viewport's note.
    func pageState() -> PlayState {
        let s = session.state
        return PlayState(
            time: s.time, contentOffset: .init(s.contentOffset), phase: s.phase.rawValue, isTracking: s.isTracking,
            viewport: [s.viewportSize.width, s.viewportSize.height],
            contentSize: [s.contentSize.width, s.contentSize.height],
            range: [s.contentOffsetRange.lowerBound, s.contentOffsetRange.upperBound],
            centredItem: s.centredItem.map { [$0.section, $0.item] },
            items: session.numberOfItems.reduce(0, +),
            horizontal: session.configuration.scrollDirection == .horizontal,
            fps: session.framesPerSecond, lastSnap: s.lastSnap.map(PlayState.Snap.init),
            params: effect.params.map(PlayState.Param.init), scriptVersion: version,
            script: (scriptPath as NSString).lastPathComponent, error: error, warnings: warnings,
            layoutNote: layoutNote())
    }

    /// A frame as the page gets it: the static page's frame with `"ci"`, the engine's
    /// centred item at its offset (`[section, item]` or null), as `state.centredItem` —
    /// from the flow's item positions, not the frame's cards, which an element query may
    /// all place at the centre.
    private func frameJSON(_ frame: Frame) -> String {
        var json = FrameWire.frame(frame, identity: .indexPath)
        guard json.last == "}" else { return json }
        json.removeLast()
        let centred = session.centredItem(at: frame.contentOffset)
        return json + ",\"ci\":" + (centred.map { "[\($0.section),\($0.item)]" } ?? "null") + "}"
    }

    /// Why the viewport shows several rows of a horizontal carousel (or columns of a
    /// vertical one) — a tall preset does that, as UIKit's flow does — and what keeps one.
    /// Also UIKit's size rule at the viewport on screen (a card that does not fit between
    /// the insets).
    private func layoutNote() -> String? {
        let layout = session.layout
        let sizeRule = ScriptChecker.sizeRuleWarnings(layout, insetsFromCallback: effect.definesFunction("insetForSection"))
            .map { "\((scriptPath as NSString).lastPathComponent): warning: \($0.message)" }
        let lines = ScriptChecker.linesAcross(layout)
        guard lines > 1 else { return sizeRule.first }
        return (sizeRule + [ScriptChecker.severalLinesNote(lines: lines, viewport: layout.viewportSize,
                                                           configuration: layout.configuration)]).joined(separator: "\n")
    }
}
