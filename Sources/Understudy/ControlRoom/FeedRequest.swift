/// What a subscriber asked of the feed: where to resume, and when to stop.
struct FeedRequest: Equatable {
    /// The journal id the subscriber already has (`Last-Event-ID`); requests after it are sent first.
    var resumeAfter: Int?
    /// The feed ends cleanly after this many events (`count`; nil: never). For scripts and tests that want a
    /// bounded look at the feed, as `curl` with `?count=1` shows the current state and exits.
    var limit: Int?

    /// At most this many journal entries are replayed on resume: a viewer back from a long absence needs the
    /// recent past, not ten thousand rows.
    static let maximumReplay = 500
    /// The largest `Last-Event-ID` taken: fifteen digits, far past any journal id.
    static let largestEventID = 999_999_999_999_999

    /// Reads `count` and `Last-Event-ID`.
    static func parse(_ request: HTTPRequest) throws(APIError) -> FeedRequest {
        var feed = FeedRequest()
        if let text = request.query["count"] {
            guard let count = Int(text), (1...1_000_000).contains(count) else {
                throw APIError(400, "Invalid 'count' - must be a whole number from 1 to 1000000")
            }
            feed.limit = count
        }
        if let last = request.headers["Last-Event-ID"], !last.isEmpty {
            guard let id = Int(last.trimmingJSWhitespace()), (0...FeedRequest.largestEventID).contains(id) else {
                throw APIError(400, "Invalid 'Last-Event-ID' - must be a whole number from 0 to \(FeedRequest.largestEventID), the id of the last request event received")
            }
            feed.resumeAfter = id
        }
        return feed
    }

    /// The reply head: 200, `text/event-stream`, never cached or buffered by a proxy.
    static var head: HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        ])
    }
}
