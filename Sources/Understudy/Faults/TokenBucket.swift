/// A token bucket that refills continuously: `requests` tokens per window.
struct TokenBucket {
    /// One request's answer, with what its `X-RateLimit-*` headers report.
    struct Outcome: Equatable {
        var allowed: Bool
        /// Tokens left after this request.
        var remaining: Int
        /// When refused, the whole seconds until a token is back (0 when allowed).
        var retryAfterSeconds: Int
        /// Whole seconds until the bucket is full again: a refused request's wait, or an allowed one's refill.
        var resetsInSeconds: Int
    }

    let limit: FaultSpec.RateLimit
    private var tokens: Double
    /// Monotonic milliseconds of the last take.
    private(set) var lastTaken: Double

    init(limit: FaultSpec.RateLimit, nowMilliseconds: Double) {
        self.limit = limit
        tokens = Double(limit.requests)
        lastTaken = nowMilliseconds
    }

    private var refillPerMillisecond: Double { Double(limit.requests) / Double(limit.windowMilliseconds) }

    mutating func take(nowMilliseconds: Double) -> Outcome {
        tokens = min(Double(limit.requests), tokens + (nowMilliseconds - lastTaken) * refillPerMillisecond)
        lastTaken = nowMilliseconds
        if tokens >= 1 {
            tokens -= 1
            let refill = (Double(limit.requests) - tokens) / refillPerMillisecond / 1_000
            return Outcome(allowed: true, remaining: Int(tokens), retryAfterSeconds: 0,
                           resetsInSeconds: Int(refill.rounded(.up)))
        }
        let wait = max(1, Int(((1 - tokens) / refillPerMillisecond / 1_000).rounded(.up)))
        return Outcome(allowed: false, remaining: 0, retryAfterSeconds: wait, resetsInSeconds: wait)
    }

    /// Whether it has refilled completely by `now`, and so is no different from a new bucket.
    func isFull(nowMilliseconds: Double) -> Bool {
        tokens + (nowMilliseconds - lastTaken) * refillPerMillisecond >= Double(limit.requests)
    }
}
