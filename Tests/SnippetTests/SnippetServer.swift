import Foundation
import Understudy
import UnderstudyControl

/// The in-process server behind the documentation's `@Test(.understudySession)` recipe, so it runs rather than
/// only compiles. The plain trait reads `UNDERSTUDY_URL` once, on its first use in the process, and nothing else in
/// the test process uses it; the enclosing suite's trait calls `control()` before each test, so the variable names
/// this server by the time the test's own trait opens its session.
enum SnippetServer {
    private static let server = Result { () throws(ServerError) in try UnderstudyServer.start() }

    static func control() throws -> ControlClient {
        let server = try server.get()
        setenv("UNDERSTUDY_URL", server.baseURL.absoluteString, 1)
        return ControlClient(baseURL: server.baseURL)
    }
}
