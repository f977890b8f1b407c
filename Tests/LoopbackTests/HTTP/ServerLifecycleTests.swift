import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

@Suite(.blocksThreads) struct ServerLifecycleTests {
    @Test func tenServersInOneProcess() async throws {
        var servers: [UnderstudyServer] = []
        for _ in 0..<10 { servers.append(try UnderstudyServer.start()) }
        #expect(Set(servers.map(\.port)).count == 10)
        for server in servers {
            let reply = try await HTTPTestClient(server: server).send("/products/\(server.port % 194 + 1)?select=id")
            #expect(try reply.decode(ProductReply.self).id == server.port % 194 + 1)
        }
        for server in servers { server.stop() }
        for server in servers { server.stop() }
    }

    /// On a stopped server `goOffline` returns at once: its work used to reach a freed event base, or wait
    /// forever for a loop that had ended.
    @Test(.timeLimit(.minutes(1))) func goingOfflineAfterStopDoesNothing() throws {
        let server = try UnderstudyServer.start()
        server.stop()
        server.goOffline(for: .seconds(1))
        server.goOffline(for: .seconds(Int64.max))
    }

    @Test func offlineDurationsAreClamped() async throws {
        try await withServer { server, client in
            // Clamped to the shortest outage (1 ms), not read as "forever" or as a huge unsigned count.
            server.goOffline(for: .seconds(-5))
            let back = await waitUntil(within: .seconds(30)) { try await client.send("/health").status == 200 }
            #expect(back, "still offline 30 s after a negative outage")
        }
    }

    @Test func aTakenPortIsReportedNotCrashedOn() throws {
        let first = try UnderstudyServer.start()
        defer { first.stop() }
        #expect(throws: ServerError.self) {
            try UnderstudyServer.start(.init(port: first.port))
        }
        do {
            _ = try UnderstudyServer.start(.init(port: first.port))
        } catch {
            #expect(error.kind == .addressInUse)
        }
    }

    @Test func badHostsAreReported() {
        #expect(throws: ServerError.self) { try UnderstudyServer.start(.init(host: "no-such-host.invalid")) }
    }

    @Test func twoHundredConcurrentRequests() async throws {
        try await withServer { _, client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask { try await client.send("/products/\(index % 194 + 1)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }

    @Test func delaysAreTimersThatOverlap() async throws {
        try await withServer { server, client in
            let started = Date()
            let single = try await client.send("/products/1?delay=300")
            #expect(single.status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.3)

            // Forty 500 ms delays held one after another would keep the last request 20 s, and only nine would be
            // answered within 5 s of arriving; as timers they overlap and every one takes about 500 ms. Read from
            // the server's own durations, not the test's clock, which a busy machine stretches.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 { group.addTask { _ = try await client.send("/products?delay=500&limit=1") } }
                try await group.waitForAll()
            }
            let held = server.journal.entries(path: "/products").map(\.durationMilliseconds)
            #expect(held.count == 40)
            #expect(held.allSatisfy { $0 >= 499 })
            #expect(held.filter { $0 < 5_000 }.count >= 30, "durations \(held.sorted())")
        }
    }

    @Test func stopAnswersHeldRepliesAndFreesThePort() async throws {
        let server = try UnderstudyServer.start()
        let port = server.port
        let connection = try RawHTTPConnection(port: port)
        connection.write("GET /products/1?delay=5000&select=id HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let client = HTTPTestClient(server: server)
        #expect(await waitUntil(within: .seconds(30)) { try await client.heldConnections() == 1 }, "the reply was never held")
        let stopping = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopping) < 2)
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":1}"#)
        let again = try UnderstudyServer.start(.init(port: port))
        again.stop()
    }

    /// A reply paced over a second is let finish within the grace period; a hang is not waited for.
    @Test func stopLetsPacedRepliesFinishAndEndsHangs() async throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.shutdownGraceSeconds = 5
        let server = try UnderstudyServer.start(configuration)
        let paced = try RawHTTPConnection(port: server.port)
        let hung = try RawHTTPConnection(port: server.port)
        hung.write("GET /products/2 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: hang\r\n\r\n")
        paced.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: chunks=4/2s\r\n\r\n")
        // The head and the first quarter arrive at once; the rest would take another 1.5 s.
        let first = try #require(paced.readHead())
        let length = try #require(RawResponse.contentLength(first))
        let headEnd = try #require(first.utf8.firstRange(of: Array("\r\n\r\n".utf8)))
        let received = first.utf8.distance(from: headEnd.upperBound, to: first.utf8.endIndex)
        #expect(received < length, "the whole body came at once")
        let stopping = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - stopping < .seconds(4), "stop() waited for the hang or the whole grace period")
        let rest = paced.readToEnd()
        #expect(received + rest.count == length, "the paced reply was cut off: \(received + rest.count) of \(length) bytes")
        let (bytes, ending) = hung.readUntilEnd()
        #expect(bytes.isEmpty)
        #expect(ending == .closed)
    }

    /// A client that leaves with part of its reply still queued does not make a later stop() wait: only bytes
    /// still bound for a connected client are waited for.
    @Test func aClientThatLeftMidReplyDoesNotHoldUpStop() async throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.shutdownGraceSeconds = 5
        let server = try UnderstudyServer.start(configuration)
        // The server has one event loop: a request on another connection is answered only after the loop has handled
        // what reached it before (a socket that took what it could of a reply, a client's close).
        let client = HTTPTestClient(server: server)
        do {
            let reader = try RawHTTPConnection(port: server.port, receiveBufferBytes: 4_096)
            reader.write("GET /products?limit=0 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            _ = reader.readHead()
            // The whole reply was queued at once; answered, the loop has since written what both sockets' buffers take.
            #expect(try await client.send("/ping").status == 200)
        }  // closed here with most of the 250 KB unread
        // Answered, the loop has seen the close, so stop() meets the case this test names (a client already gone)
        // rather than a write that finds the reset during shutdown.
        #expect(try await client.send("/ping").status == 200)
        let stopping = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - stopping < .seconds(2))
    }

    @Test func stopAnswersHeldCannedReplies() async throws {
        let server = try UnderstudyServer.start()
        let connection = try RawHTTPConnection(port: server.port)
        // The first request caches the target; the second is held by the canned-reply path.
        let request = "GET /products/2?delay=2000&select=id HTTP/1.1\r\nHost: localhost\r\n\r\n"
        connection.write(request)
        #expect(try #require(connection.readResponse()).status == 200)
        connection.write(request)
        let client = HTTPTestClient(server: server)
        #expect(await waitUntil(within: .seconds(30)) { try await client.heldConnections() == 1 }, "the reply was never held")
        let stopping = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopping) < 1.5, "the held reply waited for its delay")
        let response = try #require(connection.readResponse())
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":2}"#)
        #expect(server.journal.entries(path: "/products/2").count == 2)
    }
}
