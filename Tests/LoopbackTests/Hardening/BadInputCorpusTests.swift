import Foundation
import Testing
import Understudy
import UnderstudyTestSupport

/// The committed corpus of hostile requests (`fixtures/hardening/bad-requests.json`), plus floods built here:
/// each gets a clear answer and the server keeps serving.
@Suite(.blocksThreads) struct BadInputCorpusTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let raw: String
        let status: [Int]
        let messageContains: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/hardening/bad-requests.json")
        struct Corpus: Decodable { let cases: [Case] }
        guard let data = FileManager.default.contents(atPath: file.path),
              let corpus = try? JSONDecoder().decode(Corpus.self, from: data) else { return [] }
        return corpus.cases
    }()

    @Test func theCorpusIsThere() {
        #expect(BadInputCorpusTests.cases.count >= 35)
    }

    @Test(arguments: BadInputCorpusTests.cases)
    func eachBadRequestGetsAClearAnswer(_ testCase: Case) async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
            connection.write(testCase.raw)
            let response = try #require(connection.readResponse(), "no answer to \(testCase.name)")
            let status = try #require(response.status)
            #expect(testCase.status.contains(status), "\(testCase.name): got \(status)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8", "\(testCase.name)")
            if let expected = testCase.messageContains {
                let message = try JSONDecoder().decode(MessageReply.self, from: Data(response.body)).message
                #expect(message.contains(expected), "\(testCase.name): \(message)")
            }
            #expect(try await client.send("/health").status == 200)
        }
    }

    @Test(arguments: [(1 << 20, 1), (10, 10_000)])
    func headerFloodsAreRefused(headerSize: Int, headerCount: Int) async throws {
        try await withServer { server, client in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
            var request = "GET /products/1 HTTP/1.1\r\nHost: localhost\r\n"
            let value = String(repeating: "v", count: headerSize)
            for index in 0..<headerCount { request += "X-Flood-\(index): \(value)\r\n" }
            connection.write(request + "\r\n")
            let (bytes, _) = connection.readUntilEnd()
            let text = String(decoding: bytes.prefix(64), as: UTF8.self)
            #expect(!text.hasPrefix("HTTP/1.1 200"))
            #expect(try await client.send("/health").status == 200)
        }
    }

    @Test func aBodyShorterThanItsLengthTimesOut() async throws {
        try await withServer({ $0.idleTimeoutSeconds = 1 }) { server, client in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 4)
            connection.write("POST /products/add HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":1}")
            let (_, ending) = connection.readUntilEnd()
            #expect(ending != .timedOut)
            #expect(try await client.send("/health").status == 200)
        }
    }
}

@Suite(.blocksThreads) struct RequestSmugglingTests {
    @Test(arguments: [("HEAD", "/products/1"), ("TRACE", "/products/1"), ("TRACE", "/__understudy/seed")])
    func aBodyOnAMethodEvhttpDoesNotReadEndsTheConnection(method: String, path: String) async throws {
        try await withServer { server, _ in
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 3)
            let smuggled = "GET /http/418 HTTP/1.1\r\nHost: x\r\n\r\n"
            connection.write("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)")
            let (bytes, ending) = connection.readUntilEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix(method == "HEAD" ? "HTTP/1.1 200" : "HTTP/1.1 405"))
            #expect(text.contains("Connection: close"))
            // No second reply: the smuggled request would have been answered `HTTP/1.1 418`. (Not just "418":
            // a Unix time in X-RateLimit-Reset can hold those digits.)
            #expect(!text.contains("HTTP/1.1 418"))
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "more than one reply: \(text)")
            #expect(ending == .closed)
        }
    }
}

@Suite(.blocksThreads) struct SlowReaderTests {
    /// A client that asks for large bodies and stops reading holds at most one reply in the server's buffers (evhttp
    /// reads the next request only after a reply is written), and is dropped by the write timeout.
    @Test func aClientThatStopsReadingIsDropped() async throws {
        try await withServer({ $0.idleTimeoutSeconds = 1 }) { server, client in
            let whole = try await client.send("/products?limit=0")
            let connection = try RawHTTPConnection(port: server.port, receiveTimeoutSeconds: 5, receiveBufferBytes: 4_096)
            connection.write(String(repeating: "GET /products?limit=0 HTTP/1.1\r\nHost: localhost\r\n\r\n", count: 20))
            // Not reading for three idle timeouts is the thing under test; a read before then would drain the replies.
            try await Task.sleep(for: .milliseconds(3_000))
            let (bytes, ending) = connection.readUntilEnd()
            #expect(ending != .timedOut, "the server still held the connection")
            #expect(bytes.count < whole.body.count * 20)
            #expect(try await client.send("/health").status == 200)
        }
    }
}
