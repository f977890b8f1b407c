/// A reply held back by a delay, waiting for its libevent timer.
final class PendingReply {
    let request: OpaquePointer
    let plan: ReplyPlan
    let delivery: (any Delivery)?
    var timer: OpaquePointer?
    /// The writer that holds the reply, while it does (cleared when sent, breaking the cycle).
    var writer: ReplyWriter?

    init(request: OpaquePointer, plan: ReplyPlan, delivery: (any Delivery)?) {
        self.request = request
        self.plan = plan
        self.delivery = delivery
    }
}
