import UnderstudyControl
import UnderstudyControlTesting
import XCTest

/// The XCTest helper, for suites not yet on Swift Testing: a session per test, ended in teardown.
final class XCTestSessionTests: XCTestCase {
    func testASessionIsOpenForTheTest() async throws {
        let control = ServerProcess.shared.control
        let session = try await understudySession(on: control)
        let open = try await control.sessions()
        XCTAssertTrue(open.contains { $0.id == session.id })
        try await session.addRule(.status(503), path: "/ping", times: 1)
        let rules = try await session.control.rules()
        XCTAssertEqual(rules.filter { $0.rule.session == session.id }.count, 1)
        XCTAssertTrue(session.id.hasPrefix("testASessionIsOpenForTheTest") || session.id.contains("testASessionIsOpenForTheTest"))
    }

    /// The UI-test recipe of UnderstudyControl's "Testing your app" article, with UnderstudyClient in place of the app on a simulator.
    func testRecoversAfterTwo503s() async throws {
        let session = try await understudySession(on: ServerProcess.shared.control)
        try await session.addRule(.status(503), path: "/products/1", times: 2)
        _ = try await App(session: session).product(id: 1)
        let journal = try await session.requests(path: "/products/1")
        XCTAssertEqual(journal.count, 3)
    }

    /// A UI test is `@MainActor`: the helper runs on the caller's actor, so Swift 6 accepts this call (without the
    /// `isolation` parameter it would send the non-Sendable test case to another executor and not compile).
    @MainActor func testTheHelperIsCallableFromTheMainActor() async throws {
        let session = try await understudySession(on: ServerProcess.shared.control)
        let open = try await session.control.sessions()
        XCTAssertTrue(open.contains { $0.id == session.id })
    }
}
