import UnderstudyWebSocket

/// An accepted WebSocket as a delivery: the 101, then the conversation's decisions (`WebSocketConversation`) on
/// the wire, with every message the endpoint sends passed through the socket's faults (`WebSocketSender`). The
/// writer hands it what the client sends (`DeliveryContext.received`), each read a turn; it answers with the
/// frames to write and when to close, and the writer performs them as it does any reply's steps.
///
/// A close the server starts waits `closingTimeoutMilliseconds` for the client's answer, then the connection ends
/// without it (RFC 6455 §7.1.1: the server closes the TCP connection first). On shutdown the socket is closed with
/// 1001, going away. A stalled socket writes nothing at all, pongs and close answers included, until the client
/// leaves.
struct WebSocketSession: Delivery {
    let plan: WebSocketPlan
    /// What the feed draws on (nil for a socket with no feed: a replayed one).
    private let source: StreamSource?
    private let hub: WebSocketHub
    /// This socket's entry in the hub, from its first turn.
    private var mailbox: WebSocketHub.Mailbox?
    // Not private: the relay's half (`WebSocketSession+Relay.swift`) acts on both.
    var conversation: WebSocketConversation
    var sender: WebSocketSender
    private var opened = false
    /// When the feed's next message is due, and its number; nil for other endpoints or once the feed is done.
    private var nextFeedAt: Double?
    private var feedID = 0
    /// A replayed socket's recorded conversation, as far as it has been played.
    private var script: WebSocketScript?
    /// A relayed socket's upstream (`--upstream`); nil for any other.
    var leg: WebSocketUpstreamLeg?
    /// The steps of the last turn, kept for their storage (`advance`).
    private var stepStorage: [DeliveryStep] = []
    /// The sender's outputs of a turn, emptied after each; kept for its storage (`performDue`).
    private var outputs: [WebSocketSender.Output] = []
    /// When a close the server sent stops waiting for the client's (monotonic ms); nil while none is waiting.
    private var closingDeadline: Double?
    /// Its bytes' way out under a network profile's rate; nil when nothing paces them.
    private var outbox: WebSocketOutbox?
    /// What the socket said and heard, for its journal entry.
    private var transcriber = WebSocketTranscriber()
    /// The conversation is over: its last step, a close once flushed, has been taken.
    private var ended: Bool { conversation.state == .closed }

    /// How long a close the server sends waits for the client's answer.
    static let closingTimeoutMilliseconds = 5_000.0

    init(plan: WebSocketPlan, source: StreamSource?, hub: WebSocketHub, leg: WebSocketUpstreamLeg? = nil) {
        self.plan = plan
        self.source = source
        self.hub = hub
        self.leg = leg
        conversation = WebSocketConversation(maximumMessageBytes: plan.maximumMessageBytes)
        sender = WebSocketSender(faults: plan.faults, seed: plan.seed)
        outbox = plan.faults.bytesPerSecond.map(WebSocketOutbox.init)
        if case .replay(let recorded, _) = plan.behaviour { script = recorded }
    }

    /// Its 101 opens the connection to it: what the client sends next is frames, read here. A relayed socket's
    /// upstream may refuse instead, and that reply is plain HTTP.
    var readsClient: Bool { leg?.accepted ?? true }

    /// A socket sends small frames whenever it has them; a reader that stops reading is noticed early.
    var prefersSmallSendBuffer: Bool { true }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        let now = context.now
        // Last turn's storage, which the writer has let go of by now: no new array each turn.
        var steps = stepStorage
        stepStorage = []
        steps.removeAll(keepingCapacity: true)
        defer { stepStorage = steps }
        var upstreamEvents: [WebSocketRelay.Event] = []
        if !opened, leg != nil {
            // A relayed socket opens once the upstream has: its 101 (or its refusal) is the client's.
            switch leg!.answer(now: now, waker: context.waker) {
            case .waiting(let wake): return DeliveryTurn([], wake: wake)
            case .refused(let reply): return DeliveryTurn(reply)
            case .accepted(let head, let then):
                steps.append(head)
                upstreamEvents = then
            }
        }
        if !opened {
            opened = true
            transcriber.opened(at: now)
            mailbox = hub.opened(path: plan.path, session: plan.session, room: plan.room, waker: context.waker)
            if leg == nil { steps.append(.head(contentLength: nil)) }
            if plan.endpoint == .feed { nextFeedAt = now + Double(plan.feed.intervalMilliseconds) }
            script?.opened(now: now)
            perform(sender.open(now: now), into: &steps)
        }
        if !context.received.isEmpty {
            conversation.append(context.received)
            while let action = conversation.next() {
                if case .received(let opcode, let payload) = action {
                    transcriber.note(.received, opcode, bytes: payload.count, now: now)
                }
                perform(action, now: now, into: &steps)
            }
        }
        if let pushes = mailbox?.takePending(), !pushes.isEmpty {
            perform(pushes, now: now, into: &steps)
        }
        if leg != nil { steps += relay(upstreamEvents, now: now) }
        if conversation.state == .open, steps.last?.isFinal != true {
            feed(now: now)
            play(now: now)
            performDue(now: now, into: &steps)
        }
        mailbox?.sent = sender.numbered
        if conversation.state == .closing, closingDeadline == nil {
            closingDeadline = now + WebSocketSession.closingTimeoutMilliseconds
        }
        if !ended, let deadline = closingDeadline, now >= deadline {
            perform(conversation.closingTimedOut(), now: now, into: &steps)
        }
        noteSentAndClosed(now: now)
        let pacedWake: Double?
        (steps, pacedWake) = paced(steps, now: now)
        if steps.last?.isFinal == true { return DeliveryTurn(steps) }
        // A stalled or finished sender takes no more of the feed, so its schedule is no reason to wake.
        let feeding = conversation.state == .open && sender.state == .sending
        let due = earliest(earliest(closingDeadline, sender.nextDue),
                           earliest(feeding ? nextFeedAt : nil, feeding ? script?.nextDue : nil))
        let wake = ended ? nil : due.map { max(0, $0 - now) }
        return DeliveryTurn(steps, wake: earliest(wake, pacedWake))
    }

    /// Nil for a relayed upgrade the upstream refused: no socket was opened.
    var socketTranscript: SocketTranscript? { opened ? transcriber.transcript : nil }

    /// What the socket said and heard so far.
    var transcript: SocketTranscript { transcriber.transcript }

    var upstream: UpstreamOutcome? { leg?.recordedOutcome }

    /// The socket is gone: it leaves the hub, and a relayed one's upstream connection ends.
    func finished() {
        if let mailbox { hub.closed(mailbox) }
        leg?.finish(clientClosed: transcriber.notedClientClose)
    }

    /// The server goes away: the socket is closed with 1001 and the client's answer ends it (or the grace period).
    mutating func shutDown() -> [DeliveryStep] {
        guard opened, !ended else { return [] }
        let now = EventLoop.monotonicMilliseconds()
        var steps: [DeliveryStep] = []
        perform(conversation.close(.goingAway, reason: "the server is shutting down"), now: now, into: &steps)
        noteSentAndClosed(now: now)
        // Behind what a paced socket still has to send: a frame cut by the rate must not be split by the close.
        return paced(steps, now: now).steps
    }

    /// The earlier of two times, either of which may be missing. (Not an array's `min()`: this runs every turn, and
    /// the arrays were allocations.)
    private func earliest(_ one: Double?, _ other: Double?) -> Double? {
        guard let one else { return other }
        guard let other else { return one }
        return min(one, other)
    }

    /// `steps` through the profile's rate, when one paces the socket, and the milliseconds until more may go.
    private mutating func paced(_ steps: [DeliveryStep], now: Double) -> (steps: [DeliveryStep], wake: Double?) {
        guard var outbox else { return (steps, nil) }
        defer { self.outbox = outbox }
        return outbox.pass(steps, now: now)
    }

    /// The turn's messages and closes in the transcript; a relayed socket's upstream hears of the client's close.
    private mutating func noteSentAndClosed(now: Double) {
        if let close = transcriber.noteTurn(&sender, conversation, now: now) { leg?.clientClosed(close.code) }
    }

    /// The feed's messages due by `now`, handed to the sender; its close after the last.
    private mutating func feed(now: Double) {
        guard let source else { return }
        while let due = nextFeedAt, due <= now, conversation.state == .open, sender.state == .sending {
            feedID += 1
            let id = feedID
            let stream = StreamPlan(seed: plan.seed)
            let payload = source.eventBytes(id: id, seed: plan.seed) {
                EventStream.payload(for: id, plan: stream, catalog: source.catalog)
            }.payload
            sender.enqueue(.text, payload, now: due)
            if let count = plan.feed.count, id >= count {
                nextFeedAt = nil
                sender.finish(.normal, reason: "the feed is complete", now: due)
            } else {
                nextFeedAt = due + Double(plan.feed.intervalMilliseconds)
            }
        }
    }

    /// A replayed socket's recorded messages due by `now`, handed to the sender as the feed's are.
    private mutating func play(now: Double) {
        guard var script, sender.state == .sending else { return }
        for due in script.take(now: now) {
            sender.enqueue(due.opcode, due.payload, now: due.at)
        }
        self.script = script
    }

    /// The conversation's actions as the writer's steps, added to `steps`.
    private mutating func perform(_ actions: [WebSocketConversation.Action], now: Double,
                                  into steps: inout [DeliveryStep]) {
        for action in actions { perform(action, now: now, into: &steps) }
    }

    /// One of the conversation's actions as the writer's steps, added to `steps` (one array a turn, not one a call):
    /// its messages go through the sender, and a stalled socket writes nothing.
    private mutating func perform(_ action: WebSocketConversation.Action, now: Double,
                                  into steps: inout [DeliveryStep]) {
        guard sender.state != .stalled else { return }
        switch action {
        case .send(let bytes):
            steps.append(.raw(bytes))
        case .received(let opcode, let payload):
            mailbox?.received += 1
            switch plan.endpoint {
            case .echo:
                // Out now unless lagging, so an echo keeps its place before a pong read after it.
                sender.enqueue(opcode, payload, now: now)
                performDue(now: now, into: &steps)
            case .chat:
                let room = plan.room, own = mailbox
                hub.push(.message(opcode, payload)) { $0.room == room && $0 !== own }
            case .feed:
                break
            case nil:
                script?.clientSent(now: now)
                leg?.send(opcode, payload, now: now)
            }
        case .closeWhenFlushed:
            steps.append(.closeWhenFlushed(reset: false))
        }
    }

    /// What the sender has due by `now`, as the writer's steps. Its outputs go through `outputs`, whose storage is
    /// kept from turn to turn (taken out while in use, so the sender and the session can both change).
    private mutating func performDue(now: Double, into steps: inout [DeliveryStep]) {
        var due = outputs
        outputs = []
        sender.take(now: now, into: &due)
        perform(due, into: &steps)
        due.removeAll(keepingCapacity: true)
        outputs = due
    }

    /// What the hub pushed, in order: messages through the faults; a close or a reset from the admin API acts even
    /// on a stalled socket.
    private mutating func perform(_ pushes: [WebSocketHub.Push], now: Double, into steps: inout [DeliveryStep]) {
        for push in pushes {
            switch push {
            case .message(let opcode, let payload):
                sender.enqueue(opcode, payload, now: now)
            case .close(let code, let reason):
                for action in conversation.close(code, reason: reason) {
                    if case .send(let bytes) = action { steps.append(.raw(bytes)) }
                }
            case .reset:
                steps.append(.closeWhenFlushed(reset: true))
                return
            }
        }
    }

    /// The sender's outputs as the writer's steps.
    private mutating func perform(_ outputs: [WebSocketSender.Output], into steps: inout [DeliveryStep]) {
        for output in outputs {
            switch output {
            case .bytes(let bytes):
                steps.append(.raw(bytes))
            case .close(let code, let reason):
                perform(conversation.close(code, reason: reason), now: 0, into: &steps)
            case .reset:
                steps.append(.closeWhenFlushed(reset: true))
            }
        }
    }
}
