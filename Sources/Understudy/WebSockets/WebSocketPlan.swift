/// What a WebSocket does once its upgrade is accepted: which endpoint (or which recorded conversation it replays),
/// the largest message it takes, the feed's schedule, and the faults of its socket.
struct WebSocketPlan: Equatable, Sendable {
    /// The endpoints under `/ws/`.
    enum Endpoint: String, Equatable, Sendable, CaseIterable {
        /// Every message sent back as it came.
        case echo
        /// Seeded product updates on a schedule, as `/products/stream` sends them.
        case feed
        /// Each message sent to the room's other sockets.
        case chat

        /// The endpoint's path, `/ws/echo`.
        var path: String { "/ws/\(rawValue)" }
    }

    /// `/ws/feed`'s schedule: a message every `intervalMilliseconds`, and a close (1000) after `count` of them.
    struct Feed: Equatable, Sendable {
        var intervalMilliseconds = 1_000
        var count: Int?
    }

    /// What the socket does with what it is sent: an endpoint's work, or a recorded conversation played back.
    enum Behaviour: Equatable, Sendable {
        case endpoint(Endpoint)
        /// A replayed socket (`--replay`) on the recorded path.
        case replay(WebSocketScript, path: String)
        /// A socket forwarded to the upstream (`--upstream`) on the path asked for.
        case relay(path: String)
    }

    let behaviour: Behaviour
    /// A message over this many bytes closes the socket with 1009.
    let maximumMessageBytes: Int
    var feed = Feed()
    /// `/ws/chat`'s room (`?room=`, `lobby` unless given).
    var room: String?
    /// The upgrade's session (`X-Understudy-Session`), which the admin API's pushes can name.
    var session: String?
    var faults = WebSocketFaults()
    /// The seed the feed's payloads and the faults' draws derive from (the session's).
    var seed: UInt64 = 0

    init(endpoint: Endpoint, maximumMessageBytes: Int = WebSocketPlan.defaultMaximumMessageBytes) {
        behaviour = .endpoint(endpoint)
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// A replayed socket on `path`, which plays `script`.
    init(replaying script: WebSocketScript, path: String,
         maximumMessageBytes: Int = WebSocketPlan.defaultMaximumMessageBytes) {
        behaviour = .replay(script, path: path)
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// A socket forwarded to the upstream on `path`.
    init(relayingTo path: String, maximumMessageBytes: Int = WebSocketPlan.defaultMaximumMessageBytes) {
        behaviour = .relay(path: path)
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Whether the socket is the upstream's, forwarded.
    var relays: Bool {
        if case .relay = behaviour { true } else { false }
    }

    /// The endpoint; nil for a replayed or a relayed socket.
    var endpoint: Endpoint? {
        if case .endpoint(let endpoint) = behaviour { endpoint } else { nil }
    }

    /// The path the socket was opened on, as the admin API's pushes and the control room name it.
    var path: String {
        switch behaviour {
        case .endpoint(let endpoint): endpoint.path
        case .replay(_, let path), .relay(let path): path
        }
    }

    /// The most a message may hold unless the server is told otherwise: 1 MiB.
    static let defaultMaximumMessageBytes = 1 << 20
}
