import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries a ``ReconnectingWebSocket``'s connections.
public struct WebSocketTransport: Sendable {
    let connect: @Sendable (URLRequest) async throws(APIError) -> any WebSocketChannel

    /// `URLSessionWebSocketTask` on this session: the transport on Apple platforms, where it is the default.
    ///
    /// On Linux, FoundationNetworking opens WebSockets only through a libcurl built with WebSocket support, which
    /// many distributions' (Debian 12's 7.88) are not; use ``sockets`` there.
    ///
    /// - Parameter session: The session the tasks are made by.
    /// - Returns: The transport.
    public static func urlSession(_ session: URLSession = .shared) -> WebSocketTransport {
        WebSocketTransport { request throws(APIError) in
            try await URLSessionWebSocketChannel.connect(request, session: session)
        }
    }

    /// A plain TCP socket framed by the package's own RFC 6455 codec, for `ws://` URLs only (no TLS): the default on
    /// Linux, where it lets tests reach a local server's sockets.
    public static let sockets = WebSocketTransport { request throws(APIError) in
        try await SocketWebSocketChannel.connect(request)
    }

    /// `urlSession()` on Apple platforms, `sockets` elsewhere.
    public static var platformDefault: WebSocketTransport {
        #if canImport(Darwin)
        .urlSession()
        #else
        .sockets
        #endif
    }
}

/// One connection: messages and pongs as they arrive, then how it ended.
protocol WebSocketChannel: Sendable {
    var events: AsyncStream<WebSocketChannelEvent> { get }
    func send(_ message: WebSocketMessage) async throws(APIError)
    func ping()
    /// Starts the closing handshake; the events end once the server answers.
    func close(code: Int, reason: String)
    /// Drops the connection at once (a heartbeat that went unanswered, a cancellation).
    func abort()
}
