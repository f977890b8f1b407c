import CLibevent

/// A reply that outlives one callback: its request, its delivery, and what the writer knows of its life. It owns
/// the request until the server is done with it (`machine`) and learns, through evhttp's close callback, when the
/// client goes away, so its timer and buffers are freed at once. Lives on its loop thread.
final class ConnectionTask {
    /// What the task waits for between turns.
    enum Wait: Equatable {
        /// The delivery's next turn.
        case turn
        /// Every written byte to leave for the socket (until `deadline`), then a close; with `reset`, an RST after
        /// `pauseTicks` more ticks.
        case flush(reset: Bool, deadline: Double, pauseTicks: Int)
        /// The client to leave a hung request.
        case departure
    }

    let request: OpaquePointer
    let plan: ReplyPlan
    var delivery: any Delivery
    var machine = ReplyStateMachine()
    var turns = ReplyStateMachine.Turns()
    /// Asks for a turn now (made once, when the delivery starts).
    var waker: DeliveryWaker?
    /// The evhttp connection, until it closes.
    var connection: OpaquePointer?
    var timer: OpaquePointer?
    var wait = Wait.turn
    /// What the journal will say: the status sent, the bytes written, when the first went out.
    var outcome = ReplyOutcome(status: 0, bytesWritten: 0, firstByteAt: nil, finishedAt: 0)
    weak var writer: ReplyWriter?
    /// What the client sent since the delivery's last turn, when the delivery reads it (`Delivery.readsClient`).
    var received: [UInt8] = []

    init(request: OpaquePointer, plan: ReplyPlan, delivery: any Delivery, writer: ReplyWriter) {
        self.request = request
        self.plan = plan
        self.delivery = delivery
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

extension ConnectionTask {
    /// A turn has read `received`: emptied for the next read, in the same storage.
    func receivedTaken() {
        readTaken(&received)
    }
}
