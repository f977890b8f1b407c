// The typed fault spec is this library's vocabulary (`Rule(.status(503))`), so `import UnderstudyControl` brings it.
@_exported import UnderstudyFaultSpec
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A typed async client for the admin API of an Understudy running anywhere: `make run` on your Mac for an
/// XCUITest, a CI job's server, or an in-process `UnderstudyServer` (pass its `baseURL`).
///
/// Every call is one HTTP exchange with no retry, so what a test sets up is exactly what it asked for. Failures are
/// ``ControlError``s carrying the server's message (and, for a bad fault spec, the directive and its position).
///
/// ```swift
/// let control = ControlClient(baseURL: URL(string: "http://localhost:8080")!)
/// try await control.addRule(Rule(.status(503), path: "/products/*", times: 2))
/// let journal = try await control.requests(path: "/products/*")
/// ```
///
/// Uses Foundation's `URLSession` only (FoundationNetworking on Linux), so it runs on iOS, macOS and Linux.
public final class ControlClient: Sendable {
    /// The server's base URL, e.g. `http://localhost:8080`.
    public let baseURL: URL
    /// The admin token sent as `X-Understudy-Token`, for a server started with `--admin-token`.
    public let token: String?
    private let session: URLSession

    /// A client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL.
    ///   - token: Its admin token, if it was started with one.
    ///   - timeoutSeconds: How long one admin call may take (whole seconds: Linux drops fractions).
    public init(baseURL: URL, token: String? = nil, timeoutSeconds: Int = 10) {
        self.baseURL = baseURL
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// A client for the server `UNDERSTUDY_URL` names (default `http://localhost:8080`, what `make run` serves),
    /// with the token in `UNDERSTUDY_ADMIN_TOKEN`, if set.
    ///
    /// - Parameter environment: The environment to read (the process's by default).
    /// - Returns: The client.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ControlClient {
        let url = environment["UNDERSTUDY_URL"].flatMap { URL(string: $0) } ?? URL(string: "http://localhost:8080")!
        return ControlClient(baseURL: url, token: environment["UNDERSTUDY_ADMIN_TOKEN"])
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    // MARK: Exchanges

    /// Sends one admin request and decodes its 2xx JSON reply.
    func call<Response: Decodable>(_ method: String, _ path: String, query: [URLQueryItem] = [],
                                   body: (any Encodable & Sendable)? = nil,
                                   as type: Response.Type = Response.self) async throws(ControlError) -> Response {
        let data = try await exchange(method, path, query: query, body: body)
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            var failure = ControlError(.decodingFailed, request: "\(method) \(path)")
            failure.underlying = String(describing: error)
            throw failure
        }
    }

    /// Sends one admin request and returns its 2xx body.
    func exchange(_ method: String, _ path: String, query: [URLQueryItem] = [],
                  body: (any Encodable & Sendable)? = nil) async throws(ControlError) -> Data {
        // `path` is already percent-encoded (ids are encoded as segments), so it is set as encoded.
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        let basePath = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath = (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + "/__understudy/" + path
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw ControlError(.invalidURL, request: "\(method) \(path)") }
        let described = "\(method) \(url.absoluteString)"
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue(token, forHTTPHeaderField: UnderstudyHeader.token) }
        if let body {
            do {
                request.httpBody = try JSONEncoder().encode(body)
            } catch {
                var failure = ControlError(.badRequest, request: described)
                failure.underlying = String(describing: error)
                throw failure
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            var failure = ControlError(.transportFailed, request: described)
            failure.underlying = String(describing: error)
            throw failure
        }
        guard let http = response as? HTTPURLResponse else {
            throw ControlError(.transportFailed, request: described)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw ControlError.reply(status: http.statusCode, body: data, request: described)
        }
        return data
    }
}
