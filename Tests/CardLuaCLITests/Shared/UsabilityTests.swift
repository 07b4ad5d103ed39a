import Foundation
import Testing

/// `run` and `watch` warn about what `check` warns about; `check` catches dropped transform
/// results and takes run's limits; `new` tells the truth about an existing `.luarc.json`.
@Suite struct UsabilityTests {
    static let typos = """
    function prepare(layout)                        -- 1
      layout.scrollDirection = "horizontal"         -- 2
      layout.itemSize = CGSizeMake(200, 300)        -- 3
      layout.itemsize = CGSizeMake(10, 10)          -- 4: a typo
    end                                             -- 5
    function transform(attributes)                  -- 6
      attributes.aplha = 0.5                        -- 7: a typo
    end                                             -- 8

    """

    /// The lines of standard error that are warnings.
    static func warnings(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") }
    }

    @Test func runWarnsAboutUnknownKeysOnceEachWithoutFailing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.typos, named: "effect.lua", in: directory)
        // The same without the two typo lines (each made a comment): what the run means.
        _ = try CLI.write(Self.typos.replacingOccurrences(of: "  layout.itemsize", with: "  -- layout.itemsize")
            .replacingOccurrences(of: "  attributes.aplha", with: "  -- attributes.aplha"), named: "plain.lua", in: directory)

        // The demo: many frames, each warning once.
        let demo = try CLI.run(["run", "effect.lua", "--format", "json"], directory: directory)
        #expect(demo.status == 0, "\(demo.stderr)")
        let found = Self.warnings(demo.stderr)
        #expect(found.count == 2, "\(demo.stderr)")
        #expect(found.contains { $0.hasPrefix("effect.lua:4: warning: layout.itemsize is not a flow layout property") && $0.hasSuffix("did you mean layout.itemSize?") })
        #expect(found.contains { $0.hasPrefix("effect.lua:7: warning: attributes.aplha is not a field of attributes") && $0.hasSuffix("did you mean alpha?") })
        // The warnings change nothing in the output (but for the script's name).
        let fixed = try CLI.run(["run", "plain.lua", "--format", "json"], directory: directory)
        #expect(demo.stdout.replacingOccurrences(of: "effect.lua", with: "plain.lua") == fixed.stdout)
        #expect(Self.warnings(fixed.stderr).isEmpty, "\(fixed.stderr)")

        // One frame is enough to see them.
        let one = try CLI.run(["run", "effect.lua", "--offset", "100"], directory: directory)
        #expect(one.status == 0)
        #expect(Self.warnings(one.stderr).count == 2, "\(one.stderr)")
    }

    /// But for lol.lua's one: its article's card does not fit between its insets, which
    /// UIKit logs too (its header says why the numbers stay).
    @Test func theSeedsRunWithoutWarnings() throws {
        for name in ["lol.lua", "card-scale.lua", "photo-browser.lua"] {
            let result = try CLI.run(["run", CLI.script(name), "--format", "json"])
            #expect(result.status == 0)
            let lines = result.stderr.split(separator: "\n")
            if name == "lol.lua" {
                #expect(lines.count == 1 && lines[0].contains("UIKit logs \"The behavior of the UICollectionViewFlowLayout is not defined"),
                        "\(name): \(result.stderr)")
            } else {
                #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
            }
        }
    }

    @Test func watchWarnsToo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.typos, named: "effect.lua", in: directory)
        let watch = try WatchProcess(["watch", "effect.lua", "--offset", "0", "-o", "out.json"], directory: directory)
        defer { watch.kill() }
        try #require(waitUntil { Self.warnings(watch.stderr).count >= 2 }, "stderr: \(watch.stderr)")
        let found = Self.warnings(watch.stderr)
        #expect(found.count == 2, "\(watch.stderr)")
        #expect(found.contains { $0.hasPrefix("effect.lua:4: warning: layout.itemsize") }, "\(watch.stderr)")
        #expect(found.contains { $0.hasPrefix("effect.lua:7: warning: attributes.aplha") }, "\(watch.stderr)")
        #expect(watch.interruptAndWait() == 0)
    }

    /// `t:rotate(…)` alone computes a transform and drops it: check says so, with the line;
    /// run says so too.
    @Test func aDroppedTransformResultIsAWarning() throws {
        let source = """
        function transform(attributes)                            -- 1
          local t = CATransform3DIdentity                         -- 2
          t:rotate(0.5, 0, 1, 0)                                  -- 3: dropped
          CATransform3DScale(t, 2, 2, 1)                          -- 4: dropped
          if attributes.indexPath.item == 0 then t:scale(2, 2, 1) end  -- 5: dropped
          t = t:translate(1, 0, 0)                                -- 6: kept
          local u = t:concat(t); t = u                            -- 7: kept
          attributes.transform3D = CATransform3DRotate(t,         -- 8: kept
            0.1, 0, 0, 1)                                         -- 9
          return t                                                -- 10
        end                                                       -- 11

        """
        let result = try CheckTests.check(source)
        #expect(result.status == 0, "warnings only")
        #expect(try CheckTests.check(source, ["--strict"]).status == 1)
        let problems = CheckTests.problems(result)
        #expect(Set(problems.keys) == [3, 4, 5], "\(result.stdout)")
        #expect(problems[3]?.first == "effect.lua:3: warning: t:rotate(…) returns a new transform and leaves t as it was; "
            + "its result is dropped (write t = t:rotate(…))")
        #expect(problems[4]?.first?.hasPrefix("effect.lua:4: warning: CATransform3DScale(…) returns a new value") == true)

        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(source, named: "effect.lua", in: directory)
        let run = try CLI.run(["run", "effect.lua", "--offset", "0"], directory: directory)
        #expect(run.status == 0)
        #expect(Self.warnings(run.stderr).map { $0.prefix(13) } == ["effect.lua:3:", "effect.lua:4:", "effect.lua:5:"],
                "\(run.stderr)")
    }

    @Test func checkTakesRunsLimitOptions() throws {
        let clean = "function transform(attributes) attributes.alpha = 1 end\n"
        let accepted = try CheckTests.check(clean, ["--max-time", "5", "--max-instructions", "1000000", "--max-memory", "32M"])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        let wrong = try CheckTests.check(clean, ["--max-time", "0"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--max-time: expected seconds above 0"), "\(wrong.stderr)")
        // The time limit is the one applied: a loop under a budget of steps far too big
        // to end it first stops on the time limit.
        let loop = "function transform(attributes) while true do end end\n"
        let stopped = try CheckTests.check(loop, ["--max-time", "0.2", "--max-steps", "1000000000000000"])
        #expect(stopped.status == 1)
        #expect(stopped.stdout.contains("exceeded the time limit of 0.2 s"), "\(stopped.stdout)")
    }

    /// A second script in the same folder: the .luarc.json there already points at the
    /// definitions, and `new` says so instead of asking to add them.
    @Test func newKeepsALuarcThatAlreadyListsTheDefinitions() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try CLI.run(["new", "a.lua"], directory: directory)
        try #require(first.status == 0, "\(first.stderr)")
        let second = try CLI.run(["new", "b.lua"], directory: directory)
        #expect(second.status == 0)
        #expect(second.stdout.contains("kept .luarc.json (it already points the Lua language server at cardlua.d.lua)"),
                "\(second.stdout)")
        #expect(!second.stdout.contains("workspace.library"), "\(second.stdout)")
    }

    /// A .luarc.json of the user's own, without the definitions: the advice to add them,
    /// and only when the definitions beside it are cardlua's.
    @Test func newAdvisesAddingTheDefinitionsOnlyWhenTheyAreMissingAndCardluas() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("{ \"workspace.library\": [\"other\"] }\n", named: ".luarc.json", in: directory)
        let mine = try CLI.run(["new", "a.lua"], directory: directory)
        #expect(mine.stdout.contains("left .luarc.json alone: it exists; to get completion, add \"cardlua.d.lua\" to its \"workspace.library\""),
                "\(mine.stdout)")

        let foreign = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: foreign) }
        _ = try CLI.write("{}\n", named: ".luarc.json", in: foreign)
        _ = try CLI.write("-- my own definitions\n", named: "cardlua.d.lua", in: foreign)
        let other = try CLI.run(["new", "a.lua"], directory: foreign)
        #expect(!other.stdout.contains("add \"cardlua.d.lua\""), "\(other.stdout)")
        #expect(other.stdout.contains("cardlua types -o FILE"), "\(other.stdout)")
    }
}
