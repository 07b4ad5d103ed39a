import CardLayout
import CardLua
import Foundation
import Testing

/// The helpers check their arguments and say which is wrong at the script's line; a
/// misspelled helper gets a "did you mean"; `frame.origin` and `frame.size` write through.
@Suite struct HelperArgumentTests {
    /// The message of the error `call` raises on line 4 of a transform (nil if none).
    static func failure(of call: String) -> String? {
        let source = LuaEffectTests.horizontal + """
        function transform(attributes)
          local t = CATransform3DIdentity
          attributes.alpha = 1
          local _ = \(call)
        end
        """
        // The header (LuaEffectTests.horizontal) is 6 lines: the call is on line 9.
        return LuaEffectTests.failure(source)?.message
    }

    /// A call missing an argument, with a wrong type, or with one too many: the message
    /// names the helper, its parameters and the bad one, at the script's line.
    @Test(arguments: [
        ("CATransform3DMakeScale(0.5, 0.5)", "CATransform3DMakeScale: expected (sx, sy, sz); sz is missing"),
        ("CATransform3DRotate(t, 0.3)", "CATransform3DRotate: expected (t, angle, x, y, z); x is missing"),
        ("CATransform3DRotate(t, 0.3, 0, nil, 1)", "CATransform3DRotate: expected (t, angle, x, y, z); y is nil"),
        ("CATransform3DRotate(t, '0.3', 0, 1, 0)", "CATransform3DRotate: expected (t, angle, x, y, z); angle is a string, not a number"),
        ("CATransform3DRotate(t, 0.3, 0, 1, 0, 9)", "CATransform3DRotate: expected (t, angle, x, y, z); got more arguments"),
        ("CATransform3DRotate(nil, 0.3, 0, 1, 0)", "CATransform3DRotate: expected a CATransform3D as t, got nil (CATransform3DRotate(t, angle, x, y, z))"),
        ("t:rotate(0.3)", "t:rotate: expected (angle, x, y, z); x is missing"),
        ("t:scale(2, 2)", "t:scale: expected (sx, sy, sz); sz is missing"),
        ("t:translate(1)", "t:translate: expected (tx, ty, tz); ty is missing"),
        ("t:concat()", "t:concat: expected a CATransform3D as other, got nothing (t:concat(other))"),
        ("CATransform3DMakeRotation(0.3)", "CATransform3DMakeRotation: expected (angle, x, y, z); x is missing"),
        ("CATransform3DMakeTranslation(1, 2)", "CATransform3DMakeTranslation: expected (tx, ty, tz); tz is missing"),
        ("CATransform3DScale(t, 1, 2)", "CATransform3DScale: expected (t, sx, sy, sz); sz is missing"),
        ("CATransform3DTranslate(t, 1, 2)", "CATransform3DTranslate: expected (t, tx, ty, tz); tz is missing"),
        ("CATransform3DConcat(t)", "CATransform3DConcat: expected a CATransform3D as b, got nothing (CATransform3DConcat(a, b))"),
        ("CATransform3DInvert(t, t)", "CATransform3DInvert: expected (t); got more arguments"),
        ("CATransform3DIsIdentity({})", "CATransform3DIsIdentity: expected a CATransform3D as t, got a table without .m11 (CATransform3DIsIdentity(t))"),
        ("CATransform3DGetAffineTransform(1)", "CATransform3DGetAffineTransform: expected a CATransform3D as t, got a number (CATransform3DGetAffineTransform(t))"),
        ("CGAffineTransformMakeScale(0.5)", "CGAffineTransformMakeScale: expected (sx, sy); sy is missing"),
        ("CGAffineTransformMakeScale(0.5, 0.5, 1)", "CGAffineTransformMakeScale: expected (sx, sy); got more arguments"),
        ("CGAffineTransformMakeRotation()", "CGAffineTransformMakeRotation: expected (angle); angle is missing"),
        ("CGAffineTransformMakeTranslation(1)", "CGAffineTransformMakeTranslation: expected (tx, ty); ty is missing"),
        ("CGAffineTransformMake(1, 0, 0, 1, 0)", "CGAffineTransformMake: expected (a, b, c, d, tx, ty); ty is missing"),
        ("CGAffineTransformRotate(CGAffineTransformIdentity)", "CGAffineTransformRotate: expected (t, angle); angle is missing"),
        ("CGAffineTransformIdentity:scale(2)", "t:scale: expected (sx, sy); sy is missing"),
        ("CGAffineTransformConcat(t, t)", "CGAffineTransformConcat: expected a CGAffineTransform as t1, got a CATransform3D (CGAffineTransformConcat(t1, t2))"),
        ("CGAffineTransformConcat({}, t)", "CGAffineTransformConcat: expected a CGAffineTransform as t1, got a table without .a (CGAffineTransformConcat(t1, t2))"),
        ("UIEdgeInsetsMake(10, 10)", "UIEdgeInsetsMake: expected (top, left, bottom, right); bottom is missing"),
        ("CGRectMake(0, 0, 10)", "CGRectMake: expected (x, y, width, height); height is missing"),
        ("CGPointMake(1)", "CGPointMake: expected (x, y); y is missing"),
        ("CGSizeMake(1, {})", "CGSizeMake: expected (width, height); height is a table, not a number"),
        ("CGRectGetMidX()", "CGRectGetMidX: expected a CGRect as r, got nothing (CGRectGetMidX(r))"),
        ("CGRectGetWidth(attributes.center)", "CGRectGetWidth: expected a CGRect as r, got a table without .width (CGRectGetWidth(r))"),
        ("CGRectInset(attributes.frame, 1)", "CGRectInset: expected (r, dx, dy); dy is missing"),
        ("CGRectContainsPoint(attributes.frame)", "CGRectContainsPoint: expected a CGPoint as p, got nothing (CGRectContainsPoint(r, p))"),
    ])
    func aBadCallSaysWhichArgumentAtTheCallersLine(_ call: String, _ expected: String) throws {
        let message = try #require(Self.failure(of: call), "\(call) did not fail")
        #expect(message == "test.lua:9: transform: item 0: " + expected, "\(call)")
    }

    /// Correct calls still work, and the argument tests do not reject what UIKit accepts.
    @Test func goodCallsStillWork() throws {
        let items = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          local t = CATransform3DMakeScale(0.5, 0.5, 1)
          t = t:rotate(0.3, 0, 1, 0):translate(1, 2, 3):scale(1, 1, 1)
          t = CATransform3DConcat(t, CATransform3DMakeRotation(0.2, 1, 1, 0))
          local inset = UIEdgeInsetsMake(1, 2, 3, 4)
          local r = CGRectInset(CGRectMake(0, 0, 10, 10), inset.left, inset.top)
          local a = CGAffineTransformMakeScale(2, 2):rotate(0.1):translate(1, 1)
          if CGRectContainsPoint(r, CGPointMake(5, 5)) and not CATransform3DIsIdentity(t) then
            attributes.alpha = 0.5
          end
          attributes.transform = CGAffineTransformConcat(a, CGAffineTransformInvert(a))
        end
        """)
        for item in items {
            #expect(item.alpha == 0.5)
            #expect(abs(item.transform3D.m11 - 1) < 1e-12 && abs(item.transform3D.m41) < 1e-12)
        }
    }

    /// Calling an undefined global that is a typo of a helper names the helper.
    @Test(arguments: [
        ("CATransform3DRotat(t, 1, 0, 1, 0)", "CATransform3DRotate"),
        ("CGAffineTransformMakescale(1, 1)", "CGAffineTransformMakeScale"),
        ("CGRectGetMidx(attributes.frame)", "CGRectGetMidX"),
        ("ipars({})", "ipairs"),
    ])
    func aMisspelledHelperGetsADidYouMean(_ call: String, _ meant: String) throws {
        let message = try #require(Self.failure(of: call))
        let name = String(call.prefix(while: { $0 != "(" }))
        #expect(message == "test.lua:9: transform: item 0: attempt to call a nil value (global '\(name)'); did you mean \(meant)?")
    }

    /// Reading a global that does not exist is still legal Lua: it is nil.
    @Test func readingAMissingGlobalIsStillNil() throws {
        let items = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          attributes.alpha = (CATransform3DRotat == nil and someSetting == nil) and 0.25 or 1
        end
        """)
        #expect(items.allSatisfy { $0.alpha == 0.25 })
        // A far-off name gets no suggestion.
        let message = try #require(Self.failure(of: "completelyUnrelatedName()"))
        #expect(message.hasSuffix("attempt to call a nil value (global 'completelyUnrelatedName')"))
    }

    /// `frame.origin.x = …` and `frame.size.width = …` change the item, as in Swift.
    @Test func frameOriginAndSizeWriteThrough() throws {
        let base = try LuaEffectTests.run(LuaEffectTests.horizontal + "function transform() end")
        let moved = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          attributes.frame.origin.x = attributes.frame.origin.x + 10
          attributes.frame.size.height = attributes.frame.size.height - 100
        end
        """)
        try #require(base.count == moved.count && !base.isEmpty)
        for (before, after) in zip(base, moved) {
            // The frame keeps its top-left corner but for the move; centre = origin + size / 2.
            #expect(after.center.x == before.center.x + 10)
            #expect(after.size.height == before.size.height - 100)
            #expect(after.center.y == before.center.y - 50)
            #expect(after.size.width == before.size.width)
        }
        let rects = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          local r = CGRectMake(1, 2, 3, 4)
          r.origin.y = 20
          r.size.width = 30
          local o = r.origin
          attributes.alpha = (r.y == 20 and r.width == 30 and r.maxX == 31 and o.y == 20
            and tostring(r.size) == "30x4") and 0.5 or 1
        end
        """)
        #expect(rects.allSatisfy { $0.alpha == 0.5 })
    }

    /// The other Swift habits of the same kind: `center.x`, `size.width` and
    /// `transform.a` (on an item whose transform was never set) change the item too.
    @Test func centerSizeAndTransformFieldsWriteThrough() throws {
        let base = try LuaEffectTests.run(LuaEffectTests.horizontal + "function transform() end")
        let changed = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          attributes.center.x = attributes.center.x + 5
          attributes.size.width = 100
          attributes.transform.a = 0.5
          attributes.transform.ty = 7
        end
        """)
        try #require(base.count == changed.count && !base.isEmpty)
        for (before, after) in zip(base, changed) {
            #expect(after.center.x == before.center.x + 5)
            #expect(after.size.width == 100)
            #expect(after.transform3D.m11 == 0.5 && after.transform3D.m22 == 1 && after.transform3D.m42 == 7)
        }
        // Reading the transform alone changes nothing, and a transform3D set afterwards wins.
        let read = try LuaEffectTests.run(LuaEffectTests.horizontal + """
        function transform(attributes)
          local t = attributes.transform
          attributes.alpha = t.a == 1 and 0.5 or 0
          if attributes.indexPath.item == 0 then attributes.transform3D = CATransform3DMakeScale(2, 2, 1) end
        end
        """)
        #expect(read.allSatisfy { $0.alpha == 0.5 })
        #expect(read.first?.transform3D.m11 == 2)
        #expect(read.dropFirst().allSatisfy { $0.transform3D.m11 == 1 })
    }
}
