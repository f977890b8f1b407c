/// A reply held back by a delay, waiting for its libevent timer.
final class PendingReply {
    /// What goes out when the timer fires.
    enum Payload {
        /// A reply planned by the full pipeline.
        case planned(ReplyPlan)
        /// A prebuilt reply and what the journal needs of its request.
        case canned(CannedReply, CannedRequest)
    }

    let request: OpaquePointer
    let payload: Payload
    var timer: OpaquePointer?
    /// The loop that holds the reply, while it does (cleared when sent, breaking the cycle).
    var loop: EventLoop?

    init(request: OpaquePointer, payload: Payload) {
        self.request = request
        self.payload = payload
    }
}
