import Foundation

/// A request as ``StubURLProtocol`` received it.
public struct RecordedRequest: Sendable {
    /// The method.
    public var method: String
    /// The full URL.
    public var url: URL?
    /// The header fields as sent.
    public var headers: [String: String]
    /// The body, read from `httpBody` or `httpBodyStream`.
    public var body: Data?

    /// A header value by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
