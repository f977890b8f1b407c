import Foundation
import UnderstudyOpenAPI

/// A reply forwarded from the upstream as it arrives, with the request's faults applied on the way: the head when
/// the upstream's head comes, the body slice by slice (paced, cut at an offset, or reset after the head), or a
/// JSON 502/504 naming the upstream when it gives no reply.
///
/// It never holds a whole body, save for the faults that need all of it (`malformed`, a percentage or a number of
/// pieces of a body whose length the upstream did not say). A client reading slower than the upstream sends
/// pauses the upstream's reading, so the bytes in between stay bounded. Used on its loop thread only.
struct ProxiedReply: Delivery {
    /// Bytes the client may leave unread before the upstream is paused.
    static let highWaterBytes = 256 << 10
    /// How often a paused reply looks whether the client caught up.
    static let drainCheckMilliseconds = 5.0
    /// How often a request held back looks whether the recording's disk caught up.
    static let recorderCheckMilliseconds = 5.0

    /// The faults, narrowed to the kind of reply once the head has come (`narrow`).
    private(set) var plan: ProxyPlan
    /// The reply's own headers (CORS, the fault applied, rate limits): they win over the upstream's.
    private(set) var ownHeaders: HTTPHeaders
    let isHeadRequest: Bool
    let upstreamURL: String
    /// Sends the request upstream; called on the first turn, after any delay.
    private let send: () -> UpstreamExchange
    /// Whether the request must wait before it is sent: the recording's disk has fallen behind, and another
    /// exchange to record would only grow what waits in memory (`RecordingWriter.isBehind`).
    private let holdsBack: () -> Bool
    private var exchange: UpstreamExchange?
    private var phase = Phase.awaitingHead
    /// Set once the exchange is over, for the journal.
    private(set) var upstream: UpstreamOutcome?
    /// What the exchange is held to (`--upstream URL --spec FILE`), until it has been checked.
    var contract: ContractPlan?
    /// What the check found, for the journal.
    var violations: [ContractViolation] = []
    /// A reply checked on its head alone whose body is checked once it has streamed.
    var streamedBodyCheck: ContractPlan?

    init(plan: ProxyPlan, ownHeaders: HTTPHeaders, isHeadRequest: Bool, upstreamURL: String, contract: ContractPlan? = nil,
         holdsBack: @escaping () -> Bool = { false }, send: @escaping () -> UpstreamExchange) {
        self.holdsBack = holdsBack
        self.plan = plan
        self.ownHeaders = ownHeaders
        self.isHeadRequest = isHeadRequest
        self.upstreamURL = upstreamURL
        self.contract = contract
        self.send = send
    }

    private enum Phase {
        case awaitingHead
        /// The whole body is being gathered first (a fault, or the contract check, needs all of it).
        case holding(UpstreamExchange.Head)
        /// The whole body has come and is being checked against the document, off the loop.
        case checking(UpstreamExchange.Head, [UInt8], ContractBodyCheck)
        case sending(BodyCut)
        case done
    }
    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        let exchange: UpstreamExchange
        if let started = self.exchange {
            exchange = started
        } else {
            // Pushed back rather than dropped: the request waits (its client with it) until the disk catches up.
            if holdsBack() { return DeliveryTurn(wake: ProxiedReply.recorderCheckMilliseconds) }
            exchange = send()
            exchange.waker = context.waker
            self.exchange = exchange
        }
        switch phase {
        case .awaitingHead:
            return headArrived(exchange, context)
        case .holding(let head):
            return heldBodyArrived(head, exchange, context)
        case .checking(let head, let body, let check):
            guard let found = check.violations else { return DeliveryTurn() }
            var headers = forwardedHeaders(head.headers)
            if let refusal = apply(found, head, body: body, into: &headers) { return endedEarly(exchange, head.status, refusal) }
            return sendHeld(head, body, headers: headers, exchange, context)
        case .sending(var cut):
            let turn = sendBody(&cut, exchange, context)
            if case .sending = phase { phase = .sending(cut) }
            return turn
        case .done:
            return DeliveryTurn()
        }
    }

    func finished() {
        guard let exchange, !exchange.isOver else { return }
        exchange.cancel()
    }

    // MARK: The head

    private mutating func headArrived(_ exchange: UpstreamExchange, _ context: DeliveryContext) -> DeliveryTurn {
        if let failure = exchange.failure {
            return failed(failure, exchange)
        }
        guard let head = exchange.head else { return DeliveryTurn() }
        if let contract, contract.watch.lacks(contract.operation, status: head.status) {
            return mockedInstead(contract, exchange)
        }
        let isEventStream = head.headers["Content-Type"]?.lowercased().hasPrefix("text/event-stream") == true
        narrow(toEventStream: isEventStream)
        var headers = forwardedHeaders(head.headers)
        if contract != nil, !holdsForContract(head, isEventStream: isEventStream),
           let refusal = checkHead(head, into: &headers, bodyLater: checksBody(head, isEventStream: isEventStream)) {
            return endedEarly(exchange, head.status, refusal)
        }
        if isHeadRequest || !ProxiedReply.hasBody(status: head.status) {
            return endedEarly(exchange, head.status, [.replyHead(status: head.status, headers: headers,
                                                                 contentLength: isHeadRequest ? head.contentLength : nil), .end])
        }
        if plan.resetAfterHead {
            return endedEarly(exchange, head.status, [.replyHead(status: head.status, headers: headers,
                                                                 contentLength: head.contentLength),
                                                      .closeWhenFlushed(reset: true)])
        }
        if needsWholeBody(head) {
            phase = .holding(head)
            return heldBodyArrived(head, exchange, context)
        }
        var cut = bodyCut(.live(length: head.contentLength), now: context.now)
        if plan.stream != FaultSpec.StreamFaults() { cut.events = EventBytes(faults: plan.stream) }
        let announced = plan.truncation == .chunked ? nil : head.contentLength
        var turn = sendBody(&cut, exchange, context)
        turn.steps.insert(.replyHead(status: head.status, headers: headers, contentLength: announced), at: 0)
        if case .awaitingHead = phase { phase = .sending(cut) }
        return turn
    }
    private mutating func heldBodyArrived(_ head: UpstreamExchange.Head, _ exchange: UpstreamExchange,
                                          _ context: DeliveryContext) -> DeliveryTurn {
        if let failure = exchange.failure { return failed(failure, exchange) }
        guard exchange.ended else { return DeliveryTurn() }
        let body = exchange.take()
        if let check = startChecking(head, body: body, context: context) {
            phase = .checking(head, body, check)
            return DeliveryTurn()
        }
        return sendHeld(head, body, headers: forwardedHeaders(head.headers), exchange, context)
    }

    /// A held body's head and first slice, once any fault that needs all of it has acted on it.
    private mutating func sendHeld(_ head: UpstreamExchange.Head, _ held: [UInt8], headers: HTTPHeaders,
                                   _ exchange: UpstreamExchange, _ context: DeliveryContext) -> DeliveryTurn {
        var body = held
        var headers = headers
        if let malformation = plan.malformed, (200..<300).contains(head.status) {
            body = ProxiedReply.corrupt(body, malformation)
        }
        if plan.malformed != nil { headers.remove("ETag") }
        var cut = bodyCut(.held(body), now: context.now)
        var turn = sendBody(&cut, exchange, context)
        let announced = plan.truncation == .chunked ? nil : body.count
        turn.steps.insert(.replyHead(status: head.status, headers: headers, contentLength: announced), at: 0)
        switch phase {
        case .holding, .checking: phase = .sending(cut)
        default: break
        }
        return turn
    }
    // MARK: The body

    private mutating func sendBody(_ cut: inout BodyCut, _ exchange: UpstreamExchange,
                                   _ context: DeliveryContext) -> DeliveryTurn {
        if cut.events != nil { return sendEvents(&cut, exchange, context) }
        if cut.held == nil, let wait = keepingUp(exchange, context) { return wait }
        var allowed = cut.limit.map { $0 - cut.sent } ?? .max
        var nextTick: Double?
        if var pacer = cut.pacer {
            let ready = min(allowed, cut.held.map { $0.count - cut.sent } ?? exchange.pending.count)
            let grant = pacer.grant(ready: ready, now: context.now)
            cut.pacer = pacer
            allowed = grant.bytes
            nextTick = grant.wake
        }
        let bytes: [UInt8]
        if let held = cut.held {
            let end = cut.sent + min(max(0, allowed), held.count - cut.sent)
            bytes = Array(held[cut.sent..<end])
        } else {
            bytes = exchange.take(upTo: max(0, allowed))
        }
        cut.sent += bytes.count
        let steps: [DeliveryStep] = bytes.isEmpty ? [] : [.body(bytes)]
        let status = exchange.head?.status ?? 0
        if let limit = cut.limit, cut.sent >= limit {
            return endedEarly(exchange, status, steps + [.closeWhenFlushed(reset: false)])
        }
        let drained = cut.held.map { cut.sent >= $0.count } ?? (exchange.ended && exchange.pending.isEmpty)
        if drained {
            finish(exchange, status)
            return DeliveryTurn(steps + [endsWithClose(cut) ? .closeWhenFlushed(reset: false) : .end])
        }
        if let failure = exchange.failure, cut.held == nil {
            return brokeOff(failure, exchange, status, steps)
        }
        let waiting = cut.held != nil || !exchange.pending.isEmpty
        return DeliveryTurn(steps, wake: waiting ? nextTick.map { max(0, $0) } : nil)
    }

    /// An event stream with stream faults: the upstream's events, counted, broken, cut, dripped, and ended by
    /// number.
    private mutating func sendEvents(_ cut: inout BodyCut, _ exchange: UpstreamExchange,
                                     _ context: DeliveryContext) -> DeliveryTurn {
        guard var events = cut.events else { return DeliveryTurn() }
        defer { cut.events = events }
        if let wait = keepingUp(exchange, context) { return wait }
        events.receive(exchange.take())
        if exchange.ended { events.upstreamEnded() }
        let piece = events.nextPiece(now: context.now)
        let steps: [DeliveryStep] = piece.bytes.isEmpty ? [] : [.body(piece.bytes)]
        let status = exchange.head?.status ?? 0
        // `chunk-size` drips the rest a millisecond apart, a rate when its pacer lets more go.
        if !events.outbox.isEmpty { return DeliveryTurn(steps, wake: piece.wake) }
        switch events.ending {
        case .close(let reset)?:
            return endedEarly(exchange, status, steps + [.closeWhenFlushed(reset: reset)])
        case .stall?:
            // Nothing more goes out: the upstream is let go, and the client is held until it leaves.
            return endedEarly(exchange, status, steps + [.hang])
        case nil:
            break
        }
        if exchange.ended {
            finish(exchange, status)
            return DeliveryTurn(steps + [.end])
        }
        if let failure = exchange.failure {
            return brokeOff(failure, exchange, status, steps)
        }
        return DeliveryTurn(steps)
    }

    /// A client that stopped keeping up stops the upstream too, until it drains: the turn that waits, or nil.
    private func keepingUp(_ exchange: UpstreamExchange, _ context: DeliveryContext) -> DeliveryTurn? {
        let behind = context.unflushedBytes > ProxiedReply.highWaterBytes
        exchange.setPaused(behind)
        return behind ? DeliveryTurn(wake: ProxiedReply.drainCheckMilliseconds) : nil
    }
    /// Keeps the faults that act on this kind of reply (the stream faults on an event stream, the body faults on
    /// anything else), and says so in `X-Understudy-Fault-Applied`.
    private mutating func narrow(toEventStream isEventStream: Bool) {
        if isEventStream {
            plan.truncation = nil
            plan.pacing = nil
            plan.malformed = nil
        } else {
            plan.stream = FaultSpec.StreamFaults()
        }
        guard ownHeaders[FaultHeaders.applied] != nil else { return }
        ownHeaders.remove(FaultHeaders.applied)
        if let applied = isEventStream ? plan.appliedToStream : plan.appliedToBody {
            ownHeaders.add(FaultHeaders.applied, applied)
        }
    }

    // MARK: Endings

    private mutating func failed(_ failure: UpstreamFailure, _ exchange: UpstreamExchange) -> DeliveryTurn {
        upstream = outcome(exchange, status: 0, failure: failure.detail)
        phase = .done
        let body = failure.body(upstreamURL: upstreamURL)
        var headers = ownHeaders
        headers.remove("Content-Type")
        headers.add("Content-Type", HTTPResponse.jsonContentType)
        return DeliveryTurn([.replyHead(status: failure.status, headers: headers, contentLength: body.count),
                             .body(isHeadRequest ? [] : body), .end])
    }

    /// The reply ends before the upstream's does (a cut, a reset, a stall, a reply with no body): the upstream
    /// is let go.
    mutating func endedEarly(_ exchange: UpstreamExchange, _ status: Int,
                                     _ steps: [DeliveryStep]) -> DeliveryTurn {
        finish(exchange, status)
        exchange.cancelIfUnfinished()
        return DeliveryTurn(steps)
    }

    /// The upstream failed after the head went out: all that is left is to close, so the client sees the body end
    /// early.
    private mutating func brokeOff(_ failure: UpstreamFailure, _ exchange: UpstreamExchange, _ status: Int,
                                   _ steps: [DeliveryStep]) -> DeliveryTurn {
        upstream = outcome(exchange, status: status, failure: failure.detail)
        phase = .done
        return DeliveryTurn(steps + [.closeWhenFlushed(reset: false)])
    }

    private mutating func finish(_ exchange: UpstreamExchange, _ status: Int) {
        if streamedBodyCheck != nil { checkStreamedBody(exchange.capturedReply) }
        upstream = outcome(exchange, status: status, failure: nil)
        upstream?.reply = exchange.capturedReply
        phase = .done
    }

    func outcome(_ exchange: UpstreamExchange, status: Int, failure: String?) -> UpstreamOutcome {
        UpstreamOutcome(status: status, milliseconds: (exchange.headAt ?? exchange.startedAt) - exchange.startedAt,
                        failure: failure, violations: violations)
    }
}

extension UpstreamExchange {
    /// Stops the upstream's reply if it is still coming (the client's reply ended before it did).
    func cancelIfUnfinished() {
        if !isOver { cancel() }
    }
}
