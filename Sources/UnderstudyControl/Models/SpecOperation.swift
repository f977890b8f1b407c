/// `GET /__understudy/spec`: the OpenAPI document a server serves (`understudy --spec`), with its operations.
public struct SpecDocument: Sendable, Hashable, Decodable {
    /// The document's `info.title`.
    public let title: String
    /// Its `openapi` version, e.g. `3.1.0`.
    public let version: String
    /// Every operation, in the document's order.
    public let operations: [SpecOperation]
}

/// One operation of a served document: where it is, what it answers, and any preference set on it.
public struct SpecOperation: Sendable, Hashable, Decodable {
    /// Its `operationId` (or one the server made from the method and path, when it has none).
    public let id: String
    /// The method, upper-case.
    public let method: String
    /// The path template, e.g. `/pets/{petId}`.
    public let path: String
    /// Its summary, when the document gives one.
    public let summary: String?
    /// Whether the document marks it deprecated.
    public let deprecated: Bool
    /// Its documented responses.
    public let responses: [Response]
    /// What every request of it gets under its own `Prefer` (``ControlClient/prefer(_:forOperation:)``).
    public let preference: SpecPreference?

    /// One documented response.
    public struct Response: Sendable, Hashable, Decodable {
        /// The status as the document writes it: `200`, `4XX` or `default`.
        public let code: String
        /// Its media types.
        public let mediaTypes: [String]
        /// The names of its examples, across its media types.
        public let examples: [String]
    }
}
