/// What a WebSocket endpoint does once its upgrade is accepted: which endpoint, and the largest message it takes.
struct WebSocketPlan: Equatable, Sendable {
    /// The endpoints under `/ws/`.
    enum Endpoint: String, Equatable, Sendable {
        /// Every message sent back as it came.
        case echo
    }

    let endpoint: Endpoint
    /// A message over this many bytes closes the socket with 1009.
    let maximumMessageBytes: Int

    /// The most a message may hold unless the server is told otherwise: 1 MiB.
    static let defaultMaximumMessageBytes = 1 << 20
}
