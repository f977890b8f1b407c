/// The rules, sessions, seeds and rate-limit buckets of one server, as a value: every decision is a mutating
/// call that returns what to do, so `FaultController` can hold it under one lock and budgets stay exact.
struct FaultBook {
    struct StoredRule {
        let id: String
        let rule: FaultRule
        let spec: FaultSpec
        var matched = 0
        var fired = 0

        var status: FaultRuleStatus { FaultRuleStatus(id: id, rule: rule, matched: matched, fired: fired) }
    }

    struct Session {
        var seed: UInt64
        var generator: SeededGenerator
    }

    /// Where a request's fault came from.
    enum Source: Equatable {
        case header, query, rule(String)

        var ruleID: String? {
            if case .rule(let id) = self { id } else { nil }
        }
    }

    struct Decision {
        var spec: FaultSpec
        var source: Source
    }

    private(set) var rules: [StoredRule] = []
    private(set) var seed: UInt64
    private var sessions: [String: Session] = [:]
    private var buckets: [String: TokenBucket] = [:]
    private var nextRuleNumber = 1

    init(seed: UInt64) {
        self.seed = seed
    }

    mutating func add(_ rule: FaultRule, spec: FaultSpec) -> FaultRuleStatus {
        let stored = StoredRule(id: "rule-\(nextRuleNumber)", rule: rule, spec: spec)
        nextRuleNumber += 1
        rules.append(stored)
        return stored.status
    }

    mutating func remove(id: String) -> FaultRuleStatus? {
        guard let index = rules.firstIndex(where: { $0.id == id }) else { return nil }
        return rules.remove(at: index).status
    }

    /// Removes every rule (of one session, when given); returns how many went.
    mutating func removeAll(session: String?) -> Int {
        let before = rules.count
        rules.removeAll { session == nil || $0.rule.session == session }
        return before - rules.count
    }

    /// The first eligible rule for `request` fires: it matches, its `after` count is passed, its budget is not
    /// spent, and the session's generator says yes to its probability.
    mutating func decide(for request: HTTPRequest, session: String?) -> Decision? {
        for index in rules.indices {
            let rule = rules[index].rule
            guard rule.session == nil || rule.session == session, rule.match.matches(request) else { continue }
            rules[index].matched += 1
            guard rules[index].matched > rule.after else { continue }
            if let times = rule.times, rules[index].fired >= times { continue }
            if rule.probability < 1, draw(session: session) >= rule.probability { continue }
            rules[index].fired += 1
            return Decision(spec: rules[index].spec, source: .rule(rules[index].id))
        }
        return nil
    }

    /// A uniform draw in [0, 1) from the session's generator.
    mutating func draw(session: String?) -> Double {
        withGenerator(session: session) { $0.unit() }
    }

    /// A delay within `range`, from the session's generator when it is a range.
    mutating func delay(in range: ClosedRange<Int>, session: String?) -> Int {
        guard range.lowerBound < range.upperBound else { return range.lowerBound }
        return withGenerator(session: session) { Int.random(in: range, using: &$0) }
    }

    mutating func randomBytes(_ count: Int, session: String?) -> [UInt8] {
        withGenerator(session: session) { generator in
            (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
    }

    /// Takes a token from the session's bucket for this limit; nil when allowed, else the seconds to wait.
    mutating func consume(_ limit: FaultSpec.RateLimit, key: String, session: String?, nowMilliseconds: Double)
        -> (allowed: Bool, remaining: Int, retryAfterSeconds: Int) {
        let bucketKey = (session ?? "") + "\u{0}" + key
        var bucket = buckets[bucketKey] ?? TokenBucket(limit: limit, nowMilliseconds: nowMilliseconds)
        let outcome = bucket.take(nowMilliseconds: nowMilliseconds)
        buckets[bucketKey] = bucket
        return outcome
    }

    mutating func setSeed(_ newSeed: UInt64) {
        seed = newSeed
        sessions.removeAll()
    }

    /// Creates (or re-seeds) a session; its generator starts over.
    mutating func startSession(_ id: String, seed sessionSeed: UInt64?) -> UInt64 {
        var derived = SeededGenerator(seed: seed, stream: id)
        let chosen = sessionSeed ?? (derived.next() >> 11)
        sessions[id] = Session(seed: chosen, generator: SeededGenerator(seed: chosen))
        return chosen
    }

    mutating func endSession(_ id: String) -> Bool {
        buckets = buckets.filter { !$0.key.hasPrefix(id + "\u{0}") }
        return sessions.removeValue(forKey: id) != nil
    }

    var sessionSeeds: [(id: String, seed: UInt64)] {
        sessions.map { ($0.key, $0.value.seed) }.sorted { $0.id < $1.id }
    }

    mutating func reset() {
        rules.removeAll()
        sessions.removeAll()
        buckets.removeAll()
    }

    private mutating func withGenerator<T>(session: String?, _ body: (inout SeededGenerator) -> T) -> T {
        let id = session ?? ""
        var state = sessions[id] ?? {
            var derived = SeededGenerator(seed: seed, stream: id)
            let chosen = id.isEmpty ? seed : (derived.next() >> 11)
            return Session(seed: chosen, generator: SeededGenerator(seed: chosen))
        }()
        let result = body(&state.generator)
        sessions[id] = state
        return result
    }
}

/// A token bucket that refills continuously: `requests` tokens per window.
struct TokenBucket {
    let limit: FaultSpec.RateLimit
    private var tokens: Double
    private var updatedAt: Double

    init(limit: FaultSpec.RateLimit, nowMilliseconds: Double) {
        self.limit = limit
        tokens = Double(limit.requests)
        updatedAt = nowMilliseconds
    }

    mutating func take(nowMilliseconds: Double) -> (allowed: Bool, remaining: Int, retryAfterSeconds: Int) {
        let refillPerMillisecond = Double(limit.requests) / Double(limit.windowMilliseconds)
        tokens = min(Double(limit.requests), tokens + (nowMilliseconds - updatedAt) * refillPerMillisecond)
        updatedAt = nowMilliseconds
        if tokens >= 1 {
            tokens -= 1
            return (true, Int(tokens), 0)
        }
        let wait = (1 - tokens) / refillPerMillisecond / 1_000
        return (false, 0, max(1, Int(wait.rounded(.up))))
    }
}
