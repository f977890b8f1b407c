/// Answers DummyJSON's API from the catalogue: the route table (`Router`), its cache of replies built once, the
/// event stream of `/products/stream` and the WebSockets under `/ws/`. The default serving mode.
final class CatalogueResponder: Responder {
    let router: Router
    /// What every `/products/stream` draws on.
    let streams: StreamSource
    /// Every open socket under `/ws/`.
    let sockets: WebSocketHub

    init(router: Router, streams: StreamSource, sockets: WebSocketHub) {
        self.router = router
        self.streams = streams
        self.sockets = sockets
    }

    func cannedReply(for request: HTTPRequest) -> CannedAnswer? {
        router.cache.cannedReply(for: request.target)
    }

    /// A fault header asking only for a status answers the same bytes, canned or not, on the catalogue's routes.
    var cansFaultReplies: Bool { true }

    func groundwork(for request: HTTPRequest) -> Groundwork? {
        router.groundwork(for: request)
    }

    func kind(of request: HTTPRequest) -> RequestKind {
        if WebSocketEndpoints.claims(request) { return .socket }
        return router.streamRoute(for: request).map { .stream(throughAuth: $0) } ?? .body
    }

    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer {
        if kind == .socket { return WebSocketEndpoints.answer(to: request, fault: fault, seed: seed) }
        guard case .stream(let throughAuth) = kind else {
            let routed = router.route(request, seed: seed)
            return .reply(routed.response, delayMilliseconds: routed.delayMilliseconds)
        }
        switch router.streamPlan(for: request, mounted: throughAuth, fault: fault, seed: seed) {
        case .success(let plan) where plan.isComplete:
            // Nothing is left to send: 204 is what tells an EventSource to stop reconnecting.
            return .response(HTTPResponse(status: 204))
        case .success(let plan):
            return .reply(plan.head, delivery: request.method == "GET" ? .stream(plan) : .whole)
        case .failure(let error):
            return .response(error.response)
        }
    }

    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? {
        switch plan.delivery {
        case .stream(let streamPlan): EventStream(plan: streamPlan, source: streams)
        case .socket(let socketPlan): WebSocketSession(plan: socketPlan, source: streams, hub: sockets)
        default: nil
        }
    }
}
