import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyTestSupport

/// The `understudy` executable, run as a user runs it.
///
/// Children are started with `posix_spawn` (see `ChildProcess`), not Foundation's `Process`.
@Suite(.blocksThreads) struct CommandLineTests {
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

    @Test func aBrokenRecordingStopsStartUpNamingFileLineAndColumn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("GET"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"request\": {\"method\": \"GET\", \"path\": \"/x\"},\n \"responses\": [{\"status\": 200,}]}".utf8)
            .write(to: directory.appendingPathComponent("GET/x.json"))
        let result = try run(["--replay", directory.path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.errors.contains("GET/x.json:2:31: expected a string key, found '}'"), "\(result.errors)")
        #expect(try run(["--replay-ignore-query", "_"]).errors.contains("--replay-ignore-query needs --replay DIR"))
    }

    @Test func replaysARecordingDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("GET"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"request": {"method": "GET", "path": "/hello", "query": [["t", "1"]]}, "responses": [{"status": 200, "body": {"hi": 1}}]}"#.utf8)
            .write(to: directory.appendingPathComponent("GET/hello.json"))
        let (child, url) = try launch(["--replay", directory.path, "--replay-ignore-query", "t", "--port", "0", "--quiet"])
        let connection = try rawRequest(url, "GET /hello?t=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let reply = String(decoding: connection.readUntilEnd().bytes, as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
        #expect(reply.hasSuffix(#"{"hi":1}"#))
        #expect(child.output.contains("Replaying 1 recorded requests (1 answers)"))
        child.send(SIGTERM)
        #expect(child.waitForExit() == 0)
    }

    /// Starts `understudy` with `arguments` and returns it with the base URL from its first line.
    private func launch(_ arguments: [String]) throws -> (ChildProcess, String) {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: arguments)
        let firstLine = try #require(child.firstLine(within: 10), "stderr: \(child.errors)")
        let url = try #require(firstLine.split(separator: " ").last.map(String.init))
        return (child, url)
    }

    /// Sends a request on a raw socket (URLSession would retry or hide what the server does).
    private func rawRequest(_ url: String, _ head: String) throws -> RawHTTPConnection {
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let connection = try RawHTTPConnection(port: port)
        connection.write(head)
        return connection
    }

    @Test func bindingBeyondLoopbackTurnsRemoteControlOffUnlessATokenIsGiven() async throws {
        let (open, openURL) = try launch(["--host", "0.0.0.0", "--port", "0", "--quiet"])
        let local = openURL.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
        let refused = try rawRequest(local, "GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: status=503\r\n\r\n")
        #expect(refused.readResponse()?.status == 403)
        let admin = try rawRequest(local, "GET /__understudy/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(admin.readResponse()?.status == 403)
        open.send(SIGTERM)
        #expect(open.waitForExit() == 0)
        #expect(open.errors.contains("WARNING: listening on 0.0.0.0"))
        #expect(open.errors.contains("fault injection and the admin API are OFF"))

        let (guarded, guardedURL) = try launch(["--host", "0.0.0.0", "--port", "0", "--quiet", "--admin-token", "s3cret"])
        let guardedLocal = guardedURL.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
        let without = try rawRequest(guardedLocal, "GET /__understudy/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(without.readResponse()?.status == 401)
        let wrong = try rawRequest(guardedLocal, "GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: status=503\r\n"
            + "X-Understudy-Token: s3cre\r\n\r\n")
        #expect(wrong.readResponse()?.status == 401)
        let right = try rawRequest(guardedLocal, "GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: status=503\r\n"
            + "X-Understudy-Token: s3cret\r\n\r\n")
        #expect(right.readResponse()?.status == 503)
        guarded.send(SIGTERM)
        #expect(guarded.waitForExit() == 0)
        #expect(guarded.errors.contains("need the admin token"))
    }

    @Test func allowHostAddsANameTheAdminAPIAnswersTo() async throws {
        let (child, url) = try launch(["--port", "0", "--quiet", "--allow-host", "understudy.test", "--allow-host=box.lan"])
        let port = try #require(url.split(separator: ":").last.map(String.init))
        for (host, status) in [("understudy.test:\(port)", 200), ("BOX.lan", 200), ("127.0.0.1", 200), ("evil.example", 403)] {
            let reply = try rawRequest(url, "GET /__understudy/health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(reply.readResponse()?.status == status, "\(host)")
        }
        child.send(SIGTERM)
        #expect(child.waitForExit() == 0)
        let withPort = try run(["--allow-host", "understudy.test:8080"])
        #expect(withPort.status == 2)
        #expect(withPort.errors.contains("--allow-host needs a host name without a port"))
    }

    @Test func graceBoundsTheWaitForSlowRepliesAndASecondSignalQuitsAtOnce() async throws {
        // --grace 1: a reply paced over 20 s is cut off after about a second, and the exit is still clean.
        let (patient, patientURL) = try launch(["--port", "0", "--quiet", "--grace", "1"])
        let slow = try rawRequest(patientURL, "GET /products HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: chunks=20/20s\r\n\r\n")
        _ = slow.readHead()
        let stopping = Date()
        patient.send(SIGTERM)
        #expect(patient.waitForExit() == 0)
        let took = Date().timeIntervalSince(stopping)
        #expect(took >= 0.9 && took < 5, "took \(took) s")

        // Without a grace limit in reach, the second SIGINT exits at once. The reply is paced over 300 s and the
        // grace is as long, so however slowly a loaded machine lets this test see the first signal taken, the server
        // is still stopping (not stopped on its own) when the second one comes.
        let (impatient, impatientURL) = try launch(["--port", "0", "--quiet", "--grace", "300"])
        let slower = try rawRequest(impatientURL, "GET /products HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: chunks=20/300s\r\n\r\n")
        _ = slower.readHead()
        impatient.send(SIGINT)
        // Two signals sent before the first is taken would merge into one; wait until the first is taken.
        let taken = await waitUntil(within: .seconds(30)) { impatient.errors.contains("stopping (signal again") }
        #expect(taken, "the first SIGINT was not taken: \(impatient.errors)")
        let interrupted = Date()
        impatient.send(SIGINT)
        #expect(impatient.waitForExit() == 0)
        #expect(Date().timeIntervalSince(interrupted) < 3)
        // The process has exited, but its last line may still be on its way through the pipe to our reader.
        let said = await waitUntil(within: .seconds(30)) { impatient.errors.contains("stopping now") }
        #expect(said, "\(impatient.errors)")
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
