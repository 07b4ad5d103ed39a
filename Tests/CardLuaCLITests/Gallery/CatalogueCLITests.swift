import CardLuaTestSupport
import Foundation
import Testing

/// The catalogue end to end: `new --list`, `new --from` for every effect, `check`, the
/// SVG and HTML outputs, and `cardlua gallery`.
@Suite struct CatalogueCLITests {
    static let folder = CLI.packageRoot.appendingPathComponent("scripts/effects")

    /// Every script in scripts/effects, by name (read from the folder, not from the binary).
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }.sorted()

    static let libraries: Set<String> = [
        "iCarousel", "AnimatedCollectionViewLayout", "CollectionViewPagingLayout", "FSPagerView", "Gemini",
        "UPCarouselFlowLayout", "CarLensCollectionViewLayout", "Apple's LineLayout sample",
    ]

    static func header(_ name: String) throws -> (summary: String, library: String) {
        let text = try String(contentsOf: folder.appendingPathComponent("\(name).lua"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count > 2)
        let first = lines[0], second = lines[1]
        try #require(first.hasPrefix("-- \(name): "), "line 1 of \(name).lua must be `-- \(name): summary`")
        try #require(second.hasPrefix("-- Source: "), "line 2 of \(name).lua must be `-- Source: library, …`")
        let library = second.dropFirst(11).split(separator: ",").first.map(String.init) ?? ""
        return (String(first.dropFirst(4 + name.count)), library)
    }

    /// Each script names itself and its source in its first two lines, from a known library;
    /// `new --list` shows it with that summary and library, one line each.
    @Test func theListShowsEveryEffectWithItsSource() throws {
        let list = try CLI.run(["new", "--list"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == Self.names.count + 7, "the 7 templates and every catalogue script")
        for name in Self.names {
            let (summary, library) = try Self.header(name)
            #expect(Self.libraries.contains(library), "\(name).lua: unknown library '\(library)'")
            #expect(!summary.isEmpty && summary.count <= 100, "\(name).lua: summary '\(summary)'")
            let line = lines.first { $0.hasPrefix(name + " ") }
            #expect(line?.contains(summary) == true && line?.hasSuffix("(\(library))") == true,
                    "new --list: \(line ?? "no line for \(name)")")
        }
        for template in ["blank", "lol", "card-scale", "photo-browser", "stacked-deck", "paging-layout", "wrap-carousel"] {
            #expect(lines.contains { $0.hasPrefix(template + " ") }, "new --list lacks \(template)")
        }
    }

    /// Every effect: `new --from` writes it (the shipped script under the header), and the
    /// written script checks clean and draws as SVG and HTML. In this process
    /// (``CLI/runInProcess(_:)``, the entry main.swift calls): four launches of `cardlua`
    /// per effect were most of this suite's time; ``aPortWorksEndToEndAsAProcess(_:)``
    /// keeps the launched path covered.
    /// The drawings are of the demo at 10 frames a second, not `run`'s 60: whether a port
    /// draws does not depend on how often, and this is the suite's largest piece of work
    /// (51 demos, twice each) under the test command's sanitizers.
    @Test(arguments: names)
    func everyEffectWorksEndToEnd(_ name: String) throws {
        try expectEffectWorks(name, drawing: ["--fps", "10"]) { arguments, _ in CLI.runInProcess(arguments) }
    }

    /// The same steps through the launched `cardlua`, run in the folder with relative
    /// paths as a user types them, for two ports.
    @Test(arguments: ["line-layout", "paging-scale-cover-flow"])
    func aPortWorksEndToEndAsAProcess(_ name: String) throws {
        try #require(Self.names.contains(name))
        try expectEffectWorks(name, relative: true) { arguments, directory in try CLI.run(arguments, directory: directory) }
    }

    /// `new --from name`, then `check`, then `run` as SVG and HTML (with `options`),
    /// through `run` (given the arguments and the folder that `relative` paths are
    /// relative to).
    private func expectEffectWorks(_ name: String, relative: Bool = false, drawing options: [String] = [],
                                   _ run: ([String], URL) throws -> CLI.Result) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // In process there is no working directory of the command's own: absolute paths.
        func path(_ file: String) -> String { relative ? file : directory.appendingPathComponent(file).path }
        let script = path("fx.lua")
        let made = try run(["new", script, "--from", name], directory)
        try #require(made.status == 0, "\(made.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("fx.lua"), encoding: .utf8)
        let shipped = try String(contentsOf: Self.folder.appendingPathComponent("\(name).lua"), encoding: .utf8)
        let withoutAnnotations = written.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("---@") }.joined(separator: "\n")
        #expect(withoutAnnotations.hasSuffix(shipped), "new --from \(name) is not scripts/effects/\(name).lua")

        let check = try run(["check", script], directory)
        #expect(check.status == 0, "\(name): \(check.stdout)\(check.stderr)")
        for format in ["svg", "html"] {
            let result = try run(["run", script, "--format", format, "-o", path("out.\(format)")] + options, directory)
            #expect(result.status == 0, "\(name) as \(format): \(result.stderr)")
            let out = try String(contentsOf: directory.appendingPathComponent("out.\(format)"), encoding: .utf8)
            #expect(out.contains(format == "svg" ? "</svg>" : "</html>"))
        }
    }

    /// The README's catalogue table names every effect (and so stays true as ports are added).
    @Test func theReadmeNamesEveryEffect() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for name in Self.names {
            #expect(readme.contains("`\(name)`"), "README.md does not name \(name)")
        }
        #expect(!readme.contains("{{"), "a placeholder is left in README.md")
    }

    @Test func aNearMissIsSuggested() throws {
        let result = try CLI.run(["new", "fx.lua", "--from", "line-layot"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'line-layout'?"), "\(result.stderr)")
        #expect(result.stderr.contains("cardlua new --list"))
    }

    /// The page holds the chosen effects' demos, grouped by source, with the script around
    /// them; without -o it goes to standard output.
    @Test func theGalleryPageHoldsTheChosenDemos() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["gallery", "--only", "line-layout,lol", "-o", "g.html"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 effects"), "\(result.stderr)")
        let page = try String(contentsOf: directory.appendingPathComponent("g.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http"), "self-contained")
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"gallery\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let data = try JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8)) as? [[String: Any]]
        #expect(data?.map { $0["name"] as? String } == ["line-layout", "lol"])
        let timeline = data?.first?["timeline"] as? [String: Any]
        // The whole demo, to its last frame (pauses that repeat a frame are left out).
        let frames = (timeline?["frames"] as? [[String: Any]]) ?? []
        #expect(frames.count > 50, "the whole demo")
        #expect(((frames.last?["t"] as? Double) ?? 0) > 4, "to its end")
        // Each tile frames its cards: a box within the 414 × 736 viewport.
        let box = (data?.first?["box"] as? [Double]) ?? []
        #expect(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= 414 && box[1] + box[3] <= 736, "\(box)")
        #expect(page.contains("<h2>Apple&#39;s LineLayout sample</h2>"))
        #expect(page.contains("<h2>cardlua&#39;s seeds</h2>"))

        let standardOutput = try CLI.run(["gallery", "--only", "card-scale"])
        #expect(standardOutput.status == 0 && standardOutput.stdout.contains("\"name\":\"card-scale\""))
    }

    @Test func wrongGalleryUsageIsOneLine() throws {
        for (arguments, expected) in [
            (["gallery", "--only", "lol,line-layot"], "did you mean 'line-layout'?"),
            (["gallery", "--fps", "0"], "--fps: expected a number of frames per second from 1 to 240"),
            (["gallery", "scripts/lol.lua"], "unexpected argument 'scripts/lol.lua'"),
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }
}
