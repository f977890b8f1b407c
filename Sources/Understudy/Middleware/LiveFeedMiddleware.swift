/// Pushes every journaled reply to the control room's live feed, and lets the feed look at the state after an
/// admin request (a click on the page shows at once). Sits after `JournalMiddleware`, whose entry it sends.
struct LiveFeedMiddleware: ReplyMiddleware {
    let feed: LiveFeed

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        // With nobody watching, this check is the whole cost.
        guard feed.subscriberCount > 0 else { return }
        if !plan.isAdmin { feed.journalAdvanced() }
        // After an admin request, or a rule firing, the counters shown change now rather than at the next poll.
        if plan.isAdmin || plan.ruleID != nil { feed.stateMayHaveChanged() }
    }
}
