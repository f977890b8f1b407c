/// What kind of reply a fault acts on, as far as its directives go: each kind carries out some of them only.
enum FaultTarget: Equatable, Sendable {
    /// A body, sent whole or faulted as one.
    case body
    /// A server-sent event stream (`/products/stream`).
    case eventStream
    /// A WebSocket (`/ws/…`), faulted message by message.
    case socket
}
