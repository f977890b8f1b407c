import Foundation
import Testing
import Understudy

/// `/__understudy/…` over HTTP: rules, journal, sessions, seed, reset, offline, and the errors that name fields.
@Suite struct AdminAPITests {
    @Test func rulesCanBeAddedListedAndRemoved() async throws {
        try await withServer { _, client in
            let created = try await client.json("POST", "/__understudy/faults", [
                "match": ["method": "GET", "path": "/products/*", "header": ["X-Client": "ios*"], "query": ["select": "title"]],
                "fault": "status=503", "times": 1, "session": "s"] as [String: Any])
            #expect(created.status == 201)
            let id = try #require(created.object["id"] as? String)
            #expect(created.object["remaining"] as? Int == 1)

            let headers = ["X-Client": "ios-17", "X-Understudy-Session": "s"]
            #expect(try await client.send("/products/1?select=id", headers: headers).status == 200)
            #expect(try await client.send("/products/1?select=title", headers: headers).status == 503)
            #expect(try await client.send("/products/1?select=title", headers: headers).status == 200)

            let listed = try await client.send("/__understudy/faults")
            let rules = listed.object["rules"] as? [[String: Any]] ?? []
            #expect(rules.first?["remaining"] as? Int == 0)
            #expect(rules.first?["fired"] as? Int == 1)

            #expect(try await client.send("DELETE", "/__understudy/faults/\(id)").status == 200)
            #expect(try await client.send("DELETE", "/__understudy/faults/\(id)").status == 404)
            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500"])
            let cleared = try await client.send("DELETE", "/__understudy/faults")
            #expect(cleared.object["deleted"] as? Int == 1)
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
            let session = try await client.send("/__understudy/requests?session=j")
            let entries = session.object["requests"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["path"] as? String } == ["/products/1", "/products/2"])
            #expect((entries.first?["headers"] as? [String: String])?["Authorization"] == "Bearer abc")
            #expect(entries.first?["status"] as? Int == 200)
            #expect((entries.first?["bytesWritten"] as? Int ?? 0) > 1_000)
            let limited = try await client.send("/__understudy/requests?path=/products/2&method=get&limit=1")
            #expect(limited.object["total"] as? Int == 1)
            // `total` is how many matched, before `limit` kept the newest.
            let newest = try await client.send("/__understudy/requests?session=j&limit=1")
            #expect((newest.object["requests"] as? [[String: Any]])?.map { $0["path"] as? String } == ["/products/2"])
            #expect(newest.object["total"] as? Int == 2)
            let cleared = try await client.send("DELETE", "/__understudy/requests?session=j")
            #expect(cleared.object["deleted"] as? Int == 2)
            let rest = try await client.send("/__understudy/requests")
            #expect(rest.object["total"] as? Int == 1)
        }
    }

    @Test func sessionsSeedResetAndOffline() async throws {
        try await withServer { server, client in
            let session = try await client.json("POST", "/__understudy/sessions", ["id": "alpha", "seed": 7] as [String: Any])
            #expect(session.status == 201)
            #expect(session.object["seed"] as? Int == 7)
            let sessions = try await client.send("/__understudy/sessions")
            #expect((sessions.object["sessions"] as? [[String: Any]])?.contains { $0["id"] as? String == "alpha" } == true)

            #expect(try await client.json("PUT", "/__understudy/seed", ["seed": 1234]).object["seed"] as? Int == 1234)
            #expect(server.faults.seed == 1234)
            #expect(try await client.json("PUT", "/__understudy/seed", ["seed": -1]).status == 400)

            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500", "session": "alpha"])
            let ended = try await client.send("DELETE", "/__understudy/sessions/alpha")
            #expect(ended.object["rules"] as? Int == 1)

            _ = try await client.json("POST", "/__understudy/faults", ["fault": "status=500"])
            #expect(try await client.send("POST", "/__understudy/reset").status == 200)
            #expect(server.faults.rules.isEmpty)
            #expect(server.journal.count == 0)

            #expect(try await client.json("POST", "/__understudy/offline", ["seconds": 0]).status == 400)
            #expect(try await client.json("POST", "/__understudy/offline", ["seconds": 0.5]).status == 200)
            #expect(throws: (any Error).self) { try RawHTTPConnection(port: server.port) }
            try await Task.sleep(for: .milliseconds(800))
            #expect(try await client.send("/__understudy/health").object["offline"] as? Bool == false)
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
            #expect((anonymous.object["id"] as? String)?.hasPrefix("session-") == true)
            #expect((anonymous.object["seed"] as? Int ?? -1) >= 0)
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

@Suite struct AdminTokenTests {
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
