import CardLayout
import CardLua

/// The engine's state as the page reads it: `state` in the answer to `GET /state` and
/// to every input (``Playground/answer(frames:)``). Its field names and value types are
/// the page's contract — play.js reads them, and so do Tests/browser/play_test.py and
/// the CLI tests — so a field is renamed or retyped only with them.
///
/// Written by ``PlayJSON`` (keys in name order). Every field is present, `null` where
/// there is none, except a param's `options` (only an `options` param has it). Numbers
/// are written as the frames write theirs (``FrameWire/number(_:)``): NaN and the
/// infinities, which JSON lacks, as 0 (a wrapping layout's `range` is −∞…+∞), and −0 as 0.
struct PlayState: Codable, Equatable {
    /// A point or a velocity: `{"x", "y"}`.
    struct XY: Codable, Equatable {
        var x: Double
        var y: Double
    }

    /// The latest release: when, the velocity, the offset the deceleration proposed and
    /// the script's `targetContentOffset` for it.
    struct Snap: Codable, Equatable {
        var time: Double
        var proposedContentOffset: XY
        var velocity: XY
        var targetContentOffset: XY
    }

    /// A tweakable the script declares, in the script's order: `min`, `max` 0 and `step`
    /// null for a kind other than `number`; `label` null when the script gives none.
    struct Param: Codable, Equatable {
        /// A number, true / false, or an option's string, as the kind takes it.
        enum Value: Codable, Equatable {
            case number(Double)
            case boolean(Bool)
            case option(String)
        }

        var name: String
        var value: Value
        /// The declared value: what the page's resets go back to.
        var `default`: Value
        var min: Double
        var max: Double
        var step: Double?
        /// `number`, `boolean` or `options` (``ScriptParam/Kind/name``).
        var kind: String
        var label: String?
        /// The choices of an `options` param, in the script's order; absent otherwise.
        var options: [String]?
    }

    /// Seconds since the session began (the page's clock goes on from it).
    var time: Double
    var contentOffset: XY
    /// `idle`, `dragging`, … (``CardScrollPhase``).
    var phase: String
    var isTracking: Bool
    /// The collection view's `[width, height]`.
    var viewport: [Double]
    var contentSize: [Double]
    /// The scrollable range on the scroll axis, `[lower, upper]`.
    var range: [Double]
    /// `[section, item]` under the centre; null with no items.
    var centredItem: [Int]?
    /// Items, all sections together.
    var items: Int
    var horizontal: Bool
    var fps: Double
    var lastSnap: Snap?
    var params: [Param]
    /// Good loads of the script so far (1 after the start).
    var scriptVersion: Int
    /// The script's file name.
    var script: String
    /// What the page shows over the stage: a broken save's error, or the latest error
    /// while making frames.
    var error: String?
    /// What `check` warns about in the script in use.
    var warnings: [String]
    /// Why the viewport shows a grid, or UIKit's size rule at this viewport.
    var layoutNote: String?
}

extension PlayState {
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time.onTheWire, forKey: .time)
        try c.encode(contentOffset, forKey: .contentOffset)
        try c.encode(phase, forKey: .phase)
        try c.encode(isTracking, forKey: .isTracking)
        try c.encode(viewport.map(\.onTheWire), forKey: .viewport)
        try c.encode(contentSize.map(\.onTheWire), forKey: .contentSize)
        try c.encode(range.map(\.onTheWire), forKey: .range)
        try c.encode(centredItem, forKey: .centredItem)  // null, not left out
        try c.encode(items, forKey: .items)
        try c.encode(horizontal, forKey: .horizontal)
        try c.encode(fps.onTheWire, forKey: .fps)
        try c.encode(lastSnap, forKey: .lastSnap)
        try c.encode(params, forKey: .params)
        try c.encode(scriptVersion, forKey: .scriptVersion)
        try c.encode(script, forKey: .script)
        try c.encode(error, forKey: .error)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(layoutNote, forKey: .layoutNote)
    }
}

extension PlayState.XY {
    init(_ point: Point) {
        self.init(x: point.x, y: point.y)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x.onTheWire, forKey: .x)
        try c.encode(y.onTheWire, forKey: .y)
    }
}

extension PlayState.Snap {
    init(_ snap: SnapEvent) {
        self.init(time: snap.time, proposedContentOffset: .init(snap.proposedContentOffset),
                  velocity: .init(snap.velocity), targetContentOffset: .init(snap.targetContentOffset))
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time.onTheWire, forKey: .time)
        try c.encode(proposedContentOffset, forKey: .proposedContentOffset)
        try c.encode(velocity, forKey: .velocity)
        try c.encode(targetContentOffset, forKey: .targetContentOffset)
    }
}

extension PlayState.Param {
    init(_ p: ScriptParam) {
        func value(_ setting: ParamSetting) -> Value {
            switch setting {
            case let .number(x): .number(x)
            case let .boolean(b): .boolean(b)
            case let .option(text): .option(text)
            }
        }
        var options: [String]?
        if case let .options(list) = p.kind { options = list }
        self.init(name: p.name, value: value(p.value), default: value(p.defaultValue), min: p.minimum, max: p.maximum,
                  step: p.step, kind: p.kind.name, label: p.label, options: options)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(value, forKey: .value)
        try c.encode(self.default, forKey: .default)
        try c.encode(min.onTheWire, forKey: .min)
        try c.encode(max.onTheWire, forKey: .max)
        try c.encode(step?.onTheWire, forKey: .step)  // null, not left out
        try c.encode(kind, forKey: .kind)
        try c.encode(label, forKey: .label)
        try c.encodeIfPresent(options, forKey: .options)
    }
}

extension PlayState.Param.Value {
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let flag = try? c.decode(Bool.self) {
            self = .boolean(flag)
        } else if let x = try? c.decode(Double.self) {
            self = .number(x)
        } else {
            self = .option(try c.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case let .number(x): try c.encode(x.onTheWire)
        case let .boolean(b): try c.encode(b)
        case let .option(text): try c.encode(text)
        }
    }
}

private extension Double {
    /// The number as the page gets it: NaN and the infinities as 0 (as
    /// ``FrameWire/number(_:)`` writes them), and −0 as 0.
    var onTheWire: Double { isFinite && self != 0 ? self : 0 }
}
