import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// What a TLS port does with input that is not a handshake it can finish: it closes the connection (after a 400
/// for plain http, TLSHandshakeEdgeTests), and goes on serving everyone else.
@Suite(.blocksThreads) struct TLSBadInputTests {
    /// The first bytes of a TLS 1.2 ClientHello record, cut off inside its header.
    static let truncatedClientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]

    @Test func plainHTTPToTheTLSPortIsAnsweredThenClosed() async throws {
        try await TLSServerFixture.with { fixture in
            let connection = try RawHTTPConnection(port: fixture.port)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let (bytes, ending) = connection.readUntilEnd()
            // Closed with a FIN after the reply, never a reset that would discard it.
            #expect(ending == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aTruncatedClientHelloIsClosedAfterTheReadTimeout() async throws {
        try await TLSServerFixture.with(readTimeoutSeconds: 1) { fixture in
            let connection = try RawHTTPConnection(port: fixture.port, receiveTimeoutSeconds: 10)
            connection.write(Self.truncatedClientHello)
            let started = ContinuousClock.now
            let (_, ending) = connection.readUntilEnd()
            #expect(ending == .closed || ending == .reset)
            #expect(ContinuousClock.now - started < .seconds(8))
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aThousandHalfOpenHandshakesAreClosedAndTheServerKeepsServing() async throws {
        try await TLSServerFixture.with(readTimeoutSeconds: 1) { fixture in
            var connections: [RawHTTPConnection] = []
            for index in 0..<1_000 {
                let connection = try RawHTTPConnection(port: fixture.port, receiveTimeoutSeconds: 10)
                // Half say nothing after connecting; half stop inside the ClientHello.
                if index.isMultiple(of: 2) { connection.write(Self.truncatedClientHello) }
                connections.append(connection)
            }
            // Served meanwhile, by a client that finishes its handshake.
            #expect(try fixture.curl("/products/1").output.hasPrefix("HTTP/1.1 200"))
            let started = ContinuousClock.now
            let endings = connections.map { $0.readUntilEnd().ending }
            #expect(endings.allSatisfy { $0 == .closed || $0 == .reset }, "\(endings.filter { $0 != .closed })")
            #expect(ContinuousClock.now - started < .seconds(9))
            #expect(try fixture.curl("/products/2").output.hasPrefix("HTTP/1.1 200"))
        }
    }
}
