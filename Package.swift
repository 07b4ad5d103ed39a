// swift-tools-version:6.0
// cardlua: a scriptable card-carousel layout engine. See README.md and design notes.
import PackageDescription

let package = Package(
    name: "cardlua",
    products: [
        .executable(name: "cardlua", targets: ["CardLuaCLI"]),
        .library(name: "CardLayout", targets: ["CardLayout"]),
        .library(name: "CardLua", targets: ["CardLua"]),
        .library(name: "CardRender", targets: ["CardRender"]),
        .library(name: "CardExport", targets: ["CardExport"]),
    ],
    targets: [
        // Lua 5.4 from the OS package (liblua5.4-dev on Debian/Ubuntu, lua on Homebrew).
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // C glue: macro wrappers, the protected helpers, the hook and the capped allocator.
        .target(name: "CLuaShims", dependencies: ["CLua"],
                // clock_gettime and CLOCK_MONOTONIC in strict C modes: one definition for
                // every file of the target (internal.h, Sources/CLuaShims/README.md).
                cSettings: [.define("_POSIX_C_SOURCE", to: "200809L", .when(platforms: [.linux]))],
                // The watchdog's thread (watchdog.c): in libc since glibc 2.34, a library before.
                linkerSettings: [.linkedLibrary("pthread", .when(platforms: [.linux]))]),
        // Pure Swift: geometry, transforms, flow layout, scroll physics, scenarios.
        .target(name: "CardLayout"),
        // The Lua side: sandboxed state, prelude (Lua/prelude/*.lua), LuaEffect.
        .target(name: "CardLua", dependencies: ["CardLayout", "CLuaShims", "LuaSyntax"],
                exclude: ["Lua"], plugins: ["EmbedPlugin"]),
        // Text, JSON, SVG and HTML output (the player: Page/). Never imports Lua.
        .target(name: "CardRender", dependencies: ["CardLayout"],
                exclude: ["Page"], plugins: ["EmbedPlugin"]),
        // `cardlua export`: a Lua effect script into the Swift `UICollectionViewFlowLayout`
        // subclass an iOS app compiles. Pure Swift: it parses the script's text itself and
        // never imports Lua.
        .target(name: "CardExport", dependencies: ["LuaSyntax"]),
        // A Lua 5.4 parser in pure Swift: the syntax tree `export` translates and `check`'s
        // static warnings read. Never imports Lua.
        .target(name: "LuaSyntax"),
        // The seeds' native Swift twins: what `cardlua bench` measures the Lua ports against
        // and SeedPortTests compares them with. Not part of any library product, but public:
        // scripts/bench-export compiles its harness against the module outside the package.
        .target(name: "SeedTwins", dependencies: ["CardLayout"]),
        // A small loopback HTTP/1.1 server on POSIX sockets (for `cardlua play`). Never imports Lua.
        .target(name: "CardServe"),
        // The thin `cardlua` command (`new`'s templates: Templates/ and scripts/*.lua; `play`'s
        // page: Playground/Page/).
        .executableTarget(name: "CardLuaCLI", dependencies: ["CardLua", "CardRender", "CardLayout", "CardServe", "CardExport", "SeedTwins"],
                          exclude: ["Templates", "Playground/Page"], plugins: ["EmbedPlugin"]),
        // Build time only: text files (Lua, JS, CSS) into Swift string constants, so the
        // binary needs no files beside it. Each target lists its files in embed.list files
        // (in any of its folders: Lua/embed.list, Playground/Page/embed.list).
        // Lua: the prelude is also compiled here (by the Lua cardlua links, with the budget
        // checkpoints of CLuaShims), so that no process parses it.
        .executableTarget(name: "EmbedText", dependencies: ["CLua", "CLuaShims"], path: "Sources/EmbedText"),
        .plugin(name: "EmbedPlugin", capability: .buildTool(), dependencies: ["EmbedText"]),
        // What the test targets share: the package root, temporary directories, running a
        // process (the built `cardlua`, luacheck, Chromium) with a hang guard.
        .target(name: "CardLuaTestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CardLayoutTests", dependencies: ["CardLayout", "CardLuaTestSupport"]),
        .testTarget(name: "CardLuaTests", dependencies: ["CardLua", "CardLayout", "SeedTwins", "CardLuaTestSupport"]),
        .testTarget(name: "CardRenderTests", dependencies: ["CardRender", "CardLayout", "CardLuaTestSupport"]),
        .testTarget(name: "CardServeTests", dependencies: ["CardServe"]),
        .testTarget(name: "LuaSyntaxTests", dependencies: ["LuaSyntax", "CardLuaTestSupport"]),
        // Test only: the slice of UIKit and QuartzCore that exported layouts use, with the
        // iOS SDK's Swift signatures and isolation, implemented over CardLayout, so that the
        // export tests compile exported Swift on Linux and compare it with the Lua run.
        .target(name: "UIKit", dependencies: ["CardLayout"], path: "Tests/UIKitShim"),
        // Test only: the slice of SwiftUI that `export --swiftui` emits, with the iOS 17 SDK's
        // signatures, laying cards out as a stack does and reading back their visual effects.
        .target(name: "SwiftUI", dependencies: ["UIKit"], path: "Tests/SwiftUIShim"),
        .testTarget(name: "CardExportTests",
                    dependencies: ["CardExport", "LuaSyntax", "CardLua", "CardLayout", "UIKit", "SwiftUI",
                                   "CardLuaTestSupport"]),
        // End-to-end: runs the built `cardlua` executable.
        .testTarget(name: "CardLuaCLITests", dependencies: ["CardLuaCLI", "CardLayout", "CardLuaTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
