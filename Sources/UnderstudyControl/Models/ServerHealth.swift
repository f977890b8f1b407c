/// `GET /__understudy/health`: the server's version and counters.
public struct ServerHealth: Sendable, Hashable, Decodable {
    /// `ok`.
    public let status: String
    /// The server's version.
    public let version: String
    /// The server's seed.
    public let seed: UInt64
    /// Rules installed.
    public let rules: Int
    /// Requests in the journal.
    public let requests: Int
    /// Whether it is refusing connections (`goOffline`).
    public let offline: Bool
    /// Replies held by a delay or hang.
    public let heldConnections: Int
    /// Whether it serves HTTPS (`--tls`, `--tls-port`), where TLS faults can be queued.
    public var servesHTTPS: Bool { https == true }

    /// Whether it serves an OpenAPI document (`--spec`), whose operations ``ControlClient/specDocument()`` lists.
    public var servesSpec: Bool { spec == true }

    /// Whether it holds an upstream to an OpenAPI document (`--upstream URL --spec FILE`), whose report
    /// ``ControlClient/contractReport()`` reads.
    public var checksContract: Bool { contract == true }

    /// Sent only by a server serving HTTPS.
    private let https: Bool?
    /// Sent only by a server serving a document.
    private let spec: Bool?
    /// Sent only by a server checking an upstream against a document.
    private let contract: Bool?
}
