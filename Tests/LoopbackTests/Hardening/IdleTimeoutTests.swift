import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// The idle timeout, which the connections' sweep keeps: a connection waiting on its client with no byte moving is
/// closed after `idleTimeoutSeconds`, never before; one the server itself holds, or whose client keeps sending, is not.
/// The socket work runs off the cooperative pool: a starved pool would stretch the pauses under test.
@Suite(.blocksThreads) struct IdleTimeoutTests {
    @Test func aKeptAliveConnectionIsClosedOnceIdleAndNotBefore() async throws {
        try await withServer({ $0.idleTimeoutSeconds = 1 }) { server, client in
            let port = server.port
            let (status, ending, unexpected, idle) = await offThePool { () -> (Int?, RawHTTPConnection.Ending?, Int, Duration) in
                guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 30) else {
                    return (nil, nil, 0, .zero)
                }
                connection.write("GET /ping HTTP/1.1\r\nHost: local\r\n\r\n")
                let status = connection.readResponse()?.status
                let idleSince = ContinuousClock.now
                let (bytes, ending) = connection.readUntilEnd()
                return (status, ending, bytes.count, ContinuousClock.now - idleSince)
            }
            #expect(status == 200)
            #expect(ending == .closed, "after \(idle) idle")
            #expect(unexpected == 0)
            #expect(idle >= .milliseconds(950), "closed after \(idle), before the 1 s idle timeout")
            let health = try await client.send("/health").status
            #expect(health == 200)
        }
    }

    /// A delayed reply keeps the client waiting on the server, not the other way round.
    @Test func aRequestTheServerHoldsIsNotIdle() async throws {
        try await withServer({ $0.idleTimeoutSeconds = 1 }) { server, _ in
            let port = server.port
            let status = await offThePool { () -> Int? in
                let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 30)
                connection?.write("GET /products/1?delay=2500 HTTP/1.1\r\nHost: local\r\n\r\n")
                return connection?.readResponse()?.status
            }
            #expect(status == 200)
        }
    }

    /// Each byte of a request restarts the idle timeout: a head sent in pieces 300 ms apart, 2.4 s in all (past
    /// the 1 s timeout twice over), is answered.
    @Test func aRequestArrivingInPiecesIsNotIdle() async throws {
        try await withServer({ $0.idleTimeoutSeconds = 1 }) { server, _ in
            let port = server.port
            let status = await offThePool { () -> Int? in
                guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 30) else { return nil }
                for piece in ["GET /pi", "ng HTTP", "/1.1\r\n", "Host", ": lo", "cal\r\n", "Accept: */*\r\n", "\r\n"] {
                    connection.write(piece)
                    Thread.sleep(forTimeInterval: 0.3)
                }
                return connection.readResponse()?.status
            }
            #expect(status == 200)
        }
    }
}
