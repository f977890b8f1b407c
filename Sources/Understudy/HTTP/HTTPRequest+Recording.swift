import UnderstudyRecording

extension HTTPRequest {
    /// The request as a recording keeps it: the method, the path as sent, the decoded query in order and the body.
    ///
    /// - Parameter allHeaders: Every header line (for writing an exchange; the writer drops the transport's), or
    ///   only `Content-Type`, which is all matching reads (it says whether a body is a form), so a replay does not
    ///   decode the rest.
    func recorded(allHeaders: Bool) -> RecordedExchange.Request {
        let headers: [RecordedExchange.Header] = if allHeaders {
            self.headers.decoded.fields.map { RecordedExchange.Header($0.name, $0.value) }
        } else {
            self.headers["Content-Type"].map { [RecordedExchange.Header("Content-Type", $0)] } ?? []
        }
        return RecordedExchange.Request(method: method, path: String(path),
                                        query: query.pairs.map { RecordedExchange.QueryItem($0.name, $0.value) },
                                        headers: headers, body: body)
    }
}
