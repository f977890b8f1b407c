import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// The admin API's same-origin and Host rules on a real socket: every refusal is a 403 `{"message"}` without CORS
/// headers, and leaves the server as it was (checked through the admin API); public routes keep DummyJSON's CORS.
@Suite(.blocksThreads) struct AdminGateWireTests {
    /// Sends one request on a connection of its own, headers as given (Host included), and reads the reply.
    func exchange(_ port: Int, _ method: String, _ path: String, _ headers: [(String, String)], body: String = "")
        throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        connection.write(head + "Connection: close\r\n\r\n" + body)
        return try #require(connection.readResponse())
    }

    func message(_ reply: RawResponse) -> String? {
        (try? JSONDecoder().decode(MessageReply.self, from: Data(reply.body)))?.message
    }

    func expectNoCORS(_ reply: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        for name in ["Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods",
                     "Access-Control-Allow-Headers"] {
            #expect(reply.header(name) == nil, "\(name): \(reply.header(name) ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// The server's state as the admin API shows it: offline, the rules, the seed.
    func state(_ client: HTTPTestClient) async throws -> String {
        struct Health: Decodable {
            let offline: Bool
            let seed: UInt64
        }
        let health = try await client.send("/__understudy/health").decode(Health.self)
        let rules = try await client.send("/__understudy/faults").text
        return "offline=\(health.offline) seed=\(health.seed) rules=\(rules)"
    }

    /// The hostile form post of the issue: urlencoded JSON from another site, which a browser sends without a
    /// preflight. It used to take the server offline.
    @Test func aCrossSiteFormPostIsRefusedBeforeItChangesAnything() async throws {
        try await withServer { server, client in
            _ = try await client.json("POST", "/__understudy/faults", ["fault": "delay=1ms"])
            let before = try await state(client)
            let reply = try exchange(server.port, "POST", "/__understudy/offline", [
                ("Host", "127.0.0.1:\(server.port)"), ("Origin", "http://evil.example"),
                ("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "cross-site")],
                body: #"{"seconds":1}"#)
            #expect(reply.status == 403)
            #expect(message(reply) == "Understudy's admin API is same-origin only: refused a request from origin 'http://evil.example'")
            expectNoCORS(reply)
            #expect(try await state(client) == before)
        }
    }

    @Test(arguments: [
        ("POST", "/__understudy/faults", [("Origin", "null")], #"{"fault": "status=503"}"#),
        ("POST", "/__understudy/seed", [("Origin", "http://127.0.0.1:1")], #"{"seed": 9}"#),
        ("DELETE", "/__understudy/faults", [("Sec-Fetch-Site", "cross-site")], ""),
        ("POST", "/__understudy/reset", [("Sec-Fetch-Site", "same-site")], ""),
        ("DELETE", "/__understudy/faults", [("Host", "evil.example")], ""),
        ("POST", "/__understudy/sessions", [("Host", "localhost:1")], #"{"id": "s"}"#),
        ("OPTIONS", "/__understudy/faults", [("Origin", "http://evil.example"), ("Access-Control-Request-Method", "DELETE")], ""),
    ])
    func everyForeignRequestIs403AndChangesNothing(method: String, path: String, headers: [(String, String)], body: String)
        async throws {
        try await withServer { server, client in
            _ = try await client.json("POST", "/__understudy/faults", ["fault": "delay=1ms"])
            let before = try await state(client)
            var sent = headers
            if !sent.contains(where: { $0.0 == "Host" }) { sent.insert(("Host", "127.0.0.1:\(server.port)"), at: 0) }
            if !body.isEmpty { sent.append(("Content-Type", "application/json")) }
            let reply = try exchange(server.port, method, path, sent, body: body)
            #expect(reply.status == 403)
            let text = try #require(message(reply))
            for (name, value) in headers where name == "Origin" || name == "Host" {
                #expect(text.contains("'\(value)'"), "\(text)")
            }
            expectNoCORS(reply)
            #expect(reply.header("Vary") == nil)
            #expect(try await state(client) == before)
        }
    }

    /// The journal is read-only, but it shows every request: a foreign page must not read it either.
    @Test func aForeignPageCannotReadTheJournal() async throws {
        try await withServer { server, _ in
            let reply = try exchange(server.port, "GET", "/__understudy/requests", [
                ("Host", "127.0.0.1:\(server.port)"), ("Origin", "http://localhost:3000")])
            #expect(reply.status == 403)
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("requests\""))
            // DNS rebinding: the page's own name in Host, no Origin (a same-origin GET to the browser).
            let rebound = try exchange(server.port, "GET", "/__understudy/requests", [("Host", "evil.example:\(server.port)")])
            #expect(rebound.status == 403)
            #expect(message(rebound)?.contains("Host 'evil.example:\(server.port)'") == true)
        }
    }

    @Test func requestsWithoutOriginAndFromTheServersOwnOriginWork() async throws {
        try await withServer { server, client in
            // `curl -d`: JSON labelled urlencoded, no Origin.
            let curl = try exchange(server.port, "POST", "/__understudy/faults", [
                ("Host", "127.0.0.1:\(server.port)"), ("Content-Type", "application/x-www-form-urlencoded")],
                body: #"{"fault": "status=503"}"#)
            #expect(curl.status == 201)
            // A page served by Understudy itself (the control room to come).
            for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)"] {
                let own = try exchange(server.port, "DELETE", "/__understudy/faults", [
                    ("Host", host), ("Origin", "http://\(host)"), ("Sec-Fetch-Site", "same-origin")])
                #expect(own.status == 200, "\(host)")
                expectNoCORS(own)
            }
            #expect(try await client.send("/__understudy/faults").decode(RuleListReply.self).rules.isEmpty)
            #expect(try exchange(server.port, "GET", "/__understudy/health", []).status == 200)
        }
    }

    @Test func allowedHostsAreAnsweredOthersAreNot() async throws {
        try await withServer({ $0.allowedHosts = ["understudy.test"] }) { server, _ in
            let named = try exchange(server.port, "GET", "/__understudy/health", [("Host", "understudy.test:\(server.port)")])
            #expect(named.status == 200)
            let fromIt = try exchange(server.port, "POST", "/__understudy/reset", [
                ("Host", "understudy.test:\(server.port)"), ("Origin", "http://understudy.test:\(server.port)")])
            #expect(fromIt.status == 200)
            #expect(try exchange(server.port, "GET", "/__understudy/health", [("Host", "other.test")]).status == 403)
        }
    }

    /// `--admin-token` adds a check; it takes none away: a foreign origin with the right token is still refused.
    @Test func tokenModeAppliesTheSameRules() async throws {
        try await withServer({ $0.adminToken = "s3cret" }) { server, _ in
            let host = ("Host", "127.0.0.1:\(server.port)")
            let foreign = try exchange(server.port, "POST", "/__understudy/reset", [
                host, ("Origin", "http://evil.example"), ("X-Understudy-Token", "s3cret")])
            #expect(foreign.status == 403)
            let own = try exchange(server.port, "POST", "/__understudy/reset", [host, ("X-Understudy-Token", "s3cret")])
            #expect(own.status == 200)
        }
    }

    /// A fake backend serves web apps from anywhere: public routes, their preflights and per-request faults keep
    /// DummyJSON's CORS whatever the origin or Host.
    @Test func publicRoutesKeepTheirCORSAndFaultsStayUsable() async throws {
        try await withServer { server, _ in
            let origin = ("Origin", "http://evil.example")
            let read = try exchange(server.port, "GET", "/products/1", [("Host", "evil.example"), origin])
            #expect(read.status == 200)
            #expect(read.header("Access-Control-Allow-Origin") == "http://evil.example")
            #expect(read.header("Access-Control-Allow-Credentials") == "true")
            let preflight = try exchange(server.port, "OPTIONS", "/products/1", [
                ("Host", "127.0.0.1:\(server.port)"), origin, ("Access-Control-Request-Method", "GET"),
                ("Access-Control-Request-Headers", "x-understudy-fault")])
            #expect(preflight.header("Access-Control-Allow-Origin") == "http://evil.example")
            #expect(preflight.header("Access-Control-Allow-Headers") == "x-understudy-fault")
            let faulted = try exchange(server.port, "GET", "/products/1", [
                ("Host", "127.0.0.1:\(server.port)"), origin, ("X-Understudy-Fault", "status=503")])
            #expect(faulted.status == 503)
            #expect(faulted.header("Access-Control-Allow-Origin") == "http://evil.example")
            let queried = try exchange(server.port, "GET", "/products/1?_fault=status%3D418", [("Host", "localhost"), origin])
            #expect(queried.status == 418)
        }
    }
}
