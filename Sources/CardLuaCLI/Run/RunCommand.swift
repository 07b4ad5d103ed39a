import CardLayout

/// `cardlua run SCRIPT [options]`.
enum RunCommand {
    static let declaration = CommandDeclaration(
        name: "run", synopsis: "run SCRIPT [options]", summary: "run a scenario, print or write the result",
        arguments: .one("SCRIPT", missing: "the script to run", extraHint: "one script at a time"),
        options: [
            OptionTable.viewport,
            OptionSpec(.items, value: "N[,N…]",
                       summary: "items per section, like 20 or 5,8,3 (at most \(Scenario.maxItems) in all)",
                       defaultText: Scenario.defaultNumberOfItems.map(String.init).joined(separator: ",")),
            OptionTable.rightToLeft,
            OptionSpec(.offset, value: "X", summary: "one frame at content offset X on the scroll axis"),
            OptionSpec(.fling, value: "V",
                       summary: "release at --offset (default 0) with velocity V pt/ms, frames until rest"),
            OptionSpec(.scenario, value: "NAME", summary: "a scenario the script defines",
                       defaultText: "the demo", defaultInWords: true),
            OptionSpec(.fps, value: "N", summary: "frames per second of a timeline",
                       defaultText: OptionTable.number(Scenario.defaultFramesPerSecond)),
            OptionSpec(.format, value: "F",
                       summary: OutputFormat.allCases.map(\.rawValue).joined(separator: " | "),
                       defaultText: "text, or from the -o file's extension"),
            OptionSpec(.output, aliases: ["output"], value: "FILE",
                       summary: "write there (atomically) instead of standard output; - is standard output"),
            OptionSpec(.frames, aliases: ["verbose"], summary: "text: every frame, not the one-screen summary"),
            OptionSpec(.maxOutput, value: "SIZE", summary: "the most output a run may write, like 1G",
                       defaultText: OptionTable.byteSize(OutputFile.defaultByteLimit)),
            OptionTable.param,
            OptionTable.cards,
        ] + OptionTable.limits,
        help: { options in """
        cardlua run — run an effect script through a scroll scenario

        USAGE: cardlua run SCRIPT [options]

        Without --offset, --fling or --scenario, runs the built-in demo: a sweep across the
        first three items, a fling that snaps, and a fast fling to the end that bounces (a
        layout that wraps: flings across the seam both ways; right to left: towards the left).

        \(options)

        A script that declares tweakables (params = { tilt = { value, min, max } }) takes
        --param tilt=0.5 (wrap=false for an on/off one, style=flat for one with options);
        a name it does not declare or a value out of its range is wrong usage. The JSON
        then records the values used ("params").

        EXAMPLES:
          cardlua run scripts/lol.lua --offset 150 --format json
          cardlua run scripts/lol.lua --fling 2
          cardlua run scripts/card-scale.lua -o preview.html
          cardlua run scripts/effects/icarousel-coverflow.lua --param tilt=0.5 --param wrap=true
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        let options = try RunOptions(arguments)
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
