import CLibevent

/// A reply that outlives one callback — paced, truncated, broken, hung or streamed. It owns the request until
/// the server is done with it and learns, through evhttp's close callback, when the client goes away, so its
/// timers and buffers are freed at once.
final class ConnectionTask {
    let request: OpaquePointer
    var plan: ReplyPlan
    /// The evhttp connection, until it closes.
    var connection: OpaquePointer?
    /// Whether the request still belongs to us (not yet ended, freed or handed back to evhttp).
    var ownsRequest = true
    /// Set while the server itself closes the connection, so the close callback leaves the request to evhttp.
    var closingOnPurpose = false
    var timer: OpaquePointer?
    /// Whether `timer` fires repeatedly (EV_PERSIST) or once per `schedule`.
    var timerRepeats = false
    /// Runs on each timer tick.
    var onTick: ((ConnectionTask) -> Void)?
    var bytesWritten = 0
    var statusSent = 0
    var firstByteAt: Double?
    var recorded = false
    /// What the task still has to write when paced.
    var remainingBody: ArraySlice<UInt8> = []
    var stream: EventStream?
    weak var loop: EventLoop?

    init(request: OpaquePointer, plan: ReplyPlan, loop: EventLoop) {
        self.request = request
        self.plan = plan
        self.loop = loop
    }

    var bufferEvent: OpaquePointer? {
        connection.flatMap { evhttp_connection_get_bufferevent($0) }
    }

    /// Bytes written by the server but not yet taken by the socket.
    var unflushedBytes: Int {
        guard let bufferEvent, let output = bufferevent_get_output(bufferEvent) else { return 0 }
        return evbuffer_get_length(output)
    }
}
