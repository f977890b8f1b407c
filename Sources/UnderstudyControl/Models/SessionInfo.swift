/// A session the server has open, with its seed.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The id requests carry in `X-Understudy-Session`.
    public let id: String
    /// The session's seed (0 to 2^64 − 1); opening the session again with it repeats the run.
    public let seed: UInt64

    /// A session id with its seed.
    ///
    /// - Parameters:
    ///   - id: The session id.
    ///   - seed: Its seed.
    public init(id: String, seed: UInt64) {
        self.id = id
        self.seed = seed
    }
}

/// What ending a session removed.
public struct SessionEnded: Sendable, Hashable, Decodable {
    /// The session id.
    public let id: String
    /// Rules removed.
    public let rules: Int
    /// Journal entries removed.
    public let requests: Int
}
