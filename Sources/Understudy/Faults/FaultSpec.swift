/// What to do to one request, decided from a fault spec such as `delay=200ms; status=503; retry-after=1`
/// (`FaultSpec+Parsing.swift` reads it with the one grammar, `FaultGrammar`).
///
/// Every field is optional; an empty spec changes nothing. `text` is the spec as written, normalised, and is
/// what `X-Understudy-Fault-Applied` reports.
struct FaultSpec: Sendable, Equatable {
    /// Wait before the status line: a fixed time or a uniform range, in milliseconds.
    var delay: ClosedRange<Int>?
    /// A further wait drawn from 0 to this many milliseconds, on top of `delay`.
    var jitter: Int?
    /// Dribble the body.
    var pacing: Pacing?
    /// Pause mid-body at seeded places, each pause drawn from this range of milliseconds.
    var stall: ClosedRange<Int>?
    /// Read the request body at this many bytes per second.
    var uploadBytesPerSecond: Int?
    /// The network preset the rates, latency and pauses came from, for the journal.
    var profile: Fault.NetworkProfile?
    /// Answer with this status instead of routing, with a DummyJSON-style `{"message"}` body.
    var status: Int?
    /// The message for `status` (defaults to DummyJSON's words for that status).
    var message: String?
    /// The `Retry-After` value: seconds or an HTTP-date, as given.
    var retryAfter: String?
    /// A token bucket: this many requests per window, per session.
    var rateLimit: RateLimit?
    /// Treat the presented token as expired.
    var expireToken = false
    /// Break the body's JSON.
    var malformed: Malformation?
    /// Cut the body short.
    var truncation: Truncation?
    /// Fail the connection instead of answering.
    var connection: ConnectionFault?
    /// Faults for `/products/stream` and, numbered by message, for WebSockets.
    var stream = StreamFaults()
    /// Faults only a WebSocket carries out.
    var socket = SocketFaults()
    /// The spec, normalised: directives trimmed and joined with `; `.
    var text: String = ""
    /// The normalised directives in order, so a reply can report just the ones that took effect.
    var directives: [Directive] = []

    /// An empty spec: changes nothing.
    init() {}

    /// How to dribble a body.
    enum Pacing: Sendable, Equatable {
        /// At most this many bytes per second.
        case bytesPerSecond(Int)
        /// In this many equal pieces spread over this many milliseconds.
        case chunks(count: Int, overMilliseconds: Int)
    }

    /// A token bucket's size and refill window.
    struct RateLimit: Sendable, Equatable {
        /// Requests allowed per window.
        var requests: Int
        /// The window, in milliseconds.
        var windowMilliseconds: Int
    }

    /// How to break a JSON body.
    enum Malformation: Sendable, Equatable {
        /// A body that is not JSON at all.
        case syntax
        /// Valid JSON of the wrong shape (a number as a string, a required key missing).
        case shape
    }

    /// How much of a body to send before closing.
    enum Truncation: Sendable, Equatable {
        /// Send this many body bytes of a full Content-Length, then close.
        case bytes(Int)
        /// Send this percentage of the body, then close.
        case percent(Int)
        /// A chunked body that stops before its last chunk.
        case chunked
    }

    /// How to fail the connection instead of answering.
    enum ConnectionFault: Sendable, Equatable {
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
    struct StreamFaults: Sendable, Equatable {
        /// Close the stream cleanly after this many events.
        var dropAfter: Int?
        /// Close the stream halfway through this event.
        var cutMidEvent: Int?
        /// Reset the connection (RST) after this many events.
        var resetAfter: Int?
        /// Keep the connection open but send nothing after this many events.
        var stallAfter: Int?
        /// Send this event with broken JSON in its data.
        var malformedEvent: Int?
        /// The line ending: `lf`, `crlf` or `cr`.
        var newline: String?
        /// Write the stream this many bytes at a time.
        var chunkSize: Int?
        /// Let the stream's bytes out at most this fast (a network profile's download rate).
        var bytesPerSecond: Int?
        /// An empty spec: changes nothing.
        init() {}
    }

    /// Faults only a WebSocket carries out (with the stream's, which number its messages).
    struct SocketFaults: Sendable, Equatable {
        /// The code of a close the fault sends (1000 when only `close-after` asks for one).
        var closeCode: Int?
        /// Close this many milliseconds after the socket opened.
        var closeAfterMilliseconds: Int?
        /// How to break the message `malformed-event` names (the first when it names none).
        var corruption: Fault.FrameCorruption?
        /// Leave out this message.
        var skip: Int?
        /// Send this message twice.
        var duplicate: Int?
        /// Each message waits a time drawn from this range of milliseconds.
        var lag: ClosedRange<Int>?
        init() {}
    }

    /// One directive as normalised (`status=503`), with its lower-case name.
    struct Directive: Sendable, Equatable {
        let name: String
        let text: String
    }

    /// Whether the spec changes anything at all.
    var isEmpty: Bool { text.isEmpty }

    /// Directives that only `/products/stream` or a WebSocket can carry out.
    static let streamDirectives = Set(Fault.Directive.Name.allCases.filter(\.isStreamOnly).map(\.rawValue))
    /// Directives that change a body sent whole: a stream has none, and neither has a HEAD reply or a 204.
    static let bodyDirectives = Set(Fault.Directive.Name.allCases.filter(\.changesWholeBody).map(\.rawValue))
    /// Directives an event stream cannot carry out: a body's, and the WebSocket-only ones.
    static let notForEventStreams = bodyDirectives.union(
        Fault.Directive.Name.allCases.filter { $0.isStreamOnly && !$0.actsOnEventStream }.map(\.rawValue))
    /// Directives a WebSocket cannot carry out: a body's, and `newline`.
    static let notForSockets = bodyDirectives.union(
        Fault.Directive.Name.allCases.filter { $0.isStreamOnly && !$0.actsOnSocket }.map(\.rawValue))

    /// The directives that can never act on a reply of this kind.
    static func inapplicable(to target: FaultTarget) -> Set<String> {
        switch target {
        case .body: streamDirectives
        case .eventStream: notForEventStreams
        case .socket: notForSockets
        }
    }

    /// Whether any directive could take effect on a reply of this kind. The parser refuses specs that mix stream
    /// and body directives, so a spec is for one kind of reply or for both.
    func canApply(to target: FaultTarget) -> Bool {
        let inapplicable = FaultSpec.inapplicable(to: target)
        return directives.contains { !inapplicable.contains($0.name) }
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
        retryAfter.flatMap(IMFFixdate.secondsSince1970)
    }

    /// Whether the reply is decided without routing (status faults and connection faults).
    var replacesReply: Bool { status != nil || connection != nil }

    /// Only an error status, with its message and `Retry-After`: the reply depends on nothing but the spec, so it
    /// can be built once and reused. 429 is left out, as its `X-RateLimit-Reset` reads the clock.
    var isPlainErrorStatus: Bool {
        guard let status, (400...599).contains(status), status != 429 else { return false }
        return delay == nil && jitter == nil && pacing == nil && stall == nil && uploadBytesPerSecond == nil
            && profile == nil && rateLimit == nil && truncation == nil && connection == nil
    }
}
