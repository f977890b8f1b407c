/// Everything decided about one request before anything is written: the reply, how it goes on the wire, when,
/// and what the journal will say about it. The pipeline makes it; the transport carries it out.
///
/// A class, made once per request and then only mutated in place: the middleware, the writer and a held reply
/// share it. As a struct it was copied and destroyed several times a request, a dozen references each time.
/// Used on its loop thread only.
final class ReplyPlan {
    /// How the reply reaches the socket.
    enum Delivery: Equatable {
        case whole
        case truncated(bytes: Int)
        case truncatedChunked
        case paced(FaultSpec.Pacing)
        /// The connection closes with no reply.
        case empty
        case reset(afterHeaders: Bool)
        case hang
        /// Random bytes instead of a reply, then a close.
        case garbage([UInt8])
        /// A server-sent event stream (boxed: a plan is moved on every request, a stream plan is large and rare).
        indirect case stream(StreamPlan)
        /// The control room's live feed.
        indirect case feed(FeedRequest)
    }

    let request: IncomingRequest
    var response: HTTPResponse
    /// A reply built once and sent as is (`ReplyCache`); when set, `response` is not sent.
    var canned: CannedReply?
    var delivery: Delivery = .whole
    var delayMilliseconds = 0
    var session: String?
    /// The directives of `fault` that took effect, as `X-Understudy-Fault-Applied` reports them (nil: none did).
    var applied: String?
    var ruleID: String?
    /// The admin API's replies are logged but not journaled.
    var isAdmin = false
    /// The request's rate-limit counters, for a canned reply's head (other replies carry them as headers).
    var rateLimit: (remaining: Int, resetsAt: Int) = (0, 0)

    init(request: IncomingRequest, response: HTTPResponse, session: String? = nil) {
        self.request = request
        self.response = response
        self.session = session
    }

    /// The status the reply carries.
    var status: Int { canned?.status ?? response.status }
}
