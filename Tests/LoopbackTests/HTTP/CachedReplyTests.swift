import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// A repeated plain GET of a catalogue route is answered from its pre-encoded reply without routing; these pin
/// that the shortcut sends what the full pipeline sends, and steps aside whenever the request asks for more.
@Suite(.blocksThreads) struct CachedReplyTests {
    @Test func aRepeatedGetIsTheFirstReplyByteForByte() async throws {
        try await withServer { server, _ async throws in
            let connection = try RawHTTPConnection(port: server.port)
            var replies: [RawResponse] = []
            for _ in 0..<2 {
                connection.write("GET /products?limit=3&select=title HTTP/1.1\r\nHost: localhost\r\nX-Trace: 7\r\n\r\n")
                replies.append(try #require(connection.readResponse()))
            }
            #expect(replies[0].body == replies[1].body)
            #expect(headLines(replies[0]) == headLines(replies[1]))
            #expect(replies[1].header("X-RateLimit-Remaining") == "98")
            #expect(replies[1].header("ETag")?.hasPrefix("W/\"") == true)

            let entries = server.journal.entries(path: "/products")
            #expect(entries.count == 2)
            for entry in entries {
                #expect(entry.query == "limit=3&select=title")
                #expect(entry.headers["X-Trace"] == "7")
                #expect(entry.status == 200)
                #expect(entry.bytesWritten == replies[0].body.count)
            }
        }
    }

    @Test func headersThatChangeTheReplyTakeTheFullPipeline() async throws {
        try await withServer { server, client async throws in
            let first = try await client.send("/products/2")
            let etag = try #require(first.header("ETag"))
            #expect(try await client.send("/products/2", headers: ["If-None-Match": etag]).status == 304)
            let cors = try await client.send("/products/2", headers: ["Origin": "http://app.test"])
            #expect(cors.header("Access-Control-Allow-Origin") == "http://app.test")
            #expect(try await client.send("/products/2", headers: ["X-Understudy-Fault": "status=503"]).status == 503)
            _ = try await client.send("/products/2", headers: ["X-Understudy-Session": "cached"])
            #expect(server.journal.entries(session: "cached", path: "/products/2").count == 1)
        }
    }

    @Test func theSessionIsTheFirstSessionHeaderAsThePipelineReadsIt() async throws {
        try await withServer { server, _ async throws in
            let connection = try RawHTTPConnection(port: server.port)
            for _ in 0..<2 {
                connection.write("GET /products/6 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Session: \r\n"
                                 + "X-Understudy-Session: second\r\n\r\n")
                #expect(try #require(connection.readResponse()).status == 200)
            }
            let sessions = server.journal.entries(path: "/products/6").map(\.session)
            #expect(sessions == [nil, nil])
        }
    }

    @Test func aRuleAddedLaterReachesACachedTarget() async throws {
        try await withServer { server, client async throws in
            #expect(try await client.send("/products/3").status == 200)
            try server.faults.add(FaultRule(match: .init(path: "/products/3"), fault: "status=500", times: 1))
            #expect(try await client.send("/products/3").status == 500)
            #expect(try await client.send("/products/3").status == 200)
        }
    }

    @Test func aDelayInTheQueryIsKeptAndAFaultIsNotSkipped() async throws {
        try await withServer { server, client async throws in
            var delayed: [HTTPTestClient.Reply] = []
            for _ in 0..<2 {
                delayed.append(try await client.send("/products/4?delay=50"))
                #expect(try await client.send("/products/4?_fault=status%3D502").status == 502)
            }
            // The first went through the pipeline, the second was held and sent canned: the same reply.
            #expect(delayed.map(\.status) == [200, 200])
            #expect(delayed[0].body == delayed[1].body)
            #expect(delayed[0].header("ETag") == delayed[1].header("ETag"))
            let entries = server.journal.entries(path: "/products/4").filter { $0.query == "delay=50" }
            #expect(entries.count == 2)
            #expect(entries.allSatisfy { ($0.firstByteMilliseconds ?? 0) >= 50 })
        }
    }

    @Test func aStatusFaultHeaderIsThePipelinesReply() async throws {
        try await withServer { server, _ async throws in
            let connection = try RawHTTPConnection(port: server.port)
            let fault = "X-Understudy-Fault: status=503; retry-after=2; message=busy\r\n"
            // A body sends the same request through the full pipeline; without one it is answered canned.
            connection.write("GET /products/5 HTTP/1.1\r\nHost: localhost\r\n\(fault)Content-Length: 1\r\n\r\nx")
            let pipeline = try #require(connection.readResponse())
            connection.write("GET /products/5 HTTP/1.1\r\nHost: localhost\r\n\(fault)\r\n")
            let canned = try #require(connection.readResponse())
            #expect(canned.status == 503)
            #expect(String(decoding: canned.body, as: UTF8.self) == #"{"message":"busy"}"#)
            #expect(canned.body == pipeline.body)
            #expect(headLines(canned) == headLines(pipeline))
            #expect(canned.header("Retry-After") == "2")
            let entries = server.journal.entries(path: "/products/5")
            #expect(entries.map(\.fault) == ["status=503; retry-after=2; message=busy", "status=503; retry-after=2; message=busy"])
            #expect(entries.map(\.status) == [503, 503])
        }
    }

    /// A resource read through `/auth/…` is cached, but its reply is never replayed before the token check.
    @Test(arguments: ["/auth/products/1", "//auth/products/1", "/auth/products?limit=2"])
    func aReplyBehindTheTokenIsNeverServedWithoutIt(target: String) async throws {
        try await withServer { _, client async throws in
            let token = try await client.accessToken()
            for _ in 0..<2 {
                #expect(try await client.send(target, headers: ["Authorization": "Bearer \(token)"]).status == 200)
            }
            let anonymous = try await client.send(target)
            #expect(anonymous.status == 401)
            #expect(anonymous.message == "Access Token is required")
        }
    }

    /// Header lines without the ones that change from one reply to the next.
    private func headLines(_ reply: RawResponse) -> [Substring] {
        reply.head.split(separator: "\r\n").filter { line in
            !line.hasPrefix("X-RateLimit-Remaining:") && !line.hasPrefix("Date:")
        }
    }
}
