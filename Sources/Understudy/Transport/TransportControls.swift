/// What the pipeline (the admin API) may read and change of the transport under it; nothing else crosses down.
protocol TransportControls: AnyObject {
    /// Whether new connections are being refused now.
    var isOffline: Bool { get }
    /// Milliseconds until connections are accepted again (0 when online).
    var offlineMillisecondsLeft: Double { get }
    /// Replies the transport still holds: delayed, paced, hung or streaming.
    var heldReplies: Int { get }
    /// The TLS faults the next handshakes go wrong with; nil when the server serves no HTTPS.
    var tlsFaults: TLSFaultQueue? { get }
    /// Refuses connections for `milliseconds`, serving those already open.
    func goOffline(forMilliseconds milliseconds: Int)
    /// Sends a request to the upstream (`--upstream`); the exchange fills in as its reply arrives.
    func sendUpstream(_ request: UpstreamRequest) -> UpstreamExchange
    /// Opens a raw connection to the upstream for a relayed WebSocket; nil with no upstream, or when none could be
    /// made.
    func openUpstreamSocket() -> UpstreamSocket?
    /// What runs work on the loop's thread from any thread (work done elsewhere handing its result back).
    var loopSubmitter: @Sendable (@escaping @Sendable () -> Void) -> Void { get }
}
