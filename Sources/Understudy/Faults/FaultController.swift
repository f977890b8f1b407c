import UnderstudyLocking

/// A server's fault rules, sessions and seed, safe to change from any thread while requests are served.
///
/// The same model as the admin API under `/__understudy`, for Swift tests that need no HTTP for set-up:
///
/// ```swift
/// try server.faults.add(FaultRule(match: .init(path: "/products/*"), fault: "status=503", times: 2))
/// ```
public final class FaultController: Sendable {
    private let book: Locked<FaultBook>
    /// The number of rules and of sessions with a network profile, kept beside the book so the hot path of a
    /// cached GET reads it without the lock.
    private let ruleCount = SharedCounter(0)
    /// The server's journal, which ending a session clears of that session's requests.
    private let journal: Journal

    init(seed: UInt64, journal: Journal) {
        book = Locked(FaultBook(seed: seed))
        self.journal = journal
    }

    /// Adds a rule after the existing ones (the first matching rule wins).
    /// - Throws: `FaultSpecError` when the rule's spec is invalid, or its budget or probability is out of range.
    @discardableResult
    public func add(_ rule: FaultRule) throws(FaultSpecError) -> FaultRuleStatus {
        let spec = try FaultSpec(parsing: rule.fault)
        if let times = rule.times, times < 1 {
            throw FaultSpecError(directive: "times=\(times)", position: 1, reason: "times must be at least 1")
        }
        guard rule.after >= 0 else {
            throw FaultSpecError(directive: "after=\(rule.after)", position: 1, reason: "after must be 0 or more")
        }
        guard (0...1).contains(rule.probability) else {
            throw FaultSpecError(directive: "probability=\(rule.probability)", position: 1,
                                 reason: "probability must be from 0 to 1")
        }
        if let session = rule.session, let problem = FaultController.problem(withSessionID: session) {
            throw FaultSpecError(directive: "session=\(session.prefix(32))", position: 1, reason: problem)
        }
        return changingRules { $0.add(rule, spec: spec) }
    }

    /// Adds a rule with a typed fault spec after the existing ones.
    ///
    /// ```swift
    /// try server.faults.add(.status(503), match: .init(path: "/products/*"), times: 2, session: "test-1")
    /// ```
    /// - Parameters:
    ///   - fault: The fault.
    ///   - match: Which requests it applies to.
    ///   - times: Fire at most this many times (unlimited when nil).
    ///   - after: Let this many matching requests through first.
    ///   - probability: The share of eligible requests it fires on.
    ///   - session: The session it is scoped to (every request when nil).
    /// - Returns: The rule with its id.
    /// - Throws: `FaultSpecError` when the server refuses the spec or a field is out of range.
    @discardableResult
    public func add(_ fault: Fault, match: FaultRule.Match = .init(), times: Int? = nil, after: Int = 0,
                    probability: Double = 1, session: String? = nil) throws(FaultSpecError) -> FaultRuleStatus {
        try add(FaultRule(match: match, fault: fault, times: times, after: after, probability: probability, session: session))
    }

    /// Every rule with what is left of its budget, in matching order.
    public var rules: [FaultRuleStatus] {
        book.withLock { $0.rules.map(\.status) }
    }

    /// Whether any rule is installed (expired budgets included) or any session has a network profile: with
    /// neither, no request can draw a fault from a rule or be throttled by its session.
    var hasRules: Bool {
        ruleCount.load() > 0
    }

    /// Removes one rule; returns it, or nil when no rule has that id.
    @discardableResult
    public func remove(id: String) -> FaultRuleStatus? {
        changingRules { $0.remove(id: id) }
    }

    /// Removes every rule, or every rule of one session; returns how many were removed.
    @discardableResult
    public func removeAll(session: String? = nil) -> Int {
        changingRules { $0.removeAll(session: session) }
    }

    /// The seed every random choice derives from.
    public var seed: UInt64 {
        get { book.withLock { $0.seed } }
    }

    /// Re-seeds the server: sessions start their generators over.
    public func reseed(_ seed: UInt64) {
        book.withLock { $0.setSeed(seed) }
    }

    /// Starts (or restarts) a session's generator, from its own seed or one derived from the server's.
    ///
    /// At most 1,000 sessions are kept (a rule naming a session starts it too); starting one more forgets the
    /// least recently used one's generator. Requests can only use ids of at most 128 bytes.
    @discardableResult
    public func startSession(_ id: String, seed: UInt64? = nil) -> UInt64 {
        startSession(id, seed: seed, profile: nil)
    }

    /// Starts (or restarts) a session whose every request goes through a network profile: its rates, latency
    /// and pauses, under whatever fault a request asks for. Parallel sessions are untouched.
    ///
    /// - Parameters:
    ///   - id: The session id (at most 128 bytes).
    ///   - seed: The session's seed; nil derives one from the server's.
    ///   - profile: The network, e.g. `.threeG`; nil for none.
    /// - Returns: The session's seed.
    @discardableResult
    public func startSession(_ id: String, seed: UInt64? = nil, profile: Fault.NetworkProfile?) -> UInt64 {
        changingRules { $0.startSession(id, seed: seed, profile: profile) }
    }

    /// The network profile of a session, if it was started with one.
    public func profile(ofSession id: String) -> Fault.NetworkProfile? {
        book.withLock { $0.profile(session: id) }
    }

    /// Ends a session, as `DELETE /__understudy/sessions/{id}` does: forgets its generator and rate-limit
    /// buckets, removes its rules and clears its requests from the journal. Returns false when there was
    /// none of these.
    @discardableResult
    public func endSession(_ id: String) -> Bool {
        let ended = end(session: id)
        return ended.hadSession || ended.rules > 0 || ended.requests > 0
    }

    /// Ends a session and says what went.
    func end(session id: String) -> (hadSession: Bool, rules: Int, requests: Int) {
        let ended = changingRules { $0.endSession(id) }
        return (ended.hadSession, ended.rules, journal.clear(session: id))
    }

    /// Why `id` cannot be a session id, or nil when it can.
    static func problem(withSessionID id: String) -> String? {
        if id.isEmpty { return "a session id must not be empty" }
        if id.utf8.count > FaultBook.maximumSessionIDLength {
            return "a session id must be at most \(FaultBook.maximumSessionIDLength) bytes"
        }
        return nil
    }

    /// The sessions started by the admin API, Swift or a rule that names them, with their seeds.
    public var sessions: [(id: String, seed: UInt64)] {
        book.withLock { $0.sessionSeeds }
    }

    /// Removes every rule, session and bucket (the seed stays).
    public func reset() {
        changingRules { $0.reset() }
    }

    func withBook<T>(_ body: (inout FaultBook) -> T) -> T {
        book.withLock { body(&$0) }
    }

    private func changingRules<T>(_ body: (inout FaultBook) -> T) -> T {
        book.withLock { book in
            let result = body(&book)
            ruleCount.store(book.rules.count + book.profiledSessionCount)
            return result
        }
    }
}
