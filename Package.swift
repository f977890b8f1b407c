// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Understudy",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Understudy", targets: ["Understudy"]),
        .executable(name: "understudy", targets: ["UnderstudyCLI"]),
        .library(name: "UnderstudyClient", targets: ["UnderstudyClient"]),
    ],
    traits: [
        // Off by default: it defines libevent's `evbuffer_add_printf` for the whole process (see HeaderLines.c),
        // which a library must not do to the processes that link it. The `understudy` binary that `make` builds
        // turns it on: JSON for evhttp's own refusals, and reply heads without vsnprintf (BENCHMARKS.md).
        .trait(name: "HeadLineWriter",
               description: "evhttp's refusals as JSON and reply heads written without vsnprintf, by defining libevent's evbuffer_add_printf (ELF platforms)"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // Canned reply heads linked into evhttp's header list; with the HeadLineWriter trait, evhttp's reply-head
        // formatting without vsnprintf and its refusals as JSON (see HeaderLines.c).
        .target(
            name: "CHeaderLines",
            dependencies: ["CLibevent"],
            cSettings: [.define("UNDERSTUDY_HEAD_LINE_WRITER", .when(traits: ["HeadLineWriter"]))]
        ),
        // A lock ThreadSanitizer can see, shared by the server and the client (see Locked.swift).
        .target(
            name: "UnderstudyLocking",
            swiftSettings: strictSettings
        ),
        .target(
            name: "Understudy",
            dependencies: ["CLibevent", "CCrypto", "CHeaderLines", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "UnderstudyCLI",
            dependencies: ["Understudy", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "UnderstudyClient",
            dependencies: ["UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        // `make bench`'s in-process figures (client overhead, in-process start); not a product.
        .executableTarget(
            name: "UnderstudyBench",
            dependencies: ["Understudy", "UnderstudyClient"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyClientTests",
            dependencies: ["UnderstudyClient", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyTests",
            dependencies: ["Understudy"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: ["Understudy", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Understudy", "UnderstudyClient", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
