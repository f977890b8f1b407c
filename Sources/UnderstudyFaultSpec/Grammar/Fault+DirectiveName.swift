extension Fault.Directive {
    /// A directive's name in the grammar, in the order the server lists them when it meets an unknown one.
    ///
    /// Every switch over it is exhaustive, so a new directive is a new case here and the compiler names each place
    /// that must say what it is: its value (``Fault/Directive``), its role, its example, and the server's decision.
    package enum Name: String, Sendable, Hashable, CaseIterable {
        case delay, jitter, rate, uprate, chunks, stall, profile, status, message
        case retryAfter = "retry-after"
        case rateLimit = "rate-limit"
        case expireToken = "expire-token"
        case malformed, truncate
        case truncateChunked = "truncate-chunked"
        case empty, reset, hang, garbage
        case dropAfter = "drop-after"
        case cutMidEvent = "cut-mid-event"
        case resetAfter = "reset-after"
        case stallAfter = "stall-after"
        case malformedEvent = "malformed-event"
        case newline, chunk
        case close
        case closeAfter = "close-after"
        case corrupt, skip, duplicate, lag

        /// What the directive does to a reply, for telling which pairs cannot both take effect.
        package var role: Role {
            switch self {
            case .empty, .reset, .hang, .garbage: .connection
            case .status: .status
            case .truncate, .truncateChunked: .truncation
            case .rate, .chunks: .pacing
            case .stall: .stall
            case .uprate: .upload
            case .profile: .profile
            case .malformed: .malformed
            case .expireToken: .expireToken
            case .dropAfter, .cutMidEvent, .resetAfter, .stallAfter, .malformedEvent, .newline, .chunk: .stream
            case .close, .closeAfter, .corrupt, .skip, .duplicate, .lag: .socket
            case .delay, .jitter, .message, .retryAfter, .rateLimit: .other
            }
        }

        /// Whether only an event stream (`/products/stream`) or a WebSocket can carry it out: the message-numbered
        /// directives act on both, where a stream's events are a socket's messages.
        package var isStreamOnly: Bool { role == .stream || role == .socket }

        /// Whether an event stream can carry it out: not the WebSocket-only directives.
        package var actsOnEventStream: Bool { role == .stream }

        /// Whether a WebSocket can carry it out: its own directives and the stream ones that number messages (a
        /// socket has no line endings, so not `newline`).
        package var actsOnSocket: Bool { role == .socket || (role == .stream && self != .newline) }

        /// Whether it changes a body sent whole: a stream has none, and neither has a HEAD reply or a 204.
        package var changesWholeBody: Bool { [.truncation, .pacing, .stall, .malformed].contains(role) }

        /// How the value is written, for the error of a directive given without one.
        var example: String {
            switch self {
            case .delay: "delay=300ms or delay=100ms..500ms"
            case .rate: "rate=64k or rate=2kB/s"
            case .uprate: "uprate=16k"
            case .jitter: "jitter=200ms"
            case .stall: "stall=500ms or stall=200ms..2s"
            case .profile: "profile=3g"
            case .chunks: "chunks=10/2s"
            case .rateLimit: "rate-limit=5/10s"
            case .truncate: "truncate=512 or truncate=50%"
            case .close: "close=1011"
            case .closeAfter: "close-after=5s"
            case .corrupt: "corrupt=utf8, corrupt=rsv or corrupt=mask"
            case .lag: "lag=300ms or lag=100ms..1s"
            default: "\(rawValue)=3"
            }
        }
    }

    /// What a directive does to the reply.
    package enum Role: Sendable, Equatable {
        case connection, status, truncation, pacing, malformed, expireToken, stream, other
        /// A WebSocket's messages and closing (`close`, `corrupt`, `lag`…).
        case socket
        /// Pauses mid-body (`stall`), on top of any pacing.
        case stall
        /// The request body's reading rate (`uprate`).
        case upload
        /// A whole network (`profile`): rates, latency and pauses at once.
        case profile
    }
}
