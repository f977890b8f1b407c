/// What the fault book decided for one request, under one lock: the fault that acts on it, and every draw and
/// count that fault needs. The reply is written from this value; writing never reads the book.
struct FaultDecision {
    var spec: FaultSpec
    var source: FaultBook.Source
    /// The delay drawn from `spec.delay`, in milliseconds.
    var delayMilliseconds = 0
    /// The token taken (or refused) from the session's bucket for `spec.rateLimit`.
    var rateLimit: TokenBucket.Outcome?
    /// The bytes `garbage` sends instead of a reply.
    var garbage: [UInt8] = []
    /// The seed of a paced body's schedule (its pauses), drawn for `stall`.
    var scheduleSeed: UInt64 = 0

    /// The book's answer for one request: its fault, if any, and the seed its stream payloads derive from.
    struct Outcome {
        var decision: FaultDecision?
        var payloadSeed: UInt64
    }
}

extension FaultBook {
    /// Decides the request's fault: the one it asked for (`requested`, from its header or query), else the first
    /// eligible rule's; then draws its delay, takes its rate-limit token and draws its garbage, in that order, from
    /// the session's generator.
    mutating func decide(for request: HTTPRequest, session: String?, target: FaultTarget?, requested: Decision?,
                         nowMilliseconds: Double) -> FaultDecision.Outcome {
        let payloadSeed = payloadSeed(session: session)
        let profile = self.profile(session: session)
        var chosen = requested ?? decide(for: request, session: session, target: target)
        if let profile {
            // The session's network goes under whatever the request's own fault leaves open.
            chosen = chosen.map { FaultBook.Decision(spec: $0.spec.throttled(by: profile), source: $0.source) }
                ?? FaultBook.Decision(spec: FaultSpec(profile: profile), source: .session)
        }
        guard let chosen else {
            return FaultDecision.Outcome(decision: nil, payloadSeed: payloadSeed)
        }
        let spec = chosen.spec
        var decision = FaultDecision(spec: spec, source: chosen.source)
        if let delay = spec.delay {
            decision.delayMilliseconds = self.delay(in: delay, session: session)
        }
        if let jitter = spec.jitter, jitter > 0 {
            decision.delayMilliseconds += self.delay(in: 0...jitter, session: session)
        }
        if spec.stall != nil {
            decision.scheduleSeed = drawSeed(session: session)
        }
        if let limit = spec.rateLimit {
            decision.rateLimit = consume(limit, key: spec.text, session: session, nowMilliseconds: nowMilliseconds)
        }
        // A refused token answers 429 and sends no garbage.
        if spec.connection == .garbage, decision.rateLimit?.allowed ?? true {
            decision.garbage = randomBytes(512, session: session)
        }
        return FaultDecision.Outcome(decision: decision, payloadSeed: payloadSeed)
    }
}
