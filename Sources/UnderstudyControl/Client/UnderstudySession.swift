import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session on an Understudy: its own rules, seed and journal, on a server other tests share.
///
/// `UnderstudyControlTesting`'s `.understudySession` trait opens one per test and makes it ``current``; an
/// XCTest suite opens one with its `understudySession()`; anything else with ``open(on:id:seed:profile:)`` and ``end()``. The app under test joins it
/// by sending ``headers`` on its requests (``configure(_:)`` does it for a `URLSessionConfiguration`), or, in a
/// UI test, by reading ``launchArguments``.
public struct UnderstudySession: Sendable {
    /// The id requests carry in `X-Understudy-Session`.
    public let id: String
    /// The session's seed; opening a session with it again repeats the run.
    public let seed: UInt64
    /// The client for the server the session lives on.
    public let control: ControlClient

    /// The session of the running test, set by `UnderstudyControlTesting`'s `.understudySession` trait.
    @TaskLocal public static var current: UnderstudySession?

    /// Opens a session on a server.
    ///
    /// - Parameters:
    ///   - control: The server's client.
    ///   - id: The id (one is made up when nil).
    ///   - seed: Its seed (derived from the server's seed and the id when nil).
    ///   - profile: The network every request of the session goes through (none when nil).
    /// - Returns: The open session.
    public static func open(on control: ControlClient, id: String? = nil, seed: UInt64? = nil,
                            profile: Fault.NetworkProfile? = nil) async throws(ControlError) -> UnderstudySession {
        let info = try await control.openSession(id: id ?? "test-\(UUID().uuidString.prefix(13).lowercased())", seed: seed,
                                                 profile: profile)
        return UnderstudySession(id: info.id, seed: info.seed, control: control)
    }

    /// A session id for a test: its name in the characters a header carries safely, and a random tail so parallel
    /// runs and parameterised cases differ.
    ///
    /// - Parameter name: The test's name.
    /// - Returns: An id of at most 73 bytes.
    public static func id(forTestNamed name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(name.map { allowed.contains($0) ? $0 : "-" }.prefix(64))
        let tail = String((0..<8).map { _ in "0123456789abcdef".randomElement()! })
        return "\(cleaned)-\(tail)"
    }

    /// Ends the session: its rules, buckets and journal entries go.
    public func end() async throws(ControlError) {
        try await control.endSession(id: id)
    }

    /// The server's base URL, for the app's client.
    public var baseURL: URL { control.baseURL }

    /// The header that puts a request in this session.
    public var headers: [String: String] { [UnderstudyHeader.session: id] }

    /// Adds ``headers`` to a configuration, so every request of a `URLSession` made from it is in this session.
    ///
    /// - Parameter configuration: The app's or test's session configuration.
    public func configure(_ configuration: URLSessionConfiguration) {
        var additional = configuration.httpAdditionalHeaders ?? [:]
        additional[UnderstudyHeader.session] = id
        configuration.httpAdditionalHeaders = additional
    }

    /// `-UnderstudyURL <url> -UnderstudySession <id>`: launch arguments for an app under a UI test, which reads
    /// them back with `UserDefaults.standard.string(forKey: "UnderstudyURL")` and `"UnderstudySession"`.
    public var launchArguments: [String] {
        ["-UnderstudyURL", baseURL.absoluteString, "-UnderstudySession", id]
    }

    /// Adds a rule scoped to this session.
    ///
    /// - Parameters:
    ///   - fault: The fault.
    ///   - path: A path glob (every path when nil).
    ///   - method: The method (any when nil).
    ///   - times: The budget (unlimited when nil).
    /// - Returns: The rule as stored.
    @discardableResult
    public func addRule(_ fault: Fault, path: String? = nil, method: String? = nil,
                        times: Int? = nil) async throws(ControlError) -> RuleStatus {
        try await addRule(Rule(fault, match: .init(method: method, path: path), times: times))
    }

    /// Adds a rule, scoped to this session whatever its own `session` says.
    @discardableResult
    public func addRule(_ rule: Rule) async throws(ControlError) -> RuleStatus {
        var scoped = rule
        scoped.session = id
        return try await control.addRule(scoped)
    }

    /// This session's requests in the journal, oldest first.
    ///
    /// - Parameters:
    ///   - path: A path glob.
    ///   - method: Only this method.
    public func requests(path: String? = nil, method: String? = nil) async throws(ControlError) -> [JournalRecord] {
        try await control.requests(session: id, path: path, method: method).requests
    }

    /// Loads a shipped scenario's rules into this session (and its seed, if it has one).
    @discardableResult
    public func loadScenario(named name: String) async throws(ControlError) -> ScenarioLoaded {
        try await control.loadScenario(named: name, session: id)
    }
}
