/// Everything decided about one request before anything is written: the reply, how it goes on the wire, when,
/// and what the journal will say about it. The pipeline and the middleware decide it as a `ReplyDraft`, then it
/// is frozen: nobody changes a plan, so the writer, a held reply and the journal read the same decision.
///
/// A class, made once per request: the writer, a held reply and the middleware's `completed` share it.
final class ReplyPlan {
    /// How the reply reaches the socket, as decided; the pipeline builds the `Delivery` that carries it out.
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

    let request: HTTPRequest
    let response: HTTPResponse
    /// A reply built once and sent as is (`ReplyCache`); when set, `response` is not sent.
    let canned: CannedReply?
    let delivery: Delivery
    let delayMilliseconds: Int
    let session: String?
    /// The directives of `fault` that took effect, as `X-Understudy-Fault-Applied` reports them (nil: none did).
    let applied: String?
    let ruleID: String?
    /// The admin API's replies are logged but not journaled.
    let isAdmin: Bool
    /// The request's rate-limit counters, for a canned reply's head (other replies carry them as headers).
    let rateLimit: (remaining: Int, resetsAt: Int)

    init(_ draft: consuming ReplyDraft) {
        request = draft.request
        response = draft.response
        canned = draft.canned
        delivery = draft.delivery
        delayMilliseconds = draft.delayMilliseconds
        session = draft.session
        applied = draft.applied
        ruleID = draft.ruleID
        isAdmin = draft.isAdmin
        rateLimit = draft.rateLimit
    }

    /// The status the reply carries.
    var status: Int { canned?.status ?? response.status }
}

/// A reply being decided: the pipeline fills it in, the middleware adds to it, then it is frozen into a
/// `ReplyPlan`.
struct ReplyDraft {
    let request: HTTPRequest
    var response: HTTPResponse
    var canned: CannedReply?
    var delivery = ReplyPlan.Delivery.whole
    var delayMilliseconds = 0
    var session: String?
    var applied: String?
    var ruleID: String?
    var isAdmin = false
    var rateLimit: (remaining: Int, resetsAt: Int) = (0, 0)

    init(request: HTTPRequest, response: HTTPResponse, session: String? = nil) {
        self.request = request
        self.response = response
        self.session = session
    }
}
