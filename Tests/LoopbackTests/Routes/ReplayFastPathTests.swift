import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// A replayed answer that never changes is canned after its first plain GET: the bytes on the wire stay the ones
/// the whole pipeline wrote (Date and the rate-limit counters aside), and a sequence is never canned.
@Suite(.blocksThreads) struct ReplayFastPathTests {
    private func withReplay(_ body: (UnderstudyServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fast-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try RecordingWriter(directory: directory)
        let json: [RecordedExchange.Header] = [.init("Content-Type", "application/json; charset=utf-8"), .init("X-Trace", "a")]
        writer.append(RecordedExchange(request: .init(method: "GET", path: "/items/1"),
                                       response: .init(status: 200, headers: json, body: Array(#"{"id":1}"#.utf8))))
        // Recorded from an API that sends DummyJSON's rate-limit counters (DummyJSON, or an Understudy upstream).
        let counted = json + [.init("X-RateLimit-Limit", "100"), .init("X-RateLimit-Remaining", "97"),
                              .init("X-RateLimit-Reset", "1796279607")]
        writer.append(RecordedExchange(request: .init(method: "GET", path: "/counted/1"),
                                       response: .init(status: 200, headers: counted, body: Array(#"{"id":7}"#.utf8))))
        for answer in ["first", "second"] {
            writer.append(RecordedExchange(request: .init(method: "GET", path: "/poll"),
                                           response: .init(status: 200, headers: json, body: Array(#""\#(answer)""#.utf8))))
        }
        await writer.flushed()
        var configuration = UnderstudyServer.Configuration()
        configuration.replay = try Recording(contentsOf: directory)
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        try await body(server)
    }

    /// Three plain GETs of `path` in a row on `connection`: the first goes through the pipeline, the others may be
    /// canned.
    private func threeReplies(to path: String, on connection: RawHTTPConnection) throws -> [RawResponse] {
        try (0..<3).map { _ in
            connection.write("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            return try #require(connection.readResponse())
        }
    }

    /// One reply's text with the lines that differ by the second masked.
    private func masked(_ response: RawResponse) -> String {
        response.head.split(separator: "\r\n").map { line in
            for name in ["Date:", "X-RateLimit-Remaining:", "X-RateLimit-Reset:"] where line.hasPrefix(name) { return name }
            return String(line)
        }.joined(separator: "\n") + "\n\n" + String(decoding: response.body, as: UTF8.self)
    }

    @Test func aCannedReplayedAnswerIsByteForByteThePipelinesOne() async throws {
        try await withReplay { server in
            let connection = try RawHTTPConnection(port: server.port)
            let replies = try threeReplies(to: "/items/1", on: connection)
            #expect(masked(replies[0]).contains("X-Trace: a"))
            #expect(masked(replies[0]).contains("ETag: W/"))
            #expect(masked(replies[1]) == masked(replies[0]))
            #expect(masked(replies[2]) == masked(replies[0]))
            #expect(server.journal.entries(path: "/items/1").count == 3, "canned replies are journaled too")
            #expect(server.journal.entries(path: "/items/1").allSatisfy { $0.status == 200 && $0.bytesWritten == 8 })

            // A fault still reaches a canned target: it goes the whole way through the pipeline.
            connection.write("GET /items/1 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: status=503\r\n\r\n")
            #expect(try #require(connection.readResponse()).status == 503)
        }
    }

    /// An answer recorded with rate-limit counters of its own keeps them, canned or not: the same head each time,
    /// with no second set of counters.
    @Test func recordedCountersAreSentAsRecordedCannedOrNot() async throws {
        try await withReplay { server in
            let replies = try threeReplies(to: "/counted/1", on: try RawHTTPConnection(port: server.port))
            #expect(replies.allSatisfy { String(decoding: $0.body, as: UTF8.self) == #"{"id":7}"# })
            let heads = replies.map { $0.head.split(separator: "\r\n").filter { !$0.hasPrefix("Date:") }.joined(separator: "\n") }
            #expect(heads[1] == heads[0])
            #expect(heads[2] == heads[0])
            let lines = heads[0].split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("X-RateLimit-") } == ["X-RateLimit-Limit: 100", "X-RateLimit-Remaining: 97",
                                                                     "X-RateLimit-Reset: 1796279607"])
            #expect(lines.contains("X-Trace: a"))
            #expect(lines.contains { $0.hasPrefix("ETag: W/") })
        }
    }

    @Test func aSequenceIsNeverCanned() async throws {
        try await withReplay { server in
            let replies = try threeReplies(to: "/poll", on: try RawHTTPConnection(port: server.port))
            let bodies = replies.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(bodies == [#""first""#, #""second""#, #""second""#])
        }
    }
}
