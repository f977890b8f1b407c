/// A reply held back by a delay, waiting for its libevent timer.
final class PendingReply {
    let request: OpaquePointer
    let plan: ReplyPlan
    var timer: OpaquePointer?
    /// The writer that holds the reply, while it does (cleared when sent, breaking the cycle).
    var writer: ReplyWriter?

    init(request: OpaquePointer, plan: ReplyPlan) {
        self.request = request
        self.plan = plan
    }
}
