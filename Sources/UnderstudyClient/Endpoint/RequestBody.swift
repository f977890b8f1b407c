import Foundation

/// A request body and its content type, encoded only when the request is built.
///
/// JSON bodies are encoded with the client's `JSONEncoder`, so an endpoint does not have to carry one, and an
/// encoding failure surfaces as ``APIError/Kind/encodingFailed`` rather than a crash or a silent empty body.
public struct RequestBody: Sendable {
    /// The `Content-Type` to send, unless the endpoint's headers name one.
    public let contentType: String?
    private let encode: @Sendable (JSONEncoder) throws -> Data

    private init(contentType: String?, encode: @escaping @Sendable (JSONEncoder) throws -> Data) {
        self.contentType = contentType
        self.encode = encode
    }

    /// Raw bytes with the given content type.
    ///
    /// - Parameters:
    ///   - data: The bytes to send.
    ///   - contentType: The content type; `application/octet-stream` by default.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(contentType: contentType) { _ in data }
    }

    /// A value encoded as JSON, sent as `application/json`.
    ///
    /// - Parameter value: The value; it is encoded with the client's encoder when the request is built.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(contentType: "application/json") { encoder in try encoder.encode(value) }
    }

    /// The body's bytes.
    ///
    /// - Parameter encoder: The encoder for JSON bodies.
    /// - Returns: The encoded bytes.
    /// - Throws: Whatever the encoder throws.
    public func encoded(using encoder: JSONEncoder) throws -> Data {
        try encode(encoder)
    }
}
