/// One forwarded request as it comes back from the upstream: its head, the body bytes not yet taken, whether it
/// ended, or how it failed. The transport's `UpstreamClient` fills it in as libevent reads; the `ProxiedReply`
/// delivery takes from it when woken. Used on its loop thread only.
final class UpstreamExchange {
    /// The upstream's status line and headers.
    struct Head: Equatable {
        var status: Int
        var headers: HTTPHeaders
        /// The body's length when the upstream said it (`Content-Length`); nil for a chunked or close-ended body.
        var contentLength: Int?
    }

    private(set) var head: Head?
    /// Body bytes read from the upstream and not yet taken by the delivery.
    private(set) var pending: [UInt8] = []
    private(set) var ended = false
    private(set) var failure: UpstreamFailure?
    /// Monotonic milliseconds when the request was sent, and when the head arrived.
    let startedAt: Double
    private(set) var headAt: Double?
    /// Body bytes the upstream sent in all.
    private(set) var bodyBytesReceived = 0
    /// How much of the body a copy is kept of as it arrives, for a recording or a later snapshot (0: none). A
    /// body over it is not kept at all, so a large download costs no copy.
    var keptBodyLimit = 0
    private(set) var keptBody: [UInt8] = []
    /// The body outgrew what is kept: the exchange is not recorded.
    private(set) var keptBodyOverflowed = false
    /// While recording: bodies up to this size are recorded.
    static let recordedBodyLimit = 16 << 20
    /// Otherwise: bodies up to this size are kept for a snapshot of the last exchanges.
    static let snapshotBodyLimit = 1 << 20

    /// Asks the delivery for a turn: set by the delivery, called whenever something arrives.
    var waker: DeliveryWaker?
    /// Set by the client: stop and restart reading the upstream (a client reading slower than the upstream sends),
    /// and give up on the request (the client left).
    var pauseReading: () -> Void = {}
    var resumeReading: () -> Void = {}
    var cancel: () -> Void = {}
    private(set) var isPaused = false

    init(startedAt: Double) {
        self.startedAt = startedAt
    }

    /// An exchange that failed before anything was sent (no upstream, the server stopping), at monotonic `now`.
    static func unsent(_ detail: String, at now: Double) -> UpstreamExchange {
        let exchange = UpstreamExchange(startedAt: now)
        exchange.failed(UpstreamFailure(kind: .unreachable, detail: detail), at: exchange.startedAt)
        return exchange
    }

    var isOver: Bool { ended || failure != nil }

    /// The upstream's whole reply, when its body was kept and it ended cleanly: what `--record` writes.
    var capturedReply: CapturedReply? {
        guard keptBodyLimit > 0, ended, !keptBodyOverflowed, let head else { return nil }
        return CapturedReply(status: head.status, headers: head.headers, body: keptBody)
    }

    // MARK: What the client reports

    func received(_ head: Head, at now: Double) {
        guard self.head == nil, !isOver else { return }
        self.head = head
        headAt = now
        waker?.wake()
    }

    func received(_ bytes: [UInt8]) {
        guard !isOver, !bytes.isEmpty else { return }
        // A body that comes in one read is shared, not copied, by what is pending, what is kept and what is sent.
        if pending.isEmpty { pending = bytes } else { pending += bytes }
        bodyBytesReceived += bytes.count
        if keptBodyLimit > 0, !keptBodyOverflowed {
            if keptBody.count + bytes.count > keptBodyLimit {
                keptBodyOverflowed = true
                keptBody = []
            } else if keptBody.isEmpty {
                keptBody = bytes
            } else {
                keptBody += bytes
            }
        }
        waker?.wake()
    }

    func finished() {
        guard !isOver else { return }
        ended = true
        waker?.wake()
    }

    func failed(_ failure: UpstreamFailure, at now: Double) {
        guard !isOver else { return }
        self.failure = failure
        if headAt == nil { headAt = now }
        waker?.wake()
    }

    // MARK: What the delivery asks

    /// Takes up to `limit` pending body bytes.
    func take(upTo limit: Int = .max) -> [UInt8] {
        guard !pending.isEmpty, limit > 0 else { return [] }
        if limit >= pending.count {
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        let taken = Array(pending.prefix(limit))
        pending.removeFirst(limit)
        return taken
    }

    /// Reads from the upstream only while the client keeps up.
    func setPaused(_ paused: Bool) {
        guard paused != isPaused, !isOver else { return }
        isPaused = paused
        paused ? pauseReading() : resumeReading()
    }
}

/// Why a forwarded request got no (whole) reply from the upstream.
struct UpstreamFailure: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// No connection: refused, unreachable, or the name did not resolve.
        case unreachable
        /// No answer within the timeout.
        case timeout
        /// The TLS handshake failed (an untrusted certificate, a wrong host name).
        case tls
        /// Something that is not an HTTP reply, or the connection closed mid-reply.
        case badReply
    }

    let kind: Kind
    /// The cause in a few words, for the client's message and the journal.
    let detail: String

    /// 504 for a timeout, 502 for everything else.
    var status: Int { kind == .timeout ? 504 : 502 }

    /// The JSON body the client gets, naming `upstreamURL` and the cause.
    func body(upstreamURL: String) -> [UInt8] {
        let verb = kind == .timeout ? "did not answer in time" : "failed"
        return HTTPResponse.message("The upstream \(upstreamURL) \(verb): \(detail)", status: status).body.bytesCopy
    }
}
