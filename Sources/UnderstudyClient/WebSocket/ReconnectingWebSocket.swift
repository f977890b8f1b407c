import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket that stays connected: messages as an `AsyncSequence` (``events``), `send`, a heartbeat that notices a
/// dead connection, reconnection with exponential backoff and jitter (``ReconnectPolicy``), a hook that
/// resubscribes on every new connection, and `close()` that stops everything.
///
/// ```swift
/// let socket = ReconnectingWebSocket(request: URLRequest(url: feedURL)) { socket in
///     try await socket.send(.text(#"{"subscribe":"prices"}"#))      // again after every reconnection
/// }
/// await socket.start()
/// for await event in socket.events {
///     if case .message(let message) = event { handle(message) }
/// }
/// ```
///
/// Failures are ``APIError``s, classified as the HTTP client's are: a refused upgrade carries its status and
/// `Retry-After`, a close its ``APIError/closeCode`` and ``APIError/closeReason`` (1006 when the connection ended
/// with no close frame), an unanswered heartbeat is ``APIError/Kind/timedOut``. ``events`` ends when the policy
/// gives up or `close()` is called; the last `disconnected` event says why.
public actor ReconnectingWebSocket {
    /// Everything that happens to the socket, in order; ends when it stops for good.
    public nonisolated let events: AsyncStream<WebSocketEvent>
    private let continuation: AsyncStream<WebSocketEvent>.Continuation
    private let request: URLRequest
    private let policy: ReconnectPolicy
    private let transport: WebSocketTransport
    private let onConnect: @Sendable (ReconnectingWebSocket) async throws -> Void
    private let random: RandomSource
    private var channel: (any WebSocketChannel)?
    private var runner: Task<Void, Never>?
    private var pongs = 0
    private var heartbeatFailed = false

    /// A socket for `request`, not yet connected (``start()`` connects).
    ///
    /// - Parameters:
    ///   - request: The upgrade request: its URL (`ws://`, `wss://`), headers and timeout.
    ///   - policy: When to reconnect, and the heartbeat.
    ///   - transport: What carries the connections; URLSession on Apple platforms, a plain socket on Linux.
    ///   - onConnect: Runs on every new connection before it is reported (resubscribe here); an error it throws
    ///     counts as a failed connection.
    public init(request: URLRequest, policy: ReconnectPolicy = .standard, transport: WebSocketTransport = .platformDefault,
                onConnect: @escaping @Sendable (ReconnectingWebSocket) async throws -> Void = { _ in }) {
        self.init(request: request, policy: policy, transport: transport, random: .system, onConnect: onConnect)
    }

    init(request: URLRequest, policy: ReconnectPolicy, transport: WebSocketTransport, random: RandomSource,
         onConnect: @escaping @Sendable (ReconnectingWebSocket) async throws -> Void) {
        self.request = request
        self.policy = policy
        self.transport = transport
        self.random = random
        self.onConnect = onConnect
        (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
    }

    /// Connects, and keeps connecting, until the policy gives up or ``close(code:reason:)``; calling it again does
    /// nothing.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await run() }
    }

    /// Sends `message` on the current connection.
    ///
    /// - Parameter message: The message.
    /// - Throws: ``APIError``: ``APIError/Kind/connectionLost`` when no connection is open right now.
    public func send(_ message: WebSocketMessage) async throws(APIError) {
        guard let channel else { throw APIError(.connectionLost, underlying: "the WebSocket is not connected") }
        try await channel.send(message)
    }

    /// Closes the connection with `code` and stops: no reconnection, and ``events`` ends.
    ///
    /// - Parameters:
    ///   - code: The close code (1000 unless given).
    ///   - reason: The close frame's reason.
    public func close(code: Int = 1000, reason: String = "") {
        runner?.cancel()
        channel?.close(code: code, reason: reason)
        channel = nil
        continuation.finish()
    }

    /// Connection after connection, with the policy's waits between them.
    private func run() async {
        var failures = 0
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            let failure: APIError
            do {
                let opened = try await transport.connect(request)
                guard !Task.isCancelled else { return opened.abort() }
                channel = opened
                try await onConnect(self)
                continuation.yield(.connected(attempt: attempt))
                let (ended, heard) = await pump(opened)
                if heard { failures = 0 }
                failure = ended
                continuation.yield(.disconnected(ended))
            } catch let error as APIError {
                failure = error
                continuation.yield(.disconnected(error))
            } catch {
                failure = APIError.classify(error)
                continuation.yield(.disconnected(failure))
            }
            channel?.abort()
            channel = nil
            failures += 1
            guard !Task.isCancelled,
                  let wait = policy.reconnectDelay(after: failure, failures: failures, unit: random.next()) else { break }
            continuation.yield(.reconnecting(attempt: attempt + 1, after: wait))
            do { try await Task.sleep(for: wait) } catch { break }
        }
        continuation.finish()
    }

    /// One connection's events until it ends, with the heartbeat alongside: how it ended, and whether a message
    /// came (a connection that carried messages resets the failures in a row).
    private func pump(_ opened: any WebSocketChannel) async -> (APIError, Bool) {
        heartbeatFailed = false
        let heartbeat = policy.heartbeatInterval.map { interval in
            Task { await beat(opened, every: interval) }
        }
        defer { heartbeat?.cancel() }
        var heard = false
        for await event in opened.events {
            switch event {
            case .message(let message):
                heard = true
                continuation.yield(.message(message))
            case .pong:
                pongs += 1
            case .ended(let error):
                return (heartbeatFailed ? APIError(.timedOut, underlying: "no pong within the heartbeat's timeout") : error, heard)
            }
        }
        return (APIError(.cancelled), heard)
    }

    /// Pings every `interval`; a ping with no pong within the timeout drops the connection.
    private func beat(_ opened: any WebSocketChannel, every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let before = pongs
            opened.ping()
            do { try await Task.sleep(for: policy.heartbeatTimeout) } catch { return }
            if pongs == before {
                heartbeatFailed = true
                opened.abort()
                return
            }
        }
    }
}
