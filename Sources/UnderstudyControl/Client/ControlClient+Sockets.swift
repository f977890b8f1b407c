import Foundation

extension ControlClient {
    // MARK: WebSockets

    /// The WebSockets open on the server, oldest first (`GET /__understudy/sockets`).
    ///
    /// - Throws: ``ControlError``.
    public func sockets() async throws(ControlError) -> [SocketInfo] {
        try await call("GET", "sockets", as: SocketList.self).sockets
    }

    /// Pushes a text message to the open sockets of `path`, of `session`, or to the one with `id`; to every open
    /// socket when none is given (`POST /__understudy/sockets/send`).
    ///
    /// ```swift
    /// let reached = try await control.send(toSockets: #"{"type":"announcement"}"#, path: "/ws/feed")
    /// ```
    ///
    /// The message goes through each socket's faults, as the endpoint's own messages do.
    ///
    /// - Parameters:
    ///   - text: The message.
    ///   - path: Only sockets of this endpoint, e.g. `/ws/feed`.
    ///   - session: Only sockets opened with this `X-Understudy-Session`.
    ///   - id: Only this socket.
    /// - Returns: How many sockets the message reached; 0 is no error.
    /// - Throws: ``ControlError``.
    @discardableResult
    public func send(toSockets text: String, path: String? = nil, session: String? = nil,
                     id: String? = nil) async throws(ControlError) -> Int {
        try await call("POST", "sockets/send", body: SocketMessage(text: text, path: path, session: session, id: id),
                       as: SocketsReached.self).sent
    }

    /// Closes the socket `id` with `code` and `reason` (`POST /__understudy/sockets/{id}/close`).
    ///
    /// - Parameters:
    ///   - id: A socket's id, from ``sockets()``.
    ///   - code: A close code a server may send: 1000–1003, 1007–1014 or 3000–4999.
    ///   - reason: The reason, cut to 123 bytes of UTF-8 on a character boundary.
    /// - Throws: ``ControlError``; ``ControlError/Kind/notFound`` when no socket with that id is open.
    public func closeSocket(_ id: String, code: Int = 1000, reason: String = "") async throws(ControlError) {
        _ = try await exchange("POST", "sockets/\(segment(id))/close", body: SocketClose(code: code, reason: reason))
    }

    /// Drops the socket `id` with no close frame, as a network failure would: the client sees 1006
    /// (`POST /__understudy/sockets/{id}/close {"reset": true}`).
    ///
    /// - Parameter id: A socket's id, from ``sockets()``.
    /// - Throws: ``ControlError``; ``ControlError/Kind/notFound`` when no socket with that id is open.
    public func resetSocket(_ id: String) async throws(ControlError) {
        _ = try await exchange("POST", "sockets/\(segment(id))/close", body: SocketReset(reset: true))
    }
}

private struct SocketList: Decodable { var sockets: [SocketInfo] }
private struct SocketsReached: Decodable { var sent: Int }
private struct SocketMessage: Encodable, Sendable {
    var text: String
    var path: String?
    var session: String?
    var id: String?
}
private struct SocketClose: Encodable, Sendable {
    var code: Int
    var reason: String
}
private struct SocketReset: Encodable, Sendable { var reset: Bool }
