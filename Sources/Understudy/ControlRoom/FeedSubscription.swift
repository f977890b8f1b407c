/// A feed viewer's place in `LiveFeed`: the events pushed to it wait here until its delivery's next turn, which
/// the push asks for at once (`DeliveryWaker`).
final class FeedSubscription: FeedSink {
    var waker: DeliveryWaker?
    /// False once the reply is over or about to be: the feed stops sending to it.
    var isOpen = true
    private var pending: [UInt8] = []
    private var ended = false

    func send(_ bytes: [UInt8]) -> Bool {
        guard isOpen, !ended else { return false }
        pending += bytes
        waker?.wake()
        return isOpen
    }

    func end() {
        guard isOpen, !ended else { return }
        ended = true
        waker?.wake()
    }

    /// The bytes pushed since the last turn, and whether the viewer has had its `count` of events.
    func take() -> (bytes: [UInt8], ended: Bool) {
        defer { pending.removeAll(keepingCapacity: true) }
        return (pending, ended)
    }
}
