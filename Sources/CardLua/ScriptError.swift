/// Why a script could not be run to the end.
///
/// `message` is one line, `file:line: callback: item N: what happened`, ready for
/// standard error; `details` holds the rest (the script's own traceback), possibly empty.
public struct ScriptError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, broadly.
    public enum Kind: Sendable, Equatable {
        /// The script file could not be read.
        case unreadable
        /// A syntax error, a runtime error, or a value that breaks the script contract.
        case failed
        /// The instruction budget, the memory cap or the time limit stopped the script.
        /// The Lua state is discarded: the effect cannot be used again.
        case limit
    }

    public var kind: Kind
    public var message: String
    public var details: String

    public init(kind: Kind, message: String, details: String = "") {
        self.kind = kind
        self.message = message
        self.details = details
    }

    /// Splits a host message into its first line and the rest.
    init(kind: Kind, hostMessage: String) {
        if let newline = hostMessage.firstIndex(of: "\n") {
            self.init(kind: kind, message: String(hostMessage[..<newline]),
                      details: String(hostMessage[hostMessage.index(after: newline)...]))
        } else {
            self.init(kind: kind, message: hostMessage)
        }
    }

    public var description: String { message }
}

/// The limits every callback call runs under (Sources/CLuaShims/README.md). The defaults are far above
/// what an honest effect needs (microseconds and a few hundred instructions per item).
public struct ScriptLimits: Sendable, Equatable {
    /// Lua VM instructions per callback call (per item for `transform`); library functions
    /// charge their C work to it too (pattern steps, table elements, bytes allocated).
    public var maxInstructions: Int
    /// Bytes the Lua state may hold.
    public var maxMemory: Int
    /// Seconds of wall-clock time per callback call: a backstop for C work the budget
    /// cannot see. Zero or less: none.
    /// `transform` is one call per frame: the whole frame, all its items, gets this much.
    public var maxTime: Double
    /// Seconds of wall-clock time for everything the effect runs, from its creation:
    /// a run of many frames each within `maxTime` still ends. Zero or less: none (the
    /// default here, for effects that live long, like the benchmark's;
    /// `cardlua run`/`watch` default to ``ScriptLimits/defaultRunTime``).
    public var maxRunTime: Double

    /// `cardlua run` and `watch`'s time limit for a whole run (`--max-run-time`).
    public static let defaultRunTime: Double = 60

    public init(maxInstructions: Int = 10_000_000, maxMemory: Int = 64 << 20, maxTime: Double = 2,
                maxRunTime: Double = 0) {
        self.maxInstructions = maxInstructions
        self.maxMemory = maxMemory
        self.maxTime = maxTime
        self.maxRunTime = maxRunTime
    }
}
