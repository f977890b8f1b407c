/// Everything decided about one request before anything is written: the reply, how it goes on the wire, when,
/// and what the journal will say about it.
struct ReplyPlan {
    /// How the reply reaches the socket.
    enum Delivery: Equatable {
        case whole
        case truncated(bytes: Int)
        case truncatedChunked
        case paced(FaultSpec.Pacing)
        case empty
        case reset(afterHeaders: Bool)
        case hang
        case garbage
        /// A server-sent event stream.
        case stream(StreamPlan)
    }

    var response: HTTPResponse
    var delivery: Delivery = .whole
    var delayMilliseconds = 0
    var incoming: HTTPRequest
    var session: String?
    var fault: FaultSpec?
    /// The directives of `fault` that took effect, as `X-Understudy-Fault-Applied` reports them (nil: none did).
    var applied: String?
    var ruleID: String?
    var startedAt: Double
    var arrivedAt: Double
}
