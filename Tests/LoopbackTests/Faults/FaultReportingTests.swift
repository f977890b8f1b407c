import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// What a reply reports as applied, and the headers faults set: only directives that took effect are in
/// `X-Understudy-Fault-Applied`, empty specs are no specs, and rate limits report their own bucket.
@Suite(.blocksThreads) struct FaultReportingTests {
    private func raw(_ server: UnderstudyServer, _ request: String) throws -> RawResponse? {
        let connection = try RawHTTPConnection(port: server.port)
        connection.write(request)
        return connection.readResponse()
    }

    @Test func anEmptySpecIsNoSpec() async throws {
        try await withServer { server, client in
            let plain = try #require(try raw(server, "GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: \r\n\r\n"))
            #expect(plain.status == 200)
            #expect(plain.header("X-Understudy-Fault-Applied") == nil)
            #expect(try await client.send("/products/1?_fault=").header("X-Understudy-Fault-Applied") == nil)

            // An empty header or query does not stand in the way of a rule.
            try server.faults.add(FaultRule(match: .init(path: "/products/*"), fault: "status=503"))
            let ruled = try #require(try raw(server, "GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault:\r\n\r\n"))
            #expect(ruled.status == 503)
            #expect(ruled.header("X-Understudy-Fault-Applied") == "status=503")
            let query = try await client.send("/products/1?_fault=")
            #expect(query.status == 503)
            #expect(server.journal.entries(path: "/products/1").compactMap(\.fault) == ["status=503", "status=503"])
        }
    }

    @Test func directivesThatCannotActAreLeftOutOfTheAppliedHeader() async throws {
        try await withServer { _, client in
            let stream = try await client.send("/products/1", headers: ["X-Understudy-Fault": "drop-after=2"])
            #expect(stream.status == 200)
            #expect(stream.header("X-Understudy-Fault-Applied") == nil)

            let mixed = try await client.send("/products/1", headers: ["X-Understudy-Fault": "delay=10ms; chunk=1"])
            #expect(mixed.header("X-Understudy-Fault-Applied") == "delay=10ms")

            let head = try await client.send("HEAD", "/products/1", headers: ["X-Understudy-Fault": "malformed"])
            #expect(head.header("X-Understudy-Fault-Applied") == nil)

            let missing = try await client.send("/products/99999", headers: ["X-Understudy-Fault": "malformed"])
            #expect(missing.status == 404)
            #expect(missing.isJSON)
            #expect(missing.header("X-Understudy-Fault-Applied") == nil)

            let noToken = try await client.send("/products/1", headers: ["X-Understudy-Fault": "expire-token; delay=5ms"])
            #expect(noToken.status == 200)
            #expect(noToken.header("X-Understudy-Fault-Applied") == "delay=5ms")
        }
    }

    @Test func bodyFaultsOnTheStreamChangeNothingAndSaySo() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
            connection.write("GET /products/stream?interval=10&count=2&heartbeat=0&_fault=truncate=10 HTTP/1.1\r\n"
                             + "Host: x\r\nConnection: close\r\n\r\n")
            let (bytes, ending) = connection.readUntilEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(!text.contains("X-Understudy-Fault-Applied"))
            #expect(text.contains("id: 2\n"))
            #expect(text.hasSuffix("0\r\n\r\n"))
            #expect(ending == .closed)
        }
    }

    @Test func allowedRepliesCarryTheirBucketsCounters() async throws {
        try await withServer { server, client in
            // A token comes back every 20 minutes (3 in the longest window, an hour), so none of these is refilled
            // however slowly a starved run goes (at 200 s, one was, under AddressSanitizer with the whole suite).
            try server.faults.add(FaultRule(match: .init(path: "/products/*"), fault: "rate-limit=3/3600s"))
            let before = Date().timeIntervalSince1970
            var remaining: [String?] = []
            for _ in 0..<3 {
                let reply = try await client.send("/products/1", headers: ["X-Understudy-Session": "bucket"])
                #expect(reply.status == 200)
                #expect(reply.header("X-RateLimit-Limit") == "3")
                let reset = Double(reply.header("X-RateLimit-Reset") ?? "") ?? 0
                #expect(reset >= before && reset <= before + 3_602)
                remaining.append(reply.header("X-RateLimit-Remaining"))
            }
            #expect(remaining == ["2", "1", "0"])
            let limited = try await client.send("/products/1", headers: ["X-Understudy-Session": "bucket"])
            #expect(limited.status == 429)
            #expect(limited.header("X-RateLimit-Limit") == "3")
            // Routes outside the rule keep DummyJSON's window.
            #expect(try await client.send("/ping").header("X-RateLimit-Limit") == "100")
        }
    }

    @Test func aRetryAfterDateIsTheRateLimitReset() async throws {
        try await withServer { _, client in
            let reply = try await client.send("/ping", headers: ["X-Understudy-Fault": "status=429; retry-after=Wed, 21 Oct 2026 07:28:00 GMT"])
            #expect(reply.status == 429)
            #expect(reply.header("Retry-After") == "Wed, 21 Oct 2026 07:28:00 GMT")
            #expect(reply.header("X-RateLimit-Reset") == "1792567680")
        }
    }
}
