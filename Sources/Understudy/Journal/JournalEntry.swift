import UnderstudyOpenAPI

/// One request as the server saw and answered it.
public struct JournalEntry: Sendable {
    /// Increasing from 1 over the server's life, in the order the server finished with requests.
    public let id: Int
    /// Arrival, in seconds since 1970.
    public let time: Double
    /// The `X-Understudy-Session` it carried.
    public let session: String?
    /// The request method, e.g. `GET`.
    public let method: String
    /// The path without the query.
    public var path: String { String(Substring(target.utf8.prefix(pathLength))) }
    /// The raw query, without `?` (empty when none).
    public var query: String { String(Substring(target.utf8.dropFirst(pathLength + 1))) }
    /// The request target as received: the path, then `?` and the query when there is one. The request owns this
    /// String already, so keeping it costs a reference; splitting it into two new Strings cost every request two
    /// heap copies once either part was over 15 bytes (`/products/search`), and entries are read far less often
    /// than they are written.
    let target: String
    /// How many of `target`'s UTF-8 bytes are the path.
    private let pathLength: Int
    /// The request's headers as received, decoded when read.
    let rawHeaders: RawHeaders
    /// The request body's length in bytes.
    public let bodySize: Int
    /// The id of the rule that fired, if one did.
    public let rule: String?
    /// The fault directives that took effect (normalised, as `X-Understudy-Fault-Applied` said), if any did.
    public let fault: String?
    /// The status sent, or 0 when no status line was sent (empty, reset, hang, garbage).
    public let status: Int
    /// Body bytes handed to the socket (for a truncated body, the part sent).
    public let bytesWritten: Int
    /// From arrival to the reply being queued, in milliseconds (nil when nothing was sent).
    public let firstByteMilliseconds: Double?
    /// From arrival to the server finishing with it, in milliseconds.
    public let durationMilliseconds: Double
    /// For a request forwarded to the upstream (`--upstream`): the upstream's status, 0 when it gave none.
    public let upstreamStatus: Int?
    /// For a forwarded request: from sending it upstream to the upstream's head (or failure), in milliseconds.
    public let upstreamMilliseconds: Double?
    /// For a forwarded request the upstream did not answer in full: why (`connection refused`, a timeout, …).
    public let upstreamFailure: String?
    /// How a forwarded exchange broke the document it is held to (`--upstream URL --spec FILE`).
    let violations: [ContractViolation]
    /// For a WebSocket (a 101): its messages both ways and its closes, recorded when it ended; nil for any other
    /// request.
    public let socket: SocketTranscript?
    /// The violations, one line each (`response.body#/price: type: must be number`): none when the exchange kept
    /// its document, or none is held to one.
    public var contractViolations: [String] { violations.map(\.description) }

    /// An entry for a request whose target is `target`, of which the first `pathLength` UTF-8 bytes are the path.
    init(id: Int, time: Double, session: String?, method: String, target: String, pathLength: Int,
         rawHeaders: RawHeaders, bodySize: Int, rule: String?, fault: String?, status: Int, bytesWritten: Int,
         firstByteMilliseconds: Double?, durationMilliseconds: Double, upstream: UpstreamOutcome? = nil,
         socket: SocketTranscript? = nil) {
        self.id = id
        self.time = time
        self.session = session
        self.method = method
        self.target = target
        self.pathLength = pathLength
        self.rawHeaders = rawHeaders
        self.bodySize = bodySize
        self.rule = rule
        self.fault = fault
        self.status = status
        self.bytesWritten = bytesWritten
        self.firstByteMilliseconds = firstByteMilliseconds
        self.durationMilliseconds = durationMilliseconds
        upstreamStatus = upstream?.status
        upstreamMilliseconds = upstream?.milliseconds
        upstreamFailure = upstream?.failure
        violations = upstream?.violations ?? []
        self.socket = socket
    }

    /// What the upstream did, when the request was forwarded.
    var upstream: UpstreamOutcome? {
        upstreamStatus.map {
            UpstreamOutcome(status: $0, milliseconds: upstreamMilliseconds ?? 0, failure: upstreamFailure, violations: violations)
        }
    }

    init(id: Int, time: Double, session: String?, method: String, path: String, query: String, headers: HTTPHeaders,
         bodySize: Int, rule: String?, fault: String?, status: Int, bytesWritten: Int, firstByteMilliseconds: Double?,
         durationMilliseconds: Double, upstream: UpstreamOutcome? = nil) {
        self.init(id: id, time: time, session: session, method: method,
                  target: query.isEmpty ? path : path + "?" + query, pathLength: path.utf8.count,
                  rawHeaders: RawHeaders(headers), bodySize: bodySize, rule: rule, fault: fault, status: status,
                  bytesWritten: bytesWritten, firstByteMilliseconds: firstByteMilliseconds,
                  durationMilliseconds: durationMilliseconds, upstream: upstream)
    }

    /// The request's headers; a value over `Journal.maximumHeaderValueBytes` is cut and ends in `…`.
    public var headers: HTTPHeaders { rawHeaders.decoded }

    /// The body's rate as sent, in bytes per second, for a reply paced by its fault (`rate`, `chunks`, `stall`,
    /// a `profile`): body bytes over the time from the head to the end. Nil for any other reply, or one that
    /// sent no body.
    public var achievedBytesPerSecond: Int? {
        let paced: Set<String> = ["rate", "chunks", "stall", "profile"]
        guard let fault, bytesWritten > 0, let first = firstByteMilliseconds, durationMilliseconds > first,
              fault.split(separator: ";").contains(where: { directive in
                  paced.contains(String(directive.prefix { $0 != "=" }).trimmingJSWhitespace())
              }) else { return nil }
        return Int((Double(bytesWritten) * 1_000 / (durationMilliseconds - first)).rounded())
    }

    /// The `Authorization` header it carried.
    public var authorization: String? { rawHeaders["Authorization"] }
}

extension JournalEntry {
    /// The same entry with every header value longer than `limit` bytes cut to about that (on a character
    /// boundary) and ended with `…`, so the journal can say what was sent without keeping all of it.
    func cuttingHeaderValues(to limit: Int) -> JournalEntry {
        var cut = HTTPHeaders()
        cut.reserveCapacity(headers.fields.count)
        for field in headers {
            guard field.value.utf8.count > limit else {
                cut.add(field.name, field.value)
                continue
            }
            let bytes = Array(field.value.utf8)
            var end = limit
            // Back off while the first byte left out continues a character, so the kept part is whole UTF-8.
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            cut.add(field.name, String(decoding: bytes[..<end], as: UTF8.self) + "…")
        }
        return JournalEntry(id: id, time: time, session: session, method: method, target: target,
                            pathLength: pathLength, rawHeaders: RawHeaders(cut), bodySize: bodySize, rule: rule,
                            fault: fault, status: status,
                            bytesWritten: bytesWritten, firstByteMilliseconds: firstByteMilliseconds,
                            durationMilliseconds: durationMilliseconds, upstream: upstream, socket: socket)
    }
}
