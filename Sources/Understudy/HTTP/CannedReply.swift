/// A reply built once and sent again as is: a cached catalogue body, or the answer to a fault header that asks
/// only for an error status. The loop adds the per-request rate-limit headers (see `CannedHead`).
struct CannedReply {
    /// The reply's header lines, pre-joined around the two values that change per request.
    struct Head {
        /// The first field's name, NUL-terminated.
        let firstName: [CChar]
        /// The first field's value, the other fields as `\r\nName: value`, then the rate-limit lines up to the
        /// remaining count: `\r\nX-RateLimit-Limit: 100\r\nX-RateLimit-Remaining: `.
        let prefix: [CChar]
        /// After the remaining count.
        static let resetLabel = Array("\r\nX-RateLimit-Reset: ".utf8).map { CChar(bitPattern: $0) }
        /// After the reset time: the ETag line, if any. Not NUL-terminated.
        let suffix: [CChar]
        /// The body length in decimal, NUL-terminated.
        let contentLength: [CChar]

        init(headers: [(name: String, value: String)], etag: String?, bodyCount: Int) {
            let first = headers.first ?? (name: "Content-Type", value: HTTPResponse.jsonContentType)
            firstName = Array(first.name.utf8CString)
            var text = first.value
            for field in headers.dropFirst() { text += "\r\n\(field.name): \(field.value)" }
            text += "\r\nX-RateLimit-Limit: \(RateLimitWindow.limit)\r\nX-RateLimit-Remaining: "
            prefix = Array(text.utf8).map { CChar(bitPattern: $0) }
            suffix = Array((etag.map { "\r\nETag: \($0)" } ?? "").utf8).map { CChar(bitPattern: $0) }
            contentLength = Array(String(bodyCount).utf8CString)
        }
    }

    let status: Int
    let head: Head
    let body: SharedBytes
    /// The applied fault's normalised spec, for the journal.
    let fault: String?

    init(status: Int, headers: [(name: String, value: String)], body: SharedBytes, etag: String?, fault: String?) {
        self.status = status
        self.head = Head(headers: headers, etag: etag, bodyCount: body.count)
        self.body = body
        self.fault = fault
    }

    /// A cached catalogue body: 200, JSON, with its ETag.
    init(body: SharedBytes, etag: String) {
        self.init(status: 200, headers: [("Content-Type", HTTPResponse.jsonContentType)], body: body, etag: etag,
                  fault: nil)
    }
}
