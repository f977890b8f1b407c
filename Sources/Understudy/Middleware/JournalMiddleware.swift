/// Adds every reply the server is done with to the journal, admin replies apart.
struct JournalMiddleware: ReplyMiddleware {
    let journal: Journal

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        guard !plan.isAdmin else { return }
        let request = plan.request
        journal.record(JournalEntry(
            id: journal.nextID(), time: request.arrivedAt, session: plan.session, method: request.method,
            target: request.target, pathLength: request.path.utf8.count, rawHeaders: request.headers,
            bodySize: request.body.count, rule: plan.ruleID, fault: plan.applied, status: outcome.status,
            bytesWritten: outcome.bytesWritten, firstByteMilliseconds: outcome.firstByteAt.map { $0 - request.startedAt },
            durationMilliseconds: outcome.finishedAt - request.startedAt, upstream: outcome.upstream,
            socket: outcome.socket))
    }
}
