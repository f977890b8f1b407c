/// Pushes every journaled reply to the control room's live feed, and lets the feed look at the state after an
/// admin request (a click on the page shows at once). Sits after `JournalMiddleware`, whose entry it sends.
struct LiveFeedMiddleware: ReplyMiddleware {
    let feed: LiveFeed

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        // With nobody watching, this check is the whole cost.
        guard feed.subscriberCount > 0 else { return }
        // After an admin request, or a rule firing, the counters shown change at the next flush rather than at the
        // next poll of the state.
        feed.completed(journaled: !plan.isAdmin, stateMayHaveChanged: plan.isAdmin || plan.ruleID != nil,
                       now: outcome.finishedAt)
    }
}
