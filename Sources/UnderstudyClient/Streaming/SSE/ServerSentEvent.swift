/// One dispatched server-sent event.
public struct ServerSentEvent: Sendable, Hashable {
    /// The last event ID at dispatch: the most recent `id:` field, kept across events; empty when none or cleared.
    public var id: String
    /// The event type: the `event:` field, or `"message"` when the event had none.
    public var event: String
    /// The `data:` lines joined with LF.
    public var data: String
    /// The reconnection time this event's block set with a valid `retry:` field, if any.
    public var retry: Duration?

    /// Creates an event.
    public init(id: String = "", event: String = "message", data: String, retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}
