// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Understudy",
    // The floor is the client's: Duration, ContinuousClock and Task.sleep(for:) need iOS 16 / macOS 13. The server
    // and the CLI are for Linux and macOS only (Synchronization.Atomic, macOS 15, is used on Linux alone:
    // UnderstudyLocking's SharedCounter).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Understudy", targets: ["Understudy"]),
        .executable(name: "understudy", targets: ["UnderstudyCLI"]),
        .library(name: "UnderstudyClient", targets: ["UnderstudyClient"]),
        .library(name: "UnderstudyDummyJSON", targets: ["UnderstudyDummyJSON"]),
        .library(name: "UnderstudyTesting", targets: ["UnderstudyTesting"]),
        .library(name: "UnderstudyControl", targets: ["UnderstudyControl"]),
        // For test targets only: it imports Swift Testing and XCTest, which an app cannot link.
        .library(name: "UnderstudyControlTesting", targets: ["UnderstudyControlTesting"]),
        .library(name: "UnderstudyFaultSpec", targets: ["UnderstudyFaultSpec"]),
        .library(name: "UnderstudyRecording", targets: ["UnderstudyRecording"]),
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
        // OpenSSL's TLS and certificate API (libssl, libcrypto): the local CA and leaf, HTTPS serving, the upstream
        // client's verification.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // libevent's bufferevent_openssl: a connection's bufferevent that speaks TLS (libevent-dev and brew's
        // libevent ship it).
        .systemLibrary(
            name: "CLibeventOpenSSL",
            pkgConfig: "libevent_openssl",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        // libfyaml's event parser, for OpenAPI documents written in YAML (UnderstudyYAML builds the tree).
        .systemLibrary(
            name: "CFYAML",
            pkgConfig: "libfyaml",
            providers: [.apt(["libfyaml-dev"]), .brew(["libfyaml"])]
        ),
        // Canned reply heads linked into evhttp's header list, and evhttp's own refusals rewritten as JSON on
        // their way out of a connection's output buffer (see RefusalPages.c).
        .target(
            name: "CHeaderLines",
            dependencies: ["CLibevent"]
        ),
        // The C library's memmem, which Swift's Glibc module does not declare (see ByteSearch.c).
        .target(name: "CByteSearch"),
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
        // YAML to the JSON trees JSON tools see (YAML 1.2's core schema, duplicate keys refused, aliases and depth
        // bounded), over libfyaml: for the server and the CLI, never for a library an app links.
        .target(
            name: "UnderstudyYAML",
            dependencies: ["CFYAML", "UnderstudyJSON", "UnderstudyOpenAPI"],
            swiftSettings: strictSettings
        ),
        // OpenAPI documents as a fake backend: loading (references across files), JSON Schema (OpenAPI 3.0's dialect
        // and 2020-12), validation, seeded generation, routing, `Prefer`, state. Foundation only, no server and no C
        // library, so UnderstudyTesting can answer from a document with no server.
        .target(
            name: "UnderstudyOpenAPI",
            dependencies: ["UnderstudyJSON", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        // The typed fault spec (`Fault`): pure Swift, shared by the server and UnderstudyControl, which re-export it.
        .target(
            name: "UnderstudyFaultSpec",
            swiftSettings: strictSettings
        ),
        // Recordings of an API: the exchange values, the reviewable on-disk format, the background writer,
        // redaction and replay matching. Foundation only (no server, no Testing): the server, the CLI and
        // UnderstudyTesting all link it.
        .target(
            name: "UnderstudyRecording",
            dependencies: ["UnderstudyJSON", "UnderstudyLocking"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Understudy",
            dependencies: ["CLibevent", "CCrypto", "COpenSSL", "CLibeventOpenSSL", "CHeaderLines", "CByteSearch", "UnderstudyLocking",
                           "UnderstudyJSON", "UnderstudyFaultSpec", "UnderstudyRecording", "UnderstudyOpenAPI", "UnderstudyYAML",
                           "UnderstudyWebSocket"],
            // The control room's HTML, CSS and script, compiled into the binary as `PackageResources` byte arrays:
            // no resource bundle for an app or the CLI to carry (ControlRoomAssets.swift).
            resources: [.embedInCode("ControlRoom/Assets")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "UnderstudyCLI",
            dependencies: ["Understudy", "UnderstudyLocking", "UnderstudyRecording", "COpenSSL"],
            swiftSettings: strictSettings
        ),
        // The generic client: endpoints, retry, auth, streams, transfers, pagination, middleware, errors.
        // RFC 6455's frames, read and written as values: the server's sockets and the client's share them.
        .target(
            name: "UnderstudyWebSocket",
            swiftSettings: strictSettings
        ),
        .target(
            name: "UnderstudyClient",
            dependencies: ["UnderstudyLocking", "UnderstudyWebSocket"],
            swiftSettings: strictSettings
        ),
        // DummyJSON's products and auth services and their models, over UnderstudyClient.
        .target(
            name: "UnderstudyDummyJSON",
            dependencies: ["UnderstudyClient"],
            swiftSettings: strictSettings
        ),
        // Test doubles for apps: StubHost, StubURLProtocol, the golden contract cases as resources, and recordings
        // served with no server.
        .target(
            name: "UnderstudyTesting",
            dependencies: ["UnderstudyClient", "UnderstudyJSON", "UnderstudyLocking", "UnderstudyOpenAPI", "UnderstudyRecording"],
            resources: [.copy("Resources/contracts")],
            swiftSettings: strictSettings
        ),
        // A typed async client for the admin API of an Understudy in another process, sessions and
        // `URLRequest.understudyFault`; Foundation only (no server, no Testing, no XCTest), so an app may link it.
        .target(
            name: "UnderstudyControl",
            dependencies: ["UnderstudyFaultSpec"],
            swiftSettings: strictSettings
        ),
        // The Swift Testing trait and the XCTest helper giving each test its own session: test targets only.
        .target(
            name: "UnderstudyControlTesting",
            dependencies: ["UnderstudyControl"],
            swiftSettings: strictSettings
        ),
        // `make bench`'s in-process figures (client overhead, in-process start); not a product.
        .executableTarget(
            name: "UnderstudyBench",
            dependencies: ["Understudy", "UnderstudyClient", "UnderstudyDummyJSON", "UnderstudyRecording"],
            swiftSettings: strictSettings
        ),
        // Helpers the Swift test targets share (waitUntil, Fixtures): not a product, linked by test targets only.
        .target(
            name: "UnderstudyTestSupport",
            dependencies: ["UnderstudyClient", "UnderstudyTesting", "UnderstudyJSON", "UnderstudyOpenAPI", "UnderstudyLocking"],
            path: "Tests/UnderstudyTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyClientTests",
            dependencies: ["UnderstudyClient", "UnderstudyTesting", "UnderstudyLocking", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyDummyJSONTests",
            dependencies: ["UnderstudyDummyJSON", "UnderstudyClient", "UnderstudyTesting", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyTestingTests",
            dependencies: ["UnderstudyTesting", "UnderstudyDummyJSON", "UnderstudyClient", "UnderstudyRecording", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyRecordingTests",
            dependencies: ["UnderstudyRecording", "UnderstudyJSON", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyYAMLTests",
            dependencies: ["UnderstudyYAML", "UnderstudyJSON", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyOpenAPITests",
            dependencies: ["UnderstudyOpenAPI", "UnderstudyYAML", "UnderstudyJSON", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyJSONTests",
            dependencies: ["UnderstudyJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnderstudyTests",
            dependencies: ["Understudy", "UnderstudyJSON", "UnderstudyWebSocket", "CHeaderLines", "CLibevent", "COpenSSL"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoopbackTests",
            dependencies: ["Understudy", "UnderstudyLocking", "UnderstudyJSON", "UnderstudyControl", "UnderstudyControlTesting",
                           "UnderstudyRecording", "UnderstudyTestSupport", "CLibevent", "UnderstudyOpenAPI"],
            swiftSettings: strictSettings
        ),
        // UnderstudyControl against the real `understudy` binary in a process of its own, as an XCUITest or a CI
        // job would drive it; the app side is UnderstudyClient.
        .testTarget(
            name: "ControlTests",
            dependencies: ["UnderstudyControl", "UnderstudyControlTesting", "UnderstudyClient", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
        // Every Swift block of README.md and the DocC articles, compiled (scripts/snippets.py checks they match).
        .testTarget(
            name: "SnippetTests",
            dependencies: ["Understudy", "UnderstudyClient", "UnderstudyDummyJSON", "UnderstudyTesting", "UnderstudyControl",
                           "UnderstudyControlTesting"],
            swiftSettings: strictSettings
        ),
        // The documentation's SwiftUI and XCUITest blocks: no server linked, so an Apple build of the package's
        // tests (macOS, or an iOS simulator for the UI-test recipe) compiles them; on Linux they are empty.
        .testTarget(
            name: "AppleSnippetTests",
            dependencies: ["UnderstudyDummyJSON", "UnderstudyControlTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Understudy", "UnderstudyClient", "UnderstudyDummyJSON", "UnderstudyLocking", "UnderstudyTestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
