import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// What is on the wire: keep-alive, HEAD, redirects and conditional GETs, read from a raw socket (the limits:
/// `EvhttpRefusalTests`).
@Suite(.blocksThreads) struct ConnectionTests {
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
}
