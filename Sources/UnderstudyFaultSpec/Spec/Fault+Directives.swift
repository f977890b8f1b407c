extension Fault {
    // MARK: Timing and pacing

    /// `delay=300ms`: the status line arrives this much later (up to 60 s).
    ///
    /// - Parameter duration: The wait, kept in whole milliseconds.
    /// - Returns: The directive.
    public static func delay(_ duration: Duration) -> Fault {
        let milliseconds = Fault.milliseconds(duration)
        return Fault(directives: [.delay(milliseconds...milliseconds)])
    }

    /// `delay=100ms..500ms`: a wait drawn uniformly from the range by the session's seeded generator.
    ///
    /// - Parameter range: The shortest and longest wait, kept in whole milliseconds.
    /// - Returns: The directive.
    public static func delay(_ range: ClosedRange<Duration>) -> Fault {
        Fault(directives: [.delay(Fault.milliseconds(range.lowerBound)...Fault.milliseconds(range.upperBound))])
    }

    /// `jitter=200ms`: a further wait drawn uniformly from zero to this by the session's seeded generator, on
    /// top of any `delay` (up to 60 s).
    ///
    /// - Parameter duration: The longest extra wait, kept in whole milliseconds.
    /// - Returns: The directive.
    public static func jitter(_ duration: Duration) -> Fault {
        Fault(directives: [.jitter(Fault.milliseconds(duration))])
    }

    /// `rate=64k`: the reply arrives at this many bytes per second, on a seeded schedule (1 B/s to 100 MB/s).
    ///
    /// - Parameter bytesPerSecond: The rate.
    /// - Returns: The directive.
    public static func rate(bytesPerSecond: Int) -> Fault {
        Fault(directives: [.rate(bytesPerSecond: bytesPerSecond)])
    }

    /// `uprate=16k`: the request body is read at this many bytes per second, so a client's upload progress sees
    /// the rate (1 B/s to 100 MB/s).
    ///
    /// - Parameter bytesPerSecond: The rate.
    /// - Returns: The directive.
    public static func uprate(bytesPerSecond: Int) -> Fault {
        Fault(directives: [.uprate(bytesPerSecond: bytesPerSecond)])
    }

    /// `stall=500ms`: the body pauses this long at seeded places mid-body, one pause per started 64 KB (up to
    /// eight), on top of any `rate`.
    ///
    /// - Parameter duration: Each pause, kept in whole milliseconds (up to 60 s).
    /// - Returns: The directive.
    public static func stall(_ duration: Duration) -> Fault {
        let milliseconds = Fault.milliseconds(duration)
        return Fault(directives: [.stall(milliseconds...milliseconds)])
    }

    /// `stall=200ms..2s`: pauses mid-body, each drawn from the range by the session's seeded generator.
    ///
    /// - Parameter range: The shortest and longest pause, kept in whole milliseconds.
    /// - Returns: The directive.
    public static func stall(_ range: ClosedRange<Duration>) -> Fault {
        Fault(directives: [.stall(Fault.milliseconds(range.lowerBound)...Fault.milliseconds(range.upperBound))])
    }

    /// `profile=3g`: a Network Link Conditioner preset's rates, latency and pauses (100% Loss hangs).
    ///
    /// - Parameter profile: The preset, e.g. ``NetworkProfile/threeG``.
    /// - Returns: The directive.
    public static func profile(_ profile: NetworkProfile) -> Fault {
        Fault(directives: [.profile(profile)])
    }

    /// `chunks=10/2s`: the body in this many equal pieces spread over the duration.
    ///
    /// - Parameters:
    ///   - count: How many pieces (1 to 10,000).
    ///   - duration: Over how long.
    /// - Returns: The directive.
    public static func chunks(_ count: Int, over duration: Duration) -> Fault {
        Fault(directives: [.chunks(count: count, overMilliseconds: Fault.milliseconds(duration))])
    }

    // MARK: Status replies

    /// `status=503`, optionally with `message=` and `retry-after=`: that status with a DummyJSON-style
    /// `{"message"}` body instead of the route's reply.
    ///
    /// - Parameters:
    ///   - code: 204 or a code from 400 to 599.
    ///   - message: The message, instead of DummyJSON's words for the status.
    ///   - retryAfter: A `Retry-After` header.
    /// - Returns: One to three directives.
    public static func status(_ code: Int, message: String? = nil, retryAfter: RetryAfter? = nil) -> Fault {
        var directives: [Directive] = [.status(code)]
        if let message { directives.append(.message(Fault.cleaned(message))) }
        if let retryAfter { directives.append(.retryAfter(retryAfter)) }
        return Fault(directives: directives)
    }

    /// `message=…`: the words of a `status` (or `rate-limit`) reply. A `;` in it becomes `,`, as `;` separates
    /// directives.
    ///
    /// - Parameter text: The message.
    /// - Returns: The directive.
    public static func message(_ text: String) -> Fault {
        Fault(directives: [.message(Fault.cleaned(text))])
    }

    /// `retry-after=2`: the `Retry-After` of a `status` reply.
    ///
    /// - Parameter value: Seconds or an HTTP-date.
    /// - Returns: The directive.
    public static func retryAfter(_ value: RetryAfter) -> Fault {
        Fault(directives: [.retryAfter(value)])
    }

    /// `rate-limit=5/10s`: a token bucket per session; over it, 429 with a correct `Retry-After`.
    ///
    /// - Parameters:
    ///   - requests: Requests allowed per window (1 to 1,000,000).
    ///   - window: The refill window (up to an hour).
    /// - Returns: The directive.
    public static func rateLimit(_ requests: Int, per window: Duration) -> Fault {
        Fault(directives: [.rateLimit(requests: requests, windowMilliseconds: Fault.milliseconds(window))])
    }

    /// `expire-token`: a presented token is treated as expired (401 `Token Expired!`).
    public static let expireToken = Fault(directives: [.expireToken])

    // MARK: Bodies

    /// `malformed`: 200 with the right headers and a body that is not JSON.
    public static let malformed = Fault(directives: [.malformed(shape: false)])

    /// `malformed=shape`: 200 with JSON of the wrong shape (`price` as a string, a key missing).
    public static let malformedShape = Fault(directives: [.malformed(shape: true)])

    /// `truncate=512`: the full `Content-Length`, this many body bytes, then the connection closes.
    ///
    /// - Parameter bytes: Body bytes sent (at least the last byte is always missing).
    /// - Returns: The directive.
    public static func truncate(bytes: Int) -> Fault {
        Fault(directives: [.truncateBytes(bytes)])
    }

    /// `truncate=50%`: this share of the body, then the connection closes.
    ///
    /// - Parameter percent: 0 to 99.
    /// - Returns: The directive.
    public static func truncate(percent: Int) -> Fault {
        Fault(directives: [.truncatePercent(percent)])
    }

    /// `truncate-chunked`: a chunked body that stops before its last chunk.
    public static let truncateChunked = Fault(directives: [.truncateChunked])

    // MARK: Connections

    /// `empty`: the connection closes without a byte.
    public static let empty = Fault(directives: [.empty])
    /// `reset`: a TCP RST before anything is sent.
    public static let reset = Fault(directives: [.reset(afterHeaders: false)])
    /// `reset=after-headers`: a TCP RST right after the response head.
    public static let resetAfterHeaders = Fault(directives: [.reset(afterHeaders: true)])
    /// `hang`: the request is read and never answered.
    public static let hang = Fault(directives: [.hang])
    /// `garbage`: 512 seeded random bytes instead of HTTP.
    public static let garbage = Fault(directives: [.garbage])

    // MARK: Event streams (`/products/stream`)

    /// `drop-after=3`: the stream closes cleanly after this many events.
    ///
    /// - Parameter events: Events sent first (1 or more).
    /// - Returns: The directive.
    public static func dropAfter(events: Int) -> Fault {
        Fault(directives: [.dropAfter(events)])
    }

    /// `cut-mid-event=2`: the connection closes inside this event's data line.
    ///
    /// - Parameter event: The 1-based event number.
    /// - Returns: The directive.
    public static func cutMidEvent(_ event: Int) -> Fault {
        Fault(directives: [.cutMidEvent(event)])
    }

    /// `reset-after=2`: a TCP RST after this many events.
    ///
    /// - Parameter events: Events sent first (1 or more).
    /// - Returns: The directive.
    public static func resetAfter(events: Int) -> Fault {
        Fault(directives: [.resetAfter(events)])
    }

    /// `stall-after=1`: the socket stays open and nothing more is sent after this many events (0: right after
    /// the `retry:` field).
    ///
    /// - Parameter events: Events sent first (0 or more).
    /// - Returns: The directive.
    public static func stallAfter(events: Int) -> Fault {
        Fault(directives: [.stallAfter(events)])
    }

    /// `malformed-event=2`: this event's data line is not JSON.
    ///
    /// - Parameter event: The 1-based event number.
    /// - Returns: The directive.
    public static func malformedEvent(_ event: Int) -> Fault {
        Fault(directives: [.malformedEvent(event)])
    }

    /// `newline=crlf`: the stream's line endings.
    ///
    /// - Parameter newline: `.crlf`, `.cr` or `.lf`.
    /// - Returns: The directive.
    public static func newline(_ newline: Newline) -> Fault {
        Fault(directives: [.newline(newline)])
    }

    /// `chunk=1`: the stream is written this many bytes at a time (1 splits multi-byte characters and CRLF).
    ///
    /// - Parameter bytes: Bytes per write (1 or more).
    /// - Returns: The directive.
    public static func chunk(bytes: Int) -> Fault {
        Fault(directives: [.chunk(bytes)])
    }
}
