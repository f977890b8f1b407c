import Foundation

/// An endpoint described by values rather than by a type of its own; what the service layer builds.
///
/// ```swift
/// let request = APIRequest<ProductList>(path: "products", queryItems: [URLQueryItem(name: "limit", value: "10")])
/// let page = try await client.send(request)
/// ```
public struct APIRequest<Response: Decodable & Sendable>: Endpoint {
    /// The path relative to the base URL.
    public var path: String
    /// The method.
    public var method: HTTPMethod
    /// The query parameters.
    public var queryItems: [URLQueryItem]
    /// Extra header fields.
    public var headers: [String: String]
    /// The body.
    public var body: RequestBody?
    /// Whether the bearer token is attached.
    public var requiresAuthentication: Bool
    /// Whether a non-idempotent method may still be retried.
    public var isReplayable: Bool

    /// Creates a request description; only `path` is required.
    public init(
        path: String,
        method: HTTPMethod = .get,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody? = nil,
        requiresAuthentication: Bool = false,
        isReplayable: Bool = false
    ) {
        self.path = path
        self.method = method
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.requiresAuthentication = requiresAuthentication
        self.isReplayable = isReplayable
    }

    /// The same request decoding into another type.
    public func decoding<Other: Decodable & Sendable>(_: Other.Type) -> APIRequest<Other> {
        APIRequest<Other>(path: path, method: method, queryItems: queryItems, headers: headers, body: body,
                          requiresAuthentication: requiresAuthentication, isReplayable: isReplayable)
    }
}
