import CardLayout

extension LuaEffect {
    /// The names in the script's `scenarios` table, sorted.
    public func scenarioNames() throws(ScriptError) -> [String] {
        let text = try internalString("scenarioNames")
        return text.isEmpty ? [] : text.split(separator: "\n").map(String.init)
    }

    /// The scenario `name` from the script's `scenarios` table; what the table leaves out
    /// (viewport, items, fps) comes from `defaults`.
    ///
    /// The prelude validates the table (in Lua, protected) and hands it over as numbers:
    /// viewport width and height, items, fps, the step count, then four numbers per step
    /// (a kind code and three values); NaN marks "not set".
    public func scenario(named name: String, defaults: Scenario) throws(ScriptError) -> Scenario {
        let n = try internalNumbers("scenario", argument: name)
        func value(_ i: Int) -> Double? { i < n.count && !n[i].isNaN ? n[i] : nil }
        var scenario = defaults
        scenario.name = name
        if let w = value(0), let h = value(1) { scenario.viewportSize = Size(width: w, height: h) }
        if let items = value(2) { scenario.numberOfItems = [Int(items)] }
        if let fps = value(3) { scenario.framesPerSecond = fps }
        let count = Int(value(4) ?? 0)
        var steps: [ScenarioStep] = []
        for index in 0..<count {
            let base = 5 + index * 4
            guard let code = value(base) else { continue }
            let a = value(base + 1) ?? 0, b = value(base + 2), duration = value(base + 3)
            switch code {
            case 1: steps.append(.jump(offset: a))
            case 2: steps.append(.drag(by: a, duration: duration ?? 0.5, velocity: b))
            case 3: steps.append(.fling(velocity: a))
            case 4: steps.append(.wait(duration: a))
            case 5: steps.append(.scrollToItem(IndexPath(item: Int(a), section: Int(b ?? 0)),
                                               duration: duration ?? ScrollPhysics.defaultScrollAnimationDuration))
            default: steps.append(.resize(Size(width: a, height: b ?? 0)))
            }
        }
        scenario.steps = steps
        return scenario
    }

    /// The LuaCATS definitions (`---@meta`) of the whole script API, generated from the
    /// table the prelude registers its functions in.
    public static func typeDefinitions() throws(ScriptError) -> String {
        let effect = try LuaEffect(source: "", chunkName: "types")
        return try effect.internalString("types")
    }
}
