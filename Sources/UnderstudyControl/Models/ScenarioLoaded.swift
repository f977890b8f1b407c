/// A scenario the server loaded: its rules as installed.
public struct ScenarioLoaded: Sendable, Hashable, Decodable {
    /// The shipped scenario's name, or `scenario` for a document.
    public let name: String?
    /// What the scenario simulates.
    public let description: String
    /// The seed it set (on the session, or the server), if it fixes one.
    public let seed: UInt64?
    /// The rules it added, in matching order.
    public let rules: [RuleStatus]
}
