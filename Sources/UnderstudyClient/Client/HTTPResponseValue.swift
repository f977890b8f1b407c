import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A decoded value with the response it came from, for callers that need headers or the status.
public struct HTTPResponseValue<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The HTTP response.
    public var response: HTTPURLResponse
    /// The raw body.
    public var data: Data
    /// How many times the request was sent.
    public var attempts: Int
    /// Whether the value came from the client's ``ETagCache`` after a `304 Not Modified`: then ``data`` is the
    /// stored body and ``response`` the 304 itself.
    public var isRevalidated = false
}
