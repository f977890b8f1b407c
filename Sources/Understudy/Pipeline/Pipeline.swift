/// The one path every request takes: a request value in, a `ReplyPlan` out, then told how the reply went.
///
/// Read top to bottom, `plan(for:)` is a request's whole life before the transport writes it: a stopping server
/// answers nothing; the admin API answers its own; a reply already built for what decides its bytes is sent as is
/// (the fast path); everything else gets the token check for faults, waits for any index it needs that is not
/// built yet, then one fault decision, and the responder's answer (`Pipeline+Faults.swift`). Every reply then
/// passes through the middleware, in order, and is frozen; every finished reply passes through them again
/// (`completed`). Who answers was decided once, at start: the pipeline asks its `Responder` and never the mode.
/// Used on its loop thread only.
final class Pipeline {
    /// What answers every request outside `/__understudy`.
    let responder: any Responder
    /// What answers `/__understudy/…`.
    let admin: any Responder
    let faults: FaultController
    let remoteControl: RemoteControlPolicy
    /// The concerns every reply passes through, in order.
    let middleware: MiddlewareChain
    /// Wall-clock seconds (tokens, `Retry-After` dates) and monotonic milliseconds (rate-limit buckets).
    let clock: @Sendable () -> Double
    let monotonicMilliseconds: () -> Double
    /// Fault specs sent per request, parsed once, and the canned replies of those asking only for a status.
    let specs = FaultSpecCache()
    /// The responder's `sendsRateLimitWindow`, read once.
    private let sendsRateLimitWindow: Bool

    init(responder: any Responder, admin: any Responder, faults: FaultController, remoteControl: RemoteControlPolicy,
         middleware: MiddlewareChain, clock: @escaping @Sendable () -> Double,
         monotonicMilliseconds: @escaping () -> Double) {
        self.responder = responder
        self.admin = admin
        self.faults = faults
        self.remoteControl = remoteControl
        self.middleware = middleware
        self.clock = clock
        self.monotonicMilliseconds = monotonicMilliseconds
        sendsRateLimitWindow = responder.sendsRateLimitWindow
    }

    /// Decides everything about `request` before a byte is written; or first, when it needs an index not built yet,
    /// that it waits for it. `indexesReady`: the request waited already (or its indexes were kept by the time it
    /// would have), so it is planned now.
    func plan(for request: HTTPRequest, stopping: Bool, indexesReady: Bool = false) -> Planned {
        // Once stopping, a request arriving on a kept-alive connection is not served: the connection closes with no
        // reply, which HTTP clients retry on a fresh connection (libcurl does so itself). Otherwise a client whose
        // connection cache outlives this server could be answered by it after another server took the port.
        if stopping {
            var draft = ReplyDraft(request: request, response: HTTPResponse(status: 503))
            draft.delivery = .empty
            return .reply(ReplyPlan(draft))
        }
        var plan: ReplyDraft
        if request.isAdmin {
            // The admin API: its own gate and token, no fault decision.
            plan = adminPlan(for: request.decodingQuery())
        } else if let canned = cannedReply(for: request) {
            // The fast path: a reply built once for what decides these bytes.
            plan = ReplyDraft(request: request, response: HTTPResponse(status: canned.reply.status), session: request.session)
            plan.canned = canned.reply
            plan.applied = canned.reply.fault
            plan.delayMilliseconds = canned.delayMilliseconds
        } else {
            // Past the fast path, the query is decoded once for everything that reads it.
            let request = request.decodingQuery()
            if Pipeline.asksForFault(request), let refusal = remoteControl.refusal(for: request, admin: false) {
                plan = ReplyDraft(request: request, response: refusal.response)
            } else if !indexesReady, let groundwork = responder.groundwork(for: request) {
                // Built off the loop while the writer holds only this request; a canned reply never gets here.
                return .awaitingIndexes(groundwork)
            } else {
                plan = faultedPlan(for: request)
            }
        }
        // Headers every reply gets (fault applied, rate limits, CORS, ETag/304), in order.
        if !sendsRateLimitWindow, !plan.isAdmin { plan.sendsRateLimitWindow = false }
        middleware.prepare(&plan)
        if request.leavesBodyUnread {
            // The transport drops what came of a body evhttp does not read; nothing after it is parsed either.
            plan.dropsUnreadBody = true
            plan.response.headers.add("Connection", "close")
        }
        return .reply(ReplyPlan(plan))
    }

    /// Tells every middleware how a reply went, once the transport is done with it.
    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        middleware.completed(plan, outcome)
    }

    /// How the writer is to carry out `plan`, built from its final response once the middleware is done with it
    /// (a 304 has no body left to truncate); nil: whole, in one call. A stream, the feed or a forwarded reply is
    /// built by the responder that answered.
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String? = nil) -> (any Delivery)? {
        switch plan.delivery {
        case .whole:
            return nil
        case .empty:
            return BrokenConnection(.empty)
        case .reset(let afterHeaders):
            return BrokenConnection(.reset(afterHeaders: afterHeaders, contentLength: plan.response.body.count))
        case .hang:
            return BrokenConnection(.hang)
        case .garbage(let bytes):
            return BrokenConnection(.garbage(bytes))
        case .truncated(let count):
            return TruncatedBody(body: plan.response.body.bytesCopy, cut: .bytes(count))
        case .truncatedChunked:
            return TruncatedBody(body: plan.response.body.bytesCopy, cut: .chunked)
        case .paced(let pacing, let stall, let seed):
            let body = plan.response.body.bytesCopy
            let pauses = stall.map { RatePacer.pauses(length: body.count, range: $0, seed: seed) } ?? []
            return PacedBody(body: body, pacing: pacing, pauses: pauses)
        case .stream, .feed, .proxy, .events, .socket:
            return (plan.isAdmin ? admin : responder).delivery(for: plan, clientAddress: clientAddress())
        }
    }

    /// The reply built once for a plain GET: the canned answer to a fault header asking only for an error status
    /// (where the responder allows it), else the responder's own while no rule is installed. Anything with a body,
    /// an `Origin`, a condition, or a session id too long to be one goes the whole way.
    private func cannedReply(for request: HTTPRequest) -> CannedAnswer? {
        guard request.method == "GET", request.body.isEmpty, !request.hasOriginOrCondition else { return nil }
        // A session id the pipeline would refuse gets its 400 there.
        if let session = request.session, FaultController.problem(withSessionID: session) != nil { return nil }
        // An empty fault header asks for nothing.
        if let fault = request.faultHeader, !fault.isEmpty {
            guard responder.cansFaultReplies, let canned = specs.cannedReply(to: fault, build: cannedFault) else { return nil }
            return (canned, 0)
        }
        guard !faults.hasRules else { return nil }
        return responder.cannedReply(for: request)
    }

    private func adminPlan(for incoming: HTTPRequest) -> ReplyDraft {
        var plan = ReplyDraft(request: incoming, response: HTTPResponse(status: 200))
        plan.isAdmin = true
        switch admin.respond(to: incoming, as: .body, fault: nil, seed: faults.seed) {
        case .reply(let response, _, let delivery):
            plan.response = response
            plan.delivery = delivery
        case .forward:
            plan.response = APIError(502, "The admin API forwards nothing").response
        }
        return plan
    }

    /// The reply to a fault header that asks only for an error status, built once per header text; nil for any
    /// other spec, an invalid one, or when fault headers need the admin token (the pipeline answers those).
    private func cannedFault(_ text: String) -> CannedReply? {
        guard remoteControl.token == nil, remoteControl.isLoopback,
              let spec = try? specs.parsed(text), spec.isPlainErrorStatus, let status = spec.status else { return nil }
        let response = FaultedResponses.status(status, spec: spec, nowSeconds: clock())
        guard case .bytes(let bytes) = response.body else { return nil }
        let canned = CannedReply(status: status, headers: response.headers.fields + [(FaultHeaders.applied, spec.text)],
                                 body: SharedBytes(bytes), etag: nil, fault: spec.text)
        return canned.fitsCannedHead ? canned : nil
    }
}

extension HTTPResponse.Body {
    /// The body's bytes, copied.
    var bytesCopy: [UInt8] {
        switch self {
        case .empty: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        }
    }
}
