/// Every option of every subcommand, by the name it is spelt with (`--viewport`; `o` for
/// `-o`). Parsed values are read with these keys (``Arguments/value(_:)``,
/// ``Arguments/isSet(_:)``), so a mistyped option name does not compile. Whether an option
/// takes a value, and what its help says, is each command's own declaration
/// (``OptionSpec``): `--frames` is a flag of `run` and takes a count in `bench`.
enum OptionKey: String, CaseIterable, Sendable {
    case viewport, items, rtl, offset, fling, scenario, fps, format
    case output = "o"
    case frames
    case maxOutput = "max-output"
    case param, cards
    case maxSteps = "max-steps"
    case maxMemory = "max-memory"
    case maxTime = "max-time"
    case maxRunTime = "max-run-time"
    case port, lan
    case lanAddress = "lan-address"
    case strict
    case from, list
    case only
    case className = "class"
    case check
    case swiftui
    case viewName = "name"
    case tests
    case testModule = "test-module"
    case app
    case iterations
    case repeats = "repeat"
    case twin, lua, stock, scale
    case coldRun = "cold-run"
    case watchLatency = "watch-latency"
    case markdown, targets, smoke

    /// The name as messages spell it: `-o`, `--viewport`.
    var spelled: String { rawValue.count == 1 ? "-" + rawValue : "--" + rawValue }
}
