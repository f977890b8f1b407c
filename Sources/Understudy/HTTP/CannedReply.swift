/// A reply built once and sent again as is: a cached catalogue body, or the answer to a fault header that asks
/// only for an error status. The loop adds the per-request rate-limit headers.
///
/// Header names and values are kept as C strings, as evhttp takes them: a Swift `String` argument is copied to the
/// heap for each call when it is short.
struct CannedReply {
    let status: Int
    /// The headers that come before the rate-limit ones, in the order the full pipeline adds them.
    let headers: [(name: [CChar], value: [CChar])]
    let body: SharedBytes
    /// Sent after the rate-limit headers, as `decorate` does.
    let etag: [CChar]?
    /// The applied fault's normalised spec, for the journal.
    let fault: String?

    init(status: Int, headers: [(name: String, value: String)], body: SharedBytes, etag: [CChar]?,
         fault: String?) {
        self.status = status
        self.headers = headers.map { (name: Array($0.name.utf8CString), value: Array($0.value.utf8CString)) }
        self.body = body
        self.etag = etag
        self.fault = fault
    }

    /// A cached catalogue body: 200, JSON, with its ETag.
    init(body: SharedBytes, etag: String) {
        status = 200
        headers = CannedReply.jsonHeaders
        self.body = body
        self.etag = Array(etag.utf8CString)
        fault = nil
    }

    private static let jsonHeaders = [(name: Array("Content-Type".utf8CString), value: Array(HTTPResponse.jsonContentType.utf8CString))]
}
