/// A concern every reply passes through: in order, before anything is written, and once the server is done.
///
/// The pipeline keeps them in order in a `MiddlewareChain`; adding a concern is one type and one line there. Each
/// runs on the event loop and must not block.
protocol ReplyMiddleware {
    /// Adjusts the plan before anything is written: headers, status, body.
    mutating func prepare(_ plan: inout ReplyDraft)
    /// Learns how the reply went, once the server is done with it (sent, closed, or abandoned by the client).
    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome)
}

extension ReplyMiddleware {
    mutating func prepare(_ plan: inout ReplyDraft) {}
    func completed(_ plan: ReplyPlan, _ outcome: ReplyOutcome) {}
}

/// How a reply went on the wire.
struct ReplyOutcome {
    /// The status sent, or 0 when no status line was sent (empty, reset, hang, garbage).
    var status: Int
    /// Body bytes handed to the socket.
    var bytesWritten: Int
    /// Monotonic milliseconds when the head was queued, if it was.
    var firstByteAt: Double?
    /// Monotonic milliseconds when the server was done.
    var finishedAt: Double
    /// What the upstream did, for a forwarded reply.
    var upstream: UpstreamOutcome?
    /// What a WebSocket said and heard.
    var socket: SocketTranscript?
}
