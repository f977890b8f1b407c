/// What to do to one request: a parsed fault spec such as `delay=200ms; status=503; retry-after=1`.
///
/// Every field is optional; an empty spec changes nothing. `text` is the spec as written, normalised, and is
/// what `X-Understudy-Fault-Applied` reports.
public struct FaultSpec: Sendable, Equatable {
    /// Wait before the status line: a fixed time or a uniform range, in milliseconds.
    public var delay: ClosedRange<Int>?
    /// Dribble the body.
    public var pacing: Pacing?
    /// Answer with this status instead of routing, with a DummyJSON-style `{"message"}` body.
    public var status: Int?
    /// The message for `status` (defaults to DummyJSON's words for that status).
    public var message: String?
    /// The `Retry-After` value: seconds or an HTTP-date, as given.
    public var retryAfter: String?
    /// A token bucket: this many requests per window, per session.
    public var rateLimit: RateLimit?
    /// Treat the presented token as expired.
    public var expireToken = false
    public var malformed: Malformation?
    public var truncation: Truncation?
    public var connection: ConnectionFault?
    /// Stop accepting connections for this many milliseconds (admin API and Swift only).
    public var offlineMilliseconds: Int?
    /// Faults for `/products/stream`.
    public var stream = StreamFaults()
    /// The spec, normalised: directives trimmed and joined with `; `.
    public var text: String = ""

    public init() {}

    /// How to dribble a body.
    public enum Pacing: Sendable, Equatable {
        /// At most this many bytes per second.
        case bytesPerSecond(Int)
        /// In this many equal pieces spread over this many milliseconds.
        case chunks(count: Int, overMilliseconds: Int)
    }

    public struct RateLimit: Sendable, Equatable {
        public var requests: Int
        public var windowMilliseconds: Int
    }

    public enum Malformation: Sendable, Equatable {
        /// A body that is not JSON at all.
        case syntax
        /// Valid JSON of the wrong shape (a number as a string, a required key missing).
        case shape
    }

    public enum Truncation: Sendable, Equatable {
        /// Send this many body bytes of a full Content-Length, then close.
        case bytes(Int)
        /// Send this percentage of the body, then close.
        case percent(Int)
        /// A chunked body that stops before its last chunk.
        case chunked
    }

    public enum ConnectionFault: Sendable, Equatable {
        /// Close without sending a byte.
        case empty
        /// TCP RST, before anything or right after the headers.
        case reset(afterHeaders: Bool)
        /// Read the request and never answer.
        case hang
        /// Seeded random bytes instead of HTTP, then close.
        case garbage
    }

    /// Faults of a server-sent event stream, by event number (1-based).
    public struct StreamFaults: Sendable, Equatable {
        public var dropAfter: Int?
        public var cutMidEvent: Int?
        public var resetAfter: Int?
        public var stallAfter: Int?
        public var malformedEvent: Int?
        public var newline: String?
        public var chunkSize: Int?
        public init() {}
    }

    /// Whether the spec changes anything at all.
    public var isEmpty: Bool { text.isEmpty }

    /// Whether the reply is decided without routing (status faults and connection faults).
    var replacesReply: Bool { status != nil || connection != nil }

    /// Only an error status, with its message and `Retry-After`: the reply depends on nothing but the spec, so it
    /// can be built once and reused. 429 is left out, as its `X-RateLimit-Reset` reads the clock.
    var isPlainErrorStatus: Bool {
        guard let status, (400...599).contains(status), status != 429 else { return false }
        return delay == nil && pacing == nil && rateLimit == nil && truncation == nil && connection == nil
            && offlineMilliseconds == nil
    }
}
