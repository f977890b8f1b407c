import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON

/// What the client reports for an HTTPS server it must refuse, as the platform's URLSession really reports it.
@Suite(.timeLimit(.minutes(1))) struct TLSFailureTests {
    /// An in-process server serving HTTPS only, with a local CA of its own that nothing trusts.
    private func withHTTPSServer<T>(_ body: (UnderstudyServer, Int) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = UnderstudyServer.Configuration()
        configuration.tls = TLSSettings(identity: .localAuthority(directory: directory), port: nil)
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        return try await body(server, server.port)
    }

    private func failure(_ url: String) async -> APIError? {
        let client = APIClient(baseURL: URL(string: url)!, retryPolicy: .never)
        return await #expect(throws: APIError.self) { try await client.send(ProductEndpoints.product(id: 1)) }
    }

    /// Linux's URLSession cannot be told to trust one more CA (see the Serving HTTPS article), so every
    /// certificate from the local CA is one it refuses: untrusted, with libcurl's reason kept.
    @Test func aCertificateFromAnUnknownCAIsUntrusted() async throws {
        try await withHTTPSServer { _, port in
            let error = await failure("https://localhost:\(port)")
            #expect(error?.kind == .untrustedCertificate, "\(String(describing: error))")
            #expect(error?.attempts == 1)
        }
    }

    /// A connection reset once the ClientHello is read (`reset.localhost`, a fixed SNI name) fails the handshake.
    @Test func aResetHandshakeIsAFailedHandshake() async throws {
        try await withHTTPSServer { _, port in
            let error = await failure("https://reset.localhost:\(port)")
            #expect(error?.kind == .tlsHandshakeFailed, "\(String(describing: error))")
        }
    }

    /// Pins on Linux are a documented no-op: the usual trust checks decide, and nothing says pinMismatch.
    @Test func pinsChangeNothingWhereTheyAreNotEnforced() async throws {
        #if !canImport(Security)
        try await withHTTPSServer { _, port in
            var configuration = APIClient.Configuration(baseURL: URL(string: "https://localhost:\(port)")!, retryPolicy: .never)
            configuration.pinnedKeys = try PinnedKeys([Data(repeating: 1, count: 32).base64EncodedString()])
            let client = APIClient(configuration: configuration)
            let error = await #expect(throws: APIError.self) { try await client.send(ProductEndpoints.product(id: 1)) }
            #expect(error?.kind == .untrustedCertificate)
        }
        #endif
    }
}
