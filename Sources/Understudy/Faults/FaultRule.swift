/// A standing instruction: requests that match get this fault, within a budget.
public struct FaultRule: Sendable, Equatable {
    /// Which requests the rule applies to; every field given must match (the model `UnderstudyControl`'s rules
    /// share).
    public typealias Match = RuleMatch

    /// Which requests the rule applies to.
    public var match: Match
    /// The fault spec, e.g. `status=503; retry-after=1`.
    public var fault: String
    /// Fire at most this many times (unlimited when nil).
    public var times: Int?
    /// Let this many matching requests through before firing.
    public var after: Int
    /// Fire on this share of eligible requests, drawn from the session's seeded generator.
    public var probability: Double
    /// Apply only to requests carrying `X-Understudy-Session: <session>` (to every request when nil).
    public var session: String?

    /// A rule that applies `fault` to matching requests, `times` times at most, after skipping `after`, with `probability`.
    public init(match: Match = Match(), fault: String, times: Int? = nil, after: Int = 0, probability: Double = 1,
                session: String? = nil) {
        self.match = match
        self.fault = fault
        self.times = times
        self.after = after
        self.probability = probability
        self.session = session
    }

    /// A rule with a typed fault spec, e.g. `.status(503, retryAfter: .seconds(1))`.
    ///
    /// - Parameters:
    ///   - match: Which requests it applies to.
    ///   - fault: The fault, rendered into the header grammar.
    ///   - times: Fire at most this many times (unlimited when nil).
    ///   - after: Let this many matching requests through first.
    ///   - probability: The share of eligible requests it fires on.
    ///   - session: The session it is scoped to (every request when nil).
    public init(match: Match = Match(), fault: Fault, times: Int? = nil, after: Int = 0, probability: Double = 1,
                session: String? = nil) {
        self.init(match: match, fault: fault.text, times: times, after: after, probability: probability, session: session)
    }
}

/// A rule as the server holds it: with its id and what is left of its budget.
public struct FaultRuleStatus: Sendable, Equatable {
    /// The id the admin API and `remove(id:)` know it by.
    public let id: String
    /// The rule as added.
    public let rule: FaultRule
    /// Matching requests seen so far.
    public let matched: Int
    /// Times it fired so far.
    public let fired: Int

    /// Firings left, or nil when unlimited.
    public var remaining: Int? { rule.times.map { max(0, $0 - fired) } }
}

extension RuleMatch {
    func matches(_ request: HTTPRequest) -> Bool {
        matches(method: request.method, path: String(request.path),
                header: { request.headers[$0] }, query: { request.query[$0] })
    }
}
