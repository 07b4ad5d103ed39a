import CardLayout
import CardLua
import CardRender
import Foundation

/// `cardlua gallery [-o FILE] [--only NAME,…] [--fps N]`: every effect of `new --list`
/// (the seeds, the examples and the catalogue; not the blank template) runs its demo,
/// and one self-contained page shows them all playing side by side (GalleryRenderer).
enum GalleryCommand {
    /// 20 frames a second: smooth enough for 170-pixel tiles, and a third less to run
    /// and to carry than 30 (docs/benchmark-history.md, round five, has the figures).
    static let defaultFramesPerSecond = 20.0

    static let declaration = CommandDeclaration(
        name: "gallery", synopsis: "gallery -o FILE", summary: "one page with every catalogue effect playing its demo",
        arguments: .none("the gallery takes no script; see --only"),
        options: [
            OptionSpec(.output, aliases: ["output"], value: "FILE", summary: "write the page there instead of standard output"),
            OptionSpec(.only, value: "NAME[,NAME…]", summary: "just these effects, in this order (names from new --list)"),
            OptionSpec(.fps, value: "N", summary: "frames per second of the demos",
                       defaultText: OptionTable.number(defaultFramesPerSecond)),
            OptionSpec(.cards, value: "DIR",
                       summary: "draw every effect's cards with the images in DIR, in name order, cycling"),
        ],
        help: { options in """
        cardlua gallery — every effect of the catalogue, playing side by side

        USAGE: cardlua gallery [-o FILE] [--only NAME[,NAME…]] [--fps N]

        Runs the built-in demo of every effect `cardlua new --list` names (the seeds, the
        contract-v2 examples and the catalogue's ports of iCarousel, AnimatedCollectionView-
        Layout, CollectionViewPagingLayout, FSPagerView, Gemini and others) and writes one
        self-contained HTML page: a small viewport per effect, grouped by source, each
        playing its demo in a loop. Click one (or Tab to it and press Enter) for its full
        preview: full size, play/pause, a scrubber, ←/→ to step, and the `cardlua new` line
        that starts a script from it; Esc closes it. page.html#NAME opens NAME's preview.
        With -o, says on standard error how big the page is and which demo was slowest.

        \(options)

        EXAMPLES:
          cardlua gallery -o gallery.html
          cardlua gallery --only icarousel-coverflow,fspager-ferris-wheel -o two.html
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        let templates = try selection(arguments.value(.only))
        let pictures = try arguments.value(.cards).map { dir throws(UsageError) in
            try CardsFolder(path: dir, command: declaration.name).embedded(command: declaration.name)
        }
        var fps = defaultFramesPerSecond
        if let text = arguments.value(.fps) {
            guard let value = Double(text), value.isFinite, value >= 1, value <= 240 else {
                throw UsageError("--fps: expected a number of frames per second from 1 to 240, got '\(Echo.safe(text))'",
                                 command: declaration.name)
            }
            fps = value
        }

        // The demos run side by side, one Lua state each (states share nothing), on as
        // many threads as there are cores; the page lists them in the templates' order.
        let demos = ConcurrentSlots<(Result<Timeline, CommandFailure>, seconds: Double)>(count: templates.count)
        let rate = fps
        DispatchQueue.concurrentPerform(iterations: templates.count) { index in
            let template = templates[index]
            let started = Date()
            let result: Result<Timeline, CommandFailure>
            do {
                let effect = try LuaEffect(source: template.body, chunkName: "\(template.name).lua",
                                           limits: ScriptLimits(maxRunTime: ScriptLimits.defaultRunTime))
                let thinner = TimelineThinner()
                try ScenarioRunner(effect: effect, scriptName: "\(template.name).lua")
                    .runDemo(framesPerSecond: rate, into: thinner)
                if let thinned = thinner.timeline {
                    result = .success(thinned)
                } else {
                    result = .failure(CommandFailure("\(template.name).lua: the demo made no timeline"))
                }
            } catch let error as ScriptError {
                result = .failure(CommandFailure("cardlua: \(error.message)", details: error.details))
            } catch {
                result = .failure(CommandFailure("cardlua: \(template.name).lua: \(error)"))
            }
            demos[index] = (result, Date().timeIntervalSince(started))
        }
        var entries: [GalleryEntry] = []
        var slowest: (name: String, seconds: Double) = ("", 0)
        for (index, template) in templates.enumerated() {
            let (result, seconds) = demos[index] ?? (.failure(CommandFailure("cardlua: the demo did not run")), 0)
            let timeline = try result.get()
            if seconds > slowest.seconds { slowest = (template.name, seconds) }
            entries.append(GalleryEntry(name: template.name, summary: template.summary,
                                        source: template.sourceLine, group: template.source, timeline: timeline))
        }
        let page = GalleryRenderer.render(entries, pictures: pictures)
        if let path = arguments.value(.output), path != "-" {
            do { try writeAtomically(page, to: path) } catch { throw CommandFailure("cardlua: \(error)") }
            let size = ByteCountFormatter.string(fromByteCount: Int64(page.utf8.count), countStyle: .file)
            Console.error("wrote \(Echo.safe(path)): \(entries.count) effects, \(size); slowest demo \(slowest.name), "
                          + "\(Int((slowest.seconds * 1000).rounded())) ms")
        } else {
            Console.out(page)
        }
        return 0
    }

    /// The templates `--only` names (comma-separated, in its order), or every one but blank.
    static func selection(_ only: String?) throws(UsageError) -> [Templates.Template] {
        guard let only else {
            // The catalogue first (what the gallery is for), then the seeds and the examples.
            let shown = Templates.all.filter { $0.name != "blank" }
            let ours = [Templates.seedSource, Templates.exampleSource]
            return shown.filter { !ours.contains($0.source) } + shown.filter { ours.contains($0.source) }
        }
        var chosen: [Templates.Template] = []
        for name in only.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let template = Templates.named(name) else {
                var message = "--only: no effect '\(Echo.safe(name))'"
                if let guess = Arguments.closest(to: name, in: Set(Templates.all.map(\.name))) {
                    message += "; did you mean '\(guess)'?"
                }
                throw UsageError(message + " (cardlua new --list shows them all)", command: declaration.name)
            }
            chosen.append(template)
        }
        if chosen.isEmpty { throw UsageError("--only: name at least one effect", command: declaration.name) }
        return chosen
    }
}
