// The trait is spelled in UnderstudyControl's types (`UnderstudySession.current`, `ControlClient`), so a test that
// imports this module has them without a second import.
@_exported import UnderstudyControl
import Testing

/// A Swift Testing trait that gives each test its own session on a shared Understudy, and ends it afterwards.
///
/// ```swift
/// @Test(.understudySession) func recoversFromTwo503s() async throws {
///     let session = try #require(UnderstudySession.current)
///     try await session.addRule(.status(503), path: "/products/1", times: 2)
///     _ = try await app(headers: session.headers).product(1)
///     #expect(try await session.requests(path: "/products/1").count == 3)
/// }
/// ```
///
/// Why it lives here, against a URL, rather than in a library that links the server: the trait only needs the
/// admin API, so one implementation serves every way a server can run. Why not in `UnderstudyControl`: an app
/// links that library (for `URLRequest.understudyFault`), and an app cannot link Swift Testing. `.understudySession` uses the server at
/// `UNDERSTUDY_URL` (`make run`, a CI job, a server another process owns). A test target that links `Understudy`
/// starts an `UnderstudyServer` once and passes its `baseURL`: `.understudySession { ControlClient(baseURL:
/// shared.baseURL) }`. `UnderstudyTesting` stays free of the server, and the server free of Swift Testing.
///
/// On a suite it applies to each test (and each case of a parameterised test), so tests running in parallel
/// never see each other's rules or journal entries.
public struct UnderstudySessionTrait: TestTrait, SuiteTrait, TestScoping {
    private let control: @Sendable () async throws -> ControlClient
    private let seed: UInt64?
    private let profile: Fault.NetworkProfile?

    /// Applies to every test of a suite it is attached to.
    public var isRecursive: Bool { true }

    init(seed: UInt64?, profile: Fault.NetworkProfile? = nil, control: @escaping @Sendable () async throws -> ControlClient) {
        self.control = control
        self.seed = seed
        self.profile = profile
    }

    /// Opens a session named after the test, runs the test with it as `UnderstudySession.current`, and ends it
    /// whether the test passed, failed or threw.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let session = try await UnderstudySession.open(on: try await control(), id: UnderstudySession.id(forTestNamed: test.name),
                                                       seed: seed, profile: profile)
        do {
            try await UnderstudySession.$current.withValue(session) { try await function() }
        } catch {
            try? await session.end()
            throw error
        }
        try await session.end()
    }

    /// The client every `.understudySession` trait without its own shares: `UNDERSTUDY_URL`.
    static let environmentControl = ControlClient.fromEnvironment()
}

extension Trait where Self == UnderstudySessionTrait {
    /// A session per test on the server at `UNDERSTUDY_URL` (default `http://localhost:8080`), with the token in
    /// `UNDERSTUDY_ADMIN_TOKEN`.
    public static var understudySession: Self {
        UnderstudySessionTrait(seed: nil) { UnderstudySessionTrait.environmentControl }
    }

    /// A session per test on the server a client reaches, e.g. an in-process `UnderstudyServer`'s `baseURL`.
    ///
    /// - Parameters:
    ///   - seed: Every session's seed, so each test repeats exactly (derived from the server's seed and the
    ///     session id when nil).
    ///   - profile: The network every request of each test's session goes through, e.g. `.threeG` (none when
    ///     nil); tests running in parallel are throttled each on its own.
    ///   - control: Makes or returns the client; called before each test, so it can start a shared server lazily.
    /// - Returns: The trait.
    public static func understudySession(seed: UInt64? = nil, profile: Fault.NetworkProfile? = nil,
                                         _ control: @escaping @Sendable () async throws -> ControlClient) -> Self {
        UnderstudySessionTrait(seed: seed, profile: profile, control: control)
    }

    /// A session per test on the server at `UNDERSTUDY_URL`, every request of it through a network profile.
    ///
    /// - Parameter profile: The network, e.g. `.threeG`.
    /// - Returns: The trait.
    public static func understudySession(profile: Fault.NetworkProfile) -> Self {
        UnderstudySessionTrait(seed: nil, profile: profile) { UnderstudySessionTrait.environmentControl }
    }
}
