import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Understudy
import UnderstudyClient
import UnderstudyLocking
import UnderstudyTestSupport

/// The real reconnecting client over real sockets against Understudy's socket faults, each test on servers of its
/// own (in the proxied runs the sockets are relayed to the upstream, and the faults act in front): what it does after
/// a close that invites it back (1001, 1011), a reset in the middle of a frame, a stall that leaves its pings
/// unanswered, a refused upgrade with Retry-After, a server restart; and when it stops (1008, its budget spent,
/// `close()`).
@Suite struct ReconnectingWebSocketTests {
    /// Quick backoffs and a one-second heartbeat, so the suite waits for real but briefly.
    static let quick = ReconnectPolicy(maximumAttempts: 3, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(100),
                                       heartbeatInterval: .seconds(1), heartbeatTimeout: .seconds(1))

    private func socket(_ server: UnderstudyServer, _ path: String, session: String = "ws",
                        policy: ReconnectPolicy = quick, connections: Locked<Int> = Locked(0)) -> ReconnectingWebSocket {
        var request = URLRequest(url: URL(string: "ws://127.0.0.1:\(server.port)/\(path)")!)
        request.setValue(session, forHTTPHeaderField: "X-Understudy-Session")
        request.timeoutInterval = 5
        return ReconnectingWebSocket(request: request, policy: policy, transport: .sockets) { _ in
            connections.withLock { $0 += 1 }
        }
    }

    /// The events until `stop` says so (included), or the stream ends, within `limit`.
    private func events(of socket: ReconnectingWebSocket, within limit: Duration = .seconds(60),
                        until stop: @escaping @Sendable ([WebSocketEvent]) -> Bool) async -> [WebSocketEvent] {
        await socket.start()
        let collected = Task {
            var seen: [WebSocketEvent] = []
            for await event in socket.events {
                seen.append(event)
                if stop(seen) { break }
            }
            return seen
        }
        let deadline = Task {
            try? await Task.sleep(for: limit)
            await socket.close()
        }
        let seen = await collected.value
        deadline.cancel()
        return seen
    }

    private func connections(_ events: [WebSocketEvent]) -> Int {
        events.filter { if case .connected = $0 { true } else { false } }.count
    }

    private func disconnections(_ events: [WebSocketEvent]) -> [APIError] {
        events.compactMap { if case .disconnected(let error) = $0 { error } else { nil } }
    }

    private func messages(_ events: [WebSocketEvent]) -> [WebSocketMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    /// A close that invites the client back: it reconnects, the hook resubscribes, messages flow again.
    @Test(arguments: [1001, 1011, 1012])
    func aCloseThatInvitesItBackReconnects(code: Int) async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/feed"), fault: "drop-after=2; close=\(code)", times: 1))
        let hooks = Locked(0)
        let seen = await events(of: socket(server, "ws/feed?interval=20", connections: hooks)) { seen in
            self.connections(seen) == 2 && self.messages(seen).count >= 3
        }
        #expect(connections(seen) == 2 && hooks.withLock { $0 } == 2)
        #expect(disconnections(seen).first?.closeCode == code)
        #expect(seen.contains { if case .reconnecting(attempt: 2, _) = $0 { true } else { false } })
        #expect(messages(seen).count >= 3)
    }

    @Test func aResetInTheMiddleOfAFrameIsA1006AndReconnects() async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/feed"), fault: "cut-mid-event=2", times: 1))
        let seen = await events(of: socket(server, "ws/feed?interval=20")) { self.connections($0) == 2 }
        let lost = disconnections(seen).first
        #expect(lost?.closeCode == 1006 && lost?.kind == .connectionLost)
        #expect(messages(seen).count == 1)
        #expect(connections(seen) == 2)
    }

    /// A stalled server answers no ping: the heartbeat gives it a second, drops it as timed out, and reconnects.
    @Test func aStallWithoutPongsIsNoticedByTheHeartbeat() async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: "stall-after=0", times: 1))
        let seen = await events(of: socket(server, "ws/echo")) { self.connections($0) == 2 }
        #expect(disconnections(seen).first?.kind == .timedOut)
        #expect(connections(seen) == 2)
    }

    /// A refused upgrade's Retry-After is the wait before the next attempt.
    @Test func aRefusedUpgradeWaitsForItsRetryAfter() async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: "status=503; retry-after=1", times: 1))
        let seen = await events(of: socket(server, "ws/echo")) { self.connections($0) == 1 }
        let refusal = disconnections(seen).first
        #expect(refusal?.status == 503 && refusal?.kind == .serverError && refusal?.retryAfter == .seconds(1))
        #expect(seen.contains { if case .reconnecting(_, after: .seconds(1)) = $0 { true } else { false } })
        #expect(connections(seen) == 1)
    }

    /// 1008 means "do not come back": the client stops, and its events end.
    @Test(arguments: ["close=1008", "status=403"])
    func aRefusalThatMeansStopEndsTheEvents(fault: String) async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: fault))
        let seen = await events(of: socket(server, "ws/echo")) { _ in false }
        #expect(!seen.contains { if case .reconnecting = $0 { true } else { false } })
        let last = disconnections(seen).last
        #expect(last?.closeCode == 1008 || last?.status == 403)
    }

    /// A server that goes away (1001 on shutdown) and comes back on the same port: the client is there again.
    @Test func aServerRestartIsSurvived() async throws {
        let first = try TestServers.start()
        defer { first.stop() }
        let port = first.server.port
        let policy = ReconnectPolicy(maximumAttempts: 50, baseDelay: .milliseconds(50), maximumDelay: .milliseconds(100),
                                     heartbeatInterval: nil)
        let client = socket(first.server, "ws/echo", policy: policy)
        let restarted = Locked<TestServers?>(nil)
        defer { restarted.withLock { $0?.stop() } }
        let seen = await events(of: client) { seen in
            if self.connections(seen) == 1, self.disconnections(seen).isEmpty, restarted.withLock({ $0 == nil }) {
                // The one the client talks to restarts; a proxied run's upstream stays.
                first.server.stop()
                restarted.withLock { $0 = try? TestServers.start(port: port, upstream: first.upstream) }
            }
            return self.connections(seen) == 2
        }
        #expect(disconnections(seen).first?.closeCode == 1001)
        #expect(connections(seen) == 2)
        try await client.send(.text("back"))
    }

    /// Every attempt refused with a status worth retrying: the client backs off, then gives up after its budget. (A
    /// stopped server's port would do too, but a parallel test's server may be given that port.)
    @Test func itGivesUpOnceItsBudgetIsSpent() async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        try server.faults.add(FaultRule(match: .init(path: "/ws/echo"), fault: "status=503"))
        let client = socket(server, "ws/echo", policy: ReconnectPolicy(maximumAttempts: 2, baseDelay: .milliseconds(10),
                                                                        maximumDelay: .milliseconds(20), heartbeatInterval: nil))
        let seen = await events(of: client) { _ in false }
        let failures = disconnections(seen)
        #expect(failures.count == 3 && failures.allSatisfy { $0.status == 503 && $0.kind == .serverError })
        #expect(seen.filter { if case .reconnecting = $0 { true } else { false } }.count == 2)
        #expect(connections(seen) == 0)
    }

    #if canImport(Glibc)
    /// Nothing listening: each attempt is a `.noConnection`, and the budget ends it. The port is held by a socket
    /// bound but not listening, so no parallel test's server can be given it meanwhile.
    @Test func aRefusedConnectionIsNoConnection() async throws {
        let held = HeldPort(listening: false)
        let port = held.port
        defer { withExtendedLifetime(held) {} }
        #expect(port > 0)
        var request = URLRequest(url: URL(string: "ws://127.0.0.1:\(port)/ws/echo")!)
        request.timeoutInterval = 5
        let client = ReconnectingWebSocket(request: request, policy: ReconnectPolicy(
            maximumAttempts: 1, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20), heartbeatInterval: nil),
                                           transport: .sockets)
        let seen = await events(of: client) { _ in false }
        #expect(disconnections(seen).map(\.kind) == [.noConnection, .noConnection])
    }
    #endif

    /// Messages go both ways, and close() stops everything: the events end with no reconnection.
    @Test func sendAndCloseStopEverything() async throws {
        let servers = try TestServers.start()
        defer { servers.stop() }
        let server = servers.server
        let client = socket(server, "ws/echo")
        let seen = await events(of: client) { seen in
            if seen.count == 1 { Task { try await client.send(.text("héllo")); try await client.send(.data(Data([1, 2]))) } }
            return self.messages(seen).count == 2
        }
        #expect(messages(seen) == [.text("héllo"), .data(Data([1, 2]))])
        await client.close()
        var after: [WebSocketEvent] = []
        for await event in client.events { after.append(event) }
        #expect(!after.contains { if case .reconnecting = $0 { true } else { false } })
        await #expect(throws: APIError.self) { try await client.send(.text("gone")) }
    }

    /// A recorded conversation (`--replay`): the resubscribe hook's message gets the recorded answer; a 1011 after it
    /// brings the client back, and the second upgrade plays the second recorded conversation.
    @Test func aReplayedSocketAnswersTheResubscriptionAndReconnects() async throws {
        func visit(_ number: Int) -> RecordedExchange.Response {
            RecordedExchange.Response(status: 101, messages: [
                RecordedSocketMessage(.server, text: "hello \(number)", milliseconds: 0),
                RecordedSocketMessage(.client, text: "subscribe", milliseconds: 10),
                RecordedSocketMessage(.server, text: "price \(number)", milliseconds: 20),
            ])
        }
        var configuration = UnderstudyServer.Configuration(port: 0)
        configuration.replay = Recording(entries: [Recording.Entry(
            request: RecordedExchange.Request(method: "GET", path: "/live"), responses: [visit(1), visit(2)],
            file: "GET/live.json")])
        let server = try UnderstudyServer.start(configuration)
        defer { server.stop() }
        try server.faults.add(FaultRule(match: .init(path: "/live"), fault: "drop-after=2; close=1011", times: 1))
        var request = URLRequest(url: URL(string: "ws://127.0.0.1:\(server.port)/live")!)
        request.timeoutInterval = 5
        let client = ReconnectingWebSocket(request: request, policy: Self.quick, transport: .sockets) { socket in
            try await socket.send(.text("subscribe"))
        }
        let seen = await events(of: client) { self.messages($0).count == 4 }
        #expect(messages(seen) == [.text("hello 1"), .text("price 1"), .text("hello 2"), .text("price 2")])
        #expect(disconnections(seen).first?.closeCode == 1011)
        #expect(connections(seen) == 2)
        await client.close()
    }
}
