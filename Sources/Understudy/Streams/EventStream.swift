/// One open `/products/stream`, as a delivery: server-sent events on a schedule, keeping the SSE rules (sse.md)
/// and applying the stream faults by event number on this connection.
struct EventStream: Delivery {
    let plan: StreamPlan
    let source: StreamSource
    private var state = State.starting
    private var nextID: Int
    private var sentOnThisConnection = 0
    private var nextEventAt = 0.0
    private var nextHeartbeatAt: Double?
    /// Bytes waiting to be dripped out `chunk` bytes at a time, or at the profile's rate.
    private var outbox: ArraySlice<UInt8> = []
    /// The profile's rate, when the stream has one: every byte goes through the outbox at its pace.
    private var pacer: RatePacer?
    /// Milliseconds until the pacer lets more of the outbox go, as of the last drip.
    private var pacedWake = 1.0
    /// The time of the turn being taken, for bytes queued during it.
    private var turnStartedAt = 0.0

    /// Where the stream is in its life; what is queued in the outbox goes out first, whatever the state.
    private enum State {
        /// Nothing sent yet: the first turn sends the head and the `retry:` field.
        case starting
        /// Sending events and heartbeats on schedule.
        case streaming
        /// A stall: the connection is kept and nothing more is sent.
        case stalled
        /// The reply ends with these steps once the outbox is out.
        case closing([DeliveryStep])
    }

    init(plan: StreamPlan, source: StreamSource) {
        self.plan = plan
        self.source = source
        nextID = plan.resumeAfter + 1
        pacer = plan.faults.bytesPerSecond.map { RatePacer(bytesPerSecond: $0) }
    }

    var prefersSmallSendBuffer: Bool { true }

    /// Ends the stream cleanly: the chunked body's last chunk, and the connection stays usable.
    func shutDown() -> [DeliveryStep] { [.end] }

    mutating func advance(_ context: DeliveryContext) -> DeliveryTurn {
        let now = context.now
        turnStartedAt = now
        var steps: [DeliveryStep] = []
        guard case .starting = state else {
            return streamingTurn(context, steps: &steps)
        }
        // The head and the opening `retry:` field, at once (a stream the client already has whole never starts: it
        // is answered 204). `stall-after=0` stalls right after it.
        state = plan.faults.stallAfter == 0 ? .stalled : .streaming
        _ = pacer?.start(at: now)
        nextEventAt = now + Double(plan.intervalMilliseconds)
        nextHeartbeatAt = plan.heartbeatMilliseconds.map { now + Double($0) }
        steps.append(.head(contentLength: nil))
        emit(Array("retry: \(plan.retryMilliseconds)\n\n".utf8)[...], into: &steps)
        return DeliveryTurn(steps, wake: nextWake(now: now))
    }

    /// A turn once the head is out: what is queued first, then the ending, a stall, or the next event or heartbeat.
    private mutating func streamingTurn(_ context: DeliveryContext, steps: inout [DeliveryStep]) -> DeliveryTurn {
        let now = context.now
        if context.unflushedBytes > source.maximumUnflushedBytes {
            return DeliveryTurn([.close(reset: false)])
        }
        if !outbox.isEmpty {
            let wake = drip(now: now, into: &steps)
            return DeliveryTurn(steps, wake: outbox.isEmpty ? nextWake(now: now) : wake)
        }
        switch state {
        case .closing(let closing): return DeliveryTurn(closing)
        // A stall keeps the connection and sends nothing more, once what was queued before it is out.
        case .stalled: return DeliveryTurn()
        case .starting, .streaming: break
        }
        if now >= nextEventAt {
            nextEventAt += Double(plan.intervalMilliseconds)
            sendEvent(into: &steps)
        } else if let heartbeatAt = nextHeartbeatAt, now >= heartbeatAt {
            nextHeartbeatAt = heartbeatAt + Double(plan.heartbeatMilliseconds ?? 0)
            emit(Array(": heartbeat\n\n".utf8)[...], into: &steps)
        }
        return DeliveryTurn(steps, wake: nextWake(now: now))
    }

    /// Milliseconds until the next event, heartbeat or dripped byte is due.
    private func nextWake(now: Double) -> Double? {
        switch state {
        case _ where !outbox.isEmpty, .closing: return pacer == nil ? 1 : pacedWake
        case .stalled: return nil
        case .starting, .streaming: break
        }
        let due = min(nextEventAt, nextHeartbeatAt ?? .infinity)
        return max(0, due - now)
    }

    private mutating func sendEvent(into steps: inout [DeliveryStep]) {
        let id = nextID
        nextID += 1
        sentOnThisConnection += 1
        let number = sentOnThisConnection
        let faults = plan.faults
        // Every stream sends the same bytes for an id, so they are built once per id and shared.
        let plan = plan
        let shared = source.eventBytes(id: id, seed: plan.seed) { EventStream.payload(for: id, plan: plan, catalog: source.catalog) }
        guard faults.malformedEvent == number || faults.cutMidEvent == number || faults.newline != nil
            || faults.chunkSize != nil else {
            if pacer == nil { steps.append(.body(shared.event)) } else { emit(shared.event[...], into: &steps) }
            finishEvent(id: id, number: number, into: &steps)
            return
        }
        var data = String(decoding: shared.payload, as: UTF8.self)
        if faults.malformedEvent == number { data = String(data.prefix(data.count / 2)) + "\u{FFFD}" }
        let event = Array("id: \(id)\nevent: product-update\ndata: \(data)\n\n".utf8)

        if faults.cutMidEvent == number {
            let cut = event.count - data.utf8.count / 2 - 3
            // Cut as bytes: decoding the cut back into a String could turn a split character into U+FFFD.
            emit(event.prefix(cut), into: &steps)
            after([.closeWhenFlushed(reset: false)], into: &steps)
            return
        }
        emit(event[...], into: &steps)
        finishEvent(id: id, number: number, into: &steps)
    }

    /// What happens after event `number` (this connection's count) with id `id` went out.
    private mutating func finishEvent(id: Int, number: Int, into steps: inout [DeliveryStep]) {
        let faults = plan.faults
        if faults.dropAfter == number {
            after([.closeWhenFlushed(reset: false)], into: &steps)
        } else if faults.resetAfter == number {
            after([.closeWhenFlushed(reset: true)], into: &steps)
        } else if let last = plan.lastEventID, id >= last {
            after([.end], into: &steps)
        } else if faults.stallAfter == number {
            state = .stalled
        }
    }

    /// Writes `written` with the stream's line endings, all at once or dripped `chunk` bytes per turn.
    private mutating func emit(_ written: ArraySlice<UInt8>, into steps: inout [DeliveryStep]) {
        var bytes = Array(written)
        if let newline = plan.faults.newline, newline != "lf" {
            let ending: [UInt8] = newline == "crlf" ? [13, 10] : [13]
            bytes = bytes.flatMap { $0 == 10 ? ending : [$0] }
        }
        if plan.faults.chunkSize != nil || pacer != nil {
            outbox.append(contentsOf: bytes)
            pacedWake = drip(now: turnStartedAt, into: &steps)
        } else {
            steps.append(.body(bytes))
        }
    }

    /// Writes what may go of the outbox now (a `chunk`'s bytes, no more than the pacer grants); returns the
    /// milliseconds until more may go.
    @discardableResult
    private mutating func drip(now: Double, into steps: inout [DeliveryStep]) -> Double {
        var count = min(outbox.count, plan.faults.chunkSize ?? outbox.count)
        var wake = 1.0
        if var pacer {
            (count, wake) = pacer.turn(ready: count, now: now)
            self.pacer = pacer
        }
        let piece = outbox.prefix(count)
        outbox = outbox.dropFirst(piece.count)
        if !piece.isEmpty { steps.append(.body(Array(piece))) }
        pacedWake = wake
        return wake
    }

    /// Ends the reply with `closing` once everything queued so far has been written.
    private mutating func after(_ closing: [DeliveryStep], into steps: inout [DeliveryStep]) {
        if outbox.isEmpty {
            steps += closing
        } else {
            state = .closing(closing)
        }
    }
}
