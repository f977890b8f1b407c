/// The life of a reply that outlives its callback (any `Delivery`: paced, broken, hung, endless), as a value: each event
/// returns what the writer must do, and the writer does it.
///
/// It starts `writing`: the server owns evhttp's request and may write. It ends `done` exactly once, by the
/// server ending the reply, or by the connection closing (the client left, or the server closed it on purpose),
/// which is when the reply is journaled.
struct ReplyStateMachine: Equatable {
    enum State: Equatable {
        /// The request is ours; bytes may be written.
        case writing
        /// The server is freeing the connection itself; evhttp frees the request with it.
        case closing
        /// Ended, freed or handed back to evhttp.
        case done
    }

    private(set) var state = State.writing

    /// Whether bytes may be written now.
    var canWrite: Bool { state == .writing }

    enum EndAction: Equatable {
        /// Send the reply's end (the connection stays open for the next request), then journal it.
        case endReplyAndRecord
        case nothing
    }

    /// The reply is complete.
    mutating func end() -> EndAction {
        guard state == .writing else { return .nothing }
        state = .done
        return .endReplyAndRecord
    }

    enum CloseAction: Equatable {
        /// Free the connection (with an RST first when `reset`); its close callback follows at once.
        case freeConnection(reset: Bool)
        case nothing
    }

    /// The server closes the connection: a FIN, or with `reset` an RST.
    mutating func close(reset: Bool) -> CloseAction {
        guard state == .writing else { return .nothing }
        state = .closing
        return .freeConnection(reset: reset)
    }

    enum ClosedAction: Equatable {
        /// evhttp failed the connection and detached the unfinished request, leaving it to us: free it, then journal.
        case freeRequestAndRecord
        case record
        case nothing
    }

    /// evhttp's close callback: the client left, or the server closed the connection.
    mutating func connectionClosed(requestDetached: Bool) -> ClosedAction {
        switch state {
        case .writing:
            state = .done
            return requestDetached ? .freeRequestAndRecord : .record
        case .closing:
            state = .done
            return .record
        case .done:
            return .nothing
        }
    }
}

extension ReplyStateMachine {
    /// Turns of a delivery, which must not overlap: a delivery fed from elsewhere can be woken
    /// from inside its own turn. Once a turn's final step is performed there are no more: a wake that comes while
    /// the writer flushes before a close, or watches a hang, must not undo that wait.
    struct Turns: Equatable {
        private(set) var inTurn = false
        private(set) var anotherAsked = false
        private(set) var isOver = false

        /// A turn is asked for: true when it may start now; false when one is under way, which then runs another,
        /// or when the delivery's last step has been taken.
        mutating func begin() -> Bool {
            guard !isOver else { return false }
            guard !inTurn else {
                anotherAsked = true
                return false
            }
            inTurn = true
            anotherAsked = false
            return true
        }

        /// A final step was performed: the delivery is never advanced again.
        mutating func deliveryEnded() {
            isOver = true
        }

        /// The turn is over: true when another was asked for meanwhile and starts now.
        mutating func end() -> Bool {
            guard anotherAsked, !isOver else {
                inTurn = false
                return false
            }
            anotherAsked = false
            return true
        }
    }
}
