import CardLayout
import CardLua
import Foundation
import Testing

/// "Any script, any input": every value a script hands the host is range-checked before
/// Swift converts it, host work done for a script is bounded and charged, a limit stops
/// every coroutine, messages are one clean bounded line, and frames and runs have a
/// total time limit.
@Suite struct HardeningTests {
    // MARK: Scenario values (checked before any conversion to Int)

    /// Loads `table` as the script's scenario "s" and reads it.
    private func scenario(_ table: String) -> Result<Scenario, ScriptError> {
        do {
            let effect = try LuaEffect(source: "scenarios = { s = \(table) }\n", chunkName: "s.lua",
                                       limits: Safety.limits)
            return .success(try effect.scenario(named: "s", defaults: Scenario(name: "d", steps: [])))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("{ items = 1e300, steps = {} }", "items"),
        ("{ items = 2^63, steps = {} }", "items"),
        ("{ items = math.huge, steps = {} }", "items"),
        ("{ items = 5, steps = { { scrollToItem = 1e300 } } }", "scrollToItem"),
        ("{ items = 5, steps = { { scrollToItem = 1, section = 1e300 } } }", "section"),
        ("{ items = 5, steps = { { scrollToItem = 1, section = math.huge } } }", "section"),
        ("{ items = 5, steps = { { scrollToItem = 1, section = -1 } } }", "section"),
        ("{ items = 5, steps = { { scrollToItem = 1, section = 0.5 } } }", "section"),
        ("{ items = 5, steps = { { scrollToItem = 1, section = 'x' } } }", "section"),
        ("{ items = 5, steps = { { scrollToItem = 2^63 } } }", "scrollToItem"),
        ("{ items = 5, steps = setmetatable({}, { __index = function() return { wait = 0 } end }) }", "steps"),
    ])
    func outOfRangeScenarioValuesAreErrors(table: String, field: String) {
        switch scenario(table) {
        case .success(let s):
            // Accepted by the reader: then validation must refuse it, naming the field.
            do {
                try s.validate()
                Issue.record("accepted \(table)")
            } catch {
                #expect(String(describing: error).contains(field), "\(error)")
            }
        case .failure(let error):
            #expect(error.kind == .failed)
            #expect(error.message.contains(field), "\(error.message)")
            #expect(Safety.isLocated(error.message, name: "s.lua"), "\(error.message)")
        }
    }

    /// A steps table whose length lies (huge, negative, or just wrong) is read through its
    /// real entries only: no conversion of the length, no loop over it.
    @Test(arguments: ["1e300", "-5", "1e15", "3"])
    func stepsAreReadByTheirEntries(length: String) throws {
        let s = try scenario("{ steps = setmetatable({ { wait = 1 } }, { __len = function() return \(length) end }) }").get()
        #expect(s.steps == [.wait(duration: 1)])
    }

    @Test func itemCountsAndViewportsAreBounded() {
        let big = Scenario(name: "big", numberOfItems: [Scenario.maxItems, 1], steps: [])
        #expect(throws: ScenarioError.self) { try big.validate() }
        let tiny = Scenario(name: "tiny", viewportSize: Size(width: 414, height: 0.25), steps: [])
        #expect(throws: ScenarioError.self) { try tiny.validate() }
        let ok = Scenario(name: "ok", numberOfItems: [Scenario.maxItems], steps: [])
        #expect(throws: Never.self) { try ok.validate() }
    }

    /// Many tiny items in a big viewport: the frame is refused before its array is built.
    @Test func itemsPerFrameAreCapped() throws {
        let effect = try LuaEffect(source: "function prepare(l) l.itemSize = CGSizeMake(1, 1) l.minimumLineSpacing = 0 l.minimumInteritemSpacing = 0 end",
                                   chunkName: "tiny.lua", limits: Safety.limits)
        let runner = ScenarioRunner(effect: effect, scriptName: "tiny.lua")
        let scenario = Scenario(name: "tiny", viewportSize: Size(width: 1000, height: 1000),
                                numberOfItems: [Scenario.maxItems], steps: [.jump(offset: 0)])
        #expect {
            _ = try runner.run(scenario)
        } throws: { error in
            String(describing: error).contains("\(Scenario.maxItemsPerFrame)")
        }
    }

    // MARK: Host work is bounded and charged

    /// A query over a huge rect of a huge collection ends with one line, quickly, instead
    /// of enumerating every item.
    @Test func hugeQueriesAreRefused() {
        let source = """
        function transform(attributes, layout)
          local all = layout:layoutAttributesForElements(CGRectMake(0, 0, 1e12, 1e12))
          attributes.alpha = #all > 0 and 1 or 0
        end
        """
        let effect: LuaEffect
        do { effect = try LuaEffect(source: source, chunkName: "hostile.lua", limits: Safety.limits) } catch {
            Issue.record("\(error)"); return
        }
        var configuration = FlowLayoutConfiguration()
        configuration.itemSize = Size(width: 1, height: 1)
        configuration.minimumLineSpacing = 0
        configuration.minimumInteritemSpacing = 0
        let layout = FlowLayout(configuration: configuration, viewportSize: Safety.viewport,
                                numberOfItemsInSections: [1_000_000])
        let bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        var items = layout.layoutAttributesForElements(in: bounds)
        let start = Date()
        do {
            try effect.transform(&items, layout: layout, context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
            Issue.record("the query succeeded")
        } catch let error as ScriptError {
            #expect(error.message.contains("layoutAttributesForElements"), "\(error.message)")
            #expect(error.message.contains("\(LuaEffect.maxQueryItems)"), "\(error.message)")
            #expect(Safety.isLocated(error.message), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 20)  // a hang guard, not a speed claim
    }

    // MARK: A limit stops every coroutine

    /// Coroutines nested six deep, each retrying its child whenever resume fails: without
    /// the guard on resume the work grows exponentially past the limit.
    @Test func nestedCoroutinesCannotRetryPastALimit() {
        let source = """
        local function nest(depth)
          if depth == 0 then while true do end end
          while true do
            local co = coroutine.create(function() nest(depth - 1) end)
            coroutine.resume(co)
          end
        end
        function transform(attributes) nest(6) end
        """
        let outcome = Safety.run(source, limits: ScriptLimits(maxSteps: 200_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("exceeded the budget of"), "\(outcome.failure.message)")
    }

    // MARK: Messages are one clean, bounded line

    @Test func errorMessagesAreEscapedAndBounded() {
        let forged = Safety.run("function transform(a) error('\\27[2J\\27]52;c;aGk=\\7\\ncardlua: 0 problems, exit 0') end")
        let message = forged.failure.message
        #expect(Safety.isLocated(message), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }, "\(message)")
        #expect(!forged.failure.details.unicodeScalars.contains { $0.value == 0x1b })

        let long = Safety.run("function transform(a) error(string.rep('x', 10000000)) end")
        #expect(long.failure.message.count < 2000)
        #expect(long.failure.message.contains("more bytes)"), "\(long.failure.message.suffix(80))")
    }

    @Test func scenarioNamesAreEscapedInMessages() {
        let error = ScenarioError.invalidFramesPerSecond(scenario: "a\u{1b}[2J\nb", value: 0)
        #expect(!String(describing: error).unicodeScalars.contains { $0.value < 0x20 })
    }

    // MARK: Scripts are loaded whole

    /// A NUL byte does not end the script: Lua sees (and rejects) what follows it.
    @Test func nulByteDoesNotTruncateTheScript() {
        let outcome = Safety.run("function transform(a) end\n\u{0}this is not Lua\n")
        #expect(outcome.failure.kind == .failed)
        #expect(Safety.isLocated(outcome.failure.message), "\(outcome.failure.message)")
    }

    // MARK: Frame and run time limits

    /// Each item well inside the per-call limits, the frame as a whole past its time limit.
    @Test func aFrameHasATotalTimeLimit() {
        let source = """
        function transform(attributes)
          local x = 0
          for i = 1, 3000000 do x = x + i end
          attributes.alpha = x > 0 and 1 or 0
        end
        """
        // 3·10⁶ instructions per item take tens of milliseconds; 200 items, seconds.
        let limits = ScriptLimits(maxSteps: 100_000_000, maxTime: 0.3)
        let outcome = Safety.run(source, limits: limits, items: 200)
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("exceeded the time limit of 0.3 s per call (all the items of the frame"), "\(outcome.failure.message)")
        #expect(outcome.failure.message.contains("t=0"), "\(outcome.failure.message)")
        #expect(outcome.failure.message.contains("offset 0"), "\(outcome.failure.message)")
    }

    @Test func aRunHasATotalTimeLimit() throws {
        let source = """
        function transform(attributes)
          local x = 0
          for i = 1, 1000000 do x = x + i end
        end
        """
        var limits = Safety.limits
        limits.maxRunTime = 0.5
        let effect = try LuaEffect(source: source, chunkName: "slow.lua", limits: limits)
        let start = Date()
        var failure: ScriptError?
        while failure == nil, Date().timeIntervalSince(start) < 20 {
            var outcome = Safety.Outcome()
            do { try Safety.exercise(effect, into: &outcome) } catch let error as ScriptError { failure = error }
        }
        #expect(failure?.kind == .limit)
        #expect(failure?.message.contains("exceeded the time limit of 0.5 s per run") == true, "\(String(describing: failure))")
    }

    // MARK: Errors point at the line

    @Test func aBadAttributeIsReportedAtItsAssignment() {
        let source = """
        function transform(attributes)
          local a = 1
          local b = 2
          attributes.alpha = 0/0
          return nil
        end
        """
        let outcome = Safety.run(source)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:4: transform: item 0: attributes.alpha"), "\(outcome.failure.message)")
    }

    @Test(arguments: [
        ("attributes.zIndex = 1.5", "attributes.zIndex is 1.5, expected a whole number"),
        ("attributes.center = 5", "attributes.center is a number, expected a CGPoint"),
        ("attributes.isHidden = 1", "attributes.hidden is a number, expected a boolean"),
        ("attributes.transform3D = 'big'", "attributes.transform3D is a string, expected a CATransform3D"),
    ])
    func otherBadAttributesAreReportedAtTheirAssignment(assignment: String, message: String) {
        let outcome = Safety.run("function transform(attributes)\n  local a = 1\n  \(assignment)\nend\n")
        #expect(outcome.failure.message.hasPrefix("hostile.lua:3: transform: item 0: \(message)"), "\(outcome.failure.message)")
    }

    // MARK: check reads scenarios the way run does

    /// The scenario's trap fires only on a state no callback has run in, as `run` reads
    /// it; `check` must read it the same way and report the limit.
    @Test func checkReadsScenariosOnAFreshState() {
        let source = """
        local warm = false
        function transform(attributes) warm = true end
        scenarios = { s = setmetatable({ steps = {} }, { __index = function(t, k)
          if not warm then while true do end end
        end }) }
        """
        var limits = Safety.limits
        limits.maxSteps = 200_000
        let diagnostics = ScriptChecker.check(source: source, chunkName: "trap.lua", limits: limits)
        #expect(diagnostics.contains { $0.message.contains("exceeded the budget of") }, "\(diagnostics)")
    }

    /// A runtime error during a scenario names the frame (its time and offset) after the
    /// traceback; the first line keeps its shape.
    @Test func aFrameErrorNamesItsMoment() throws {
        let effect = try LuaEffect(source: "function transform(a, layout)\n  if layout.time >= 0.5 then error('late') end\nend\n",
                                   chunkName: "late.lua", limits: Safety.limits)
        let runner = ScenarioRunner(effect: effect, scriptName: "late.lua")
        // 60 fps: frame 30 is the first at t ≥ 0.5 (30/60 exactly), at offset 100.
        let scenario = Scenario(name: "s", steps: [.jump(offset: 100), .wait(duration: 1)])
        do {
            _ = try runner.run(scenario)
            Issue.record("the scenario ran")
        } catch let error as ScriptError {
            // The first item the frame shows at offset 100 (rows of 50 pt plus 10 spacing).
            #expect(error.message.hasPrefix("late.lua:2: transform: item "), "\(error.message)")
            #expect(error.message.hasSuffix(": late"), "\(error.message)")
            #expect(error.details.hasSuffix("in the frame at t=0.50 s, offset 100"), "\(error.details)")
        }
    }

    /// A bad layout property is reported where prepare assigned it, not at `function prepare`.
    @Test(arguments: [
        ("layout.itemSize = 'big'", "layout.itemSize is a string"),
        // (a negative minimumLineSpacing is allowed: overlapping lines, as UIKit allows)
        ("layout.minimumInteritemSpacing = -1", "layout.minimumInteritemSpacing must be zero or more"),
        ("layout.minimumLineSpacing = 0/0", "layout.minimumLineSpacing must be a finite number"),
        ("layout.scrollDirection = 'sideways'", "layout.scrollDirection must be"),
    ])
    func aBadLayoutPropertyIsReportedAtItsAssignment(assignment: String, message: String) {
        let source = "function prepare(layout)\n  local a = 1\n  \(assignment)\n  local b = 2\nend\n"
        let outcome = Safety.run(source)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:3: prepare: \(message)"), "\(outcome.failure.message)")
    }

    /// The stand-in layout prepare gets behaves as the layout: reads, writes, methods.
    @Test func prepareStillConfiguresTheLayout() throws {
        let effect = try LuaEffect(source: """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 300)
          layout.minimumLineSpacing = layout.minimumLineSpacing + 5
        end
        """, chunkName: "ok.lua", limits: Safety.limits)
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: Safety.viewport)
        #expect(configuration.scrollDirection == .horizontal)
        #expect(configuration.itemSize == Size(width: 200, height: 300))
        #expect(configuration.minimumLineSpacing == 15)  // UIKit's default 10, plus 5
    }
}
