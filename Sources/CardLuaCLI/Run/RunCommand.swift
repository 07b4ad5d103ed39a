import CardLayout

/// `cardlua run SCRIPT [options]`.
enum RunCommand {
    static func main(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, command: "run")
        if CardLuaCommand.printedHelp(arguments, command: "run") { return 0 }
        let options = try RunOptions(arguments, command: "run")
        // The output is opened first, so a bad -o is reported before the script runs; a
        // regular file only appears (atomically) when the whole run succeeded.
        let output = try options.outputPath.map(OutputFile.open) ?? OutputFile.standardOutput()
        output.byteLimit = options.maxOutputBytes
        let toTerminal = options.outputPath == nil
        var warnings: [String] = []
        do {
            try RunPipeline.run(options, into: output, color: toTerminal && Console.wantsColor,
                                columns: toTerminal ? Console.columns : 80, warnings: &warnings)
            try output.commit()
        } catch {
            output.discard()
            // The warnings may explain the failure (a misspelt callback): they come first.
            for warning in warnings { Console.error(warning) }
            throw error  // CardLuaCommand reports it
        }
        // What `check` would warn about, on standard error: the output stays clean.
        for warning in warnings { Console.error(warning) }
        return 0
    }
}
