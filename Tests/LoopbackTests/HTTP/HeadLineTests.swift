import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// Reply heads as evhttp writes them, pinned byte for byte: canned heads (several header lines linked in as one
/// field, `CannedHead`) and a long header line.
@Suite(.blocksThreads) struct HeadLineTests {
    @Test func statusAndHeaderLinesAreExact() async throws {
        try await withServer { server, _ async throws in
            let connection = try RawHTTPConnection(port: server.port)
            let (reply, lines) = try exchange(connection, "GET /products/1?select=id HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(lines.first == "HTTP/1.1 200 OK")
            #expect(lines.contains("Content-Type: application/json; charset=utf-8"))
            #expect(lines.contains("Content-Length: \(reply.body.count)"))
            #expect(lines.dropFirst().allSatisfy { $0.range(of: #"^[A-Za-z-]+: \S.*$"#, options: .regularExpression) != nil })

            connection.write("GET /http/418/short HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            let teapot = try #require(connection.readResponse())
            #expect(teapot.head.hasPrefix("HTTP/1.0 418 "))
        }
    }

    /// A 700-byte header line is written whole.
    @Test func longHeaderLinesFallBackUnchanged() async throws {
        try await withServer { server, _ async throws in
            let message = String(repeating: "m", count: 700)
            let request = "GET /products/1 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: status=503; message=\(message)\r\n\r\n"
            let (reply, lines) = try exchange(try RawHTTPConnection(port: server.port), request)
            #expect(lines.first == "HTTP/1.1 503 Service Unavailable")
            #expect(lines.contains("X-Understudy-Fault-Applied: status=503; message=\(message)"))
            #expect(String(decoding: reply.body, as: UTF8.self) == #"{"message":"\#(message)"}"#)
        }
    }

    /// Sends one request and reads the reply, with its head split into lines.
    private func exchange(_ connection: RawHTTPConnection, _ request: String) throws -> (RawResponse, [String]) {
        connection.write(request)
        let reply = try #require(connection.readResponse())
        return (reply, reply.head.components(separatedBy: "\r\n"))
    }
}
