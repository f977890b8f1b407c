/// DummyJSON's `X-RateLimit-*` headers on every reply, counted in one window per server (`RateLimitWindow`).
struct RateLimitHeadersMiddleware: ReplyMiddleware {
    private var window = RateLimitWindow()

    mutating func prepare(_ plan: ReplyPlan) {
        // Counted at the request's arrival.
        let counted = window.record(now: plan.request.arrivedAt)
        // A canned reply writes the counters into its prebuilt head.
        guard plan.canned == nil else {
            plan.rateLimit = counted
            return
        }
        // A 429 from a fault, or a reply counted in a rate-limit bucket, carries its own counters.
        guard plan.response.headers["X-RateLimit-Limit"] == nil else { return }
        plan.response.headers.add("X-RateLimit-Limit", String(RateLimitWindow.limit))
        plan.response.headers.add("X-RateLimit-Remaining", String(counted.remaining))
        plan.response.headers.add("X-RateLimit-Reset", String(counted.resetsAt))
    }
}
