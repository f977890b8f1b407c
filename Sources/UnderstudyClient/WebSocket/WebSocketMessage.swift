import Foundation

/// One WebSocket message, whole: text or binary.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case data(Data)
}

/// What a ``ReconnectingWebSocket`` reports, in order: each connection, each message, each loss, each wait before
/// the next attempt, and, when it stops for good, why.
public enum WebSocketEvent: Sendable {
    /// A connection is open (attempt 1 is the first); the resubscribe hook has run on it.
    case connected(attempt: Int)
    /// A message from the server.
    case message(WebSocketMessage)
    /// The connection was lost or closed, classified: ``APIError/closeCode`` is the server's close code, if it
    /// sent one.
    case disconnected(APIError)
    /// The next attempt starts after this wait.
    case reconnecting(attempt: Int, after: Duration)
}

/// What one channel (a connection) reports to its owner.
enum WebSocketChannelEvent: Sendable {
    case message(WebSocketMessage)
    case pong
    /// The connection is over: the server's close (its code and reason), or a failure.
    case ended(APIError)
}
