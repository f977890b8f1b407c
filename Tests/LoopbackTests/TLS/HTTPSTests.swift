import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyTestSupport

/// HTTPS as outside clients see it: curl and Python trust the local CA when told to and refuse without it; every
/// route, fault and the admin API work as over http; login's cookies are `Secure` over TLS only.
@Suite(.blocksThreads) struct HTTPSTests {
    @Test func curlAndPythonGetA200WithTheCAAndFailWithoutIt() async throws {
        try await TLSServerFixture.with { fixture in
            let trusted = try fixture.curl("/products/1")
            #expect(trusted.status == 0, "\(trusted.errors)")
            #expect(trusted.output.hasPrefix("HTTP/1.1 200 OK"))
            #expect(trusted.output.contains(#""id":1,"#))
            #expect(!trusted.output.lowercased().contains("strict-transport-security"))
            let untrusted = try fixture.curl("/products/1", trusting: false)
            #expect(untrusted.status == 60, "curl: \(untrusted.errors)")

            #expect(try fixture.python("/products/1", trusting: true).output == "200\n")
            #expect(try fixture.python("/products/1", trusting: false).output.contains("CERTIFICATE_VERIFY_FAILED"))
            // By address too: the leaf carries 127.0.0.1 and ::1.
            let byAddress = try TLSServerFixture.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert",
                                                      fixture.authority.caCertificatePath, "https://127.0.0.1:\(fixture.port)/products/2"])
            #expect(byAddress.output == "200")
            #expect(fixture.server.baseURL.absoluteString == "https://127.0.0.1:\(fixture.port)")
        }
    }

    @Test func faultsETagsStreamsAndTheControlRoomWorkAsOverHTTP() async throws {
        try await TLSServerFixture.with { fixture in
            let faulted = try fixture.curl("/products/1", ["-H", "X-Understudy-Fault: status=503"])
            #expect(faulted.output.hasPrefix("HTTP/1.1 503"))
            let first = try fixture.curl("/products/1")
            let etag = try #require(first.output.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(6))
            let conditional = try fixture.curl("/products/1", ["-H", "If-None-Match: \(etag.trimmingCharacters(in: .whitespaces))"])
            #expect(conditional.output.hasPrefix("HTTP/1.1 304"))
            let stream = try fixture.curl("/products/stream?interval=10&count=3&heartbeat=0", ["-N"])
            #expect(stream.output.components(separatedBy: "\ndata: ").count == 4, "\(stream.output)")
            let room = try fixture.curl("/__understudy/")
            #expect(room.output.hasPrefix("HTTP/1.1 200"))
            // The admin API's own origin is https://localhost:PORT; http on the same port is another origin.
            let sameOrigin = try fixture.curl("/__understudy/health", ["-H", "Origin: https://localhost:\(fixture.port)"])
            #expect(sameOrigin.output.hasPrefix("HTTP/1.1 200"))
            let plainOrigin = try fixture.curl("/__understudy/health", ["-H", "Origin: http://localhost:\(fixture.port)"])
            #expect(plainOrigin.output.hasPrefix("HTTP/1.1 403"))
            let reset = try fixture.curl("/products/1", ["-H", "X-Understudy-Fault: reset"])
            #expect(reset.status != 0)
            #expect(try fixture.curl("/products/3").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func loginCookiesAreSecureOverTLSOnly() async throws {
        try await TLSServerFixture.with(separatePort: true) { fixture in
            let body = #"{"username":"emilys","password":"emilyspass"}"#
            let secure = try fixture.curl("/auth/login", ["-H", "Content-Type: application/json", "--data", body])
            let secureCookies = secure.output.split(separator: "\r\n").filter { $0.hasPrefix("Set-Cookie:") }
            #expect(secureCookies.count == 2)
            #expect(secureCookies.allSatisfy { $0.hasSuffix("; HttpOnly; Secure; SameSite=None") })

            let plain = try TLSServerFixture.run(["curl", "-sS", "-i", "-H", "Content-Type: application/json", "--data", body,
                                                  "http://127.0.0.1:\(fixture.server.port)/auth/login"])
            let plainCookies = plain.output.split(separator: "\r\n").filter { $0.hasPrefix("Set-Cookie:") }
            #expect(plainCookies.count == 2)
            #expect(plainCookies.allSatisfy { $0.hasSuffix("; HttpOnly; SameSite=Lax") && !$0.contains("Secure") })
            #expect(fixture.server.baseURL.absoluteString == "http://127.0.0.1:\(fixture.server.port)")
            #expect(fixture.server.secureBaseURL?.absoluteString == "https://127.0.0.1:\(fixture.port)")
        }
    }

    /// corelibs' URLSession reads `URLSessionCertificateAuthorityInfoFile` on Android only, and has no server-trust
    /// challenge: on Linux it trusts what the system store trusts, so the local CA is refused until it is installed
    /// there (`understudy tls trust` prints how). The docs say so; this keeps them honest.
    @Test func urlSessionRefusesTheLocalCAUntilTheSystemTrustsIt() async throws {
        try await TLSServerFixture.with { fixture in
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            await #expect(throws: (any Error).self) {
                _ = try await session.data(from: URL(string: fixture.url + "/products/1")!)
            }
        }
    }
}
