import CardLayout
import CardServe

/// The page's input and the frames it asks for: a touch, a drag, a release, the wheel,
/// a step, a resize (`POST /input`), more frames of a motion (`POST /frames`), and the
/// frame at the latest event every answer starts with.
extension Playground {
    /// `POST /input` (`{"type", "t", "x", "y"}`, see ``handle(_:)``): the input applied at
    /// the page's `t`, answered with the state, the frame at `t` and, after an input that
    /// starts a motion (a release, a step, a resize), ``lookahead`` seconds of frames.
    func input(_ body: [UInt8]) -> HTTPResponse {
        guard let fields = Self.fields(body), let type = fields["type"] as? String else {
            return .status(400, message: "expected a JSON object with a \"type\"")
        }
        func value(_ key: String) -> Double? {
            guard let x = fields[key] as? Double else { return nil }
            return x.isFinite && abs(x) <= 1e7 ? x : nil
        }
        guard let t = value("t"), t >= 0 else { return .status(400, message: "\"t\": expected seconds from 0 to 1e7") }
        reloadIfChanged(at: t)
        let x = value("x") ?? 0, y = value("y") ?? 0
        // Any other input ends a run of steps (a touch, the wheel, a resize move the content).
        var stepped: (item: CardIndexPath, until: Double)?
        defer { stepTarget = stepped }
        do {
            var ahead = false
            switch type {
            case "down":
                try session.touchDown(at: t)
            case "move":
                try session.drag(to: Point(x: x, y: y), at: t)
            case "up":
                try session.release(velocity: Point(x: x, y: y), at: t)
                ahead = true
            case "wheel":
                try session.scroll(byWheel: Point(x: x, y: y), at: t)
            case "step":
                // While the previous step's scroll still runs, the next one goes on from the
                // item it was sent to, not from the item under the centre (still the old one).
                let queued = stepTarget.flatMap { t < $0.until ? $0.item : nil }
                let current = queued ?? session.state(at: t).centredItem ?? CardIndexPath(item: 0, section: 0)
                let count = session.numberOfItems.indices.contains(current.section)
                    ? session.numberOfItems[current.section] : 0
                guard count > 0 else { break }
                // Right to left the next item is on the left: ← moves forward.
                let mirrored = session.layoutDirection == .rightToLeft
                    && session.configuration.flipsHorizontallyInOppositeLayoutDirection
                    && session.configuration.scrollDirection == .horizontal
                let forward = (x < 0) == mirrored
                let item = min(max(current.item + (forward ? 1 : -1), 0), count - 1)
                let target = CardIndexPath(item: item, section: current.section)
                try session.scrollToItem(target, at: t)
                stepped = (target, t + ScrollPhysics.defaultScrollAnimationDuration)
                ahead = true
            case "resize":
                guard x > 0, y > 0 else { return .status(400, message: "resize: expected positive x and y") }
                try session.resize(to: Size(width: x, height: y), at: t)
                ahead = true
            default:
                return .status(400, message: "unknown input type '\(type)'")
            }
            // The page shows the present: frames before it are not wanted any more.
            try session.skipFrames(until: t)
            var frames = [try makeFrameNow()]
            if ahead { frames += try session.frames(until: t + lookahead) }
            frameError = nil
            return .json(answer(frames: frames))
        } catch let failure as InteractiveScrollView.InputError {
            return .status(400, message: failure.description)
        } catch {
            failed(error)
            return .json(answer(frames: []))
        }
    }

    /// `POST /frames?now=T&until=T`: the frames of the motion under way up to `until` (at
    /// most ``maxAhead`` past the page's `now`); those more than a frame and a half before
    /// `now` are skipped, the page is past them.
    func framesAnswer(now: Double, until: Double) -> String {
        do {
            try session.skipFrames(until: max(0, now - 1.5 / session.framesPerSecond))
            let frames = try session.frames(until: min(until, now + maxAhead))
            frameError = nil
            return answer(frames: frames)
        } catch {
            failed(error)
            return answer(frames: [])
        }
    }

    /// The frame at the latest event, made now (the engine's own frames start after it),
    /// as every frame is made. Nil (and the error kept) when the script fails.
    func frameNow() -> Frame? {
        do {
            return try makeFrameNow()
        } catch {
            failed(error)
            return nil
        }
    }

    /// The session's own frame at the latest event: the same frame path as `run`'s (the
    /// script's element query, the per-frame caps, `transform`), never a shortcut of its own.
    private func makeFrameNow() throws -> Frame {
        try session.frameAtLatestEvent()
    }
}
