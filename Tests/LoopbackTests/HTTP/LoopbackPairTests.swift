import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// `localhost` is ::1 first on macOS and must be what an iOS app says (App Transport Security), so the default
/// start and `--host localhost` answer on both loopback addresses, on one port: `curl -4` and `curl -6` to
/// `http://localhost:PORT` both get 200.
@Suite(.blocksThreads) struct LoopbackPairTests {
    private static func status(host: String, port: Int, path: String = "/products/1") throws -> Int? {
        let connection = try RawHTTPConnection(port: port, host: host)
        connection.write("GET \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n")
        return connection.readResponse()?.status
    }

    /// Whether `server` itself answers on `host`: its seed, unique to this test, comes back. A refused connection
    /// is a no, and so is another process's server that happens to hold the same port number on that address (a
    /// test running in parallel may bind it: only our own port pair is ours).
    private static func answers(_ server: UnderstudyServer, host: String) -> Bool {
        guard let connection = try? RawHTTPConnection(port: server.port, host: host) else { return false }
        connection.write("GET /__understudy/seed HTTP/1.1\r\nHost: localhost:\(server.port)\r\nConnection: close\r\n\r\n")
        guard let body = connection.readResponse()?.body else { return false }
        return String(decoding: body, as: UTF8.self) == "{\"seed\":\(server.faults.seed)}"
    }

    private static func seeded(host: String) -> UnderstudyServer.Configuration {
        var configuration = UnderstudyServer.Configuration(host: host)
        configuration.seed = UInt64.random(in: 1...(1 << 50))
        return configuration
    }

    @Test(arguments: [nil, "localhost", "LOCALHOST"] as [String?])
    func aDefaultOrLocalhostStartAnswersOnIPv4AndIPv6(host: String?) throws {
        let server = try UnderstudyServer.start(host.map { .init(host: $0) } ?? .init())
        defer { server.stop() }
        #expect(try Self.status(host: "127.0.0.1", port: server.port) == 200)
        #expect(try Self.status(host: "::1", port: server.port) == 200)
        // The admin gate takes the names a client on either address sends.
        #expect(try Self.status(host: "::1", port: server.port, path: "/__understudy/health") == 200)
    }

    @Test func anotherAddressIsBoundAlone() throws {
        let server = try UnderstudyServer.start(Self.seeded(host: "127.0.0.2"))
        defer { server.stop() }
        #expect(Self.answers(server, host: "127.0.0.2"))
        #expect(!Self.answers(server, host: "::1"))
        #expect(!Self.answers(server, host: "127.0.0.1"))
    }

    /// One port for both: when another socket holds it on ::1, an asked-for port is refused with a clear error
    /// rather than served on half of localhost.
    @Test func aPortTakenOnIPv6IsReported() throws {
        let other = try UnderstudyServer.start(Self.seeded(host: "::1"))
        defer { other.stop() }
        #expect(Self.answers(other, host: "::1"))
        #expect(!Self.answers(other, host: "127.0.0.1"))
        do {
            let server = try UnderstudyServer.start(.init(port: other.port))
            server.stop()
            Issue.record("started on a port another server holds on ::1")
        } catch {
            #expect(error.kind == .addressInUse)
        }
    }

    @Test func bothAddressesGoOfflineAndComeBack() async throws {
        let server = try UnderstudyServer.start()
        defer { server.stop() }
        server.goOffline(for: .seconds(2))
        let refused = await waitUntil(within: .seconds(10)) {
            (try? RawHTTPConnection(port: server.port, host: "::1")) == nil
                && (try? RawHTTPConnection(port: server.port, host: "127.0.0.1")) == nil
        }
        #expect(refused, "a loopback address still accepted while offline")
        let back = await waitUntil(within: .seconds(30)) {
            (try? Self.status(host: "::1", port: server.port)) == 200
                && (try? Self.status(host: "127.0.0.1", port: server.port)) == 200
        }
        #expect(back, "not back on both addresses")
    }
}
