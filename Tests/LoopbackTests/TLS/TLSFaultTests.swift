import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Each TLS fault seen from outside, as curl and Python's `ssl` report it, queued through the admin API.
@Suite(.blocksThreads) struct TLSFaultTests {
    /// Queues `fault` through the admin API on the server's plain http port; returns the reply's status and body.
    func queue(_ fixture: TLSServerFixture, _ body: String) throws -> TLSServerFixture.Outcome {
        try TLSServerFixture.run(["curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
                                  "--data", body, "http://127.0.0.1:\(fixture.server.port)/__understudy/tls-faults"])
    }

    @Test(arguments: [
        ("expired", "certificate has expired"),
        ("wrong-host", "no alternative certificate subject name matches target host name 'localhost'"),
        ("unknown-issuer", "unable to get local issuer certificate"),
        ("self-signed", "self-signed certificate"),
        ("reset", "Connection reset by peer"),
    ])
    func curlAndPythonReportEachFaultThenTheNextHandshakeIsServed(fault: String, curlSays: String) async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let queued = try queue(fixture, #"{"fault": "\#(fault)", "times": 2}"#)
            #expect(queued.output.hasSuffix("\n201"), "\(queued.output)")
            let curl = try fixture.curl("/products/1")
            #expect(curl.status != 0)
            #expect(curl.errors.contains(curlSays), "\(curl.errors)")
            let python = try fixture.python("/products/1", trusting: true).output
            let pythonSays = [
                "expired": "certificate has expired", "wrong-host": "Hostname mismatch", "unknown-issuer": "unable to get local issuer",
                "self-signed": "self-signed certificate", "reset": "Connection reset by peer",
            ][fault] ?? "?"
            #expect(python.contains(pythonSays), "\(python)")
            // Two handshakes taken; the third is served as usual.
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func wrongKeyPassesVerificationButNotThePrintedPin() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let pin = try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: fixture.authority.certificatePath)
            let pinned = ["--pinnedpubkey", "sha256//\(pin)"]
            #expect(try fixture.curl("/products/1", pinned).output.hasPrefix("HTTP/1.1 200"))
            _ = try queue(fixture, #"{"fault": "wrong-key"}"#)
            let refused = try fixture.curl("/products/1", pinned)
            #expect(refused.status == 90, "\(refused.errors)")   // CURLE_SSL_PINNEDPUBKEYNOTMATCH
            _ = try queue(fixture, #"{"fault": "wrong-key"}"#)
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))   // no pin: a valid certificate
        }
    }

    @Test func badRequestsAreClearAndAServerWithoutHTTPSSaysSo() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let unknown = try queue(fixture, #"{"fault": "slow"}"#)
            #expect(unknown.output.hasSuffix("\n400"))
            #expect(unknown.output.contains("Invalid 'fault' - must be one of expired, wrong-host, unknown-issuer, self-signed, wrong-key, reset"))
            let zero = try queue(fixture, #"{"fault": "reset", "times": 0}"#)
            #expect(zero.output.contains("Invalid 'times' - must be a whole number from 1 to 10000"))
            _ = try queue(fixture, #"{"fault": "expired", "times": 3}"#)
            let listed = try TLSServerFixture.run(["curl", "-sS", "http://127.0.0.1:\(fixture.server.port)/__understudy/tls-faults"])
            #expect(listed.output == #"{"tlsFaults":[{"fault":"expired","remaining":3}],"presented":0,"recent":[]}"#)
            let dropped = try TLSServerFixture.run(["curl", "-sS", "-X", "DELETE", "http://127.0.0.1:\(fixture.server.port)/__understudy/tls-faults"])
            #expect(dropped.status == 0)
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
        let plain = try UnderstudyServer.start()
        defer { plain.stop() }
        let refused = try TLSServerFixture.run(["curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
                                                "--data", #"{"fault": "reset"}"#, "http://127.0.0.1:\(plain.port)/__understudy/tls-faults"])
        #expect(refused.output.hasSuffix("\n409"))
        #expect(refused.output.contains("This server serves no HTTPS"))
    }
}
