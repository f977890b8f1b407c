import Foundation
import UnderstudyJSON

extension Pipeline {
    /// Decides the reply for a request the fast path did not answer: its fault (header, `_fault` query, or the
    /// first eligible rule, with every draw it needs, under one lock), then the responder's answer or the reply the
    /// fault puts in its place, the delivery and the delay.
    func faultedPlan(for incoming: HTTPRequest) -> ReplyDraft {
        let session = incoming.session
        var plan = ReplyDraft(request: incoming, response: HTTPResponse(status: 200), session: session)
        if let session, let problem = FaultController.problem(withSessionID: session) {
            plan.session = nil  // not kept in the journal either
            plan.response = APIError(400, "Invalid '\(FaultHeaders.session)' - \(problem)").response
            return plan
        }
        // A forwarded request's kind is known once the upstream answers: rules for either kind may fire.
        let kind = responder.kind(of: incoming)
        let target = kind.target
        let requested: FaultBook.Decision?
        do {
            requested = try requestedFault(incoming)
        } catch {
            plan.response = APIError(400, error.description).response
            return plan
        }
        let now = monotonicMilliseconds()
        let outcome = faults.withBook {
            $0.decide(for: incoming, session: session, target: target, requested: requested, nowMilliseconds: now)
        }
        guard let decision = outcome.decision else {
            answer(incoming, as: kind, into: &plan, fault: nil, payloadSeed: outcome.payloadSeed)
            return plan
        }
        let spec = decision.spec
        plan.ruleID = decision.source.ruleID
        plan.delayMilliseconds = decision.delayMilliseconds
        // Directives that cannot act on this reply are left out of what it reports as applied.
        // A forwarded reply's kind is known once the upstream answers: the delivery says which directives acted.
        var skipped = target.map { spec.present(FaultSpec.inapplicable(to: $0)) } ?? []
        var bucketHeaders: [(String, String)] = []
        if let limit = spec.rateLimit, let outcome = decision.rateLimit {
            let resetsAt = Int(clock().rounded(.up)) + outcome.resetsInSeconds
            guard outcome.allowed else {
                plan.response = FaultedResponses.rateLimited(limit: limit, retryAfterSeconds: outcome.retryAfterSeconds,
                                                             nowSeconds: clock(), spec: spec)
                plan.applied = spec.text(skipping: Set(spec.directives.map(\.name)).subtracting(["delay", "rate-limit", "message"]))
                return plan
            }
            // An allowed reply reports the bucket it was counted in, not DummyJSON's window; a `message` meant for
            // the bucket's 429 did nothing to it.
            if spec.status == nil, spec.message != nil { skipped.insert("message") }
            bucketHeaders = [("X-RateLimit-Limit", String(limit.requests)),
                             ("X-RateLimit-Remaining", String(outcome.remaining)),
                             ("X-RateLimit-Reset", String(resetsAt))]
        }
        if let status = spec.status {
            plan.response = FaultedResponses.status(status, spec: spec, nowSeconds: clock())
            // A document's route answers with the document's own response for the status (its body and headers, the
            // fault's Retry-After and rate-limit counters over them), so a client generated from it can read it.
            if spec.message == nil, status != 204,
               var documented = responder.documentedReply(status: status, for: incoming, seed: outcome.payloadSeed) {
                for field in plan.response.headers.fields where !field.name.caseInsensitiveEquals("Content-Type") {
                    documented.headers.remove(field.name)
                    documented.headers.add(field.name, field.value)
                }
                plan.response = documented
            }
        } else if spec.expireToken, incoming.headers["Authorization"] != nil || incoming.cookie("accessToken") != nil {
            plan.response = APIError(401, "Token Expired!").response
            Cookies.clearTokens(secure: incoming.isSecure, in: &plan.response.headers)
        } else {
            if spec.expireToken { skipped.insert("expire-token") }
            answer(incoming, as: kind, into: &plan, fault: spec, payloadSeed: outcome.payloadSeed)
        }
        if !plan.response.headers.carriesRateLimitCounters {
            for (name, value) in bucketHeaders { plan.response.headers.add(name, value) }
        }
        let isForwarded = plan.delivery.isForwarded
        let sendsBody = incoming.method != "HEAD"
            && (isForwarded || (plan.response.body.count > 0 && plan.delivery == .whole))
        if !sendsBody { skipped.formUnion(spec.present(FaultSpec.bodyDirectives)) }
        if spec.malformed != nil, !(200..<300).contains(plan.response.status) { skipped.insert("malformed") }
        let applied = spec.text(skipping: skipped)
        plan.applied = applied.isEmpty ? nil : applied
        if isForwarded {
            plan.delivery = Pipeline.forwarded(spec, sendsBody: sendsBody, skipped: skipped, garbage: decision.garbage,
                                               scheduleSeed: decision.scheduleSeed)
            return plan
        }
        if let malformation = spec.malformed, !skipped.contains("malformed") {
            corrupt(&plan.response, malformation)
        }
        let bodyLength = plan.response.body.count
        switch (spec.connection, sendsBody ? spec.truncation : nil, sendsBody ? spec.pacing : nil) {
        case (.empty?, _, _): plan.delivery = .empty
        case (.reset(let afterHeaders)?, _, _): plan.delivery = .reset(afterHeaders: afterHeaders)
        case (.hang?, _, _): plan.delivery = .hang
        case (.garbage?, _, _): plan.delivery = .garbage(decision.garbage)
        // A truncated body always misses at least its last byte: truncate means the body is incomplete.
        case (nil, .bytes(let count)?, _): plan.delivery = .truncated(bytes: min(count, bodyLength - 1))
        case (nil, .percent(let percent)?, _): plan.delivery = .truncated(bytes: bodyLength * percent / 100)
        case (nil, .chunked?, _): plan.delivery = .truncatedChunked
        case (nil, nil, let pacing) where pacing != nil || (sendsBody && spec.stall != nil):
            plan.delivery = .paced(pacing, stall: spec.stall, seed: decision.scheduleSeed)
        default: break
        }
        return plan
    }

    /// The fault the request asks for: the header wins over the query (and both over rules). A bad spec is the
    /// client's error (400); an empty one (`X-Understudy-Fault:` with nothing after it, `_fault=`) is as good as none.
    private func requestedFault(_ incoming: HTTPRequest) throws(FaultSpecError) -> FaultBook.Decision? {
        if let header = incoming.headers[FaultHeaders.fault] {
            let spec = try specs.parsed(header)
            if !spec.isEmpty { return FaultBook.Decision(spec: spec, source: .header) }
        }
        if let query = incoming.query["_fault"] {
            let spec = try specs.parsed(query)
            if !spec.isEmpty { return FaultBook.Decision(spec: spec, source: .query) }
        }
        return nil
    }

    /// Whether the request carries a fault spec that is not blank (the only kind the admin token guards).
    static func asksForFault(_ incoming: HTTPRequest) -> Bool {
        [incoming.headers[FaultHeaders.fault], incoming.query["_fault"]].contains { value in
            value.map { !$0.trimmingJSWhitespace().isEmpty } ?? false
        }
    }

    /// The responder's answer, into `plan`: a forwarded one is a `.proxy` delivery, whose faults are decided after.
    private func answer(_ incoming: HTTPRequest, as kind: RequestKind, into plan: inout ReplyDraft, fault: FaultSpec?,
                        payloadSeed: UInt64) {
        switch responder.respond(to: incoming, as: kind, fault: fault, seed: payloadSeed) {
        case .reply(let response, let delayMilliseconds, let delivery):
            plan.response = response
            plan.delayMilliseconds += delayMilliseconds
            plan.delivery = delivery
        case .forward:
            // The upstream answers, later: the delivery forwards the request once any delay is over.
            plan.delivery = .proxy(ProxyPlan())
        }
    }

    private func corrupt(_ response: inout HTTPResponse, _ malformation: FaultSpec.Malformation) {
        let original = response.body.bytesCopy
        response.etag = nil
        switch malformation {
        case .syntax:
            response.body = .bytes(FaultedResponses.brokenSyntax(original))
        case .shape:
            guard let value = try? JSONParser.parse(original) else { return }
            response.body = .bytes(JSONWriter.encode(FaultedResponses.wrongShape(value)))
        }
    }

    /// How a forwarded request's faults act: a connection fault needs no upstream (nothing is forwarded), every
    /// other body fault goes into the delivery, which applies it to the upstream's reply as it arrives.
    static func forwarded(_ spec: FaultSpec, sendsBody: Bool, skipped: Set<String>, garbage: [UInt8],
                          scheduleSeed: UInt64) -> ReplyPlan.Delivery {
        switch spec.connection {
        case .empty?: return .empty
        case .reset(afterHeaders: false)?: return .reset(afterHeaders: false)
        case .hang?: return .hang
        case .garbage?: return .garbage(garbage)
        case .reset(afterHeaders: true)?: return .proxy(ProxyPlan(resetAfterHead: true))
        case nil: break
        }
        guard sendsBody else { return .proxy(ProxyPlan()) }
        let toStream = spec.text(skipping: skipped.union(spec.present(FaultSpec.notForEventStreams)))
        let toBody = spec.text(skipping: skipped.union(spec.present(FaultSpec.streamDirectives)))
        return .proxy(ProxyPlan(truncation: spec.truncation, pacing: spec.pacing, stall: spec.stall,
                                scheduleSeed: scheduleSeed, malformed: skipped.contains("malformed") ? nil : spec.malformed, stream: spec.stream,
                                appliedToStream: toStream.isEmpty ? nil : toStream,
                                appliedToBody: toBody.isEmpty ? nil : toBody))
    }
}
