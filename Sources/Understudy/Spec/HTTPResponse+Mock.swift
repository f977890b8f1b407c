import UnderstudyOpenAPI

extension HTTPResponse {
    /// A document's answer (`MockEngine`) as a response: its status, headers in order, and body.
    init(_ answer: MockResponse) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.headers.count)
        for field in answer.headers { headers.add(field.name, field.value) }
        self.init(status: answer.status, headers: headers, body: answer.body.isEmpty ? .empty : .bytes(answer.body))
    }
}
