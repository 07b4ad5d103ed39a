import CardLayout
import CardLua
import CardRender

/// The output formats of `run` and `watch`.
enum OutputFormat: String, CaseIterable {
    case text, json, svg, html
}

/// What `cardlua run` and `cardlua watch` are asked to do (README.md, "The command line").
struct RunOptions {
    var scriptPath: String
    var viewportSize = Scenario.defaultViewportSize
    var viewportGiven = false
    /// `--items`: items per section.
    var numberOfItems: [Int]?
    /// `--rtl`: right to left.
    var rightToLeft = false
    var offset: Double?
    var flingVelocity: Double?
    var scenarioName: String?
    var framesPerSecond: Double?
    var format: OutputFormat = .text
    var outputPath: String?
    /// `--frames` (or `--verbose`): the text format lists every frame, not the summary.
    var everyFrame = false
    /// `--max-output`: the most a run may write (a longer one fails, leaving no file).
    var maxOutputBytes = OutputFile.defaultByteLimit
    var limits = ScriptLimits(maxRunTime: ScriptLimits.defaultRunTime)
    /// `--param NAME=X`, in order: checked against the script's declarations once it is
    /// loaded (ParamOptions.swift).
    var params: [ParamOption] = []
    /// `--cards DIR` (or a `cards` folder beside the script): the HTML page's card images,
    /// embedded; nil for the palette and for the other formats (CardsFolder.swift).
    var pictures: CardPictures?

    /// `arguments` parsed with run's (or watch's) declaration.
    init(_ arguments: Arguments) throws(UsageError) {
        let command = arguments.command
        scriptPath = arguments.argument
        if let text = arguments.value(.viewport) {
            viewportSize = try RunOptions.parseViewport(text, command: command)
            viewportGiven = true
        }
        if let text = arguments.value(.items) { numberOfItems = try RunOptions.parseItems(text, command: command) }
        rightToLeft = arguments.isSet(.rtl)
        offset = try arguments.value(.offset).map { text throws(UsageError) in try RunOptions.parseOffset(text, command: command) }
        flingVelocity = try arguments.value(.fling).map { text throws(UsageError) in
            try RunOptions.parseNumber(text, "--fling", command)
        }
        if let text = arguments.value(.fps) {
            let fps = try RunOptions.parseNumber(text, "--fps", command)
            guard fps > 0, fps <= 1000 else {
                throw UsageError("--fps: expected a number above 0 and at most 1000 (got '\(Echo.safe(text))')", command: command)
            }
            framesPerSecond = fps
        }
        scenarioName = arguments.value(.scenario)
        if scenarioName != nil, offset != nil || flingVelocity != nil {
            throw UsageError("--scenario cannot be combined with --offset or --fling", command: command)
        }
        let output = arguments.value(.output)
        outputPath = output == "-" ? nil : output   // `-o -`: standard output
        everyFrame = arguments.isSet(.frames)  // --verbose is its alias
        if let text = arguments.value(.format) {
            guard let f = OutputFormat(rawValue: text.lowercased()) else {
                throw UsageError("--format: expected text, json, svg or html (got '\(Echo.safe(text))')", command: command)
            }
            format = f
        } else if let path = outputPath, let inferred = OutputFormat.allCases.first(where: {
            $0 != .text && path.lowercased().hasSuffix("." + $0.rawValue)
        }) {
            format = inferred  // `-o preview.html` means HTML
        }
        limits = try RunOptions.limits(arguments)
        params = try ParamOption.parse(arguments)
        if let text = arguments.value(.maxOutput) {
            guard let bytes = RunOptions.parseBytes(text), bytes >= 1 << 10 else {
                throw UsageError("--max-output: expected a size of at least 1K, like 100M or 1G (got '\(Echo.safe(text))')", command: command)
            }
            maxOutputBytes = bytes
        }
        // A bad folder is a usage error whatever the format; only HTML draws the images.
        if let folder = try CardsFolder.chosen(arguments.value(.cards), scriptPath: scriptPath, command: command),
           format == .html {
            pictures = try folder.embedded(command: command)
        }
    }

    /// `--max-steps` (or its old name `--max-instructions`), `--max-memory`, `--max-time` and
    /// `--max-run-time` (shared with `check` and `play`, which has no `--max-run-time`).
    static func limits(_ arguments: Arguments) throws(UsageError) -> ScriptLimits {
        let command = arguments.command
        var limits = ScriptLimits(maxRunTime: ScriptLimits.defaultRunTime)
        if let text = arguments.value(.maxSteps) {
            guard let n = Int(text), n > 0 else {
                throw UsageError("--max-steps: expected a positive whole number of budget steps (got '\(Echo.safe(text))')",
                                 command: command)
            }
            limits.maxSteps = n
        }
        if let text = arguments.value(.maxMemory) {
            guard let bytes = RunOptions.parseBytes(text), bytes >= 1 << 20 else {
                throw UsageError("--max-memory: expected a size of at least 1M, like 64M or 1G (got '\(Echo.safe(text))')", command: command)
            }
            limits.maxMemory = bytes
        }
        if let text = arguments.value(.maxTime) {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw UsageError("--max-time: expected seconds above 0 and at most 3600, like 1 or 0.5 (got '\(Echo.safe(text))')", command: command)
            }
            limits.maxTime = seconds
        }
        if arguments.declares(.maxRunTime), let text = arguments.value(.maxRunTime) {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UsageError("--max-run-time: expected seconds above 0 and at most 86400, like 60 (got '\(Echo.safe(text))')", command: command)
            }
            limits.maxRunTime = seconds
        }
        return limits
    }

    /// `--items 20` (one section) or `--items 5,8,3` (items per section): whole numbers
    /// of zero or more, at most ``Scenario/maxItems`` in all.
    static func parseItems(_ text: String, command: String) throws(UsageError) -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var counts: [Int] = []
        var total = 0
        for part in parts {
            guard let n = Int(part.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                throw UsageError("--items: expected a whole number of zero or more, or one per section like 5,8,3 "
                                 + "(got '\(Echo.safe(text))')", command: command)
            }
            total += min(n, Scenario.maxItems + 1)
            guard total <= Scenario.maxItems else {
                throw UsageError("--items: at most \(Scenario.maxItems) items in all (got '\(Echo.safe(text))')", command: command)
            }
            counts.append(n)
        }
        return counts
    }

    static func parseViewport(_ text: String, command: String) throws(UsageError) -> Size {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              Scenario.viewportExtentRange.contains(w), Scenario.viewportExtentRange.contains(h) else {
            throw UsageError("--viewport: expected WxH with sizes from 1 to 100000, like 414x736 (got '\(Echo.safe(text))')", command: command)
        }
        return Size(width: w, height: h)
    }

    /// `--offset X`: a number within ±``Scenario/maximumMagnitude``, where frames stay
    /// exact (an endless carousel far beyond it would show nothing).
    static func parseOffset(_ text: String, command: String) throws(UsageError) -> Double {
        let offset = try parseNumber(text, "--offset", command)
        guard abs(offset) <= Scenario.maximumMagnitude else {
            let bound = Scenario.maximumMagnitudeText
            throw UsageError("--offset: expected a number from -\(bound) to \(bound), where frames stay exact "
                             + "(got '\(Echo.safe(text))')", command: command)
        }
        return offset
    }

    static func parseNumber(_ text: String, _ option: String, _ command: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(option): expected a number (got '\(Echo.safe(text))')", command: command)
        }
        return value
    }

    /// "64M", "1G", "65536", "512K".
    static func parseBytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        var body = text.lowercased()
        if body.hasSuffix("ib") { body.removeLast(2) } else if body.hasSuffix("b") { body.removeLast() }
        var multiplier = 1
        if let last = body.last, let unit = units[last] { multiplier = unit; body.removeLast() }
        guard let value = Double(body), value.isFinite, value > 0, value * Double(multiplier) < 1e15 else { return nil }
        return Int(value * Double(multiplier))
    }
}
