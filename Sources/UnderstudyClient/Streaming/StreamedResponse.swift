import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed response: the head, available at once, and the body still arriving.
public struct StreamedResponse: Sendable {
    /// The 2xx response.
    public let response: HTTPURLResponse
    /// The body.
    public let bytes: ByteStream
    let task: URLSessionTask

    /// Closes the connection; the body stream then ends with ``APIError/Kind/cancelled``.
    public func cancel() {
        task.cancel()
    }
}
