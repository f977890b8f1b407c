import Foundation
import Testing
import Understudy

/// What is on the wire: keep-alive, HEAD, redirects, conditional GETs and limits, read from a raw socket.
@Suite struct ConnectionTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port)
            for id in [1, 2, 194] {
                connection.write("GET /products/\(id)?select=title HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let response = try #require(connection.readResponse())
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("{\"id\":\(id),"))
            }
        }
    }

    @Test func headSendsHeadersWithoutABody() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("HEAD /products/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try #require(connection.readHead())
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect((RawResponse.contentLength(head) ?? 0) > 1_000)
            #expect(head.hasSuffix("\r\n\r\n"))
            // The connection is still usable, so no body bytes were sent after the head.
            connection.write("GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let next = try #require(connection.readResponse())
            #expect(String(decoding: next.body, as: UTF8.self) == #"{"status":"ok","method":"GET"}"#)
        }
    }

    @Test func trailingSlashIsAPermanentRedirect() async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("GET /products/?limit=2 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(response.status == 301)
            #expect(response.header("Location") == "/products?limit=2")
        }
    }

    @Test func weakETagAnswers304() async throws {
        try await withServer { server, client in
            let first = try await client.send("/products/category/laptops")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("W/\""))
            let connection = try RawHTTPConnection(port: server.port)
            connection.write("GET /products/category/laptops HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \(etag)\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == etag)
        }
    }

    @Test func oversizedBodiesGetJSON413AndTheServerGoesOn() async throws {
        try await withServer { _, client in
            let body = Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 10)
            let reply = try await client.send("POST", "/products/add", headers: ["Content-Type": "application/json"], body: body)
            #expect(reply.status == 413)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(reply.message == "Request body too large: it is over the server's body size limit (or its chunked encoding is malformed)")
            #expect(try await client.send("/ping").status == 200)
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
            let response = try #require(connection.readResponse())
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            let body = try JSONDecoder().decode(MessageReply.self, from: Data(response.body))
            #expect(body.message.hasPrefix("Request body too large"))
            #expect(try await client.send("/ping").status == 200)
        }
    }

    @Test func evhttpsOwnRefusalsAreJSON() async throws {
        try await withServer { server, _ in
            for request in ["PROPFIND /products/1 HTTP/1.1\r\nHost: x\r\n\r\n", "GARBAGE\r\n\r\n"] {
                let connection = try RawHTTPConnection(port: server.port)
                connection.write(request)
                let response = try #require(connection.readResponse(), "no reply to \(request)")
                #expect([400, 501].contains(response.status))
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
                let body = try JSONDecoder().decode(MessageReply.self, from: Data(response.body))
                #expect(!body.message.isEmpty, "\(request): \(String(decoding: response.body, as: UTF8.self))")
            }
        }
    }

    @Test func oversizedHeadersAreRefusedAndTheServerGoesOn() async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port)
            let huge = String(repeating: "x", count: 70_000)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: \(huge)\r\n\r\n")
            let answer = String(decoding: connection.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(answer.prefix(200))")
            #expect(answer.contains("Content-Type: application/json; charset=utf-8\r\n"))
            #expect(answer.hasSuffix(#"or the headers are over the size limit"}"#))
            #expect(try await client.send("/products/1").status == 200)
        }
    }
}
