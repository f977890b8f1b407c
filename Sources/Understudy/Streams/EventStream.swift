import UnderstudyJSON

/// One open `/products/stream`: a timer-driven writer of server-sent events that keeps the SSE rules
/// (sse.md) and applies the stream faults by event number on this connection.
final class EventStream {
    let plan: StreamPlan
    private let catalog: Catalog
    private var nextID: Int
    private var sentOnThisConnection = 0
    private var nextEventAt: Double
    private var nextHeartbeatAt: Double?
    /// Bytes waiting to be dripped out `chunk` bytes at a time.
    private var outbox: ArraySlice<UInt8> = []
    private var closingAfterOutbox: ((ConnectionTask) -> Void)?
    private var stalled = false
    /// Set once a closing or ending step owns the connection; the stream schedules nothing more.
    private var handedOff = false
    /// A reader that stops reading is dropped once this much is waiting for it in the server.
    private let maximumUnflushedBytes: Int

    init(plan: StreamPlan, catalog: Catalog, now: Double, maximumUnflushedBytes: Int) {
        self.plan = plan
        self.catalog = catalog
        self.maximumUnflushedBytes = maximumUnflushedBytes
        nextID = plan.resumeAfter + 1
        nextEventAt = now + Double(plan.intervalMilliseconds)
        nextHeartbeatAt = plan.heartbeatMilliseconds.map { now + Double($0) }
    }

    /// The opening `retry:` field, written as soon as the stream starts (a stream the client already has whole
    /// never starts: it is answered 204). `stall-after=0` stalls right after it.
    func start(_ task: ConnectionTask, writer: ReplyWriter) {
        emit("retry: \(plan.retryMilliseconds)\n\n", task, writer)
        if plan.faults.stallAfter == 0 { stalled = true }
    }

    /// Runs on the stream's timer: sends what is due, and says when to run next (nil: not until something else
    /// happens — the stream stalled, ended, or handed the connection to a closing step).
    func tick(_ task: ConnectionTask, writer: ReplyWriter, now: Double) -> Double? {
        if task.unflushedBytes > maximumUnflushedBytes {
            handedOff = true
            writer.close(task, reset: false)
            return nil
        }
        if !outbox.isEmpty {
            drip(task, writer)
            return handedOff ? nil : 1
        }
        if let closing = closingAfterOutbox {
            closingAfterOutbox = nil
            handedOff = true
            closing(task)
            return nil
        }
        // A stall keeps the connection and sends nothing more, once what was queued before it is out.
        if stalled { return nil }
        if now >= nextEventAt {
            nextEventAt += Double(plan.intervalMilliseconds)
            sendEvent(task, writer)
        } else if let heartbeatAt = nextHeartbeatAt, now >= heartbeatAt {
            nextHeartbeatAt = heartbeatAt + Double(plan.heartbeatMilliseconds ?? 0)
            emit(": heartbeat\n\n", task, writer)
        }
        return nextWake(now: now)
    }

    /// Milliseconds until the next event, heartbeat or dripped byte is due.
    func nextWake(now: Double) -> Double? {
        if handedOff { return nil }
        if !outbox.isEmpty || closingAfterOutbox != nil { return 1 }
        if stalled { return nil }
        let due = min(nextEventAt, nextHeartbeatAt ?? .infinity)
        return max(0, due - now)
    }

    /// Ends the stream cleanly: the chunked body's last chunk, and the connection stays usable.
    func end(_ task: ConnectionTask) {
        task.writer?.finish(task)
    }

    private func sendEvent(_ task: ConnectionTask, _ writer: ReplyWriter) {
        let id = nextID
        nextID += 1
        sentOnThisConnection += 1
        let number = sentOnThisConnection
        let faults = plan.faults
        // Every stream sends the same bytes for an id, so they are built once per id and shared.
        let shared = writer.eventBytes(id: id, seed: plan.seed) { payload(for: id) }
        guard faults.malformedEvent == number || faults.cutMidEvent == number || faults.newline != nil
            || faults.chunkSize != nil else {
            writer.write(task, shared.event)
            finishEvent(id: id, number: number, task, writer)
            return
        }
        var data = String(decoding: shared.payload, as: UTF8.self)
        if faults.malformedEvent == number { data = String(data.prefix(data.count / 2)) + "\u{FFFD}" }
        let event = "id: \(id)\nevent: product-update\ndata: \(data)\n\n"

        if faults.cutMidEvent == number {
            let cut = event.utf8.count - data.utf8.count / 2 - 3
            // Cut as bytes: decoding the cut back into a String could turn a split character into U+FFFD.
            emit(Array(event.utf8).prefix(cut), task, writer)
            after(task) { writer.closeWhenFlushed($0, reset: false) }
            return
        }
        emit(event, task, writer)
        finishEvent(id: id, number: number, task, writer)
    }

    /// What happens after event `number` (this connection's count) with id `id` went out.
    private func finishEvent(id: Int, number: Int, _ task: ConnectionTask, _ writer: ReplyWriter) {
        let faults = plan.faults
        if faults.dropAfter == number {
            after(task) { writer.closeWhenFlushed($0, reset: false) }
        } else if faults.resetAfter == number {
            after(task) { writer.closeWhenFlushed($0, reset: true) }
        } else if let last = plan.lastEventID, id >= last {
            after(task) { [weak self] in self?.end($0) }
        } else if faults.stallAfter == number {
            stalled = true
        }
    }

    /// `{"id", "price", "stock", "updatedAt", "note"}` for event `id`: the same bytes for the same seed and id on
    /// every connection, so a resumed stream neither repeats nor skips. The note has an em dash, so `chunk=1`
    /// splits a multi-byte UTF-8 character as it does CRLF.
    func payload(for id: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: plan.seed, stream: "event-\(id)")
        let product = catalog.products[Int(generator.next() % UInt64(max(1, catalog.productCount)))]
        let basePrice = product.object["price"]?.doubleValue ?? 10
        let price = (basePrice * (0.9 + 0.2 * generator.unit()) * 100).rounded() / 100
        let stock = Int(generator.next() % 101)
        var writer = JSONWriter(reservingCapacity: 96)
        writer.writeRaw("{\"id\":")
        writer.writeRaw(product.idText.utf8)
        writer.writeRaw(",\"price\":")
        writer.write(.number(JSONNumber(price)))
        writer.writeRaw(",\"stock\":")
        writer.write(int: stock)
        writer.writeRaw(",\"updatedAt\":")
        writer.write(string: Timestamp.iso8601(1_746_006_062.053 + Double(id)))
        writer.writeRaw(",\"note\":")
        writer.write(string: EventStream.note(stock: stock))
        writer.writeRaw("}")
        return writer.bytes
    }

    /// What a shop would say about `stock`.
    static func note(stock: Int) -> String {
        switch stock {
        case 0: "Sold out — back soon"
        case 1..<10: "Only \(stock) left — order soon"
        default: "In stock — ships today"
        }
    }

    /// Writes `text` with the stream's line endings, all at once or dripped `chunk` bytes per tick.
    private func emit(_ text: String, _ task: ConnectionTask, _ writer: ReplyWriter) {
        emit(Array(text.utf8)[...], task, writer)
    }

    private func emit(_ written: ArraySlice<UInt8>, _ task: ConnectionTask, _ writer: ReplyWriter) {
        var bytes = Array(written)
        if let newline = plan.faults.newline, newline != "lf" {
            let ending: [UInt8] = newline == "crlf" ? [13, 10] : [13]
            bytes = bytes.flatMap { $0 == 10 ? ending : [$0] }
        }
        if plan.faults.chunkSize != nil {
            outbox.append(contentsOf: bytes)
            drip(task, writer)
        } else {
            writer.write(task, bytes)
        }
    }

    private func drip(_ task: ConnectionTask, _ writer: ReplyWriter) {
        let piece = outbox.prefix(plan.faults.chunkSize ?? outbox.count)
        outbox = outbox.dropFirst(piece.count)
        writer.write(task, piece)
    }

    /// Runs `action` once everything queued so far has been written.
    private func after(_ task: ConnectionTask, _ action: @escaping (ConnectionTask) -> Void) {
        if outbox.isEmpty {
            handedOff = true
            action(task)
        } else {
            closingAfterOutbox = action
        }
    }
}
