/// A session the server has open, with its seed.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The id requests carry in `X-Understudy-Session`.
    public let id: String
    /// The session's seed (0 to 2^64 − 1); opening the session again with it repeats the run.
    public let seed: UInt64
    /// The network its requests go through, if it was opened with one.
    public let profile: Fault.NetworkProfile?

    /// A session id with its seed and network profile.
    ///
    /// - Parameters:
    ///   - id: The session id.
    ///   - seed: Its seed.
    ///   - profile: Its network profile, if any.
    public init(id: String, seed: UInt64, profile: Fault.NetworkProfile? = nil) {
        self.id = id
        self.seed = seed
        self.profile = profile
    }

    private enum CodingKeys: String, CodingKey {
        case id, seed, profile
    }

    /// Reads a session as the admin API writes it (`profile` by its name, absent for none).
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        seed = try container.decode(UInt64.self, forKey: .seed)
        profile = try container.decodeIfPresent(String.self, forKey: .profile).flatMap(Fault.NetworkProfile.named)
    }

    /// Writes the session as the admin API does.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(seed, forKey: .seed)
        try container.encodeIfPresent(profile?.name, forKey: .profile)
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
