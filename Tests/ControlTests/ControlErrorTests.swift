import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// The server's refusals as typed errors carrying its words, and the admin token.
@Suite(.blocksThreads) struct ControlErrorTests {
    @Test func aBadFaultSpecNamesTheDirectiveAndWhereItIs() async throws {
        try await ServerProcess.with { server in
            // Each directive is well formed; the server refuses the combination, naming the later one.
            let error = await #expect(throws: ControlError.self) {
                try await server.control.addRule(Rule(.delay(.seconds(1)) + .status(503) + .empty))
            }
            #expect(error?.kind == .invalidFaultSpec)
            #expect(error?.status == 400)
            #expect(error?.faultSpec?.directive == "empty")
            #expect(error?.faultSpec?.position == 23)
            #expect(error?.message?.hasPrefix("Invalid 'fault': invalid fault spec: directive 'empty' at position 23") == true)
            // A scenario's bad rule is quoted in the message only; the client reads the parts from it.
            let scenario = await #expect(throws: ControlError.self) {
                try await server.control.loadScenario(ScenarioDocument(rules: [Rule(.status(503) + .hang)]))
            }
            #expect(scenario?.kind == .invalidFaultSpec)
            #expect(scenario?.faultSpec?.directive == "hang" && scenario?.faultSpec?.position == 13)
            let rules = try await server.control.rules()
            #expect(rules.isEmpty)
        }
    }

    @Test func refusalsAreTyped() async throws {
        try await ServerProcess.with { server in
            let control = server.control
            let missing = await #expect(throws: ControlError.self) { try await control.rule(id: "rule-9") }
            #expect(missing?.kind == .notFound && missing?.message == "No fault rule with id 'rule-9'")
            let noSession = await #expect(throws: ControlError.self) { try await control.endSession(id: "nope") }
            #expect(noSession?.kind == .notFound)
            let noScenario = await #expect(throws: ControlError.self) { try await control.loadScenario(named: "nope") }
            #expect(noScenario?.kind == .badRequest && noScenario?.message?.contains("flaky-network") == true)
            let badField = await #expect(throws: ControlError.self) {
                try await control.addRule(Rule(.status(503), times: 0))
            }
            #expect(badField?.kind == .badRequest && badField?.faultSpec == nil)
            #expect(badField?.message == "Invalid 'times' - must be a whole number of 1 or more")
            #expect(badField?.description.contains("POST http://127.0.0.1:") == true)
        }
        let gone = try ServerProcess()
        let url = gone.baseURL
        gone.stop()
        let unreachable = await #expect(throws: ControlError.self) { try await ControlClient(baseURL: url).health() }
        #expect(unreachable?.kind == .transportFailed)
    }

    @Test func theAdminTokenIsSentWhenGiven() async throws {
        try await ServerProcess.with(["--admin-token", "s3cret"], token: "s3cret") { server in
            let health = try await server.control.health()
            #expect(health.status == "ok")
            let without = await #expect(throws: ControlError.self) {
                try await ControlClient(baseURL: server.baseURL).health()
            }
            #expect(without?.kind == .unauthorized)
            let wrong = await #expect(throws: ControlError.self) {
                try await ControlClient(baseURL: server.baseURL, token: "nope").rules()
            }
            #expect(wrong?.kind == .unauthorized)
        }
        try await ServerProcess.with(["--host", "0.0.0.0"]) { server in
            let refused = await #expect(throws: ControlError.self) { try await server.control.health() }
            #expect(refused?.kind == .forbidden)
        }
    }

    @Test func clientsComeFromTheEnvironment() {
        let control = ControlClient.fromEnvironment(["UNDERSTUDY_URL": "http://127.0.0.1:9001", "UNDERSTUDY_ADMIN_TOKEN": "t"])
        #expect(control.baseURL.absoluteString == "http://127.0.0.1:9001" && control.token == "t")
        #expect(ControlClient.fromEnvironment([:]).baseURL.absoluteString == "http://localhost:8080")
    }
}

extension ControlErrorTests {
    @Test func idsTravelAsOnePathSegment() async throws {
        try await ServerProcess.with { server in
            let id = "a b/c?d%e"
            try await server.control.openSession(id: id)
            let ended = try await server.control.endSession(id: id)
            #expect(ended.id == id)
            let again = await #expect(throws: ControlError.self) { try await server.control.endSession(id: id) }
            #expect(again?.kind == .notFound)
        }
    }
}
