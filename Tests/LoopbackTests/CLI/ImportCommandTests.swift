import Foundation
import Testing
import UnderstudyTestSupport

/// `understudy import FILE.har --to DIR`, run as a user runs it: what it prints, and how it refuses bad input.
@Suite(.blocksThreads) struct ImportCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/har")

    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: ["import"] + arguments)
        let status = child.waitForExit()
        return .init(status: status, output: child.output, errors: child.errors)
    }

    private func temporaryPath(_ suffix: String = "") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("understudy-import-\(UUID().uuidString)\(suffix)").path
    }

    @Test func aChromeHARImportsAndEveryEntryIsAccountedFor() throws {
        let directory = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try run([Self.fixtures.appendingPathComponent("chrome.har").path, "--to", directory])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("written by Chrome DevTools (WebInspector 537.36)"))
        #expect(result.output.contains("wrote GET/api/products/1.json: GET /api/products/1 -> 200, 200"), "\(result.output)")
        #expect(result.output.contains("wrote GET/api/live.json: GET /api/live -> 101 (a WebSocket: 4 messages)"), "\(result.output)")
        #expect(result.output.contains("skipped entry 12 (GET https://shop.example.com/api/slow): it got no response (status 0: net::ERR_CONNECTION_RESET)"))
        #expect(result.output.contains("Imported 12 of 13 into \(directory); skipped 1."))
        #expect(result.output.contains("Secrets are placeholders"))
        let written = try FileManager.default.subpathsOfDirectory(atPath: directory)
        #expect(written.contains("understudy-recording.json"))
    }

    /// The whole workflow: import, then `understudy --replay DIR` answers as the HAR's server did, sequences too.
    @Test func whatItImportsTheReplayingServerAnswers() throws {
        let directory = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try run([Self.fixtures.appendingPathComponent("chrome.har").path, "--to", directory]).status == 0)
        let server = try ChildProcess(executable: CommandLineTests.executable.path,
                                      arguments: ["--replay", directory, "--port", "0", "--quiet"])
        let firstLine = try #require(server.firstLine(within: 10), "\(server.errors)")
        let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0) })
        func get(_ target: String) throws -> RawResponse {
            let connection = try RawHTTPConnection(port: port)
            connection.write("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return try #require(connection.readResponse())
        }
        #expect(String(decoding: try get("/api/products/1").body, as: UTF8.self) == #"{"id":1,"title":"Phone","stock":5}"#)
        #expect(String(decoding: try get("/api/products/1").body, as: UTF8.self) == #"{"id":1,"title":"Phone","stock":4}"#)
        #expect(try get("/api/products/search?limit=2&q=phone").status == 200)
        let missing = try get("/api/products/9999")
        #expect(missing.status == 404 && missing.header("X-Understudy-Replay") == nil)
        #expect(try get("/api/avatars/1.png").body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Chrome's WebSocket, replayed: the server's first words, then the answer to the client's subscription.
        let socket = try RawWebSocket(port: port, path: "/api/live")
        #expect(socket.response.status == 101)
        #expect(socket.readFrame()?.text == #"{"hello":true}"#)
        socket.sendText(#"{"subscribe":"prices"}"#)
        #expect(socket.readFrame()?.text == #"{"id":1,"price":9.99}"#)
        #expect(socket.readFrame()?.payload == [0x00, 0x01, 0x02, 0xFF])
    }

    @Test func pulsesNotesAndCopiesArePrinted() throws {
        let directory = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try run([Self.fixtures.appendingPathComponent("pulse.har").path, "--to=\(directory)", "--no-redact"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("note: entry 0 (POST /api/auth/login): Pulse's HAR export leaves out request bodies"))
        #expect(result.output.contains("skipped entry 11 (POST https://api.example.com/api/auth/login): a copy of entry 0"))
        #expect(result.output.contains("Redaction is OFF"))
    }

    @Test func aFileThatIsNotJSONExits1WithLineAndColumn() throws {
        let file = temporaryPath(".har")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("{\"log\": {\n  \"entries\": [}\n}".utf8).write(to: URL(fileURLWithPath: file))
        let directory = temporaryPath()
        let result = try run([file, "--to", directory])
        #expect(result.status == 1)
        #expect(result.errors.contains("understudy import: \(file):2:15: not JSON: unexpected '}', expected a value"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func jsonThatIsNotAHARExits1() throws {
        let file = temporaryPath(".har")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("{\"products\": []}".utf8).write(to: URL(fileURLWithPath: file))
        let result = try run([file, "--to", temporaryPath()])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(file): not a HAR file: no \"log\" object at the top level"), "\(result.errors)")
    }

    @Test func aMissingFileAndADirectoryItCannotWriteExit1NamingThem() throws {
        let missing = try run([temporaryPath(".har"), "--to", temporaryPath()])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("cannot read it"), "\(missing.errors)")

        let blocker = temporaryPath()
        try Data("a file where the directory should be".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let result = try run([Self.fixtures.appendingPathComponent("proxyman.har").path, "--to", "\(blocker)/recording"])
        #expect(result.status == 1)
        #expect(result.errors.contains("understudy import: \(blocker)"), "\(result.errors)")
    }

    @Test func aHARWithNothingUsableExits1() throws {
        let file = temporaryPath(".har")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let entry = #"{"request": {"method": "CONNECT", "url": "https://x.test:443"}, "response": {"status": 200}}"#
        try Data(#"{"log": {"version": "1.2", "creator": {"name": "Charles Proxy", "version": "4.6.8"}, "entries": [\#(entry)]}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let directory = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try run([file, "--to", directory])
        #expect(result.status == 1)
        #expect(result.output.contains("skipped entry 0 (CONNECT https://x.test:443): a CONNECT tunnel"))
        #expect(result.errors.contains("no entry of \(file) could be imported"))
    }

    @Test(arguments: [[String](), ["a.har"], ["--to", "dir"], ["a.har", "b.har", "--to", "dir"], ["a.har", "--to"],
                      ["a.har", "--to", "dir", "--bogus"], ["a.har", "--to", "dir", "--redact-field"]])
    func badArgumentsPrintUsageAndExit2(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains("Usage: understudy import"))
    }

    @Test func helpPrintsTheUsage() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--no-redact"))
    }
}
