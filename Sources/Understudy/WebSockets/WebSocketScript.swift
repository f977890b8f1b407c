import UnderstudyRecording
import UnderstudyWebSocket

/// A recorded conversation played back on a replayed socket, as a value: the server's messages are due on the
/// recorded schedule, and the ones that followed a client message wait for the client to send its own.
///
/// The recording is cut at each client message into parts: part 0 is what the server sent before the client said
/// anything; part k is what it sent after the client's kth message. Part 0 starts when the socket opens, part k when
/// the client sends its kth message (whatever it says), and each message keeps its recorded delay from its part's
/// start. A part never overtakes the one before it, so the server's messages go out in the recorded order. What the
/// client sends beyond the recording, and the time after the last message, change nothing: the socket stays open.
struct WebSocketScript: Equatable, Sendable {
    /// A message the server sends, and when.
    struct Due: Equatable {
        let opcode: WebSocketFrame.Opcode
        let payload: [UInt8]
        /// Monotonic milliseconds.
        let at: Double
    }

    private struct Line: Equatable, Sendable {
        let opcode: WebSocketFrame.Opcode
        let payload: [UInt8]
        /// After the start of its part.
        let delay: Double
    }

    /// The server's messages, part by part.
    private let parts: [[Line]]
    /// The parts the client has started, when each started (monotonic milliseconds).
    private var starts: [Double] = []
    private var part = 0
    private var line = 0
    /// When the last message went out: the next may not go before it.
    private var lastSent = 0.0

    /// The server's side of `messages`, cut at each client message.
    init(_ messages: [RecordedSocketMessage]) {
        var parts: [[Line]] = [[]]
        var partStart = 0.0
        for message in messages {
            switch message.sender {
            case .client:
                parts.append([])
                partStart = message.milliseconds
            case .server:
                parts[parts.count - 1].append(Line(opcode: message.isBinary ? .binary : .text, payload: message.data,
                                                   delay: max(0, message.milliseconds - partStart)))
            }
        }
        self.parts = parts
        skipSpentParts()
    }

    /// The socket opened at `now`: the server's first part starts.
    mutating func opened(now: Double) {
        if starts.isEmpty { starts.append(now) }
    }

    /// The client sent a message at `now`: the part that followed its message in the recording starts.
    mutating func clientSent(now: Double) {
        if starts.count < parts.count { starts.append(now) }
    }

    /// The messages due by `now`, in order, each with the time it was due.
    mutating func take(now: Double) -> [Due] {
        var due: [Due] = []
        while let next = nextDue, next <= now {
            let sent = parts[part][line]
            due.append(Due(opcode: sent.opcode, payload: sent.payload, at: next))
            lastSent = next
            line += 1
            skipSpentParts()
        }
        return due
    }

    /// When the next message is due (monotonic milliseconds); nil when it waits for the client or nothing is left.
    var nextDue: Double? {
        guard part < parts.count, part < starts.count else { return nil }
        return max(lastSent, starts[part] + parts[part][line].delay)
    }

    /// Moves past parts with nothing left to send, so the position always names a message (or the end).
    private mutating func skipSpentParts() {
        while part < parts.count, line == parts[part].count {
            part += 1
            line = 0
        }
    }
}
