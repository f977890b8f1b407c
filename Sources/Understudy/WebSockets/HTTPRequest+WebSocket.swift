extension HTTPRequest {
    /// Whether the request asks to open a WebSocket (`Upgrade: websocket`); the handshake checks the rest.
    var asksForWebSocket: Bool {
        WebSocketHandshake.tokens(headers["Upgrade"]).contains("websocket")
    }
}
