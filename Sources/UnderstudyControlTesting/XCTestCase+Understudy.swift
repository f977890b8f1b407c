#if canImport(XCTest)
import XCTest

extension XCTestCase {
    /// Opens a session for this test and ends it when the test finishes: the XCTest counterpart of the
    /// `.understudySession` trait, for suites not yet on Swift Testing and for UI tests (Swift Testing does not
    /// drive `XCUIApplication`).
    ///
    /// ```swift
    /// @MainActor func testRecovers() async throws {
    ///     let session = try await understudySession()
    ///     try await session.addRule(.status(503), path: "/products/1", times: 2)
    ///     let app = XCUIApplication(); app.launchArguments += session.launchArguments; app.launch()
    /// }
    /// ```
    ///
    /// It runs on the caller's actor (`isolation`), so a `@MainActor` test — every UI test — calls it without
    /// sending its non-Sendable `self` to another executor, which Swift 6 rejects; only the Sendable session
    /// and client cross to the network.
    ///
    /// - Parameters:
    ///   - control: The server's client (`UNDERSTUDY_URL` by default).
    ///   - seed: The session's seed.
    ///   - profile: The network every request of the session goes through (none when nil).
    ///   - isolation: The caller's actor; leave it to its default.
    /// - Returns: The open session.
    public func understudySession(on control: ControlClient = .fromEnvironment(), seed: UInt64? = nil,
                                  profile: Fault.NetworkProfile? = nil,
                                  isolation: isolated (any Actor)? = #isolation) async throws -> UnderstudySession {
        let session = try await UnderstudySession.open(on: control, id: UnderstudySession.id(forTestNamed: name), seed: seed,
                                                       profile: profile)
        addTeardownBlock {
            try? await session.end()
        }
        return session
    }
}
#endif
