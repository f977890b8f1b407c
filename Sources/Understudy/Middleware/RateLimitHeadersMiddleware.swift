/// DummyJSON's `X-RateLimit-*` headers on every reply, counted in one window per server (`RateLimitWindow`).
struct RateLimitHeadersMiddleware: ReplyMiddleware {
    private var window = RateLimitWindow()

    /// Counts the reply in the window, at the request's arrival: the counters its headers (or a canned reply's
    /// prebuilt head) carry.
    mutating func count(_ plan: borrowing ReplyDraft) -> (remaining: Int, resetsAt: Int) {
        window.record(now: plan.request.arrivedAt)
    }

    mutating func prepare(_ plan: inout ReplyDraft) {
        let counted = count(plan)
        // A 429 from a fault, or a reply counted in a rate-limit bucket, carries its own counters.
        guard !plan.response.headers.carriesRateLimitCounters else { return }
        plan.response.headers.add("X-RateLimit-Limit", String(RateLimitWindow.limit))
        plan.response.headers.add("X-RateLimit-Remaining", String(counted.remaining))
        plan.response.headers.add("X-RateLimit-Reset", String(counted.resetsAt))
    }
}
