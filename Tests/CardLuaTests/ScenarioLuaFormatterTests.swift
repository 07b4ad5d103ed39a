import CardLayout
@testable import CardLua
import Testing

/// The scenarios a live session recorded, written as the Lua a script defines them with
/// (moved here with the writer from CardLayout's tests, unchanged).
@Suite struct ScenarioLuaFormatterTests {
    @Test func luaFormatterWritesAScenariosBlock() {
        let scenario = Scenario(name: "recorded", viewportSize: Size(width: 414, height: 736), numberOfItems: [12],
                                framesPerSecond: 60, steps: [
                                    .wait(duration: 0.5), .drag(by: 300, duration: 0.4, velocity: 1.2),
                                    .jump(offset: -12.25), .scrollToItem(CardIndexPath(item: 7, section: 0), duration: 0.3),
                                    .resize(Size(width: 736.5, height: 414)), .fling(velocity: 0.1 + 0.2),
                                ])
        let text = ScenarioLuaFormatter.scenariosBlock([scenario])
        #expect(text == """
            scenarios = {
              recorded = {
                viewport = "414x736",
                items = 12,
                fps = 60,
                steps = {
                  { wait = 0.5 },
                  { drag = 300, duration = 0.4, velocity = 1.2 },
                  { jump = -12.25 },
                  { scrollToItem = 7, duration = 0.3 },
                  { resize = { width = 736.5, height = 414 } },
                  { fling = 0.30000000000000004 },
                },
              },
            }

            """)
        #expect(ScenarioLuaFormatter.key("my scenario") == "[\"my scenario\"]")
        #expect(ScenarioLuaFormatter.key("end") == "[\"end\"]")
    }

    /// A right-to-left recording of two sections (as SectionsAndSizesTests records one)
    /// keeps both in its Lua.
    @Test func aRightToLeftRecordingOfTwoSectionsSaysSo() {
        var scenario = Scenario(name: "recorded", viewportSize: Size(width: 414, height: 736), numberOfItems: [1, 2],
                                framesPerSecond: 60, steps: [.wait(duration: 0.5)])
        scenario.layoutDirection = .rightToLeft
        let lua = ScenarioLuaFormatter.table(scenario)
        #expect(lua.contains("items = { 1, 2 },\n") && lua.contains("rtl = true,\n"), "\(lua)")
    }

    @Test func recordedAsLua() {
        #expect(ScenarioLuaFormatter.step(.autoplay(interval: 3, duration: 12)) == "{ autoplay = 3, duration = 12 }")
        #expect(ScenarioLuaFormatter.step(.autoplay(interval: 0.5, duration: 2.25)) == "{ autoplay = 0.5, duration = 2.25 }")
    }
}
