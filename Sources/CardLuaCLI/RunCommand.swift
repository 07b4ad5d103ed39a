/// `cardlua run SCRIPT [options]`.
enum RunCommand {
    static func main(_ words: [String]) throws(UsageError) -> Int32 {
        let arguments = try Arguments(words, valued: RunOptions.valuedOptions, flags: ["help"], command: "run")
        if CardLuaCommand.printedHelp(arguments, command: "run") { return 0 }
        let options = try RunOptions(arguments, command: "run")
        let timeline: Timeline
        var warnings: [String] = []
        do {
            timeline = try RunPipeline.timeline(options, warnings: &warnings)
        } catch {
            CardLuaCommand.report(error)
            return 1
        }
        // What `check` would warn about, on standard error: the output stays clean.
        for warning in warnings { Console.error(warning) }
        let toTerminal = options.outputPath == nil
        let text = RunPipeline.render(
            timeline, format: options.format, color: toTerminal && Console.wantsColor,
            columns: toTerminal ? Console.columns : 80,
            singleFrame: options.offset != nil && options.flingVelocity == nil && options.scenarioName == nil)
        if let path = options.outputPath {
            do {
                try writeAtomically(text, to: path)
            } catch {
                Console.error("cardlua: \(error)")
                return 1
            }
        } else {
            Console.out(text)
        }
        return 0
    }
}

import CardLayout
