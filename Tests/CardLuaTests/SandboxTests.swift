import CardLayout
import CardLua
import Foundation
import Testing

/// The sandbox of Sources/CLuaShims/README.md and the checks on every value that crosses from Lua.
@Suite struct SandboxTests {
    /// Runs `body` inside transform; the test passes when it sets attributes.alpha = 1.
    static func check(_ body: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = Safety.run("function transform(attributes, layout)\n\(body)\nend\n")
        #expect(outcome.error == nil, comment, sourceLocation: sourceLocation)
        #expect(outcome.items.first?.alpha == 1, comment, sourceLocation: sourceLocation)
    }

    // MARK: What a script can reach

    @Test func forbiddenNamesAreAbsent() {
        Self.check("""
        local gone = { io, os, package, debug, dofile, loadfile, load, require, collectgarbage,
          string.dump, loadstring, module, setfenv, getfenv, newproxy }
        local n = 0
        for _ in pairs(gone) do n = n + 1 end
        attributes.alpha = (n == 0 and debug == nil and io == nil) and 1 or 0
        """)
    }

    /// Nothing reachable from the globals, the string metatable or the objects a callback
    /// receives is a userdata but cardlua's own transforms (CATransform3D and
    /// CGAffineTransform values, whose metatable shows only their name): no file handle,
    /// no host object.
    @Test func noUserdataIsReachableButTransforms() {
        Self.check("""
        local seen, foreign, transforms, queue = {}, 0, 0, { _G, attributes, layout, attributes.center,
          attributes.frame, attributes.transform3D, attributes.transform, layout.collectionView, ("").len }
        local OURS = { CATransform3D = true, CGAffineTransform = true }
        local function visit(v)
          if v == nil or seen[v] then return end
          local t = type(v)
          if t == "userdata" then
            seen[v] = true
            if OURS[getmetatable(v)] == true and type(v.rotate) == "function" then
              transforms = transforms + 1
              visit(v.rotate)
            else
              foreign = foreign + 1
            end
            return
          end
          if t ~= "table" and t ~= "function" then return end
          seen[v] = true
          queue[#queue + 1] = v
        end
        local i = 1
        while queue[i] do
          local v = queue[i]
          i = i + 1
          if type(v) == "table" then
            for k, x in next, v do visit(k); visit(x) end
            local mt = getmetatable(v)
            if type(mt) == "table" then visit(mt) end
          elseif type(v) == "userdata" then
            visit(v)
          end
        end
        attributes.alpha = foreign == 0 and transforms >= 2 and i > 100 and 1 or 0
        """)
    }

    @Test func stringMetatableIsHidden() {
        Self.check("""
        local hidden = getmetatable("") == false
        local refused = not pcall(setmetatable, "", {})
        local methods = ("abc"):upper() == "ABC"
        attributes.alpha = (hidden and refused and methods) and 1 or 0
        """)
    }

    /// Text chunks only: a script that is bytecode is refused, and nothing can load code.
    @Test func bytecodeIsRefused() {
        let outcome = Safety.run("\u{1B}LuaT\u{0}\u{19}\u{93}\r\n\u{1A}\n")
        #expect(outcome.failure.kind == .failed)
        #expect(outcome.failure.message.contains("attempt to load a binary chunk (mode is 't')"))
        let viaLoad = Safety.run("local f = load(string.dump(function() end))")
        #expect(viaLoad.failure.message.contains("attempt to call a nil value"))
    }

    @Test func randomSeedIsFixed() {
        Self.check("""
        local a = math.random(1, 1000000)
        math.randomseed()
        local b = math.random(1, 1000000)
        math.randomseed(7)
        local c = math.random(1, 1000000)
        attributes.alpha = (a == b and a ~= c) and 1 or 0
        """)
    }

    /// Finalizers run with hooks off, where no limit could stop them: refused.
    @Test(arguments: [
        "setmetatable({}, {__gc = function() while true do end end})",
        "setmetatable({}, {__gc = function() local t = {} while true do t[#t + 1] = {} end end})",
        "setmetatable({}, {__gc = false})",
    ])
    func gcMetamethodsAreRefused(call: String) {
        let outcome = Safety.run("\(call)\nfunction transform() end\n")
        #expect(outcome.failure.kind == .failed)
        #expect(outcome.failure.message == "hostile.lua:1: setmetatable: __gc metamethods are not allowed in cardlua scripts (a finalizer runs outside the limits)")
    }

    /// A __gc added after setmetatable never runs (Lua marks objects when the metatable
    /// is set), so closing the state stays prompt.
    @Test func lateGcNeverRuns() throws {
        let start = Date()
        do {
            let effect = try LuaEffect(source: """
            local mt = {}
            keep = setmetatable({}, mt)
            mt.__gc = function() while true do end end
            """, chunkName: "hostile.lua")
            #expect(effect.definesFunction("transform") == false)
        }
        #expect(Date().timeIntervalSince(start) < 20)  // a hang guard
    }

    // MARK: Scripts that break their own environment break only themselves

    @Test(arguments: [
        "setmetatable = nil; string = nil; rawset = error; tostring = nil; pairs = nil; ipairs = nil; type = nil",
        "CATransform3DIdentity = 5; CGRectMake = nil; CATransform3DRotate = error",
        "setmetatable(_G, nil)",
        "setmetatable(_G, { __index = function() while true do end end, __newindex = error })",
        "setmetatable(_G, { __index = function() error('no globals for you') end })",
        "_G = nil; math = nil; table = nil; coroutine = nil; utf8 = nil",
        "pcall(function() getmetatable(CATransform3DMakeScale(1, 1, 1)).__index = nil end)",
        "getmetatable(CGRectMake(0, 0, 1, 1)).__index = function() while true do end end",
    ])
    func overwrittenGlobalsLeaveTheHostAlone(change: String) {
        // No callbacks that use the damage: the host must still run every callback path.
        let outcome = Safety.run("\(change)\n")
        #expect(outcome.error == nil)
        #expect(outcome.items.count == 5)
        #expect(outcome.target == Point(x: 300, y: 0))
    }

    /// When the script then uses what it broke, the error is its own and clear.
    @Test func brokenIdentityGivesAClearError() {
        let outcome = Safety.run("""
        CATransform3DIdentity = 5
        function transform(attributes)
          local t = CATransform3DIdentity
          t.m34 = 1 / 600
        end
        """)
        #expect(outcome.failure.kind == .failed)
        #expect(outcome.failure.message == "hostile.lua:4: transform: item 0: attempt to index a number value (local 't')")
    }

    /// The attributes table's own metatable can be damaged; the host reads raw fields.
    @Test func damagedAttributesMetatable() {
        let outcome = Safety.run("""
        function transform(attributes)
          setmetatable(attributes, { __index = function() while true do end end })
          rawset(attributes, "alpha", 0.5)
        end
        """)
        #expect(outcome.error == nil)
        #expect(outcome.items.allSatisfy { $0.alpha == 0.5 })
    }

    // MARK: Every value that crosses from Lua is checked

    @Test(arguments: [
        ("return coroutine.create(print)", "returned a thread; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        ("return print", "returned a function; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        ("return function() end", "returned a function; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        ("return true", "returned a boolean; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        ("return 'big'", "returned a string; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        ("return {}", "returned a table that is neither a CATransform3D nor a CGAffineTransform"),
        ("return 0/0", "returned NaN as the scale"),
        ("return 1/0", "returned an infinite number as the scale"),
        ("return 1e300", "returned 1e+300 as the scale, beyond the largest magnitude allowed (1e15)"),
        ("attributes.transform3D = print", "attributes.transform3D is a function, expected a CATransform3D"),
        ("attributes.transform3D = coroutine.create(print)", "attributes.transform3D is a thread, expected a CATransform3D"),
        ("attributes.transform = 'x'", "attributes.transform is a string, expected a CGAffineTransform"),
        ("local t = CATransform3DIdentity; t.m22 = print; attributes.transform3D = t", "CATransform3D.m22 must be a number, got a function"),
        ("local t = { m11 = 1 }; t.m12 = print; attributes.transform3D = t", "attributes.transform3D.m12 is function, expected a number"),
        ("local t = CGAffineTransformIdentity; t.tx = 1 / 0; attributes.transform = t", "attributes.transform.tx is infinite"),
        ("return CGAffineTransformMakeTranslation(0, -1e300)", "the returned transform.ty is -1e+300, beyond the largest magnitude allowed (1e15)"),
        ("local t = CATransform3DIdentity; t.m41 = 1e300; return t", "the returned transform.m41 is 1e+300, beyond the largest magnitude allowed (1e15)"),
        ("local t = CATransform3DIdentity; t.m34 = 0/0; return t", "the returned transform.m34 is NaN"),
        ("attributes.center = attributes", "attributes.center.x is missing, expected a number"),
        ("attributes.center = {x = 1e300, y = 0}", "attributes.center.x is 1e+300, beyond the largest magnitude allowed (1e15)"),
        ("attributes.center = {x = 0, y = -1/0}", "attributes.center.y is infinite"),
        ("attributes.frame = CGRectMake(0, 0, -1, 5)", "attributes.frame has a negative size (-1.0 x 5.0)"),
        ("attributes.size = print", "attributes.size is a function, expected a CGSize"),
        ("attributes.alpha = coroutine.running()", "attributes.alpha is a thread, expected a number"),
        ("attributes.alpha = 0/0", "attributes.alpha is NaN"),
        ("attributes.zIndex = 2^53 + 1", "attributes.zIndex is 9.007199254741e+15, expected a whole number from -2147483648 to 2147483647"),
        ("attributes.zIndex = math.maxinteger", "attributes.zIndex is 9223372036854775807, expected a whole number from -2147483648 to 2147483647"),
        ("attributes.zIndex = 2^31", "attributes.zIndex is 2147483648.0, expected a whole number from -2147483648 to 2147483647"),
        ("attributes.zIndex = 1.5", "attributes.zIndex is 1.5, expected a whole number from -2147483648 to 2147483647; use math.floor(…) to make it one"),
        ("attributes.zIndex = '1'", "attributes.zIndex is a string, expected an integer"),
        ("attributes.hidden = 1", "attributes.hidden is a number, expected a boolean"),
        ("local t = setmetatable({}, {__index = function(t, k) error('no ' .. k) end}); return t", "no m11"),
        ("local t = setmetatable({m11 = 1}, {__index = function() while true do end end}); return t", "exceeded the budget of"),
    ])
    func transformValuesAreChecked(body: String, expected: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.error != nil)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:"))
        #expect(outcome.failure.message.contains("transform: item 0: \(expected)"))
        #expect(Safety.isLocated(outcome.failure.message))
    }

    /// Values that are fine: negative zero, integral floats, the largest magnitudes.
    @Test func edgeValuesThatAreFine() {
        let outcome = Safety.run("""
        function transform(attributes)
          attributes.zIndex = -0.0
          attributes.alpha = -0.0
          attributes.center = { x = 1e15, y = -1e15 }
          if attributes.indexPath.item == 1 then attributes.zIndex = 2147483647.0 end
          if attributes.indexPath.item == 2 then attributes.zIndex = -2147483648 end
        end
        """)
        #expect(outcome.error == nil)
        #expect(outcome.items.map(\.zIndex) == [0, 2_147_483_647, -2_147_483_648, 0, 0])
        #expect(outcome.items.allSatisfy { $0.center == Point(x: 1e15, y: -1e15) })
    }

    @Test(arguments: [
        ("return print", "returned a function; expected a CGPoint or a number"),
        ("return coroutine.create(print)", "returned a thread; expected a CGPoint or a number"),
        ("return nil", "returned nothing; expected a CGPoint or a number"),
        ("return 1e300", "returned y = 1e+300, beyond the largest magnitude allowed (1e15)"),  // vertical: y
        ("return {x = -1e16}", "returned x = -1e+16, beyond the largest magnitude allowed (1e15)"),
        ("return {x = 0/0, y = 0}", "returned x = NaN"),
        ("return {x = print}", "returned x = "),
        ("return {}", "returned a table without x and y; expected a CGPoint or a number"),
        ("return setmetatable({}, {__index = function() error('no point') end})", "no point"),
    ])
    func targetValuesAreChecked(body: String, expected: String) {
        let outcome = Safety.run("function targetContentOffset(proposed, velocity)\n  \(body)\nend\n")
        #expect(outcome.error != nil)
        #expect(outcome.failure.message.contains("targetContentOffset: \(expected)"))
        #expect(Safety.isLocated(outcome.failure.message))
    }

    @Test(arguments: [
        ("layout.itemSize = { width = 1e300, height = 10 }", "layout.itemSize.width is 1e+300, beyond the largest magnitude allowed (1e15)"),
        ("layout.minimumLineSpacing = 1e308", "layout.minimumLineSpacing is 1e+308, beyond the largest magnitude allowed (1e15)"),
        ("layout.sectionInset = { top = 0, left = 2e15, bottom = 0, right = 0 }", "layout.sectionInset.left is 2e+15, beyond the largest magnitude allowed (1e15)"),
        ("layout.itemSize = print", "layout.itemSize is a function"),
        ("layout.itemSize = { width = 0/0, height = 1 }", "layout.itemSize.width must be a finite number"),
        ("layout.scrollDirection = coroutine.running()", "layout.scrollDirection must be"),
    ])
    func layoutValuesAreChecked(body: String, expected: String) {
        let outcome = Safety.run("function prepare(layout)\n  \(body)\nend\n")
        #expect(outcome.error != nil)
        #expect(outcome.failure.message.contains("prepare: \(expected)"))
        #expect(Safety.isLocated(outcome.failure.message))
    }

    // MARK: The counted pattern functions keep Lua's results

    @Test func patternFunctionsMatchLua() {
        Self.check(#"""
        local ok = true
        local function same(a, b) if a ~= b then ok = false; print("mismatch", a, b) end end
        same(select(2, ("hello world"):gsub("o", "0")), 2)
        same(("hello world"):gsub("(%w+)", "<%1>"), "<hello> <world>")
        same(("abc"):gsub("", "-"), "-a-b-c-")
        same(("abc"):gsub("b*", "-"), "-a-c-")
        same(("THE (quick) fox"):match("%((%a+)%)"), "quick")
        same(select(2, ("  x"):find("^%s*()")), 2)
        same(("[[x]]"):match("%b[]"), "[[x]]")
        same(("THE (quick) fox"):find("%f[%a]%a+", 5), 6)
        same(("key = value"):match("^(%w+)%s*=%s*(%w+)$"), "key")
        same(select(2, ("aaa"):find("a-", 2)), 1)
        local words = {}
        for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
        same(table.concat(words, ","), "one,two,three")
        same(("abc"):gsub("%w", { a = "1", b = false }), "1bc")
        same(("x = 1, y = 2"):gsub("(%w+) = (%w+)", "%2 = %1"), "1 = x, 2 = y")
        same(select(2, pcall(string.find, "a", "(")), "unfinished capture")
        same(select(2, pcall(string.rep)), "bad argument #1 to 'string.rep' (string expected, got no value)")
        same(select(2, pcall(string.gsub, "a", "a", true)), "bad argument #3 to 'string.gsub' (string/function/table expected, got boolean)")
        same(string.find("a+b", "+", 1, true), 2)
        same(utf8.len("héllo"), 5)
        same(tonumber("ff", 16), 255)
        same(table.concat({ 1, 2, 3 }, "-"), "1-2-3")
        same(select("#", table.unpack({ 1, 2, 3 })), 3)
        local t = { 3, 1, 2 }
        table.sort(t)
        same(table.concat(t), "123")
        table.insert(t, 1, 0)
        same(table.remove(t), 3)
        same(table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), ""), "1123")
        attributes.alpha = ok and 1 or 0
        """#)
    }
}
