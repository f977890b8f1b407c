import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports one line per attempt: method, URL, status or error, and duration. Never logs headers or bodies,
/// so tokens stay out of logs.
public struct LoggingMiddleware: Middleware {
    private let log: @Sendable (String) -> Void

    /// Creates the middleware.
    ///
    /// - Parameter log: Receives each line; called on whatever task sent the request.
    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Logs the request, passes it on, and logs the status or the failure with the time taken.
    public func intercept(_ request: URLRequest, next: MiddlewareNext) async throws -> (Data, HTTPURLResponse) {
        let start = ContinuousClock.now
        let label = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"
        do {
            let (data, response) = try await next(request)
            log("\(label) -> \(response.statusCode) (\(data.count) bytes, \(ContinuousClock.now - start))")
            return (data, response)
        } catch {
            log("\(label) -> \(APIError.classify(error).kind) (\(ContinuousClock.now - start))")
            throw error
        }
    }
}
