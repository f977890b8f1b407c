import UnderstudyWebSocket
import UnderstudyJSON

extension AdminRoutes {
    /// `GET /__understudy/sockets`: every open WebSocket, oldest first, with its messages each way.
    func listSockets() -> HTTPResponse {
        json(.object(JSONObject([.init(key: "sockets", value: .array(sockets.open.map(AdminRoutes.socket)))])))
    }

    /// `POST /__understudy/sockets/send {"text": "…", "path": "/ws/feed", "session": "s", "id": "ws-3"}`: the text
    /// goes to every open socket the filters given pick (all of them with none), through each socket's faults.
    func sendToSockets(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let body = try body(of: request)
        try FaultJSON.allowOnly(["text", "path", "session", "id"], in: body)
        guard let text = body["text"]?.stringValue else {
            throw APIError(400, "Invalid 'text' - the message to send, a string, is required")
        }
        let path = try FaultJSON.string(body["path"], "path"), session = try FaultJSON.string(body["session"], "session")
        let id = try FaultJSON.string(body["id"], "id")
        let sent = sockets.push(.message(.text, Array(text.utf8))) { socket in
            (path == nil || socket.path == path) && (session == nil || socket.session == session)
                && (id == nil || socket.id == id)
        }
        return json(.object(JSONObject([.init(key: "sent", value: .number(JSONNumber(sent)))])))
    }

    /// `POST /__understudy/sockets/{id}/close {"code": 1011, "reason": "…"}` starts the closing handshake (the
    /// reason cut to 123 bytes); `{"reset": true}` drops the connection with no close frame.
    func closeSocket(_ request: HTTPRequest, id: String) throws(APIError) -> HTTPResponse {
        let body = try body(of: request)
        try FaultJSON.allowOnly(["code", "reason", "reset"], in: body)
        let reset: Bool
        switch body["reset"] {
        case nil, .null?: reset = false
        case .bool(let value)?: reset = value
        default: throw APIError(400, "Invalid 'reset' - must be true or false")
        }
        // Cut to the 123 bytes a close frame holds, on a character boundary, when it is sent.
        let reason = try FaultJSON.string(body["reason"], "reason") ?? ""
        var code = WebSocketCloseCode.normal
        if let value = body["code"], value != .null {
            guard let number = value.intValue, (0...4_999).contains(number),
                  WebSocketCloseCode(rawValue: UInt16(number)).maySend else {
                throw APIError(400, "Invalid 'code' - must be a close code a server may send (1000-1003, 1007-1014, 3000-4999)")
            }
            code = WebSocketCloseCode(rawValue: UInt16(number))
        }
        guard !reset || body["code"] == nil && body["reason"] == nil else {
            throw APIError(400, "Invalid 'reset' - a reset sends no close frame, so it takes no 'code' or 'reason'")
        }
        let reached = sockets.push(reset ? .reset : .close(code, reason)) { $0.id == id }
        guard reached > 0 else { throw APIError(404, "No open WebSocket with id '\(id)'") }
        return json(.object(JSONObject([.init(key: reset ? "reset" : "closed", value: .string(id))])))
    }

    private static func socket(_ socket: WebSocketHub.Mailbox) -> JSONValue {
        .object(JSONObject([
            .init(key: "id", value: .string(socket.id)),
            .init(key: "path", value: .string(socket.path)),
            .init(key: "session", value: socket.session.map(JSONValue.string) ?? .null),
            .init(key: "room", value: socket.room.map(JSONValue.string) ?? .null),
            .init(key: "openedAt", value: .string(Timestamp.iso8601(socket.openedAt))),
            .init(key: "sent", value: .number(JSONNumber(socket.sent))),
            .init(key: "received", value: .number(JSONNumber(socket.received))),
        ]))
    }
}
