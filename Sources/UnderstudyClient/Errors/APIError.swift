import Foundation

/// The one error every `UnderstudyClient` call throws: a small classification plus the context to act on it.
///
/// The classification is ``Kind``, a struct with static members (`.unauthorized`, `.timedOut`…) that `==` and
/// `switch` match like enum cases, so a kind can be added without breaking callers (a `switch` needs a
/// `default`). The context (status, headers, body, server message, Retry-After, the request and the attempt
/// count) sits on the error beside it rather than in associated values, so new context never breaks a caller.
///
/// ```swift
/// do {
///     let product = try await client.send(products.product(id: 1))
/// } catch where error.kind == .unauthorized {
///     showLogin()
/// } catch {
///     show(error.serverMessage ?? error.description)
/// }
/// ```
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// Where in a body decoding failed.
    public struct DecodingContext: Sendable, CustomStringConvertible {
        /// The type being decoded, e.g. `"Product"`.
        public var type: String
        /// The coding path to the offending value, e.g. `"products[3].price"`.
        public var codingPath: String
        /// `DecodingError`'s own explanation.
        public var reason: String

        /// A one-line summary naming the type, path and reason.
        public var description: String {
            codingPath.isEmpty ? "\(type): \(reason)" : "\(type) at \(codingPath): \(reason)"
        }
    }

    /// The classification.
    public var kind: Kind
    /// The request's method, if the request got as far as being built.
    public var method: HTTPMethod?
    /// The request's URL, if it could be built.
    public var url: URL?
    /// How many times the request was sent (0 when it failed before the first send).
    public var attempts: Int = 0
    /// The HTTP status, for kinds that come from a response.
    public var status: Int?
    /// The response headers, for kinds that come from a response; looked up by name in any case
    /// (`headers["retry-after"]`), as Apple's and Linux's Foundation spell names differently.
    public var headers: ResponseHeaders = [:]
    /// The raw response body, for error statuses and decoding failures.
    public var body: Data?
    /// The server's `{"message": …}` text, when the error body carries one.
    public var serverMessage: String?
    /// The parsed Retry-After header, when the response had one.
    public var retryAfter: RetryAfter?
    /// Where decoding failed, for ``Kind/decodingFailed``.
    public var decoding: DecodingContext?
    /// The error this one was classified from, described (the original is not kept, as it need not be Sendable).
    public var underlying: String?
    /// The original `URLError` code, for kinds classified from one.
    public var urlErrorCode: Int?
    /// A WebSocket's close code: the one the server sent, or 1006 when the connection ended without a close frame.
    public var closeCode: Int?
    /// The reason of the server's close frame.
    public var closeReason: String?

    /// Creates an error of the given kind with no context.
    ///
    /// - Parameters:
    ///   - kind: The classification.
    ///   - underlying: A description of the error this one stands for.
    public init(_ kind: Kind, underlying: String? = nil) {
        self.kind = kind
        self.underlying = underlying
    }

    /// `true` for statuses and transport failures a retry can plausibly fix.
    public var isTransient: Bool {
        switch kind {
        case .rateLimited, .serverError, .noConnection, .timedOut, .connectionLost: true
        case .httpStatus: status == 408
        default: false
        }
    }

    /// A readable one-line account: the method and URL, the kind, the status and message, the attempts.
    public var description: String {
        var parts: [String] = []
        if let method, let url { parts.append("\(method) \(url.absoluteString)") }
        var what = kind.description
        if let status { what += " \(status)" }
        parts.append(what)
        if let serverMessage { parts.append("\"\(serverMessage)\"") }
        if let decoding { parts.append(decoding.description) }
        if let retryAfter { parts.append("Retry-After \(retryAfter)") }
        if let underlying { parts.append(underlying) }
        if attempts > 1 { parts.append("after \(attempts) attempts") }
        return "APIError(" + parts.joined(separator: ": ") + ")"
    }
}

extension APIError {
    /// Returns a copy that records the request it belongs to.
    func tagged(method: HTTPMethod?, url: URL?, attempts: Int) -> APIError {
        var copy = self
        copy.method = copy.method ?? method
        copy.url = copy.url ?? url
        copy.attempts = max(copy.attempts, attempts)
        return copy
    }
}
