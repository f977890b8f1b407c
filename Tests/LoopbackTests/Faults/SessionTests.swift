import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Sessions from outside: what makes one, what ends one, and what a hostile client cannot make the server keep.
@Suite(.blocksThreads) struct SessionTests {
    @Test func requestsDoNotCreateSessions() async throws {
        try await withServer { server, client in
            try server.faults.add(FaultRule(match: .init(path: "/ping"), fault: "delay=1ms..3ms", probability: 0.9))
            for index in 0..<200 {
                let id = "hostile-\(index)-" + String(repeating: "x", count: 100)
                _ = try await client.send("/ping", headers: ["X-Understudy-Session": id])
            }
            #expect(server.faults.sessions.isEmpty)
            #expect(server.journal.entries(path: "/ping").count == 200)
        }
    }

    @Test(arguments: [129, 8_192])
    func longSessionIDsAre400sNamingTheHeader(length: Int) async throws {
        try await withServer { server, client in
            let id = String(repeating: "s", count: length)
            for target in ["/products/1", "/products/1?_fault=status=503"] {
                let reply = try await client.send(target, headers: ["X-Understudy-Session": id])
                #expect(reply.status == 400)
                #expect(reply.message == "Invalid 'X-Understudy-Session' - a session id must be at most 128 bytes")
            }
            #expect(try await client.send("/products/1", headers: ["X-Understudy-Session": String(repeating: "s", count: 128)]).status == 200)
            #expect(server.faults.sessions.isEmpty)
        }
    }

    @Test func aStartedSessionsSeedPicksItsStreamPayloads() async throws {
        func payloads(_ server: UnderstudyServer, session: String?) throws -> [String] {
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
            let header = session.map { "X-Understudy-Session: \($0)\r\n" } ?? ""
            connection.write("GET /products/stream?interval=10&count=4&heartbeat=0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(header)\r\n")
            let text = String(decoding: connection.readUntilEnd().bytes, as: UTF8.self)
            return text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }
        }
        try await withServer { server, client in
            #expect(try await client.json("POST", "/__understudy/sessions", raw: #"{"id": "seven", "seed": 7}"#).status == 201)
            server.faults.startSession("also-seven", seed: 7)
            let plain = try payloads(server, session: nil)
            let seven = try payloads(server, session: "seven")
            #expect(plain.count == 4 && seven.count == 4)
            #expect(seven != plain)
            #expect(try payloads(server, session: "also-seven") == seven)
            // An id nobody started is only a label: the server's seed.
            #expect(try payloads(server, session: "unstarted") == plain)
        }
    }

    @Test func endingASessionFromSwiftClearsItsRulesAndJournal() async throws {
        try await withServer { server, client in
            try server.faults.add(FaultRule(fault: "status=500", session: "done"))
            try server.faults.add(FaultRule(match: .init(path: "/nothing"), fault: "status=503"))
            #expect(try await client.send("/ping", headers: ["X-Understudy-Session": "done"]).status == 500)
            _ = try await client.send("/ping")
            #expect(server.faults.endSession("done"))
            #expect(server.faults.rules.map(\.rule.session) == [nil])
            #expect(server.journal.entries(session: "done").isEmpty)
            #expect(server.journal.entries(path: "/ping").count == 1)
            #expect(!server.faults.endSession("done"))
            #expect(try await client.send("/ping", headers: ["X-Understudy-Session": "done"]).status == 200)
        }
    }

    @Test func adminSessionIDsMustNameSomething() async throws {
        try await withServer { server, client in
            let empty = try await client.json("POST", "/__understudy/faults", ["fault": "status=500", "session": ""])
            #expect(empty.status == 400)
            #expect(empty.message?.hasPrefix("Invalid 'session' - a session id must not be empty") == true)
            let long = try await client.json("POST", "/__understudy/faults", ["fault": "status=500", "session": String(repeating: "s", count: 129)])
            #expect(long.status == 400)
            #expect(throws: FaultSpecError.self) { try server.faults.add(FaultRule(fault: "status=500", session: "")) }
            #expect(server.faults.rules.isEmpty)

            let missing = try await client.send("DELETE", "/__understudy/sessions/nope")
            #expect(missing.status == 404)
            #expect(missing.message?.hasPrefix("No session 'nope'") == true)
            _ = try await client.send("/ping", headers: ["X-Understudy-Session": "seen"])
            let seen = try await client.send("DELETE", "/__understudy/sessions/seen")
            #expect(seen.status == 200)
            #expect(try seen.decode(EndedSessionReply.self).requests == 1)
        }
    }
}
