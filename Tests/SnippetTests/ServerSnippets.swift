import Foundation
import Testing
import Understudy

// Snippets of Understudy's articles (Getting started, the fault cookbook, steering the server).

func snippetInProcessServer() throws {
    // snippet: in-process-server
    let server = try UnderstudyServer.start()            // 127.0.0.1, a free port, built-in data
    defer { server.stop() }
    let url = server.baseURL.appending(path: "products/1")
    // end
    _ = url
}

func snippetConfiguration() throws {
    // snippet: configuration
    var configuration = UnderstudyServer.Configuration(port: 0, catalog: try Catalog.load(directory: "fixtures/collections"))
    configuration.seed = 7                                 // every random choice repeats run after run
    configuration.rules = [FaultRule(match: .init(path: "/products*"), fault: .delay(.milliseconds(300)))]
    configuration.requestLog = { entry in print(entry) }
    let server = try UnderstudyServer.start(configuration)
    // end
    server.stop()
}

func snippetReplayInProcess() throws {
    // snippet: replay-in-process
    var configuration = UnderstudyServer.Configuration()
    configuration.replay = try Recording(contentsOf: URL(fileURLWithPath: "Recordings/shop"))
    let server = try UnderstudyServer.start(configuration)
    // end
    server.stop()
}

func snippetProxyInProcess() throws {
    // snippet: proxy-in-process
    var configuration = UnderstudyServer.Configuration()
    configuration.upstream = try Upstream(url: "https://staging.example.com/v2")
    configuration.record = try RecordingWriter(directory: URL(fileURLWithPath: "Recordings/checkout"))
    let server = try UnderstudyServer.start(configuration)
    try server.faults.add(FaultRule(match: .init(path: "/v2/orders*"), fault: "truncate=200"))
    // end
    server.stop()
}

func snippetServerFromSwift() throws {
    // snippet: server-from-swift
    let server = try UnderstudyServer.start(.init(port: 0))
    try server.faults.add(FaultRule(match: .init(path: "/products/*"), fault: "status=503", times: 2, session: "test-1"))
    try server.faults.add(.status(503, retryAfter: .seconds(1)), match: .init(path: "/products/*"), times: 2)  // typed
    // … drive your client with the header X-Understudy-Session: test-1 …
    #expect(server.journal.entries(session: "test-1", path: "/products/1").count == 3)
    server.faults.endSession("test-1")   // its rules and journal entries go too
    server.goOffline(for: .seconds(2))
    server.reset()
    // end
    server.stop()
}

@Test func faultValuesRenderTheHeaderGrammar() throws {
    // snippet: fault-values
    let slowThenBroken: Fault = .delay(.milliseconds(300)) + .status(503, message: "Back soon", retryAfter: .seconds(2))
    #expect(slowThenBroken.text == "delay=300ms; status=503; message=Back soon; retry-after=2")   // the header's text
    let parsed = try Fault(parsing: "truncate=50%")  // the header grammar, read back
    #expect(parsed == .truncate(percent: 50))
    // end
}

func snippetFaultsInProcess() throws {
    // snippet: faults-in-process
    let server = try UnderstudyServer.start()
    defer { server.stop() }
    try server.faults.add(.hang, match: .init(method: "GET", path: "/products/1"))          // every time
    try server.faults.add(.expireToken, match: .init(path: "/auth/me"), times: 1)           // one refresh
    try server.faults.add(.rateLimit(5, per: .seconds(10)), session: "checkout")            // one session
    try server.faults.add(FaultRule(match: .init(path: "/products/stream"), fault: .dropAfter(events: 3)))
    _ = server.faults.startSession("checkout", seed: 42)
    // end
}

func snippetServingHTTPS(directory: String) throws {
    // snippet: serving-https
    var configuration = UnderstudyServer.Configuration()
    configuration.tls = TLSSettings(identity: .localAuthority(directory: directory), port: 0)   // beside http
    let server = try UnderstudyServer.start(configuration)
    let https = server.secureBaseURL                    // https://127.0.0.1:PORT
    let ca = LocalCertificateAuthority(directory: directory).caCertificatePath
    // end
    _ = (https, ca)
    server.stop()
}

@Test func throttlingInProcess() throws {
    // snippet: throttling-in-process
    let server = try UnderstudyServer.start()
    defer { server.stop() }
    server.faults.startSession("on-the-train", profile: .threeG)                        // every request of it
    try server.faults.add(.rate(bytesPerSecond: 64_000) + .stall(.milliseconds(200) ... .seconds(1)),
                          match: .init(path: "/products*"), session: "images")          // one route, one session
    #expect(Fault.profile(.edge).text == "profile=edge")                                  // a spec like any other
    // end
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func snippetWebSocketEcho(server: UnderstudyServer) async throws {
    // snippet: websocket-echo
    var components = URLComponents(url: server.baseURL.appending(path: "ws/echo"), resolvingAgainstBaseURL: false)!
    components.scheme = "ws"
    let socket = URLSession.shared.webSocketTask(with: components.url!)
    socket.resume()
    try await socket.send(.string("hello"))
    let echoed = try await socket.receive()            // .string("hello")
    socket.cancel(with: .normalClosure, reason: nil)
    // end
    _ = echoed
}

func snippetWebSocketRule(server: UnderstudyServer) throws {
    // snippet: websocket-rule
    try server.faults.add(FaultRule(match: .init(path: "/ws/*"), fault: .stallAfter(events: 1), session: "test-42"))
    // end
}

func snippetWebSocketJournal(server: UnderstudyServer) throws {
    // snippet: websocket-journal
    let socket = try #require(server.journal.entries(session: "test-42", path: "/ws/chat").last?.socket)
    #expect(socket.messages.filter { $0.direction == .received }.count == 3)   // what the app sent
    #expect(socket.records.last?.closeCode == 1000)                            // and how it ended
    // end
}
