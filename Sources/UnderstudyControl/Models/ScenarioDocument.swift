/// A scenario to load: rules, and optionally a seed, as in `fixtures/scenarios/*.json`.
public struct ScenarioDocument: Sendable, Hashable, Codable {
    /// What it simulates.
    public var description: String
    /// The seed to run with, when the scenario fixes one.
    public var seed: UInt64?
    /// The rules, in matching order.
    public var rules: [Rule]

    /// A scenario of rules.
    ///
    /// - Parameters:
    ///   - description: What it simulates.
    ///   - seed: The seed to run with.
    ///   - rules: The rules.
    public init(description: String = "", seed: UInt64? = nil, rules: [Rule]) {
        self.description = description
        self.seed = seed
        self.rules = rules
    }
}
