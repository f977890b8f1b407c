import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyClient
import UnderstudyControl
import UnderstudyControlTesting
import UnderstudyTestSupport

/// The session trait against one `understudy` shared by every test, as `make run` is shared by a UI-test suite.
@Suite(.blocksThreads, .understudySession { ServerProcess.shared.control })
struct UnderstudySessionTraitTests {
    /// The recipe of UnderstudyControl's "Testing your app" article, as written there: "503 twice, then recover" and "3 attempts" from the journal.
    @Test func recoversAfterTwo503s() async throws {
        let session = try #require(UnderstudySession.current)
        try await session.addRule(.status(503), path: "/products/1", times: 2)
        let product = try await App(session: session).product(id: 1)
        #expect(try await session.requests(path: "/products/1").map(\.status) == [503, 503, 200])
        #expect(product.id == 1)
    }

    /// Both cases run at once (each waits until the other has its session), and neither sees the other's rule or
    /// requests.
    @Test(arguments: [0, 1])
    func parallelTestsHaveSeparateSessionsAndJournals(index: Int) async throws {
        let session = try #require(UnderstudySession.current)
        await Overlap.shared.arrive(session.id)
        try #require(await waitUntil(within: .seconds(60)) { await Overlap.shared.count >= 2 }, "the other case opened its session")
        try await session.addRule(.status(500 + index), path: "/products/*")
        let app = App(session: session, attempts: 1)
        for id in 1...3 { _ = try? await app.product(id: id) }
        let journal = try await session.requests()
        #expect(journal.count == 3)
        #expect(journal.allSatisfy { $0.session == session.id && $0.status == 500 + index })
        #expect(try await session.control.rules().filter { $0.rule.session == session.id }.count == 1)
        #expect(await Overlap.shared.ids.count == 2)
    }

    /// The session is the test's own: opened before, ended after (its rules and journal entries with it).
    @Test func theTraitEndsTheSessionAfterTheTest() async throws {
        let control = ServerProcess.shared.control
        let trait: UnderstudySessionTrait = .understudySession(seed: 99) { control }
        let test = try #require(Test.current)
        let opened = Box()
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let session = try #require(UnderstudySession.current)
            #expect(session.seed == 99)
            try await session.addRule(.delay(.milliseconds(1)))
            await opened.set(session.id)
        }
        let id = try #require(await opened.value)
        #expect(!(try await control.sessions().contains { $0.id == id }))
        #expect(!(try await control.rules().contains { $0.rule.session == id }))
        #expect(UnderstudySession.current?.id != id)
    }

    /// A trait with a profile opens each test's session on that network: the server reports it, every request of
    /// the session is throttled by it, and the session it opened is listed with it.
    @Test func aTraitWithAProfileThrottlesTheTestsSession() async throws {
        let control = ServerProcess.shared.control
        let trait: UnderstudySessionTrait = .understudySession(profile: .edge) { control }
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let session = try #require(UnderstudySession.current)
            #expect(try await control.sessions().first { $0.id == session.id }?.profile == .edge)
            var request = URLRequest(url: session.baseURL.appendingPathComponent("products/1"))
            request.understudySession = session.id
            let started = Date()
            let (_, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "X-Understudy-Fault-Applied") == "profile=edge")
            // Edge's 840 ms of latency come before the first byte.
            #expect(Date().timeIntervalSince(started) >= 0.84)
        }
    }

    @Test func theAppJoinsTheSessionByHeaderOrLaunchArguments() throws {
        let session = try #require(UnderstudySession.current)
        #expect(session.headers == ["X-Understudy-Session": session.id])
        let configuration = URLSessionConfiguration.ephemeral
        session.configure(configuration)
        #expect(configuration.httpAdditionalHeaders?["X-Understudy-Session"] as? String == session.id)
        #expect(session.launchArguments == ["-UnderstudyURL", session.baseURL.absoluteString, "-UnderstudySession", session.id])
    }

    @Test func aFaultOnOneRequest() async throws {
        let session = try #require(UnderstudySession.current)
        var request = URLRequest(url: session.baseURL.appendingPathComponent("products/1"))
        request.understudySession = session.id
        request.understudyFault = .status(418, message: "Teapot") + .delay(.milliseconds(5))
        #expect(request.value(forHTTPHeaderField: "X-Understudy-Fault") == "status=418; message=Teapot; delay=5ms")
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 418)
        let applied = try #require(http.value(forHTTPHeaderField: "X-Understudy-Fault-Applied"))
        #expect(try Fault(parsing: applied) == request.understudyFault)
        request.setFault(.none)
        #expect(request.value(forHTTPHeaderField: "X-Understudy-Fault") == nil)
    }
}

/// The app under test, in miniature: UnderstudyClient with its retries, joined to the session by header.
struct App {
    struct Product: Decodable, Sendable {
        let id: Int
        let title: String
    }

    let client: APIClient

    init(session: UnderstudySession, attempts: Int = 3) {
        let configuration = APIClient.Configuration.defaultSessionConfiguration()
        session.configure(configuration)
        client = APIClient(baseURL: session.baseURL, sessionConfiguration: configuration,
                           retryPolicy: RetryPolicy(maximumAttempts: attempts, baseDelay: .milliseconds(20)))
    }

    func product(id: Int) async throws -> Product {
        try await client.send(Endpoint<Product>(path: "products/\(id)"))
    }
}

/// Session ids seen by the parallel cases, so each can wait for the other.
actor Overlap {
    static let shared = Overlap()
    private(set) var ids: Set<String> = []
    var count: Int { ids.count }
    func arrive(_ id: String) { ids.insert(id) }
}

actor Box {
    private(set) var value: String?
    func set(_ value: String) { self.value = value }
}
