import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `GET /products/stream` over a raw socket: the event-stream rules, resume, and every stream fault.
@Suite(.blocksThreads) struct EventStreamTests {
    struct Stream {
        let head: String
        /// The de-chunked body.
        let body: String
        /// The raw chunk sizes, in order.
        let chunkSizes: [Int]
        /// Whether the chunked body ended with its last (zero) chunk.
        let endedCleanly: Bool
        let ending: RawHTTPConnection.Ending

        var ids: [Int] {
            body.components(separatedBy: "\n").compactMap { line in
                line.hasPrefix("id: ") ? Int(line.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            }
        }

        var dataLines: [String] {
            body.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    /// `path` (with `query`) read over a raw socket to its end, its chunks undone.
    func open(_ server: UnderstudyServer, _ query: String, path: String = "/products/stream", headers: [String: String] = [:],
              timeout: Int = 3) throws -> Stream {
        let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: timeout)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        // `Connection: close` makes the server close once the stream ends, so the read stops there.
        let target = query.isEmpty ? path : "\(path)?\(query)"
        connection.write("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(extra)\r\n")
        let (bytes, ending) = connection.readUntilEnd()
        guard let headEnd = RawResponse.headEnd(in: bytes) else {
            return Stream(head: String(decoding: bytes, as: UTF8.self), body: "", chunkSizes: [], endedCleanly: false, ending: ending)
        }
        var body: [UInt8] = []
        var sizes: [Int] = []
        var index = headEnd + 4
        var clean = false
        while index < bytes.count {
            guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                  let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) else { break }
            if size == 0 {
                clean = true
                break
            }
            let start = lineEnd + 2
            let end = min(start + size, bytes.count)
            body += bytes[start..<end]
            sizes.append(size)
            index = end + 2
        }
        return Stream(head: String(decoding: bytes[..<headEnd], as: UTF8.self),
                      body: String(decoding: body, as: UTF8.self), chunkSizes: sizes, endedCleanly: clean, ending: ending)
    }

    @Test func eventsFollowTheRulesAndEndAfterCount() async throws {
        try await withServer { server, _ in
            let stream = try open(server, "interval=20&count=3&heartbeat=0&retry=1500")
            #expect(stream.head.hasPrefix("HTTP/1.1 200 OK"))
            #expect(stream.head.contains("Content-Type: text/event-stream; charset=utf-8"))
            #expect(stream.head.contains("Cache-Control: no-cache"))
            #expect(stream.body.hasPrefix("retry: 1500\n\n"))
            #expect(stream.ids == [1, 2, 3])
            #expect(stream.body.components(separatedBy: "event: product-update\n").count == 4)
            for data in stream.dataLines {
                #expect(try JSONDecoder().decode(JSONKeys.self, from: Data(data.utf8)).keys == ["id", "price", "stock", "updatedAt", "note"])
                _ = try JSONDecoder().decode(ProductUpdateEvent.self, from: Data(data.utf8))
            }
            #expect(stream.endedCleanly)
        }
    }

    @Test func lastEventIDResumesWithoutGapsOrRepeats() async throws {
        try await withServer { server, _ in
            let whole = try open(server, "interval=10&count=5&heartbeat=0")
            let resumed = try open(server, "interval=10&count=5&heartbeat=0", headers: ["Last-Event-ID": "2"])
            #expect(resumed.ids == [3, 4, 5])
            #expect(resumed.dataLines == Array(whole.dataLines.suffix(3)))
            // A client that has every event is told to stop with 204, not sent an empty stream to reconnect to.
            for last in ["5", "7"] {
                let done = try open(server, "interval=10&count=5", headers: ["Last-Event-ID": last])
                #expect(done.head.hasPrefix("HTTP/1.1 204 No Content"))
                #expect(done.ids.isEmpty)
                #expect(!done.head.contains("text/event-stream"))
            }
            let last = try open(server, "interval=10&count=5&heartbeat=0", headers: ["Last-Event-ID": "4"])
            #expect(last.ids == [5])
            #expect(last.endedCleanly)
        }
    }

    @Test func heartbeatsAreComments() async throws {
        try await withServer { server, _ in
            let stream = try open(server, "interval=200&count=1&heartbeat=40")
            #expect(stream.body.contains(": heartbeat\n\n"))
            #expect(stream.ids == [1])
        }
    }

    @Test func dropCutResetAndStall() async throws {
        try await withServer { server, _ in
            let dropped = try open(server, "interval=10&count=6&heartbeat=0", headers: ["X-Understudy-Fault": "drop-after=2"])
            #expect(dropped.ids == [1, 2])
            #expect(!dropped.endedCleanly)
            #expect(dropped.ending == .closed)

            let cut = try open(server, "interval=10&count=6&heartbeat=0", headers: ["X-Understudy-Fault": "cut-mid-event=2"])
            #expect(cut.ids == [1, 2])
            #expect(cut.dataLines.count == 2)
            #expect(!cut.body.hasSuffix("\n\n"))
            #expect(cut.ending == .closed)

            let reset = try open(server, "interval=10&count=6&heartbeat=0", headers: ["X-Understudy-Fault": "reset-after=1"])
            #expect(reset.ending == .reset)

            let stalled = try open(server, "interval=10&count=6&heartbeat=20", headers: ["X-Understudy-Fault": "stall-after=1"], timeout: 1)
            #expect(stalled.ids == [1])
            #expect(!stalled.body.contains("heartbeat"))
            #expect(stalled.ending == .timedOut)
        }
    }

    @Test func malformedEventsNewlinesAndByteChunks() async throws {
        try await withServer { server, _ in
            let malformed = try open(server, "interval=10&count=3&heartbeat=0", headers: ["X-Understudy-Fault": "malformed-event=2"])
            #expect(malformed.dataLines.count == 3)
            #expect((try? JSONDecoder().decode(AnyJSON.self, from: Data(malformed.dataLines[1].utf8))) == nil)

            let crlf = try open(server, "interval=10&count=1&heartbeat=0", headers: ["X-Understudy-Fault": "newline=crlf"])
            #expect(crlf.body.hasPrefix("retry: 3000\r\n\r\nid: 1\r\n"))
            let cr = try open(server, "interval=10&count=1&heartbeat=0", headers: ["X-Understudy-Fault": "newline=cr"])
            #expect(cr.body.hasPrefix("retry: 3000\r\rid: 1\r"))
            #expect(!cr.body.contains("\n"))

            let bytes = try open(server, "interval=10&count=1&heartbeat=0", headers: ["X-Understudy-Fault": "chunk=1"])
            #expect(bytes.ids == [1])
            #expect(bytes.chunkSizes.allSatisfy { $0 == 1 })
            #expect(bytes.chunkSizes.count == bytes.body.utf8.count)
        }
    }

    @Test func status204TellsClientsToStop() async throws {
        try await withServer { _, client in
            let reply = try await client.send("/products/stream", headers: ["X-Understudy-Fault": "status=204"])
            #expect(reply.status == 204)
            #expect(reply.body.isEmpty)
        }
    }

    @Test(arguments: [("interval=5", "Invalid 'interval'"), ("count=0", "Invalid 'count'"), ("retry=x", "Invalid 'retry'")])
    func badParametersAre400(query: String, message: String) async throws {
        try await withServer { _, client in
            let reply = try await client.send("/products/stream?\(query)")
            #expect(reply.status == 400)
            #expect(reply.message?.hasPrefix(message) == true)
        }
        try await withServer { _, client in
            let reply = try await client.send("/products/stream", headers: ["Last-Event-ID": "abc"])
            #expect(reply.status == 400)
        }
    }

    /// Ids past the bound used to overflow counting on from them, and trap the server.
    @Test(arguments: ["9223372036854775807", "9223372036854775806", "100000000001"])
    func hugeLastEventIDsAre400(id: String) async throws {
        try await withServer { _, client in
            let reply = try await client.send("/products/stream", headers: ["Last-Event-ID": id])
            #expect(reply.status == 400)
            #expect(reply.message?.contains("from 0 to 100000000000") == true)
            #expect(try await client.send("/products/1").status == 200)
        }
    }

    @Test func anEmptyCatalogueHasNothingToStream() async throws {
        let empty = try Catalog(productsJSON: Array(#"{"products": []}"#.utf8), usersJSON: Array(#"{"users": []}"#.utf8))
        try await withServer({ $0.catalog = empty }) { _, client in
            let reply = try await client.send("/products/stream?interval=10")
            #expect(reply.status == 404)
            #expect(reply.message == "No products to stream: the catalogue is empty")
            #expect(try await client.send("/products").decode(ProductPageReply<ProductReply>.self).total == 0)
        }
    }

    @Test func fiveHundredStreamsAreFreedWhenClientsLeave() async throws {
        try await withServer { server, client in
            var connections: [RawHTTPConnection] = []
            for _ in 0..<500 {
                let connection = try RawHTTPConnection(port: server.port)
                connection.write("GET /products/stream?interval=50 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                connections.append(connection)
            }
            var held = -1
            let allHeld = await waitUntil(within: .seconds(30)) {
                held = try await client.heldConnections()
                return held == 500
            }
            #expect(allHeld, "\(held) of 500 streams held")
            connections.removeAll()
            let allFreed = await waitUntil(within: .seconds(30)) {
                held = try await client.heldConnections()
                return held == 0
            }
            #expect(allFreed, "\(held) streams still held after their clients left")
        }
    }
}
