/// The rules, sessions, seeds and rate-limit buckets of one server, as a value: every decision is a mutating
/// call that returns what to do, so `FaultController` can hold it under one lock and budgets stay exact.
///
/// Requests cannot grow it: a session exists only once the admin API or Swift starts it or a rule names it (a
/// request with any other session id draws from the server's generator), and sessions and buckets are capped,
/// the least recently used going first.
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
        /// Whether the seed was given, not derived from the server's (a re-seed keeps a given one).
        var seedWasGiven: Bool
        var generator: SeededGenerator
        var lastUsed: UInt64
        /// The network every request of the session goes through, if one was given.
        var profile: Fault.NetworkProfile?
    }

    /// Where a request's fault came from.
    enum Source: Equatable {
        /// The request's header, its `_fault` query, a rule, or its session's network profile alone.
        case header, query, rule(String), session

        var ruleID: String? {
            if case .rule(let id) = self { id } else { nil }
        }
    }

    struct Decision {
        var spec: FaultSpec
        var source: Source
    }

    /// What ending a session removed.
    struct Ended {
        var hadSession: Bool
        var rules: Int
    }

    /// Session ids longer than this are refused wherever they come from (header, admin API, rule).
    static let maximumSessionIDLength = 128
    /// At most this many sessions are kept; starting another forgets the least recently used.
    static let maximumSessions = 1_000
    /// At most this many rate-limit buckets are kept (see `consume`).
    static let maximumBuckets = 1_000

    private(set) var rules: [StoredRule] = []
    private(set) var seed: UInt64
    /// Draws for requests with no session, or with one nobody started.
    private var shared: SeededGenerator
    private var sessions: [String: Session] = [:]
    private var buckets: [String: TokenBucket] = [:]
    private var nextRuleNumber = 1
    private var clock: UInt64 = 0

    init(seed: UInt64) {
        self.seed = seed
        shared = SeededGenerator(seed: seed)
    }

    mutating func add(_ rule: FaultRule, spec: FaultSpec) -> FaultRuleStatus {
        let stored = StoredRule(id: "rule-\(nextRuleNumber)", rule: rule, spec: spec)
        nextRuleNumber += 1
        rules.append(stored)
        // A rule for a session makes it: its requests draw from their own generator from now on.
        if let session = rule.session, sessions[session] == nil { _ = startSession(session, seed: nil) }
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

    /// The first eligible rule for `request` fires: it matches, it has a directive that can take effect on this
    /// kind of reply (`target`; nil: not known before the upstream answers, so any), its `after` count is passed,
    /// its budget is not spent, and the session's generator says yes to its probability.
    mutating func decide(for request: HTTPRequest, session: String?, target: FaultTarget? = .body) -> Decision? {
        for index in rules.indices {
            let rule = rules[index].rule
            guard rule.session == nil || rule.session == session, target.map(rules[index].spec.canApply(to:)) ?? true,
                  rule.match.matches(request) else { continue }
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

    /// The seed stream payloads derive from: the session's, once it was started, else the server's.
    func payloadSeed(session: String?) -> UInt64 {
        session.flatMap { sessions[$0]?.seed } ?? seed
    }

    /// Takes a token from the session's bucket for this limit.
    ///
    /// Buckets are made by requests (one per session and spec), so they are capped: at the cap, buckets that have
    /// refilled go first (a full bucket is the same as a new one), then the least recently used.
    mutating func consume(_ limit: FaultSpec.RateLimit, key: String, session: String?, nowMilliseconds: Double)
        -> TokenBucket.Outcome {
        let bucketKey = (session ?? "") + "\u{0}" + key
        if buckets[bucketKey] == nil, buckets.count >= FaultBook.maximumBuckets {
            buckets = buckets.filter { !$0.value.isFull(nowMilliseconds: nowMilliseconds) }
            while buckets.count >= FaultBook.maximumBuckets,
                  let oldest = buckets.min(by: { $0.value.lastTaken < $1.value.lastTaken })?.key {
                buckets.removeValue(forKey: oldest)
            }
        }
        var bucket = buckets[bucketKey] ?? TokenBucket(limit: limit, nowMilliseconds: nowMilliseconds)
        let outcome = bucket.take(nowMilliseconds: nowMilliseconds)
        buckets[bucketKey] = bucket
        return outcome
    }

    /// Re-seeds the server: every session's generator starts over, from its given seed or one derived anew.
    mutating func setSeed(_ newSeed: UInt64) {
        seed = newSeed
        shared = SeededGenerator(seed: newSeed)
        for (id, session) in sessions {
            let chosen = session.seedWasGiven ? session.seed : derivedSeed(id)
            sessions[id] = Session(seed: chosen, seedWasGiven: session.seedWasGiven,
                                   generator: SeededGenerator(seed: chosen), lastUsed: session.lastUsed,
                                   profile: session.profile)
        }
    }

    /// Creates (or re-seeds) a session; its generator starts over. At the cap, the least recently used goes.
    mutating func startSession(_ id: String, seed sessionSeed: UInt64?, profile: Fault.NetworkProfile? = nil) -> UInt64 {
        if sessions[id] == nil, sessions.count >= FaultBook.maximumSessions,
           let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            sessions.removeValue(forKey: oldest)
        }
        let chosen = sessionSeed ?? derivedSeed(id)
        clock += 1
        sessions[id] = Session(seed: chosen, seedWasGiven: sessionSeed != nil, generator: SeededGenerator(seed: chosen),
                               lastUsed: clock, profile: profile)
        return chosen
    }

    /// Forgets a session: its generator, its buckets and its rules.
    mutating func endSession(_ id: String) -> Ended {
        buckets = buckets.filter { !$0.key.hasPrefix(id + "\u{0}") }
        let hadSession = sessions.removeValue(forKey: id) != nil
        return Ended(hadSession: hadSession, rules: removeAll(session: id))
    }

    var sessionSeeds: [(id: String, seed: UInt64)] {
        sessions.map { ($0.key, $0.value.seed) }.sorted { $0.id < $1.id }
    }

    /// The network profile of a started session, if it has one.
    func profile(session: String?) -> Fault.NetworkProfile? {
        session.flatMap { sessions[$0]?.profile }
    }

    /// How many sessions throttle their requests: with none and no rule, the fast path may answer.
    var profiledSessionCount: Int { sessions.values.lazy.filter { $0.profile != nil }.count }

    /// A fresh seed from the session's generator, for a schedule drawn later (a paced body's pauses).
    mutating func drawSeed(session: String?) -> UInt64 {
        withGenerator(session: session) { $0.next() }
    }

    var sessionCount: Int { sessions.count }
    var bucketCount: Int { buckets.count }

    mutating func reset() {
        rules.removeAll()
        sessions.removeAll()
        buckets.removeAll()
        shared = SeededGenerator(seed: seed)
    }

    private func derivedSeed(_ id: String) -> UInt64 {
        var derived = SeededGenerator(seed: seed, stream: id)
        return derived.next() >> 11
    }

    private mutating func withGenerator<T>(session: String?, _ body: (inout SeededGenerator) -> T) -> T {
        guard let id = session, var state = sessions[id] else { return body(&shared) }
        clock += 1
        state.lastUsed = clock
        let result = body(&state.generator)
        sessions[id] = state
        return result
    }
}
