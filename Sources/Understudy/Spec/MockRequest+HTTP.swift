import UnderstudyOpenAPI

extension MockRequest {
    /// A request as a document's mock and contract check read it: the method, the path still percent-encoded, the
    /// raw query, the headers and the body.
    init(_ request: HTTPRequest) {
        self.init(method: request.method, path: String(request.path), rawQuery: request.rawQuery.map(String.init),
                  headers: request.headers.decoded.fields, body: request.body)
    }
}
