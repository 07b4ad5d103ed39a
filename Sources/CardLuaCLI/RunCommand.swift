/// `cardlua run SCRIPT [options]`.
enum RunCommand {
    static func main(_ words: [String]) throws(UsageError) -> Int32 {
        let arguments = try Arguments(words, valued: RunOptions.valuedOptions, flags: RunOptions.flagOptions, command: "run")
        if CardLuaCommand.printedHelp(arguments, command: "run") { return 0 }
        let options = try RunOptions(arguments, command: "run")
        // The output is opened first, so a bad -o is reported before the script runs; a
        // regular file only appears (atomically) when the whole run succeeded.
        let output: OutputFile
        do {
            output = try options.outputPath.map(OutputFile.open) ?? OutputFile.standardOutput()
        } catch {
            Console.error(error.description)
            return 1
        }
        let toTerminal = options.outputPath == nil
        var warnings: [String] = []
        do {
            try RunPipeline.run(options, into: output, color: toTerminal && Console.wantsColor,
                                columns: toTerminal ? Console.columns : 80, warnings: &warnings)
            try output.commit()
        } catch let error as RunFailure {
            output.discard()
            CardLuaCommand.report(error)
            return 1
        } catch {
            output.discard()
            Console.error("\(error)")
            return 1
        }
        // What `check` would warn about, on standard error: the output stays clean.
        for warning in warnings { Console.error(warning) }
        return 0
    }
}

import CardLayout
