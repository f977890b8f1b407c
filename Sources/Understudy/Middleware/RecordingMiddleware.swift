/// Keeps each forwarded exchange once it is over, and records it while recording (`--record`): the request as the
/// client sent it and the upstream's reply as it came, before any fault.
struct RecordingMiddleware: ReplyMiddleware {
    let recorder: Recorder

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        guard plan.delivery.isForwarded || plan.delivery.isRelayedSocket, let upstream = outcome.upstream else { return }
        recorder.forwarded(plan.request, upstream.reply)
    }
}
