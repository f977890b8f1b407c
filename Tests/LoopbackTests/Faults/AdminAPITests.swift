import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `/__understudy/…` over HTTP: rules, journal, sessions, seed, reset, offline, and the errors that name fields.
@Suite(.blocksThreads) struct AdminAPITests {
    @Test func rulesCanBeAddedListedAndRemoved() async throws {
        try await withServer { _, client in
            let created = try await client.json("POST", "/__understudy/faults", raw: """
                {"match": {"method": "GET", "path": "/products/*", "header": {"X-Client": "ios*"}, "query": {"select": "title"}},
                 "fault": "status=503", "times": 1, "session": "s"}
                """)
            #expect(created.status == 201)
            let rule = try created.decode(RuleReply.self)
            #expect(rule.fault == "status=503")
            #expect(rule.remaining == 1)
            let id = rule.id

            let headers = ["X-Client": "ios-17", "X-Understudy-Session": "s"]
            #expect(try await client.send("/products/1?select=id", headers: headers).status == 200)
            #expect(try await client.send("/products/1?select=title", headers: headers).status == 503)
            #expect(try await client.send("/products/1?select=title", headers: headers).status == 200)

            let rules = try await client.send("/__understudy/faults").decode(RuleListReply.self).rules
            #expect(rules.map(\.id) == [id])
            #expect(rules.first?.remaining == 0)
            #expect(rules.first?.fired == 1)

            #expect(try await client.send("DELETE", "/__understudy/faults/\(id)").status == 200)
            #expect(try await client.send("DELETE", "/__understudy/faults/\(id)").status == 404)
            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500"])
            let cleared = try await client.send("DELETE", "/__understudy/faults")
            #expect(try cleared.decode(DeletedReply.self).deleted == 1)
        }
    }

    @Test(arguments: [
        (#"{"fault": 5}"#, "Invalid 'fault'"),
        (#"{"fault": "status=503", "times": 0}"#, "Invalid 'times'"),
        (#"{"fault": "status=503", "probability": 2}"#, "Invalid 'probability'"),
        (#"{"fault": "status=503", "match": {"verb": "GET"}}"#, "Unknown field 'match.verb'"),
        (#"{"fault": "status=503", "match": {"header": {"X": 1}}}"#, "Invalid 'match.header.X'"),
        (#"{"fault": "delay=1h"}"#, "Invalid 'fault': invalid fault spec"),
        (#"{"fault": "status=503""#, "Invalid JSON body: line 1, column 23"),
        (#"[1]"#, "expected an object"),
    ])
    func badRulesAre400sNamingTheField(body: String, expected: String) async throws {
        try await withServer { _, client in
            let reply = try await client.send("POST", "/__understudy/faults", headers: ["Content-Type": "application/json"],
                                              body: Data(body.utf8))
            #expect(reply.status == 400)
            #expect(reply.message?.contains(expected) == true, "\(reply.message ?? "")")
        }
    }

    @Test func journalQueriesAndClears() async throws {
        try await withServer { _, client in
            _ = try await client.send("/products/1", headers: ["X-Understudy-Session": "j", "Authorization": "Bearer abc"])
            _ = try await client.send("/products/2", headers: ["X-Understudy-Session": "j"])
            _ = try await client.send("/ping")
            let entries = try await client.send("/__understudy/requests?session=j").decode(JournalReply.self).requests
            #expect(entries.map(\.path) == ["/products/1", "/products/2"])
            #expect(entries.first?.headers["Authorization"] == "Bearer abc")
            #expect(entries.first?.status == 200)
            #expect(entries.first?.bytesWritten ?? 0 > 1_000)
            let limited = try await client.send("/__understudy/requests?path=/products/2&method=get&limit=1").decode(JournalReply.self)
            #expect(limited.total == 1)
            // `total` is how many matched, before `limit` kept the newest.
            let newest = try await client.send("/__understudy/requests?session=j&limit=1").decode(JournalReply.self)
            #expect(newest.requests.map(\.path) == ["/products/2"])
            #expect(newest.total == 2)
            let cleared = try await client.send("DELETE", "/__understudy/requests?session=j")
            #expect(try cleared.decode(DeletedReply.self).deleted == 2)
            let rest = try await client.send("/__understudy/requests").decode(JournalReply.self)
            #expect(rest.total == 1)
        }
    }

    @Test func sessionsSeedResetAndOffline() async throws {
        try await withServer { server, client in
            let session = try await client.json("POST", "/__understudy/sessions", raw: #"{"id": "alpha", "seed": 7}"#)
            #expect(session.status == 201)
            #expect(try session.decode(SessionReply.self).seed == 7)
            let sessions = try await client.send("/__understudy/sessions").decode(SessionListReply.self).sessions
            #expect(sessions.first { $0.id == "alpha" }?.seed == 7)

            #expect(try await client.json("PUT", "/__understudy/seed", ["seed": 1234]).decode(SeedReply.self).seed == 1234)
            #expect(server.faults.seed == 1234)
            #expect(try await client.json("PUT", "/__understudy/seed", ["seed": -1]).status == 400)

            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500", "session": "alpha"])
            let ended = try await client.send("DELETE", "/__understudy/sessions/alpha")
            #expect(try ended.decode(EndedSessionReply.self).rules == 1)

            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500"])
            #expect(try await client.send("POST", "/__understudy/reset").status == 200)
            #expect(server.faults.rules.isEmpty)
            #expect(server.journal.count == 0)

            #expect(try await client.json("POST", "/__understudy/offline", ["seconds": 0]).status == 400)
            // Long enough that a loaded machine (a sanitizer build, or the whole suite in parallel, where this test has
            // taken 90 s) still connects within it: 3 s was not.
            #expect(try await client.json("POST", "/__understudy/offline", raw: #"{"seconds": 10}"#).status == 200)
            let refused = #expect(throws: POSIXError.self) { try RawHTTPConnection(port: server.port) }
            #expect(refused?.code == .ECONNREFUSED, "\(String(describing: refused))")
            let online = await waitUntil(within: .seconds(40)) {
                try await client.send("/__understudy/health").decode(HealthReply.self).offline == false
            }
            #expect(online, "still offline 40 s after a 10 s outage")
        }
    }

    @Test func unknownAdminRoutesAndMethods() async throws {
        try await withServer { _, client async throws in
            #expect(try await client.send("/__understudy/nothing").status == 404)
            let notAllowed = try await client.send("PATCH", "/__understudy/faults")
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, POST, DELETE, HEAD")
            let anonymous = try await client.json("POST", "/__understudy/sessions", [String: String]())
            #expect(anonymous.status == 201)
            let made = try anonymous.decode(SessionReply.self)
            #expect(made.id.hasPrefix("session-"))
            #expect(made.seed >= 0)
            #expect(try await client.send("/__understudy/requests?limit=-1").status == 400)
        }
    }

    /// HEAD works wherever GET does, on the admin API as on the public routes: the GET's head and no body.
    @Test(arguments: ["/__understudy/health", "/__understudy/faults", "/__understudy/requests", "/__understudy/sessions",
                      "/__understudy/seed"])
    func headIsAnsweredWhereGetIs(path: String) async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("HEAD \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let text = String(decoding: connection.readUntilEnd().bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n"), "a HEAD reply has no body: \(text)")
            #expect(text.contains("Content-Type: application/json; charset=utf-8"))
            // A route that takes no GET refuses HEAD too, and names it.
            let refused = try RawHTTPConnection(port: server.port)
            refused.write("HEAD /__understudy/reset HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let head = String(decoding: refused.readUntilEnd().bytes, as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 405 "))
            #expect(head.contains("Allow: POST\r\n"))
        }
    }

    @Test(arguments: ["text/plain", "application/xml; charset=utf-8", "multipart/form-data; boundary=x"])
    func bodiesDeclaredAsAnythingButJSONAre415(type: String) async throws {
        try await withServer { server, client in
            for (method, path) in [("POST", "/__understudy/faults"), ("PUT", "/__understudy/seed"), ("POST", "/__understudy/reset")] {
                let reply = try await client.send(method, path, headers: ["Content-Type": type],
                                                  body: Data(#"{"fault": "status=503", "seed": 3}"#.utf8))
                #expect(reply.status == 415)
                let bare = String(type.split(separator: ";")[0])
                #expect(reply.message == "Unsupported Content-Type '\(bare)'; the admin API takes application/json bodies")
            }
            #expect(server.faults.rules.isEmpty)
            #expect(server.faults.seed == 1)
        }
    }

    @Test func jsonBodiesAreReadWhateverTheirLabel() async throws {
        try await withServer { _, client in
            // What `curl -d` sends: JSON labelled as a form.
            let curl = try await client.send("POST", "/__understudy/faults", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                             body: Data(#"{"fault": "status=503"}"#.utf8))
            #expect(curl.status == 201)
            let form = try await client.send("POST", "/__understudy/faults", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                             body: Data("fault=status%3D503".utf8))
            #expect(form.status == 415)
            let vendor = try await client.send("PUT", "/__understudy/seed", headers: ["Content-Type": "application/vnd.api+json"],
                                               body: Data(#"{"seed": 5}"#.utf8))
            #expect(vendor.status == 200)
            let unlabelled = try await client.send("PUT", "/__understudy/seed", body: Data(#"{"seed": 6}"#.utf8))
            #expect(unlabelled.status == 200)
        }
    }

    @Test func scenarioRulesApplyFromTheFirstRequest() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let scenario = try Scenario.load(path: root.appendingPathComponent("fixtures/scenarios/outage-then-recovery.json").path)
        try await withServer({ $0.rules = scenario.rules }) { _, client in
            var statuses: [Int] = []
            for _ in 0..<7 { statuses.append(try await client.send("/products/1").status) }
            #expect(statuses == [503, 503, 503, 503, 503, 503, 200])
        }
    }
}

@Suite(.blocksThreads) struct AdminTokenTests {
    @Test func anAdminTokenGuardsFaultsAndTheAdminAPI() async throws {
        try await withServer({ $0.adminToken = "t0ken" }) { _, client async throws in
            #expect(try await client.send("/products/1", headers: ["X-Understudy-Fault": "status=503"]).status == 401)
            #expect(try await client.send("/__understudy/health").status == 401)
            #expect(try await client.send("/products/1", headers: ["X-Understudy-Fault": "status=503",
                                                                  "X-Understudy-Token": "t0ken"]).status == 503)
            #expect(try await client.send("/__understudy/health", headers: ["Authorization": "Bearer t0ken"]).status == 200)
            #expect(try await client.send("/products/1").status == 200)
        }
    }
}
