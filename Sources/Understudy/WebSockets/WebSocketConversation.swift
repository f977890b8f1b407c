import UnderstudyWebSocket

/// One server-side WebSocket connection's decisions, as values: what the bytes a client sent call for (a message
/// for the endpoint, a pong, the closing handshake), and what a close the server starts asks of the socket. The connection's owner
/// writes what it is told and closes when told; it keeps no protocol state of its own.
///
/// The closing handshake both ways (RFC 6455 §7): a client's close is answered with the same code and reason (1000
/// when it gave none) and the connection closes once that is written; a server's close waits for the client's answer,
/// which the owner bounds with a timer. A protocol error closes with its code (`WebSocketReader.Failure`).
struct WebSocketConversation {
    /// What the owner does next.
    enum Action: Equatable {
        /// Writes these bytes (a control frame: a pong, a close).
        case send([UInt8])
        /// The client sent this message: the endpoint decides what it calls for (an echo, a broadcast, nothing).
        case received(WebSocketFrame.Opcode, [UInt8])
        /// Closes the TCP connection once everything before it is written.
        case closeWhenFlushed
    }

    enum State: Equatable {
        case open
        /// The server sent its close and waits for the client's.
        case closing
        case closed
    }

    /// A close frame, as the transcript keeps it.
    struct CloseNote: Equatable {
        /// Nil for a client's close that gave no code.
        let code: WebSocketCloseCode?
        let reasonBytes: Int
    }

    private var reader: WebSocketReader
    /// The second of two actions one event calls for (a close frame, then the end), until `next()` hands it out.
    private var queued: Action?
    private(set) var state = State.open
    /// The client's close, once it has sent one.
    private(set) var clientClose: CloseNote?
    /// The server's close, once one is decided (the answer to the client's, a protocol error's, or its own).
    private(set) var serverClose: CloseNote?

    init(maximumMessageBytes: Int) {
        reader = WebSocketReader(maximumMessageBytes: maximumMessageBytes)
    }

    /// The bytes of a read: what they call for, in order.
    mutating func receive(_ bytes: [UInt8]) -> [Action] {
        append(bytes)
        var actions: [Action] = []
        while let action = next() { actions.append(action) }
        return actions
    }

    /// Takes the bytes of a read, for `next()` to say what they call for.
    mutating func append(_ bytes: [UInt8]) {
        guard state != .closed else { return }
        reader.append(bytes)
    }

    /// What the bytes taken so far call for next; nil when nothing more. One at a time, with no array: every
    /// message a socket reads comes through here.
    mutating func next() -> Action? {
        if let action = queued {
            queued = nil
            return action
        }
        while state != .closed, let event = reader.next() {
            switch event {
            case .message(let opcode, let payload):
                if state == .open { return .received(opcode, payload) }
            case .ping(let payload):
                if state == .open { return .send(WebSocketFrame(.pong, payload).encoded()) }
            case .pong:
                break
            case .close(let code, let reason):
                clientClose = CloseNote(code: code, reasonBytes: reason.utf8.count)
                let wasOpen = state == .open
                state = .closed
                guard wasOpen else { return .closeWhenFlushed }
                // Answered with the client's own code and reason (1000 and none when it gave no code).
                serverClose = CloseNote(code: code ?? .normal, reasonBytes: reason.utf8.count)
                queued = .closeWhenFlushed
                return .send(WebSocketFrame.close(code ?? .normal, reason: reason).encoded())
            }
        }
        if let failure = reader.failure, state != .closed {
            state = .closed
            serverClose = CloseNote(code: failure.code, reasonBytes: failure.reason.utf8.count)
            queued = .closeWhenFlushed
            return .send(WebSocketFrame.close(failure.code, reason: failure.reason).encoded())
        }
        return nil
    }

    /// The server closes with `code`: the close frame goes out, and the connection waits for the client's answer.
    mutating func close(_ code: WebSocketCloseCode, reason: String = "") -> [Action] {
        guard state == .open else { return [] }
        state = .closing
        serverClose = CloseNote(code: code, reasonBytes: reason.utf8.count)
        return [.send(WebSocketFrame.close(code, reason: reason).encoded())]
    }

    /// The client did not answer a close in time: the connection ends without it.
    mutating func closingTimedOut() -> [Action] {
        guard state == .closing else { return [] }
        state = .closed
        return [.closeWhenFlushed]
    }
}
