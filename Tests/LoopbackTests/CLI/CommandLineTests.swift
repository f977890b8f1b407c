import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The `understudy` executable, run as a user runs it.
///
/// Children are started with `posix_spawn` (see `ChildProcess`), not Foundation's `Process`.
@Suite struct CommandLineTests {
    /// The executable SwiftPM builds next to the test bundle.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("understudy")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/understudy")
    }

    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    func run(_ arguments: [String]) throws -> Run {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: arguments)
        let status = child.waitForExit()
        return Run(status: status, output: child.output, errors: child.errors)
    }

    @Test func helpAndVersion() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--fixtures DIR"))
        let version = try run(["--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("understudy "))
    }

    @Test(arguments: [["--bogus"], ["--port"], ["--port", "70000"], ["--port", "abc"]])
    func badFlagsPrintUsageAndExit2(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains("Usage: understudy"))
    }

    @Test func brokenFixturesStopStartUpNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[\n  {\"id\": 1,\n  \"title\": }\n]".utf8).write(to: directory.appendingPathComponent("products.json"))
        let result = try run(["--fixtures", directory.path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.errors.contains("products.json:3:12: unexpected '}', expected a value"))
    }

    @Test func servesLogsAndStopsOnSIGTERM() async throws {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: ["--port", "0"])
        let firstLine = try #require(child.firstLine(within: 10))
        let url = try #require(firstLine.split(separator: " ").last.map(String.init))
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: url + "/products/1?select=title")))
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("{\"id\":1,"))

        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let clash = try run(["--port", String(port)])
        #expect(clash.status == 1)
        #expect(clash.errors.contains("already in use"))

        child.send(SIGTERM)
        #expect(child.waitForExit() == 0, "stderr: \(child.errors)")
        #expect(child.exitedNormally)
        #expect(child.errors.contains("GET /products/1?select=title 200"))
    }
}
