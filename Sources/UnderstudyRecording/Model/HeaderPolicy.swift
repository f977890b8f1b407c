/// Which header lines a recording keeps: the ones a replay or a reviewer needs, not the ones the transport or the
/// proxy adds or that change on every run.
enum HeaderPolicy {
    /// Request headers that describe the connection or the client, not the API call.
    static let droppedRequestHeaders: Set<String> = [
        "host", "connection", "keep-alive", "content-length", "transfer-encoding", "te", "upgrade", "accept-encoding",
        "proxy-connection", "proxy-authorization", "user-agent", "if-none-match", "if-modified-since",
        "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded",
        // A WebSocket's handshake is made fresh by each client and server; its subprotocol is the API's and stays.
        "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
    ]

    /// Response headers the replaying server sets itself (framing, dates, ETags of the bytes it sends).
    static let droppedResponseHeaders: Set<String> = [
        "connection", "keep-alive", "content-length", "transfer-encoding", "te", "trailer", "upgrade",
        "proxy-connection", "date", "etag", "age", "sec-websocket-accept", "sec-websocket-extensions",
    ]

    /// Headers of Understudy's own (fault directives, sessions, what a fault did) never belong to the API.
    static func isOwn(_ lowercasedName: String) -> Bool {
        lowercasedName.hasPrefix("x-understudy-")
    }

    /// The request lines worth keeping, in order.
    static func keptRequestHeaders(_ headers: [RecordedExchange.Header]) -> [RecordedExchange.Header] {
        headers.filter {
            let name = $0.name.lowercased()
            return !droppedRequestHeaders.contains(name) && !isOwn(name)
        }
    }

    /// The response lines worth keeping, in order.
    static func keptResponseHeaders(_ headers: [RecordedExchange.Header]) -> [RecordedExchange.Header] {
        headers.filter {
            let name = $0.name.lowercased()
            return !droppedResponseHeaders.contains(name) && !isOwn(name)
        }
    }
}
