/// Records each forwarded exchange once it is over (`--record`): the request as the client sent it and the
/// upstream's reply as it came, before any fault.
struct RecordingMiddleware: ReplyMiddleware {
    let recorder: Recorder

    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {
        guard recorder.isRecording, plan.delivery.isForwarded, outcome.upstream != nil else { return }
        recorder.record(plan.request, outcome.upstream?.reply)
    }
}
