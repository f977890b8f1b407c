import Foundation
import Testing
import UnderstudyControl
import UnderstudyTestSupport

/// TLS faults through `UnderstudyControl`, against `understudy --tls-port 0` in a process of its own; the
/// handshakes are curl's, as a user's client would make them.
@Suite(.blocksThreads) struct TLSFaultControlTests {
    /// A server serving HTTPS beside http with a CA in a fresh directory, started with more `arguments`; `body`
    /// gets it, its HTTPS port and the CA's path.
    private func withHTTPS<T>(_ arguments: [String] = [], _ body: (ServerProcess, Int, String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("control-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await ServerProcess.with(["--tls-port", "0", "--tls-dir", directory] + arguments) { server in
            await waitUntil(within: .seconds(10)) { server.child.output.contains("HTTPS on https://") }
            let line = server.child.output.split(separator: "\n").first { $0.hasPrefix("HTTPS on https://") } ?? ""
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
            return try await body(server, port, directory + "/understudy-ca.pem")
        }
    }

    /// curl's exit status for `https://name:port/products/1`, the name resolved to the loopback address.
    private func curl(_ name: String, port: Int, ca: String) throws -> Int32 {
        let child = try ChildProcess(executable: "/usr/bin/env", arguments: [
            "curl", "-sS", "-o", "/dev/null", "--max-time", "10", "--cacert", ca, "--resolve", "\(name):\(port):127.0.0.1",
            "https://\(name):\(port)/products/1",
        ])
        return child.waitForExit()
    }

    @Test func queueListAndClearAreTypedAndPresentedHandshakesAreCounted() async throws {
        try await withHTTPS { server, port, ca in
            let control = server.control
            #expect(try await control.health().servesHTTPS)
            let queued = try await control.queueTLSFault(.expired, times: 2)
            #expect(queued == QueuedTLSFault(fault: .expired, remaining: 2))
            try await control.queueTLSFault(.reset)
            #expect(try await control.tlsFaults().queued.map(\.fault) == [.expired, .reset])
            #expect(try curl("localhost", port: port, ca: ca) == 60)   // CURLE_PEER_FAILED_VERIFICATION: expired
            #expect(try curl(TLSFaultKind.selfSigned.serverName, port: port, ca: ca) == 60)   // still queued: expired
            let status = try await control.tlsFaults()
            #expect(status.queued == [QueuedTLSFault(fault: .reset, remaining: 1)])
            #expect(status.presented == 2)
            #expect(status.recent.map(\.fault) == [.expired, .expired])
            #expect(status.recent.map(\.serverName) == [nil, nil])
            #expect(try await control.clearTLSFaults() == 1)
            #expect(try curl(TLSFaultKind.wrongHost.serverName, port: port, ca: ca) == 60)
            let after = try await control.tlsFaults()
            #expect(after.queued.isEmpty)
            #expect(after.presented == 3)
            #expect(after.recent.last?.fault == .wrongHost)
            #expect(after.recent.last?.serverName == "wrong-host.localhost")
            #expect(try curl("localhost", port: port, ca: ca) == 0)
        }
    }

    @Test func aServerWithoutHTTPSIsAConflictAndBadTimesAreABadRequest() async throws {
        try await ServerProcess.with { server in
            #expect(try await !server.control.health().servesHTTPS)
            await #expect(throws: ControlError.self) { try await server.control.queueTLSFault(.reset) }
            do {
                _ = try await server.control.tlsFaults()
                Issue.record("a server without HTTPS listed TLS faults")
            } catch let error as ControlError {
                #expect(error.kind == .conflict)
            }
        }
        try await withHTTPS { server, _, _ in
            do {
                try await server.control.queueTLSFault(.expired, times: 0)
                Issue.record("times 0 was queued")
            } catch let error as ControlError {
                #expect(error.kind == .badRequest)
                #expect(error.description.contains("Invalid 'times'"), "\(error)")
            }
        }
    }

    @Test func aTypedFaultForAServerNameAndAScenarioDocumentsTLSFaultsTakeTheirHandshakes() async throws {
        try await withHTTPS { server, port, ca in
            let control = server.control
            try await control.addTLSFault(Fault.TLS(.selfSigned, serverName: "localhost"))
            #expect(try curl("localhost", port: port, ca: ca) == 60)
            #expect(try curl("localhost", port: port, ca: ca) == 60)
            let loaded = try await control.loadScenario(ScenarioDocument(rules: [], tlsFaults: [Fault.TLS(.reset, times: 1)]))
            #expect(loaded.tlsFaults == [Fault.TLS(.reset, times: 1)])
            #expect(try curl("localhost", port: port, ca: ca) == 35)   // CURLE_SSL_CONNECT_ERROR: reset
            let status = try await control.tlsFaults()
            #expect(status.queued.isEmpty)
            #expect(status.byServerName == [Fault.TLS(.selfSigned, serverName: "localhost")])
            #expect(status.recent.map(\.fault) == [.selfSigned, .selfSigned, .reset])
            #expect(try await control.clearTLSFaults() == 1)
            #expect(try curl("localhost", port: port, ca: ca) == 0)
            do {
                try await control.addTLSFault(Fault.TLS(.expired, serverName: "api.localhost"))
                Issue.record("a name the certificate does not carry was set")
            } catch let error as ControlError {
                #expect(error.kind == .badRequest)
                #expect(error.description.contains("the certificate is for localhost, not 'api.localhost'"), "\(error)")
            }
            await #expect(throws: ControlError.self) {
                try await control.loadScenario(ScenarioDocument(rules: [], tlsFaults: [Fault.TLS(.reset)]), session: "s1")
            }
        }
    }

    @Test func aScenarioFileSetsTLSFaultsAtStartAndNeedsHTTPS() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tls-scenario-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"description": "Expired twice", "rules": [], "tlsFaults": [{"fault": "expired", "times": 2}]}"#.utf8).write(to: file)
        try await withHTTPS(["--scenario", file.path]) { server, port, ca in
            let status = try await server.control.tlsFaults()
            #expect(status.queued == [QueuedTLSFault(fault: .expired, remaining: 2)])
            #expect(try curl("localhost", port: port, ca: ca) == 60)
            #expect(try curl("localhost", port: port, ca: ca) == 60)
            #expect(try curl("localhost", port: port, ca: ca) == 0)
        }
        let plain = try ChildProcess(executable: ServerProcess.executable, arguments: ["--port", "0", "--scenario", file.path])
        #expect(plain.waitForExit() == 2)
        #expect(plain.errors.contains("cannot load scenario: \(file.path) sets tlsFaults, which need HTTPS: add --tls or --tls-port"),
                "\(plain.errors)")
    }
}
