import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Clients that send slowly hold a connection each, and nothing else.
@Suite(.blocksThreads) struct SlowClientTests {
    /// 500 clients trickling a request head one byte at a time: each byte restarts the idle timeout, so only
    /// the request-read limit ends them; meanwhile everyone else is served at once.
    @Test func tricklingClientsAreCutOffWhileOthersAreServed() async throws {
        try await withServer({ $0.requestReadTimeoutSeconds = 1 }) { server, client in
            var slow: [RawHTTPConnection] = []
            for _ in 0..<500 {
                let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 5)
                connection.write("GET /products/1 HTTP/1.1\r\nHost: local")
                slow.append(connection)
            }
            for _ in 0..<5 {
                for connection in slow { connection.write("h") }
                for id in 1...4 {
                    #expect(try await client.send("/products/\(id)?select=id").status == 200)
                }
                // The trickle's pace, which is the thing under test: a byte every 150 ms or so, for about a second.
                try await Task.sleep(for: .milliseconds(150))
            }
            // Past the 1 s limit (and a sweep), every trickling connection has been ended by the server.
            for connection in slow {
                let (bytes, ending) = connection.readUntilEnd()
                #expect(ending == .closed || ending == .reset)
                #expect(bytes.isEmpty)
            }
            #expect(try await client.send("/health").status == 200)
        }
    }

    /// A stream reader that stops reading is dropped once its backlog passes the bound, so what it holds stays
    /// small (the kernel's buffers are kept small for streams, or they would absorb megabytes first).
    @Test func aStreamReaderThatStopsReadingIsDropped() async throws {
        try await withServer({ $0.maximumStreamBacklogBytes = 16 << 10 }) { server, client in
            let reader = try RawHTTPConnection(port: server.port, receiveBufferBytes: 4_096)
            reader.write("GET /products/stream?interval=10&heartbeat=0 HTTP/1.1\r\nHost: local\r\n\r\n")
            let started = ContinuousClock.now
            let dropped = await waitUntil(within: .seconds(20)) {
                server.journal.entries(path: "/products/stream").count == 1
            }
            #expect(dropped, "the stalled reader was still connected after \(ContinuousClock.now - started)")
            let entry = try #require(server.journal.entries(path: "/products/stream").first)
            // What left the server: its kernel buffer and the reader's, and no more than the backlog bound on top.
            #expect(entry.bytesWritten < 200 << 10, "\(entry.bytesWritten) bytes written before the drop")
            #expect(try await client.send("/health").status == 200)
        }
    }

    /// A connection stays watched across a reply that takes longer than a sweep: evhttp clears its read callback
    /// while writing, which must not look like the connection being freed.
    @Test func aConnectionIsStillWatchedAfterASlowReply() async throws {
        try await withServer({ $0.requestReadTimeoutSeconds = 1 }) { server, _ in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 5)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: local\r\nX-Understudy-Fault: chunks=3/600ms\r\n\r\n")
            #expect(connection.readResponse()?.status == 200)
            connection.write("GET /ping HTTP/1.1\r\nHost: local")
            for _ in 0..<12 {
                connection.write("h")
                // The trickle's pace, the thing under test (1.8 s in all, past the 1 s request-read limit).
                try await Task.sleep(for: .milliseconds(150))
            }
            let (bytes, ending) = connection.readUntilEnd()
            #expect(bytes.isEmpty)
            #expect(ending == .closed || ending == .reset)
        }
    }

    /// An idle keep-alive connection is not a slow request: it is left alone until the idle timeout.
    ///
    /// The idle timeout is an hour and a read may wait a minute: under a sanitizer, with the whole suite on two
    /// cores, the sleep below once ended so late (or the reply came so slowly) that the default 60 s idle timeout,
    /// or the 5 s read, cut the test short. Only the 1 s request-read limit is under test.
    @Test func anIdleKeptAliveConnectionIsNotCutOff() async throws {
        try await withServer({ $0.requestReadTimeoutSeconds = 1; $0.idleTimeoutSeconds = 3_600 }) { server, _ in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 60)
            connection.write("GET /ping HTTP/1.1\r\nHost: local\r\n\r\n")
            #expect(connection.readResponse()?.status == 200)
            // Idle past the 1 s request-read limit: the idleness is the thing under test.
            let idleSince = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(1_600))
            connection.write("GET /ping HTTP/1.1\r\nHost: local\r\n\r\n")
            let status = connection.readResponse()?.status
            #expect(status == 200, "no reply after \(ContinuousClock.now - idleSince) of idleness and the read")
        }
    }
}
