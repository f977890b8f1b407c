extension EventLoop {
    /// Written once as C string literals, which the canned-reply path compares with evhttp's header names.
    static let faultHeaderName: StaticString = "X-Understudy-Fault"
    static let sessionHeaderName: StaticString = "X-Understudy-Session"
    static let faultHeader = faultHeaderName.description
    static let sessionHeader = sessionHeaderName.description
    static let faultAppliedHeader = "X-Understudy-Fault-Applied"

    /// Decides the reply for a request: its fault (header, `_fault` query, or the first eligible rule), then the
    /// routed or replaced response, the delivery and the delay.
    func plan(for incoming: HTTPRequest, startedAt: Double) -> ReplyPlan {
        let session = incoming.headers[EventLoop.sessionHeader].flatMap { $0.isEmpty ? nil : $0 }
        var plan = ReplyPlan(response: HTTPResponse(status: 200), incoming: incoming, session: session,
                             startedAt: startedAt, arrivedAt: configuration.clock())
        let decision: FaultBook.Decision?
        do {
            decision = try chooseFault(for: incoming, session: session)
        } catch {
            plan.response = APIError(400, error.description).response
            return plan
        }
        guard let decision else {
            route(incoming, into: &plan)
            return plan
        }
        let spec = decision.spec
        plan.fault = spec
        plan.ruleID = decision.source.ruleID
        if let delay = spec.delay {
            plan.delayMilliseconds = faults.withBook { $0.delay(in: delay, session: session) }
        }

        if let limit = spec.rateLimit {
            let now = EventLoop.monotonicMilliseconds()
            let outcome = faults.withBook { $0.consume(limit, key: spec.text, session: session, nowMilliseconds: now) }
            guard outcome.allowed else {
                plan.response = FaultedResponses.rateLimited(limit: limit, retryAfterSeconds: outcome.retryAfterSeconds,
                                                             nowSeconds: configuration.clock(), spec: spec)
                plan.response.headers.add(EventLoop.faultAppliedHeader, spec.text)
                return plan
            }
        }
        if let status = spec.status {
            plan.response = FaultedResponses.status(status, spec: spec, nowSeconds: configuration.clock())
        } else if spec.expireToken, incoming.headers["Authorization"] != nil || incoming.cookie("accessToken") != nil {
            plan.response = APIError(401, "Token Expired!").response
            Cookies.clearTokens(in: &plan.response.headers)
        } else {
            route(incoming, into: &plan)
        }
        plan.response.headers.add(EventLoop.faultAppliedHeader, spec.text)
        if let malformation = spec.malformed, (200..<300).contains(plan.response.status) {
            corrupt(&plan.response, malformation)
        }
        switch (spec.connection, spec.truncation, spec.pacing) {
        case (.empty?, _, _): plan.delivery = .empty
        case (.reset(let afterHeaders)?, _, _): plan.delivery = .reset(afterHeaders: afterHeaders)
        case (.hang?, _, _): plan.delivery = .hang
        case (.garbage?, _, _): plan.delivery = .garbage
        case (nil, .bytes(let count)?, _): plan.delivery = .truncated(bytes: min(count, plan.response.body.count))
        case (nil, .percent(let percent)?, _): plan.delivery = .truncated(bytes: plan.response.body.count * percent / 100)
        case (nil, .chunked?, _): plan.delivery = .truncatedChunked
        case (nil, nil, let pacing?): if case .stream = plan.delivery {} else { plan.delivery = .paced(pacing) }
        default: break
        }
        return plan
    }

    /// The header wins over the query; both win over rules. A bad spec is the client's error (400).
    private func chooseFault(for incoming: HTTPRequest, session: String?) throws(FaultSpecError) -> FaultBook.Decision? {
        if let header = incoming.headers[EventLoop.faultHeader] {
            return FaultBook.Decision(spec: try parsedSpec(header), source: .header)
        }
        if let query = incoming.query["_fault"] {
            return FaultBook.Decision(spec: try parsedSpec(query), source: .query)
        }
        return faults.withBook { $0.decide(for: incoming, session: session) }
    }

    /// Per-request specs repeat (a test sends the same header again and again), so parsed ones are kept.
    func parsedSpec(_ text: String) throws(FaultSpecError) -> FaultSpec {
        if let known = specCache[text] { return known }
        let spec = try FaultSpecParser.parse(text)
        if specCache.count >= 256 { specCache.removeAll(keepingCapacity: true) }
        specCache[text] = spec
        return spec
    }

    private func route(_ incoming: HTTPRequest, into plan: inout ReplyPlan) {
        if let stream = streamPlan(for: incoming, fault: plan.fault, session: plan.session) {
            switch stream {
            case .success(let streamPlan):
                plan.response = streamPlan.head
                if incoming.method == "GET" { plan.delivery = .stream(streamPlan) }
            case .failure(let error):
                plan.response = error.response
            }
            return
        }
        let routed = router.route(incoming)
        plan.response = routed.response
        plan.delayMilliseconds += routed.delayMilliseconds
    }

    private func corrupt(_ response: inout HTTPResponse, _ malformation: FaultSpec.Malformation) {
        let original: [UInt8] = switch response.body {
        case .empty: []
        case .bytes(let bytes): bytes
        case .shared(let shared): shared.bytes
        }
        response.etag = nil
        switch malformation {
        case .syntax:
            response.body = .bytes(FaultedResponses.brokenSyntax(original))
        case .shape:
            guard let value = try? JSONParser.parse(original) else { return }
            response.body = .bytes(JSONWriter.encode(FaultedResponses.wrongShape(value)))
        }
    }
}
