import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Understudy
import UnderstudyClient

/// One in-process server on a free loopback port and one real client pointed at it, for a single test.
///
/// A server per test keeps the suite parallel-safe without session ids: every rule and every journal entry
/// belongs to the test that made it. Servers start in milliseconds, so this costs nothing noticeable.
struct Harness: Sendable {
    let server: UnderstudyServer
    let client: APIClient
    /// The client's token store, refreshing through `POST /auth/refresh`.
    let tokens: TokenStore
    /// Every attempt the client made, as it left the middleware chain.
    let probe: AttemptProbe

    /// Adds a global rule: `fault` for requests whose path matches `path` (a glob).
    @discardableResult
    func fault(_ fault: String, on path: String, method: String? = nil, times: Int? = nil, after: Int = 0,
               headers: [String: String] = [:]) throws -> FaultRuleStatus {
        try server.faults.add(FaultRule(match: .init(method: method, path: path, headers: headers), fault: fault,
                                        times: times, after: after))
    }

    /// The journal's entries for an exact path (and method), oldest first.
    func requests(to path: String, method: String? = nil) -> [JournalEntry] {
        server.journal.entries(path: path, method: method)
    }

    /// The entries for `path` once at least `count` are there (streams and hung requests are journaled only when
    /// their connection closes), after a short settle so that a stray extra attempt would show up too.
    func settledRequests(to path: String, count: Int, method: String? = nil,
                         within limit: Duration = .seconds(5)) async -> [JournalEntry] {
        await eventually(within: limit) { requests(to: path, method: method).count >= count }
        try? await Task.sleep(for: .milliseconds(250))
        return requests(to: path, method: method)
    }

    /// Logs in as emilys through the client, so the token store holds a real pair.
    @discardableResult
    func signIn(expiresInMins: Int? = nil) async throws -> LoginResponse {
        try await LiveAuthService(client: client, tokenStore: tokens)
            .login(username: "emilys", password: "emilyspass", expiresInMins: expiresInMins)
    }
}

extension RetryPolicy {
    /// The standard bounds (3 attempts, Retry-After honoured up to 60 s) with millisecond backoffs, so the suite
    /// sleeps for real but briefly.
    static let quick = RetryPolicy(baseDelay: .milliseconds(20), maximumDelay: .milliseconds(100))
}

/// Runs `body` with a fresh server and client, and stops the server afterwards.
///
/// - Parameters:
///   - timeoutSeconds: The session's inactivity timeout; whole seconds, because FoundationNetworking truncates.
///   - retryPolicy: The client's retry policy; quick backoffs by default.
///   - sleeper: How the client waits between attempts and reconnects; real sleeping by default.
///   - extraMiddleware: Middleware outside the probe.
func withHarness<T>(
    timeoutSeconds: Int = 10,
    retryPolicy: RetryPolicy = .quick,
    sleeper: Sleeper = .continuous,
    extraMiddleware: [any Middleware] = [],
    _ body: (Harness) async throws -> T
) async throws -> T {
    let server = try UnderstudyServer.start(.init(port: 0))
    defer { server.stop() }
    let sessionConfiguration = APIClient.Configuration.defaultSessionConfiguration()
    sessionConfiguration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
    sessionConfiguration.urlCache = nil
    let tokens = TokenStore(refresher: TokenStore.dummyJSONRefresher())
    let probe = AttemptProbe()
    let client = APIClient(configuration: .init(
        baseURL: server.baseURL, sessionConfiguration: sessionConfiguration,
        middleware: extraMiddleware + [probe], retryPolicy: retryPolicy, auth: tokens, sleeper: sleeper))
    return try await body(Harness(server: server, client: client, tokens: tokens, probe: probe))
}

/// Polls `condition` every 10 ms until it holds or `limit` passes; returns whether it held.
@discardableResult
func eventually(within limit: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// Runs a client call and keeps its outcome, so a test can start it in a task and look at the error later.
func outcome<T: Sendable>(_ body: () async throws(APIError) -> T) async -> Result<T, APIError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
