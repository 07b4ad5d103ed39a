import CLuaShims
import CardLayout

extension LuaEffect {
    /// The names in the script's `scenarios` table, sorted.
    public func scenarioNames() throws(ScriptError) -> [String] {
        try internalStrings("scenarioNames")
    }

    /// The scenario `name` from the script's `scenarios` table; what the table leaves out
    /// (viewport, items, fps) comes from `defaults`.
    ///
    /// The prelude validates the table (in Lua, protected) and hands it over as numbers:
    /// viewport width and height, items, fps, the step count, then four numbers per step
    /// (a kind code and three values); NaN marks "not set".
    /// An error about the scenario that no line of the script explains is placed at the
    /// scenario's definition.
    public func scenario(named name: String, defaults: Scenario) throws(ScriptError) -> Scenario {
        do {
            return try readScenario(named: name, defaults: defaults)
        } catch where error.line == nil {
            throw error.at(line: scenarioLine(named: name))
        }
    }

    /// The line where the scenario `name` (or, for nil, the `scenarios` table) is
    /// defined, or 1.
    public func scenarioLine(named name: String?) -> Int {
        let index = SourceIndex(source: source, chunkName: chunkName)
        return (name.map { index.scenario(named: $0) } ?? index.definition(of: "scenarios")) ?? 1
    }

    private func readScenario(named name: String, defaults: Scenario) throws(ScriptError) -> Scenario {
        let n = try internalNumbers("scenario", argument: name)
        func value(_ i: Int) -> Double? { i < n.count && !n[i].isNaN ? n[i] : nil }
        // The prelude checks these; checked again before any conversion to Int (which
        // traps on a value out of range), so no number a script writes can crash the host.
        func whole(_ v: Double, _ field: String, most: Int) throws(ScriptError) -> Int {
            guard v >= 0, v <= Double(most), v == v.rounded() else {
                throw ScriptError(kind: .failed, file: chunkName, line: nil,
                                  text: "scenario '\(ScenarioError.clean(name))': "
                                      + "\(field) must be a whole number from 0 to \(most) (got \(v))")
            }
            return Int(v)
        }
        var scenario = defaults
        scenario.name = name
        if let w = value(0), let h = value(1) { scenario.viewportSize = Size(width: w, height: h) }
        if let items = value(2) { scenario.numberOfItems = [try whole(items, "items", most: Scenario.maxItems)] }
        if let fps = value(3) { scenario.framesPerSecond = fps }
        let count = try whole(value(4) ?? 0, "steps", most: min(Scenario.maxSteps, max(0, (n.count - 5) / 4)))
        var steps: [ScenarioStep] = []
        for index in 0..<count {
            let base = 5 + index * 4
            guard let code = value(base) else { continue }
            let a = value(base + 1) ?? 0, b = value(base + 2), duration = value(base + 3)
            switch code {
            case Double(CARDLUA_STEP_JUMP): steps.append(.jump(offset: a))
            case Double(CARDLUA_STEP_DRAG): steps.append(.drag(by: a, duration: duration ?? 0.5, velocity: b))
            case Double(CARDLUA_STEP_FLING): steps.append(.fling(velocity: a))
            case Double(CARDLUA_STEP_WAIT): steps.append(.wait(duration: a))
            case Double(CARDLUA_STEP_SCROLL_TO_ITEM): steps.append(.scrollToItem(CardIndexPath(item: try whole(a, "scrollToItem", most: Scenario.maxItems),
                                                         section: try whole(b ?? 0, "section", most: Scenario.maxItems)),
                                               duration: duration ?? ScrollPhysics.defaultScrollAnimationDuration))
            case Double(CARDLUA_STEP_AUTOPLAY): steps.append(.autoplay(interval: a, duration: duration ?? a))
            default: steps.append(.resize(Size(width: a, height: b ?? 0)))
            }
        }
        scenario.steps = steps
        // `items = { 5, 8, 3 }` and `rtl = true` (checked by I.scenario above).
        let extra = try internalNumbers("scenarioSections", argument: name)
        if extra.count >= 1, !extra[0].isNaN { scenario.layoutDirection = extra[0] != 0 ? .rightToLeft : .leftToRight }
        if extra.count >= 2, !extra[1].isNaN {
            let sections = try whole(extra[1], "items", most: Scenario.maxItems)
            var counts: [Int] = []
            for i in 0..<min(sections, extra.count - 2) {
                counts.append(try whole(extra[2 + i], "items[\(i + 1)]", most: Scenario.maxItems))
            }
            scenario.numberOfItems = counts
        }
        return scenario
    }

    /// The LuaCATS definitions (`---@meta`) of the whole script API, generated from the
    /// table the prelude registers its functions in.
    public static func typeDefinitions() throws(ScriptError) -> String {
        let effect = try LuaEffect(source: "", chunkName: "types")
        return try effect.internalString("types")
    }

    /// Every name a script finds defined, sorted: each global, each library's members as
    /// `lib.name` (`math.floor`), the values made on first use (`CATransform3DIdentity`) and
    /// the methods of the API's classes as `Class:method` (`CATransform3D:rotate`).
    public static func scriptNames() throws(ScriptError) -> [String] {
        try LuaEffect(source: "", chunkName: "names").internalStrings("scriptNames")
    }
}
