/// A scenario the server loaded: its rules as installed, and the TLS faults it set.
public struct ScenarioLoaded: Sendable, Hashable, Decodable {
    /// The shipped scenario's name, or `scenario` for a document.
    public let name: String?
    /// What the scenario simulates.
    public let description: String
    /// The seed it set (on the session, or the server), if it fixes one.
    public let seed: UInt64?
    /// The rules it added, in matching order.
    public let rules: [RuleStatus]
    /// The TLS faults it set, in order (the server leaves them out of its reply when there are none).
    public let tlsFaults: [Fault.TLS]

    private enum CodingKeys: String, CodingKey {
        case name, description, seed, rules, tlsFaults
    }

    /// Reads the server's reply.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decode(String.self, forKey: .description)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        rules = try container.decode([RuleStatus].self, forKey: .rules)
        tlsFaults = try container.decodeIfPresent([Fault.TLS].self, forKey: .tlsFaults) ?? []
    }
}
