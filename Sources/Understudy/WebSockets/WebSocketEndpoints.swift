/// The WebSocket endpoints of the DummyJSON API, answered before its route table: `/ws/echo`. An upgrade request
/// gets its 101 and a socket; anything else to such a path gets the refusal RFC 6455 names for it, as JSON.
enum WebSocketEndpoints {
    /// The answer to `request` when its path is a WebSocket endpoint's; nil for any other path.
    static func answer(to request: HTTPRequest) -> Answer? {
        // OPTIONS is the CORS preflight, which the route table answers on every path.
        guard let endpoint = endpoint(at: request.path), request.method != "OPTIONS" else { return nil }
        // The route table's 405 for any other method; a HEAD is told by the handshake that a socket opens with GET.
        guard request.method == "GET" || request.method == "HEAD" else {
            return .response(RouteMethods.notAllowed(request.method, on: request.path, allowed: ["GET"]).response)
        }
        switch WebSocketHandshake.answer(method: request.method, header: { request.headers[$0] }) {
        case .success(let handshake):
            var response = HTTPResponse(status: 101)
            for field in handshake.headers { response.headers.add(field.name, field.value) }
            let plan = WebSocketPlan(endpoint: endpoint, maximumMessageBytes: WebSocketPlan.defaultMaximumMessageBytes)
            return .reply(response, delivery: .socket(plan))
        case .failure(let refusal):
            return .response(refusal.response)
        }
    }

    private static func endpoint(at path: Substring) -> WebSocketPlan.Endpoint? {
        guard path.hasPrefix("/ws/") else { return nil }
        return WebSocketPlan.Endpoint(rawValue: String(path.dropFirst(4)))
    }
}
