/// `GET /__understudy/violations`: how an upstream's traffic kept the document it is held to
/// (`understudy --upstream URL --spec FILE`), since the server started or the report was cleared.
///
/// A test asserts the contract held with ``violations`` being 0, and reads ``recent`` when it did not.
public struct ContractReport: Sendable, Hashable, Decodable {
    /// The document's title.
    public let document: String
    /// Exchanges checked.
    public let exchanges: Int
    /// Violations found, over every exchange.
    public let violations: Int
    /// The violations of the upstream's replies: what the API broke, apart from the requests its clients sent.
    public let replyViolations: Int
    /// Exchanges answered from the document instead of the upstream (an operation it lacks, or a mocked path).
    public let mocked: Int
    /// Counts by operation, in the order first seen.
    public let operations: [Operation]
    /// The last exchanges (up to 100) that broke the document, oldest first.
    public let recent: [BrokenExchange]

    /// One operation's counts; an undocumented method and path has no operation.
    public struct Operation: Sendable, Hashable, Decodable {
        /// Its `operationId`; nil for an undocumented method and path.
        public let operation: String?
        /// The method.
        public let method: String
        /// The operation's path template, or the path as sent.
        public let path: String
        /// Exchanges checked.
        public let exchanges: Int
        /// Violations found.
        public let violations: Int
        /// Exchanges answered from the document.
        public let mocked: Int
    }

    /// An exchange that broke the document, with what it broke.
    public struct BrokenExchange: Sendable, Hashable, Decodable {
        /// When, in seconds since 1970.
        public let time: Double
        /// The method.
        public let method: String
        /// The path and query as sent.
        public let target: String
        /// The operation it reached, if any.
        public let operation: String?
        /// The status the upstream gave (or the document, when ``mocked``).
        public let status: Int
        /// Whether the document answered instead of the upstream.
        public let mocked: Bool
        /// What it broke.
        public let violations: [ContractViolation]
        /// The start (2 KiB) of the body that broke the document: the reply's, else the request's; nil when no
        /// body did.
        public let body: String?
    }
}

/// One way an exchange broke its document: which side, where, the keyword that failed, and why.
public struct ContractViolation: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// `request` or `response`.
    public let side: String
    /// Where: `["response", "body"]`, `["response", "status"]`, `["request", "query", "limit"]`…
    public let location: [String]
    /// The JSON pointer of the value inside a body (empty otherwise).
    public let pointer: String
    /// The schema keyword that failed (`type`, `enum`, `required`…), or `operation`, `method`, `status`,
    /// `content-type`, `security`, `parse`.
    public let keyword: String
    /// Why, in words.
    public let message: String

    /// `response.body#/price: type: must be number, not string`.
    public var description: String {
        location.joined(separator: ".") + (pointer.isEmpty ? "" : "#" + pointer) + ": \(keyword): \(message)"
    }
}
