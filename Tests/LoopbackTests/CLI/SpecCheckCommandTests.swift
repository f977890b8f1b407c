import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// `understudy spec check FILE --recording DIR --har FILE.har`: a recorded session and a HAR held to a document, as a
/// user runs it in CI.
@Suite(.blocksThreads) struct SpecCheckCommandTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let document = root.appendingPathComponent("openapi/openapi.yaml").path

    private func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        let child = try ChildProcess(executable: CommandLineTests.executable.path, arguments: ["spec", "check"] + arguments)
        let status = child.waitForExit()
        return .init(status: status, output: child.output, errors: child.errors)
    }

    @Test func aRecordedSessionIsHeldToTheDocument() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spec-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try UnderstudyServer.start()
        defer { upstream.stop() }
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
        configuration.record = try RecordingWriter(directory: directory)
        let proxy = try UnderstudyServer.start(configuration)
        let client = HTTPTestClient(server: proxy)
        #expect(try await client.send("/products/1").status == 200)
        #expect(try await client.send("/quotes/99999").status == 404)   // the document's quotes end at 1454
        proxy.stop()

        let result = try run([Self.document, "--recording", directory.path])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.output.contains("GET/quotes/99999.json: GET /quotes/99999 → 404\n  request.path.id: maximum: path parameter 'id' must be <= 1454"),
                "\(result.output)")
        #expect(!result.output.contains("GET /products/1 →"))
        #expect(result.output.contains("understudy spec check: 2 exchanges checked, 1 violation in 1 exchange"))
    }

    /// A document that cannot be served fails the check, as in CI: each finding as file:line:column with its pointer.
    @Test func aDocumentThatCannotBeServedExitsOne() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("""
            openapi: 3.1.0
            info: {title: Broken, version: '1'}
            paths:
              /pets:
                get:
                  responses:
                    '200': {$ref: '#/components/responses/Missing'}
            """.utf8).write(to: file)
        let result = try run([file.path])
        #expect(result.status == 1)
        let said = result.output + result.errors
        #expect(said.contains("\(file.lastPathComponent):7:"), "\(said)")
        #expect(said.contains("error: unresolved"), "\(said)")
    }

    @Test func aHARIsHeldToTheDocumentEntryByEntry() throws {
        let har = Self.root.appendingPathComponent("fixtures/har/chrome.har").path
        let result = try run([Self.document, "--har", har])
        #expect(result.status == 1)
        // Its API lives under /api, which the document does not have.
        #expect(result.output.contains("\(har) entry 8: GET /api/products/1 → 200\n  request.path: operation: no operation of the document has the path /api/products/1"),
                "\(result.output)")
        #expect(result.output.contains("understudy spec check: 12 exchanges checked"))
    }

    @Test func badInputIsNamed() throws {
        let missing = try run([Self.document, "--recording", "/nonexistent/recording"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("cannot read the recording /nonexistent/recording"))
        let notHAR = try run([Self.document, "--har", Self.document])
        #expect(notHAR.status == 2)
        #expect(notHAR.errors.contains("cannot read the HAR"))
        let tolerate = try run([Self.document, "--tolerate", "everything"])
        #expect(tolerate.status == 2)
        #expect(tolerate.errors.contains("--tolerate takes 3.0-keywords"))
        #expect(try run([Self.document, "--recording"]).status == 2)
    }
}
