import Foundation

extension ControlClient {
    // MARK: Rules

    /// Adds a fault rule after the existing ones (`POST /__understudy/faults`).
    ///
    /// - Parameter rule: The rule.
    /// - Returns: The rule as stored, with its id.
    /// - Throws: ``ControlError``; ``ControlError/Kind/invalidFaultSpec`` with ``ControlError/faultSpec`` when the
    ///   server refuses the spec.
    @discardableResult
    public func addRule(_ rule: Rule) async throws(ControlError) -> RuleStatus {
        try await call("POST", "faults", body: rule)
    }

    /// Every rule, in matching order (`GET /__understudy/faults`).
    public func rules() async throws(ControlError) -> [RuleStatus] {
        try await call("GET", "faults", as: RuleList.self).rules
    }

    /// One rule by id.
    ///
    /// - Throws: ``ControlError/Kind/notFound`` for an unknown id.
    public func rule(id: String) async throws(ControlError) -> RuleStatus {
        try await call("GET", "faults/\(segment(id))")
    }

    /// Removes one rule and returns it with its final counters.
    ///
    /// - Throws: ``ControlError/Kind/notFound`` for an unknown id.
    @discardableResult
    public func deleteRule(id: String) async throws(ControlError) -> RuleStatus {
        try await call("DELETE", "faults/\(segment(id))")
    }

    /// Removes every rule, or every rule of one session; returns how many went.
    @discardableResult
    public func clearRules(session: String? = nil) async throws(ControlError) -> Int {
        try await call("DELETE", "faults", query: items(["session": session]), as: Deleted.self).deleted
    }

    // MARK: Sessions

    /// Opens (or restarts) a session: requests carrying `X-Understudy-Session: <id>` see its rules, draw from its
    /// seed and land in its part of the journal.
    ///
    /// With a `profile`, every request of the session goes through that network (its rates, latency and pauses);
    /// parallel sessions are untouched.
    ///
    /// - Parameters:
    ///   - id: The id (the server makes one up when nil).
    ///   - seed: Its seed, any 64-bit value (derived from the server's seed and the id when nil).
    ///   - profile: A Network Link Conditioner preset, e.g. `.threeG`; nil for none.
    /// - Returns: The session with its seed.
    @discardableResult
    public func openSession(id: String? = nil, seed: UInt64? = nil,
                            profile: Fault.NetworkProfile? = nil) async throws(ControlError) -> SessionInfo {
        try await call("POST", "sessions", body: OpenSession(id: id, seed: seed, profile: profile?.name))
    }

    /// The sessions the server has open.
    public func sessions() async throws(ControlError) -> [SessionInfo] {
        try await call("GET", "sessions", as: SessionList.self).sessions
    }

    /// Ends a session with its rules, buckets and journal entries.
    ///
    /// - Throws: ``ControlError/Kind/notFound`` when there is no session, rule or request with that id.
    @discardableResult
    public func endSession(id: String) async throws(ControlError) -> SessionEnded {
        try await call("DELETE", "sessions/\(segment(id))")
    }

    // MARK: Journal

    /// The journal's newest matching requests, oldest first, with the count of all matches.
    ///
    /// - Parameters:
    ///   - session: Only this session's requests.
    ///   - path: A path glob, e.g. `/products/*`.
    ///   - method: Only this method.
    ///   - limit: At most this many, the newest.
    public func requests(session: String? = nil, path: String? = nil, method: String? = nil,
                         limit: Int? = nil) async throws(ControlError) -> JournalPage {
        try await call("GET", "requests", query: items(["session": session, "path": path, "method": method,
                                                        "limit": limit.map(String.init)]))
    }

    /// Empties the journal, or one session's part of it; returns how many entries went.
    @discardableResult
    public func clearRequests(session: String? = nil) async throws(ControlError) -> Int {
        try await call("DELETE", "requests", query: items(["session": session]), as: Deleted.self).deleted
    }

    // MARK: Server

    /// The server's version and counters.
    public func health() async throws(ControlError) -> ServerHealth {
        try await call("GET", "health")
    }

    /// Refuses new connections for a while (whole server), as when a phone loses its network.
    ///
    /// - Parameter duration: More than 0 and at most 600 s.
    public func goOffline(for duration: Duration) async throws(ControlError) {
        let (seconds, attoseconds) = duration.components
        _ = try await exchange("POST", "offline", body: ["seconds": Double(seconds) + Double(attoseconds) / 1e18])
    }

    /// The server's seed.
    public func seed() async throws(ControlError) -> UInt64 {
        try await call("GET", "seed", as: Seed.self).seed
    }

    /// Re-seeds the server: every session's generator starts over.
    public func setSeed(_ seed: UInt64) async throws(ControlError) {
        _ = try await exchange("PUT", "seed", body: Seed(seed: seed))
    }

    /// Forgets every rule, session, bucket and journal entry (the seed stays).
    public func reset() async throws(ControlError) {
        _ = try await exchange("POST", "reset")
    }

    // MARK: Scenarios

    /// Loads a scenario shipped with the server (`flaky-network`, `rate-limited`, `expired-token`, `slow-3g`,
    /// `outage-then-recovery`, `broken-stream`), adding its rules after the existing ones.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - session: Scope its rules (and its seed) to this session; server-wide when nil.
    /// - Throws: ``ControlError/Kind/notFound`` for an unknown name.
    @discardableResult
    public func loadScenario(named name: String, session: String? = nil) async throws(ControlError) -> ScenarioLoaded {
        try await call("POST", "scenarios", body: LoadScenario(name: name, scenario: nil, session: session))
    }

    /// Loads a scenario given as a document: its rules, and its seed if it fixes one.
    ///
    /// - Parameters:
    ///   - scenario: The scenario.
    ///   - session: Scope its rules (and its seed) to this session; server-wide when nil.
    @discardableResult
    public func loadScenario(_ scenario: ScenarioDocument, session: String? = nil) async throws(ControlError) -> ScenarioLoaded {
        try await call("POST", "scenarios", body: LoadScenario(name: nil, scenario: scenario, session: session))
    }

    /// An id as one path segment: `/`, `?`, `%` and spaces are percent-encoded.
    func segment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?%")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    private func items(_ pairs: KeyValuePairs<String, String?>) -> [URLQueryItem] {
        pairs.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
    }
}

private struct RuleList: Decodable { var rules: [RuleStatus] }
private struct SessionList: Decodable { var sessions: [SessionInfo] }
/// `{"deleted": N}`, what every DELETE of a list answers.
struct Deleted: Decodable { var deleted: Int }
private struct Seed: Codable, Sendable { var seed: UInt64 }
private struct OpenSession: Encodable, Sendable {
    var id: String?
    var seed: UInt64?
    var profile: String?
}
private struct LoadScenario: Encodable, Sendable {
    var name: String?
    var scenario: ScenarioDocument?
    var session: String?
}
