/// The help texts. Kept together so they read as one manual; every OPTIONS section is
/// written from the subcommand's option table (`OptionTable`).
enum Help {
    static let version = "0.1.0"

    static let overview = """
    cardlua — design card-carousel effects in Lua, with UIKit's flow layout and scroll physics

    USAGE: cardlua <command> [options]

    COMMANDS:
      run SCRIPT [options]      run a scenario, print or write the result
      watch SCRIPT [options]    the same, again on every save; errors never end it
      play SCRIPT|FOLDER [opts] live playground in the browser: drag, flick, edit, record
      check SCRIPT              load and exercise every callback; report problems
      new FILE [--from NAME]    start an effect script (plus editor definitions)
      gallery -o FILE           one page with every catalogue effect playing its demo
      export SCRIPT [-o FILE]   the Swift UICollectionViewFlowLayout an iOS app compiles
      types                     print the LuaCATS definitions of the script API
      bench SCRIPT              per-item and per-frame cost, side by side

    OPTIONS:
      -h, --help                show help (also: cardlua help <command>)
      --version                 show the version

    EXIT STATUS: 0 success, 1 the script failed, 2 wrong usage.
    Try: cardlua run scripts/lol.lua --offset 150
    """

    static let runOptions = OptionTable.help(OptionTable.run)

    static let run = """
    cardlua run — run an effect script through a scroll scenario

    USAGE: cardlua run SCRIPT [options]

    Without --offset, --fling or --scenario, runs the built-in demo: a sweep across the
    first three items, a fling that snaps, and a fast fling to the end that bounces (a
    layout that wraps: flings across the seam both ways; right to left: towards the left).

    \(runOptions)

    A script that declares tweakables (params = { tilt = { value, min, max } }) takes
    --param tilt=0.5 (wrap=false for an on/off one, style=flat for one with options);
    a name it does not declare or a value out of its range is wrong usage. The JSON
    then records the values used ("params").

    EXAMPLES:
      cardlua run scripts/lol.lua --offset 150 --format json
      cardlua run scripts/lol.lua --fling 2
      cardlua run scripts/card-scale.lua -o preview.html
      cardlua run scripts/effects/icarousel-coverflow.lua --param tilt=0.5 --param wrap=true
    """

    static let watch = """
    cardlua watch — run again on every save of the script

    USAGE: cardlua watch SCRIPT [options]

    Runs, then runs again whenever the script changes (also when an editor saves by
    renaming a new file over it). A broken save prints the error and keeps the last good
    output; the next good save recovers. With -o the file is replaced atomically, and an
    HTML preview reloads itself in the browser (through FILE.stamp.js, written beside
    it). A missing or deleted script is waited for. Ctrl-C ends.

    \(runOptions)
    """

    static let play = """
    cardlua play — the live playground: drag and flick the cards in a browser

    USAGE: cardlua play SCRIPT [options]
           cardlua play FOLDER [options]   (a picker of the folder's scripts)

    Prints http://127.0.0.1:PORT/ and serves one page there (127.0.0.1 only) until
    Ctrl-C. The page sends input — mouse or touch drags, flicks, the wheel or trackpad,
    the ← and → keys — and the engine and the script answer with frames, exactly as
    `run` computes them: the rubber band, the script's targetContentOffset on release,
    the deceleration. A panel shows the offset, phase, last release and frame rate;
    presets and a rotate button resize the viewport. Saving the script reloads its
    effect in the open page, keeping the scroll position; a broken save shows
    file:line: message over the stage and keeps the last good effect. A slider per
    tweakable the script declares (params; a toggle for an on/off one, segments for
    one with options) runs it again with the new value, keeping
    the position; each has a reset to the script's value, Store A / Store B keep two
    sets of values to flip between, and Copy params copies a params = { … } table with
    the values on screen (min, max, step, options and labels kept), to paste over the
    script's. Export Swift shows what `export` writes, to copy or download. A wheel or
    trackpad scroll is a pan (a drag released with its velocity). Record starts a
    recording and a second press stops it: what you did in between becomes a
    scenarios = { recorded = … } block for `run --scenario recorded`.
    The script runs under run's sandbox and per-call limits; a session has no
    whole-run time limit (run's --max-run-time), it lasts as long as you play.
    --cards DIR draws the cards with your images (served from DIR, by number). --lan
    exposes the session to your network: anyone with the printed URL (its token) can
    see and drive it, read the script's Swift and the images; without the token, 403.

    \(OptionTable.help(OptionTable.play))
    EXAMPLES:
      cardlua play scripts/lol.lua
      cardlua play scripts/card-scale.lua --port 0 --viewport 393x852
      cardlua play scripts/effects/     # pick any catalogue effect in the page
      cardlua play scripts/lol.lua --cards examples/cards --lan
    """

    static let check = """
    cardlua check — exercise every callback and report every problem

    USAGE: cardlua check SCRIPT [options]

    Loads the script, calls prepare for two viewports (414x736 and 768x1024, and
    --viewport's), transform across a sweep of offsets including both ends, and
    targetContentOffset with flings both ways. Reports errors, NaN or infinite values,
    alpha outside 0…1, unknown fields written on attributes or layout, transform results
    that are computed and dropped, globals that look like misspelled callbacks, and cards
    that do not fit between the section insets (UIKit logs that the flow layout's
    behaviour is not defined), each as file:line: message on standard output;
    a problem met in several frames is one line, with the count. The limits are run's.
    Exit status 1 when it found an error, 0 when clean or with warnings only (1 with
    --strict).

    \(OptionTable.help(OptionTable.check))
    """

    static let new = """
    cardlua new — start an effect script

    USAGE: cardlua new FILE [--from NAME]
           cardlua new --list

    Writes a commented starter script that runs as it is, and a .luarc.json beside it
    that points the Lua language server at the cardlua definitions (cardlua.d.lua,
    written next to it). Without --from: blank, all three callbacks doing what UIKit
    does. NAME is one of the seeds (lol, card-scale, photo-browser), the contract-v2
    examples (stacked-deck, paging-layout, wrap-carousel) or a catalogue effect: the
    field's carousels ported faithfully (icarousel-coverflow, fspager-ferris-wheel, …);
    --list prints them all. Never overwrites the script or a .luarc.json; brings a
    cardlua.d.lua that cardlua wrote up to date.

    \(OptionTable.help(OptionTable.new))
    """

    static let gallery = """
    cardlua gallery — every effect of the catalogue, playing side by side

    USAGE: cardlua gallery [-o FILE] [--only NAME[,NAME…]] [--fps N]

    Runs the built-in demo of every effect `cardlua new --list` names (the seeds, the
    contract-v2 examples and the catalogue's ports of iCarousel, AnimatedCollectionView-
    Layout, CollectionViewPagingLayout, FSPagerView, Gemini and others) and writes one
    self-contained HTML page: a small viewport per effect, grouped by source, each
    playing its demo in a loop. Click one (or Tab to it and press Enter) for its full
    preview: full size, play/pause, a scrubber, ←/→ to step, and the `cardlua new` line
    that starts a script from it; Esc closes it. page.html#NAME opens NAME's preview.
    With -o, says on standard error how big the page is and which demo was slowest.

    \(OptionTable.help(OptionTable.gallery))

    EXAMPLES:
      cardlua gallery -o gallery.html
      cardlua gallery --only icarousel-coverflow,fspager-ferris-wheel -o two.html
    """

    static let export = """
    cardlua export — the Swift layout an iOS app compiles, translated from a script

    USAGE: cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]
           cardlua export --check FILE…

    Translates the script into one self-contained Swift file: import UIKit and a final
    UICollectionViewFlowLayout subclass with prepare(), layoutAttributesForElements(in:),
    layoutAttributesForItem(at:), shouldInvalidateLayout(forBoundsChange:) and
    targetContentOffset(forProposedContentOffset:withScrollingVelocity:), keeping the
    script's names and comments. Tweakables (params) become stored properties that
    invalidate the layout; --param bakes in the values you tuned (or paste play's Copy
    params table into the script). First the script runs its demo as `cardlua run`
    does: a script that fails there fails here the same way, and --param is checked as
    run checks it.
    A construct the translator does not take (a table used as a map, coroutines, string
    building, a wrapping layout, …) is refused with one line, file:line: export: what
    and why, exit status 1, and no -o file. --check prints, per script, "FILE:
    exportable" or the first reason it is not; exit status 0 when all are exportable.
    docs/export.md has the translation table and how to wire the layout into an app.

    \(OptionTable.help(OptionTable.export))

    EXAMPLES:
      cardlua export scripts/lol.lua -o LolLayout.swift
      cardlua export scripts/effects/fspager-coverflow.lua --class CoverFlowLayout --param itemWidth=240
      cardlua export --check scripts/*.lua scripts/effects/*.lua
    """

    static let types = """
    cardlua types — print the LuaCATS definitions of the script API

    USAGE: cardlua types [-o FILE]

    The definitions (---@meta) are generated from the same table the prelude registers
    its functions in. Save them where your editor's Lua language server can see them.

    \(OptionTable.help(OptionTable.types))
    """

    static let bench = """
    cardlua bench — measure an effect script, side by side with its floors

    USAGE: cardlua bench SCRIPT... [options]

    For each script, what it costs: µs per card (its transform), and the demo's busiest
    frame (the most cards: the element query, if any, and every card's transform) in µs
    and as a share of a 120 Hz display's 8.33 ms frame. Beside the per-card figure: the
    native Swift twin for the seeds (lol, card-scale, photo-browser), and with --stock
    the same script's transform run by the stock lua5.4 interpreter in a plain Lua loop
    (the Lua floor: same prelude, same items, the same sandbox and limits as run, in a
    process that dies with cardlua; only then the × lua5.4 column). Then the floors the
    ratios are against: a bare lua_pcall of an empty function from C (× pcall: the
    floor of any call) and an empty transform through cardlua. Medians over repeated
    runs after a warm-up. In-process figures are CPU time; cold runs and watch latency
    are wall clock. Build with -c release for real figures (scripts/bench does).
    Nothing is judged unless --targets asks for the engine's own targets (the project's
    benchmark, which adds a frame over a sweep of offsets and the element query's cost).

    \(OptionTable.help(OptionTable.bench))

    EXAMPLES:
      cardlua bench scripts/lol.lua
      cardlua bench scripts/*.lua --scale --cold-run --watch-latency --markdown
    """

    static func text(for command: String) -> String? {
        switch command {
        case "run": run
        case "watch": watch
        case "play": play
        case "check": check
        case "new": new
        case "gallery": gallery
        case "types": types
        case "bench": bench
        case "export": export
        default: nil
        }
    }
}
