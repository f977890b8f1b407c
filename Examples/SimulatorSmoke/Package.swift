// swift-tools-version:6.1
// A small stand-in for an iOS app and its tests, run on an iOS simulator by .github/workflows/macos.yml against an
// `understudy` the job started on the Mac (the repository must be checked out in a folder named `understudy`, the
// identity SwiftPM gives the path dependency): the app links only what an app may (UnderstudyControl),
// the tests UnderstudyControlTesting, and nothing links the server. Only a Mac with Xcode builds it.
import PackageDescription

let package = Package(
    name: "SimulatorSmoke",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [.library(name: "SmokeApp", targets: ["SmokeApp"])],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "SmokeApp", dependencies: [
            .product(name: "UnderstudyControl", package: "understudy"),
        ]),
        .testTarget(name: "SmokeAppTests", dependencies: [
            "SmokeApp",
            .product(name: "UnderstudyControlTesting", package: "understudy"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
