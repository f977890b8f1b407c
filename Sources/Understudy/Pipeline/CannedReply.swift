/// A reply built once and sent again as is: a cached catalogue body, or the answer to a fault header that asks
/// only for an error status. The loop adds the per-request rate-limit headers (see `CannedHead`).
///
/// A class whose head is kept in buffers of its own, so that sending it copies bytes and touches no reference
/// counts: each retain and release is an atomic operation, and a reply sent 60,000 times a second felt them.
/// Created and used on its loop's thread only.
final class CannedReply {
    let status: Int
    let body: SharedBytes
    /// The applied fault's normalised spec, for the journal.
    let fault: String?
    /// The status line after the status code, through the rate-limit lines up to the remaining count: the reason
    /// phrase, then every field as `\r\nName: value`, then `\r\nX-RateLimit-Limit: 100\r\nX-RateLimit-Remaining: `
    /// (without that last part when the reply brings counters of its own). Not NUL-terminated. (See `CannedHead`
    /// for why the head rides on the status line.)
    let prefix: UnsafeMutableBufferPointer<CChar>
    /// Whether the head carries the server's live rate-limit counters: not when the fields bring their own (a
    /// replayed answer recorded with its API's), which are sent as they are, as the middleware leaves them.
    let liveCounters: Bool
    /// Whether the first field is `Content-Type`, so evhttp must not add its default one.
    let setsContentType: Bool
    /// After the remaining count.
    static let resetLabel = Array("\r\nX-RateLimit-Reset: ".utf8).map { CChar(bitPattern: $0) }
    /// After the reset time: the ETag line, if any. Not NUL-terminated.
    let suffix: UnsafeMutableBufferPointer<CChar>
    /// The body length in decimal, NUL-terminated.
    let contentLength: UnsafeMutableBufferPointer<CChar>
    /// The status's reason phrase, a C string literal.
    let reasonPhrase: UnsafePointer<CChar>

    init(status: Int, headers: [(name: String, value: String)], body: SharedBytes, etag: String?, fault: String?,
         rateLimitWindow: Bool = true) {
        self.status = status
        self.body = body
        self.fault = fault
        let fields = headers.isEmpty ? [(name: "Content-Type", value: HTTPResponse.jsonContentType)] : headers
        setsContentType = fields[0].name.caseInsensitiveEquals("Content-Type")
        liveCounters = rateLimitWindow && !HTTPHeaders(fields).carriesRateLimitCounters
        var text = ReasonPhrase.forStatus(status)
        for field in fields { text += "\r\n\(field.name): \(field.value)" }
        if liveCounters { text += "\r\nX-RateLimit-Limit: \(RateLimitWindow.limit)\r\nX-RateLimit-Remaining: " }
        prefix = CannedReply.buffer(Array(text.utf8).map { CChar(bitPattern: $0) })
        suffix = CannedReply.buffer(Array((etag.map { "\r\nETag: \($0)" } ?? "").utf8).map { CChar(bitPattern: $0) })
        contentLength = CannedReply.buffer(Array(String(body.count).utf8CString))
        reasonPhrase = ReasonPhrase.cString(forStatus: status)
    }

    /// A cached catalogue body: 200, JSON, with its ETag.
    convenience init(body: SharedBytes, etag: String) {
        self.init(status: 200, headers: [("Content-Type", HTTPResponse.jsonContentType)], body: body, etag: etag,
                  fault: nil)
    }

    /// The most a canned head may take, status line and fields: the transport's buffer for it (`CannedHead`).
    static let maximumHeadBytes = 2_048

    /// Whether the head fits the transport's buffer: checked when a reply is canned (a resource reply always fits;
    /// a fault spec near its 1 KiB cap may not, and is then answered by the pipeline instead).
    var fitsCannedHead: Bool {
        prefix.count + suffix.count + 64 < CannedReply.maximumHeadBytes
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        contentLength.deallocate()
    }

    private static func buffer(_ bytes: [CChar]) -> UnsafeMutableBufferPointer<CChar> {
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, bytes.count))
        _ = buffer.initialize(from: bytes)
        return UnsafeMutableBufferPointer(rebasing: buffer[..<bytes.count])
    }
}
