/// Answers from a recording (`--replay DIR`) instead of the DummyJSON routes. A hit is a reply like a routed one,
/// so faults, ETag/304, CORS, sessions and the journal treat it the same; a miss is a JSON 502 naming the nearest
/// recordings, or with an upstream (`--upstream` too) forwarded to it, and recorded with `--record`.
///
/// An answer that is the only one its request has is canned after its first plain GET, and later plain GETs of that
/// target take the fast path.
final class ReplayResponder: Responder {
    let routes: ReplayRoutes
    /// Where a miss goes, when there is an upstream.
    let fallback: UpstreamResponder?
    /// Counts the misses, for `/__understudy/recording` (a recording to fill in is what they ask for).
    let recorder: Recorder
    /// Every replayed socket that is open.
    let sockets: WebSocketHub
    /// Whether any fault rule is installed: an answer is canned only from a GET no rule could have acted on.
    private let rulesInstalled: () -> Bool
    /// Recorded answers that never change, canned the first time each target is served, by target.
    @exclusivity(unchecked) private var canned: [String: CannedReply] = [:]
    static let maximumCannedReplies = 4_096

    init(routes: ReplayRoutes, fallback: UpstreamResponder?, recorder: Recorder, sockets: WebSocketHub,
         rulesInstalled: @escaping () -> Bool) {
        self.routes = routes
        self.fallback = fallback
        self.recorder = recorder
        self.sockets = sockets
        self.rulesInstalled = rulesInstalled
    }

    /// A replay sends what the recorded API sent: DummyJSON's counters would be headers it never had.
    var sendsRateLimitWindow: Bool { false }

    func cannedReply(for request: HTTPRequest) -> CannedAnswer? {
        guard !canned.isEmpty, let reply = canned[request.target] else { return nil }
        return (reply, 0)
    }

    /// An upgrade asks for a recorded socket, whose faults act on its messages. With an upstream, a request's kind
    /// is known once it is answered (a miss is forwarded): either kind's directives may act.
    func kind(of request: HTTPRequest) -> RequestKind {
        guard fallback == nil else { return .forwarded }
        return request.asksForWebSocket ? .socket : .body
    }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        switch routes.answer(request) {
        case .hit(let response, let always):
            // A plain GET of an answer that never changes is sent from the fast path from now on.
            if always, isPlain(request) { remember(response, for: request.target) }
            return .response(response)
        case .socket(let recorded, let script):
            var plan = WebSocketPlan(replaying: script, path: String(request.path))
            plan.faults = WebSocketFaults(fault)
            plan.seed = seed
            plan.session = request.session
            return WebSocketEndpoints.accept(request, plan: plan, headers: recorded.headers)
        case .miss(let miss):
            recorder.missed(request)
            guard let fallback else { return .response(ReplayRoutes.missResponse(miss)) }
            // An upgrade the recording does not hold is relayed to the upstream as a socket.
            return request.asksForWebSocket ? fallback.respond(to: request, as: kind, fault: fault, seed: seed) : .forward
        }
    }

    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        if case .socket(let socketPlan) = plan.delivery, !socketPlan.relays {
            return WebSocketSession(plan: socketPlan, source: nil, hub: sockets)
        }
        return fallback?.delivery(for: plan, clientAddress: clientAddress())
    }

    /// Whether `request` asks for nothing but the recorded answer: a GET with no body, no fault (header, `_fault` or
    /// rule), no `Origin` or condition (they change the reply), so its canned form serves every later one.
    private func isPlain(_ request: HTTPRequest) -> Bool {
        request.method == "GET" && request.body.isEmpty && !request.hasOriginOrCondition
            && (request.faultHeader ?? "").isEmpty && request.query["_fault"] == nil && !rulesInstalled()
    }

    /// Cans `response`, the one recorded answer a plain GET of `target` gets (recorded rate-limit counters, an API
    /// that sends DummyJSON's as DummyJSON and Understudy do, are kept as recorded).
    private func remember(_ response: HTTPResponse, for target: String) {
        guard canned[target] == nil, canned.count < ReplayResponder.maximumCannedReplies,
              let reply = CannedReply.canning(response, rateLimitWindow: false) else { return }
        canned[target] = reply
    }
}
