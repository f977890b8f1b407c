extension Fault {
    /// How `corrupt=` breaks a WebSocket message the server sends.
    public enum FrameCorruption: String, Sendable, Hashable, CaseIterable {
        /// `corrupt=utf8`: a text frame whose payload is not UTF-8 (a client fails the connection with 1007).
        case utf8
        /// `corrupt=rsv`: a frame with a reserved bit set that no extension was agreed for (1002).
        case reservedBit = "rsv"
        /// `corrupt=mask`: a masked frame, which a server must never send (1002).
        case masked = "mask"
    }

    /// The close codes a server may put in a close frame: RFC 6455's own (not 1004, 1005, 1006 or 1015, which are
    /// never sent, nor 1010, which only a client sends) and the registered and private ranges.
    package static let sendableCloseCodes: [ClosedRange<Int>] = [1000...1003, 1007...1009, 1011...1014, 3000...4999]
}

extension Fault {
    // MARK: WebSockets (`/ws/…`)

    /// `close=1011`: the socket closes with this code: after `drop-after=N` messages, after `close-after=T`, or
    /// right after it opens when neither is given; `message=` is the reason.
    ///
    /// - Parameters:
    ///   - code: 1000–1003, 1007–1009, 1011–1014, or 3000–4999.
    ///   - reason: The close frame's reason (at most 123 bytes of UTF-8).
    /// - Returns: One or two directives.
    public static func close(code: Int, reason: String? = nil) -> Fault {
        Fault(directives: [.close(code: code)]) + (reason.map(Fault.message) ?? .none)
    }

    /// `close-after=5s`: the socket closes this long after it opened (with 1000, or the code `close=` gives).
    ///
    /// - Parameter duration: How long the socket stays open (up to an hour), kept in whole milliseconds.
    /// - Returns: The directive.
    public static func closeAfter(_ duration: Duration) -> Fault {
        Fault(directives: [.closeAfter(Fault.milliseconds(duration))])
    }

    /// `corrupt=rsv`: the first message the server sends (or the one `malformed-event=N` names) is broken this way.
    ///
    /// - Parameter corruption: How the frame is broken.
    /// - Returns: The directive.
    public static func corrupt(_ corruption: FrameCorruption) -> Fault {
        Fault(directives: [.corrupt(corruption)])
    }

    /// `skip=3`: the server's third message is never sent.
    ///
    /// - Parameter message: The 1-based number of the message left out.
    /// - Returns: The directive.
    public static func skip(message: Int) -> Fault {
        Fault(directives: [.skip(message)])
    }

    /// `duplicate=2`: the server's second message is sent twice.
    ///
    /// - Parameter message: The 1-based number of the message sent twice.
    /// - Returns: The directive.
    public static func duplicate(message: Int) -> Fault {
        Fault(directives: [.duplicate(message)])
    }

    /// `lag=300ms`: every message the server sends waits this long first, in order.
    ///
    /// - Parameter duration: The wait (up to 60 s), kept in whole milliseconds.
    /// - Returns: The directive.
    public static func lag(_ duration: Duration) -> Fault {
        let wait = Fault.milliseconds(duration)
        return Fault(directives: [.lag(wait...wait)])
    }

    /// `lag=100ms..1s`: every message waits a time drawn from the range by the session's seeded generator, and
    /// messages keep their order.
    ///
    /// - Parameter range: The shortest and longest wait, kept in whole milliseconds.
    /// - Returns: The directive.
    public static func lag(_ range: ClosedRange<Duration>) -> Fault {
        Fault(directives: [.lag(Fault.milliseconds(range.lowerBound)...Fault.milliseconds(range.upperBound))])
    }
}
