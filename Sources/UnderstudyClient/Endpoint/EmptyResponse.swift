/// The response type for endpoints whose successful reply has no body worth decoding (204, or a body to ignore).
public struct EmptyResponse: Decodable, Sendable, Equatable {
    /// Creates the empty value.
    public init() {}
}
