/// A fault rule to add: requests that match get the fault, within a budget.
///
/// ```swift
/// Rule(.status(503), path: "/products/*", times: 2)
/// ```
public struct Rule: Sendable, Hashable, Codable {
    /// Which requests a rule applies to; every field given must hold (the server's own model of a match).
    public typealias Match = RuleMatch

    /// Which requests the rule applies to.
    public var match: Match
    /// The fault.
    public var fault: Fault
    /// Fire at most this many times (unlimited when nil).
    public var times: Int?
    /// Let this many matching requests through before firing.
    public var after: Int
    /// Fire on this share of eligible requests, drawn from the session's seeded generator.
    public var probability: Double
    /// Apply only to requests of this session (to every request when nil).
    public var session: String?

    /// A rule applying `fault` to matching requests.
    ///
    /// - Parameters:
    ///   - fault: The fault.
    ///   - match: Which requests.
    ///   - times: The budget (unlimited when nil).
    ///   - after: Matching requests let through first.
    ///   - probability: The share of eligible requests it fires on (0 to 1).
    ///   - session: The session it is scoped to.
    public init(_ fault: Fault, match: Match = Match(), times: Int? = nil, after: Int = 0, probability: Double = 1,
                session: String? = nil) {
        self.match = match
        self.fault = fault
        self.times = times
        self.after = after
        self.probability = probability
        self.session = session
    }

    /// A rule applying `fault` to requests whose path matches a glob (and method, when given).
    ///
    /// - Parameters:
    ///   - fault: The fault.
    ///   - path: A path glob, e.g. `/products/*`.
    ///   - method: The method, e.g. `GET` (any when nil).
    ///   - times: The budget (unlimited when nil).
    ///   - session: The session it is scoped to.
    public init(_ fault: Fault, path: String, method: String? = nil, times: Int? = nil, session: String? = nil) {
        self.init(fault, match: Match(method: method, path: path), times: times, session: session)
    }

    private enum CodingKeys: String, CodingKey {
        case match, fault, times, after, probability, session
    }

    /// Reads a rule as the admin API answers it; the fault text is parsed into a `Fault`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        match = try container.decodeIfPresent(Match.self, forKey: .match) ?? Match()
        let text = try container.decode(String.self, forKey: .fault)
        do {
            fault = try Fault(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .fault, in: container, debugDescription: error.description)
        }
        times = try container.decodeIfPresent(Int.self, forKey: .times)
        after = try container.decodeIfPresent(Int.self, forKey: .after) ?? 0
        probability = try container.decodeIfPresent(Double.self, forKey: .probability) ?? 1
        session = try container.decodeIfPresent(String.self, forKey: .session)
    }

    /// Writes the rule as the admin API takes it, the fault in the header grammar.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(match, forKey: .match)
        try container.encode(fault.text, forKey: .fault)
        try container.encodeIfPresent(times, forKey: .times)
        if after != 0 { try container.encode(after, forKey: .after) }
        if probability != 1 { try container.encode(probability, forKey: .probability) }
        try container.encodeIfPresent(session, forKey: .session)
    }
}
