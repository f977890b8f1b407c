extension Pipeline {
    /// The recording's reply to `incoming` (a miss's 502 included when there is no upstream to ask), or nil when no
    /// recording is replayed or a miss goes upstream.
    func replayedResponse(for incoming: HTTPRequest) -> HTTPResponse? {
        guard let replay else { return nil }
        switch replay.answer(incoming) {
        case .hit(let response, let always):
            // A plain GET of an answer that never changes is sent from the fast path from now on.
            if always, request(incoming, isPlainFor: response) { cache.rememberReplay(response, for: incoming.target) }
            return response
        // With an upstream, a miss is forwarded (and recorded, with `--record`).
        case .miss(let miss):
            recorder.missed(incoming)
            return upstream == nil ? ReplayRoutes.missResponse(miss) : nil
        }
    }

    /// Whether `incoming` asks for nothing but the recorded answer: a GET with no body, no fault (header, `_fault`
    /// or rule), no `Origin` or condition (they change the reply), so its canned form serves every later one.
    private func request(_ incoming: HTTPRequest, isPlainFor response: HTTPResponse) -> Bool {
        incoming.method == "GET" && incoming.body.isEmpty && !incoming.hasOriginOrCondition
            && (incoming.faultHeader ?? "").isEmpty && incoming.query["_fault"] == nil && !faults.hasRules
    }
}
