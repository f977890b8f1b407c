/// DummyJSON's `x-ratelimit-*` headers: 100 requests per 10-second window.
///
/// Counted per server, not per client address, and reported only: Understudy never refuses a request for it
/// (a test suite would trip it at once). The `rate-limit` fault enforces a real budget.
struct RateLimitWindow {
    static let limit = 100
    static let windowSeconds = 10.0

    private var windowEnds = 0.0
    private var used = 0

    /// Counts one request at `now` and returns the headers' values.
    mutating func record(now: Double) -> (remaining: Int, resetsAt: Int) {
        if now >= windowEnds {
            windowEnds = now + RateLimitWindow.windowSeconds
            used = 0
        }
        used += 1
        return (max(0, RateLimitWindow.limit - used), Int(windowEnds.rounded(.up)))
    }
}
