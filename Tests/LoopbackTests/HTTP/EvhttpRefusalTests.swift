import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// The requests evhttp refuses by itself, before Understudy sees them (a body over the limit, a head over the limit
/// or unparsable, a method it does not know, an `Expect` it does not take): each answer is JSON with evhttp's status,
/// ends its connection, and the server goes on serving new ones.
@Suite(.blocksThreads) struct EvhttpRefusalTests {
    static let bodyTooLarge = "Request body too large: it is over the server's body size limit (or its chunked encoding is malformed)"
    static let badRequest = "Bad request: the request line or headers could not be parsed, or the headers are over the size limit"

    @Test func oversizedBodiesGet413AndTheServerGoesOn() async throws {
        try await withServer { _, client in
            let body = Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 10)
            let reply = try await client.send("POST", "/products/add", headers: ["Content-Type": "application/json"], body: body)
            EvhttpRefusal.expect(status: reply.status, contentType: reply.header("Content-Type"), body: Array(reply.body), 413,
                                 message: EvhttpRefusalTests.bodyTooLarge)
            #expect(try await client.send("/ping").status == 200)
        }
    }

    /// 1.1 MB, as `curl -d @big` sends it: the whole reply, head included, and a new connection served after it.
    @Test func aMegabyteAndATenthGetsAJSON413() async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            let size = 1_100_000
            connection.write("POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(size)\r\n\r\n")
            connection.write([UInt8](repeating: UInt8(ascii: " "), count: size))
            let response = try #require(connection.readResponse())
            #expect(response.head.hasPrefix("HTTP/1.1 413 Request Entity Too Large\r\n"), "\(response.head)")
            EvhttpRefusal.expect(response, 413, message: EvhttpRefusalTests.bodyTooLarge)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"\#(EvhttpRefusalTests.bodyTooLarge)"}"#)
            #expect(connection.readUntilEnd().ending == .closed)
            #expect(try await client.send("/products/1").status == 200)
        }
    }

    /// The 413 comes from the Content-Length alone: the body is read and dropped, never held, however large.
    @Test func aHugeBodyIsRefusedWithoutBeingHeld() async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            let size = 20 << 20
            connection.write("POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(size)\r\n\r\n")
            connection.write([UInt8](repeating: UInt8(ascii: " "), count: size))
            EvhttpRefusal.expect(try #require(connection.readResponse()), 413, message: EvhttpRefusalTests.bodyTooLarge)
            #expect(try await client.send("/ping").status == 200)
        }
    }

    /// evhttp counts a chunked body as it reads it: refused at the chunk that takes it over the limit, whether one
    /// chunk says so or many small ones add up to it.
    @Test(arguments: [[(1 << 20) + 1], [Int](repeating: 64 << 10, count: 17)])
    func aChunkedBodyOverTheLimitGetsAJSON413(chunks: [Int]) async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n")
            for size in chunks where size <= 64 << 10 {
                connection.write(String(size, radix: 16) + "\r\n")
                connection.write([UInt8](repeating: UInt8(ascii: " "), count: size) + Array("\r\n".utf8))
            }
            if let size = chunks.first, size > 64 << 10 { connection.write(String(size, radix: 16) + "\r\n") }
            EvhttpRefusal.expect(try #require(connection.readResponse()), 413, message: EvhttpRefusalTests.bodyTooLarge)
            #expect(try await client.send("/ping").status == 200)
        }
    }

    @Test(arguments: [
        ("PROPFIND /products/1 HTTP/1.1\r\nHost: x\r\n\r\n", 501, "Method not implemented"),
        ("GARBAGE\r\n\r\n", 400, badRequest),
        ("GET /products/1 HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", 400, badRequest),
        ("POST /products/add HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n", 400, badRequest),
        ("POST /products/add HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n", 417, "Expectation failed"),
    ])
    func evhttpsOwnRefusalsSayWhatWasWrong(request: String, status: Int, message: String) async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write(request)
            EvhttpRefusal.expect(try #require(connection.readResponse(), "no reply to \(request)"), status, message: message)
            #expect(try await client.send("/products/1").status == 200)
        }
    }

    /// A refusal on a connection that has already been answered: its output buffer has been written from before.
    @Test func aRefusalAfterARepliedRequestOnTheSameConnectionIsJSON() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try #require(connection.readResponse()).status == 200)
            connection.write("BREW /coffee HTTP/1.1\r\nHost: localhost\r\n\r\n")
            EvhttpRefusal.expect(try #require(connection.readResponse()), 501, message: "Method not implemented")
        }
    }

    @Test func oversizedHeadersAreRefusedAndTheServerGoesOn() async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            let huge = String(repeating: "x", count: 70_000)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: \(huge)\r\n\r\n")
            EvhttpRefusal.expect(try #require(connection.readResponse()), 400, message: EvhttpRefusalTests.badRequest)
            #expect(try await client.send("/products/1").status == 200)
        }
    }
}
