import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A document's `text/event-stream` operation is a stream on the wire: chunked events that the stream faults act on,
/// as they act on `/products/stream`.
@Suite(.blocksThreads) struct SpecEventStreamTests {
    private let server: UnderstudyServer
    private let client: HTTPTestClient

    init() throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.spec = try OpenAPISpec(text: SpecFixtures.ticks, name: "ticks.json")
        server = try UnderstudyServer.start(configuration)
        client = HTTPTestClient(server: server)
    }

    private func events(_ reply: HTTPTestClient.Reply) -> [String] {
        reply.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    }

    @Test func eachItemIsAnEventSentChunked() async throws {
        defer { server.stop() }
        let reply = try await client.send("/ticks")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/event-stream")
        #expect(reply.header("Transfer-Encoding") == "chunked")
        #expect(events(reply) == (1...5).map { "event: tick\ndata: {\"event\":\"tick\",\"n\":\($0)}" })
        let head = try await client.send("HEAD", "/ticks")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }

    @Test func theStreamFaultsActOnItsEvents() async throws {
        defer { server.stop() }
        let streams = EventStreamTests()
        func open(_ fault: String, timeout: Int = 3) throws -> EventStreamTests.Stream {
            try streams.open(server, "", path: "/ticks", headers: ["X-Understudy-Fault": fault], timeout: timeout)
        }
        let dropped = try open("drop-after=2")
        #expect(dropped.dataLines.count == 2)
        #expect(!dropped.endedCleanly)
        #expect(dropped.ending == .closed)
        #expect(dropped.head.contains("X-Understudy-Fault-Applied: drop-after=2"))
        let cut = try open("cut-mid-event=3")
        #expect(cut.dataLines.count == 3)
        #expect(!cut.body.hasSuffix("\n\n"))
        #expect(try open("reset-after=1").ending == .reset)
        let stalled = try open("stall-after=1", timeout: 1)
        #expect(stalled.dataLines.count == 1)
        #expect(stalled.ending == .timedOut)
        let crlf = try open("newline=crlf")
        #expect(crlf.body.hasPrefix("event: tick\r\ndata: "))
        #expect(crlf.endedCleanly)
        let chunked = try open("chunk=7")
        #expect(chunked.chunkSizes.dropLast().allSatisfy { $0 == 7 })
        #expect(chunked.dataLines.count == 5)
        // A body directive is not a stream's: it changes nothing, and the reply does not say it was applied.
        let whole = try open("truncate=5")
        #expect(whole.dataLines.count == 5)
        #expect(whole.endedCleanly)
        #expect(!whole.head.contains("X-Understudy-Fault-Applied"))
    }
}
