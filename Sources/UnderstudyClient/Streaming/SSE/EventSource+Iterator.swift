import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension EventSource {
    /// Pulls bytes from the current connection, parses them, and reconnects when the connection ends.
    ///
    /// Every error it throws is an ``APIError``.
    public struct Iterator: AsyncIteratorProtocol {
        /// One open connection; closing it (or dropping it) stops the watchdog and cancels the task.
        private final class Connection {
            let streamed: StreamedResponse
            var bytes: ByteStream.Iterator
            let watchdog: IdleWatchdog

            init(_ streamed: StreamedResponse, watchdog: IdleWatchdog) {
                self.streamed = streamed
                self.bytes = streamed.bytes.makeAsyncIterator()
                self.watchdog = watchdog
                watchdog.start { [streamed] in streamed.cancel() }
            }

            deinit {
                watchdog.stop()
                streamed.cancel()
            }
        }

        private let source: EventSource
        private var parser: SSEParser
        private var reconnect: ReconnectState
        private var pending: [ServerSentEvent] = []
        private var connection: Connection?
        private var delivered = false
        private var waitBeforeConnecting: Duration?
        private var finished = false

        init(source: EventSource) {
            self.source = source
            // The ID to resume from until the stream sends one; an `id:` with an empty value clears it.
            self.parser = SSEParser(lastEventID: source.options.lastEventID)
            self.reconnect = ReconnectState(baseDelay: source.options.reconnectDelay,
                                            maximumDelay: source.options.maximumReconnectDelay,
                                            maximumFailures: source.options.maximumFailures)
        }

        /// The next event, or nil once the server has said 204 (or the sequence was cancelled).
        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                if finished { return nil }
                guard let connection else {
                    try await connect()
                    continue
                }
                let chunk: Data?
                do {
                    chunk = try await connection.bytes.next()
                } catch {
                    let failure = connection.watchdog.fired
                        ? APIError(.timedOut, underlying: "no bytes for \(source.options.idleTimeout)")
                        : APIError.classify(error)
                    if failure.kind == .cancelled { return try stop(throwing: failure) }
                    try end(.failed(failure))
                    continue
                }
                guard let chunk else {
                    try end(.endOfStream)
                    continue
                }
                let before = parser.reconnectionTime
                let events = parser.consume(chunk)
                if let time = parser.reconnectionTime, time != before { reconnect.retryChanged(to: time) }
                delivered = delivered || !events.isEmpty
                pending.append(contentsOf: events)
            }
        }

        private mutating func connect() async throws {
            if let wait = waitBeforeConnecting {
                do {
                    try await source.client.configuration.sleeper.sleep(for: wait)
                } catch {
                    _ = try stop(throwing: APIError(.cancelled, underlying: "cancelled while waiting to reconnect"))
                }
            }
            var request: URLRequest
            switch source.request {
            case .success(let built): request = built
            case .failure(let error): return try end(.failed(error))
            }
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.setValue(parser.lastEventID.isEmpty ? nil : parser.lastEventID, forHTTPHeaderField: "Last-Event-ID")
            // URLSession's inactivity timer (whole seconds on Linux) must not cut the stream before the
            // watchdog's own, finer limit does; it still bounds the wait for the response head.
            let idleSeconds = Double(source.options.idleTimeout.components.seconds)
                + Double(source.options.idleTimeout.components.attoseconds) / 1e18
            request.timeoutInterval = Swift.max(request.timeoutInterval, idleSeconds.rounded(.up) + 1)
            let watchdog = IdleWatchdog(timeout: source.options.idleTimeout)
            let streamed: StreamedResponse
            do {
                streamed = try await source.client.stream(request, authenticated: source.authenticated,
                                                          onReceive: { watchdog.touch() })
            } catch {
                if error.kind == .cancelled { _ = try stop(throwing: error) }
                return try end(.failed(error))
            }
            if streamed.response.statusCode == 204 {
                streamed.cancel()
                return try end(.noContent)
            }
            if let type = streamed.response.value(forHTTPHeaderField: "Content-Type"),
               !type.lowercased().hasPrefix("text/event-stream") {
                streamed.cancel()
                var error = APIError(.invalidResponse, underlying: "Content-Type \(type) is not text/event-stream")
                error.status = streamed.response.statusCode
                return try end(.failed(error))
            }
            connection = Connection(streamed, watchdog: watchdog)
            delivered = false
        }

        /// Closes the connection and applies the reconnect decision.
        private mutating func end(_ ending: ReconnectState.Ending) throws {
            connection = nil
            parser.finish()
            let action = reconnect.connectionEnded(ending, deliveredEvents: delivered,
                                                   unit: source.client.configuration.random.next())
            delivered = false
            switch action {
            case .reconnect(let delay):
                waitBeforeConnecting = delay
            case .stop:
                finished = true
            case .fail:
                finished = true
                if case .failed(let error) = ending { throw error }
                throw APIError(.connectionLost, underlying: "gave up after \(reconnect.failures) failed connections")
            }
        }

        private mutating func stop(throwing error: APIError) throws -> ServerSentEvent? {
            connection = nil
            finished = true
            throw error
        }
    }
}
