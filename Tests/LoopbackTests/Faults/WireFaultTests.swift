import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Every connection-level fault, read from a raw socket: exact bytes, and how the connection ended.
@Suite(.blocksThreads) struct WireFaultTests {
    private func exchange(_ server: UnderstudyServer, _ target: String, fault: String, timeout: Int = 5)
        throws -> (text: String, bytes: [UInt8], ending: RawHTTPConnection.Ending) {
        let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: timeout)
        connection.write("GET \(target) HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: \(fault)\r\n\r\n")
        let (bytes, ending) = connection.readUntilEnd()
        return (String(decoding: bytes, as: UTF8.self), bytes, ending)
    }

    @Test func truncateSendsPartOfAFullContentLengthThenCloses() async throws {
        try await withServer { server, client in
            let full = try await client.send("/products/1")
            let result = try exchange(server, "/products/1", fault: "truncate=100")
            let head = try #require(result.text.components(separatedBy: "\r\n\r\n").first)
            #expect(head.hasPrefix("HTTP/1.1 200 OK"))
            #expect(RawResponse.contentLength(head) == full.body.count)
            #expect(head.contains("X-Understudy-Fault-Applied: truncate=100"))
            #expect(result.bytes.count == head.utf8.count + 4 + 100)
            #expect(result.ending == .closed)

            let half = try exchange(server, "/products/1", fault: "truncate=50%")
            let halfHead = try #require(half.text.components(separatedBy: "\r\n\r\n").first)
            #expect(half.bytes.count == halfHead.utf8.count + 4 + full.body.count / 2)

            // Truncate means incomplete: a count at or past the body's length still leaves the last byte out.
            for count in [full.body.count, full.body.count + 1, 1_000_000] {
                let all = try exchange(server, "/products/1", fault: "truncate=\(count)")
                let allHead = try #require(all.text.components(separatedBy: "\r\n\r\n").first)
                #expect(RawResponse.contentLength(allHead) == full.body.count)
                #expect(all.bytes.count == allHead.utf8.count + 4 + full.body.count - 1)
                #expect(all.ending == .closed)
            }
        }
    }

    @Test func truncateChunkedStopsBeforeTheLastChunk() async throws {
        try await withServer { server, _ in
            let result = try exchange(server, "/products/1", fault: "truncate-chunked")
            #expect(result.text.contains("Transfer-Encoding: chunked"))
            #expect(!result.text.hasSuffix("0\r\n\r\n"))
            #expect(result.ending == .closed)
        }
    }

    @Test func emptyClosesWithoutAByte() async throws {
        try await withServer { server, _ in
            let result = try exchange(server, "/products/1", fault: "empty")
            #expect(result.bytes.isEmpty)
            #expect(result.ending == .closed)
        }
    }

    @Test func resetSendsAnRSTBeforeOrAfterTheHead() async throws {
        try await withServer { server, _ in
            let before = try exchange(server, "/products/1", fault: "reset")
            #expect(before.bytes.isEmpty)
            #expect(before.ending == .reset)
            let after = try exchange(server, "/products/1", fault: "reset=after-headers")
            #expect(after.text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(after.text.hasSuffix("\r\n\r\n"))
            #expect(after.ending == .reset)
        }
    }

    @Test func garbageIsSeededBytesInsteadOfHTTP() async throws {
        let first = try await withServer({ $0.seed = 99 }) { server, _ in try exchange(server, "/ping", fault: "garbage") }
        let second = try await withServer({ $0.seed = 99 }) { server, _ in try exchange(server, "/ping", fault: "garbage") }
        #expect(first.bytes.count == 512)
        #expect(!first.text.hasPrefix("HTTP/"))
        #expect(first.bytes == second.bytes)
        #expect(first.ending == .closed)
    }

    @Test func hangNeverAnswersAndIsFreedWhenTheClientLeaves() async throws {
        try await withServer { server, client in
            do {
                let result = try exchange(server, "/products/1", fault: "hang", timeout: 1)
                #expect(result.bytes.isEmpty)
                #expect(result.ending == .timedOut)
            }
            var held = -1
            let freed = await waitUntil(within: .seconds(30)) {
                held = try await client.heldConnections()
                return held == 0
            }
            #expect(freed, "\(held) connections still held after the hung client left")
            // Journaled once the client left, with how long it was held (the client waited 1 s).
            let entry = try #require(server.journal.entries(path: "/products/1").last)
            #expect(entry.fault == "hang")
            #expect(entry.status == 0)
            #expect(entry.durationMilliseconds >= 900)
        }
    }

    @Test func aHangEndsInTheJournalWhenTheServerStops() async throws {
        let server = try UnderstudyServer.start()
        let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
        connection.write("GET /ping HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: hang\r\n\r\n")
        let client = HTTPTestClient(server: server)
        #expect(await waitUntil(within: .seconds(30)) { try await client.heldConnections() == 1 }, "the hang never arrived")
        let heldSince = ContinuousClock.now
        // The hold the journal is to measure: the request arrived before `heldSince`, so it is held at least this long.
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.journal.entries(path: "/ping").isEmpty)
        let heldFor = ContinuousClock.now - heldSince
        server.stop()
        #expect(connection.readUntilEnd().ending == .closed)
        let entry = try #require(server.journal.entries(path: "/ping").last)
        #expect(entry.fault == "hang")
        // Less 5 ms for the loop's coarse clock (it moves in 4 ms steps).
        #expect(entry.durationMilliseconds >= heldFor / .milliseconds(1) - 5, "held \(heldFor), journaled \(entry.durationMilliseconds) ms")
    }

    @Test func delayAndPacingAreTimers() async throws {
        try await withServer { server, client in
            let started = Date()
            let delayed = try await client.send("/products/1?select=id", headers: ["X-Understudy-Fault": "delay=300ms"])
            #expect(delayed.status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.3)

            let paced = Date()
            let body = try await client.send("/products/1", headers: ["X-Understudy-Fault": "rate=5kB/s"])
            #expect(body.body.count > 1_000)
            #expect(Date().timeIntervalSince(paced) >= Double(body.body.count) / 5_000 * 0.8)
            let chunks = try exchange(server, "/products/1", fault: "chunks=4/200ms", timeout: 1)
            #expect(chunks.text.contains("Content-Length: "))
        }
    }

    /// 1,000 requests held 300 ms each, all at once: timers overlap, so they finish together, about 300 ms after
    /// they arrived (one after another they would take five minutes). The bound on the spread is loose for
    /// sanitizer builds on a shared machine; the figure itself is `make bench`'s.
    @Test func aThousandConcurrentDelaysFinishTogether() async throws {
        try await withServer { server, _ in
            var connections: [RawHTTPConnection] = []
            for _ in 0..<1_000 {
                let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 10)
                connection.write("GET /products/1?select=id HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: delay=300ms\r\n\r\n")
                connections.append(connection)
            }
            let started = ContinuousClock.now
            for connection in connections {
                #expect(connection.readResponse()?.status == 200)
            }
            #expect(ContinuousClock.now - started < .seconds(10))
            let held = server.journal.entries(path: "/products/1").map(\.durationMilliseconds)
            #expect(held.count == 1_000)
            #expect(held.allSatisfy { $0 >= 299 }, "a reply came early: \(held.sorted().prefix(5)) ms")
            #expect((held.max() ?? 0) < 3_000, "the slowest took \(held.max() ?? 0) ms")
        }
    }

    /// A delay range draws each request's delay from the seed, uniformly within the range.
    @Test func aDelayRangeSpreadsWithinItsBounds() async throws {
        try await withServer { server, _ in
            var connections: [RawHTTPConnection] = []
            for _ in 0..<100 {
                let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 10)
                connection.write("GET /ping HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: delay=100ms..400ms\r\n\r\n")
                connections.append(connection)
            }
            for connection in connections { #expect(connection.readResponse()?.status == 200) }
            let held = server.journal.entries(path: "/ping").map(\.durationMilliseconds).sorted()
            #expect(held.count == 100)
            #expect(held.first ?? 0 >= 99)
            // Uniform over 300 ms: the quartiles sit near 175, 250 and 325 ms, not all at one end.
            #expect(held[25] < 250 && held[75] > 250, "quartiles \(held[25]) and \(held[75]) ms")
        }
    }

    @Test func offlineRefusesConnectionsThenRecovers() async throws {
        try await withServer { server, client in
            // Long enough that a task the loaded suite starves still connects within it.
            server.goOffline(for: .seconds(5))
            let offline = ContinuousClock.now
            let refused = #expect(throws: POSIXError.self) { try RawHTTPConnection(port: server.port) }
            #expect(refused?.code == .ECONNREFUSED, "\(String(describing: refused))")
            // A wait, not a timing: a long limit costs nothing when the server is back at once, and leaves room for
            // a suite that keeps both cores busy.
            let recovered = await waitUntil(within: .seconds(90)) { try await client.send("/ping").status == 200 }
            #expect(recovered, "still refusing \(ContinuousClock.now - offline) after a 5 s outage")
            #expect(ContinuousClock.now - offline >= .milliseconds(4_950), "back before the outage was over")
        }
    }
}
