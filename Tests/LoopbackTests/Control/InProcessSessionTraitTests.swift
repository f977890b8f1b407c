import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyControl
import UnderstudyControlTesting

/// The same session trait against an in-process server: a target that links `Understudy` starts one and points
/// the trait at its `baseURL`, and the in-process API takes the same typed faults.
@Suite(.understudySession { ControlClient(baseURL: SharedServer.server.baseURL) })
struct InProcessSessionTraitTests {
    @Test func theTraitWorksOnAnInProcessServer() async throws {
        let session = try #require(UnderstudySession.current)
        #expect(SharedServer.server.faults.sessions.contains { $0.id == session.id })
        // Set up in-process, observe remotely: one vocabulary and one session either way.
        try SharedServer.server.faults.add(.status(503), match: .init(path: "/products/1"), times: 1,
                                                        session: session.id)
        var request = URLRequest(url: session.baseURL.appendingPathComponent("products/1"))
        request.understudySession = session.id
        for _ in 0..<2 { _ = try await URLSession.shared.data(for: request) }
        #expect(try await session.requests(path: "/products/1").map(\.status) == [503, 200])
        #expect(SharedServer.server.journal.entries(session: session.id, path: "/products/1").count == 2)
    }
}

/// One server for the suite's tests, as a test target would share it; it lives as long as the process. (Not a
/// static of the suite itself: the `@Suite` attribute cannot refer to the type it is attached to.)
enum SharedServer {
    static let server = try! UnderstudyServer.start()
}
