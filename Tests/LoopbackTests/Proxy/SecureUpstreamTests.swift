import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// An https upstream: a second Understudy serving TLS with a CA the test makes, reached through libevent's client
/// with `bufferevent_openssl`, verified by name against that CA.
@Suite(.blocksThreads) struct SecureUpstreamTests {
    private func withProxy(to fixture: TLSServerFixture, _ adjust: (inout Upstream) -> Void = { _ in },
                           _ body: (HTTPTestClient, UnderstudyServer) async throws -> Void) async throws {
        var upstream = try Upstream(url: fixture.url)
        upstream.timeoutSeconds = 5
        adjust(&upstream)
        var configuration = UnderstudyServer.Configuration()
        configuration.upstream = upstream
        let proxy = try UnderstudyServer.start(configuration)
        defer { proxy.stop() }
        try await body(HTTPTestClient(server: proxy), proxy)
    }

    @Test func anHttpsUpstreamTrustedThroughItsCAIsForwardedWithFaults() async throws {
        try await TLSServerFixture.with { fixture in
            try await withProxy(to: fixture, { $0.certificateAuthorityFile = fixture.authority.caCertificatePath }) { client, proxy in
                let reply = try await client.send("/products/1")
                #expect(reply.status == 200)
                #expect(reply.text.hasPrefix(#"{"id":1,"#))
                let broken = try await client.send("/products/1", headers: ["X-Understudy-Fault": "malformed"])
                #expect(broken.status == 200 && !broken.isJSON)
                // Login over TLS sets DummyJSON's Secure cookies, and they pass through.
                let login = try await client.json("POST", "/auth/login", raw: #"{"username":"emilys","password":"emilyspass"}"#)
                #expect(login.header("Set-Cookie")?.contains("Secure") == true)
                #expect(proxy.journal.entries(path: "/products/1").first?.upstreamStatus == 200)
            }
        }
    }

    @Test func anUntrustedCertificateIsA502SayingWhy() async throws {
        try await TLSServerFixture.with { fixture in
            try await withProxy(to: fixture) { client, proxy in
                let reply = try await client.send("/products/1")
                #expect(reply.status == 502)
                #expect(reply.message?.hasPrefix("The upstream \(fixture.url) failed: certificate verify failed") == true,
                        "\(reply.message ?? "")")
                #expect(proxy.journal.entries(path: "/products/1").first?.upstreamFailure?.contains("certificate verify failed") == true)
            }
            // Explicitly not verifying gets through (the CLI warns loudly about it).
            try await withProxy(to: fixture, { $0.verifiesCertificate = false }) { client, _ in
                let reply = try await client.send("/products/1")
                #expect(reply.status == 200)
            }
        }
    }

    @Test func anUnreadableCAFileStopsTheStart() throws {
        let start: (UnderstudyServer.Configuration) throws -> UnderstudyServer = { try UnderstudyServer.start($0) }
        var configuration = UnderstudyServer.Configuration()
        var upstream = try Upstream(url: "https://localhost:9")
        upstream.certificateAuthorityFile = "/nonexistent/ca.pem"
        configuration.upstream = upstream
        #expect(throws: ServerError.self) { try start(configuration) }
    }
}
