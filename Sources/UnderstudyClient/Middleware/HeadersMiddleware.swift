import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds fixed header fields (a User-Agent, an API key) to every request that does not set them already.
public struct HeadersMiddleware: Middleware {
    /// The fields to add.
    public let headers: [String: String]

    /// Creates the middleware.
    public init(_ headers: [String: String]) {
        self.headers = headers
    }

    /// Adds the fields the request does not set, then passes it on.
    public func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
        var request = request
        for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return try await next(request)
    }
}
