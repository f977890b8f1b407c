/// What a WebSocket endpoint does once its upgrade is accepted: which endpoint, the largest message it takes, the
/// feed's schedule, and the faults of its socket.
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

    let endpoint: Endpoint
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
        self.endpoint = endpoint
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// The most a message may hold unless the server is told otherwise: 1 MiB.
    static let defaultMaximumMessageBytes = 1 << 20
}
