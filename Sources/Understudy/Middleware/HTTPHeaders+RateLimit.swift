extension HTTPHeaders {
    /// Whether the fields already report rate-limit counters: a 429's, a `rate-limit` bucket's, or those of an
    /// answer recorded from an API that sends them. Such a reply is sent with its own, and DummyJSON's window adds
    /// none.
    var carriesRateLimitCounters: Bool {
        self["X-RateLimit-Limit"] != nil
    }
}
