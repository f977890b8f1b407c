import CLibevent
import Foundation
import Testing
import UnderstudyTestSupport
@testable import Understudy

/// The proxy's TLS client: libevent's own HTTP client over `UpstreamTLS`'s bufferevent, against an HTTPS server
/// with a CA the test makes, as the proxy reaches an https upstream.
@Suite(.blocksThreads) struct UpstreamTLSTests {
    /// The outcome of one GET: the status (0 when none came) and why TLS failed, if it did.
    struct Fetched {
        var status = 0
        var failure: String?
    }

    /// Connects to 127.0.0.1:`port` as `host` (its SNI and the name checked) and asks for `/products/1`.
    func fetch(port: Int, host: String, tls: UpstreamTLS) throws -> Fetched {
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        let bufferEvent = try tls.makeBufferEvent(base: base, host: host)
        // Called outside #require: the macro would pass the address's C string after freeing it.
        let made = evhttp_connection_base_bufferevent_new(base, nil, bufferEvent, "127.0.0.1", UInt16(port))
        let connection = try #require(made)
        defer { evhttp_connection_free(connection) }
        evhttp_connection_set_timeout(connection, 10)
        final class Exchange {
            var fetched = Fetched()
            let base: OpaquePointer
            let bufferEvent: OpaquePointer
            init(base: OpaquePointer, bufferEvent: OpaquePointer) {
                self.base = base
                self.bufferEvent = bufferEvent
            }
        }
        let exchange = Exchange(base: base, bufferEvent: bufferEvent)
        let madeRequest = evhttp_request_new({ request, argument in
            let exchange = Unmanaged<Exchange>.fromOpaque(argument!).takeUnretainedValue()
            exchange.fetched.status = request.map { Int(evhttp_request_get_response_code($0)) } ?? 0
            event_base_loopexit(exchange.base, nil)
        }, Unmanaged.passUnretained(exchange).toOpaque())
        let request = try #require(madeRequest)
        // Read where the proxy reads it: in the error callback, before evhttp resets the connection.
        evhttp_request_set_error_cb(request) { _, argument in
            let exchange = Unmanaged<Exchange>.fromOpaque(argument!).takeUnretainedValue()
            exchange.fetched.failure = UpstreamTLS.failureReason(of: exchange.bufferEvent)
        }
        evhttp_add_header(evhttp_request_get_output_headers(request), "Host", host)
        #expect(evhttp_make_request(connection, request, EVHTTP_REQ_GET, "/products/1") == 0)
        event_base_dispatch(base)
        return exchange.fetched
    }

    @Test func anUpstreamVerifiedByAnExtraCAAnswers() async throws {
        try await TLSServerFixture.with { fixture in
            let tls = try UpstreamTLS(verification: .verified(extraCAFile: fixture.authority.caCertificatePath))
            let fetched = try fetch(port: fixture.port, host: "localhost", tls: tls)
            #expect(fetched.status == 200)
            #expect(fetched.failure == nil)
            #expect(try fetch(port: fixture.port, host: "127.0.0.1", tls: tls).status == 200)
        }
    }

    @Test func verificationFailuresSayWhy() async throws {
        try await TLSServerFixture.with { fixture in
            let systemOnly = try UpstreamTLS(verification: .verified(extraCAFile: nil))
            let unknown = try fetch(port: fixture.port, host: "localhost", tls: systemOnly)
            #expect(unknown.status == 0)
            #expect(unknown.failure == "certificate verify failed: unable to get local issuer certificate")

            let withCA = try UpstreamTLS(verification: .verified(extraCAFile: fixture.authority.caCertificatePath))
            let wrongHost = try fetch(port: fixture.port, host: "api.example.com", tls: withCA)
            #expect(wrongHost.status == 0)
            #expect(wrongHost.failure == "certificate verify failed: hostname mismatch")

            let off = try UpstreamTLS(verification: .off)
            #expect(try fetch(port: fixture.port, host: "api.example.com", tls: off).status == 200)
        }
    }

    @Test func aPlainHTTPUpstreamFailsTheHandshake() async throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        let fetched = try fetch(port: server.port, host: "localhost", tls: try UpstreamTLS(verification: .off))
        #expect(fetched.status == 0)
        #expect(fetched.failure?.hasPrefix("TLS handshake failed: ") == true, "\(fetched.failure ?? "nil")")
    }

    @Test func anUnreadableOrEmptyCAFileIsRefusedByName() throws {
        let missing = #expect(throws: TLSError.self) { try UpstreamTLS(verification: .verified(extraCAFile: "/nonexistent/ca.pem")) }
        #expect(missing?.description == "cannot read /nonexistent/ca.pem: no such file")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-ca-\(UUID().uuidString).pem").path
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let empty = #expect(throws: TLSError.self) { try UpstreamTLS(verification: .verified(extraCAFile: path)) }
        #expect(empty?.description.hasPrefix("\(path) holds no PEM CA certificate") == true)
    }
}
