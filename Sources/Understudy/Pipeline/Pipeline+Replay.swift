extension Pipeline {
    /// Whether the DummyJSON routes answer: not while a recording is replayed, and only they have canned replies
    /// and a stream route.
    var servesBuiltInRoutes: Bool { replay == nil }

    /// The recording's reply to `incoming` (a miss's 502 included), or nil when no recording is replayed.
    func replayedResponse(for incoming: HTTPRequest) -> HTTPResponse? {
        guard let replay else { return nil }
        switch replay.answer(incoming) {
        case .hit(let response): return response
        case .miss(let miss): return ReplayRoutes.missResponse(miss)
        }
    }
}
