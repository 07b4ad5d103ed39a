import CardLua
import Foundation
import Testing

/// Params are what the control says: on/off params are booleans in every port, the same
/// param reads the same across a family, a number's error says what to type, and a
/// misspelt `params.tilte` read in a callback gets a "did you mean" like `--param tlit`.
@Suite struct ParamsClearTests {
    static let misspelt = """
    params = { tilt = { value = 0.5, min = 0, max = 1 } }     -- 1
    function transform(attributes, layout)                    -- 2
      attributes.alpha = 1 - params.tilte                     -- 3: a typo
    end                                                       -- 4

    """
    static let said = "params.tilte is not declared (did you mean tilt?)"

    @Test func aMisspeltParamReadInACallbackSaysWhatWasMeant() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.misspelt, named: "fx.lua", in: directory)
        let run = try CLI.run(["run", "fx.lua", "--offset", "0"], directory: directory)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("fx.lua:3: transform: item 0: \(Self.said)"), "\(run.stderr)")
        let check = try CLI.run(["check", "fx.lua"], directory: directory)
        #expect(check.status == 1)
        #expect(check.stdout.contains("fx.lua:3: transform: item 0: \(Self.said)"), "\(check.stdout)")
        // Reading a declared param, and rawget, are unchanged; a script without params
        // reading params.x gets Lua's own message about a nil params.
        _ = try CLI.write(Self.misspelt.replacingOccurrences(of: "params.tilte", with: "params.tilt"), named: "ok.lua", in: directory)
        #expect(try CLI.run(["run", "ok.lua", "--offset", "0"], directory: directory).status == 0)

        let play = try PlayServer(["fx.lua"], directory: directory)
        defer { play.process.kill() }
        #expect(waitUntil {
            ((try? PlayServer.json(play.get("/state"))["state"] as? [String: Any])?["error"] as? String)?.contains(Self.said) == true
        }, "\(play.get("/state"))")
    }

    /// Far from any declared name: no guess, the names it declares.
    @Test func aParamFarFromAnyNameListsTheDeclaredOnes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.misspelt.replacingOccurrences(of: "params.tilte", with: "params.zoom"), named: "fx.lua", in: directory)
        let run = try CLI.run(["run", "fx.lua", "--offset", "0"], directory: directory)
        #expect(run.stderr.hasPrefix("fx.lua:3: transform: item 0: params.zoom is not declared (params declares tilt)"), "\(run.stderr)")
    }

    /// A number param given something else: the error says which value to type.
    @Test func aNumberParamsErrorSaysWhatToType() throws {
        let result = try CLI.run(["run", CLI.script("effects/icarousel-coverflow.lua"), "--offset", "0", "--param", "tilt=yes"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--param tilt=yes: params.tilt is a number from 0 to 1: type one, like --param tilt=0.9"), "\(result.stderr)")
    }

    /// Every shipped script: an on/off param (iCarousel's wrap, showBackfaces, pagingEnabled)
    /// is a boolean, not a 0…1 number with step 1; and within a family (the file name's
    /// first word: icarousel, fspager, paging, gemini, animated) a param of one name has one
    /// label.
    @Test func onOffParamsAreBooleansAndAFamilyLabelsAlike() throws {
        let root = CLI.packageRoot.appendingPathComponent("scripts")
        let effects = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("effects").path)
            .filter { $0.hasSuffix(".lua") }.map { root.appendingPathComponent("effects/\($0)").path }
        let seeds = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".lua") }.map { root.appendingPathComponent($0).path }
        var labels: [String: [String: Set<String>]] = [:]   // family → name → labels
        var numbers01: [String] = []
        for path in (seeds + effects).sorted() {
            let effect = try LuaEffect(path: path)
            let file = (path as NSString).lastPathComponent
            let family = String(file.prefix { $0 != "-" && $0 != "." })
            for param in effect.params {
                if case .number = param.kind, ["wrap", "showBackfaces", "pagingEnabled"].contains(param.name) {
                    numbers01.append("\(file): \(param.name)")
                }
                labels[family, default: [:]][param.name, default: []].insert(param.label ?? "")
            }
        }
        #expect(numbers01.isEmpty, "on/off params declared as numbers: \(numbers01)")
        for (family, names) in labels {
            for (name, found) in names where found.count > 1 {
                Issue.record("\(family)-*: \(name) is labelled \(found.sorted())")
            }
        }
    }

    /// wrap=false turns iCarousel's wrap off, as wrap=0 did (the README's exportable
    /// variants).
    @Test func wrapFalseExportsTheUnwrappedVariant() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["export", CLI.script("effects/icarousel-cylinder.lua"), "--param", "wrap=false",
                                  "-o", directory.appendingPathComponent("C.swift").path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
