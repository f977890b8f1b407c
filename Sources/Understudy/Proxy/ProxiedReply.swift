import Foundation
import UnderstudyJSON

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

    /// The faults, narrowed to the kind of reply once the head has come (`narrow`).
    private(set) var plan: ProxyPlan
    /// The reply's own headers (CORS, the fault applied, rate limits): they win over the upstream's.
    private(set) var ownHeaders: HTTPHeaders
    let isHeadRequest: Bool
    let upstreamURL: String
    /// Sends the request upstream; called on the first turn, after any delay.
    private let send: () -> UpstreamExchange
    private var exchange: UpstreamExchange?
    private var phase = Phase.awaitingHead
    /// Set once the exchange is over, for the journal.
    private(set) var upstream: UpstreamOutcome?

    init(plan: ProxyPlan, ownHeaders: HTTPHeaders, isHeadRequest: Bool, upstreamURL: String,
         send: @escaping () -> UpstreamExchange) {
        self.plan = plan
        self.ownHeaders = ownHeaders
        self.isHeadRequest = isHeadRequest
        self.upstreamURL = upstreamURL
        self.send = send
    }

    private enum Phase {
        case awaitingHead
        /// The whole body is being gathered first (a fault needs all of it).
        case holding(UpstreamExchange.Head)
        case sending(BodyCut)
        case done
    }

    /// How much of the body goes out, how fast, and how it ends.
    struct BodyCut {
        /// Body bytes to send at most; nil: all.
        var limit: Int?
        /// End by closing rather than cleanly (a truncation of a body whose end is not known yet).
        var closeAtEnd = false
        /// The pace, for a dribbled body.
        var pacer: RatePacer?
        var sent = 0
        /// The held body, once gathered and transformed; nil: read from the exchange.
        var held: [UInt8]?
        /// The stream faults at work on an event stream.
        var events: ProxiedEvents?
    }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        let exchange: UpstreamExchange
        if let started = self.exchange {
            exchange = started
        } else {
            exchange = send()
            exchange.waker = context.waker
            self.exchange = exchange
        }
        switch phase {
        case .awaitingHead:
            return headArrived(exchange, context)
        case .holding(let head):
            return heldBodyArrived(head, exchange, context)
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
        narrow(toEventStream: head.headers["Content-Type"]?.lowercased().hasPrefix("text/event-stream") == true)
        let headers = forwardedHeaders(head.headers)
        if isHeadRequest || !ProxiedReply.hasBody(status: head.status) {
            finish(exchange, head.status)
            exchange.cancelIfUnfinished()
            return DeliveryTurn([.replyHead(status: head.status, headers: headers,
                                            contentLength: isHeadRequest ? head.contentLength : nil), .end])
        }
        if plan.resetAfterHead {
            finish(exchange, head.status)
            exchange.cancelIfUnfinished()
            return DeliveryTurn([.replyHead(status: head.status, headers: headers, contentLength: head.contentLength),
                                 .closeWhenFlushed(reset: true)])
        }
        if needsWholeBody(head) {
            phase = .holding(head)
            return heldBodyArrived(head, exchange, context)
        }
        var cut = bodyCut(length: head.contentLength, now: context.now)
        if plan.stream != FaultSpec.StreamFaults() { cut.events = ProxiedEvents(faults: plan.stream) }
        let announced = plan.truncation == .chunked ? nil : head.contentLength
        var turn = sendBody(&cut, exchange, context)
        turn.steps.insert(.replyHead(status: head.status, headers: headers, contentLength: announced), at: 0)
        if case .awaitingHead = phase { phase = .sending(cut) }
        return turn
    }

    /// The faults that need the whole body before the first byte goes: breaking its JSON, and a share of a body
    /// whose length is not known yet.
    private func needsWholeBody(_ head: UpstreamExchange.Head) -> Bool {
        if plan.malformed != nil, (200..<300).contains(head.status) { return true }
        guard head.contentLength == nil else { return false }
        if case .percent? = plan.truncation { return true }
        if case .chunks? = plan.pacing { return true }
        return false
    }

    private mutating func heldBodyArrived(_ head: UpstreamExchange.Head, _ exchange: UpstreamExchange,
                                          _ context: DeliveryContext) -> DeliveryTurn {
        if let failure = exchange.failure { return failed(failure, exchange) }
        guard exchange.ended else { return DeliveryTurn() }
        var body = exchange.take()
        if let malformation = plan.malformed, (200..<300).contains(head.status) {
            body = ProxiedReply.corrupt(body, malformation)
        }
        var headers = forwardedHeaders(head.headers)
        if plan.malformed != nil { headers.remove("ETag") }
        var cut = bodyCut(length: body.count, now: context.now)
        cut.held = body
        var turn = sendBody(&cut, exchange, context)
        let announced = plan.truncation == .chunked ? nil : body.count
        turn.steps.insert(.replyHead(status: head.status, headers: headers, contentLength: announced), at: 0)
        if case .holding = phase { phase = .sending(cut) }
        return turn
    }

    /// The limit and pace for a body of `length` bytes (nil: not known yet).
    private func bodyCut(length: Int?, now: Double) -> BodyCut {
        var cut = BodyCut()
        switch plan.truncation {
        case .bytes(let count)?:
            // A truncated body always misses at least its last byte; when the length is not known, the body ends
            // with a close instead of its last chunk.
            if let length { cut.limit = min(count, max(0, length - 1)) } else { cut.limit = count; cut.closeAtEnd = true }
        case .percent(let percent)?:
            cut.limit = (length ?? 0) * percent / 100
        case .chunked?:
            if let length { cut.limit = max(0, length - max(1, length / 4)) } else { cut.closeAtEnd = true }
        case nil:
            break
        }
        if plan.pacing != nil || plan.stall != nil {
            var pauses: [RatePacer.Pause] = []
            if let stall = plan.stall, let length { pauses = RatePacer.pauses(length: length, range: stall, seed: plan.scheduleSeed) }
            cut.pacer = RatePacer(pacing: plan.pacing, length: length, pauses: pauses)
            _ = cut.pacer?.start(at: now)
        }
        return cut
    }

    // MARK: The body

    private mutating func sendBody(_ cut: inout BodyCut, _ exchange: UpstreamExchange,
                                   _ context: DeliveryContext) -> DeliveryTurn {
        if cut.events != nil { return sendEvents(&cut, exchange, context) }
        if cut.held == nil {
            // A client that stopped keeping up stops the upstream too, until it drains.
            let behind = context.unflushedBytes > ProxiedReply.highWaterBytes
            exchange.setPaused(behind)
            if behind { return DeliveryTurn(wake: ProxiedReply.drainCheckMilliseconds) }
        }
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
        var steps: [DeliveryStep] = bytes.isEmpty ? [] : [.body(bytes)]
        let status = exchange.head?.status ?? 0
        if let limit = cut.limit, cut.sent >= limit {
            finish(exchange, status)
            exchange.cancelIfUnfinished()
            return DeliveryTurn(steps + [.closeWhenFlushed(reset: false)])
        }
        let drained = cut.held.map { cut.sent >= $0.count } ?? (exchange.ended && exchange.pending.isEmpty)
        if drained {
            finish(exchange, status)
            return DeliveryTurn(steps + [cut.closeAtEnd ? .closeWhenFlushed(reset: false) : .end])
        }
        if let failure = exchange.failure, cut.held == nil {
            // The head is out: all that is left is to close, so the client sees the body end early.
            upstream = outcome(exchange, status: status, failure: failure.detail)
            phase = .done
            return DeliveryTurn(steps + [.closeWhenFlushed(reset: false)])
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
        let behind = context.unflushedBytes > ProxiedReply.highWaterBytes
        exchange.setPaused(behind)
        if behind { return DeliveryTurn(wake: ProxiedReply.drainCheckMilliseconds) }
        events.receive(exchange.take())
        if exchange.ended { events.upstreamEnded() }
        let piece = events.nextPiece()
        let steps: [DeliveryStep] = piece.isEmpty ? [] : [.body(piece)]
        let status = exchange.head?.status ?? 0
        // `chunk-size` drips the rest a millisecond apart.
        if !events.outbox.isEmpty { return DeliveryTurn(steps, wake: 1) }
        switch events.ending {
        case .close(let reset)?:
            finish(exchange, status)
            exchange.cancelIfUnfinished()
            return DeliveryTurn(steps + [.closeWhenFlushed(reset: reset)])
        case .stall?:
            // Nothing more goes out: the upstream is let go, and the client is held until it leaves.
            finish(exchange, status)
            exchange.cancelIfUnfinished()
            return DeliveryTurn(steps + [.hang])
        case nil:
            break
        }
        if exchange.ended {
            finish(exchange, status)
            return DeliveryTurn(steps + [.end])
        }
        if let failure = exchange.failure {
            upstream = outcome(exchange, status: status, failure: failure.detail)
            phase = .done
            return DeliveryTurn(steps + [.closeWhenFlushed(reset: false)])
        }
        return DeliveryTurn(steps)
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
        let verb = failure.kind == .timeout ? "did not answer in time" : "failed"
        let body = HTTPResponse.message("The upstream \(upstreamURL) \(verb): \(failure.detail)",
                                        status: failure.status).body.bytesCopy
        var headers = ownHeaders
        headers.remove("Content-Type")
        headers.add("Content-Type", HTTPResponse.jsonContentType)
        return DeliveryTurn([.replyHead(status: failure.status, headers: headers, contentLength: body.count),
                             .body(isHeadRequest ? [] : body), .end])
    }

    private mutating func finish(_ exchange: UpstreamExchange, _ status: Int) {
        upstream = outcome(exchange, status: status, failure: nil)
        upstream?.reply = exchange.capturedReply
        phase = .done
    }

    private func outcome(_ exchange: UpstreamExchange, status: Int, failure: String?) -> UpstreamOutcome {
        UpstreamOutcome(status: status, milliseconds: (exchange.headAt ?? exchange.startedAt) - exchange.startedAt,
                        failure: failure)
    }

    /// The upstream's headers minus those of the hop between it and us, and minus those the reply sets itself.
    private func forwardedHeaders(_ upstream: HTTPHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let connectionListed = Set((upstream["Connection"] ?? "").split(separator: ",").map {
            // Not Foundation's trimmingCharacters (~3k instructions a call): a token holds no blank anyway.
            $0.filter { $0 != " " && $0 != "\t" }.lowercased()
        })
        for field in upstream {
            let name = field.name.lowercased()
            guard !UpstreamRequest.hopByHop.contains(name), !connectionListed.contains(name),
                  name != "content-length", ownHeaders[field.name] == nil else { continue }
            headers.add(field.name, field.value)
        }
        for field in ownHeaders { headers.add(field.name, field.value) }
        return headers
    }

    static func hasBody(status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    static func corrupt(_ body: [UInt8], _ malformation: FaultSpec.Malformation) -> [UInt8] {
        switch malformation {
        case .syntax:
            return FaultedResponses.brokenSyntax(body)
        case .shape:
            guard let value = try? JSONParser.parse(body) else { return FaultedResponses.brokenSyntax(body) }
            return JSONWriter.encode(FaultedResponses.wrongShape(value))
        }
    }
}

extension UpstreamExchange {
    /// Stops the upstream's reply if it is still coming (the client's reply ended before it did).
    func cancelIfUnfinished() {
        if !isOver { cancel() }
    }
}
