/// What answers the requests of one serving mode, behind the fault decision: the DummyJSON catalogue, a replayed
/// recording, an upstream, a document. One is built at start (`ResponderFactory`, the only reader of the
/// configuration's mode) and the pipeline only asks it; a new way of answering is a new conformer, not another
/// check inside `Pipeline`.
///
/// Its parts, in the order the pipeline asks for them: a reply built once for a plain GET (the fast path), the
/// indexes a request needs built first, what kind of reply a request gets (which fault directives may act on it),
/// then the answer itself, and for an answer that outlives one write (a stream, a forwarded reply) the delivery
/// that carries it out. Used on its loop thread only.
protocol Responder: AnyObject {
    /// A reply built once for what decides these bytes, for a plain GET (no body, no `Origin` or condition, no
    /// fault asked for, no rule installed) and the delay it asks for; nil when the request takes the whole pipeline.
    func cannedReply(for request: HTTPRequest) -> CannedAnswer?

    /// Whether a fault header asking only for an error status may be answered from a reply built once: only where
    /// such a request would otherwise get exactly those bytes from the pipeline.
    var cansFaultReplies: Bool { get }

    /// Whether replies carry DummyJSON's `X-RateLimit-*` window: the DummyJSON API's own headers, not a document's
    /// (a `rate-limit` fault still counts in its bucket, and says so).
    var sendsRateLimitWindow: Bool { get }

    /// What `request` needs built, off the loop, before it is answered; nil: nothing (asked past the fast path).
    func groundwork(for request: HTTPRequest) -> Groundwork?

    /// What kind of reply `request` gets, found once: the fault decision leaves out the directives that cannot act
    /// on it, and `respond` is handed the same value.
    func kind(of request: HTTPRequest) -> RequestKind

    /// The answer to `request`, with the fault decided for it (nil: none) and the seed its random picks draw from.
    func respond(to request: HTTPRequest, as kind: RequestKind, fault: FaultSpec?, seed: UInt64) -> Answer

    /// The reply its API documents for an error `status` on `request` (a served document's own response for it), which
    /// a status fault without a `message` answers with in place of DummyJSON's `{"message": …}`; nil: the fault's own.
    func documentedReply(status: Int, for request: HTTPRequest, seed: UInt64) -> HTTPResponse?

    /// The delivery of a plan whose answer this responder made and that outlives one write (`ReplyPlan.Delivery`'s
    /// `.stream`, `.feed` or `.proxy`); nil for any other.
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)?
}

extension Responder {
    func cannedReply(for request: HTTPRequest) -> CannedAnswer? { nil }
    var cansFaultReplies: Bool { false }
    var sendsRateLimitWindow: Bool { true }
    func groundwork(for request: HTTPRequest) -> Groundwork? { nil }
    func kind(of request: HTTPRequest) -> RequestKind { .body }
    func documentedReply(status: Int, for request: HTTPRequest, seed: UInt64) -> HTTPResponse? { nil }
    func delivery(for plan: ReplyPlan, clientAddress: @autoclosure () -> String?) -> (any Delivery)? { nil }
}

/// A reply built once, and the delay its target asks for.
typealias CannedAnswer = (reply: CannedReply, delayMilliseconds: Int)
