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
    /// Break the body's JSON.
    public var malformed: Malformation?
    /// Cut the body short.
    public var truncation: Truncation?
    /// Fail the connection instead of answering.
    public var connection: ConnectionFault?
    /// Faults for `/products/stream`.
    public var stream = StreamFaults()
    /// The spec, normalised: directives trimmed and joined with `; `.
    public var text: String = ""
    /// The normalised directives in order, so a reply can report just the ones that took effect.
    var directives: [Directive] = []

    /// An empty spec: changes nothing.
    public init() {}

    /// How to dribble a body.
    public enum Pacing: Sendable, Equatable {
        /// At most this many bytes per second.
        case bytesPerSecond(Int)
        /// In this many equal pieces spread over this many milliseconds.
        case chunks(count: Int, overMilliseconds: Int)
    }

    /// A token bucket's size and refill window.
    public struct RateLimit: Sendable, Equatable {
        /// Requests allowed per window.
        public var requests: Int
        /// The window, in milliseconds.
        public var windowMilliseconds: Int
    }

    /// How to break a JSON body.
    public enum Malformation: Sendable, Equatable {
        /// A body that is not JSON at all.
        case syntax
        /// Valid JSON of the wrong shape (a number as a string, a required key missing).
        case shape
    }

    /// How much of a body to send before closing.
    public enum Truncation: Sendable, Equatable {
        /// Send this many body bytes of a full Content-Length, then close.
        case bytes(Int)
        /// Send this percentage of the body, then close.
        case percent(Int)
        /// A chunked body that stops before its last chunk.
        case chunked
    }

    /// How to fail the connection instead of answering.
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
        /// Close the stream cleanly after this many events.
        public var dropAfter: Int?
        /// Close the stream halfway through this event.
        public var cutMidEvent: Int?
        /// Reset the connection (RST) after this many events.
        public var resetAfter: Int?
        /// Keep the connection open but send nothing after this many events.
        public var stallAfter: Int?
        /// Send this event with broken JSON in its data.
        public var malformedEvent: Int?
        /// The line ending: `lf`, `crlf` or `cr`.
        public var newline: String?
        /// Write the stream this many bytes at a time.
        public var chunkSize: Int?
        /// An empty spec: changes nothing.
        public init() {}
    }

    /// One directive as normalised (`status=503`), with its lower-case name.
    struct Directive: Sendable, Equatable {
        let name: String
        let text: String
    }

    /// Whether the spec changes anything at all.
    public var isEmpty: Bool { text.isEmpty }

    /// Directives that only `/products/stream` can carry out.
    static let streamDirectives: Set<String> = ["drop-after", "cut-mid-event", "reset-after", "stall-after",
                                                "malformed-event", "newline", "chunk"]
    /// Directives that change a body sent whole: a stream has none, and neither has a HEAD reply or a 204.
    static let bodyDirectives: Set<String> = ["malformed", "truncate", "truncate-chunked", "rate", "chunks"]

    /// Whether any directive could take effect on a stream (or, with `false`, on any other reply). The parser
    /// refuses specs that mix stream and body directives, so a spec is for one kind of reply or for both.
    func canApply(toStream stream: Bool) -> Bool {
        let onlyElsewhere = stream ? FaultSpec.bodyDirectives : FaultSpec.streamDirectives
        return directives.contains { !onlyElsewhere.contains($0.name) }
    }

    /// The normalised text without the directives named in `skipped`: what a reply reports as applied.
    func text(skipping skipped: Set<String>) -> String {
        guard !skipped.isEmpty else { return text }
        return directives.filter { !skipped.contains($0.name) }.map(\.text).joined(separator: "; ")
    }

    /// The names of this spec's directives that are in `names`.
    func present(_ names: Set<String>) -> Set<String> {
        Set(directives.lazy.map(\.name).filter(names.contains))
    }

    /// `retry-after` as an HTTP-date, in seconds since 1970 (nil when it is a number of seconds, or absent).
    var retryAfterDate: Double? {
        retryAfter.flatMap(Timestamp.secondsSince1970(httpDate:))
    }

    /// Whether the reply is decided without routing (status faults and connection faults).
    var replacesReply: Bool { status != nil || connection != nil }

    /// Only an error status, with its message and `Retry-After`: the reply depends on nothing but the spec, so it
    /// can be built once and reused. 429 is left out, as its `X-RateLimit-Reset` reads the clock.
    var isPlainErrorStatus: Bool {
        guard let status, (400...599).contains(status), status != 429 else { return false }
        return delay == nil && pacing == nil && rateLimit == nil && truncation == nil && connection == nil
    }
}
