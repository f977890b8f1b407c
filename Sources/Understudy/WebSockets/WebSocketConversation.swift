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
        guard state != .closed else { return [] }
        var actions: [Action] = []
        for event in reader.receive(bytes) {
            switch event {
            case .message(let opcode, let payload):
                if state == .open { actions.append(.received(opcode, payload)) }
            case .ping(let payload):
                if state == .open { actions.append(.send(WebSocketFrame(.pong, payload).encoded())) }
            case .pong:
                break
            case .close(let code, let reason):
                clientClose = CloseNote(code: code, reasonBytes: reason.utf8.count)
                // Answered with the client's own code and reason (1000 and none when it gave no code).
                if state == .open {
                    serverClose = CloseNote(code: code ?? .normal, reasonBytes: reason.utf8.count)
                    actions.append(.send(WebSocketFrame.close(code ?? .normal, reason: reason).encoded()))
                }
                state = .closed
                actions.append(.closeWhenFlushed)
            }
        }
        if let failure = reader.failure, state != .closed {
            state = .closed
            serverClose = CloseNote(code: failure.code, reasonBytes: failure.reason.utf8.count)
            actions += [.send(WebSocketFrame.close(failure.code, reason: failure.reason).encoded()), .closeWhenFlushed]
        }
        return actions
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
