import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// The fixed SNI names (`expired.localhost`, …) present their fault on every handshake, whatever is queued for
/// other names, and each such handshake is listed by `GET /__understudy/tls-faults`.
@Suite(.blocksThreads) struct TLSServerNameTests {
    @Test(arguments: [
        ("expired.localhost", "certificate has expired"),
        ("wrong-host.localhost", "no alternative certificate subject name matches target host name 'wrong-host.localhost'"),
        ("untrusted.localhost", "unable to get local issuer certificate"),
        ("unknown-issuer.localhost", "unable to get local issuer certificate"),
        ("self-signed.localhost", "self-signed certificate"),
        ("reset.localhost", "Connection reset by peer"),
    ])
    func curlAndPythonReportTheNamedFaultEveryTime(name: String, curlSays: String) async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            for _ in 0..<2 {
                let curl = try curl(fixture, name)
                #expect(curl.status != 0)
                #expect(curl.errors.contains(curlSays), "\(curl.errors)")
            }
            let pythonSays = [
                "expired": "certificate has expired", "wrong-host": "Hostname mismatch", "untrusted": "unable to get local issuer",
                "unknown-issuer": "unable to get local issuer", "self-signed": "self-signed certificate", "reset": "Connection reset by peer",
            ][String(name.prefix { $0 != "." })] ?? "?"
            #expect(try python(fixture, name).output.contains(pythonSays))
            // Other names are served as usual.
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
            let listed = try TLSServerFixture.run(["curl", "-sS", "http://127.0.0.1:\(fixture.server.port)/__understudy/tls-faults"]).output
            #expect(listed.contains(#""presented":3,"#), "\(listed)")
            #expect(listed.components(separatedBy: #""serverName":"\#(name)""#).count == 4, "\(listed)")
        }
    }

    @Test func wrongKeyByNamePassesVerificationButNotThePin() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let pin = try LocalCertificateAuthority.publicKeyPin(ofCertificateAt: fixture.authority.certificatePath)
            #expect(try curl(fixture, "wrong-key.localhost").status == 0)
            #expect(try curl(fixture, "wrong-key.localhost", ["--pinnedpubkey", "sha256//\(pin)"]).status == 90)
        }
    }

    @Test func aQueuedFaultTakesTheHandshakeBeforeTheName() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            _ = try TLSServerFixture.run(["curl", "-sS", "-X", "POST", "--data", #"{"fault": "expired"}"#,
                                          "http://127.0.0.1:\(fixture.server.port)/__understudy/tls-faults"])
            #expect(try curl(fixture, "self-signed.localhost").errors.contains("certificate has expired"))
            #expect(try curl(fixture, "self-signed.localhost").errors.contains("self-signed certificate"))
        }
    }

    /// curl to `https://name:port/products/1`, with the name resolved to the loopback address.
    func curl(_ fixture: TLSServerFixture, _ name: String, _ extra: [String] = []) throws -> TLSServerFixture.Outcome {
        try TLSServerFixture.run(["curl", "-sS", "-o", "/dev/null", "--max-time", "10", "--cacert", fixture.authority.caCertificatePath,
                                  "--resolve", "\(name):\(fixture.port):127.0.0.1"] + extra + ["https://\(name):\(fixture.port)/products/1"])
    }

    /// Python's `ssl` handshake to the loopback address with `server_hostname=name`: prints ok, or the error.
    func python(_ fixture: TLSServerFixture, _ name: String) throws -> TLSServerFixture.Outcome {
        let script = """
            import socket, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[3])
            try:
                context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=10), server_hostname=sys.argv[1])
                print("ok")
            except Exception as error:
                print(error)
            """
        return try TLSServerFixture.run(["python3", "-c", script, name, String(fixture.port), fixture.authority.caCertificatePath])
    }
}
