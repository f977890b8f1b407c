import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyDummyJSON
import UnderstudyTestSupport

/// A real client pointed at an in-process server, with a session of its own, for a single test.
///
/// The tests share one server, as parallel test suites would share a team's Understudy: each harness sends its
/// own `X-Understudy-Session` on every request (through the session configuration, so streams and transfers carry
/// it too), its rules are scoped to that session, and it reads only that session's journal. A test that takes the
/// whole server offline or stops it asks for a server of its own.
struct Harness: Sendable {
    let server: UnderstudyServer
    /// This test's session id.
    let session: String
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
                                        times: times, after: after, session: session))
    }

    /// This session's journal entries for an exact path (and method), oldest first.
    func requests(to path: String, method: String? = nil) -> [JournalEntry] {
        server.journal.entries(session: session, path: path, method: method)
    }

    /// How many of this session's requests reached the server.
    var journalCount: Int {
        server.journal.entries(session: session).count
    }

    /// The entries for `path` once at least `count` are there (streams and hung requests are journaled only when
    /// their connection closes) and the server has caught up with the client, so that a stray extra attempt the
    /// client made before it returned shows up too.
    func settledRequests(to path: String, count: Int, method: String? = nil,
                         within limit: Duration = .seconds(5)) async -> [JournalEntry] {
        await waitUntil(within: limit) { requests(to: path, method: method).count >= count }
        // Caught up: the server has one event loop, so a request sent now (outside this session) is answered only
        // after the loop has handled what the client's connections did before it, an arrival or a close.
        _ = try? await URLSession.shared.data(from: server.baseURL.appending(path: "ping"))
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
///   - ownServer: A server for this test alone (for tests that take it offline or stop it).
///   - etagCache: The client's cache for conditional GETs; none by default.
func withHarness<T>(
    timeoutSeconds: Int = 10,
    retryPolicy: RetryPolicy = .quick,
    sleeper: Sleeper = .continuous,
    extraMiddleware: [any Middleware] = [],
    ownServer: Bool = false,
    etagCache: ETagCache? = nil,
    _ body: (Harness) async throws -> T
) async throws -> T {
    let servers = ownServer ? try TestServers.start() : try SharedServer.get()
    defer { if ownServer { servers.stop() } }
    let server = servers.server
    let session = "it-\(UUID().uuidString)"
    server.faults.startSession(session)
    defer {
        server.faults.removeAll(session: session)
        server.faults.endSession(session)
    }
    let sessionConfiguration = APIClient.Configuration.defaultSessionConfiguration()
    sessionConfiguration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
    sessionConfiguration.urlCache = nil
    sessionConfiguration.httpAdditionalHeaders = ["X-Understudy-Session": session]
    let tokens = TokenStore(refresher: TokenStore.dummyJSONRefresher())
    let probe = AttemptProbe()
    let client = APIClient(configuration: .init(
        baseURL: server.baseURL, sessionConfiguration: sessionConfiguration,
        middleware: extraMiddleware + [probe], retryPolicy: retryPolicy, auth: tokens, etagCache: etagCache,
        sleeper: sleeper))
    let result = try await body(Harness(server: server, session: session, client: client, tokens: tokens, probe: probe))
    if TestServers.mode == "contract" { TestServers.expectRepliesKeptTheDocument(server, session: session) }
    return result
}

/// The server the suite shares, started on first use and left running until the test process ends.
///
/// A lazily initialised global rather than a Mutex: Swift runs the initialiser once under `swift_once`, which
/// ThreadSanitizer sees, whereas it cannot see Synchronization.Mutex's futex (scripts/tsan-suppressions.txt).
enum SharedServer {
    private static let started = Result { () throws -> TestServers in
        try TestServers.start()
    }

    static func get() throws -> TestServers {
        try started.get()
    }
}

/// The server a test's client talks to. With `UNDERSTUDY_INTEGRATION_VIA=proxy` in the environment (`make test`
/// runs the suite three ways) it is an Understudy forwarding to another one (`--upstream`): the tests are the same,
/// so every fault, retry, refresh, stream and transfer is proven on proxied routes as on the built-in ones. Rules,
/// sessions and the journal are the one in front's, where a team's tests would steer it. With `contract`, the one
/// in front also holds the upstream to `openapi/openapi.yaml` (`--spec`), and each test ends by expecting that
/// every reply its session got from the upstream kept the document.
struct TestServers: Sendable {
    let server: UnderstudyServer
    let upstream: UnderstudyServer?

    static var mode: String { ProcessInfo.processInfo.environment["UNDERSTUDY_INTEGRATION_VIA"] ?? "direct" }

    /// The servers of the mode, the one in front on `port`; a proxied front forwards to `upstream` when given one (a
    /// restarted front), else to one started here.
    static func start(port: Int = 0, upstream given: UnderstudyServer? = nil) throws -> TestServers {
        guard mode == "proxy" || mode == "contract" else {
            return TestServers(server: try UnderstudyServer.start(.init(port: port)), upstream: nil)
        }
        let upstream = try given ?? UnderstudyServer.start(.init(port: 0))
        do {
            var configuration = UnderstudyServer.Configuration(port: port)
            configuration.upstream = try Upstream(url: upstream.baseURL.absoluteString)
            // A document that does not load fails the run: a plain proxy in its place would pass with no violation.
            if mode == "contract" { configuration.spec = try OpenAPISpec(contentsOf: document) }
            return TestServers(server: try UnderstudyServer.start(configuration), upstream: upstream)
        } catch {
            if given == nil { upstream.stop() }
            throw error
        }
    }

    func stop() {
        server.stop()
        upstream?.stop()
    }

    /// The project's own document, which the upstream's replies are held to in `contract` mode.
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("openapi/openapi.yaml").path

    /// Every reply `session` got from the upstream kept the document. Requests are not held to it: tests send
    /// invalid ones on purpose (an id past the data, a malformed parameter), and the document says so of them.
    static func expectRepliesKeptTheDocument(_ server: UnderstudyServer, session: String) {
        for entry in server.journal.entries(session: session) {
            for violation in entry.contractViolations where violation.hasPrefix("response.") {
                Issue.record("\(entry.method) \(entry.path) → \(entry.upstreamStatus ?? 0) broke openapi/openapi.yaml: \(violation)")
            }
        }
    }
}

/// Runs a client call and keeps its outcome, so a test can start it in a task and look at the error later.
func outcome<T: Sendable>(_ body: () async throws(APIError) -> T) async -> Result<T, APIError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
