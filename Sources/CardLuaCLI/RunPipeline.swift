import CardLayout
import CardLua
import CardRender
import Foundation

/// Why a run produced no output: the script failed (exit 1).
struct RunFailure: Error {
    /// One line, `file:line: message`.
    var message: String
    /// Further lines (a traceback), possibly empty.
    var details: String
}

/// Script + options → timeline → rendered text. Shared by `run` and `watch`.
enum RunPipeline {
    /// The run's timeline; `warnings` receives the lines `check` would warn about that the
    /// run saw (unknown keys, dropped transform results), each once, as
    /// `file:line: warning: …`. They never fail the run.
    static func timeline(_ options: RunOptions, warnings: inout [String]) throws(RunFailure) -> Timeline {
        do {
            let effect = try LuaEffect(path: options.scriptPath, limits: options.limits)
            // Unknown keys are noted on one frame in four: cheap, and a typo shows up on
            // any frame.
            effect.keyNoteInterval = 4
            let timeline = try timeline(effect, options)
            warnings = ScriptChecker.warnings(after: effect, path: options.scriptPath)
                .map { $0.formatted(file: options.scriptPath) }
            return timeline
        } catch let error as ScriptError {
            throw RunFailure(message: located(error.message, options), details: error.details)
        } catch let error as ScenarioError {
            throw RunFailure(message: "\(options.scriptPath):\(scenarioLine(options)): \(error)", details: "")
        } catch {
            throw RunFailure(message: "\(options.scriptPath): \(error)", details: "")
        }
    }

    private static func timeline(_ effect: LuaEffect, _ options: RunOptions) throws -> Timeline {
        let name = (options.scriptPath as NSString).lastPathComponent
        let runner = ScenarioRunner(effect: effect, scriptName: name)
        let items = [options.numberOfItems ?? Scenario.defaultNumberOfItems[0]]
        let fps = options.framesPerSecond ?? Scenario.defaultFramesPerSecond
        if let scenarioName = options.scenarioName {
            let defaults = Scenario(name: scenarioName, viewportSize: options.viewportSize,
                                    numberOfItems: items, framesPerSecond: fps, steps: [])
            var scenario = try effect.scenario(named: scenarioName, defaults: defaults)
            // What the command line says explicitly wins over the script's table.
            if options.viewportGiven { scenario.viewportSize = options.viewportSize }
            if let n = options.numberOfItems { scenario.numberOfItems = [n] }
            if let f = options.framesPerSecond { scenario.framesPerSecond = f }
            return try runner.run(scenario)
        }
        if let velocity = options.flingVelocity {
            return try runner.run(.fling(from: options.offset ?? 0, velocity: velocity,
                                         viewportSize: options.viewportSize, numberOfItems: items,
                                         framesPerSecond: fps))
        }
        if let offset = options.offset {
            return try runner.run(.single(offset: offset, viewportSize: options.viewportSize,
                                          numberOfItems: items, framesPerSecond: fps))
        }
        return try runner.runDemo(viewportSize: options.viewportSize, numberOfItems: items,
                                  framesPerSecond: fps)
    }

    /// The output for `format`; `frameIndex` picks the frame of a single-frame SVG.
    static func render(_ timeline: Timeline, format: OutputFormat, color: Bool, columns: Int,
                       singleFrame: Bool, reloadStamp: String? = nil) -> String {
        switch format {
        case .text:
            return TextRenderer.render(timeline, columns: max(20, min(columns, 160) - 2), color: color)
        case .json:
            return JSONRenderer.render(timeline)
        case .svg:
            if singleFrame, let frame = timeline.frames.first {
                return SVGRenderer.render(frame: frame, timeline: timeline)
            }
            return SVGRenderer.renderAnimated(timeline: timeline)
        case .html:
            return HTMLRenderer.render(timeline: timeline, frameIndex: singleFrame ? 0 : nil,
                                       reloadStampFile: reloadStamp)
        }
    }

    /// Messages about a scenario carry no line from Lua; point at the scenario's
    /// definition in the script when it can be found.
    private static func located(_ message: String, _ options: RunOptions) -> String {
        let unlocated = "\(options.scriptPath):1: "
        guard options.scenarioName != nil, message.hasPrefix(unlocated), message.contains("scenario")
        else { return message }
        return "\(options.scriptPath):\(scenarioLine(options)): " + message.dropFirst(unlocated.count)
    }

    /// The line where the scenario (or the scenarios table) is defined, or 1.
    private static func scenarioLine(_ options: RunOptions) -> Int {
        guard let source = try? String(contentsOfFile: options.scriptPath, encoding: .utf8) else { return 1 }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let name = options.scenarioName ?? ""
        let patterns = name.isEmpty ? ["scenarios"] : ["\(name) =", "\(name)=", "[\"\(name)\"]", "scenarios"]
        for pattern in patterns {
            if let index = lines.firstIndex(where: { $0.contains(pattern) }) { return index + 1 }
        }
        return 1
    }
}
