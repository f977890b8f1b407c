/// The middleware every reply passes through, in order. The standard ones are stored as their own types and
/// called directly: a list of existentials cost each request a box projection, a uniqueness check and a copy of
/// the plan per concern. Others can be appended (`extra`) and run after them.
struct MiddlewareChain {
    private var faultApplied = FaultAppliedMiddleware()
    private var rateLimit = RateLimitHeadersMiddleware()
    private var cors = CORSMiddleware()
    private var conditionalGET = ConditionalGETMiddleware()
    private let journal: JournalMiddleware
    /// After the journal, whose entry it sends.
    private let liveFeed: LiveFeedMiddleware
    private let log: RequestLogMiddleware?
    /// Concerns added after the standard ones, in order.
    var extra: [any ReplyMiddleware] = []

    init(journal: Journal, feed: LiveFeed, requestLog: (@Sendable (RequestLogEntry) -> Void)?) {
        self.journal = JournalMiddleware(journal: journal)
        liveFeed = LiveFeedMiddleware(feed: feed)
        log = requestLog.map(RequestLogMiddleware.init(log:))
    }

    /// Headers are added in this order, after the route's own.
    mutating func prepare(_ plan: ReplyPlan) {
        faultApplied.prepare(plan)
        rateLimit.prepare(plan)
        cors.prepare(plan)
        conditionalGET.prepare(plan)
        for index in extra.indices { extra[index].prepare(plan) }
    }

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        journal.completed(plan, outcome)
        liveFeed.completed(plan, outcome)
        log?.completed(plan, outcome)
        for concern in extra { concern.completed(plan, outcome) }
    }
}
