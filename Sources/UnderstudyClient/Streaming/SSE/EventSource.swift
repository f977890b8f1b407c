import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server-sent event stream as an `AsyncSequence` that reconnects by itself.
///
/// It sends `Accept: text/event-stream`, `Cache-Control: no-cache` and, on reconnect, `Last-Event-ID`; waits
/// between connections as `ReconnectState` decides (honouring `retry:`); stops for good on 204; fails on
/// 4xx statuses and a wrong content type; and treats silence longer than ``Options/idleTimeout`` as a lost
/// connection. Cancelling the consuming task, or leaving the loop, closes the connection.
///
/// ```swift
/// for try await event in client.events(Endpoint<EmptyResponse>(path: "stream")) {
///     print(event.event, event.data)
/// }
/// ```
public struct EventSource: AsyncSequence, Sendable {
    /// Reconnection and timeout settings.
    public struct Options: Sendable {
        /// The base reconnection delay until the server sends `retry:`. Default 1 s.
        public var reconnectDelay: Duration = .seconds(1)
        /// The largest backoff ceiling. Default 30 s.
        public var maximumReconnectDelay: Duration = .seconds(30)
        /// Silence longer than this closes the connection and reconnects. Default 300 s.
        public var idleTimeout: Duration = .seconds(300)
        /// Connections in a row without an event before giving up; nil (the default) never gives up.
        public var maximumFailures: Int?
        /// The `Last-Event-ID` for the first connection, to resume a stream seen earlier.
        public var lastEventID: String = ""

        /// Creates options with the defaults.
        public init() {}
    }

    /// A dispatched event.
    public typealias Element = ServerSentEvent

    let client: APIClient
    let request: Result<URLRequest, APIError>
    let authenticated: Bool
    let options: Options

    /// Creates the iterator; each iterator opens its own connection.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self)
    }
}

extension APIClient {
    /// The endpoint's response as a reconnecting stream of server-sent events.
    ///
    /// - Parameters:
    ///   - endpoint: The stream's endpoint; its `Response` type is not used.
    ///   - options: Reconnection and idle settings.
    /// - Returns: The sequence; nothing is sent until it is iterated.
    public func events<Response>(_ endpoint: Endpoint<Response>,
                                 options: EventSource.Options = .init()) -> EventSource {
        let request = Result { () throws(APIError) -> URLRequest in
            try endpoint.makeRequest(baseURL: baseURL, encoder: configuration.encoder)
        }
        return EventSource(client: self, request: request, authenticated: endpoint.requiresAuthentication,
                           options: options)
    }
}
