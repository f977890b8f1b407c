import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One API operation: where it lives, how to call it and what it answers with.
///
/// A value, not a protocol: an API's endpoints are static functions returning `Endpoint`s, and a caller adjusts one
/// (an extra header, a fault to inject) by changing a copy.
///
/// ```swift
/// extension Endpoint where Response == Product {
///     static func product(id: Int) -> Self { Endpoint(path: "products/\(id)") }
/// }
/// var request = Endpoint<Product>.product(id: 1)
/// request.headers["X-Understudy-Fault"] = "status=503"
/// let product = try await client.send(request)
/// ```
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
    /// The path relative to the client's base URL, with or without a leading slash.
    public var path: String
    /// The HTTP method; `GET` by default.
    public var method: HTTPMethod
    /// Query parameters, appended after any the base URL already has.
    public var queryItems: [URLQueryItem]
    /// Extra header fields, e.g. `X-Understudy-Fault`; they win over the client's defaults.
    public var headers: [String: String]
    /// The body, encoded when the request is built.
    public var body: RequestBody?
    /// Whether the request carries the bearer token and may trigger a refresh on 401.
    public var requiresAuthentication: Bool
    /// Whether a non-idempotent method (POST, PATCH) is still safe to send twice.
    public var isReplayable: Bool

    /// Creates an endpoint; only `path` is required.
    ///
    /// - Parameters:
    ///   - path: The path relative to the base URL.
    ///   - method: The HTTP method.
    ///   - queryItems: The query parameters, in order.
    ///   - headers: Extra header fields.
    ///   - body: The body.
    ///   - requiresAuthentication: Whether to send the bearer token.
    ///   - isReplayable: Whether a POST or PATCH may be retried.
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

    /// The same request, decoding its reply into another type.
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: A copy with every other setting kept.
    public func decoding<Other: Decodable & Sendable>(_ type: Other.Type) -> Endpoint<Other> {
        Endpoint<Other>(path: path, method: method, queryItems: queryItems, headers: headers, body: body,
                        requiresAuthentication: requiresAuthentication, isReplayable: isReplayable)
    }

    /// Whether the client may send the request again after a transient failure.
    var mayRetry: Bool { method.isIdempotent || isReplayable }

    /// Builds the request with a default `JSONEncoder`, as the client would send it before authentication.
    ///
    /// - Parameter baseURL: An absolute `http` or `https` URL.
    /// - Returns: The request.
    /// - Throws: ``APIError/Kind/invalidURL`` or ``APIError/Kind/encodingFailed``.
    public func makeRequest(baseURL: URL) throws(APIError) -> URLRequest {
        try makeRequest(baseURL: baseURL, encoder: JSONEncoder())
    }

    /// Joins the base URL, path and query, sets the method and headers (`Accept: application/json` unless given)
    /// and encodes the body, setting its content type unless the headers name one. Never force-unwraps: a bad URL
    /// is an error.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL.
    ///   - encoder: The encoder for JSON bodies.
    /// - Returns: The request, without authentication (the client adds that).
    /// - Throws: ``APIError/Kind/invalidURL`` or ``APIError/Kind/encodingFailed``.
    public func makeRequest(baseURL: URL, encoder: JSONEncoder) throws(APIError) -> URLRequest {
        let url = try URLBuilder.url(baseURL: baseURL, path: path, queryItems: queryItems)
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if request.value(forHTTPHeaderField: "Accept") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        if let body {
            do {
                request.httpBody = try body.encoded(using: encoder)
            } catch {
                var failure = APIError(.encodingFailed, underlying: String(describing: error))
                failure.method = method
                failure.url = url
                throw failure
            }
            if let contentType = body.contentType, request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return request
    }

    /// Decodes a successful reply's JSON with the client's decoder; ``EmptyResponse`` needs no body at all.
    ///
    /// - Throws: ``APIError/Kind/decodingFailed`` naming the type and field.
    func decode(_ data: Data, decoder: JSONDecoder) throws(APIError) -> Response {
        if Response.self == EmptyResponse.self, let empty = EmptyResponse() as? Response {
            return empty
        }
        do {
            return try decoder.decode(Response.self, from: data)
        } catch let error as DecodingError {
            throw APIError.decodingFailed(error, type: String(describing: Response.self), body: data)
        } catch {
            var failure = APIError(.decodingFailed, underlying: String(describing: error))
            failure.body = data
            throw failure
        }
    }
}
