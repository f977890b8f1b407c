/// What `GET /products/stream` will send: its parameters, where to resume, and its faults.
struct StreamPlan: Equatable {
    /// Milliseconds between events.
    var intervalMilliseconds = 1_000
    /// The last event id; the stream ends cleanly after it (nil: never).
    var lastEventID: Int?
    /// The reconnection time announced in the `retry:` field.
    var retryMilliseconds = 3_000
    /// Milliseconds between `:` comment heartbeats (nil: none).
    var heartbeatMilliseconds: Int? = 15_000
    /// The id the client already has (`Last-Event-ID`); the stream resumes after it.
    var resumeAfter = 0
    /// The largest event id a stream counts to: some thirty years of events at the shortest interval (10 ms).
    static let largestEventID = 100_000_000_000
    var faults = FaultSpec.StreamFaults()
    /// The seed event payloads derive from.
    var seed: UInt64 = 0

    /// Whether the client already has every event (`Last-Event-ID` at or past `count`).
    var isComplete: Bool {
        lastEventID.map { resumeAfter >= $0 } ?? false
    }

    /// The reply head: 200, `text/event-stream`, no caching.
    var head: HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        ])
    }

    /// Reads the stream's query parameters and `Last-Event-ID`.
    static func parse(_ request: HTTPRequest, faults: FaultSpec.StreamFaults, seed: UInt64) throws(APIError) -> StreamPlan {
        var plan = StreamPlan(faults: faults, seed: seed)
        plan.intervalMilliseconds = try request.wholeNumber("interval", in: 10...60_000) ?? plan.intervalMilliseconds
        plan.lastEventID = try request.wholeNumber("count", in: 1...1_000_000)
        plan.retryMilliseconds = try request.wholeNumber("retry", in: 0...3_600_000) ?? plan.retryMilliseconds
        if let heartbeat = try request.wholeNumber("heartbeat", in: 0...3_600_000) {
            plan.heartbeatMilliseconds = heartbeat == 0 ? nil : max(10, heartbeat)
        }
        if let last = request.headers["Last-Event-ID"], !last.isEmpty {
            // Bounded so that counting on from it, and the timestamps derived from it, stay in range.
            guard let id = Int(last.trimmingJSWhitespace()), (0...StreamPlan.largestEventID).contains(id) else {
                throw APIError(400, "Invalid 'Last-Event-ID' - must be a whole number from 0 to \(StreamPlan.largestEventID), the id of the last event received")
            }
            plan.resumeAfter = id
        }
        return plan
    }
}
