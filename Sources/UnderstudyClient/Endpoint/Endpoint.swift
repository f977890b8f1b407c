import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One API operation: where it lives, how to call it and what it answers with.
///
/// Conformers usually supply only ``path`` (and ``method``, ``queryItems``, ``body`` when they differ from the
/// defaults); building the `URLRequest` and decoding the reply have default implementations.
///
/// ```swift
/// struct ProductByID: Endpoint {
///     typealias Response = Product
///     let id: Int
///     var path: String { "products/\(id)" }
/// }
/// let product = try await client.send(ProductByID(id: 1))
/// ```
public protocol Endpoint: Sendable {
    /// The decoded type of a successful reply.
    associatedtype Response: Decodable & Sendable

    /// The path relative to the client's base URL, with or without a leading slash.
    var path: String { get }
    /// The HTTP method; `GET` by default.
    var method: HTTPMethod { get }
    /// Query parameters, appended after any the base URL already has; none by default.
    var queryItems: [URLQueryItem] { get }
    /// Extra header fields; none by default.
    var headers: [String: String] { get }
    /// The body; none by default.
    var body: RequestBody? { get }
    /// Whether the request carries the bearer token and may trigger a refresh on 401; `false` by default.
    var requiresAuthentication: Bool { get }
    /// Whether a non-idempotent method (POST, PATCH) is still safe to send twice; `false` by default.
    var isReplayable: Bool { get }

    /// Builds the request for a base URL; the default never force-unwraps, a bad URL is an error.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute `http` or `https` URL.
    ///   - encoder: The encoder for JSON bodies.
    /// - Returns: The request, without authentication (the client adds that).
    /// - Throws: ``APIError/Kind/invalidURL`` or ``APIError/Kind/encodingFailed``.
    func makeRequest(baseURL: URL, encoder: JSONEncoder) throws(APIError) -> URLRequest

    /// Decodes a successful reply's body.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - decoder: The client's decoder.
    /// - Returns: The decoded value.
    /// - Throws: ``APIError/Kind/decodingFailed`` naming the type and field.
    func decode(_ data: Data, decoder: JSONDecoder) throws(APIError) -> Response
}

extension Endpoint {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No query parameters.
    public var queryItems: [URLQueryItem] { [] }
    /// No extra headers.
    public var headers: [String: String] { [:] }
    /// No body.
    public var body: RequestBody? { nil }
    /// Public: no token needed.
    public var requiresAuthentication: Bool { false }
    /// Not replayable unless the method is idempotent.
    public var isReplayable: Bool { false }

    /// Whether the client may send the request again after a transient failure.
    public var mayRetry: Bool { method.isIdempotent || isReplayable }

    /// Builds the request with a default `JSONEncoder`.
    ///
    /// - Parameter baseURL: An absolute `http` or `https` URL.
    /// - Returns: The request.
    /// - Throws: ``APIError/Kind/invalidURL`` or ``APIError/Kind/encodingFailed``.
    public func makeRequest(baseURL: URL) throws(APIError) -> URLRequest {
        try makeRequest(baseURL: baseURL, encoder: JSONEncoder())
    }

    /// Joins the base URL, path and query, sets the method and headers (`Accept: application/json` unless given)
    /// and encodes the body, setting its content type unless the headers name one.
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

    /// Decodes JSON with the client's decoder; ``EmptyResponse`` needs no body at all.
    public func decode(_ data: Data, decoder: JSONDecoder) throws(APIError) -> Response {
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
