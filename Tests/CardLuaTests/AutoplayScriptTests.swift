import CardLayout
import CardLua
import Testing

/// `{ autoplay = S, duration = D }` in a script's scenarios table.
@Suite struct AutoplayScriptTests {
    static func scenario(_ steps: String) throws -> Scenario {
        let effect = try LuaEffect(source: "scenarios = { s = { steps = { \(steps) } } }", chunkName: "a.lua")
        return try effect.scenario(named: "s", defaults: Scenario(name: "d", steps: []))
    }

    @Test func stepsAreReadWithTheirDuration() throws {
        #expect(try Self.scenario("{ autoplay = 3, duration = 12 }, { autoplay = 0.5 }").steps
                == [.autoplay(interval: 3, duration: 12), .autoplay(interval: 0.5, duration: 0.5)])
    }

    @Test(arguments: [
        ("{ autoplay = 0 }", "a.lua:1: scenario 's': step 1: autoplay must be a positive number of seconds (got 0)"),
        ("{ autoplay = -2, duration = 1 }", "a.lua:1: scenario 's': step 1: autoplay must be a positive number of seconds (got -2)"),
        ("{ autoplay = 1, duration = -1 }", "a.lua:1: scenario 's': step 1: duration must be zero or more seconds (got -1)"),
        ("{ autoplay = 'x' }", "a.lua:1: scenario 's': step 1: autoplay must be a finite number (got x)"),
    ])
    func badStepsAreRefused(_ steps: String, _ expected: String) {
        #expect(throws: (any Error).self) { try Self.scenario(steps) }
        do {
            _ = try Self.scenario(steps)
        } catch let error as ScriptError {
            #expect(error.message == expected)
        } catch {
            Issue.record("\(error)")
        }
    }
}
