/// The WebSocket endpoints of the DummyJSON API, answered before its route table: `/ws/echo`, `/ws/feed` and
/// `/ws/chat`. An
/// upgrade request gets its 101 and a socket with its faults; anything else to such a path gets the refusal RFC 6455
/// names for it, as JSON.
enum WebSocketEndpoints {
    /// Whether `request` is for a WebSocket endpoint (OPTIONS, the CORS preflight, is the route table's on every
    /// path).
    static func claims(_ request: HTTPRequest) -> Bool {
        request.method != "OPTIONS" && endpoint(at: request.path) != nil
    }

    /// The answer to `request`, an endpoint's (`claims`): the 101 with a socket that carries out `fault`'s socket
    /// directives, drawing on `seed`, or the refusal.
    static func answer(to request: HTTPRequest, fault: FaultSpec?, seed: UInt64) -> Answer {
        guard let endpoint = endpoint(at: request.path) else {
            return .response(APIError(404, "No WebSocket at '\(request.path)'").response)
        }
        // The route table's 405 for any other method; a HEAD is told by the handshake that a socket opens with GET.
        guard request.method == "GET" || request.method == "HEAD" else {
            return .response(RouteMethods.notAllowed(request.method, on: request.path, allowed: ["GET"]).response)
        }
        var plan = WebSocketPlan(endpoint: endpoint)
        plan.faults = WebSocketFaults(fault)
        plan.seed = seed
        plan.session = request.session
        do throws(APIError) {
            switch endpoint {
            case .feed: plan.feed = try feed(request)
            case .chat: plan.room = try room(request)
            case .echo: break
            }
        } catch {
            return .response(error.response)
        }
        return accept(request, plan: plan)
    }

    /// The handshake's answer to `request`: its 101 (with `headers` besides its own, a replayed socket's recorded
    /// ones, but for the recorded handshake's, which would name a subprotocol this client may not have offered) and a
    /// socket that carries out `plan`, or the refusal RFC 6455 names.
    static func accept(_ request: HTTPRequest, plan: WebSocketPlan, headers: HTTPHeaders = HTTPHeaders()) -> Answer {
        switch WebSocketHandshake.answer(method: request.method, header: { request.headers[$0] }) {
        case .success(let handshake):
            var response = HTTPResponse(status: 101)
            for field in handshake.headers { response.headers.add(field.name, field.value) }
            for field in headers where !field.name.lowercased().hasPrefix("sec-websocket-") {
                response.headers.add(field.name, field.value)
            }
            return .reply(response, delivery: .socket(plan))
        case .failure(let refusal):
            return .response(refusal.response)
        }
    }

    /// `/ws/feed`'s `interval` (10 ms to 60 s, 1 s unless given) and `count` (1 to 1,000,000; endless unless given).
    private static func feed(_ request: HTTPRequest) throws(APIError) -> WebSocketPlan.Feed {
        var feed = WebSocketPlan.Feed()
        feed.intervalMilliseconds = try request.wholeNumber("interval", in: 10...60_000) ?? feed.intervalMilliseconds
        feed.count = try request.wholeNumber("count", in: 1...1_000_000)
        return feed
    }

    /// `/ws/chat`'s `room`: 1 to 64 characters, `lobby` unless given.
    private static func room(_ request: HTTPRequest) throws(APIError) -> String {
        guard let room = request.query["room"] else { return "lobby" }
        guard (1...64).contains(room.count) else {
            throw APIError(400, "Invalid 'room' - must be 1 to 64 characters")
        }
        return room
    }

    private static func endpoint(at path: Substring) -> WebSocketPlan.Endpoint? {
        guard path.hasPrefix("/ws/") else { return nil }
        return WebSocketPlan.Endpoint(rawValue: String(path.dropFirst(4)))
    }
}
