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
        /// At a rate or in pieces, with seeded pauses (`stall`) drawn from `seed`.
        case paced(FaultSpec.Pacing?, stall: ClosedRange<Int>?, seed: UInt64)
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
        /// Forwarded to the upstream, with these faults applied to its reply as it arrives.
        indirect case proxy(ProxyPlan)
        /// A document's event stream (`--spec`), with the stream faults applied to its events.
        indirect case events(DocumentEventsPlan)
        /// A WebSocket, once its 101 is sent (`/ws/…`).
        case socket(WebSocketPlan)

        /// Whether the reply comes from the upstream.
        var isForwarded: Bool {
            if case .proxy = self { return true }
            return false
        }

        /// Whether it is a socket relayed to the upstream (whose answer, a 101 or not, is the upstream's too).
        var isRelayedSocket: Bool {
            if case .socket(let plan) = self { return plan.relays }
            return false
        }
    }

    /// The decision, kept whole: freezing a draft moves it in rather than copying it field by field.
    private let decided: ReplyDraft

    init(_ draft: consuming ReplyDraft) {
        decided = draft
    }

    var request: HTTPRequest { decided.request }
    var response: HTTPResponse { decided.response }
    /// A reply built once and sent as is (the fast path); when set, `response` is not sent.
    var canned: CannedReply? { decided.canned }
    var delivery: Delivery { decided.delivery }
    var delayMilliseconds: Int { decided.delayMilliseconds }
    var session: String? { decided.session }
    /// The directives of `fault` that took effect, as `X-Understudy-Fault-Applied` reports them (nil: none did).
    var applied: String? { decided.applied }
    var ruleID: String? { decided.ruleID }
    /// The admin API's replies are logged but not journaled.
    var isAdmin: Bool { decided.isAdmin }
    var dropsUnreadBody: Bool { decided.dropsUnreadBody }
    /// The request's rate-limit counters, for a canned reply's head (other replies carry them as headers).
    var rateLimit: (remaining: Int, resetsAt: Int) { decided.rateLimit }

    /// The status the reply carries.
    var status: Int { canned?.status ?? response.status }
}

/// A reply being decided: the pipeline fills it in, the middleware adds to it, then it is frozen into a
/// `ReplyPlan`. Not copyable: a draft is moved from step to step and into its plan, never duplicated (a copy of
/// its dozen fields cost every request more than the rest of the decision).
struct ReplyDraft: ~Copyable {
    let request: HTTPRequest
    var response: HTTPResponse
    var canned: CannedReply?
    var delivery = ReplyPlan.Delivery.whole
    var delayMilliseconds = 0
    var session: String?
    var applied: String?
    var ruleID: String?
    var isAdmin = false
    /// The request came with a body evhttp does not read: the transport drops it, and the reply closes the
    /// connection.
    var dropsUnreadBody = false
    var rateLimit: (remaining: Int, resetsAt: Int) = (0, 0)
    /// Whether the reply gets DummyJSON's rate-limit window headers (its responder's say).
    var sendsRateLimitWindow = true

    init(request: HTTPRequest, response: HTTPResponse, session: String? = nil) {
        self.request = request
        self.response = response
        self.session = session
    }
}
