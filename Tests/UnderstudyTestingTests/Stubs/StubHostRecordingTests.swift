import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyRecording
import UnderstudyTesting

/// `StubHost(recording:)`: what an integration test recorded, replayed in a unit test with no server.
@Suite struct StubHostRecordingTests {
    private static let json = [RecordedExchange.Header("Content-Type", "application/json")]

    private final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stub-recording-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A recording written the way `--record` writes one.
    private static func record() throws -> Directory {
        let directory = Directory()
        let writer = try RecordingWriter(directory: directory.url)
        writer.append(RecordedExchange(
            request: .init(method: "GET", path: "/products/search", query: [.init("q", "red phone"), .init("limit", "1")]),
            response: .init(status: 200, headers: json, body: Array(#"{"products":[{"id":7}],"total":1}"#.utf8))))
        writer.append(RecordedExchange(
            request: .init(method: "GET", path: "/products/7"),
            response: .init(status: 503, headers: json, body: Array(#"{"message":"busy"}"#.utf8))))
        writer.append(RecordedExchange(
            request: .init(method: "GET", path: "/products/7"),
            response: .init(status: 200, headers: json, body: Array(#"{"id":7}"#.utf8))))
        writer.append(RecordedExchange(
            request: .init(method: "POST", path: "/auth/login", headers: json, body: Array(#"{"username":"emilys","password":"emilyspass"}"#.utf8)),
            response: .init(status: 200, headers: json + [.init("Set-Cookie", "accessToken=a1; Path=/"), .init("Set-Cookie", "refreshToken=r1; Path=/")],
                            body: Array(#"{"accessToken":"a1","refreshToken":"r1"}"#.utf8))))
        writer.flush()
        return directory
    }

    private func send(_ host: StubHost, _ target: String, method: String = "GET", body: String? = nil) async throws -> (HTTPURLResponse, String) {
        let session = URLSession(configuration: host.sessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: try #require(URL(string: host.baseURL.absoluteString + target.dropFirst())))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        return (try #require(response as? HTTPURLResponse), String(decoding: data, as: UTF8.self))
    }

    @Test func answersFromTheRecordingInSequenceWithTheServersMatching() async throws {
        let directory = try Self.record()
        let host = try StubHost(recording: directory.url, ignoredQueryParameters: ["_"])
        let (found, text) = try await send(host, "/products/search?limit=1&q=red+phone&_=1")
        #expect(found.statusCode == 200)
        #expect(text == #"{"products":[{"id":7}],"total":1}"#)
        #expect(try await send(host, "/products/7").0.statusCode == 503)
        #expect(try await send(host, "/products/7").1 == #"{"id":7}"#)
        #expect(try await send(host, "/products/7").0.statusCode == 200)
        #expect(host.requests.count == 4)
    }

    @Test func aLoginWithTheRealPasswordGetsThePlaceholders() async throws {
        let directory = try Self.record()
        let host = try StubHost(recording: directory.url)
        let (reply, text) = try await send(host, "/auth/login", method: "POST", body: #"{ "password": "emilyspass", "username": "emilys" }"#)
        #expect(reply.statusCode == 200)
        #expect(text == #"{"accessToken":"understudy-redacted-2","refreshToken":"understudy-redacted-3"}"#)
        #expect(reply.value(forHTTPHeaderField: "Set-Cookie") == "accessToken=understudy-redacted-2; Path=/, refreshToken=understudy-redacted-3; Path=/")
    }

    @Test func aMissIsTheServersMiss() async throws {
        let directory = try Self.record()
        let host = try StubHost(recording: directory.url)
        let (reply, text) = try await send(host, "/products/8")
        #expect(reply.statusCode == 502)
        #expect(reply.value(forHTTPHeaderField: "X-Understudy-Replay") == "miss")
        #expect(text.hasPrefix(#"{"message":"No recording matches GET /products/8; nearest: GET /products/7 (GET/products/7.json), "#
            + #"GET /products/search?q=red%20phone&limit=1 (GET/products/search~"#), "\(text)")
        #expect(text.hasSuffix(#".json)"}"#))
    }

    @Test func aBrokenRecordingIsAnErrorWithItsPosition() throws {
        let directory = try Self.record()
        let file = directory.url.appendingPathComponent("GET/products/7.json")
        try Data("{\n  \"request\": [\n".utf8).write(to: file)
        #expect(throws: RecordingError(file: file.standardizedFileURL.path, line: 3, column: 1,
                                       reason: "unexpected end of input, expected a value")) {
            try StubHost(recording: directory.url)
        }
    }
}
