import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Understudy

/// URLSession against one in-process server: whole-second timeouts (Linux truncates fractions), no cache,
/// no cookies kept between requests unless asked.
struct HTTPTestClient: Sendable {
    let baseURL: URL
    let session: URLSession

    init(server: UnderstudyServer, timeoutSeconds: Int = 10) {
        baseURL = server.baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 64
        session = URLSession(configuration: configuration)
    }

    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body decoded as `T` with `JSONDecoder`.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONDecoder().decode(T.self, from: body)
        }

        /// The `message` of a JSON body that has a string one (every error reply does).
        var message: String? { (try? decode(MessageReply.self))?.message }

        /// Whether the body is JSON at all.
        var isJSON: Bool { (try? decode(AnyJSON.self)) != nil }

        func header(_ name: String) -> String? {
            headers.first(where: { $0.key.lowercased() == name.lowercased() })?.value
        }
    }

    func send(_ target: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send("GET", target, headers: headers)
    }

    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil) async throws -> Reply {
        guard let url = URL(string: baseURL.absoluteString + target) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Sends `value` encoded with `JSONEncoder` as an `application/json` body.
    func json(_ method: String, _ target: String, _ value: some Encodable, headers: [String: String] = [:]) async throws -> Reply {
        try await json(method, target, raw: String(decoding: try JSONEncoder().encode(value), as: UTF8.self), headers: headers)
    }

    /// Sends `text`, as written, as an `application/json` body: for bodies that mix types, which read most
    /// plainly as the JSON they are.
    func json(_ method: String, _ target: String, raw text: String, headers: [String: String] = [:]) async throws -> Reply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(method, target, headers: headers, body: Data(text.utf8))
    }

    /// Logs in as `username` and returns the access token.
    func accessToken(for username: String = "emilys") async throws -> String {
        let reply = try await json("POST", "/auth/login", ["username": username, "password": username + "pass"])
        return try reply.decode(TokenPairReply.self).accessToken
    }
}

/// Runs `body` against a fresh server on a free loopback port, and stops it afterwards.
func withServer<T>(_ configure: (inout UnderstudyServer.Configuration) -> Void = { _ in },
                   _ body: (UnderstudyServer, HTTPTestClient) async throws -> T) async throws -> T {
    var configuration = UnderstudyServer.Configuration()
    configure(&configuration)
    let server = try UnderstudyServer.start(configuration)
    defer { server.stop() }
    return try await body(server, HTTPTestClient(server: server))
}
