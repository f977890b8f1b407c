/// What the journal and the request log need of a request answered with a ``CannedReply``, read from evhttp once.
struct CannedRequest {
    let target: String
    let path: String
    let query: String
    let headers: HTTPHeaders
    let session: String?
    /// Monotonic milliseconds when the loop took the request.
    let startedAt: Double
    /// Wall-clock seconds when it arrived.
    let arrivedAt: Double
    /// The rate-limit counters it was counted with on arrival.
    let window: (remaining: Int, resetsAt: Int)
}
