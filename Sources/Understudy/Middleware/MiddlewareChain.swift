/// The middleware every reply passes through, in order. Each is stored as its own type and called directly: a
/// list of existentials cost each request a box projection, a uniqueness check and a copy of the plan per concern.
///
/// A class the pipeline holds, used on its loop thread only: as a struct in the pipeline's `var`, every call copied
/// it out (a retain and a release of each concern's references, ~350 instructions per request).
final class MiddlewareChain {
    // One thread, and no call overlaps another: the run-time exclusivity check (~75 instructions a request) is
    // left out.
    @exclusivity(unchecked) private var faultApplied = FaultAppliedMiddleware()
    @exclusivity(unchecked) private var rateLimit = RateLimitHeadersMiddleware()
    @exclusivity(unchecked) private var cors = CORSMiddleware()
    @exclusivity(unchecked) private var conditionalGET = ConditionalGETMiddleware()
    private let journal: JournalMiddleware
    private let recording: RecordingMiddleware
    /// After the journal, whose entry it sends.
    private let liveFeed: LiveFeedMiddleware
    private let log: RequestLogMiddleware?

    init(journal: Journal, feed: LiveFeed, recorder: Recorder, requestLog: (@Sendable (RequestLogEntry) -> Void)?) {
        self.journal = JournalMiddleware(journal: journal)
        recording = RecordingMiddleware(recorder: recorder)
        liveFeed = LiveFeedMiddleware(feed: feed)
        log = requestLog.map(RequestLogMiddleware.init(log:))
    }

    /// Headers are added in this order, after the route's own.
    func prepare(_ plan: inout ReplyDraft) {
        // A canned reply's head was built once, with what the concerns add to it (the fast path takes no request
        // with an Origin or a condition, and its fault reports sit in the head): only the rate-limit counters
        // differ per request, and they are written into that head.
        guard plan.canned == nil else {
            plan.rateLimit = rateLimit.count(plan)
            return
        }
        faultApplied.prepare(&plan)
        // DummyJSON's window is DummyJSON's: a forwarded reply carries the upstream's counters, not ours, and a
        // document's API its own.
        if plan.delivery.isForwarded || !plan.sendsRateLimitWindow {
            _ = rateLimit.count(plan)
        } else {
            rateLimit.prepare(&plan)
        }
        cors.prepare(&plan)
        conditionalGET.prepare(&plan)
    }

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        journal.completed(plan, outcome)
        recording.completed(plan, outcome)
        liveFeed.completed(plan, outcome)
        log?.completed(plan, outcome)
    }
}
