/// A rule as the server holds it: its id, and what it has seen and done.
public struct RuleStatus: Sendable, Hashable, Decodable {
    /// The id the server knows it by, e.g. `rule-1`.
    public let id: String
    /// The rule as added.
    public let rule: Rule
    /// Matching requests seen so far.
    public let matched: Int
    /// Times it fired so far.
    public let fired: Int
    /// Firings left, or nil when unlimited.
    public let remaining: Int?

    private enum CodingKeys: String, CodingKey {
        case id, matched, fired, remaining
    }

    /// Reads a rule from the admin API's JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        matched = try container.decode(Int.self, forKey: .matched)
        fired = try container.decode(Int.self, forKey: .fired)
        remaining = try container.decodeIfPresent(Int.self, forKey: .remaining)
        rule = try Rule(from: decoder)
    }
}
