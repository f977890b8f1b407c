/// Hands every reply to the configured request log (the command line prints them).
struct RequestLogMiddleware: ReplyMiddleware {
    let log: @Sendable (RequestLogEntry) -> Void

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        log(RequestLogEntry(method: plan.request.method, target: plan.request.target, status: outcome.status,
                            durationMilliseconds: outcome.finishedAt - plan.request.startedAt, fault: plan.applied))
    }
}
