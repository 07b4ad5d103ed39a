import Foundation

/// The starter scripts of `cardlua new`.
///
/// `lol`, `card-scale` and `photo-browser` are the shipped `scripts/*.lua`, verbatim (a
/// test compares them, so the two copies cannot drift); `blank` has every callback doing
/// what UIKit does. `script(named:fileName:)` puts a header for newcomers on top and
/// `---@param` annotations on the callbacks, for the Lua language server.
enum Templates {
    /// A starter script: its name for `--from`, and its text.
    struct Template {
        var name: String
        var body: String
    }

    /// Every template, the default (`blank`) first.
    static let all: [Template] = [
        Template(name: "blank", body: blank),
        Template(name: "lol", body: lol),
        Template(name: "card-scale", body: cardScale),
        Template(name: "photo-browser", body: photoBrowser),
    ]

    static func named(_ name: String) -> Template? { all.first { $0.name == name } }

    /// The text `cardlua new` writes for `template` into a file called `fileName`.
    static func script(_ template: Template, fileName: String) -> String {
        header(fileName: fileName, template: template) + "\n" + annotated(template.body)
    }

    /// What a newcomer needs to know, as Lua comments.
    static func header(fileName: String, template: Template) -> String {
        let origin = template.name == "blank" ? "" : " (started from the \"\(template.name)\" example)"
        return """
        -- \(fileName): a cardlua card-carousel effect\(origin).
        --
        -- cardlua lays out cards as UIKit's UICollectionViewFlowLayout does, scrolls them as
        -- UIScrollView does, and calls these functions of yours (each one optional):
        --
        --   prepare(layout)
        --     On first layout and whenever the viewport changes: set the flow layout's
        --     itemSize, sectionInset, minimumLineSpacing, scrollDirection.
        --   transform(attributes, layout)
        --     For every visible card, every frame: scale, turn, fade or restack it
        --     (attributes.transform3D, .transform, .alpha, .zIndex, .hidden), or return a
        --     number to scale it evenly.
        --   targetContentOffset(proposedContentOffset, velocity, layout)
        --     When a drag ends: where the scrolling comes to rest (return a point).
        --
        -- Points, y down, angles in radians, velocities in points per millisecond.
        --
        -- Try it:
        \(tryIt(fileName))
        -- Editors: cardlua.d.lua and .luarc.json beside this file give the Lua language
        -- server completion and type checks for the whole cardlua API.

        """
    }

    /// The "Try it" lines of the header, descriptions in one column.
    private static func tryIt(_ fileName: String) -> String {
        let lines = [
            ("cardlua run \(fileName)", "the demo scroll, as a table"),
            ("cardlua run \(fileName) --offset 150", "one frame, at content offset 150"),
            ("cardlua watch \(fileName) -o preview.html", "open preview.html in a browser: it"),
            ("", "reloads itself whenever you save"),
            ("cardlua check \(fileName)", "call everything, list the problems"),
            ("cardlua help run", "every option"),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { command, what in
            "--   " + command + String(repeating: " ", count: width - command.count) + "  " + what
        }.joined(separator: "\n")
    }

    /// The parameter types of each callback, by position.
    static let callbackParameters: [String: [String]] = [
        "prepare": ["UICollectionViewFlowLayout"],
        "transform": ["UICollectionViewLayoutAttributes", "UICollectionViewFlowLayout"],
        "targetContentOffset": ["CGPoint", "CGPoint", "UICollectionViewFlowLayout"],
    ]

    /// `body` with `---@param` lines (and `---@return` for targetContentOffset) above each
    /// `function prepare(…)`, `transform(…)` and `targetContentOffset(…)` at the start of
    /// a line, using the script's own parameter names. Nothing else changes.
    static func annotated(_ body: String) -> String {
        var out: [Substring] = []
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("function "), let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"),
               open < close {
                let name = String(line[line.index(line.startIndex, offsetBy: 9)..<open])
                let alreadyAnnotated = out.last?.hasPrefix("---@") ?? false
                if let types = callbackParameters[name], !alreadyAnnotated {
                    let parameters = line[line.index(after: open)..<close].split(separator: ",")
                        .map { $0.trimmingCharacters(in: .whitespaces) }
                    for (parameter, type) in zip(parameters, types) where !parameter.isEmpty {
                        out.append("---@param \(parameter) \(type)")
                    }
                    if name == "targetContentOffset" { out.append("---@return CGPoint|number") }
                }
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// `.luarc.json`: points the Lua language server (LuaLS) at the definitions, with
    /// Lua 5.4 and the libraries the sandbox leaves out turned off.
    static let luarc = """
    {
      "runtime.version": "Lua 5.4",
      "runtime.builtin": {
        "io": "disable",
        "os": "disable",
        "debug": "disable",
        "package": "disable"
      },
      "workspace.library": ["cardlua.d.lua"],
      "workspace.checkThirdParty": false,
      "diagnostics.globals": ["prepare", "transform", "targetContentOffset", "scenarios"]
    }

    """

    /// `blank`.
    static let blank = #"""
-- A blank effect: each callback below leaves the cards as UIKit would. Change them.

function prepare(layout)
  -- The viewport in points: layout.collectionView.bounds.width and .height.
  layout.scrollDirection = "vertical"                  -- or "horizontal"
  layout.itemSize = CGSizeMake(50, 50)                 -- width, height of every card
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)   -- top, left, bottom, right
  layout.minimumLineSpacing = 10                       -- between rows (columns when horizontal)
  layout.minimumInteritemSpacing = 10                  -- between cards in a row
end

function transform(attributes, layout)
  -- Where the card is: attributes.center, attributes.frame, attributes.indexPath.item.
  -- Where the view is: layout.collectionView.bounds (midX, midY: the screen's centre).
  -- What you may change, for example:
  --   attributes.transform3D = CATransform3DMakeScale(0.9, 0.9, 1)
  --   attributes.alpha = 0.5      -- 0 (invisible) to 1
  --   attributes.zIndex = 1       -- higher draws on top
  -- or `return 0.9` to scale the card evenly. Returning nothing changes nothing.
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  -- proposedContentOffset is where the fling would come to rest by itself; velocity.x
  -- and velocity.y are in points per millisecond. Return where it should rest instead:
  -- layout:layoutAttributesForElements(rect) lists the cards in a rect, to find the
  -- one nearest the centre.
  return proposedContentOffset
end

-- Named scenarios, run with `cardlua run FILE --scenario fling`:
-- scenarios = {
--   fling = { viewport = "414x736", items = 10, steps = { { jump = 200 }, { wait = 0.2 }, { fling = 2 } } },
-- }

"""#

    /// `lol` (scripts/lol.lua, verbatim).
    static let lol = #"""
-- League of Legends skin picker (seed 000, WZXLOLCardLayout by WzxJiang).
-- Cards turn about the y axis with distance from the centre, up to 35° at 200 points,
-- and a fling comes to rest with the card nearest the centre centred.
-- Note the seed's m34 = +1/600: a reversed perspective, kept as the article has it.

local ACTIVE_DISTANCE = 200              -- the original project's value (see seeds/README)
local ROTATE = 35.0 * M_PI / 180.0       -- #define rotate 35.0*M_PI/180.0

-- prepareLayout: the card size scales with the screen (GiveMeWidth/GiveMeHeight).
function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.itemSize = CGSizeMake(300 * size.width / 414, 500 * size.height / 736)
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.sectionInset = UIEdgeInsetsMake(200, 50.0, 200, 50.0)
  layout.minimumLineSpacing = 0.0
end

-- layoutAttributesForElementsInRect: each card's turn from its distance to the centre.
function transform(attributes, layout)
  local visibleRect = layout.collectionView.bounds
  local distance = CGRectGetMidX(visibleRect) - attributes.center.x
  local t = CATransform3DIdentity
  t.m34 = 1.0 / 600
  if ABS(distance) < ACTIVE_DISTANCE then
    local normalizedDistance = distance / ACTIVE_DISTANCE
    local zoom = ROTATE * normalizedDistance
    t = CATransform3DRotate(t, -zoom, 0.0, 1.0, 0.0)
  elseif distance > 0 then
    t = CATransform3DRotate(t, -ROTATE, 0.0, 1.0, 0.0)   -- swiped right
  else
    t = CATransform3DRotate(t, ROTATE, 0.0, 1.0, 0.0)    -- swiped left
  end
  attributes.transform3D = t
  attributes.zIndex = 1
end

-- targetContentOffsetForProposedContentOffset: the card whose centre is nearest the
-- centre of the proposed rect comes to rest centred.
function targetContentOffset(proposedContentOffset, velocity, layout)
  local offsetAdjustment = MAXFLOAT
  local bounds = layout.collectionView.bounds
  local horizontalCenter = proposedContentOffset.x + CGRectGetWidth(bounds) / 2.0
  local targetRect = CGRectMake(proposedContentOffset.x, 0, bounds.width, bounds.height)
  for _, layoutAttributes in ipairs(layout:layoutAttributesForElements(targetRect)) do
    local itemHorizontalCenter = layoutAttributes.center.x
    if ABS(itemHorizontalCenter - horizontalCenter) < ABS(offsetAdjustment) then
      offsetAdjustment = itemHorizontalCenter - horizontalCenter
    end
  end
  return CGPointMake(proposedContentOffset.x + offsetAdjustment, proposedContentOffset.y)
end

"""#

    /// `card-scale` (scripts/card-scale.lua, verbatim).
    static let cardScale = #"""
-- Card layout (seed 002, "UICollectionView 04 - 卡片布局", CardLayout in Swift).
-- Cards 0.7 of the width and 0.75 of the height; each scales by
-- |cos(distance / width · π/4)| with its distance from the centre. No snapping: the
-- seed leaves targetContentOffset to super.

function prepare(layout)
  local width = layout.collectionView.frame.width          -- collectionViewWidth
  local height = layout.collectionView.frame.height        -- collectionViewHeight
  local cellWidth = width * 0.7
  local cellMargin = (width - cellWidth) / 7
  local margin = (width - cellWidth) / 2
  layout.scrollDirection = "horizontal"
  layout.sectionInset = UIEdgeInsetsMake(0, margin, 0, margin)
  layout.minimumLineSpacing = cellMargin
  layout.itemSize = CGSizeMake(cellWidth, height * 0.75)
end

function transform(attribute, layout)
  local collectionView = layout.collectionView
  local centerX = collectionView.contentOffset.x + collectionView.bounds.size.width / 2
  local distance = math.abs(attribute.center.x - centerX)
  local aprtScale = distance / collectionView.bounds.size.width
  local scale = math.abs(math.cos(aprtScale * (math.pi / 4)))
  attribute.transform = CGAffineTransformMakeScale(scale, scale)
end

"""#

    /// `photo-browser` (scripts/photo-browser.lua, verbatim).
    static let photoBrowser = #"""
-- Photo browser (seed 004): cards shrink linearly with distance from the centre,
-- scale = 1 − distance / (W/2) · 0.3, and a fling rests with the nearest card centred
-- (clamped at 0, as the seed does against "-0" offsets).
--
-- The seed sets no item size (its flow layout is configured elsewhere); we choose
-- square photos 60% of the viewport width in one horizontal row: the first and last
-- photo can reach the centre (left/right insets of (W − side)/2), the top and bottom
-- insets leave room for one photo per column (a flow layout would otherwise stack two
-- when they fit), and 20 points between photos.

function prepare(layout)
  local bounds = layout.collectionView.bounds
  local side = bounds.width * 0.6
  local inset = (bounds.width - side) / 2
  local vertical = math.max(0, (bounds.height - side) / 2)
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(side, side)
  layout.sectionInset = UIEdgeInsetsMake(vertical, inset, vertical, inset)
  layout.minimumLineSpacing = 20
end

function transform(cellAttr, layout)
  local collectionView = layout.collectionView
  -- the distance of the cell's centre from the screen's centre (absolute)
  local cellOffset = math.abs(cellAttr.center.x - collectionView.contentOffset.x - collectionView.frame.width * 0.5)
  local perCent = 1 - cellOffset / (collectionView.frame.width * 0.5) * 0.3
  cellAttr.transform = CGAffineTransformMakeScale(perCent, perCent)
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  local targetP = layout:targetContentOffset(proposedContentOffset, velocity)   -- super
  local collectionW = layout.collectionView.frame.width
  local collectionH = layout.collectionView.frame.height
  local frame = CGRectMake(targetP.x, 0, collectionW, collectionH)
  local attrs = layout:layoutAttributesForElements(frame)
  local minOffSetX = MAXFLOAT
  for _, attr in ipairs(attrs) do
    -- subtract the final offset's x!
    local cellOffset = attr.center.x - targetP.x - collectionW * 0.5
    if math.abs(cellOffset) < math.abs(minOffSetX) then
      minOffSetX = cellOffset
    end
  end
  targetP.x = targetP.x + minOffSetX
  -- dragging can stutter on a "-0" offset: clamp at 0
  if targetP.x < 0 then
    targetP.x = 0
  end
  return targetP
end

"""#
}
