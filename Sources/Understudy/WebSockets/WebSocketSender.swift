import UnderstudyWebSocket
import UnderstudyFaultSpec

/// The messages a server's WebSocket sends, through its faults (`WebSocketFaults`), as a value: what an endpoint
/// hands it is numbered, held for its `lag`, framed, broken, left out or doubled, and followed by the close, reset
/// or stall the faults name for that number. The session writes what it says; it never writes a message itself.
struct WebSocketSender {
    /// What the session does with the socket.
    enum Output: Equatable {
        /// Writes these bytes: a message's frames, or part of one.
        case bytes([UInt8])
        /// Starts the closing handshake with this code and reason.
        case close(WebSocketCloseCode, String)
        /// Resets the connection once what was written is out: no close frame.
        case reset
    }

    enum State: Equatable {
        case sending
        /// Sends nothing more and answers nothing (`stall-after`).
        case stalled
        /// A close or reset was handed out: nothing more is sent.
        case done
    }

    /// A message as it went (or did not), for the socket's transcript.
    struct Note: Equatable {
        let opcode: WebSocketFrame.Opcode
        /// The payload's size as the endpoint handed it over.
        let bytes: Int
        /// The fault that acted on it (`skip`, `duplicate`, `corrupt=utf8`, `cut-mid-event`).
        let fault: String?
    }

    /// A message, or the close an endpoint asks for after its messages, with when it may go.
    private enum Item {
        case message(WebSocketFrame.Opcode, [UInt8])
        case close(WebSocketCloseCode, String)
    }

    let faults: WebSocketFaults
    private(set) var state = State.sending
    /// How many messages have been numbered (sent, left out or cut).
    private(set) var numbered = 0
    private var generator: SeededGenerator
    private var queue: [(due: Double, item: Item)] = []
    private var head = 0
    /// When `close-after` closes the socket.
    private var closeAt: Double?
    /// The messages numbered since the last `notesTaken()`, in order: what the transcript records.
    private(set) var notes: [Note] = []

    /// A mask a server must never use (`corrupt=mask`): any four bytes do.
    private static let forbiddenMask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    init(faults: WebSocketFaults, seed: UInt64) {
        self.faults = faults
        generator = SeededGenerator(seed: seed, stream: "websocket-lag")
    }

    /// The socket opened at `now`: a stall from the start, or a close at once, are decided here.
    mutating func open(now: Double) -> [Output] {
        closeAt = faults.closeAfterMilliseconds.map { now + Double($0) }
        if faults.stallAfterMessages == 0 { state = .stalled }
        guard faults.closesAtOnce, state == .sending else { return [] }
        state = .done
        return [.close(faults.closeCode, faults.closeReason)]
    }

    /// An endpoint's message, sent once its lag is over and every message before it has gone.
    mutating func enqueue(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], now: Double) {
        guard state == .sending else { return }
        var due = now
        if let lag = faults.lag {
            due += Double(lag.lowerBound + Int(generator.next() % UInt64(lag.upperBound - lag.lowerBound + 1)))
        }
        append(.message(opcode, payload), due: due)
    }

    /// The endpoint is done: the socket closes after the messages already handed over.
    mutating func finish(_ code: WebSocketCloseCode, reason: String, now: Double) {
        guard state == .sending else { return }
        append(.close(code, reason), due: now)
    }

    /// What is due by `now`, in order.
    mutating func take(now: Double) -> [Output] {
        var outputs: [Output] = []
        take(now: now, into: &outputs)
        return outputs
    }

    /// What is due by `now`, in order, added to `outputs` (a socket's turn passes the same array every time).
    mutating func take(now: Double, into outputs: inout [Output]) {
        while state == .sending, head < queue.count, queue[head].due <= now {
            if let closeAt, closeAt < queue[head].due { break }
            let item = queue[head].item
            head += 1
            switch item {
            case .message(let opcode, let payload): send(opcode, payload, into: &outputs)
            case .close(let code, let reason): state = .done; outputs.append(.close(code, reason))
            }
        }
        if state == .sending, let closeAt, now >= closeAt {
            state = .done
            outputs.append(.close(faults.closeCode, faults.closeReason))
        }
        if !queue.isEmpty, head == queue.count || state != .sending {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    /// Marks `notes` taken: the next turn's start empty, in the same storage (read `notes`, then call this; a turn
    /// that handed the array away allocated a new one for each message).
    mutating func notesTaken() {
        notes.removeAll(keepingCapacity: true)
    }

    /// When something is next due; nil when nothing is waiting.
    var nextDue: Double? {
        guard state == .sending else { return nil }
        let next = head < queue.count ? queue[head].due : nil
        switch (next, closeAt) {
        case let (next?, closeAt?): return min(next, closeAt)
        case let (next, closeAt): return next ?? closeAt
        }
    }

    /// Keeps the queue in order: a message never overtakes one handed over before it.
    private mutating func append(_ item: Item, due: Double) {
        queue.append((max(due, queue.last?.due ?? due), item))
    }

    /// Message `numbered + 1`, through the faults that name its number, and what follows it.
    private mutating func send(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], into outputs: inout [Output]) {
        numbered += 1
        let number = numbered
        func note(_ fault: String?) { notes.append(Note(opcode: opcode, bytes: payload.count, fault: fault)) }
        if faults.skipMessage == number {
            note("skip")
        } else {
            let bytes = frames(opcode, payload, number: number)
            if faults.cutMessage == number {
                // Half the frame's bytes, then a reset: the client is left inside a frame.
                note("cut-mid-event")
                outputs += [.bytes(Array(bytes.prefix(max(1, bytes.count / 2)))), .reset]
                state = .done
                return
            }
            note(faults.corruptMessage == number ? "corrupt=\(faults.corruption.rawValue)" : nil)
            outputs.append(.bytes(bytes))
            if faults.duplicateMessage == number {
                note("duplicate")
                outputs.append(.bytes(bytes))
            }
        }
        if faults.closeAfterMessages == number {
            state = .done
            outputs.append(.close(faults.closeCode, faults.closeReason))
        } else if faults.resetAfterMessages == number {
            state = .done
            outputs.append(.reset)
        } else if faults.stallAfterMessages == number {
            state = .stalled
        }
    }

    /// The message's frames: split into `frameBytes` pieces, and broken when its number is `corruptMessage`.
    private func frames(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], number: Int) -> [UInt8] {
        let corrupt = faults.corruptMessage == number ? faults.corruption : nil
        var opcode = opcode
        var payload = payload
        if corrupt == .utf8 {
            // A lone continuation byte and an overlong encoding: text no UTF-8 reader accepts.
            opcode = .text
            payload += [0x80, 0xC0, 0xAF]
        }
        let size = max(1, faults.frameBytes ?? max(1, payload.count))
        // One frame, nothing broken: framed straight from the payload, which is every message of a socket with
        // no faults (the loop below copies each piece, then the frame).
        if corrupt == nil, size >= payload.count { return WebSocketFrame(opcode, payload).encoded() }
        var bytes: [UInt8] = []
        var start = 0
        repeat {
            let end = min(payload.count, start + size)
            let frame = WebSocketFrame(fin: end == payload.count, start == 0 ? opcode : .continuation,
                                       Array(payload[start..<end]))
            var encoded = frame.encoded(mask: start == 0 && corrupt == .masked ? WebSocketSender.forbiddenMask : nil)
            if start == 0, corrupt == .reservedBit { encoded[0] |= 0x40 }
            bytes += encoded
            start = end
        } while start < payload.count
        return bytes
    }
}
