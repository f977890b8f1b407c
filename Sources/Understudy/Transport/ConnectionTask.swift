import CLibevent

/// A reply that outlives one callback — paced, truncated, broken, hung or streamed. It owns the request until
/// the server is done with it (`machine`) and learns, through evhttp's close callback, when the client goes
/// away, so its timers and buffers are freed at once. Lives on its loop thread.
final class ConnectionTask {
    let request: OpaquePointer
    let plan: ReplyPlan
    var machine = ReplyStateMachine()
    /// The evhttp connection, until it closes.
    var connection: OpaquePointer?
    var timer: OpaquePointer?
    /// Whether `timer` fires repeatedly (EV_PERSIST) or once per `schedule`.
    var timerRepeats = false
    /// Runs on each timer tick.
    var onTick: ((ConnectionTask) -> Void)?
    var bytesWritten = 0
    var statusSent = 0
    var firstByteAt: Double?
    /// What the task still has to write when paced.
    var remainingBody: ArraySlice<UInt8> = []
    var stream: EventStream?
    weak var writer: ReplyWriter?

    init(request: OpaquePointer, plan: ReplyPlan, writer: ReplyWriter) {
        self.request = request
        self.plan = plan
        self.writer = writer
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
