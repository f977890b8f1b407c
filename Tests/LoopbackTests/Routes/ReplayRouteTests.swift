import Foundation
import Testing
import Understudy
import UnderstudyRecording
import UnderstudyTestSupport

/// `--replay`: a recording written by `RecordingWriter`, served over a real socket and read with URLSession.
@Suite(.blocksThreads) struct ReplayRouteTests {
    private static let json = [RecordedExchange.Header("Content-Type", "application/json; charset=utf-8")]
    private static let product = #"{"id":1,"title":"Recorded mascara","price":9.99}"#

    /// Records what an API answered (as a proxy would), then loads it back as `--replay` does.
    private static func recording(ignoring ignored: [String] = []) throws -> (Recording, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        let writer = try RecordingWriter(directory: directory, options: RecordingOptions(ignoredQueryParameters: ignored))
        func exchange(_ method: String, _ path: String, query: [(String, String)] = [], headers: [RecordedExchange.Header] = [],
                      body: String = "", status: Int = 200, reply: String, replyHeaders: [RecordedExchange.Header] = []) -> RecordedExchange {
            RecordedExchange(
                request: .init(method: method, path: path, query: query.map { .init($0.0, $0.1) },
                               headers: body.isEmpty ? headers : headers + [.init("Content-Type", "application/json")], body: Array(body.utf8)),
                response: .init(status: status, headers: json + replyHeaders + [.init("Content-Length", "999"), .init("Date", "then")],
                                body: Array(reply.utf8)))
        }
        writer.append(exchange("POST", "/auth/login", body: #"{"username":"emilys","password":"emilyspass"}"#,
                               reply: #"{"id":1,"accessToken":"real-access","refreshToken":"real-refresh"}"#,
                               replyHeaders: [.init("Set-Cookie", "accessToken=real-access; Path=/; HttpOnly")]))
        writer.append(exchange("GET", "/auth/me", headers: [.init("Authorization", "Bearer real-access")], reply: #"{"id":1,"username":"emilys"}"#))
        writer.append(exchange("GET", "/products/1", reply: product))
        writer.append(exchange("GET", "/products/1", status: 503, reply: #"{"message":"busy"}"#))
        writer.append(exchange("GET", "/products", query: [("limit", "2"), ("skip", "1"), ("_ts", "1")], reply: #"{"products":[],"total":0}"#))
        writer.append(exchange("POST", "/carts/add", body: #"{"userId":1,"products":[{"id":1,"quantity":2}]}"#, status: 201, reply: #"{"id":51}"#))
        writer.flush()
        #expect(writer.failures.isEmpty)
        return (try Recording(contentsOf: directory), directory)
    }

    private func withReplay(ignoring ignored: [String] = [], _ body: (UnderstudyServer, HTTPTestClient) async throws -> Void) async throws {
        let (recording, directory) = try Self.recording(ignoring: ignored)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withServer({ $0.replay = recording }, body)
    }

    @Test func answersHitsAndSequencesFromTheRecordingNotTheDummyJSONRoutes() async throws {
        try await withReplay { _, client in
            let first = try await client.send("/products/1")
            #expect(first.status == 200)
            #expect(first.text == Self.product)
            #expect(first.header("Content-Length") == String(Self.product.utf8.count))
            #expect(first.header("Date") != "then")
            let second = try await client.send("/products/1")
            #expect(second.status == 503)
            #expect(second.message == "busy")
            // The sequence is used up: the last answer repeats.
            #expect(try await client.send("/products/1").status == 503)
            // /products/2 exists in DummyJSON, but not in the recording.
            #expect(try await client.send("/products/2").status == 502)
        }
    }

    @Test func matchesTheQueryInAnyOrderAndIgnoresListedParameters() async throws {
        try await withReplay(ignoring: ["_ts"]) { _, client async throws in
            #expect(try await client.send("/products?skip=1&limit=2&_ts=99").text == #"{"products":[],"total":0}"#)
            #expect(try await client.send("/products?limit=2&skip=1").status == 200)
            #expect(try await client.send("/products?limit=2&skip=1&_fault=").status == 200)
            #expect(try await client.send("/products?limit=3&skip=1").status == 502)
        }
    }

    @Test func comparesJSONBodiesInCanonicalForm() async throws {
        try await withReplay { _, client in
            let reply = try await client.json("POST", "/carts/add", raw: "{ \"products\": [ {\"quantity\": 2, \"id\": 1} ],\n \"userId\": 1 }")
            #expect(reply.status == 201)
            #expect(reply.text == #"{"id":51}"#)
            #expect(try await client.json("POST", "/carts/add", raw: #"{"userId":2,"products":[{"id":1,"quantity":2}]}"#).status == 502)
        }
    }

    @Test func aRedactedLoginStillMatchesAndItsPlaceholderTokenWorks() async throws {
        try await withReplay { _, client in
            let login = try await client.json("POST", "/auth/login", raw: #"{"username":"emilys","password":"emilyspass"}"#)
            #expect(login.status == 200)
            let token = try login.decode(TokenPairReply.self).accessToken
            #expect(token.hasPrefix("understudy-redacted-"))
            #expect(login.header("Set-Cookie") == "accessToken=\(token); Path=/; HttpOnly")
            let me = try await client.send("/auth/me", headers: ["Authorization": "Bearer \(token)"])
            #expect(me.text == #"{"id":1,"username":"emilys"}"#)
        }
    }

    @Test func aMissIsA502NamingTheRequestAndTheNearestRecordingsAndIsJournaled() async throws {
        try await withReplay { server, client in
            let miss = try await client.send("/products/1?select=title")
            #expect(miss.status == 502)
            #expect(miss.header("X-Understudy-Replay") == "miss")
            // The same path first, then the paths sharing its first segment.
            let message = try #require(miss.message)
            #expect(message.hasPrefix("No recording matches GET /products/1?select=title; nearest: GET /products/1 (GET/products/1.json), "
                + "GET /products?limit=2&skip=1&_ts=1 (GET/products~"), "\(message)")
            #expect(message.hasSuffix(".json)"))
            #expect(await waitUntil(within: .seconds(10)) { server.journal.entries(path: "/products/1").map(\.status) == [502] })
        }
    }

    @Test func faultsApplyToReplayedRoutes() async throws {
        try await withReplay { server, client in
            let faulted = try await client.send("/products/1", headers: ["X-Understudy-Fault": "status=503"])
            #expect(faulted.status == 503)
            #expect(faulted.header("X-Understudy-Fault-Applied") == "status=503")

            let connection = try RawHTTPConnection(port: server.port)
            connection.write("GET /products/1 HTTP/1.1\r\nHost: localhost\r\nX-Understudy-Fault: truncate=10\r\n\r\n")
            let (bytes, ending) = connection.readUntilEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            let head = try #require(text.components(separatedBy: "\r\n\r\n").first)
            #expect(RawResponse.contentLength(head) == Self.product.utf8.count)
            #expect(bytes.count == head.utf8.count + 4 + 10)
            #expect(text.hasSuffix(String(Self.product.prefix(10))))
            #expect(ending == .closed)
        }
    }

    @Test func aReplayedReplyGetsAnETagAndA304() async throws {
        try await withReplay { _, client in
            let first = try await client.send("/auth/me")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("W/\""))
            #expect(try await client.send("/auth/me", headers: ["If-None-Match": etag]).status == 304)
            #expect(try await client.send("/auth/me", headers: ["If-None-Match": "W/\"0-x\""]).status == 200)
        }
    }
}
