/// Where the feed writes one subscriber's events: in the server, a `FeedSubscription` that its delivery writes
/// out; in tests, a buffer.
protocol FeedSink: AnyObject {
    /// Queues `bytes`; false when the subscriber is gone, or has just been dropped for falling behind.
    func send(_ bytes: [UInt8]) -> Bool
    /// Ends the subscriber's reply cleanly (its `count` is reached).
    func end()
}
