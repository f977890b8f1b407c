import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rest of the chain, as seen by a middleware: call it to send the request on.
public typealias MiddlewareNext = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

/// An async "onion" around each attempt of a buffered request: it may change the request, time it, log it,
/// replace the response or throw.
///
/// Middleware runs once per attempt, outermost first, inside the client's retry and refresh loop, after the
/// bearer token (and, with an ``ETagCache``, `If-None-Match`) has been attached, so it sees what goes on the wire:
/// a revalidated GET reaches it as the 304. It does not wrap streaming or transfer requests (their bodies are not
/// buffered); those get the token and nothing else.
///
/// ```swift
/// struct Timing: Middleware {
///     func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
///         let start = ContinuousClock.now
///         defer { print(request.url!, ContinuousClock.now - start) }
///         return try await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles one attempt.
    ///
    /// - Parameters:
    ///   - request: The request as the previous layer left it.
    ///   - next: The next layer; the innermost one is the URLSession.
    /// - Returns: The body and response, as the client should see them.
    /// - Throws: Anything; the client classifies it with ``APIError/classify(_:)-(Error)``.
    func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse)
}

extension Array where Element == any Middleware {
    /// Folds the middleware around `transport`, first element outermost.
    func chained(around transport: @escaping MiddlewareNext) -> MiddlewareNext {
        reversed().reduce(transport) { next, middleware in
            { request in try await middleware.intercept(request, next: next) }
        }
    }
}
