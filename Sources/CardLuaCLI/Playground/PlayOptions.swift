import CardLayout
import CardLua
import Foundation

/// What `cardlua play` is asked to do.
struct PlayOptions {
    /// The script to start with: the one given, or a folder's first (``PlayFolder``).
    var scriptPath: String
    /// `cardlua play FOLDER`: the folder whose scripts the page's picker offers.
    var folder: String?
    var port = PlayCommand.defaultPort
    var viewportSize = Scenario.defaultViewportSize
    var numberOfItems: [Int]?
    var rightToLeft = false
    var limits = ScriptLimits()
    /// `--param NAME=X`: the tweakables' values at the start (the sliders move them).
    var params: [ParamOption] = []
    /// `--cards DIR` (or a `cards` folder beside the script): served at `/cards/N`.
    var cards: CardsFolder?
    /// `--lan` (and the tests' `--lan-address`): LANAccess.swift.
    var lan = false
    var lanAddress: String?

    /// `arguments` parsed with play's declaration.
    init(_ arguments: Arguments) throws(UsageError) {
        let command = arguments.command
        let script = arguments.argument
        scriptPath = script
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: script, isDirectory: &isFolder), isFolder.boolValue {
            guard let first = PlayFolder(path: script).scripts().first else {
                throw UsageError("no .lua scripts in the folder '\(Echo.safe(script))'", command: command)
            }
            folder = script
            scriptPath = PlayFolder(path: script).path(of: first)
        }
        if let text = arguments.value(.port) {
            guard let n = UInt16(text) else {
                throw UsageError("--port: expected a port number from 0 to 65535 (got '\(Echo.safe(text))')", command: command)
            }
            port = n
        }
        if let text = arguments.value(.viewport) { viewportSize = try RunOptions.parseViewport(text, command: command) }
        if let text = arguments.value(.items) { numberOfItems = try RunOptions.parseItems(text, command: command) }
        rightToLeft = arguments.isSet(.rtl)
        limits = try RunOptions.limits(arguments)
        // A live session has no whole-run limit (run's --max-run-time): it lasts as long
        // as the page is open; the per-call limits apply to every answer.
        limits.maxRunTime = 0
        params = try ParamOption.parse(arguments)
        cards = try CardsFolder.chosen(arguments.value(.cards), scriptPath: script, command: command)
        (lan, lanAddress) = try PlayLANServer.options(arguments)
    }
}
