import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// Every admin operation, against `understudy` in a process of its own, through `UnderstudyControl` only.
@Suite(.blocksThreads) struct ControlClientTests {
    @Test func rulesAddListGetDeleteClear() async throws {
        try await ServerProcess.with { server in
            let control = server.control
            let added = try await control.addRule(Rule(.status(503, retryAfter: .seconds(1)), path: "/products/*",
                                                       method: "GET", times: 2))
            #expect(added.id == "rule-1")
            #expect(added.rule.fault == .status(503, retryAfter: .seconds(1)))
            #expect(added.rule.match == .init(method: "GET", path: "/products/*"))
            #expect(added.remaining == 2)
            try await control.addRule(Rule(.delay(.milliseconds(10)), match: .init(headers: ["X-Client": "ios-*"],
                                                                                  query: ["debug": "1"]),
                                           after: 1, probability: 0.5, session: "s1"))
            let rules = try await control.rules()
            #expect(rules.map(\.id) == ["rule-1", "rule-2"])
            #expect(rules[1].rule.match.headers == ["X-Client": "ios-*"])
            #expect(rules[1].rule.after == 1 && rules[1].rule.probability == 0.5 && rules[1].rule.session == "s1")
            #expect(try await control.rule(id: "rule-2").rule.fault == .delay(.milliseconds(10)))
            #expect(try await control.deleteRule(id: "rule-1").id == "rule-1")
            #expect(try await control.clearRules(session: "s1") == 1)
            try await control.addRule(Rule(.hang))
            #expect(try await control.clearRules() == 1)
            #expect(try await control.rules().isEmpty)
        }
    }

    @Test func sessionsOpenListEndWithEvery64BitSeed() async throws {
        try await ServerProcess.with { server in
            let control = server.control
            let derived = try await control.openSession(id: "derived")
            let wide = try await control.openSession(id: "wide", seed: .max)
            #expect(wide == SessionInfo(id: "wide", seed: 18_446_744_073_709_551_615))
            // A derived seed uses the whole 64-bit range; the same session opens again with the seed reported.
            let again = try await control.openSession(id: "derived", seed: derived.seed)
            #expect(again.seed == derived.seed)
            let made = try await control.openSession()
            let throttled = try await control.openSession(id: "on-3g", profile: .threeG)
            #expect(throttled.profile == .threeG)
            #expect(try await control.sessions().first { $0.id == "on-3g" }?.profile == .threeG)
            #expect(try await control.sessions().first { $0.id == "wide" }?.profile == nil)
            #expect(!made.id.isEmpty)
            #expect(Set(try await control.sessions().map(\.id)) == ["derived", "wide", "on-3g", made.id])
            try await control.addRule(Rule(.delay(.milliseconds(1)), session: "wide"))
            let ended = try await control.endSession(id: "wide")
            #expect(ended.id == "wide" && ended.rules == 1)
            #expect(!(try await control.sessions().contains { $0.id == "wide" }))
        }
    }

    @Test func journalFiltersAndClears() async throws {
        try await ServerProcess.with { server in
            let control = server.control
            try await control.addRule(Rule(.status(503), path: "/products/2", times: 1))
            for path in ["products/1", "products/2", "test"] {
                var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
                request.understudySession = path == "test" ? "other" : "checkout"
                _ = try await URLSession.shared.data(for: request)
            }
            let all = try await control.requests()
            #expect(all.total == 3)
            let products = try await control.requests(path: "/products/*", method: "GET")
            #expect(products.requests.map(\.path) == ["/products/1", "/products/2"])
            let failed = products.requests[1]
            #expect(failed.status == 503 && failed.rule == "rule-1" && failed.appliedFault == .status(503))
            #expect(failed.session == "checkout" && failed.method == "GET")
            #expect(try await control.requests(session: "other").requests.map(\.path) == ["/test"])
            let newest = try await control.requests(limit: 1)
            #expect(newest.total == 3 && newest.requests.map(\.path) == ["/test"])
            #expect(try await control.clearRequests(session: "other") == 1)
            #expect(try await control.clearRequests() == 2)
            #expect(try await control.requests().total == 0)
        }
    }

    @Test func healthSeedResetOffline() async throws {
        try await ServerProcess.with(["--seed", "7"]) { server in
            let control = server.control
            let health = try await control.health()
            #expect(health.status == "ok" && health.seed == 7 && !health.offline)
            #expect(try await control.seed() == 7)
            try await control.setSeed(1_465_835_486_745_673_216)
            #expect(try await control.seed() == 1_465_835_486_745_673_216)
            try await control.setSeed(.max)
            #expect(try await control.health().seed == .max)
            try await control.addRule(Rule(.hang))
            try await control.openSession(id: "a")
            try await control.reset()
            #expect(try await control.rules().isEmpty)
            #expect(try await control.sessions().isEmpty)
            // Long enough that the next call comes within it on a loaded machine (under ThreadSanitizer 1 s was not).
            try await control.goOffline(for: .seconds(15))
            // The admin call's own connection is kept alive, so it still answers while new ones are refused.
            #expect(try await control.health().offline)
            try #require(await waitUntil(within: .seconds(60)) { try await !control.health().offline }, "back online")
        }
    }

    @Test func scenariosByNameAndAsADocument() async throws {
        try await ServerProcess.with { server in
            let control = server.control
            let outage = try await control.loadScenario(named: "outage-then-recovery", session: "s1")
            #expect(outage.name == "outage-then-recovery")
            #expect(outage.rules.count == 1 && outage.rules[0].rule.session == "s1" && outage.rules[0].rule.times == 6)
            #expect(outage.rules[0].rule.fault.names == ["status", "retry-after", "message"])
            let document = ScenarioDocument(description: "Two slow reads", seed: .max,
                                            rules: [Rule(.delay(.milliseconds(10)), path: "/products/1", times: 2)])
            let loaded = try await control.loadScenario(document, session: "s2")
            #expect(loaded.name == "scenario" && loaded.seed == .max && loaded.description == "Two slow reads")
            #expect(try await control.sessions().first { $0.id == "s2" }?.seed == .max)
            #expect(try await control.rules().count == 2)
        }
    }
}
