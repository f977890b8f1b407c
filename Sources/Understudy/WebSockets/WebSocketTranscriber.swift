import UnderstudyWebSocket

/// What a socket said and heard, kept for its journal entry as the session's turns go: each message as it is read
/// or sent (with the fault that acted on it), and each side's close the first time the conversation has it. Times
/// are from the socket's opening.
struct WebSocketTranscriber {
    private(set) var transcript = SocketTranscript()
    private var openedAt = 0.0
    /// Whether the client's close is in the transcript: a relayed socket's upstream hears of it once.
    private(set) var notedClientClose = false
    private var notedServerClose = false

    mutating func opened(at now: Double) {
        openedAt = now
    }

    mutating func note(_ direction: SocketTranscript.Record.Direction, _ opcode: WebSocketFrame.Opcode, bytes: Int,
                       now: Double, fault: String? = nil) {
        transcript.append(SocketTranscript.Record(direction: direction, kind: opcode == .binary ? .binary : .text,
                                                  bytes: bytes, milliseconds: now - openedAt, closeCode: nil,
                                                  fault: fault))
    }

    /// The sender's messages since the last turn, and each side's close the first time it is seen; returns the
    /// client's close when this turn is the first to see it.
    mutating func noteTurn(_ sender: inout WebSocketSender, _ conversation: WebSocketConversation,
                           now: Double) -> WebSocketConversation.CloseNote? {
        for sent in sender.notes {
            note(.sent, sent.opcode, bytes: sent.bytes, now: now, fault: sent.fault)
        }
        sender.notesTaken()
        var clientClose: WebSocketConversation.CloseNote?
        if !notedClientClose, let close = conversation.clientClose {
            notedClientClose = true
            clientClose = close
            noteClose(.received, close, now: now, fault: nil)
        }
        if !notedServerClose, let close = conversation.serverClose {
            notedServerClose = true
            // A stalled socket answers nothing: its close is decided but never written.
            noteClose(.sent, close, now: now, fault: sender.state == .stalled ? "stall-after" : nil)
        }
        return clientClose
    }

    private mutating func noteClose(_ direction: SocketTranscript.Record.Direction,
                                    _ close: WebSocketConversation.CloseNote, now: Double, fault: String?) {
        transcript.append(SocketTranscript.Record(direction: direction, kind: .close, bytes: close.reasonBytes,
                                                  milliseconds: now - openedAt,
                                                  closeCode: close.code.map { Int($0.rawValue) }, fault: fault))
    }
}
