import CardLayout
import CardLua
import CardServe
import Foundation

/// Record: what happens in the page, from a start (or the page's opening, or a save),
/// as a `scenarios` block to paste into the script and replay with `cardlua run`.
extension Playground {
    /// What ``record(_:)`` answers when recording stops: the `scenarios` block.
    struct RecordAnswer: Codable, Equatable {
        var lua: String
    }

    /// `POST /record`: `{"t", "action": "start"}` starts recording at the page's `t`;
    /// `{"t", "action": "stop"}` (or no action) answers `{"lua": …}`, what happened since
    /// the start (since the page opened or the script was saved without one) as a
    /// `scenarios` block, rounded (0.001 s, 0.01 pt, 0.001 pt/ms).
    func record(_ body: [UInt8]) -> HTTPResponse {
        let fields = Self.fields(body)
        let t = Self.pageTime(fields?["t"] as? Double) ?? session.state.time
        if fields?["action"] as? String == "start" {
            do {
                try session.skipFrames(until: t)
                try session.startRecording(at: t)
            } catch {
                return .status(400, message: String(describing: error))
            }
            return answerNow()
        }
        var block = ScenarioLuaFormatter.scenariosBlock([Self.rounded(session.recordedScenario(named: "recorded"))])
        let set = effect.params.filter { $0.value != $0.defaultValue }
        if !set.isEmpty {  // the replay needs the same values
            block = "-- recorded with " + set.map { "--param \($0.name)=\($0.value)" }
                .joined(separator: " ") + "\n" + block
        }
        return .json(PlayJSON.text(RecordAnswer(lua: block)))
    }

    /// A recording as a person reads it: seconds to 0.001, points to 0.01, velocities to
    /// 0.001 pt/ms (the page sends drags and velocities on that grid already, so the
    /// replay makes the same releases); waits that round to nothing dropped.
    static func rounded(_ scenario: Scenario) -> Scenario {
        func r(_ x: Double, _ places: Double) -> Double {
            let k = pow(10, places)
            let y = (x * k).rounded() / k
            return y == 0 ? 0 : y  // no -0
        }
        var copy = scenario
        copy.steps = scenario.steps.compactMap { step -> ScenarioStep? in
            switch step {
            case let .jump(offset): return .jump(offset: r(offset, 2))
            case let .drag(distance, seconds, velocity):
                return .drag(by: r(distance, 2), duration: r(seconds, 3), velocity: velocity.map { r($0, 3) })
            case let .fling(velocity): return .fling(velocity: r(velocity, 3))
            case let .wait(seconds): return r(seconds, 3) > 0 ? .wait(duration: r(seconds, 3)) : nil
            case let .scrollToItem(indexPath, seconds): return .scrollToItem(indexPath, duration: r(seconds, 3))
            case let .autoplay(interval, seconds): return .autoplay(interval: r(interval, 3), duration: r(seconds, 3))
            case .resize: return step
            }
        }
        return copy
    }
}
