import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// What reaches the https port without a TLS handshake (a port probe, plain http), and a stage reset: none of it
/// takes a queued fault, and plain http is told where to go.
@Suite(.blocksThreads) struct TLSHandshakeEdgeTests {
    /// A connection that never sends a ClientHello leaves the queue as it was: the fault is the next real
    /// handshake's, as a scenario with `understudy wait` before the test needs.
    @Test func aProbeOrPlainHTTPTakesNoQueuedFault() async throws {
        try await TLSServerFixture.with(separatePort: true, configure: { $0.tlsFaults = [Fault.TLS(.expired, times: 1)] }) { fixture in
            // A port probe: connect, send nothing, close.
            _ = try RawHTTPConnection(port: fixture.port)
            // Plain http to the https port.
            let plain = try RawHTTPConnection(port: fixture.port)
            plain.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try #require(plain.readResponse()).status == 400)
            #expect(try admin(fixture, "GET").output.hasPrefix(#"{"tlsFaults":[{"fault":"expired","remaining":1}],"presented":0"#),
                    "still queued")
            let curl = try fixture.curl("/products/1")
            #expect(curl.errors.contains("certificate has expired"), "\(curl.errors)")
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// Plain http to the https port gets nginx's answer: a 400 naming the https URL to ask instead.
    @Test(arguments: [
        ("GET /products/1 HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", "https://localhost:PORT/products/1"),
        ("POST /carts/add HTTP/1.1\r\nHost: my-mac.local:PORT\r\nContent-Length: 2\r\n\r\n{}", "https://my-mac.local:PORT/carts/add"),
        ("HEAD / HTTP/1.0\r\n\r\n", "https://localhost:PORT/"),
    ])
    func plainHTTPIsTheHTTPSURLToAsk(request: String, url: String) async throws {
        try await TLSServerFixture.with { fixture in
            let port = String(fixture.port)
            let connection = try RawHTTPConnection(port: fixture.port)
            connection.write(request.replacingOccurrences(of: "PORT", with: port))
            let reply = try #require(connection.readResponse())
            #expect(reply.status == 400)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            let expected = "This port speaks HTTPS, and the request came as plain http: ask "
                + url.replacingOccurrences(of: "PORT", with: port) + " instead"
            #expect(String(decoding: reply.body, as: UTF8.self) == #"{"message":"\#(expected)"}"#)
            // curl, told the wrong scheme, shows the same.
            let curl = try TLSServerFixture.run(["curl", "-sS", "http://127.0.0.1:\(port)/products/1"])
            #expect(curl.output.contains("ask https://127.0.0.1:\(port)/products/1 instead"), "\(curl.errors)")
            // And the port still speaks HTTPS.
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// `POST /__understudy/reset` and `reset()` clear queued TLS faults and those set for an SNI name too.
    @Test func aResetClearsTheTLSFaults() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            _ = try admin(fixture, "POST", "tls-faults", #"{"fault": "expired", "times": 3}"#)
            _ = try admin(fixture, "POST", "tls-faults", #"{"fault": "self-signed", "serverName": "localhost"}"#)
            #expect(try admin(fixture, "POST", "reset").status == 0)
            #expect(try admin(fixture, "GET").output.hasPrefix(#"{"tlsFaults":[],"#))
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))

            _ = try admin(fixture, "POST", "tls-faults", #"{"fault": "reset", "times": 1}"#)
            fixture.server.reset()
            #expect(try admin(fixture, "GET").output.hasPrefix(#"{"tlsFaults":[],"#))
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// An admin call on the plain http port (`tls-faults` unless `path` says otherwise).
    private func admin(_ fixture: TLSServerFixture, _ method: String, _ path: String = "tls-faults",
                       _ body: String? = nil) throws -> TLSServerFixture.Outcome {
        try TLSServerFixture.run(["curl", "-sS", "-X", method, "-H", "Content-Type: application/json"]
                                 + (body.map { ["--data", $0] } ?? []) + ["http://127.0.0.1:\(fixture.server.port)/__understudy/\(path)"])
    }
}
