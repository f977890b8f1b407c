/// An accepted WebSocket as a delivery: the 101, then the conversation's decisions (`WebSocketConversation`) on
/// the wire. The writer hands it what the client sends (`DeliveryContext.received`), each read a turn; it answers
/// with the frames to write and when to close, and the writer performs them as it does any reply's steps.
///
/// A close the server starts waits `closingTimeoutMilliseconds` for the client's answer, then the connection ends
/// without it (RFC 6455 §7.1.1: the server closes the TCP connection first). On shutdown the socket is closed with
/// 1001, going away.
struct WebSocketSession: Delivery {
    private var conversation: WebSocketConversation
    private var opened = false
    /// When a close the server sent stops waiting for the client's (monotonic ms); nil while none is waiting.
    private var closingDeadline: Double?
    /// The conversation is over: its last step, a close once flushed, has been taken.
    private var ended: Bool { conversation.state == .closed }

    /// How long a close the server sends waits for the client's answer.
    static let closingTimeoutMilliseconds = 5_000.0

    init(plan: WebSocketPlan) {
        conversation = WebSocketConversation(maximumMessageBytes: plan.maximumMessageBytes,
                                             echoes: plan.endpoint == .echo)
    }

    /// Its 101 opens the connection to it: what the client sends next is frames, read here.
    var readsClient: Bool { true }

    /// A socket sends small frames whenever it has them; a reader that stops reading is noticed early.
    var prefersSmallSendBuffer: Bool { true }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        var steps: [DeliveryStep] = []
        if !opened {
            opened = true
            steps.append(.head(contentLength: nil))
        }
        if !context.received.isEmpty {
            steps += perform(conversation.receive(context.received))
        }
        if conversation.state == .closing, closingDeadline == nil {
            closingDeadline = context.now + WebSocketSession.closingTimeoutMilliseconds
        }
        if !ended, let deadline = closingDeadline, context.now >= deadline {
            steps += perform(conversation.closingTimedOut())
        }
        return DeliveryTurn(steps, wake: ended ? nil : closingDeadline.map { max(0, $0 - context.now) })
    }

    /// The server goes away: the socket is closed with 1001 and the client's answer ends it (or the grace period).
    mutating func shutDown() -> [DeliveryStep] {
        guard opened, !ended else { return [] }
        return perform(conversation.close(.goingAway, reason: "the server is shutting down"))
    }

    /// The conversation's actions as the writer's steps.
    private mutating func perform(_ actions: [WebSocketConversation.Action]) -> [DeliveryStep] {
        var steps: [DeliveryStep] = []
        for action in actions {
            switch action {
            case .send(let bytes):
                steps.append(.raw(bytes))
            case .closeWhenFlushed:
                steps.append(.closeWhenFlushed(reset: false))
            }
        }
        return steps
    }
}
