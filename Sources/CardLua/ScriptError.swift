/// Why a script could not be run to the end.
///
/// `message` is one line, `file:line: callback: item N: what happened`, ready for
/// standard error; `details` holds the rest (the script's own traceback), possibly empty.
/// An error from the Lua host also carries its parts as typed fields (`line`,
/// `callback`, `item`, `field`, `limit`, `text`), so that nothing has to parse `message`
/// back; `message` is formatted from them once, by ``ScriptError/format(file:line:callback:item:text:)``.
public struct ScriptError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, broadly.
    public enum Kind: Sendable, Equatable {
        /// The script file could not be read.
        case unreadable
        /// A syntax error, a runtime error, or a value that breaks the script contract.
        case failed
        /// The budget of steps, the memory cap or the time limit stopped the script.
        /// The Lua state is discarded: the effect cannot be used again.
        case limit
    }

    /// Which limit stopped a script (with ``Kind/limit``).
    /// (`instructions` is the budget of steps, named from when it counted VM instructions.)
    public enum Limit: Sendable, Equatable {
        case instructions, memory, time, runTime, other
    }

    public var kind: Kind
    public var message: String
    public var details: String
    /// The script's file as shown in messages, when the error came from the host.
    public var file: String?
    /// The script's line the error belongs to; nil when none applies (shown as 1).
    public var line: Int?
    /// The callback under way (`transform`, `prepare`…), if any.
    public var callback: String?
    /// The item `transform` was called for, if any.
    public var item: Int?
    /// The `attributes` key whose value was refused after the call (`alpha`, `center`).
    public var field: String?
    /// Which limit, for ``Kind/limit``.
    public var limit: Limit?
    /// What happened, without location or context (`message` is this, located).
    public var text: String

    public init(kind: Kind, message: String, details: String = "") {
        self.kind = kind
        self.message = message
        self.details = details
        self.text = message
    }

    /// An error with its parts; `message` is formatted from them.
    public init(kind: Kind, file: String, line: Int?, callback: String? = nil, item: Int? = nil,
                field: String? = nil, limit: Limit? = nil, text: String, details: String = "") {
        self.kind = kind
        self.file = file
        self.line = line
        self.callback = callback
        self.item = item
        self.field = field
        self.limit = limit
        self.text = text
        self.details = details
        self.message = ScriptError.format(file: file, line: line, callback: callback, item: item, text: text)
    }

    /// `file:line: callback: item N: text` (line 1 when none applies).
    public static func format(file: String, line: Int?, callback: String?, item: Int?, text: String) -> String {
        "\(file):\(line ?? 1): " + context(callback: callback, item: item) + text
    }

    /// `callback: item N: ` (or less).
    static func context(callback: String?, item: Int?) -> String {
        guard let callback else { return "" }
        return item.map { "\(callback): item \($0): " } ?? "\(callback): "
    }

    /// The message without its location: `callback: item N: text`.
    public var unlocated: String {
        file == nil ? message : ScriptError.context(callback: callback, item: item) + text
    }

    /// The same error at another line (the message follows).
    public func at(line: Int?) -> ScriptError {
        guard let file else { return self }
        var moved = self
        moved.line = line
        moved.message = ScriptError.format(file: file, line: line, callback: callback, item: item, text: text)
        return moved
    }

    public var description: String { message }
}

/// The limits every callback call runs under (Sources/CLuaShims/README.md). The defaults are far above
/// what an honest effect needs (microseconds and a few hundred steps per item).
public struct ScriptLimits: Sendable, Equatable {
    /// Budget steps per callback call (per item for `transform`). A step estimates a Lua
    /// VM instruction: the budget's checkpoints, at each loop pass and function call,
    /// charge half the tokens of the code they guard, which the catalogue's demos measure
    /// at 1.3 to 2.5 steps per instruction stock Lua runs (docs/architecture.md#bounds);
    /// library functions charge their C work to it too (pattern steps, table elements,
    /// bytes allocated).
    public var maxSteps: Int
    /// The old name of ``maxSteps``: the budget counted VM instructions before it counted
    /// at checkpoints.
    @available(*, deprecated, renamed: "maxSteps")
    public var maxInstructions: Int {
        get { maxSteps }
        set { maxSteps = newValue }
    }
    /// Bytes the Lua state may hold.
    public var maxMemory: Int
    /// Seconds of wall-clock time per callback call: a backstop for C work the budget
    /// cannot see. Zero or less: none.
    /// `transform` is one call per frame: the whole frame, all its items, gets this much.
    public var maxTime: Double
    /// Seconds of wall-clock time for everything the effect runs, from its creation:
    /// a run of many frames each within `maxTime` still ends. Infinity or NaN: none;
    /// past 10⁹ s (about 31 years): 10⁹ s. Zero or less: none (the
    /// default here, for effects that live long, like the benchmark's;
    /// `cardlua run`/`watch` default to ``ScriptLimits/defaultRunTime``).
    public var maxRunTime: Double

    /// Limits for an app that calls the effect at display rate (60–120 Hz): a frame has
    /// 8–16 ms in all, so a script gets at most 8 ms of wall-clock time per callback call
    /// (one whole frame for `transform`), 1 000 000 steps per call (per item for
    /// `transform`, as ``maxSteps`` counts) and 16 MiB of memory. A runaway script then costs a dropped frame or two, not a hang;
    /// an honest carousel effect uses microseconds.
    public static let interactive = ScriptLimits(maxSteps: 1_000_000, maxMemory: 16 << 20,
                                                 maxTime: 0.008, maxRunTime: 0)

    /// `cardlua run` and `watch`'s time limit for a whole run (`--max-run-time`).
    public static let defaultRunTime: Double = 60

    public init(maxSteps: Int = 10_000_000, maxMemory: Int = 64 << 20, maxTime: Double = 2,
                maxRunTime: Double = 0) {
        self.maxSteps = maxSteps
        self.maxMemory = maxMemory
        self.maxTime = maxTime
        self.maxRunTime = maxRunTime
    }

    /// The old spelling of ``init(maxSteps:maxMemory:maxTime:maxRunTime:)``.
    @available(*, deprecated, renamed: "init(maxSteps:maxMemory:maxTime:maxRunTime:)")
    public init(maxInstructions: Int, maxMemory: Int = 64 << 20, maxTime: Double = 2, maxRunTime: Double = 0) {
        self.init(maxSteps: maxInstructions, maxMemory: maxMemory, maxTime: maxTime, maxRunTime: maxRunTime)
    }
}
