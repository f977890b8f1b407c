import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// TLS faults a scenario sets, from a file at start or loaded through the admin API, seen by curl's handshakes:
/// the next handshakes, or every one for an SNI name, fail as the scenario says, and are listed as presented.
@Suite(.blocksThreads) struct TLSScenarioFaultTests {
    /// curl to `https://name:port/products/1`, the name resolved to the loopback address.
    func curl(_ fixture: TLSServerFixture, _ name: String) throws -> TLSServerFixture.Outcome {
        try TLSServerFixture.run(["curl", "-sS", "-o", "/dev/null", "--max-time", "10", "--cacert", fixture.authority.caCertificatePath,
                                  "--resolve", "\(name):\(fixture.port):127.0.0.1", "https://\(name):\(fixture.port)/products/1"])
    }

    /// An admin call on the plain http port; the reply's body, then its status on a line of its own.
    func admin(_ fixture: TLSServerFixture, _ method: String, _ path: String, _ body: String? = nil) throws -> String {
        try TLSServerFixture.run(["curl", "-sS", "-w", "\n%{http_code}", "-X", method, "-H", "Content-Type: application/json"]
                                 + (body.map { ["--data", $0] } ?? []) + ["http://127.0.0.1:\(fixture.server.port)/__understudy/\(path)"]).output
    }

    @Test func aScenarioFileSetsTLSFaultsFromTheFirstHandshake() async throws {
        let scenario = try Scenario.parse(Array("""
            {"rules": [], "tlsFaults": [{"fault": "expired", "times": 1},
                                        {"fault": "self-signed", "serverName": "api.localhost"}]}
            """.utf8), file: "tls.json")
        try await TLSServerFixture.with(separatePort: true, configure: { configuration in
            configuration.allowedHosts = ["api.localhost"]   // the certificate carries the name
            configuration.tlsFaults = scenario.tlsFaults
        }) { fixture in
            #expect(try curl(fixture, "localhost").errors.contains("certificate has expired"))
            #expect(try curl(fixture, "localhost").status == 0)
            for _ in 0..<2 {
                #expect(try curl(fixture, "api.localhost").errors.contains("self-signed certificate"))
            }
            let listed = try admin(fixture, "GET", "tls-faults")
            #expect(listed.hasPrefix(#"{"tlsFaults":[],"byServerName":[{"fault":"self-signed","serverName":"api.localhost"}],"presented":3,"#),
                    "\(listed)")
            #expect(listed.components(separatedBy: #""serverName":"api.localhost","time""#).count == 3, "\(listed)")
            #expect(try admin(fixture, "DELETE", "tls-faults").hasPrefix(#"{"deleted":1}"#))
            #expect(try curl(fixture, "api.localhost").status == 0)
        }
    }

    @Test func aScenarioLoadedThroughTheAdminAPISetsTLSFaultsForTheWholeServer() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let loaded = try admin(fixture, "POST", "scenarios", #"""
                {"scenario": {"description": "Handshakes reset", "rules": [{"fault": "delay=1ms", "times": 1}],
                              "tlsFaults": [{"fault": "reset", "serverName": "localhost"}, {"fault": "wrong-key", "times": 2}]}}
                """#)
            #expect(loaded.hasSuffix(#""tlsFaults":[{"fault":"reset","serverName":"localhost"},{"fault":"wrong-key","times":2}]}"# + "\n201"),
                    "\(loaded)")
            // The queued faults take the first two handshakes; then the name's takes every one.
            let pin = try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: fixture.authority.certificatePath)
            let pinned = ["--pinnedpubkey", "sha256//\(pin)"]
            #expect(try fixture.curl("/products/1", pinned).status == 90)   // CURLE_SSL_PINNEDPUBKEYNOTMATCH
            #expect(try fixture.curl("/products/1", pinned).status == 90)
            for _ in 0..<2 {
                #expect(try fixture.curl("/products/1").errors.contains("Connection reset by peer"))
            }
            #expect(try curl(fixture, "wrong-host.localhost").errors.contains("no alternative certificate subject name matches"))
            let listed = try admin(fixture, "GET", "tls-faults")
            #expect(listed.contains(#""presented":5,"#), "\(listed)")
            #expect(listed.contains(#"{"fault":"reset","serverName":"localhost","time""#), "\(listed)")

            let scoped = try admin(fixture, "POST", "scenarios", #"""
                {"session": "s1", "scenario": {"rules": [], "tlsFaults": [{"fault": "reset"}]}}
                """#)
            #expect(scoped.hasSuffix("\n400"))
            #expect(scoped.contains("Invalid 'session' - the scenario sets tlsFaults, which take every client's handshakes"), "\(scoped)")
            let uncovered = try admin(fixture, "POST", "scenarios", #"""
                {"scenario": {"rules": [{"fault": "status=503"}], "tlsFaults": [{"fault": "expired", "serverName": "api.localhost"}]}}
                """#)
            #expect(uncovered.hasSuffix("\n400"))
            #expect(uncovered.contains("Invalid 'scenario' - tlsFaults: 'serverName' the certificate is for localhost, not 'api.localhost'"),
                    "\(uncovered)")
            let bad = try admin(fixture, "POST", "scenarios", #"{"scenario": {"rules": [], "tlsFaults": [{"fault": "late"}]}}"#)
            #expect(bad.contains("Invalid 'scenario' - tlsFaults[0]: Invalid 'fault' - must be one of expired"), "\(bad)")
            // The refused scenario added none of its rules.
            #expect(!(try admin(fixture, "GET", "faults").contains("status=503")))
        }
        let plain = try UnderstudyServer.start()
        defer { plain.stop() }
        let refused = try TLSServerFixture.run(["curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "--data",
                                                #"{"scenario": {"rules": [], "tlsFaults": [{"fault": "reset"}]}}"#,
                                                "http://127.0.0.1:\(plain.port)/__understudy/scenarios"]).output
        #expect(refused.hasSuffix("\n409"))
        #expect(refused.contains("This server serves no HTTPS: start it with --tls or --tls-port to load a scenario with tlsFaults"))
        #expect(plain.faults.rules.isEmpty)
    }

    @Test func aServerRefusesTLSFaultsItCannotPresentAsStated() throws {
        var configuration = UnderstudyServer.Configuration()
        configuration.tlsFaults = [Fault.TLS(.expired)]
        #expect(throws: ServerError.self) { try UnderstudyServer.start(configuration) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        configuration.tls = TLSSettings(identity: .localAuthority(directory: directory))
        configuration.tlsFaults = [Fault.TLS(.expired, serverName: "api.localhost")]
        do {
            let server = try UnderstudyServer.start(configuration)
            server.stop()
            Issue.record("a fault for a name the certificate does not carry was set")
        } catch {
            #expect(error.kind == .invalidConfiguration)
            #expect(error.description.contains("TLS fault expired for api.localhost: 'serverName' the certificate is for localhost"),
                    "\(error.description)")
        }
    }
}
