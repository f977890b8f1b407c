/// A scenario to load: rules, optionally a seed, and TLS faults, as in `fixtures/scenarios/*.json`.
public struct ScenarioDocument: Sendable, Hashable, Codable {
    /// What it simulates.
    public var description: String
    /// The seed to run with, when the scenario fixes one.
    public var seed: UInt64?
    /// The rules, in matching order.
    public var rules: [Rule]
    /// The TLS faults it sets, in order (`tlsFaults`): the whole server's, so a scenario with any is loaded
    /// without a session, on a server that serves HTTPS.
    public var tlsFaults: [Fault.TLS]

    /// A scenario of rules and TLS faults.
    ///
    /// - Parameters:
    ///   - description: What it simulates.
    ///   - seed: The seed to run with.
    ///   - rules: The rules.
    ///   - tlsFaults: The TLS faults.
    public init(description: String = "", seed: UInt64? = nil, rules: [Rule], tlsFaults: [Fault.TLS] = []) {
        self.description = description
        self.seed = seed
        self.rules = rules
        self.tlsFaults = tlsFaults
    }

    private enum CodingKeys: String, CodingKey {
        case description, seed, rules, tlsFaults
    }

    /// Reads a scenario file's JSON; `tlsFaults` may be left out.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        rules = try container.decode([Rule].self, forKey: .rules)
        tlsFaults = try container.decodeIfPresent([Fault.TLS].self, forKey: .tlsFaults) ?? []
    }

    /// Writes the scenario file's JSON, leaving `tlsFaults` out when there are none.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(description, forKey: .description)
        try container.encodeIfPresent(seed, forKey: .seed)
        try container.encode(rules, forKey: .rules)
        if !tlsFaults.isEmpty { try container.encode(tlsFaults, forKey: .tlsFaults) }
    }
}
