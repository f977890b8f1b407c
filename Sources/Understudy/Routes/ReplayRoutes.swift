import UnderstudyRecording

/// Answers every request outside `/__understudy` from a recording (`--replay DIR`) instead of the DummyJSON routes.
///
/// A hit is a reply like a routed one, so faults, ETag/304, CORS, sessions and the journal treat it the same; each
/// recorded response is prepared once (its body shared, its ETag computed), so a replayed route costs a key and a
/// lookup. A miss is a value (``ReplayMiss``): the pipeline answers it with ``missResponse(_:)``, and a proxy may
/// forward the request instead.
struct ReplayRoutes: Sendable {
    /// What the recording says about a request.
    enum Answer: Sendable {
        /// The recorded answer; `always` when it is the only one its request has, so every later identical
        /// request gets the same bytes (and the pipeline may can it).
        case hit(HTTPResponse, always: Bool)
        /// A recorded WebSocket: its 101's recorded headers, and the conversation to play.
        case socket(HTTPResponse, WebSocketScript)
        case miss(ReplayMiss)
    }

    /// `METHOD /path` of every recorded request, in the recording's order.
    let routes: [String]
    private let matcher: ReplayMatcher
    /// Every entry's answers, ready to send (a reply, or a socket's conversation), in the recording's order.
    private let prepared: [[Answer]]

    /// Headers a recording may hold (hand-edited) that the transport sets itself.
    private static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive", "etag", "date"]

    init(_ recording: Recording) {
        // `_fault` asks this server for a fault; it was never part of the API that was recorded.
        matcher = ReplayMatcher(recording, adding: RecordingOptions(ignoredQueryParameters: ["_fault"]))
        prepared = recording.entries.map { entry in
            entry.responses.map { Self.answer(for: $0, always: entry.responses.count == 1) }
        }
        routes = recording.entries.map { "\($0.request.method) \($0.request.path)" }
    }

    /// The recorded reply to `incoming`, or the miss; a `HEAD` nobody recorded is answered as its `GET`.
    func answer(_ incoming: HTTPRequest) -> Answer {
        var request = incoming.recorded(allHeaders: false)
        var picked = matcher.pick(request)
        if case .failure = picked, request.method == "HEAD" {
            request.method = "GET"
            if case .success(let position) = matcher.pick(request) { picked = .success(position) }
        }
        switch picked {
        case .success(let position):
            return prepared[position.entry][position.response]
        case .failure(let miss): return .miss(miss)
        }
    }

    /// The reply to a miss: a JSON 502 naming the request and the nearest recordings, marked `X-Understudy-Replay:
    /// miss` so a test (or the control room) tells it from an upstream's own 502.
    static func missResponse(_ miss: ReplayMiss) -> HTTPResponse {
        var response = HTTPResponse.message(miss.message, status: ReplayMiss.status)
        response.headers.add(ReplayMiss.header.name, ReplayMiss.header.value)
        return response
    }

    /// A recorded answer as sent: a 101 is a socket to play, anything else a reply (`always` when its request has
    /// no other).
    private static func answer(for recorded: RecordedExchange.Response, always: Bool) -> Answer {
        let response = prepare(recorded)
        return recorded.status == 101 ? .socket(response, WebSocketScript(recorded.messages)) : .hit(response, always: always)
    }

    private static func prepare(_ recorded: RecordedExchange.Response) -> HTTPResponse {
        var headers = HTTPHeaders()
        for field in recorded.headers where !framingHeaders.contains(field.name.lowercased()) {
            headers.add(field.name, field.value)
        }
        guard !recorded.body.isEmpty else { return HTTPResponse(status: recorded.status, headers: headers) }
        let body = SharedBytes(recorded.body)
        return HTTPResponse(status: recorded.status, headers: headers, body: .shared(body),
                            etag: recorded.status == 200 ? HTTPResponse.weakETag(for: body) : nil)
    }
}
