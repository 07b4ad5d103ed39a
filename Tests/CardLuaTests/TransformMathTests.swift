import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The transform math and the geometry constructors and getters in C (Sources/CLuaShims/transform_math.c,
/// geometry_native.c) against their Lua reference (Sources/CardLua/Lua/reference/, which
/// the stock interpreter runs in their place): the same values
/// (bit for bit, with the same integer or float subtypes; a NaN's sign bit aside; cardlua's
/// are userdata, the reference's tables, compared field by field), the same argument
/// messages; and no crash on hostile arguments (wrong types, NaN, missing fields, tables
/// and values mixed, metatables that raise).
@Suite struct TransformMathTests {
    static let seed = FuzzTests.seed % 1_000_000
    static let cases = Int(FuzzTests.environment["CARDLUA_FUZZ_TRANSFORMS"] ?? "") ?? 4000

    /// Every call of the program below, in cardlua (the C functions) and in the stock
    /// interpreter (the prelude's Lua functions), leaves the same digest.
    @Test(.enabled(if: FuzzTests.stockLua != nil, "needs the lua5.4 interpreter"))
    func cFunctionsAgreeWithTheLuaReference() throws {
        let program = Self.program(seed: Self.seed, cases: Self.cases)
        let script = program + "\nlocal digest, count = run()\nfunction transform(a) a.zIndex = digest; a.alpha = count % 1000 / 1000 end\n"
        let outcome = Safety.run(script, name: "math.lua",
                                 limits: ScriptLimits(maxSteps: 2_000_000_000, maxMemory: 256 << 20, maxTime: 60))
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        let ours = outcome.items.first.map { ($0.zIndex, Int(($0.alpha * 1000).rounded())) }

        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stock = try FuzzTests.runStockLua(try Self.stockPrelude(in: directory)
            + "\n" + program + "\nlocal digest, count = run()\nprint(digest, count % 1000)\n")
        let parts = stock.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(parts.count == 2, "stock lua5.4 printed: \(stock)")
        if let ours, parts.count == 2 {
            #expect(ours.0 == parts[0] && ours.1 == parts[1],
                    "the C transform math differs from the Lua reference (seed \(Self.seed)): print the lines of TransformMathTests.program on both sides")
        }
    }

    /// A few values worked out by hand, through the C functions.
    @Test func handComputedValues() {
        Self.check("""
        local t = CATransform3DIdentity
        local ok = math.type(t.m11) == "integer" and t.m11 == 1 and t.m12 == 0
        t.m34 = 1 / 600
        ok = ok and CATransform3DIdentity.m34 == 0                -- the identity never changes
        local r = CATransform3DRotate(CATransform3DIdentity, math.pi / 2, 0, 1, 0)
        ok = ok and math.abs(r.m13 + 1) < 1e-15 and math.abs(r.m31 - 1) < 1e-15 and r.m22 == 1
        local s = CATransform3DScale(CATransform3DIdentity, 2, 3, 4)
        ok = ok and math.type(s.m11) == "integer" and s.m11 == 2 and s.m22 == 3 and s.m33 == 4 and s.m44 == 1
        local m = CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 1, 2, 3)
        ok = ok and m.m41 == 2 and m.m42 == 4 and m.m43 == 6
        local i = CATransform3DInvert(CATransform3DMakeScale(2, 4, 8))
        ok = ok and i.m11 == 0.5 and i.m22 == 0.25 and i.m33 == 0.125 and math.type(i.m44) == "float"
        ok = ok and CATransform3DIsIdentity(CATransform3DConcat(CATransform3DMakeTranslation(5, 6, 7),
                                                                 CATransform3DMakeTranslation(-5, -6, -7)))
        local a = CGAffineTransformScale(CGAffineTransformMakeTranslation(10, 20), 2, 3)
        ok = ok and a.a == 2 and a.d == 3 and a.tx == 10 and a.ty == 20 and math.type(a.a) == "integer"
        local p = CGPointApplyAffineTransform(CGPointMake(1, 1), a)
        ok = ok and p.x == 12 and p.y == 23 and getmetatable(p) == getmetatable(CGPointMake(0, 0))
        ok = ok and getmetatable(r) == getmetatable(CATransform3DIdentity) and r == r:concat(CATransform3DIdentity)
        ok = ok and CGAffineTransformInvert(CGAffineTransformMakeScale(0, 1)).a == 0   -- singular: a copy
        local keys = {}
        for k in pairs(CATransform3DMakeRotation(1, 1, 1, 1)) do keys[#keys + 1] = k end
        ok = ok and #keys == 16
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// Wrong arguments give the prelude's messages, at the caller's line; fields that are
    /// not numbers are named.
    @Test func badArgumentsAreReportedAtTheCallersLine() {
        let cases: [(String, String)] = [
            ("CATransform3DRotate(CATransform3DIdentity, 0.3)", "CATransform3DRotate: expected (t, angle, x, y, z); x is missing"),
            ("CATransform3DIdentity:rotate(0.3, 0, 1)", "t:rotate: expected (angle, x, y, z); z is missing"),
            ("CGAffineTransformScale({}, 1, 1)", "CGAffineTransformScale: expected a CGAffineTransform as t, got a table without .a (CGAffineTransformScale(t, sx, sy))"),
            ("CATransform3DConcat(CATransform3DIdentity, 5)", "CATransform3DConcat: expected a CATransform3D as b, got a number (CATransform3DConcat(a, b))"),
            ("CATransform3DScale({ m11 = 1 }, 1, 1, 1)", "CATransform3DScale: t.m12 is nil, not a number"),
            ("CATransform3DRotate({ m11 = 1, m12 = {} }, 1, 0, 1, 0)", "CATransform3DRotate: t.m12 is a table, not a number"),
            ("CATransform3DIdentity:concat(setmetatable({ m11 = 1 }, { __index = function() error('no field') end }))", "no field"),
            ("CGSizeMake(1)", "CGSizeMake: expected (width, height); height is missing"),
            ("CGRectMake(0, 0, 10, '5')", "CGRectMake: expected (x, y, width, height); height is a string, not a number"),
        ]
        for (call, message) in cases {
            let outcome = Safety.run("function transform(attributes)\n  local t = \(call)\nend\n")
            #expect(outcome.failure.message.hasPrefix("hostile.lua:2: transform: item 0: "), "\(call): \(outcome.failure.message)")
            #expect(outcome.failure.message.contains(message), "\(call): \(outcome.failure.message)")
        }
    }

    /// The values' metatable is out of reach (getmetatable gives its name, setmetatable
    /// refuses a userdata), so no script can give it a __gc or change a method.
    @Test func theTransformMetatableIsOutOfReach() {
        let outcome = Safety.run("""
        function transform(attributes)
          assert(getmetatable(CATransform3DIdentity) == "CATransform3D" and getmetatable(CGAffineTransformIdentity) == "CGAffineTransform")
          assert(not pcall(setmetatable, CATransform3DIdentity, {}))
          getmetatable(CATransform3DIdentity).__gc = function() while true do end end
        end
        """)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:4: transform: item 0: attempt to index a string value"), "\(outcome.failure.message)")
    }

    /// The calls are charged to the budget: a loop of them ends at it.
    @Test func callsAreCharged() {
        let outcome = Safety.run("""
        function transform(attributes)
          local t = CATransform3DIdentity
          while true do local e = CATransform3DEqualToTransform(t, t) end
        end
        """, limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("exceeded the budget of 1000000 steps"))
    }

    static func check(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = Safety.run("function transform(attributes, layout)\n\(body)\nend\n")
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")", sourceLocation: sourceLocation)
        #expect(outcome.items.first?.alpha == 1, sourceLocation: sourceLocation)
    }

    /// Lua for the stock interpreter that loads the prelude as `cardlua bench --stock`
    /// does: with the Lua reference's installers in place of the C ones; `I` is the
    /// prelude's internals. (The files are written into `directory`.)
    static func stockPrelude(in directory: URL) throws -> String {
        let prelude = try TestSupport.write(Benchmark.preludeSource, named: "prelude.lua", in: directory)
        let reference = try TestSupport.write(Benchmark.referenceSource, named: "reference.lua", in: directory)
        return """
        local native = { query = function() return {} end, attributesIndex = function() end, attributesNewindex = rawset }
        local reference = assert(loadfile(\(luaString(reference)), "t"))(native)
        native.transformMath, native.geometryMakers = reference.transformMath, reference.geometryMakers
        native.elementMakers, native.elementNewindex = reference.elementMakers, reference.elementNewindex
        local I = assert(loadfile(\(luaString(prelude)), "t"))(native)
        """
    }

    static func luaString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A Lua program whose `run()` calls the transform functions `cases` times with random
    /// arguments (from a fixed seed) and returns a digest of every result (a transform's
    /// kind and each field's subtype and exact bits — a field that is not a number counts
    /// as an error, as cardlua raises there —, another table's keys and metatable) or error (the
    /// message of an argument error, without its position; "error" for any other), and the
    /// number of calls. Transform arguments are values the API made (fields set by
    /// assignment), the script's own tables (numbers, convertible strings, nil, other
    /// types), and tables whose metatable raises.
    static func program(seed: UInt64, cases: Int) -> String {
        """
        local seed, cases = \(seed), \(cases)
        local function run()
          local s = seed
          local function rand(n) s = s * 6364136223846793005 + 1442695040888963407; return (s >> 33) % n + 1 end
          local function pick(list) return list[rand(#list)] end
          local NUMBERS = { 0, 1, -1, 2, 3, 0.5, -0.0, 0.0, 0.1, 1e300, -1e300, 1/0, -1/0, 0/0, 1e-320,
            math.maxinteger, math.mininteger, 2^53 + 1, 9007199254740993, 1e15, 1 / 600, -2.5, 4294967296 }
          local I3, IA = CATransform3DIdentity, CGAffineTransformIdentity
          local T3M = { rotate = I3.rotate, scale = I3.scale, translate = I3.translate, concat = I3.concat,
            invert = I3.invert, isIdentity = I3.isIdentity }
          local AM = { rotate = IA.rotate, scale = IA.scale, translate = IA.translate, concat = IA.concat,
            invert = IA.invert, isIdentity = IA.isIdentity }
          -- A script's own transform tables, some with a metatable (cardlua's values have
          -- one out of reach; the Lua reference's tables have the prelude's).
          local T3MT, AMT = { __index = {} }, { __index = {} }
          local K3 = { "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24", "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44" }
          local KA = { "a", "b", "c", "d", "tx", "ty" }
          local raising = setmetatable({}, { __index = function() error("raising index") end })
          local function number()
            local r = rand(20)
            if r == 1 then return pick({ "2", "0x10", " 3 ", "x", "" }) end
            if r == 2 then return pick({ true, {}, "1e2" }) end
            if r <= 12 then return pick(NUMBERS) end
            return (rand(2001) - 1001) / pick({ 1, 7, 100, 1000 })
          end
          local function ordinary() return (rand(200001) - 100001) / pick({ 7, 3.3, 1000, 0.013 }) end
          local function fieldValue()
            local r = rand(60)
            if r == 1 then return nil end
            if r == 2 then return pick({ "2", "-1.5", "x", {} }) end
            return number()
          end
          -- A value the API made (userdata in cardlua, a table in the reference), its fields
          -- set by assignment.
          local function realOf(keys, fresh)
            local t = fresh()
            for _, k in ipairs(keys) do
              local r = rand(4)
              if r == 1 then t[k] = pick(NUMBERS) elseif r == 2 then t[k] = ordinary() end
            end
            return t
          end
          local function real3D() return CATransform3DIdentity end
          local function realAffine() return CGAffineTransformIdentity end
          local function transformOf(keys, mt, identity)
            local r = rand(30)
            if r == 1 then return pick({ 5, "t", false, {}, raising }) end
            if r <= 10 then return realOf(keys, keys == K3 and real3D or realAffine) end
            if r == 11 then return keys == K3 and realOf(KA, realAffine) or realOf(K3, real3D) end  -- the other kind
            if r == 2 then return setmetatable({ [keys[1]] = 1 }, { __index = function() error("raising index") end }) end
            local t = {}
            for i, k in ipairs(keys) do
              local r = rand(40)
              if r == 1 then t[k] = fieldValue()
              elseif r <= 10 then t[k] = identity[i]
              elseif r <= 18 then t[k] = pick(NUMBERS)
              else t[k] = ordinary() end  -- where rounding differs if the order of operations does
            end
            if rand(3) > 1 then setmetatable(t, mt) end
            return t
          end
          local ID3 = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }
          local IDA = { 1, 0, 0, 1, 0, 0 }
          local function arg(kind)
            if kind == "n" then
              local r = rand(25)
              if r == 1 then return pick({ "1", false, {}, true }) end
              if r <= 4 then return pick({ 0, 1, 1.0, 0.0 }) end
              if r <= 15 then return ordinary() end
              return number()
            elseif kind == "T" then return transformOf(K3, T3MT, ID3)
            elseif kind == "A" then return transformOf(KA, AMT, IDA)
            elseif kind == "U" then return realOf(K3, real3D)
            elseif kind == "V" then return realOf(KA, realAffine)
            elseif kind == "R" then  -- a rect for the getters: theirs, a script's own, or hostile
              local r = rand(12)
              if r == 1 then return pick({ 3, "r", false }) end
              if r == 2 then return { x = fieldValue(), y = fieldValue(), width = fieldValue(), height = fieldValue() } end
              if r == 3 then return setmetatable({ width = 1 }, { __index = function() error("raising index") end }) end
              if r == 4 then return CGRectMake(pick(NUMBERS), pick(NUMBERS), pick(NUMBERS), pick(NUMBERS)) end
              return CGRectMake(ordinary(), ordinary(), ordinary(), ordinary())
            else return rand(10) == 1 and pick({ 3, {} }) or CGPointMake(pick(NUMBERS), pick(NUMBERS))
            end
          end
          local FUNCTIONS = {
            { "CATransform3DMakeTranslation", "nnn" }, { "CATransform3DMakeScale", "nnn" },
            { "CATransform3DMakeRotation", "nnnn" }, { "CATransform3DRotate", "Tnnnn" },
            { "CATransform3DScale", "Tnnn" }, { "CATransform3DTranslate", "Tnnn" }, { "CATransform3DConcat", "TT" },
            { "CATransform3DInvert", "T" }, { "CATransform3DIsIdentity", "T" }, { "CATransform3DEqualToTransform", "TT" },
            { "CATransform3DMakeAffineTransform", "A" }, { "CATransform3DGetAffineTransform", "T" },
            { "CATransform3DIsAffine", "T" }, { "CGAffineTransformMake", "nnnnnn" }, { "CGAffineTransformMakeScale", "nn" },
            { "CGAffineTransformMakeRotation", "n" }, { "CGAffineTransformMakeTranslation", "nn" },
            { "CGAffineTransformScale", "Ann" }, { "CGAffineTransformRotate", "An" }, { "CGAffineTransformTranslate", "Ann" },
            { "CGAffineTransformConcat", "AA" }, { "CGAffineTransformInvert", "A" }, { "CGAffineTransformIsIdentity", "A" },
            { "CGAffineTransformEqualToTransform", "AA" }, { "CGPointApplyAffineTransform", "PA" },
            { "CGPointMake", "nn" }, { "CGSizeMake", "nn" }, { "CGRectMake", "nnnn" }, { "UIEdgeInsetsMake", "nnnn" },
            { "CGRectGetMinX", "R" }, { "CGRectGetMidX", "R" }, { "CGRectGetMaxX", "R" }, { "CGRectGetMinY", "R" },
            { "CGRectGetMidY", "R" }, { "CGRectGetMaxY", "R" }, { "CGRectGetWidth", "R" }, { "CGRectGetHeight", "R" },
            { T3M.rotate, "Tnnnn" }, { T3M.scale, "Tnnn" }, { T3M.translate, "Tnnn" }, { T3M.concat, "TT" },
            { T3M.invert, "T" }, { T3M.isIdentity, "T" }, { AM.scale, "Ann" }, { AM.rotate, "An" },
            { AM.translate, "Ann" }, { AM.concat, "AA" }, { AM.invert, "A" }, { AM.isIdentity, "A" },
            { function(a, b) return a == b end, "UU" }, { function(a, b) return a == b end, "VV" },
            { function(a, b) return a == b end, "UV" },
            { function() return CATransform3DIdentity end, "" }, { function() return CGAffineTransformIdentity end, "" },
          }
          local TRANSFORMS = { CATransform3D = { "T3", K3 }, CGAffineTransform = { "A", KA } }
          -- A value's type name: a userdata's metatable shows only its name; a table's has __name.
          local function kindOf(v)
            local mt = getmetatable(v)
            if type(mt) == "table" then return rawget(mt, "__name") end
            return mt
          end
          local function show(v)
            local t = type(v)
            if t == "number" then
              if v ~= v then return "nan" end  -- (its sign bit is not fixed by C or by Lua's VM)
              return math.type(v) == "integer" and ("i" .. tostring(v)) or ("f" .. string.format("%a", v))
            elseif TRANSFORMS[kindOf(v)] then
              -- A transform: its kind and fields in order. cardlua's hold only numbers: where
              -- the reference copies something else into a result, cardlua raises.
              local kind = TRANSFORMS[kindOf(v)]
              local parts = { kind[1] }
              for _, k in ipairs(kind[2]) do
                local x = v[k]
                if type(x) ~= "number" then return "E" end
                parts[#parts + 1] = k .. "=" .. show(x)
              end
              return "{" .. table.concat(parts, ",") .. "}"
            elseif t == "table" then
              local parts, mt = {}, getmetatable(v)
              parts[1] = mt == T3MT and "T3" or mt == AMT and "A" or mt == getmetatable(CGPointMake(0, 0)) and "P" or tostring(mt ~= nil)
              local keys = {}
              for k in next, v do keys[#keys + 1] = tostring(k) end
              table.sort(keys)  -- (pairs order depends on the state's string hash seed)
              for _, k in ipairs(keys) do
                local x = v[k]
                parts[#parts + 1] = k .. "=" .. (type(x) == "table" and "table" or show(x))
              end
              return "{" .. table.concat(parts, ",") .. "}"
            end
            return t .. ":" .. tostring(v)
          end
          local digest, count = 0, 0
          for _ = 1, cases do
            local entry = pick(FUNCTIONS)
            local fn = type(entry[1]) == "string" and _G[entry[1]] or entry[1]
            local args, n = {}, #entry[2]
            for i = 1, n do args[i] = arg(entry[2]:sub(i, i)) end
            if rand(12) == 1 then n = n + 1; args[n] = pick({ 1, false }) end
            if rand(12) == 1 and n > 0 then args[n] = nil; n = n - 1 end
            local ok, result = pcall(fn, table.unpack(args, 1, n))
            local line
            if ok then line = show(result)
            elseif type(result) == "string" and result:find(": expected ") then line = "E" .. result:gsub("^[^:]*:%d+: ", "")
            else line = "E" end
            count = count + 1
            for i = 1, #line do digest = (digest * 31 + line:byte(i)) % 2147483647 end
          end
          return digest, count
        end
        """
    }
}
