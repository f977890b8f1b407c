import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UnderstudyClient
import UnderstudyControl
import UnderstudyControlTesting

// Snippets of the README and of UnderstudyControl's articles.

func snippetControlClient() async throws {
    // snippet: control-client
    let control = ControlClient(baseURL: URL(string: "http://localhost:8080")!)   // token: for --admin-token
    try await control.addRule(Rule(.status(503, retryAfter: .seconds(1)), path: "/products/*", times: 2))
    try await control.loadScenario(named: "flaky-network", session: "checkout")
    let journal = try await control.requests(session: "checkout", path: "/products/*")   // typed entries, total
    // end
    _ = journal
}

func snippetReadmeDemo() async throws {
    // snippet: readme-demo
    let control = ControlClient.fromEnvironment()        // UNDERSTUDY_URL, default http://localhost:8080
    try await control.reset()                            // a clean stage
    try await control.addRule(Rule(.status(503, retryAfter: .seconds(2)), path: "/products*", times: 2))
    try await control.loadScenario(named: "slow-3g")     // or any shipped scenario
    try await control.goOffline(for: .seconds(5))        // refuse connections for five seconds
    // end
}

func snippetRecordFromATest() async throws {
    // snippet: control-recording
    let control = ControlClient.fromEnvironment()        // CI ran: understudy --upstream https://staging.example.com
    try await control.startRecording(into: "Recordings/checkout", redactedFields: ["cardNumber"])
    let client = APIClient(baseURL: control.baseURL)     // the app's client, pointed at Understudy
    _ = try await client.send(Endpoint<App.Product>(path: "products/1"))
    let recorded = try await control.stopRecording()     // what went in; secrets are placeholders
    #expect(recorded.skipped == 0 && recorded.recordedRoutes == ["GET /products/1"])
    // end
}

func snippetReplayInCI() async throws {
    let control = ControlClient.fromEnvironment()
    let testName = "checkout"
    // snippet: control-replay-misses
    let status = try await control.recordingStatus()    // CI ran: understudy --replay Recordings/checkout
    #expect(status.misses == 0, "calls the recording does not hold: \(status.recentMisses)")
    // With an upstream, keep what a failing test saw, recorded or not (the last 1,000 exchanges):
    try await control.snapshotRecording(into: "FailedRuns/\(testName)")
    // end
}

func snippetTLSFaults() async throws {
    let control = ControlClient.fromEnvironment()
    // snippet: control-tls-faults
    try await control.queueTLSFault(.expired, times: 2)       // TLSFaultKind
    let status = try await control.tlsFaults()                // queued, presented, recent
    try await control.clearTLSFaults()
    // end
    _ = status
}

func snippetTypedTLSFaults() async throws {
    let control = ControlClient.fromEnvironment()
    // snippet: control-tls-fault-typed
    try await control.addTLSFault(Fault.TLS(.expired, times: 2))                // the next two handshakes
    try await control.addTLSFault(Fault.TLS(.reset, serverName: "localhost"))   // every handshake for localhost
    let scenario = ScenarioDocument(description: "A pinning test", rules: [],
                                    tlsFaults: [Fault.TLS(.wrongKey, times: 1)])
    try await control.loadScenario(scenario)                                   // no session: the whole server's
    // end
}

func snippetOneRequest() {
    // snippet: fault-one-request
    var request = URLRequest(url: URL(string: "http://localhost:8080/products/1")!)
    request.understudyFault = .status(503, retryAfter: .seconds(1))   // X-Understudy-Fault: status=503; retry-after=1
    // end
    _ = request
}

/// The app under test in the session recipes: the real client, joined to the test's session.
struct App {
    let client: APIClient

    init(session: UnderstudySession) {
        let configuration = APIClient.Configuration.defaultSessionConfiguration()
        session.configure(configuration)
        client = APIClient(baseURL: session.baseURL, sessionConfiguration: configuration)
    }

    func product(id: Int) async throws -> Product {
        try await client.send(Endpoint<Product>(path: "products/\(id)"))
    }

    struct Product: Decodable, Sendable {
        let id: Int
        let title: String
    }
}

// Runs for real: the suite's trait starts the in-process server the test's own `.understudySession` then finds
// at UNDERSTUDY_URL (SnippetServer).
@Suite(.understudySession { try SnippetServer.control() })
struct SessionSnippets {
    // snippet: session-trait
    @Test(.understudySession) func recoversAfterTwo503s() async throws {
        let session = try #require(UnderstudySession.current)
        try await session.addRule(.status(503), path: "/products/1", times: 2)
        _ = try await App(session: session).product(id: 1)                             // the app's client retries
        #expect(try await session.requests(path: "/products/1").map(\.status) == [503, 503, 200])
    }
    // end
}

func snippetWebSocketFault() {
    // snippet: websocket-fault
    var request = URLRequest(url: URL(string: "ws://localhost:8080/ws/feed?interval=100")!)
    request.understudyFault = .dropAfter(events: 10) + .close(code: 1011, reason: "db down")
    let socket = URLSession.shared.webSocketTask(with: request)
    // end
    socket.cancel()
}

func snippetReconnectingWebSocket() async {
    // snippet: reconnecting-websocket
    let socket = ReconnectingWebSocket(request: URLRequest(url: URL(string: "ws://localhost:8080/ws/feed")!)) { socket in
        try await socket.send(.text(#"{"subscribe": "prices"}"#))     // on every new connection
    }
    await socket.start()
    for await event in socket.events {
        switch event {
        case .message(let message): print(message)
        case .disconnected(let error): print("lost:", error.closeCode ?? 0, error.kind)
        case .connected, .reconnecting: break
        }
    }
    // end
}
