/// `X-Understudy-Fault-Applied`: which directives of the request's fault took effect, so a client (and a person
/// reading its log) can tell an injected failure from a real one.
struct FaultAppliedMiddleware: ReplyMiddleware {
    func prepare(_ plan: inout ReplyDraft) {
        guard let applied = plan.applied else { return }
        plan.response.headers.add(FaultHeaders.applied, applied)
    }
}
