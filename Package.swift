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
        .target(
            name: "Understudy",
            dependencies: ["CLibevent", "CCrypto", "CHeaderLines"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "UnderstudyCLI",
            dependencies: ["Understudy"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "UnderstudyClient",
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
            dependencies: ["UnderstudyClient"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyTests",
            dependencies: ["Understudy"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: ["Understudy"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Understudy", "UnderstudyClient"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
