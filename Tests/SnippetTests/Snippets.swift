// SnippetTests: every Swift code block of README.md and of the DocC articles (Sources/*/*.docc/) lives in this
// target between `// snippet: NAME` and `// end`, so `swift build --build-tests` compiles it against the real API.
// scripts/snippets.py (run by `make test`) fails when a block of the documentation is not found here verbatim
// (leading indentation aside), and runs the documentation's shell blocks against a live server.
//
// Snippets are functions that are never called, or tests when running them is cheap and needs no outside server.
// Blocks for Apple platforms only (SwiftUI, XCUITest) are in Tests/AppleSnippetTests, a target that links no server.
