/// One open `GET /__understudy/events`, as a delivery: the control room's feed pushes events into its
/// subscription, which wakes the delivery to write them; between pushes it ticks the feed (state comparison,
/// heartbeats) every `LiveFeed.flushMilliseconds` and drops a viewer that stopped reading.
struct FeedDelivery: Delivery {
    let feed: LiveFeed
    let request: FeedRequest
    let subscription: FeedSubscription
    /// A viewer with more than this waiting for it in the server is dropped, as a slow stream reader is.
    let maximumUnflushedBytes: Int
    private var started = false
    private var nextTickAt = 0.0

    init(feed: LiveFeed, request: FeedRequest, maximumUnflushedBytes: Int) {
        self.feed = feed
        self.request = request
        self.maximumUnflushedBytes = maximumUnflushedBytes
        subscription = FeedSubscription()
    }

    var prefersSmallSendBuffer: Bool { true }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        var steps: [DeliveryStep] = []
        if !started {
            started = true
            subscription.waker = context.waker
            steps.append(.head(contentLength: nil))
            nextTickAt = context.now + Double(LiveFeed.flushMilliseconds)
            feed.subscribe(subscription, request, now: context.now)
        } else if context.now >= nextTickAt {
            // A viewer that stopped reading while the feed was quiet is dropped here rather than at the next event.
            guard context.unflushedBytes <= maximumUnflushedBytes else { return closing() }
            nextTickAt = context.now + Double(LiveFeed.flushMilliseconds)
            feed.tick(now: context.now)
        }
        // Pushed by the feed since the last turn, or in this one by the tick. The backlog is judged before the
        // write, as what the viewer has not taken of the earlier ones: a batch is written whole, and may alone be
        // larger.
        let (bytes, ended) = subscription.take()
        if !bytes.isEmpty {
            guard context.unflushedBytes <= maximumUnflushedBytes else { return closing(after: steps) }
            steps.append(.body(bytes))
        }
        if ended { return DeliveryTurn(steps + [.end]) }
        return DeliveryTurn(steps, wake: max(0, nextTickAt - context.now))
    }

    private func closing(after steps: [DeliveryStep] = []) -> DeliveryTurn {
        subscription.isOpen = false
        return DeliveryTurn(steps + [.close(reset: false)])
    }

    /// The feed never ends by itself: on shutdown it ends cleanly.
    func shutDown() -> [DeliveryStep] { [.end] }

    func finished() {
        subscription.isOpen = false
        feed.unsubscribe(subscription)
    }
}
