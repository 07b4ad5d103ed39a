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
    /// Wrong usage the script revealed (a `--param` it does not declare or whose value
    /// is out of its range): exit status 2.
    var isUsage = false
}

/// Script + options → a run streamed through a renderer into an output. Shared by `run`
/// and `watch`.
///
/// Memory stays bounded whatever the run's length: the scenario runner hands each frame
/// on as it is made; JSON and every-frame text are written frame by frame, the text
/// summary keeps the releases, one entry per phase and the last frame, and the animated
/// SVG and the HTML page (which need the whole timeline at once) keep at most
/// ``TimelineThinner/defaultMaximumFrames`` frames, evenly thinned.
enum RunPipeline {
    /// Whether the options ask for one frame (a still SVG, an HTML page opened at it).
    static func isSingleFrame(_ options: RunOptions) -> Bool {
        options.offset != nil && options.flingVelocity == nil && options.scenarioName == nil
    }

    /// Runs the script and writes the rendered output into `output` as the run goes.
    /// Returns the number of frames made. The caller commits or discards `output`.
    @discardableResult
    ///
    /// `warnings` receives the lines `check` would warn about that the run saw (unknown
    /// keys, dropped transform results), each once, as `file:line: warning: …`. They
    /// never fail the run.
    static func run(_ options: RunOptions, into output: any TextOutput, color: Bool, columns: Int,
                    reloadStamp: String? = nil, warnings: inout [String]) throws(RunFailure) -> Int {
        let renderer: any TimelineSink
        switch options.format {
        case .text:
            renderer = TextTimelineWriter(output: output, mode: options.everyFrame ? .everyFrame : .summary,
                                          columns: max(20, min(columns, 160) - 2), color: color)
        case .json:
            renderer = JSONTimelineWriter(output: output)
        case .svg, .html:
            let single = isSingleFrame(options)
            let format = options.format, pictures = options.pictures
            renderer = WholeTimelineRenderer(output: output) { timeline in
                render(timeline, format: format, singleFrame: single, reloadStamp: reloadStamp, pictures: pictures)
            }
        }
        let sink = PipelineSink(renderer)
        try run(options, into: sink, warnings: &warnings)
        return sink.frames
    }

    private static func run(_ options: RunOptions, into sink: PipelineSink,
                            warnings: inout [String]) throws(RunFailure) {
        var loaded: LuaEffect?  // for the line of a scenario's definition
        do {
            let effect = try LuaEffect(path: options.scriptPath, limits: options.limits)
            loaded = effect
            do {
                try effect.setParams(LuaEffect.parseParams(options.params.overrides, against: effect.params))
            } catch {
                throw RunFailure(message: ParamOption.message(error, in: options.params), details: "", isUsage: true)
            }
            // By name (machine output keeps one order; the page shows the script's).
            sink.params = effect.params.sorted { $0.name < $1.name }.map { ParamValue(name: $0.name, value: $0.value) }
            // Unknown keys are noted on one frame in four: cheap, and a typo shows up on
            // any frame.
            effect.keyNoteInterval = 4
            defer {
                // UIKit's size rule, at each viewport the run laid out (after a run that
                // finished: prepare is called again for it, as the run called it).
                let layouts = sink.viewports.compactMap { size in
                    try? ScenarioRunner(effect: effect, scriptName: "size rule")
                        .preparedLayout(viewportSize: size, numberOfItems: sink.numberOfItems)
                }
                warnings = ScriptChecker.warnings(after: effect, path: options.scriptPath, layouts: layouts)
                    .map { $0.formatted(file: options.scriptPath) }
            }
            sink.hasSnapRule = effect.definesFunction("targetContentOffset")
            let name = (options.scriptPath as NSString).lastPathComponent
            let runner = ScenarioRunner(effect: effect, scriptName: name)
            let items = options.numberOfItems ?? Scenario.defaultNumberOfItems
            let direction: UserInterfaceLayoutDirection = options.rightToLeft ? .rightToLeft : .leftToRight
            let fps = options.framesPerSecond ?? Scenario.defaultFramesPerSecond
            if let scenarioName = options.scenarioName {
                let defaults = Scenario(name: scenarioName, viewportSize: options.viewportSize,
                                        numberOfItems: items, framesPerSecond: fps, steps: [])
                var scenario = try effect.scenario(named: scenarioName, defaults: defaults)
                // What the command line says explicitly wins over the script's table.
                if options.viewportGiven { scenario.viewportSize = options.viewportSize }
                if let n = options.numberOfItems { scenario.numberOfItems = n }
                if options.rightToLeft { scenario.layoutDirection = .rightToLeft }
                if let f = options.framesPerSecond { scenario.framesPerSecond = f }
                return try runner.run(scenario, into: sink)
            }
            if let velocity = options.flingVelocity {
                var scenario = Scenario.fling(from: options.offset ?? 0, velocity: velocity,
                                              viewportSize: options.viewportSize, numberOfItems: items,
                                              framesPerSecond: fps)
                scenario.layoutDirection = direction
                return try runner.run(scenario, into: sink)
            }
            if let offset = options.offset {
                var scenario = Scenario.single(offset: offset, viewportSize: options.viewportSize,
                                               numberOfItems: items, framesPerSecond: fps)
                scenario.layoutDirection = direction
                return try runner.run(scenario, into: sink)
            }
            return try runner.runDemo(viewportSize: options.viewportSize, numberOfItems: items,
                                      framesPerSecond: fps, layoutDirection: direction, into: sink)
        } catch let failure as RunFailure {
            throw failure
        } catch let error as ScriptError {
            throw RunFailure(message: shown(error.message, path: options.scriptPath), details: error.details)
        } catch let error as ScenarioError {
            let line = loaded?.scenarioLine(named: options.scenarioName) ?? 1
            throw RunFailure(message: "\(Echo.safe(options.scriptPath)):\(line): \(error)", details: "")
        } catch let error as OutputError {
            throw RunFailure(message: error.description, details: "")
        } catch {
            throw RunFailure(message: "\(Echo.safe(options.scriptPath)): \(error)", details: "")
        }
    }

    /// `message` (`path: …`, `path:line: …`) with the script's path as messages show any
    /// value a user gave: control characters escaped, cut when long (``Echo``).
    static func shown(_ message: String, path: String) -> String {
        guard message.utf8.starts(with: path.utf8) else { return message }
        return Echo.safe(path) + String(decoding: message.utf8.dropFirst(path.utf8.count), as: UTF8.self)
    }

    /// The animated or single-frame SVG, or the HTML page, of a whole (thinned) timeline;
    /// `singleFrame` draws or opens at its first frame.
    static func render(_ timeline: Timeline, format: OutputFormat, singleFrame: Bool,
                       reloadStamp: String? = nil, pictures: CardPictures? = nil) -> String {
        if format == .html {
            return HTMLRenderer.render(timeline: timeline, frameIndex: singleFrame ? 0 : nil,
                                       reloadStampFile: reloadStamp, pictures: pictures)
        }
        if singleFrame, let frame = timeline.frames.first {
            return SVGRenderer.render(frame: frame, timeline: timeline)
        }
        return SVGRenderer.renderAnimated(timeline: timeline)
    }
}

/// Between the runner and a renderer: marks whether the effect has a snap rule (the
/// runner cannot know) and counts frames.
private final class PipelineSink: TimelineSink {
    let inner: any TimelineSink
    var hasSnapRule = true
    /// The script's tweakables and the values used (the JSON's `params`).
    var params: [ParamValue] = []
    private(set) var frames = 0
    /// The viewports of a run that ended (its scenario's, then each resize's), once each;
    /// empty until it ends.
    private(set) var viewports: [Size] = []
    /// Items per section of the run that ended.
    private(set) var numberOfItems: [Int] = []

    init(_ inner: any TimelineSink) { self.inner = inner }

    func begin(_ header: Timeline) throws {
        var header = header
        header.hasSnapRule = hasSnapRule
        header.params = params
        try inner.begin(header)
    }

    func frame(_ frame: Frame) throws {
        frames += 1
        try inner.frame(frame)
    }

    func snap(_ snap: SnapEvent) throws { try inner.snap(snap) }

    func end(_ summary: Timeline) throws {
        var summary = summary
        summary.hasSnapRule = hasSnapRule
        summary.params = params
        try inner.end(summary)
        var sizes = [summary.viewportSize]
        for step in summary.scenario?.steps ?? [] {
            if case let .resize(size) = step, !sizes.contains(size) { sizes.append(size) }
        }
        viewports = sizes
        numberOfItems = summary.scenario?.numberOfItems ?? Scenario.defaultNumberOfItems
    }
}

/// Renders formats that need the whole timeline (the animated SVG, the HTML page) from a
/// bounded, evenly thinned sample of it (``TimelineThinner``), at the end of the run.
private final class WholeTimelineRenderer: TimelineSink {
    let output: any TextOutput
    let thinner = TimelineThinner()
    let render: (Timeline) -> String

    init(output: any TextOutput, render: @escaping (Timeline) -> String) {
        self.output = output
        self.render = render
    }

    func begin(_ header: Timeline) throws { try thinner.begin(header) }
    func frame(_ frame: Frame) throws { try thinner.frame(frame) }
    func snap(_ snap: SnapEvent) throws { try thinner.snap(snap) }

    func end(_ summary: Timeline) throws {
        try thinner.end(summary)
        if let timeline = thinner.timeline { try output.write(render(timeline)) }
    }
}
