/// One WebSocket open on the server, as `GET /__understudy/sockets` lists it.
public struct SocketInfo: Sendable, Hashable, Codable {
    /// The id ``ControlClient/closeSocket(_:code:reason:)`` takes, e.g. `ws-1`.
    public let id: String
    /// The endpoint: `/ws/echo`, `/ws/feed` or `/ws/chat`.
    public let path: String
    /// The `X-Understudy-Session` of its upgrade, if any.
    public let session: String?
    /// The chat room of a `/ws/chat` socket.
    public let room: String?
    /// When it opened, as an ISO 8601 timestamp with milliseconds.
    public let openedAt: String
    /// Messages the server numbered on it: sent, left out by a fault, or cut.
    public let sent: Int
    /// Messages the client sent on it.
    public let received: Int
}
