import Foundation
import SmokeApp
import Testing
import UnderstudyControlTesting

/// On an iOS simulator, against the `understudy` the CI job started on the Mac: `localhost` reaches it (over ::1
/// or 127.0.0.1), and a session's rule faults only this test's requests.
@Suite(.understudySession)
struct SimulatorSmokeTests {
    @Test func theAppReachesUnderstudyThroughLocalhostAndSeesItsFault() async throws {
        let session = try #require(UnderstudySession.current)
        #expect(session.baseURL.host == "localhost")
        try await session.addRule(.status(503), path: "/products/1", times: 1)
        let loader = ProductLoader(session: session.id)
        #expect(try await loader.product(id: 1).status == 503)
        let second = try await loader.product(id: 1)
        #expect(second.status == 200)
        #expect(String(decoding: second.body, as: UTF8.self).contains("Silk Veil Foundation"))
        #expect(try await session.requests(path: "/products/1").map(\.status) == [503, 200])
    }
}
