/// The stream faults on an event stream given as bytes (a proxied one as the upstream sends it, a document's as the
/// mock wrote it): the bytes are cut into events (blocks ended by a blank line) as they arrive, and events are counted,
/// broken, cut or followed by a drop, a reset or a stall by their number on this connection, as `/products/stream`
/// does with its own events. Blocks with no `data:` line (the
/// `retry:` field, heartbeat comments) pass through uncounted. A session's network profile paces every byte at its
/// rate, as on `/products/stream`.
struct EventBytes {
    /// What to do once the bytes of a turn are out.
    enum Ending: Equatable {
        case close(reset: Bool)
        /// Keep the connection and send nothing more.
        case stall
    }

    let faults: FaultSpec.StreamFaults
    /// Upstream bytes of an event not complete yet.
    private var partial: [UInt8] = []
    private var counted = 0
    /// Bytes waiting to be dripped `chunkSize` at a time, or at the rate.
    private(set) var outbox: [UInt8] = []
    private(set) var ending: Ending?
    /// The stream's rate (a session's network profile), when it has one.
    private var pacer: RatePacer?

    init(faults: FaultSpec.StreamFaults) {
        self.faults = faults
        if faults.stallAfter == 0 { ending = .stall }
        pacer = faults.bytesPerSecond.map { RatePacer(bytesPerSecond: $0) }
    }

    /// Takes bytes from the upstream; what is ready goes to `outbox`.
    mutating func receive(_ bytes: [UInt8]) {
        guard ending == nil else { return }
        partial += bytes
        while ending == nil, let end = EventBytes.blockEnd(in: partial) {
            let block = Array(partial[..<end])
            partial.removeFirst(end)
            emit(block)
        }
    }

    /// The upstream ended: whatever is left goes as it is.
    mutating func upstreamEnded() {
        guard ending == nil, !partial.isEmpty else { return }
        outbox += rewritten(partial)
        partial = []
    }

    /// The next bytes to write at `now`: all of the outbox, or one `chunk-size` piece of it, no more than the rate
    /// grants; and the milliseconds until more of the outbox may go.
    mutating func nextPiece(now: Double) -> (bytes: [UInt8], wake: Double) {
        var count = min(outbox.count, faults.chunkSize ?? outbox.count)
        var wake = 1.0
        if var pacer {
            (count, wake) = pacer.turn(ready: count, now: now)
            self.pacer = pacer
        }
        defer { outbox.removeFirst(count) }
        return (Array(outbox.prefix(count)), wake)
    }

    private mutating func emit(_ block: [UInt8]) {
        guard EventBytes.hasData(block) else {
            outbox += rewritten(block)
            return
        }
        counted += 1
        let number = counted
        var event = block
        if faults.malformedEvent == number || faults.cutMidEvent == number, let data = EventBytes.dataRange(in: block) {
            if faults.cutMidEvent == number {
                // Halfway through the event's data, as bytes.
                outbox += rewritten(Array(block[..<(data.lowerBound + data.count / 2)]))
                ending = .close(reset: false)
                return
            }
            event = Array(block[..<(data.lowerBound + data.count / 2)]) + Array("\u{FFFD}".utf8) + Array(block[data.upperBound...])
        }
        outbox += rewritten(event)
        if faults.dropAfter == number {
            ending = .close(reset: false)
        } else if faults.resetAfter == number {
            ending = .close(reset: true)
        } else if faults.stallAfter == number {
            ending = .stall
        }
    }

    /// The block with the asked-for line endings.
    private func rewritten(_ bytes: [UInt8]) -> [UInt8] {
        guard let newline = faults.newline, newline != "lf" else { return bytes }
        let ending: [UInt8] = newline == "crlf" ? [13, 10] : [13]
        return bytes.flatMap { $0 == 10 ? ending : [$0] }
    }

    /// The end of the first complete block (after its blank line), in LF, CRLF or CR line endings.
    static func blockEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        var lineStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 10 || byte == 13 {
                var next = index + 1
                if byte == 13, next < bytes.count, bytes[next] == 10 { next += 1 }
                if byte == 13, next == bytes.count { return nil }  // a CR whose LF may still come
                if lineStart, index > 0 { return next }
                lineStart = true
                index = next
                continue
            }
            lineStart = false
            index += 1
        }
        return nil
    }

    static func hasData(_ block: [UInt8]) -> Bool {
        dataRange(in: block) != nil
    }

    /// The value of the block's first `data:` line.
    static func dataRange(in block: [UInt8]) -> Range<Int>? {
        var lineStart = 0
        while lineStart < block.count {
            var lineEnd = lineStart
            while lineEnd < block.count, block[lineEnd] != 10, block[lineEnd] != 13 { lineEnd += 1 }
            let line = block[lineStart..<lineEnd]
            if line.starts(with: Array("data:".utf8)) {
                var start = lineStart + 5
                if start < lineEnd, block[start] == 32 { start += 1 }
                return start..<lineEnd
            }
            lineStart = lineEnd + 1
        }
        return nil
    }
}
