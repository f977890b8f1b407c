extension Pipeline {
    /// Whether the DummyJSON routes answer: not while a recording is replayed, and only they have canned replies
    /// and a stream route.
    var servesBuiltInRoutes: Bool { replay == nil && upstream == nil }

    /// The recording's reply to `incoming` (a miss's 502 included when there is no upstream to ask), or nil when no
    /// recording is replayed or a miss goes upstream.
    func replayedResponse(for incoming: HTTPRequest) -> HTTPResponse? {
        guard let replay else { return nil }
        switch replay.answer(incoming) {
        case .hit(let response): return response
        // With an upstream, a miss is forwarded (and recorded, with `--record`).
        case .miss(let miss):
            recorder.missed(incoming)
            return upstream == nil ? ReplayRoutes.missResponse(miss) : nil
        }
    }
}
