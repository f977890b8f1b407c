// swift-tools-version:6.0
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
        // evhttp's reply-head formatting without vsnprintf (see HeaderLines.c).
        .target(
            name: "CHeaderLines",
            dependencies: ["CLibevent"]
        ),
        // A lock ThreadSanitizer can see, shared by the server and the client (see Locked.swift).
        .target(
            name: "UnderstudyLocking",
            swiftSettings: strictSettings
        ),
        // The order-keeping JSON parser and writer, shared by the server and the testing library.
        .target(
            name: "UnderstudyJSON",
            swiftSettings: strictSettings
        ),
        .target(
            name: "Understudy",
            dependencies: ["CLibevent", "CCrypto", "CHeaderLines", "UnderstudyLocking", "UnderstudyJSON"],
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
            name: "UnderstudyJSONTests",
            dependencies: ["UnderstudyJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyTests",
            dependencies: ["Understudy", "UnderstudyJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: ["Understudy", "UnderstudyLocking", "UnderstudyJSON"],
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
