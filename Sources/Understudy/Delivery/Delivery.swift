/// How a reply's bytes reach the client over time, as a value the transport drives without knowing what it is:
/// paced, truncated, broken, hung, garbage, an event stream, the live feed.
///
/// The writer calls `advance` when the reply starts, then whenever the turn before asked (`DeliveryTurn.wake`) or
/// something woke the delivery (`DeliveryContext.waker`); the delivery answers with what to write and when to call
/// again. It decides; the writer performs. So each delivery is unit-tested by driving it with a clock and reading
/// its steps (`Tests/UnderstudyTests/Delivery/`), and a new kind of delivery touches no transport code.
///
/// A whole reply is not a delivery: the writer sends it in one call, by reference, the server's fast path.
/// Used on its loop thread only.
protocol Delivery {
    /// The next turn: steps to perform now, in order, and when to be called again.
    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn

    /// The server is shutting down: the steps that end this reply at once (an endless stream ends cleanly, a hang
    /// closes). Empty: the reply carries on until it is done or the grace period ends.
    mutating func shutDown() -> [DeliveryStep]

    /// The reply is over (ended, closed, or the client left); called once.
    func finished()

    /// Whether the connection should keep only a small kernel send buffer, so that a reader that stops reading is
    /// noticed after kilobytes rather than the megabytes Linux would buffer (streams and the feed).
    var prefersSmallSendBuffer: Bool { get }

    /// What the upstream did, for a reply forwarded from it (the journal keeps it); nil for any other.
    var upstream: UpstreamOutcome? { get }

    /// What a WebSocket said and heard (the journal keeps it); nil for any other reply.
    var socketTranscript: SocketTranscript? { get }

    /// Whether the connection is the delivery's once its head is sent (a WebSocket after its 101): what the client
    /// sends from then on reaches it as `DeliveryContext.received`, each read a turn, instead of evhttp's parser.
    var readsClient: Bool { get }
}

extension Delivery {
    func shutDown() -> [DeliveryStep] { [] }
    func finished() {}
    var prefersSmallSendBuffer: Bool { false }
    var upstream: UpstreamOutcome? { nil }
    var socketTranscript: SocketTranscript? { nil }
    var readsClient: Bool { false }
}

/// What a delivery sees of its connection when it is advanced.
struct DeliveryContext {
    /// Monotonic milliseconds now.
    var now: Double
    /// Bytes written but not yet taken by the socket: a reader that has fallen behind.
    var unflushedBytes: Int
    /// Asks the writer for another turn now, for deliveries that are fed from elsewhere (the live feed).
    var waker: DeliveryWaker?
    /// What the client sent since the last turn, for a delivery that `readsClient`.
    var received: [UInt8]

    init(now: Double, unflushedBytes: Int = 0, waker: DeliveryWaker? = nil, received: [UInt8] = []) {
        self.now = now
        self.unflushedBytes = unflushedBytes
        self.waker = waker
        self.received = received
    }
}

/// What a delivery asks of its writer in one turn.
struct DeliveryTurn: Equatable {
    var steps: [DeliveryStep]
    /// Milliseconds until the writer calls `advance` again; nil: not until woken. Ignored once a step ended the
    /// reply (`DeliveryStep.isFinal`).
    var wake: Double?

    init(_ steps: [DeliveryStep] = [], wake: Double? = nil) {
        self.steps = steps
        self.wake = wake
    }
}

/// Lets a delivery fed from elsewhere ask for a turn now; the writer makes one (or, when the delivery is in a turn
/// already, another one straight after it).
final class DeliveryWaker {
    private let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    func wake() {
        action()
    }
}
