import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Each shipped scenario (fixtures/scenarios/), loaded as `--scenario` loads it, does on the wire what its
/// description says.
@Suite(.blocksThreads) struct ScenarioWireTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/scenarios")

    /// Runs `body` against a server with the scenario's rules and seed.
    private func withScenario<T>(_ name: String,
                                 _ body: (UnderstudyServer, HTTPTestClient) async throws -> T) async throws -> T {
        let scenario = try Scenario.load(path: ScenarioWireTests.directory.appendingPathComponent("\(name).json").path)
        #expect(!scenario.description.isEmpty)
        return try await withServer({ configuration in
            configuration.rules = scenario.rules
            if let seed = scenario.seed { configuration.seed = seed }
        }, body)
    }

    private func get(_ port: Int, _ target: String, headers: String = "") throws -> (bytes: [UInt8], ending: RawHTTPConnection.Ending) {
        let connection = try RawHTTPConnection(port: port, receiveTimeoutSeconds: 5)
        connection.write("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(headers)\r\n")
        return connection.readUntilEnd()
    }

    @Test func outageThenRecovery() async throws {
        try await withScenario("outage-then-recovery") { _, client in
            for _ in 0..<6 {
                let reply = try await client.send("/products/1")
                #expect(reply.status == 503)
                #expect(reply.header("Retry-After") == "1")
                #expect(reply.message == "Service Unavailable: scheduled maintenance")
            }
            #expect(try await client.send("/products/1").status == 200)
        }
    }

    @Test func rateLimited() async throws {
        try await withScenario("rate-limited") { _, client in
            // A token bucket of 5 refilling at 0.5 a second: the first 5 pass, and a 429 follows soon after (a
            // slow machine may earn a token back in between, so a few more tries are allowed).
            var passed = 0
            var limited = try await client.send("/products/1?select=id")
            while limited.status == 200, passed < 30 {
                passed += 1
                limited = try await client.send("/products/1?select=id")
            }
            #expect(passed >= 5)
            #expect(limited.status == 429)
            #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
            #expect(limited.header("X-RateLimit-Limit") == "5")
            #expect(limited.header("X-RateLimit-Remaining") == "0")
        }
    }

    @Test func expiredToken() async throws {
        try await withScenario("expired-token") { _, client in
            let token = try await client.accessToken()
            let first = try await client.send("/auth/me", headers: ["Authorization": "Bearer \(token)"])
            #expect(first.status == 401)
            #expect(first.message == "Token Expired!")
            #expect(first.header("WWW-Authenticate") == nil)
            #expect(try await client.send("/auth/me", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        }
    }

    @Test func slow3G() async throws {
        try await withScenario("slow-3g") { server, _ in
            let started = ContinuousClock.now
            let (bytes, ending) = try get(server.port, "/products/1")
            #expect(ContinuousClock.now - started >= .milliseconds(400))
            #expect(ending == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))
            #expect(bytes.count > 1_400, "the whole body arrived, slowly")
        }
    }

    @Test func brokenStream() async throws {
        try await withScenario("broken-stream") { server, _ in
            let cut = String(decoding: try get(server.port, "/products/stream?interval=10").bytes, as: UTF8.self)
            #expect(cut.contains("id: 1\n"))
            #expect(cut.contains("id: 2\n"))
            #expect(!cut.hasSuffix("\n\n"), "the first connection is cut inside event 2")
            let dropped = String(decoding: try get(server.port, "/products/stream?interval=10", headers: "Last-Event-ID: 1\r\n").bytes,
                                 as: UTF8.self)
            #expect(dropped.components(separatedBy: "event: product-update\n").count - 1 == 3)
            #expect(dropped.contains("id: 2\n") && dropped.contains("id: 4\n") && !dropped.contains("id: 5\n"))
        }
    }

    /// Seeded: two servers with the scenario's seed fail 100 identical requests the same ways. They run at once
    /// (the delays would take long one after another); which request draws which fault then varies, but not
    /// how many draw each, since the draws come one after another from the seed either way.
    @Test func flakyNetworkIsFlakyTheSameWayTwice() async throws {
        // Both servers at once, to keep the suite quick: each run takes about its longest delay (2 s).
        async let first = flakyRun()
        async let second = flakyRun()
        let runs = try await [first, second]
        #expect(runs[0] == runs[1])
        let failed = runs[0].filter { $0.key.hasPrefix("failed") }.values.reduce(0, +)
        #expect(failed >= 10 && failed <= 40, "\(runs[0])")
        #expect((runs[0]["whole"] ?? 0) >= 60, "\(runs[0])")
    }

    private func flakyRun() async throws -> [String: Int] {
        try await withScenario("flaky-network") { _, client in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        do {
                            let reply = try await client.send("/products/1?select=id", headers: ["Connection": "close"])
                            return reply.text == #"{"id":1}"# ? "whole" : "other \(reply.status)"
                        } catch let error as URLError {
                            return "failed \(error.code.rawValue)"
                        }
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
        }
    }
}
