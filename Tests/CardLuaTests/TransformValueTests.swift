import CardLayout
import CardLua
import Foundation
import Testing

/// CATransform3D and CGAffineTransform values as userdata (Sources/CLuaShims/transform_math.c):
/// fields that read and write as a table's did, with their Lua subtypes; `pairs`,
/// `tostring`, `==`; value semantics; one-line errors for unknown fields and non-numbers;
/// the host's read-back of values and tables alike. Expected values are worked out by hand.
@Suite struct TransformValueTests {
    /// Runs `body` inside transform; passes when it sets attributes.alpha = 1.
    static func check(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) {
        TransformMathTests.check(body, sourceLocation: sourceLocation)
    }

    @Test func aValueIsAUserdataWithTheFieldsOfATable() {
        Self.check("""
        local t = CATransform3DIdentity
        local ok = type(t) == "userdata" and getmetatable(t) == "CATransform3D"
        ok = ok and getmetatable(CGAffineTransformIdentity) == "CGAffineTransform"
        ok = ok and math.type(t.m11) == "integer" and tostring(t.m11) == "1" and t.m44 == 1 and t.m12 == 0
        ok = ok and t.m35 == nil and t.x == nil and t[1] == nil and t.rotate ~= nil  -- as a table would
        ok = ok and not pcall(rawget, t, "m11") and not pcall(next, t) and not pcall(setmetatable, t, {})
        local a = CGAffineTransformMake(1, 2.5, 3, 4, 5, 6)
        ok = ok and a.b == 2.5 and math.type(a.b) == "float" and math.type(a.a) == "integer" and a.m11 == nil
        attributes.alpha = ok and 1 or 0
        """)
    }

    @Test func pairsGivesTheFieldsInOrder() {
        Self.check("""
        local keys, values = {}, {}
        for k, v in pairs(CATransform3DMakeTranslation(7, 8, 9)) do keys[#keys + 1] = k; values[#values + 1] = v end
        local ok = table.concat(keys, " ") == "m11 m12 m13 m14 m21 m22 m23 m24 m31 m32 m33 m34 m41 m42 m43 m44"
        ok = ok and table.concat(values, " ") == "1 0 0 0 0 1 0 0 0 0 1 0 7 8 9 1"
        keys = {}
        for k in pairs(CGAffineTransformIdentity) do keys[#keys + 1] = k end
        ok = ok and table.concat(keys, " ") == "a b c d tx ty"
        local f = pairs(CATransform3DIdentity)
        ok = ok and not pcall(f, {}, nil) and not pcall(f, 5)  -- the iterator checks its argument
        attributes.alpha = ok and 1 or 0
        """)
    }

    @Test func tostringPrintsTheFieldsAsTostringDoes() {
        Self.check("""
        local ok = tostring(CATransform3DMakeScale(0.5, 2, 1)) ==
          "CATransform3D(0.5, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)"
        ok = ok and tostring(CGAffineTransformMakeTranslation(1.0, -3)) == "CGAffineTransform(1, 0, 0, 1, 1.0, -3)"
        local t = CATransform3DIdentity
        t.m34 = 1 / 0
        ok = ok and tostring(t):find(", 1, inf, 0, ", 1, true) ~= nil
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// Subtypes survive assignment and the math; integer arithmetic wraps as Lua's does.
    @Test func subtypesArePreserved() {
        Self.check("""
        local t = CATransform3DIdentity
        t.m11 = math.maxinteger
        local ok = math.type(t.m11) == "integer" and t.m11 == math.maxinteger
        local r = CATransform3DTranslate(t, 2, 0, 0)   -- m41 = 2 * maxinteger + 0 + 0 + 0 wraps to -2
        ok = ok and math.type(r.m41) == "integer" and r.m41 == -2
        t.m22 = 2.0
        ok = ok and math.type(t.m22) == "float" and tostring(t.m22) == "2.0"
        t.m22 = 2
        ok = ok and math.type(t.m22) == "integer"
        local s = CATransform3DScale(CATransform3DIdentity, 3, 2.0, 1)
        ok = ok and math.type(s.m11) == "integer" and s.m11 == 3 and math.type(s.m22) == "float"
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// `t = CATransform3DIdentity; t.m34 = …` never changes the identity; a function
    /// never changes its argument; attributes.transform3D is one value per item.
    @Test func valueSemantics() {
        Self.check("""
        local t = CATransform3DIdentity
        t.m34 = 1 / 600
        local ok = CATransform3DIdentity.m34 == 0 and t.m34 == 1 / 600
        ok = ok and not rawequal(CATransform3DIdentity, CATransform3DIdentity)
        local r = t:rotate(1, 0, 1, 0)
        ok = ok and t.m11 == 1 and r.m11 ~= 1
        ok = ok and rawequal(attributes.transform3D, attributes.transform3D)
        attributes.transform3D.m34 = -1 / 500
        ok = ok and attributes.transform3D.m34 == -1 / 500
        local a = CGAffineTransformIdentity
        a.tx = 5
        ok = ok and CGAffineTransformIdentity.tx == 0
        attributes.alpha = ok and 1 or 0
        """)
    }

    @Test func assignmentsThatStickReachTheHost() throws {
        let outcome = Safety.run("""
        function transform(attributes)
          attributes.transform3D.m34 = -1 / 500
          attributes.transform3D.m41 = 2.5
        end
        """)
        #expect(outcome.error == nil)
        let m = try #require(outcome.items.first).transform3D
        #expect(m.m34 == -1.0 / 500 && m.m41 == 2.5 && m.m11 == 1 && m.m44 == 1)
    }

    @Test func equalityComparesTheFieldsOfTheSameKind() {
        Self.check("""
        local a, b = CATransform3DIdentity, CATransform3DIdentity
        local ok = a == b
        b.m11 = 1.0
        ok = ok and a == b                       -- 1 == 1.0, as in Lua
        b.m12 = 0 / 0
        local c = CATransform3DIdentity
        c.m12 = 0 / 0
        ok = ok and a ~= b and b ~= c            -- NaN is not equal to itself
        ok = ok and b == b                       -- (the same object: Lua does not ask __eq)
        ok = ok and CATransform3DIdentity ~= CGAffineTransformIdentity
        ok = ok and CGAffineTransformIdentity ~= CATransform3DIdentity
        ok = ok and CATransform3DIdentity ~= { m11 = 1 }   -- a table and a userdata: never equal
        ok = ok and CGAffineTransformMakeScale(2, 3) == CGAffineTransformMake(2, 0, 0, 3, 0, 0)
        ok = ok and CATransform3DEqualToTransform(CATransform3DIdentity,
          { m11 = 1, m12 = 0, m13 = 0, m14 = 0, m21 = 0, m22 = 1, m23 = 0, m24 = 0,
            m31 = 0, m32 = 0, m33 = 1, m34 = 0, m41 = 0, m42 = 0, m43 = 0, m44 = 1 })
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// Writing an unknown field or a non-number is one line at the script's line.
    @Test(arguments: [
        ("local t = CATransform3DIdentity\n  t.m35 = 1", "CATransform3D has no field 'm35' (fields m11…m44)"),
        ("local t = CATransform3DIdentity\n  t.rotate = 1", "CATransform3D has no field 'rotate' (fields m11…m44)"),
        ("local t = CATransform3DIdentity\n  t[1] = 1", "CATransform3D has no field [1] (fields m11…m44)"),
        ("local t = CATransform3DIdentity\n  t[t] = 1", "CATransform3D has no field [a userdata] (fields m11…m44)"),
        ("local t = CATransform3DIdentity\n  t.m34 = 'x'", "CATransform3D.m34 must be a number, got a string"),
        ("local t = CATransform3DIdentity\n  t.m34 = nil", "CATransform3D.m34 must be a number, got nil"),
        ("local t = CGAffineTransformIdentity\n  t.e = 1", "CGAffineTransform has no field 'e' (fields a, b, c, d, tx, ty)"),
        ("local t = CGAffineTransformIdentity\n  t.tx = {}", "CGAffineTransform.tx must be a number, got a table"),
        ("local t = attributes.transform3D\n  t.m34 = true", "CATransform3D.m34 must be a number, got a boolean"),
    ])
    func badAssignmentsAreReportedAtTheirLine(_ body: String, _ message: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.failure.message == "hostile.lua:3: transform: item 0: \(message)", "\(outcome.failure.message)")
    }

    /// A NaN is stored; the read-back reports it with the field's name, as for a table.
    @Test(arguments: [
        ("attributes.transform3D.m34 = 0 / 0", "attributes.transform3D.m34 is NaN"),
        ("local t = CATransform3DIdentity; t.m43 = -1 / 0; attributes.transform3D = t", "attributes.transform3D.m43 is infinite"),
        ("local t = CGAffineTransformIdentity; t.c = 0 / 0; return t", "the returned transform.c is NaN"),
        ("attributes.transform = CGAffineTransformMakeTranslation(2e15, 0)", "attributes.transform.tx is 2e+15, beyond the largest magnitude allowed (1e15)"),
        ("attributes.center = CATransform3DIdentity", "attributes.center is a userdata, expected a CGPoint"),
    ])
    func theReadBackChecksValues(_ body: String, _ message: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.failure.message.contains("transform: item 0: \(message)"), "\(outcome.failure.message)")
        #expect(Safety.isLocated(outcome.failure.message), "\(outcome.failure.message)")
    }

    /// Values, tables and a mix of the two go in; values come out; hostile arguments give
    /// messages, never a crash.
    @Test func tablesAndValuesMix() {
        Self.check("""
        local scale2 = { m11 = 2, m12 = 0, m13 = 0, m14 = 0, m21 = 0, m22 = 2, m23 = 0, m24 = 0,
                         m31 = 0, m32 = 0, m33 = 2, m34 = 0, m41 = 0, m42 = 0, m43 = 0, m44 = 1 }
        local c = CATransform3DConcat(scale2, CATransform3DMakeTranslation(1, 2, 3))
        local ok = type(c) == "userdata" and c.m11 == 2 and c.m41 == 1 and c.m43 == 3
        c = CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 3), setmetatable(scale2, { __index = {} }))
        ok = ok and c.m41 == 2 and c.m42 == 4 and c.m43 == 6 and math.type(c.m41) == "integer"
        local a = CGAffineTransformConcat({ a = 1, b = 0, c = 0, d = 1, tx = 3, ty = 4 }, CGAffineTransformMakeScale(2, 2))
        ok = ok and type(a) == "userdata" and a.tx == 6 and a.ty == 8
        local p = CGPointApplyAffineTransform(CGPointMake(1, 1), CGAffineTransformMakeScale(2, 3))
        ok = ok and type(p) == "table" and p.x == 2 and p.y == 3
        local e1 = select(2, pcall(CATransform3DScale, { m11 = 1, m12 = 0, m13 = 0, m14 = 0, m21 = 0, m22 = 1, m23 = 0,
          m24 = 0, m31 = 0, m32 = 0, m33 = 1, m34 = 0, m41 = "2", m42 = 0, m43 = 0, m44 = 1 }, 2, 2, 2))
        ok = ok and e1 == "CATransform3DScale: t.m41 is a string, not a number"
        local e2 = select(2, pcall(CATransform3DMakeAffineTransform, { a = 1, b = 0, c = 0, d = 1, tx = 0 }))
        ok = ok and e2 == "CATransform3DMakeAffineTransform: t.ty is nil, not a number"
        local e3 = select(2, pcall(CATransform3DConcat, CATransform3DIdentity, CGAffineTransformIdentity))
        ok = ok and e3:find("expected a CATransform3D as b, got a CGAffineTransform", 1, true) ~= nil
        ok = ok and pcall(CATransform3DRotate, CATransform3DIdentity, 0 / 0, 0, 1, 0)  -- NaN is a number
        ok = ok and CATransform3DRotate(CATransform3DIdentity, 0 / 0, 0, 1, 0).m11 ~= CATransform3DRotate(CATransform3DIdentity, 0 / 0, 0, 1, 0).m11
        local e5 = select(2, pcall(CATransform3DIdentity.isIdentity, 5))
        ok = ok and type(e5) == "string"
        ok = ok and CATransform3DIsIdentity(CATransform3DIdentity) and CATransform3DIdentity:isIdentity()
        ok = ok and CATransform3DIsAffine(CATransform3DMakeAffineTransform(CGAffineTransformMakeRotation(1)))
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// In a cardlua state no transform is a table: every way the API and the host hand
    /// one out gives a value.
    @Test func noTransformIsATable() {
        Self.check("""
        local e = layout:layoutAttributesForItem(IndexPath(0, 0))
        local all = { CATransform3DIdentity, CGAffineTransformIdentity, attributes.transform3D, attributes.transform,
          e.transform3D, e.transform, CATransform3DMakeAffineTransform(CGAffineTransformIdentity),
          CATransform3DGetAffineTransform(CATransform3DIdentity), CATransform3DInvert(CATransform3DMakeScale(0, 1, 1)),
          layout:layoutAttributesForElements(layout.collectionView.bounds)[1].transform3D }
        local ok = #all == 10
        for i = 1, #all do ok = ok and type(all[i]) == "userdata" end
        e.transform = CGAffineTransformMakeScale(2, 2)
        ok = ok and type(e.transform3D) == "userdata" and e.transform3D.m11 == 2
        attributes.alpha = ok and 1 or 0
        """)
    }

    /// The element query's returned tables are read back with the same checks.
    @Test func elementsReadValuesBack() {
        let error = ElementQueryTests.failure(ElementQueryTests.row + """
        function layoutAttributesForElements(rect, layout)
          local all = layout:layoutAttributesForElements(rect)
          all[1].transform3D.m34 = 0 / 0
          return all
        end
        """)
        #expect(error?.message.contains("transform3D.m34 is NaN") == true, "\(error?.message ?? "no error")")
    }
}
